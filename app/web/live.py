"""The live websocket: ``/ws/rooms/<id>`` pushes the room to one viewer whenever it changes.

The socket is authorised once, at the handshake: a ``token`` query parameter binds it to that
seat, none makes it a spectator's. The handshake's ``Origin`` must be this server's own (or one
listed in ALLOWED_ORIGINS). On connect, and after every change published on the event bus, the
viewer gets its current view: HTML fragments for the browser (swapped by id by htmx's ws
extension) or, with ``format=json``, the same JSON payload as GET /api/rooms/<id>/view (built
once per change for every connected seat, ``app.rooms.views.Payloads``).
Incoming frames are not commands (moves go through the validated POST routes); a frame over the
size limit, or a flood of frames, closes the socket. Open seat sockets count as presence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.rooms.errors import RoomError
from app.rooms.service import RoomService
from app.web.render import render_room

router = APIRouter()
log = logging.getLogger(__name__)

POLICY_VIOLATION = 1008
TOO_BIG = 1009
INTERNAL_ERROR = 1011
FLOOD_FRAMES, FLOOD_SECONDS = 20, 1.0


def origin_allowed(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return False
    allowed = ws.app.state.settings.origins()
    if origin.rstrip("/") in allowed:
        return True
    return urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()


async def render_for(ws: WebSocket, room_id: str, seat: int | None, token: str | None, fmt: str) -> str:
    if fmt == "json":
        return await ws.app.state.payloads.text(room_id, seat)
    return "".join(await render_room(ws.app.state.rooms, ws.app.state.social, room_id, seat, token))


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(ws: WebSocket, room_id: str, token: str | None = None, format: str = "html"):
    service: RoomService = ws.app.state.rooms
    if not origin_allowed(ws):
        await ws.close(code=POLICY_VIOLATION, reason="origin not allowed")
        return
    try:
        seat = await service.seat_of(room_id, token) if token else None
        if token is None:
            await service.room(room_id)
    except RoomError as exc:
        await ws.close(code=POLICY_VIOLATION, reason=exc.message)
        return
    fmt = "json" if format == "json" else "html"
    await ws.accept()
    social = ws.app.state.social
    limit = ws.app.state.settings.max_ws_message_bytes
    with service.bus.subscribe(room_id) as subscription:
        reader = asyncio.create_task(drain_incoming(ws, limit))
        reader.add_done_callback(lambda _: subscription.close())  # the viewer left
        if seat is not None:
            await social.connected(room_id, seat)
        try:
            await ws.send_text(await render_for(ws, room_id, seat, token, fmt))
            while await subscription.next() is not None:
                await ws.send_text(await render_for(ws, room_id, seat, token, fmt))
        except (WebSocketDisconnect, RuntimeError):
            pass  # the viewer left (sending on a socket that is closing raises RuntimeError)
        except Exception:
            log.exception("live socket of room %s failed", room_id)
            with contextlib.suppress(Exception):
                await ws.close(code=INTERNAL_ERROR, reason="server error")
        finally:
            reader.cancel()
            if seat is not None:
                await social.disconnected(room_id, seat)


async def drain_incoming(ws: WebSocket, limit: int) -> None:
    """Read and drop incoming frames until the client leaves; close the socket on a frame over
    the size limit or on a flood (more than FLOOD_FRAMES frames within FLOOD_SECONDS)."""
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
