"""Climb, a toy card game registered for the test run (``EXTRA_GAMES=tests.toy.game``, set by
tests/conftest.py): the proof that a game plugs in through its entry alone (docs/architecture.md,
"Adding a game"). Its messages are ones the app's catalog already translates.

Rules: 2-3 players; fifteen cards numbered 1-15 are shuffled into a face-down pile and each
player is dealt 3 of them (the hand: the hidden information, with the pile's order). In turn,
from seat 0, each player plays one card of their hand face up, or discards one face up, then
draws the pile's top card while there is one. A card played higher than the last one played
scores its number; a lower one scores nothing; a discard scores nothing and leaves the last
card as it was. When every hand is empty the highest score wins (tied players all win).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Literal

from typing_extensions import TypedDict

from app.games import base
from app.games.base import Action, Outcome, State
from app.games.entry import GameEntry

CARDS = 15
HAND = 3
HERE = Path(__file__).resolve().parent


class Play(TypedDict):
    """Play a card of your hand face up."""

    type: Literal["play"]
    card: int


class Discard(TypedDict):
    """Discard a card of your hand face up."""

    type: Literal["discard"]
    card: int


ClimbAction = Play | Discard


class ClimbView(TypedDict):
    hand: list[int] | None  # the reader's own cards; None for a spectator
    hand_sizes: list[int]
    pile: int  # the cards left to draw
    played: list[list[int]]  # each seat's cards played, in order
    discards: list[list[int]]  # each seat's cards discarded, in order
    last: int | None  # the last card played
    scores: list[int]
    to_act: int | None


def play(work: State, seat: int, action: Action) -> None:
    """A played card scores its value when it climbs above the last card played, else nothing."""
    card = action["card"]
    work["scores"][seat] += card if work["last"] is None or card > work["last"] else 0
    work["played"][seat].append(card)
    work["last"] = card
    end_turn(work, seat, card, base.say("{player} plays {card}.", player=base.seat_label(seat), card=card))


def discard(work: State, seat: int, action: Action) -> None:
    """A discarded card goes face up to the seat's discards and scores nothing."""
    card = action["card"]
    work["discards"][seat].append(card)
    said = base.say("{player} discards {card} from their hand.", player=base.seat_label(seat), card=card)
    end_turn(work, seat, card, said)


def end_turn(work: State, seat: int, card: int, said: base.Message) -> None:
    """The card leaves the hand, the move is logged, the seat draws from the pile if it can,
    and the next seat is to act."""
    work["hands"][seat] = [c for c in work["hands"][seat] if c != card]
    work["log"].append(base.log_entry(said))
    if work["pile"]:
        work["hands"][seat] = sorted([*work["hands"][seat], work["pile"].pop(0)])
    work["turn"] = (seat + 1) % work["num_players"]


class Climb(base.Game):
    slug = "climb"
    title = "Climb"
    min_players = 2
    max_players = 3
    options = ()
    fixed_keys = ()
    action_type = ClimbAction
    view_type = ClimbView
    handlers: ClassVar[Mapping[str, base.Handler]] = {"play": play, "discard": discard}

    def _setup(self, num_players: int, options: dict[str, Any], seed: str) -> State:
        state: State = {"seed": seed, "rng_draws": 0, "num_players": num_players, "options": {}, "log": []}
        deck = list(range(1, CARDS + 1))
        base.rng(state).shuffle(deck)
        state.update(
            hands=[sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(num_players)],
            pile=deck[num_players * HAND :],
            played=[[] for _ in range(num_players)],
            discards=[[] for _ in range(num_players)],
            last=None,
            scores=[0] * num_players,
            turn=0,
        )
        return state

    def to_act(self, state: State) -> set[int]:
        return set() if self.outcome(state) else {state["turn"]}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return [{"type": kind, "card": card} for kind in ("play", "discard") for card in state["hands"][seat]]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "pile": len(state["pile"]),
            "played": [list(cards) for cards in state["played"]],
            "discards": [list(cards) for cards in state["discards"]],
            "last": state["last"],
            "scores": list(state["scores"]),
            "to_act": None if self.outcome(state) else state["turn"],
        }

    def outcome(self, state: State) -> Outcome | None:
        if any(state["hands"]):
            return None
        scores = list(state["scores"])
        ranking = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
        winners = [s for s in ranking if scores[s] == max(scores)]
        return Outcome(scores, winners, ranking, base.places(ranking, scores.__getitem__))

    def label(self, action: Action, state: State | None = None) -> base.Message:
        return base.say("Play {card}" if action["type"] == "play" else "Discard {card}", card=action["card"])

    def randomize_hidden(self, state: State, seat: int | None, r: random.Random) -> State:
        state = base.working_copy(state)
        others = [s for s in range(state["num_players"]) if s != seat]
        unseen = sorted([card for s in others for card in state["hands"][s]] + state["pile"])  # their order is hidden
        r.shuffle(unseen)
        for s in others:
            size = len(state["hands"][s])
            state["hands"][s], unseen = sorted(unseen[:size]), unseen[size:]
        state["pile"], state["seed"] = unseen, f"{r.getrandbits(64):016x}"
        return state


GAME = Climb()
ENTRY = GameEntry(
    GAME,
    heuristics="tests.toy.bots",
    presenter="tests.toy.table",
    ratings={},  # not on the ladder
    styles=("/static/games/climb/climb.css",),
    pieces=(".climb-card",),
    templates=HERE / "templates",
    static=HERE / "static",
)
