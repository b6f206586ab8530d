"""Two Troika worlds that differ only in a caller's hidden tiles, for the hidden-information
tests of ruling T7 (a call's success stays hidden until the round ends).

Seat 0 is about to start its turn with the Container 5-5-5-12-13-14. In the first world its
hand is 1-2-3 and a "Troika!" call succeeds; in the second a 3 and a 4 have changed places
between seat 0's hand and the last seat's, so the hand is 1-2-4 and the call fails. Every other
tile lies where it lay in the first world, so the seed draws the same tiles in both.
"""

from __future__ import annotations

from collections import Counter

from app.games.troika import GAME
from app.games.troika.rules import TILES
from app.games.troika.score import can_leave

CONTAINER = [5, 5, 5, 12, 13, 14]
SUCCEEDS, FAILS = [1, 2, 3], [1, 2, 4]


def call_worlds(n: int, seed: str) -> tuple[dict, dict]:
    """(the world where seat 0's call succeeds, the world where it fails), round 1, seat 0 to call."""
    state = GAME.setup(n, {"first_player": "0"}, seed)
    pool = Counter(TILES)
    pool.subtract(CONTAINER + SUCCEEDS + [4])
    rest = sorted(pool.elements())
    last = n - 1
    others = {seat: [rest.pop(7 * seat)] for seat in range(1, last)}  # one tile each, spread out
    state.update(
        hands=[SUCCEEDS, *others.values(), [4]],
        containers=[list(CONTAINER)] + [[] for _ in range(1, n)],
        table_up=[rest.pop()],
        down_unmarked=rest,
        log=[],
    )
    failing = {**state, "hands": [FAILS, *others.values(), [3]]}
    assert can_leave(state["hands"][0], CONTAINER) and not can_leave(failing["hands"][0], CONTAINER)
    return state, failing
