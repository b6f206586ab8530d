"""The table of a game with no presenter of its own: its view and a button per legal move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.web.sections import FELT, Part

if TYPE_CHECKING:
    from app.web.tables import Seen

CLASSES = ("generic", "players")


def parts(t: Seen) -> list[Part]:
    moves = t.moves([item["action"] for item in t.p["legal_actions"]])
    inputs = {"view": t.view, "moves": moves, "at": t.at if moves else None}
    return [Part("table-status", FELT, "games/generic_sections.html", "status", inputs)]
