"""The bots as a coach: a hint for the move to play now, the strong bot's search
(:func:`app.bots.search.estimate`), and the assessment of a move played, the expert bot's
(:func:`app.bots.expert.estimate`), both over the worlds a seat's sampler draws.

Like a seated bot, the coach is handed a seat, its legal actions and a sampler of full states
consistent with what that seat knows (built by the engine's ``randomize_hidden``), never the
true state: its answers depend on the seat's information set and the random stream only, so a
hint or a review says nothing another seat keeps hidden. A review is the expert's, the level
that beat the strong bot at a few hundred rollouts a move, about what a review spends on a
decision (docs/bots.md, "Expert against strong"), and a hint the strong bot's, the level the
room option promises learners. Both races compare moves on common
worlds, which is what a gain between two moves needs. Values are the search's: the
seat's expected score in [0, 1] (a share of the win, a little for a better place, or the game's
evaluation where a rollout stops), shown to people as points out of 100.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.bots import HEURISTICS, expert, search
from app.games.base import Action, Game, Message, State, same_json, say
from app.games.registry import GAMES

HINT_LEVEL = "strong"  # the level whose search gives hints, at the budget its caller gives
REVIEW_LEVEL = "expert"  # the level whose search assesses a review's decisions
Sampler = Callable[[random.Random], State]


@dataclass(frozen=True)
class Hint:
    """The move to play and why, in one line (a message naming only the seat's own moves)."""

    action: Action
    reason: Message
    value: float


@dataclass(frozen=True)
class Assessment:
    """A move played against the move the search prefers: both with their values (on the
    same worlds), and the gain the preferred move was worth (0 when it is the move played)."""

    played: Action
    best: Action
    played_value: float
    best_value: float

    @property
    def gain(self) -> float:
        return max(0.0, self.best_value - self.played_value)


def turn(
    game: Game, seat: int, legal: list[Action], sampler: Sampler, rng: random.Random, rollouts: int
) -> search.Turn:
    """A searching bot's turn with a budget of ``rollouts`` (reproducible: no clock)."""
    return search.Turn(game, HEURISTICS[game.slug], seat, legal, sampler, rng, 0.0, rollouts)


def points(value: float) -> int:
    return round(100 * value)


def hint(
    game: Game,
    seat: int,
    legal: list[Action],
    sampler: Sampler,
    rng: random.Random,
    rollouts: int,
    label: Callable[[Action], Message],
) -> Hint:
    """The strong bot's move for ``seat`` and a one-line reason (``label`` says a move as the
    seat's buttons do)."""
    if len(legal) == 1:
        return Hint(legal[0], say("it is your only move"), 0.0)
    ranked = search.estimate(turn(game, seat, legal, sampler, rng, rollouts))
    best = ranked[0]
    if best.worlds == 0:
        return Hint(best.action, say("the bot's rules of thumb leave no other move worth weighing"), 0.0)
    rival = ranked[1]
    said = {"worlds": best.worlds, "points": points(best.value), "rival": label(rival.action)}
    if points(best.value) == points(rival.value):  # (a tie as people read it: "0 against 0" said nothing)
        reason = say(
            "over {worlds} deals that match what you can see, it did as well as “{rival}” "
            "(both {points} out of 100): either will do",
            **said,
        )
    else:
        reason = say(
            "over {worlds} deals that match what you can see, it scored {points} out of 100, "
            "against {rival_points} for “{rival}”",
            rival_points=points(rival.value),
            **said,
        )
    return Hint(best.action, reason, best.value)


def assess(
    game: Game, seat: int, legal: list[Action], played: Action, sampler: Sampler, rng: random.Random, rollouts: int
) -> Assessment:
    """The move ``played`` by ``seat`` against the expert bot's preferred move."""
    ranked = expert.estimate(turn(game, seat, legal, sampler, rng, rollouts), keep=played)
    best = ranked[0]
    mine = next(e for e in ranked if same_json(e.action, played))
    return Assessment(played, best.action, mine.value, best.value)


def review_decision(slug: str, seat: int, state: State, played: Action, seed: str, rollouts: int) -> dict[str, Any]:
    """One decision of a review, as a worker process computes it: ``seat`` played ``played``
    in ``state`` (the state then; the sampler is built from it, as for a seated bot). The
    random stream comes from ``seed``, so a review is reproducible. Answers the assessment as
    JSON, with the labels of both moves as the seat's buttons said them."""
    game = GAMES[slug]
    legal = game.legal_actions(state, seat)
    found = assess(
        game, seat, legal, played, lambda r: game.randomize_hidden(state, seat, r), random.Random(seed), rollouts
    )
    return {
        "played": found.played,
        "played_label": game.label(found.played, state),
        "played_value": round(found.played_value, 4),
        "best": found.best,
        "best_label": game.label(found.best, state),
        "best_value": round(found.best_value, 4),
        "gain": round(found.gain, 4),
    }
