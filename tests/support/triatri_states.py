"""Exact TriATri states for the scenario tests of the engine and of the table: a state with
exactly the given hands and the rest of the deck undealt (``build``), and a finished game with
the given gems and supply (``over_state``)."""

from __future__ import annotations

from app.games.triatri import GAME
from app.games.triatri.cards import deck


def build(hands, *, phase="play", leader=0, gem=("red", "supply"), options=None, **fields):
    """A state with exactly these hands; the rest of the deck is undealt; no log."""
    n = len(hands)
    state = GAME.setup(n, options or {}, "scenario")
    held = {card for hand in hands for card in hand}
    state.update(
        hands=[sorted(hand) for hand in hands],
        undealt=sorted(c for c in deck(n) if c not in held),
        phase=phase,
        leader=None if phase == "reveal" else leader,
        gem=None if gem is None or phase != "play" else {"colour": gem[0], "source": gem[1]},
        log=[],
    )
    state.update(fields)
    return state


def over_state(gems, supply):
    return build([[] for _ in gems], phase="over", gem=None, gems=gems, supply=supply)
