"""The live websocket: ``/ws/rooms/<id>`` pushes the room to one viewer whenever it changes.

The socket is authorised once, at the handshake: a ``token`` query parameter binds it to that
seat, none makes it a spectator's; a missing room (404) or a token that holds no seat (403) is
refused before the socket is accepted, with the API's error answer as the handshake's. The
handshake's ``Origin`` must be this server's own (or one listed in ALLOWED_ORIGINS), and a
seat's or a room's spectators' sockets past their cap (``app.web.caps``) are closed at once
with 1008 and the reason. On connect, and after every
change of the room or its game published on the event bus, the viewer gets its current view:
HTML fragments for the browser (swapped by id by htmx's ws extension) or, with ``format=json``,
the typed events of ``app.api.events`` (any other ``format`` is refused at the handshake; a
``view`` is the same payload as GET /api/rooms/<id>/view; ``presence``, ``chat`` and ``end`` as
the event stream sends them); a change of presence or chat alone sends only a small frame
(``app.web.delivery``, which builds each seat's frames once per change; the HTML in the language
of the handshake's ``lang`` cookie or ``Accept-Language``, as the page's). A socket whose token
loses its seat (the host reissued the seat's link) is closed with 1008 at the room's next
change. A seat's socket also carries its page's clicks: each incoming frame is one move, the
form's fields as JSON (``action``, ``version``: static/js/moves.js), played as the form post
plays it (``app.web.pages.play_click``, the token checked again: a reissued link plays nothing);
the move's result reaches this socket as everyone's, by the sections that changed, and a refusal
goes back on this socket alone, as the flash toast. A spectator's frames are read and dropped,
and so are a ``format=json`` socket's: it only sends, a program's moves go through the API. A
frame over the size limit, or a flood of frames, closes the socket. Open seat sockets count as
presence. A failure while serving (the database down, say) closes the socket with 1011 and a
reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import NamedTuple

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.deps import Chat, Configured, Lobbying, Playing, Rooms
from app.api.errors import json_error
from app.api.events import Revoked
from app.db.faults import log_failure, outage
from app.games.base import Message, say, spoken
from app.i18n import translations
from app.realtime.bus import Change, Subscription
from app.rooms.errors import RoomError, Stale
from app.rooms.live_games import LiveGames
from app.rooms.model import RoomInfo
from app.rooms.play import Play
from app.rooms.social import Social
from app.web.caps import Capped
from app.web.delivery import HTML, JSON, Deliver, Delivery, Viewer
from app.web.pages import BACK, play_click
from app.web.render import fragment, language_of, said_to
from app.web.security import origin_matches

router = APIRouter()
log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
TOO_BIG = 1009
INTERNAL_ERROR = 1011
FLOOD_FRAMES, FLOOD_SECONDS = 20, 1.0
REVOKED = "this seat's link was reissued by the host"
FORMATS = (HTML, JSON)
HOLD_MARGIN = 0.05  # seconds after a hold ends that its page is sent the freed seats


def origin_allowed(ws: WebSocket, allowed: set[str]) -> bool:
    origin = ws.headers.get("origin")
    return origin is not None and origin_matches(origin, ws.headers.get("host", ""), allowed)


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(
    ws: WebSocket,
    room_id: str,
    rooms: Rooms,
    social: Chat,
    play: Playing,
    delivery: Deliver,
    caps: Capped,
    settings: Configured,
    lobby: Lobbying,
    token: str | None = None,
    format: str = "html",
):
    if not origin_allowed(ws, settings.origins()):
        await refuse(ws, 403, "forbidden", "origin not allowed: send an Origin header of this server's own URL")
        return
    if format not in FORMATS:  # (refused before the room is looked up, like a foreign Origin)
        await refuse(ws, 400, "invalid_request", "format must be html or json")
        return
    try:
        seat = await seat_of(rooms, room_id, token)
        back = seat is not None and await lobby.come_back(room_id, seat)  # a stand-in bot gives the seat back
    except RoomError as exc:  # no such room (404), or a token that holds no seat (403)
        await refuse(ws, exc.status, exc.code, exc.message)
        return
    except Exception as exc:
        await ws.accept()
        await close_on_failure(ws, room_id, exc)
        return
    with caps.admit(room_id, seat) as refusal:
        await ws.accept()
        if refusal:
            await ws.close(code=POLICY_VIOLATION, reason=refusal)
            return
        viewer = Viewer(room_id, seat, token, format=format, lang=language_of(ws))
        hello = ""
        if back:  # (good news: the flash's calm style)
            hello = fragment(ws, viewer.lang, "fragments/flash.html", message=said_to(ws, say(BACK)), good=True)
        await serve(ws, Served(rooms, social, play, delivery), viewer, settings.max_ws_message_bytes, hello)


async def refuse(ws: WebSocket, status: int, code: str, message: str) -> None:
    """Refuse a handshake with the API's error answer, its status and JSON body (ASGI's
    websocket denial response, which uvicorn sends); a server without it answers a bare 403."""
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        await ws.send_denial_response(json_error(status, code, message))
    else:
        await ws.close(code=POLICY_VIOLATION, reason=message)


async def seat_of(rooms: LiveGames, room_id: str, token: str | None) -> int | None:
    """The seat a handshake's token holds (None, for a spectator: no token at all); raises a
    RoomError for a missing room or a token (even an empty one) that holds no seat there."""
    if token is None:
        await rooms.room(room_id)
        return None
    return await rooms.seat_of(room_id, token)


class Served(NamedTuple):
    """What a socket is served with."""

    rooms: LiveGames
    social: Social
    play: Play
    delivery: Delivery


FAILED = "The server could not take that just now; try again in a moment."


async def serve(ws: WebSocket, served: Served, viewer: Viewer, max_frame_bytes: int, hello: str = ""):
    """Push the view (and ``hello``, a browser's flash, after it) until the viewer leaves, and
    play the clicks it sends; on a failure (the database down, say) close with 1011 and a
    reason. The reader task is always cancelled and awaited, and presence undone."""
    rooms, social, delivery = served.rooms, served.social, served.delivery
    room_id, seat = viewer.room_id, viewer.seat
    present = False
    sending = asyncio.Lock()  # a push, or a click's refusal, made and sent one at a time

    async def clicked(text: str) -> None:
        """Play one click; say why not, to this socket alone."""
        refusal: Message | None = None
        stale = False
        try:
            fields = orjson.loads(text)
            if not isinstance(fields, dict):
                raise ValueError("not an object")
            await play_click(served.play, room_id, await rooms.seat_of(room_id, viewer.token or ""), fields)
        except ValueError:
            refusal = say("that request was malformed")
        except RoomError as exc:
            refusal, stale = exc.said, isinstance(exc, Stale)
        except Exception as exc:
            log_failure(log, f"a click in room {room_id} failed", exc)
            refusal = say(FAILED)
        if refusal is not None:
            message = spoken(refusal, translations(viewer.lang).gettext)
            async with sending:  # a stale click's page gets the whole table again: up to date
                table = await delivery.pushed_main(viewer) if stale else ""
                await ws.send_text(fragment(ws, viewer.lang, "fragments/flash.html", message=message) + table)

    with rooms.bus.subscribe(room_id) as subscription:
        plays = seat is not None and viewer.format == "html"  # a page's socket, not a program's
        reader = asyncio.create_task(read_incoming(ws, max_frame_bytes, clicked if plays else None))
        reader.add_done_callback(lambda _: subscription.close())  # the viewer left
        try:
            if seat is not None:
                await social.connected(room_id, seat)
                present = True
            async with sending:
                for frame in await delivery.first(viewer):
                    await ws.send_text(frame)
                if hello and viewer.format == "html":
                    await ws.send_text(hello)
            while (change := await next_change(subscription, await rooms.room(room_id), viewer)) is not None:
                async with sending:  # (not while a refusal sends the whole table: see clicked)
                    for frame in await delivery.frames(viewer, change):
                        await ws.send_text(frame)
                rooms.metrics.sent(room_id, change.version)
        except Revoked:
            with contextlib.suppress(Exception):
                await ws.close(code=POLICY_VIOLATION, reason=REVOKED)
        except (WebSocketDisconnect, RuntimeError):
            pass  # the viewer left (sending on a socket that is closing raises RuntimeError)
        except Exception as exc:
            await close_on_failure(ws, room_id, exc)
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
            if present and seat is not None:
                try:
                    await social.disconnected(room_id, seat)
                except Exception as exc:
                    log_failure(log, f"presence of room {room_id} not cleared", exc)


async def next_change(subscription: Subscription, info: RoomInfo, viewer: Viewer) -> Change | None:
    """The room's next change, or None once the viewer left. A page of a room played again
    whose held seats free up before anything changes is sent a change of its seats at that
    moment: nothing is published then, and the page would go on showing them held. (A program
    reads ``held_until`` itself.)"""
    waiter = subscription.next()
    if viewer.format != HTML or not info.held():
        return await waiter
    assert info.held_until is not None  # (held: it is set)
    left = (info.held_until - datetime.now(UTC)).total_seconds() + HOLD_MARGIN
    try:
        return await asyncio.wait_for(waiter, left)
    except TimeoutError:
        return Change(None, presence=True)  # (the sections that changed are sent, as for presence)


async def close_on_failure(ws: WebSocket, room_id: str, exc: Exception) -> None:
    """Database trouble (``app.db.faults``) is logged as one line, anything else as a bug."""
    log_failure(log, f"live socket of room {room_id} closed", exc)
    reason = "database unavailable, try again shortly" if outage(exc) else "server error"
    with contextlib.suppress(Exception):
        await ws.close(code=INTERNAL_ERROR, reason=reason)


async def read_incoming(ws: WebSocket, limit: int, clicked: Callable[[str], Awaitable[None]] | None) -> None:
    """Read incoming frames until the client leaves, each a click (``clicked``; dropped for a
    spectator or a JSON socket); close the socket on a frame over the size limit or on a flood (more than
    FLOOD_FRAMES frames within FLOOD_SECONDS)."""
    recent: deque[float] = deque()
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        data = message.get("text") or message.get("bytes") or b""
        size = len(data.encode()) if isinstance(data, str) else len(data)
        if size > limit:
            await ws.close(code=TOO_BIG, reason="frame too large")
            return
        now = time.monotonic()
        recent.append(now)
        while now - recent[0] > FLOOD_SECONDS:
            recent.popleft()
        if len(recent) > FLOOD_FRAMES:
            await ws.close(code=POLICY_VIOLATION, reason="too many messages")
            return
        if clicked is not None:
            await clicked(data if isinstance(data, str) else data.decode("utf-8", "replace"))
