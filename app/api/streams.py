"""Following a room without a websocket: the event stream and the long-poll.

``GET /api/rooms/<id>/stream`` answers newline-delimited JSON (``application/x-ndjson``), as
lichess streams a game: one typed event a line (``app.api.events``: ``view``, ``presence``,
``chat``, ``end``), and an empty line every ``STREAM_KEEPALIVE_SECONDS`` while nothing happens,
so proxies and clients can tell a quiet room from a dead connection. The stream starts with the
seat's view (with ``?after=<version>``: only if the room is past that version) and ends after the
``end`` event, or when the seat's link is reissued. ``GET /api/rooms/<id>/view?after=<version>&wait=<s>``
is the long-poll: it answers the view at once if the room is past ``after`` (or over), else when
the room next changes, or after ``wait`` seconds (at most ``MAX_WAIT``) with the view as it is.
Both follow the event bus, so a change made through another instance reaches them through the
relay. Open streams and waiting polls are counted per seat (``MAX_STREAMS_PER_SEAT``) and per
room's spectators (``MAX_SPECTATORS_PER_ROOM``), on each instance, one more is answered 429; a
seat's stream counts as its presence, as a socket does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse
from pydantic import BeforeValidator, Field
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

from app.api.deps import Auth, Chat, Configured, Lobbying, Rooms
from app.api.errors import answers
from app.api.events import ENDED, Events, Follower, Revoked
from app.db.faults import log_failure
from app.realtime.bus import Subscription
from app.realtime.caps import SocketCaps
from app.rooms.errors import BadRequest, Forbidden, TooManyStreams
from app.rooms.live_games import LiveGames
from app.rooms.model import RoomInfo
from app.rooms.views import Payloads

router = APIRouter()
log = logging.getLogger(__name__)

MAX_WAIT = 60
NDJSON = "application/x-ndjson"
REISSUED = "this seat's link was reissued by the host; ask them for the new one"


def ascii_whole(value: object) -> object:
    """A whole number in a query is written in the digits 0-9 (at most 18 of them): "1.0",
    "+1", " 1", "1e3" or other scripts' digits are refused, not read as numbers."""
    if not (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 18):
        raise ValueError("a whole number written with the digits 0-9")
    return value


WholeNumber = Annotated[int, BeforeValidator(ascii_whole), Field(ge=0, le=10**18 - 1)]  # as published
After = Annotated[
    WholeNumber | None,
    Query(description="the version of the last view you hold: wait for a newer one (see `wait`)"),
]
Wait = Annotated[
    WholeNumber,
    Query(le=MAX_WAIT, description=f"with `after`: seconds to wait for a change (0 to {MAX_WAIT})"),
]


async def events(connection: HTTPConnection) -> Events:
    return connection.app.state.events


async def stream_caps(connection: HTTPConnection) -> SocketCaps:
    return connection.app.state.streams


Following = Annotated[Events, Depends(events)]
StreamCaps = Annotated[SocketCaps, Depends(stream_caps)]


def check_after(info: RoomInfo, after: int | None) -> None:
    if after is not None and after > info.version:
        raise BadRequest(f"after is past the room's version ({info.version})", version=info.version)


def admitted(stack: AsyncExitStack, caps: SocketCaps, room_id: str, seat: int | None) -> None:
    """Count one more stream or poll of the seat until ``stack`` closes, or answer 429."""
    refusal = stack.enter_context(caps.admit(room_id, seat))
    if refusal:
        raise TooManyStreams(refusal)


async def poll(
    rooms: LiveGames,
    follow: Events,
    views: Payloads,
    caps: SocketCaps,
    follower: Follower,
    after: int | None,
    wait: int,
) -> str:
    """The seat's payload, once the room is past ``after`` (see the module's docstring)."""
    room_id = follower.room_id
    if after is None:
        if wait:
            raise BadRequest("wait needs after=<version>: the version of the last view you hold")
        return await views.text(room_id, follower.seat)
    async with AsyncExitStack() as stack:
        admitted(stack, caps, room_id, follower.seat)
        subscription = stack.enter_context(rooms.bus.subscribe(room_id))
        info = await rooms.room(room_id)
        check_after(info, after)
        if info.version == after and info.status not in ENDED and wait:
            await until_changed(subscription, wait)
        try:
            await follow.check_seated(follower)
        except Revoked:
            raise Forbidden(REISSUED) from None
        return await views.text(room_id, follower.seat)


async def until_changed(subscription: Subscription, wait: float) -> None:
    """Return when the room or its game changes (presence and chat do not count), or after
    ``wait`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while (left := deadline - loop.time()) > 0:
        try:
            change = await asyncio.wait_for(subscription.next(), left)
        except TimeoutError:
            return
        if change is None or change.version is not None or change.everything:
            return


class EventStream(StreamingResponse):
    """A streamed answer that releases what it holds (``release``) however it ends: the
    client leaving, the stream's end, or a failure (the generator alone would not run its
    cleanup if the client left before the first line)."""

    def __init__(self, lines: AsyncIterator[str], release: Callable[[], Awaitable[object]]):
        super().__init__(lines, media_type=NDJSON, headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.release()


async def lines(
    follow: Events, subscription: Subscription, follower: Follower, first: list[str], keepalive: float
) -> AsyncIterator[str]:
    for event in first:
        yield event + "\n"
    while not follower.ended:
        try:
            change = await asyncio.wait_for(subscription.next(), keepalive)
        except TimeoutError:
            yield "\n"
            continue
        if change is None:
            return
        try:
            events = await follow.frames(follower, change)
        except Revoked:
            return
        for event in events:
            yield event + "\n"


@router.get(
    "/api/rooms/{room_id}/stream",
    tags=["play"],
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {NDJSON: {"schema": {"$ref": "#/components/schemas/Push"}}},
            "description": "one typed event a line (and empty keep-alive lines), see docs/api.md",
        },
        **answers(400, 401, 403, 404, 429),
    },
)
async def stream_room(
    room_id: str,
    rooms: Rooms,
    follow: Following,
    social: Chat,
    caps: StreamCaps,
    settings: Configured,
    auth: Auth,
    lobby: Lobbying,
    after: After = None,
):
    """Follow the room as newline-delimited JSON events (with your seat token: your seat's
    view; without: a spectator's). Empty lines keep the connection alive."""
    await rooms.refresh(room_id)
    seat = await auth.viewer_in(rooms, room_id)
    check_after(await rooms.room(room_id), after)
    if seat is not None:  # the player is back: a stand-in bot gives the seat back
        await lobby.come_back(room_id, seat)
    follower = Follower(room_id, seat, auth.optional())
    stack = AsyncExitStack()
    try:
        admitted(stack, caps, room_id, seat)
        subscription = stack.enter_context(rooms.bus.subscribe(room_id))
        if seat is not None:
            await social.connected(room_id, seat)
            stack.push_async_callback(disconnected, social.disconnected, room_id, seat)
        first = await follow.first(follower, after)
    except BaseException:
        await stack.aclose()
        raise
    return EventStream(lines(follow, subscription, follower, first, settings.stream_keepalive_seconds), stack.aclose)


async def disconnected(undo: Callable[[str, int], Awaitable[None]], room_id: str, seat: int) -> None:
    try:
        await undo(room_id, seat)
    except Exception as exc:
        log_failure(log, f"presence of room {room_id} not cleared", exc)
