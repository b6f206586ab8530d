"""Troika's scores: the best split of tiles into trios, whether a "Troika!" call succeeds and
why not, each seat's round breakdown and tokens, the next first player and the final outcome
(the rules are in the package docstring)."""

from __future__ import annotations

import functools
from typing import Any

from app.games import base
from app.games.base import Outcome, State

CALL_MIN_CONTAINER = 5
FIRST_CALL_BONUS = 5


# A split's subproblems repeat within one search and across a game's calls, so they are kept;
# 4,096 of them (~1.3 MB) hold what a game needs. The 65,536 kept before took ~20 MB to fill, a
# few thousand games in: the one slow rise left in the soak's memory (docs/benchmarks.md).
@functools.lru_cache(maxsize=4096)
def _search(counts: tuple[int, ...], has_fuel: bool, allow_trash: bool) -> tuple | None:
    """Best (points, trios, trash) for the tiles counted by value-1; None without a fuel-set.

    The lowest remaining tile is either in a fuel-set, starts a gem, or is trash; trying the
    three covers every split.
    """
    low = next((i for i, count in enumerate(counts) if count), None)
    if low is None:
        return (0, (), ()) if has_fuel else None
    value = low + 1
    choices: list[tuple[tuple[int, ...], tuple[str, tuple[int, ...], int] | None, int | None]] = []
    if counts[low] >= 3:
        choices.append(((low,) * 3, ("fuel", (value,) * 3, 0), None))
    if low + 2 < len(counts) and counts[low + 1] and counts[low + 2]:
        gem = (value, value + 1, value + 2)
        choices.append(((low, low + 1, low + 2), ("gem", gem, (value + 2) % 10), None))
    if allow_trash:
        choices.append(((low,), None, value))
    best = None
    for used, trio, trash in choices:
        rest_counts = list(counts)
        for i in used:
            rest_counts[i] -= 1
        rest = _search(tuple(rest_counts), has_fuel or (trio is not None and trio[0] == "fuel"), allow_trash)
        if rest is None:
            continue
        if trio is not None:
            candidate = (rest[0] + trio[2], (trio, *rest[1]), rest[2])
        else:
            candidate = (rest[0] - 1, rest[1], (trash, *rest[2]))
        if best is None or candidate[0] > best[0]:
            best = candidate
    return best


def _counts(tiles: list[int]) -> tuple[int, ...]:
    return tuple(tiles.count(v) for v in range(1, 16))


def best_split(tiles: list[int]) -> tuple | None:
    """The highest-scoring split of ``tiles`` that holds a fuel-set: (points, trios, trash)."""
    return _search(_counts(tiles), False, True)


def can_leave(hand: list[int], container: list[int]) -> bool:
    """Whether a "Troika!" call succeeds: Container >= 5 and an exact split with a fuel-set."""
    return len(container) >= CALL_MIN_CONTAINER and (_search(_counts(hand + container), False, False) is not None)


def call_problems(hand: list[int], container: list[int]) -> list[base.Message]:
    """Why a "Troika!" call with these tiles would fail, as messages to the caller (ruling T7);
    empty when it would succeed. It reads only the caller's own tiles."""
    problems = []
    if len(container) == 1:
        problems.append(base.say("your Container has 1 tile; a call needs {needed}", needed=CALL_MIN_CONTAINER))
    elif len(container) < CALL_MIN_CONTAINER:
        problems.append(
            base.say(
                "your Container has {count} tiles; a call needs {needed}",
                count=len(container),
                needed=CALL_MIN_CONTAINER,
            )
        )
    tiles = hand + container
    if _search(_counts(tiles), True, False) is None:  # no exact split, fuel-set or not
        problems.append(base.say("your tiles do not all fit into trios: some would be trash"))
    elif _search(_counts(tiles), False, False) is None:
        problems.append(base.say("none of your trios would be a fuel-set (three equal tiles)"))
    return problems


def _clockwise(seat: int, origin: int, n: int) -> int:
    """How many steps clockwise ``seat`` sits from ``origin`` (0 for the origin itself)."""
    return (seat - origin) % n


def bonus_seat(state: State) -> int | None:
    """The round's first caller whose call succeeded (settled at round end, ruling T7)."""
    return next((s for s in state["callers"] if can_leave(state["hands"][s], state["containers"][s])), None)


def score_seat(state: State, seat: int, bonus_seat: int | None) -> dict[str, Any]:
    """One seat's round breakdown.

    Keys: seat, hand, container, called_troika, status ("left" | "failed"), reason (None |
    "failed_call" | "no_fuel_set"), trios ([{kind, tiles, points}]), trash, troika_bonus,
    score (None when failed), tokens.
    """
    hand, container = state["hands"][seat], state["containers"][seat]
    called = seat in state["callers"]
    record = {
        "seat": seat,
        "hand": sorted(hand),
        "container": sorted(container),
        "called_troika": called,
        "status": "failed",
        "reason": "failed_call",
        "trios": [],
        "trash": [],
        "troika_bonus": 0,
        "score": None,
        "tokens": [],
    }
    if called and not can_leave(hand, container):
        return record
    split = best_split(hand + container)
    if split is None:
        return {**record, "reason": "no_fuel_set"}
    points, trios, trash = split
    bonus = FIRST_CALL_BONUS if bonus_seat == seat else 0
    return {
        **record,
        "status": "left",
        "reason": None,
        "trios": [{"kind": kind, "tiles": list(tiles), "points": pts} for kind, tiles, pts in trios],
        "trash": list(trash),
        "troika_bonus": bonus,
        "score": points + bonus,
    }


def token_awards(records: list[dict[str, Any]], first: int, n: int) -> list[tuple[int, int]]:
    """(seat, token) pairs: +2 and +1 to the best who left, -1 to each who failed."""
    left = sorted(
        (r for r in records if r["status"] == "left"),
        key=lambda r: (r["score"], _clockwise(r["seat"], first, n)),
        reverse=True,
    )
    awards = [(r["seat"], token) for r, token in zip(left, (2, 1), strict=False)]  # the best two
    return awards + [(r["seat"], -1) for r in records if r["status"] == "failed"]


def ranked(record: dict[str, Any]) -> dict[str, Any]:
    """A finished round's record as the view shows it, with the round's ranking (best first:
    who left the planet, by points, then who failed) and each seat's place (equal points share
    one), for the summary the table shows when the round ends."""
    shown = base.working_copy(record)

    def standing(seat: int) -> tuple[bool, int]:
        score = shown["players"][seat]["score"]
        return score is not None, score or 0

    shown["ranking"] = sorted(range(len(shown["players"])), key=standing, reverse=True)
    shown["places"] = base.places(shown["ranking"], standing)
    return shown


def next_first_player(records: list[dict[str, Any]], previous_first: int, n: int) -> int:
    """Fewest round points starts (failed players count lowest); ties nearest clockwise."""
    return min(
        records,
        key=lambda r: (r["score"] is not None, r["score"] or 0, _clockwise(r["seat"], previous_first, n)),
    )["seat"]


def outcome(state: State) -> Outcome | None:
    if state["phase"] != "over":
        return None
    n = state["num_players"]
    totals = [sum(tokens) for tokens in state["tokens"]]
    last = [record["score"] for record in state["rounds"][-1]["players"]]

    def rank_key(seat: int) -> tuple:
        return (totals[seat], last[seat] is not None, last[seat] or 0)

    ranking = sorted(range(n), key=rank_key, reverse=True)
    winners = [s for s in ranking if rank_key(s) == rank_key(ranking[0])]
    return Outcome(
        scores=totals,
        winners=winners,
        ranking=ranking,
        places=base.places(ranking, rank_key),
        details={"round3_scores": last, "tokens": base.working_copy(state["tokens"])},
    )
