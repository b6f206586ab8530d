"""TriATri's scores: one player's breakdown of gems (A9), and the final result and outcome,
winners and ranking (A8)."""

from __future__ import annotations

from typing import Any

from app.games import base
from app.games.base import Outcome, State
from app.games.triatri.cards import COLOURS


def score(gems: dict[str, int], supply: dict[str, int]) -> dict[str, Any]:
    """One player's scoring breakdown (A9): sets, then two-colour pairs, then single gems."""
    sets = min(gems.values())
    rest = {c: gems[c] - sets for c in COLOURS}
    present = [c for c in COLOURS if rest[c]]
    pairs = min(rest[c] for c in present) if len(present) == 2 else 0
    for c in present:
        rest[c] -= pairs
    single_points = sum(rest[c] * supply[c] for c in COLOURS)
    return {
        "gems": dict(gems),
        "held": sum(gems.values()),
        "sets": sets,
        "pairs": pairs,
        "singles": sum(rest.values()),
        "single_points": single_points,
        "total": sets - 2 * pairs + single_points,
    }


def result(state: State) -> dict[str, Any]:
    """The final scoring breakdown, winners and ranking (A8, A9)."""
    instant = state["instant_winner"]
    players = [score(gems, state["supply"]) for gems in state["gems"]]

    def rank_key(seat: int) -> tuple[bool, int, int, int]:
        return (seat != instant, -players[seat]["total"], -players[seat]["held"], seat)

    ranking = sorted(range(state["num_players"]), key=rank_key)
    best = rank_key(ranking[0])[:3]
    winners = [s for s in ranking if rank_key(s)[:3] == best]
    for seat, entry in enumerate(players):
        entry["winner"] = seat in winners
        entry["instant_win"] = seat == instant
    places = base.places(ranking, lambda seat: rank_key(seat)[:3])
    return {"players": players, "winners": winners, "ranking": ranking, "places": places, "instant_winner": instant}


def outcome(state: State) -> Outcome | None:
    if state["phase"] != "over":
        return None
    final = result(state)
    return Outcome(
        scores=[p["total"] for p in final["players"]],
        winners=final["winners"],
        ranking=final["ranking"],
        places=final["places"],
        details=final,
    )
