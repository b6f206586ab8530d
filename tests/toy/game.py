"""Climb, a toy card game registered only for the test run (``EXTRA_GAMES=tests.toy.game``):
the proof that a game plugs in through its entry alone (docs/architecture.md, "Adding a game").

Rules: 2-3 players; twelve cards numbered 1-12 are shuffled and each player is dealt 3, face
down (the hand: the hidden information); the rest stay undealt. In turn, from seat 0, each
player plays one card of their hand face up. A card higher than the last one played scores its
number; a lower one scores nothing. When every hand is empty the highest score wins (tied
players all win). Instead of playing, a player may discard a card of their hand face down: it
scores nothing, and only its owner knows it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from typing_extensions import TypedDict

from app.games import base
from app.games.base import Action, Outcome, State
from app.games.entry import GameEntry

CARDS = 12
HAND = 3
HERE = Path(__file__).resolve().parent


class Play(TypedDict):
    """Play a card of your hand face up."""

    type: Literal["play"]
    card: int


class Discard(TypedDict):
    """Discard a card of your hand face down."""

    type: Literal["discard"]
    card: int


ClimbAction = Play | Discard


class ClimbView(TypedDict):
    hand: list[int] | None  # the reader's own cards; None for a spectator
    hand_sizes: list[int]
    played: list[list[int]]  # each seat's cards played, in order
    discards: list[int] | None  # the reader's own cards discarded; None for a spectator
    discard_counts: list[int]
    last: int | None  # the last card played
    scores: list[int]
    to_act: int | None


class Climb(base.Game):
    slug = "climb"
    title = "Climb"
    min_players = 2
    max_players = 3
    options = ()
    fixed_keys = ()
    action_type = ClimbAction
    view_type = ClimbView

    def setup(self, num_players: int, options: dict[str, Any], seed: str) -> State:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError("Climb is for 2 or 3 players")
        state: State = {"seed": seed, "rng_draws": 0, "num_players": num_players, "options": {}, "log": []}
        deck = list(range(1, CARDS + 1))
        base.rng(state).shuffle(deck)
        state["hands"] = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(num_players)]
        state["undealt"] = deck[num_players * HAND :]
        state.update(
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
        hand = state["hands"][seat]
        return [{"type": kind, "card": card} for kind in ("play", "discard") for card in hand]

    def _apply(self, state: State, seat: int, action: Action) -> State:
        base.require(seat in self.to_act(state), "It is not your turn")
        card = action.get("card")
        kind = action.get("type")
        base.require(
            kind in ("play", "discard") and card in state["hands"][seat], "Play or discard a card of your hand"
        )
        state["hands"][seat].remove(card)
        state["turn"] = (seat + 1) % state["num_players"]
        who = base.seat_label(seat)
        if kind == "discard":
            state["discards"][seat].append(card)
            state["log"].append(base.log_entry(base.say("{seat} discards a card", seat=who)))
            return state
        state["scores"][seat] += card if state["last"] is None or card > state["last"] else 0
        state["played"][seat].append(card)
        state["last"] = card
        state["log"].append(base.log_entry(base.say("{seat} plays {card}", seat=who, card=card)))
        return state

    def views(self, state: State, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        return base.each_view(self, state, seats)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "played": [list(cards) for cards in state["played"]],
            "discards": list(state["discards"][seat]) if seat is not None else None,
            "discard_counts": [len(cards) for cards in state["discards"]],
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

    def describe(self, action: Action, state: State | None = None) -> str:
        return f"{'Play' if action['type'] == 'play' else 'Discard'} {action['card']}"

    def randomize_hidden(self, state: State, seat: int | None, r: random.Random) -> State:
        state = base.working_copy(state)
        piles = [(key, s) for key in ("hands", "discards") for s in range(state["num_players"]) if s != seat]
        unseen = [card for key, s in piles for card in state[key][s]] + state["undealt"]
        r.shuffle(unseen)
        for key, s in piles:
            taken, unseen = unseen[: len(state[key][s])], unseen[len(state[key][s]) :]
            state[key][s] = sorted(taken) if key == "hands" else taken
        state["undealt"], state["seed"] = unseen, f"{r.getrandbits(64):016x}"
        return state


GAME = Climb()
ENTRY = GameEntry(
    GAME,
    heuristics="tests.toy.bots",
    presenter="app.web.tables.generic",
    ratings={"random": 0, "strong": 0, "expert": 0},
    templates=HERE / "templates",
)
