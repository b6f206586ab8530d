"""The TriATri table's sections: the status and the gem to lead with, the supply and the
trick, the round's start cards and the last trick, each player's board, the seat's hand and
the final result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.web.sections import BOARD, FELT, HAND, LEAD, Part
from app.web.tables.standing import standing

if TYPE_CHECKING:
    from app.web.tables import Seen

TEMPLATE = "games/triatri/sections.html"
CLASSES = ("triatri", "players")
COLOURS = ("red", "blue", "green")


def parts(t: Seen) -> list[Part]:
    v, seat, names = t.view, t.seat, t.names
    over = v["phase"] == "over"
    mine = t.acting in v["current"]
    at = t.at if t.legal else None
    gems = []
    if mine and v["phase"] == "choose_gem":
        held = {"supply": v["supply"], "own": v["players"][seat]["gems"]}  # (how many each button draws on)
        for source in ("supply", "own"):
            choices = [item["action"] for item in t.p["legal_actions"] if item["action"].get("source") == source]
            if choices:
                moves = [
                    {"m": m, "colour": a["colour"], "count": held[source][a["colour"]]}
                    for a, m in zip(choices, t.moves(choices), strict=True)
                ]
                gems.append({"source": source, "moves": moves})
    playing = mine and v["phase"] == "play"
    status = {
        "phase": v["phase"],
        "round": v["round"],
        "trick": v["trick_number"],
        "over": over,
        "mine": mine,
        "waiting": [names[s] for s in v["current"]],
        "follow": v["gem"]["colour"] if playing and any(not c["playable"] for c in v["hand"]) else None,
        "fake": any(c["fake"] for c in v["hand"]) if playing else False,
        "gems": gems,
        "at": at if gems else None,
    }
    listed = [
        Part("table-status", FELT, TEMPLATE, "status", status),
        Part(
            "piles",
            FELT,
            TEMPLATE,
            "piles",
            {},
            (
                Part("supply", FELT, TEMPLATE, "supply", {"supply": v["supply"]}),
                Part("centre", FELT, TEMPLATE, "centre", centre(t, v, over)),
            ),
        ),
        Part("last-play", FELT, TEMPLATE, "recent", recent(t, v)),
    ]
    result = v.get("result")
    for pl in v["players"]:
        s = pl["seat"]
        board = {
            "pl": {k: pl[k] for k in ("seat", "gems", "hand_count", "known_cards", "void", "score_now")},
            "name": names[s],
            "you": s == seat,
            "leader": s == v["leader"] and not over,
            "current": s in v["current"],
            "phase": v["phase"],
            "winner": bool(result and result["players"][s]["winner"]),
            "over": over,
        }
        listed.append(Part(f"player-{s}", BOARD, TEMPLATE, "board", board))
    if seat is not None and not over:
        kind = "commit" if v["phase"] == "reveal" else "play"
        hand = [{"card": c, "m": t.move({"type": kind, "card": c["id"]})} for c in v["hand"]]
        unplayable = mine and v["phase"] != "choose_gem"
        # (with what the status line says, why a card is no button)
        mine_now = {"hand": hand, "unplayable": unplayable, "follow": status["follow"], "fake": status["fake"]}
        roving = any(c["m"] for c in hand)  # (a row of moves: one Tab stop, static/js/rows.js)
        listed.append(Part("your-hand", HAND, TEMPLATE, "hand", {**mine_now, "roving": roving, "at": at}))
    if v["phase"] == "reveal" and v["round"] > 1:
        summary = standing(v["round"] - 1, v["players"], names)
        listed.append(Part("round-summary", LEAD, TEMPLATE, "standing_section", summary))
    if result:
        listed.append(Part("final-result", LEAD, TEMPLATE, "final", final(t, v, result)))
    return listed


def centre(t: Seen, v: dict[str, Any], over: bool) -> dict[str, Any]:
    names, n = t.names, len(v["players"])
    inputs: dict[str, Any] = {"phase": v["phase"], "over": over, "trick": v["trick_number"]}
    if v["phase"] == "reveal":
        inputs["slots"] = [
            {
                "seat": pl["seat"],
                "who": names[pl["seat"]],
                "committed": pl["committed"],
                "commit": v["commit"] if pl["seat"] == t.seat and v.get("commit") else None,
            }
            for pl in v["players"]
        ]
    elif over:
        res = v["result"]
        instant = res["instant_winner"]
        inputs["result"] = {
            "winners": [names[w] for w in res["winners"]],
            "instant": names[instant] if instant is not None else None,
            "points": res["players"][res["winners"][0]]["total"],
            "out": [colour for colour in COLOURS if v["supply"][colour] == 0],
        }
    else:
        leader = v["leader"]
        played = len(v["trick"])
        pending = []
        if v["phase"] in ("choose_gem", "play"):
            for k in range(played, n):
                s = (leader + k) % n
                pending.append({"who": names[s], "next": s in v["current"]})
        inputs |= {
            "leader": names[leader] if leader is not None else None,
            "gem": v["gem"],
            "played": [{**pos, "who": names[pos["seat"]]} for pos in v["trick"]],
            "pending": pending,
        }
    return inputs


def recent(t: Seen, v: dict[str, Any]) -> dict[str, Any]:
    names = t.names
    reveal = v.get("last_reveal")
    shown: dict[str, Any] = {"reveal": None, "last": None}
    if reveal and reveal["round"] == v["round"]:
        cards = [{**c, "who": names[i]} for i, c in enumerate(reveal["cards"])]
        starter = names[reveal["starter"]] if reveal["starter"] is not None else None
        shown["reveal"] = {**reveal, "cards": cards, "starter_name": starter}
    last = v.get("last_trick")
    if last:
        cards = [{**pos, "who": names[pos["seat"]]} for pos in last["cards"]]
        shown["last"] = {**last, "cards": cards, "winner_name": names[last["winner"]]}
    return shown


def final(t: Seen, v: dict[str, Any], res: dict[str, Any]) -> dict[str, Any]:
    instant = res["instant_winner"]
    rows = [{**res["players"][s], "seat": s, "place": res["places"][s], "name": t.names[s]} for s in res["ranking"]]
    return {
        "instant": t.names[instant] if instant is not None else None,
        "winners": [t.names[w] for w in res["winners"]],
        "rows": rows,
        "supply": v["supply"],
    }
