"""The strong bot's search: determinized Monte Carlo over a few candidate moves, compared
on common worlds and narrowed by successive halving.

Each *world* is a full state drawn from the sampler (a deal consistent with what the seat
knows). In a world, every candidate still in the race is applied and rolled out with the
same random stream (common random numbers: the candidates meet the same deals and the same
future draws, so their difference is measured with little noise): every seat plays on with the
game's cheap policy for at most ``horizon`` actions, and the result is scored for the searching
seat in [0, 1], by its share of the win if the game ended, else by the game's evaluation. After
3, 6, 12, ... worlds the worse half of the candidates is dropped (at least two stay). The move
played is the best mean. Everything game-specific sits in a :class:`Heuristics`.

One *iteration* is one rollout. With an iteration cap the search stops at the last whole world
that fits in the cap (and with a cap below the number of candidates, races only the best
ranked ones); without one it stops when the time budget is spent.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.games.base import Action, Game, IllegalAction, Outcome, State, same_json

TIME_SHARE = 0.8  # of the budget spent searching: sampling and answering need the rest
FIRST_HALVING = 3


@dataclass(frozen=True)
class Heuristics:
    """What the search needs to know about one game.

    candidates(state, seat, legal): the moves worth searching, best first (elements of
        ``legal``); reads only what ``seat`` knows, so any sampled state gives the same list.
    policy(state, seat, legal, rng): a quick move for rollouts (may use the sampled state); now
        and then (one time in ten) it explores, playing a lesser move.
    evaluate(state, seat): how good a state that is not over looks for ``seat``, in [0, 1].
    horizon: rollout length in actions before ``evaluate`` takes over.
    trim(state): drop, in place, bulky parts of a sampled state that rollouts never read.
    seats(state): the number of seats of a state.
    ranked(state, seat, legal): the moves worth weighing (every legal move, or those the game's
        rules of thumb find sensible), best first by the same measure as ``candidates``, for a
        game whose candidates keep only the best few (the expert bot races more of them); None
        where ``candidates`` is that whole list already.
    expert(seats): what the expert bot uses instead at this many seats, where the game has
        better for it (an evaluation that predicts better, a horizon of its own); the strong bot
        keeps these, as its figures were measured. None: these.
    """

    candidates: Callable[[State, int, list[Action]], list[Action]]
    policy: Callable[[State, int, list[Action], random.Random], Action]
    evaluate: Callable[[State, int], float]
    horizon: int
    trim: Callable[[State], None] = lambda state: None
    seats: Callable[[State], int] = lambda state: state["num_players"]
    ranked: Callable[[State, int, list[Action]], list[Action]] | None = None
    expert: Callable[[int], Heuristics] | None = None


@dataclass(frozen=True)
class Turn:
    """One move to choose: the game, the seat, its legal actions, the sampler of worlds
    consistent with what it knows, the bot's random stream and its budget (seconds, or with
    ``max_iterations`` a number of rollouts that makes the choice reproducible)."""

    game: Game
    heuristics: Heuristics
    seat: int
    legal: list[Action]
    sampler: Callable[[random.Random], State]
    rng: random.Random
    budget_s: float
    max_iterations: int | None

    def deadline(self) -> float:
        return time.perf_counter() + self.budget_s * TIME_SHARE

    def world(self) -> State:
        return prepared(self.heuristics, self.sampler(self.rng))


@dataclass(frozen=True)
class Estimate:
    """A candidate move and what the search found it worth: its mean value for the searching
    seat, in [0, 1], over the ``worlds`` it was played in (0: chosen without searching)."""

    action: Action
    value: float
    worlds: int


def choose(turn: Turn) -> Action:
    """The candidate with the best mean value over the worlds the budget allows."""
    if len(turn.legal) == 1:
        return turn.legal[0]
    return estimate(turn)[0].action


def estimate(turn: Turn, keep: Action | None = None) -> list[Estimate]:
    """The candidates raced, best first: the move :func:`choose` plays, then those still in the
    race, then those halving dropped (each by its mean over the worlds it saw). ``keep``, a move
    of the seat (a move played, to compare with the best), is raced too and never dropped, so
    it meets every world the best meets; without it the race is the one ``choose`` runs."""
    heuristics, seat, legal, max_iterations = turn.heuristics, turn.seat, turn.legal, turn.max_iterations
    deadline = turn.deadline()
    world = turn.world()
    ranked = heuristics.candidates(world, seat, legal) or legal
    if max_iterations is not None:
        ranked = ranked[: max(1, max_iterations)]
    ranked, kept = joined(ranked, keep)
    if len(ranked) == 1:
        return [Estimate(ranked[0], 0.0, 0)]
    alive = list(range(len(ranked)))
    totals = [0.0] * len(ranked)
    seen = [0] * len(ranked)
    worlds = used = 0
    while True:
        race(turn, world, ranked, alive, totals, seen)
        worlds += 1
        used += len(alive)
        if halving_point(worlds) and len(alive) > 2:
            alive = sorted(alive, key=lambda j: (-totals[j], j))[: max(2, (len(alive) + 1) // 2)]
            if kept is not None and kept not in alive:
                alive.append(kept)
        if max_iterations is not None and used + len(alive) > max_iterations:
            break
        if max_iterations is None and time.perf_counter() >= deadline:
            break
        world = turn.world()
    dropped = [j for j in range(len(ranked)) if j not in alive]
    order = sorted(alive, key=lambda j: (-totals[j], j)) + sorted(dropped, key=lambda j: (-totals[j] / seen[j], j))
    return [Estimate(ranked[j], totals[j] / seen[j], seen[j]) for j in order]


def joined(moves: list[Action], keep: Action | None) -> tuple[list[Action], int | None]:
    """The moves to race with ``keep`` among them (added last if it is not), and its index."""
    if keep is None:
        return moves, None
    kept = next((j for j, action in enumerate(moves) if same_json(action, keep)), None)
    return (moves, kept) if kept is not None else ([*moves, keep], len(moves))


def race(turn: Turn, world: State, moves: list[Action], alive: list[int], totals: list[float], seen: list[int]) -> None:
    """Play every move of ``moves`` whose index is in ``alive`` in ``world``, all with one random
    stream drawn from the turn's; add each value to its total and count the world it saw."""
    stream = turn.rng.getrandbits(64)
    for j in alive:
        totals[j] += simulate(turn.game, turn.heuristics, world, turn.seat, moves[j], random.Random(stream))
        seen[j] += 1


def halving_point(worlds: int) -> bool:
    """After 3, 6, 12, 24, ... worlds."""
    rounds, rest = divmod(worlds, FIRST_HALVING)
    return rest == 0 and rounds & (rounds - 1) == 0


def prepared(heuristics: Heuristics, state: State) -> State:
    """A sampled state made cheaper to copy: rollouts never read the log (nor what ``trim``
    drops), and every ``apply`` copies the whole state."""
    state["log"] = []
    heuristics.trim(state)
    return state


def simulate(game: Game, heuristics: Heuristics, state: State, seat: int, action: Action, rng: random.Random) -> float:
    """Play ``action`` in a sampled state, roll out with the policy, and score for ``seat``."""
    try:
        state = game.apply(state, seat, action)
    except IllegalAction:
        return 0.0  # cannot happen when the sample agrees with the seat's view
    for _ in range(heuristics.horizon):
        if game.outcome(state) is not None:
            break
        actor = min(game.to_act(state))
        move = heuristics.policy(state, actor, game.legal_actions(state, actor), rng)
        state = game.follow(state, actor, move)
    outcome = game.outcome(state)
    if outcome is None:
        return heuristics.evaluate(state, seat)
    return outcome_value(outcome, seat)


def outcome_value(outcome: Outcome, seat: int) -> float:
    """The seat's share of the win, with a little credit for a better place among losers."""
    share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    places = len(outcome.ranking) - 1
    place = 1 - outcome.ranking.index(seat) / places if places else 1.0
    return 0.9 * share + 0.1 * place


def logistic(x: float) -> float:
    """A smooth 0-1 value for an advantage ``x`` (0 -> 0.5), for evaluations."""
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))
