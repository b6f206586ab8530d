"""Rendering of pages and of the per-seat room fragment that the websocket pushes.

One function, :func:`room_fragment`, renders what a seat sees of a room; the page, the reply to
an action and every push use it, so a refresh shows exactly what the socket showed. The template
gets the seat's payload from :mod:`app.rooms.views` and an ``is_legal(action)`` test, and never
the game state itself.
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
from app.rooms.live_games import LiveGames
from app.rooms.model import LiveGame, RoomInfo
from app.rooms.social import Social
from app.rooms.views import seat_view

TEMPLATES_DIR = project_file("templates")
templates = Jinja2Templates(directory=TEMPLATES_DIR)
templates.env.globals["GAMES"] = GAMES


def error_page(request: Request, status: int, message: str, headers: Mapping[str, str] | None) -> Response:
    """An error as a page (``app.api.errors.ErrorPage``)."""
    return templates.TemplateResponse(
        request, "error.html", {"status": status, "message": message}, status_code=status, headers=headers)


def action_key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def table_template(slug: str) -> str:
    path = f"games/{slug}/table.html"
    return path if (TEMPLATES_DIR / path).exists() else "games/generic_table.html"


def room_context(
    info: RoomInfo,
    live: LiveGame | None,
    seat: int | None,
    token: str | None,
    connected: set[int] = frozenset(),
) -> dict[str, Any]:
    payload = seat_view(info, live, seat, connected)
    legal = {action_key(item["action"]): item["label"] for item in payload["legal_actions"]}
    return {
        "p": payload,
        "room": payload["room"],
        "view": payload["view"],
        "seat": seat,
        "token": token,
        "names": [s["name"] for s in payload["room"]["seats"]],
        "is_legal": lambda action: action_key(action) in legal,
        "label_of": lambda action: legal.get(action_key(action), ""),
        "action_json": action_key,
        "act_url": f"/rooms/{info.id}/seat/{token}/act" if token else None,
        "table_template": table_template(info.game),
    }


def room_fragment(
    info: RoomInfo,
    live: LiveGame | None,
    seat: int | None,
    token: str | None,
    connected: set[int] = frozenset(),
) -> str:
    """The ``#room-main`` element for this seat, ready to be swapped in by id."""
    template = templates.env.get_template("fragments/room_main.html")
    return template.render(room_context(info, live, seat, token, connected))


async def render_room(
    rooms: LiveGames, social: Social, room_id: str, seat: int | None, token: str | None
) -> tuple[str, str]:
    """What a viewer is shown of a room: ``#room-main`` (with presence) and ``#chat-log``;
    a push sends both, each swapped in by id."""
    info, live = await rooms.game_state(room_id)
    main = room_fragment(info, live, seat, token, await social.present(room_id))
    chat = templates.env.get_template("fragments/chat_log.html").render(
        messages=await social.messages(room_id), seat=seat
    )
    return main, chat
