"""Final scoring of Vem aí a Troika (ruling V9): the rulebook's list, tied winners all win."""

from __future__ import annotations

from typing import Any

from app.games.base import State, places
from app.games.vem_ai_troika import table

CONSENSUS_POINTS = (0, 4, 10, 18)  # for 0, 1, 2, and 3 or more Consensuses


def breakdown(state: State, seat: int) -> dict[str, Any]:
    p = table.player(state, seat)
    consensuses = table.consensus(state, seat)
    parts = {
        "power": table.metric(state, seat, "power"),
        "consensus": CONSENSUS_POINTS[min(consensuses, 3)],
        "governments": sum(state["deck"]["events"][eid]["points"] for eid in p["kept"]),
        "titles": sum(p["titles"]),
        "money": (p["money"] + p["offshore_money"]) // 2,
    }
    return {"seat": seat, "consensuses": consensuses, **parts, "total": sum(parts.values())}


def result(state: State) -> dict[str, Any]:
    """Per-seat breakdowns, winners (all tied for the top), the ranking (best first) and each
    seat's place (equal totals share one)."""
    players = [breakdown(state, seat) for seat in range(len(state["players"]))]
    best = max(p["total"] for p in players)
    ranking = sorted(range(len(players)), key=lambda seat: (-players[seat]["total"], seat))
    winners = [p["seat"] for p in players if p["total"] == best]
    for p in players:
        p["winner"] = p["seat"] in winners
    standing = {"players": players, "winners": winners, "ranking": ranking}
    return {**standing, "places": places(ranking, lambda seat: players[seat]["total"])}
