"""Rendering of pages and of the per-seat room fragment that the websocket pushes.

One function, :func:`main_fragment`, renders what a seat sees of a room from the seat's payload
(:mod:`app.rooms.views`); the page, the reply to an action and every push use it (through the
cache of ``app.web.delivery``), so a refresh shows exactly what the socket showed. The template
gets the payload and an ``is_legal(action)`` test, never the game state itself. Presence and
chat changes have their own small fragments, swapped in out of band.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates

from app.files import project_file
from app.games.registry import GAMES
from app.rooms.model import LiveGame, RoomInfo
from app.rooms.views import seat_view

TEMPLATES_DIR = project_file("templates")
templates = Jinja2Templates(directory=TEMPLATES_DIR)
templates.env.globals["GAMES"] = GAMES


def error_page(request: Request, status: int, message: str, headers: Mapping[str, str] | None) -> Response:
    """An error as a page (``app.api.errors.ErrorPage``)."""
    return templates.TemplateResponse(
        request, "error.html", {"status": status, "message": message}, status_code=status, headers=headers
    )


def action_key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def table_template(slug: str) -> str:
    path = f"games/{slug}/table.html"
    return path if (TEMPLATES_DIR / path).exists() else "games/generic_table.html"


def room_context(payload: dict[str, Any], seat: int | None, token: str | None) -> dict[str, Any]:
    legal = {action_key(item["action"]): item["label"] for item in payload["legal_actions"]}
    room = payload["room"]
    return {
        "p": payload,
        "room": room,
        "view": payload["view"],
        "seat": seat,
        "token": token,
        "names": [s["name"] for s in room["seats"]],
        "is_legal": lambda action: action_key(action) in legal,
        "label_of": lambda action: legal.get(action_key(action), ""),
        "action_json": action_key,
        "act_url": f"/rooms/{room['id']}/seat/{token}/act" if token else None,
        "table_template": table_template(room["game"]),
    }


def main_fragment(payload: dict[str, Any], seat: int | None, token: str | None) -> str:
    """The ``#room-main`` element for this seat's payload, ready to be swapped in by id."""
    return templates.env.get_template("fragments/room_main.html").render(room_context(payload, seat, token))


def room_fragment(
    info: RoomInfo,
    live: LiveGame | None,
    seat: int | None,
    token: str | None,
    connected: frozenset[int] = frozenset(),
) -> str:
    """:func:`main_fragment` of the seat's view of the room, built afresh."""
    return main_fragment(seat_view(info, live, seat, connected), seat, token)


def presence_fragment(
    room: dict[str, Any], status: str, connected: frozenset[int], seat: int | None, token: str | None
) -> str:
    """The ``#presence`` strip alone, as an out-of-band swap (a presence change's push)."""
    return templates.env.get_template("fragments/presence.html").render(
        room=room, p={"status": status, "connected": sorted(connected)}, seat=seat, token=token, oob=True
    )


def chat_log_fragment(messages: list[dict[str, Any]], seat: int | None) -> str:
    """The whole ``#chat-log``, swapped in by id."""
    return templates.env.get_template("fragments/chat_log.html").render(messages=messages, seat=seat)


def chat_lines_fragment(messages: list[dict[str, Any]], seat: int | None) -> str:
    """New chat lines, appended to ``#chat-log`` by an out-of-band ``beforeend`` swap."""
    return templates.env.get_template("fragments/chat_log.html").render(messages=messages, seat=seat, append=True)
