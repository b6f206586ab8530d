"""What each seat of Troika sees (the view's keys are in the package docstring), and a state
with what a seat cannot see re-dealt."""

from __future__ import annotations

import random
from typing import Any

from app.games import base
from app.games.base import Outcome, State
from app.games.troika.score import call_problems, ranked


def view(state: State, seat: int | None, may_call: bool, outcome: Outcome | None) -> dict[str, Any]:
    """``seat``'s view (None: a spectator's); ``may_call``: whether it may call "Troika!" now."""
    over = state["phase"] == "over"
    view = {
        "phase": state["phase"],
        "round": state["round"],
        "current": state["current"],
        "first_player": state["first_player"],
        "num_players": state["num_players"],
        "you": seat,
        "hand": sorted(state["hands"][seat]) if seat is not None else [],
        "call_would_succeed": call_check(state, seat, may_call),
        "call_problems": problems_shown(state, seat, may_call),
        "players": [player_view(state, s, over or s == seat) for s in range(state["num_players"])],
        "table_up": sorted(state["table_up"]),
        "down_unmarked": len(state["down_unmarked"]),
        "down_marked": [
            {"id": m["id"], "by": m["by"], "value": m["value"] if over or m["by"] == seat else None}
            for m in state["down_marked"]
        ],
        "set_aside": len(state["set_aside"]),
        "rounds": [ranked(record) for record in state["rounds"]],
        "result": outcome.to_json() if outcome else None,
    }
    if over:
        view["seed"] = state["seed"]
    return view


def call_check(state: State, seat: int | None, may_call: bool) -> bool | None:
    """For the seat that may call now, whether its call would succeed (its own tiles only)."""
    problems = problems_shown(state, seat, may_call)
    return None if problems is None else not problems


def problems_shown(state: State, seat: int | None, may_call: bool) -> list[dict[str, Any]] | None:
    """For the seat that may call now, why its call would fail (its own tiles only): each
    reason's English text and its message."""
    if seat is None or not may_call:
        return None
    problems = call_problems(state["hands"][seat], state["containers"][seat])
    return [{"text": base.spoken(problem), **problem} for problem in problems]


def player_view(state: State, seat: int, show_hand: bool) -> dict[str, Any]:
    tokens = state["tokens"][seat]
    return {
        "seat": seat,
        "hand_count": len(state["hands"][seat]),
        "container": sorted(state["containers"][seat]),
        "status": state["status"][seat],
        "tokens": list(tokens),
        "token_total": sum(tokens),
        "hand": sorted(state["hands"][seat]) if show_hand else None,
    }


def randomize_hidden(state: State, seat: int | None, r: random.Random) -> State:
    """Re-deal what ``seat`` cannot see: other hands, unmarked and set-aside tiles, others'
    marked values and the seed; counts and everything ``seat`` sees stay as they are."""
    state = base.moving_copy(state)
    if state["phase"] == "over":
        return state
    others = [s for s in range(state["num_players"]) if s != seat]
    foreign_marks = [m for m in state["down_marked"] if m["by"] != seat]
    pool = [v for s in others for v in state["hands"][s]]
    pool += state["down_unmarked"] + state["set_aside"] + [m["value"] for m in foreign_marks]
    pool.sort()  # a canonical order: the sample depends on ``r`` and what ``seat`` knows only
    r.shuffle(pool)
    tiles = iter(pool)
    for s in others:
        state["hands"][s] = sorted(next(tiles) for _ in state["hands"][s])
    state["down_unmarked"] = sorted(next(tiles) for _ in state["down_unmarked"])
    state["set_aside"] = sorted(next(tiles) for _ in state["set_aside"])
    for mark in foreign_marks:
        mark["value"] = next(tiles)
    state["seed"] = f"resampled-{r.getrandbits(64):016x}"
    state["log"] = [e for e in state["log"] if e["to"] is None or seat in e["to"]]
    return state
