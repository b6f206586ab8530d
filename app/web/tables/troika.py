"""The Troika table's sections: the status and the seat's calls, the tiles on the table, each
player's board, the seat's hand, and the final and round results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.web.sections import AFTER, BOARD, FELT, HAND, LEAD, Part

if TYPE_CHECKING:
    from app.web.tables import Seen

TEMPLATE = "games/troika/sections.html"
CLASSES = ("troika", "players")


def parts(t: Seen) -> list[Part]:
    v, seat = t.view, t.seat
    over = v["phase"] == "over"
    at = t.at if t.legal else None  # in the inputs only where a move is offered
    troika, passing = t.move({"type": "troika"}), t.move({"type": "pass"})
    listed = [
        Part(
            "table-status",
            FELT,
            TEMPLATE,
            "status",
            {
                "phase": v["phase"],
                "round": v["round"],
                "over": over,
                "mine": t.acting is not None and v["current"] == t.acting,
                "current": t.names[v["current"]] if v["current"] is not None else None,
                "troika": troika,
                "pass": passing,
                "kinds": sorted({item["action"]["type"] for item in t.p["legal_actions"]}),
                "call_problems": [t.said(problem) for problem in v.get("call_problems") or []] if troika else [],
                "at": at if troika or passing else None,
            },
        ),
        Part("piles", FELT, TEMPLATE, "piles", piles(t, v, at)),
    ]
    for pl in v["players"]:
        own = pl["seat"] == seat
        container = [
            {"value": x, "discard": t.move({"type": "discard", "from": "container", "value": x}) if own else None}
            for x in pl["container"]
        ]
        listed.append(
            Part(
                f"player-{pl['seat']}",
                BOARD,
                TEMPLATE,
                "board",
                {
                    "seat": pl["seat"],
                    "name": t.names[pl["seat"]],
                    "current": pl["seat"] == v["current"] and not over,
                    "you": own,
                    **{k: pl[k] for k in ("status", "tokens", "token_total", "hand_count", "hand")},
                    "container": container,
                    "at": at if any(c["discard"] for c in container) else None,
                },
            )
        )
    if seat is not None and not over:
        hand = [{"value": x, "discard": t.move({"type": "discard", "from": "hand", "value": x})} for x in v["hand"]]
        roving = any(h["discard"] for h in hand)  # (a row of moves: one Tab stop, static/js/rows.js)
        listed.append(Part("your-hand", HAND, TEMPLATE, "hand", {"hand": hand, "roving": roving, "at": at}))
    if v.get("rounds"):
        listed.append(Part("round-summary", LEAD, TEMPLATE, "summary", summary(t, v, over)))
    if v.get("result"):
        res = v["result"]
        places, scores = res["places"], res["scores"]
        rows = [{"seat": s, "place": places[s], "name": t.names[s], "score": scores[s]} for s in res["ranking"]]
        winners = [t.names[w] for w in res["winners"]]
        listed.append(Part("final-result", LEAD, TEMPLATE, "final", {"winners": winners, "rows": rows}))
    if v.get("rounds"):
        listed.append(Part("round-results", AFTER, TEMPLATE, "rounds", {"rounds": rounds(t, v["rounds"])}))
    return listed


def piles(t: Seen, v: dict[str, Any], at: dict[str, Any] | None) -> dict[str, Any]:
    up = [{"value": x, "take": t.move({"type": "take_up", "value": x})} for x in v["table_up"]]
    marked = [
        {
            "id": m["id"],
            "value": m["value"],
            "by": t.names[m["by"]],
            "reveal": t.move({"type": "reveal", "tile": m["id"]}),
            "take": t.move({"type": "take_down", "tile": m["id"]}),
        }
        for m in v["down_marked"]
    ]
    unknown = v["down_unmarked"]
    return {
        "up": up,
        "up_roving": any(u["take"] for u in up),
        "unmarked": unknown,
        "reveal": t.move({"type": "reveal", "tile": "unknown"}) if unknown else None,
        "take": t.move({"type": "take_down", "tile": "unknown"}) if unknown else None,
        "marked": marked,
        "set_aside": v["set_aside"],
        "at": at,
    }


def rounds(t: Seen, played: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rounds' results, the newest first, with the players' names."""
    return [
        {
            **rd,
            "first": t.names[rd["first_player"]],
            "players": [{**r, "name": t.names[r["seat"]]} for r in rd["players"]],
        }
        for rd in reversed(played)
    ]


def summary(t: Seen, v: dict[str, Any], over: bool) -> dict[str, Any]:
    """The last round's summary: its players by place, open while the next round has not
    really begun (or the game is over)."""
    rd = v["rounds"][-1]
    ranked = [{**rd["players"][s], "name": t.names[s], "place": rd["places"][s]} for s in rd["ranking"]]
    fresh = over or (
        v["phase"] == "turn_start"
        and v["current"] == v["first_player"]
        and len(v["table_up"]) <= 1
        and not v["down_marked"]
        and not any(pl["container"] for pl in v["players"])
    )
    return {"round": {"round": rd["round"], "ranked": ranked}, "fresh": fresh}
