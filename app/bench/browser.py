"""The load generator's browser: a room page's websocket, opened and read as htmx reads it.

The room page (templates/room.html) opens ``/ws/rooms/<id>?token=<token>`` (no token for a
spectator) through htmx's websocket extension, from a browser that sends its ``Origin`` and
``User-Agent``. The extension parses every message as an HTML fragment and swaps each of its
top-level elements into the page by id (``hx-swap-oob``, ``true`` unless it says otherwise).
Here each frame is parsed the same way, with lxml (``pip install -e '.[bench]'``); what the
driver needs is read from the ``#room-main`` element when a frame carries one: the version,
the status and the actions of the seat's plain action forms (the forms of campaigns and attacks
are filled in by the page's script, so they are not clicked here). A seat awaited with no plain
form left asks GET /legal-actions, as the page's script reads its options.
"""

from __future__ import annotations

from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.typing import Origin

USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) troika-arena-bench Chrome/130"
PLAIN_ACTIONS = './/form[not(contains(@class, "vem-combo"))]/input[@name="action"]/@value'
ANY_ACTION = './/input[@name="action"]'


def fragments(text: str | bytes) -> list[Any]:
    """The frame's top-level elements, as the ws extension's ``makeFragment`` yields them."""
    from lxml import html  # the bench extra: not needed to serve

    return [element for element in html.fragments_fromstring(text) if not isinstance(element, str)]


def read_frame(text: str | bytes) -> dict[str, Any] | None:
    """What the driver keeps of a frame: ``#room-main``'s version, status and the actions it
    offers (``legal_actions`` None: awaited, but only through forms the page's script fills),
    or None for a frame without it (a presence strip, chat lines)."""
    for element in fragments(text):
        if element.get("id") != "room-main":
            continue
        actions = [{"action": orjson.loads(str(value))} for value in element.xpath(PLAIN_ACTIONS)]
        awaited = bool(actions) or bool(element.xpath(ANY_ACTION))
        return {
            "version": int(element.get("data-version")),
            "status": element.get("data-status"),
            "legal_actions": actions if actions or not awaited else None,
        }
    return None


def reply_version(reply: str) -> int | None:
    """The version of the room in a form's HTML reply (its ``#room-main``), if it has one."""
    view = read_frame(reply)
    return None if view is None else view["version"]


async def connect(ws_base: str, origin: str, room_id: str, token: str | None) -> ClientConnection:
    url = f"{ws_base}/ws/rooms/{room_id}" + (f"?token={token}" if token else "")
    return await ws_connect(
        url, origin=Origin(origin), user_agent_header=USER_AGENT, max_size=2**22, ping_interval=None
    )
