"""Exact Troika states and actions for the scenario tests of the engine and of the table: a
state holding exactly the given tiles (``make``), moves applied in turn (``play``), the actions
spelled as the engine takes them (``take_up``, ``take_down``, ``discard``, ``REVEAL``,
``TROIKA``), and the last move of a game's third round (``final_round``). The worlds of ruling
T7 are in tests/support/troika_worlds.py."""

from __future__ import annotations

from app.games.troika import GAME


def make(
    n=3,
    *,
    hands=None,
    containers=None,
    table_up=(),
    unmarked=(20,),
    marked=(),
    current=0,
    first=0,
    phase="turn_start",
    status=None,
    round_=1,
    tokens=None,
):
    """A state with exactly the given tiles (unlisted piles empty) and an empty log."""
    state = GAME.setup(n, {"first_player": str(first)}, "scenario-seed")
    state.update(
        round=round_,
        first_player=first,
        current=current,
        phase=phase,
        hands=[sorted(h) for h in (hands or [[] for _ in range(n)])],
        containers=[sorted(c) for c in (containers or [[] for _ in range(n)])],
        table_up=sorted(table_up),
        down_unmarked=sorted(unmarked),
        down_marked=[{"id": i, "by": by, "value": v} for i, by, v in marked],
        next_mark_id=1 + max((i for i, _, _ in marked), default=0),
        set_aside=[],
        status=list(status or ["playing"] * n),
        tokens=[list(t) for t in (tokens or [[] for _ in range(n)])],
        callers=[],
        log=[],
    )
    return state


def play(state, *moves):
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


REVEAL = {"type": "reveal", "tile": "unknown"}


TROIKA = {"type": "troika"}


def take_up(v):
    return {"type": "take_up", "value": v}


def take_down(tile="unknown"):
    return {"type": "take_down", "tile": tile}


def discard(source, v):
    return {"type": "discard", "from": source, "value": v}


def final_round(tokens, tiles_by_seat):
    n = len(tokens)
    containers = [list(t) for t in tiles_by_seat]
    containers[0].remove(15)
    state = make(n, containers=containers, phase="act", unmarked=(), table_up=(15,), round_=3, tokens=tokens)
    return play(state, (0, take_up(15)))
