"""Climb's table (the presenter its entry names): the status line, the pile and the last card
played, each player's board (cards played and discarded, score, cards in hand), the reader's
hand with a play and a discard button per card, and the final result. Its template is
templates/games/climb/sections.html in Climb's own template folder; its styles, climb.css in its
static folder."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.web.sections import AFTER, BOARD, FELT, HAND, Part

if TYPE_CHECKING:
    from app.web.tables import Seen

TEMPLATE = "games/climb/sections.html"
CLASSES = ("climb", "players")


def parts(t: Seen) -> list[Part]:
    v, names = t.view, t.names
    result = t.p["outcome"]
    over, turn = result is not None, v["to_act"]
    status = {"over": over, "mine": turn is not None and turn == t.seat, "waiting": None if over else names[turn]}
    listed = [
        Part("table-status", FELT, TEMPLATE, "status", status),
        Part("piles", FELT, TEMPLATE, "piles", {"pile": v["pile"], "last": v["last"]}),
    ]
    for seat, name in enumerate(names):
        board = {
            "seat": seat,
            "name": name,
            "you": seat == t.seat,
            "current": seat == turn,
            "score": v["scores"][seat],
            "hand_count": v["hand_sizes"][seat],
            "played": v["played"][seat],
            "discards": v["discards"][seat],
        }
        listed.append(Part(f"player-{seat}", BOARD, TEMPLATE, "board", board))
    if v["hand"] is not None and not over:
        hand = [
            {"card": c, "play": t.move({"type": "play", "card": c}), "discard": t.move({"type": "discard", "card": c})}
            for c in v["hand"]
        ]
        listed.append(Part("your-hand", HAND, TEMPLATE, "hand", {"hand": hand, "at": t.at if t.legal else None}))
    if over:
        rows = [{"place": result["places"][s], "name": names[s], "score": v["scores"][s]} for s in result["ranking"]]
        final = {"winners": [names[s] for s in result["winners"]], "rows": rows}
        listed.append(Part("final-result", AFTER, TEMPLATE, "final", final))
    return listed
