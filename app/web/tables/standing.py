"""A round's standing in a game scored only at its end (its presenter uses it): the players by the
score they would have if the game ended now, each with its place (equal scores share one),
worked out here so that the table's template only lists them."""

from __future__ import annotations

from typing import Any


def standing(number: int, players: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """The inputs of round ``number``'s summary: its rows, best first (then by seat)."""
    rows: list[dict[str, Any]] = []
    for pl in sorted(players, key=lambda pl: (-pl["score_now"], pl["seat"])):
        tied = rows and rows[-1]["score"] == pl["score_now"]
        place = rows[-1]["place"] if tied else len(rows) + 1
        rows.append({"place": place, "name": names[pl["seat"]], "score": pl["score_now"]})
    return {"round": number, "rows": rows}
