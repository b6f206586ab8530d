"""Following a room without a websocket: the event stream and the long-polls.

``GET /api/rooms/<id>/stream`` answers newline-delimited JSON (``application/x-ndjson``), as
lichess streams a game: one typed event a line (``app.api.events``: ``view``, ``presence``,
``chat``, ``end``), each numbered by ``change``, the id of the room's last change it reflects
(``app.rooms.changes``), and an empty line every ``STREAM_KEEPALIVE_SECONDS`` while nothing
happens, so proxies and clients can tell a quiet room from a dead connection. It starts with
the seat's view, or with ``?after=<change>`` with every change after that one, once (a client
whose stream dropped resumes with the last ``change`` it read and misses nothing), and ends
after the ``end`` event, or when the seat's link is reissued. ``GET /api/rooms/<id>/events``
is its long-poll: ``{"change", "events"}``, the same events after ``after``, answered at once if
there are any, else at the room's next change or after ``wait`` seconds (at most ``MAX_WAIT``)
with none. ``GET /api/rooms/<id>/view?after=<change>&wait=<s>`` is the view's long-poll: the
view (with ``change``) once the view changed after ``after`` (presence and chat alone do not
answer it), or the room is over, or after ``wait`` seconds as it is.
All follow the event bus, so a change made through another instance reaches them through the
relay. Open streams and waiting polls are counted per seat (``MAX_STREAMS_PER_SEAT``) and per
room's spectators (``MAX_SPECTATORS_PER_ROOM``), on each instance, one more is answered 429; a
seat's stream counts as its presence, as a socket does; a seat's read or poll is a sign of life
(``seat_reading``), not a connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response, StreamingResponse
from pydantic import BeforeValidator, Field
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

from app.api.answers import EventBatch
from app.api.contract import operation_id
from app.api.deps import TOKEN_OPTIONAL, Auth, Chat, Configured, Lobbying, Rooms
from app.api.errors import answers
from app.api.events import ENDED, Events, Follower, Revoked, with_change
from app.db.faults import log_failure
from app.reading import written_whole
from app.realtime.bus import Subscription
from app.realtime.caps import SocketCaps
from app.rooms.changes import Changes
from app.rooms.errors import BadRequest, Forbidden, TooManyStreams
from app.rooms.live_games import LiveGames
from app.rooms.views import Payloads

router = APIRouter(generate_unique_id_function=operation_id)  # (the app adds its routes as they are)
log = logging.getLogger(__name__)

MAX_WAIT = 60
NDJSON = "application/x-ndjson"
REISSUED = "this seat's link was reissued by the host; ask them for the new one"


def ascii_whole(value: object) -> object:
    """A whole number in a query is written in the digits 0-9 (at most 18 of them): "1.0",
    "+1", " 1", "1e3" or other scripts' digits are refused, not read as numbers."""
    if written_whole(value, most_digits=None) and not written_whole(value, most_digits=18):
        raise ValueError("too large: at most 18 digits")
    if not written_whole(value, most_digits=18):
        raise ValueError("a whole number written with the digits 0-9")
    return value


# (bounds written before the validator: after it, they would be published as "ge" and "le",
# not as JSON Schema's "minimum" and "maximum")
WholeNumber = Annotated[int, Field(ge=0, le=10**18 - 1), BeforeValidator(ascii_whole)]
WaitSeconds = Annotated[int, Field(ge=0, le=MAX_WAIT), BeforeValidator(ascii_whole)]
After = Annotated[
    WholeNumber | None,
    Query(description="the `change` id of the last event or view you hold: answer what changed after it"),
]
Wait = Annotated[
    WaitSeconds,
    Query(
        description=f"with `after`: seconds to wait for a change (0 to {MAX_WAIT}); 0, the default, is no wait "
        "and needs no `after` (without `after`, GET /view refuses more than 0, GET /events answers at once)"
    ),
]


async def events(connection: HTTPConnection) -> Events:
    return connection.app.state.events


async def stream_caps(connection: HTTPConnection) -> SocketCaps:
    return connection.app.state.streams


Following = Annotated[Events, Depends(events)]
StreamCaps = Annotated[SocketCaps, Depends(stream_caps)]


def check_after(ids: Changes, after: int | None) -> None:
    if after is not None and after > ids.last:
        raise BadRequest(f"after is past the room's last change ({ids.last})", change=ids.last)


def admitted(stack: AsyncExitStack, caps: SocketCaps, room_id: str, seat: int | None) -> None:
    """Count one more stream or poll of the seat until ``stack`` closes, or answer 429."""
    refusal = stack.enter_context(caps.admit(room_id, seat))
    if refusal:
        raise TooManyStreams(refusal, retry_after=caps.retry_after)


async def poll(
    rooms: LiveGames,
    events: Events,
    payloads: Payloads,
    caps: SocketCaps,
    follower: Follower,
    after: int | None,
    wait: int,
) -> str:
    """The seat's payload with the room's last change id, once the view changed after change
    ``after`` (see the module's docstring)."""
    room_id = follower.room_id
    if after is None:
        if wait:
            raise BadRequest("wait needs after=<change>: the change id of the last view you hold")
        ids = await rooms.changes(room_id)
        return with_change(await payloads.text(room_id, follower.seat), ids.last)
    async with AsyncExitStack() as stack:
        admitted(stack, caps, room_id, follower.seat)
        subscription = stack.enter_context(rooms.bus.subscribe(room_id))
        ids = await rooms.changes(room_id)
        check_after(ids, after)
        deadline = asyncio.get_running_loop().time() + wait
        while ids.view <= after and (await rooms.room(room_id)).status not in ENDED:
            if not await next_change(subscription, deadline):
                break
            ids = await rooms.changes(room_id)
        try:
            await events.check_seated(follower)
        except Revoked:
            raise Forbidden(REISSUED) from None
        return with_change(await payloads.text(room_id, follower.seat), ids.last)


async def next_change(subscription: Subscription, deadline: float) -> bool:
    """Wait for the room's next change (of any kind) until ``deadline`` (the loop's clock):
    whether one came."""
    left = deadline - asyncio.get_running_loop().time()
    if left <= 0:
        return False
    try:
        return await asyncio.wait_for(subscription.next(), left) is not None
    except TimeoutError:
        return False


async def events_when_any(
    rooms: LiveGames, events: Events, caps: SocketCaps, follower: Follower, after: int | None, wait: int
) -> str:
    """The stream's events after change ``after`` as one JSON answer, once there is one, or
    after ``wait`` seconds with none (see the module's docstring)."""
    room_id = follower.room_id
    async with AsyncExitStack() as stack:
        admitted(stack, caps, room_id, follower.seat)
        subscription = stack.enter_context(rooms.bus.subscribe(room_id))
        check_after(await rooms.changes(room_id), after)
        deadline = asyncio.get_running_loop().time() + wait
        try:
            found = await events.start(follower, after)
            while not found and not follower.ended and await next_change(subscription, deadline):
                found = await events.since(follower)
        except Revoked:
            raise Forbidden(REISSUED) from None
    return f'{{"change":{follower.change},"events":[{",".join(found)}]}}'


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
    events: Events, subscription: Subscription, follower: Follower, first: list[str], keepalive: float
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
            found = await events.since(follower)
        except Revoked:
            return
        for event in found:
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
    openapi_extra=TOKEN_OPTIONAL,
)
async def stream_room(
    room_id: str,
    rooms: Rooms,
    events: Following,
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
    check_after(await rooms.changes(room_id), after)
    if seat is not None:  # the player is back: a stand-in bot gives the seat back
        await lobby.come_back(room_id, seat)
    follower = Follower(room_id, seat, auth.optional())
    stack = AsyncExitStack()
    try:
        admitted(stack, caps, room_id, seat)
        subscription = stack.enter_context(rooms.bus.subscribe(room_id, stream=True))
        if seat is not None:
            await social.connected(room_id, seat)
            stack.push_async_callback(disconnected, social.disconnected, room_id, seat)
        first = await events.start(follower, after)
    except Revoked:
        await stack.aclose()
        raise Forbidden(REISSUED) from None
    except BaseException:
        await stack.aclose()
        raise
    return EventStream(lines(events, subscription, follower, first, settings.stream_keepalive_seconds), stack.aclose)


async def disconnected(undo: Callable[[str, int], Awaitable[None]], room_id: str, seat: int) -> None:
    try:
        await undo(room_id, seat)
    except Exception as exc:
        log_failure(log, f"presence of room {room_id} not cleared", exc)


@router.get(
    "/api/rooms/{room_id}/events",
    tags=["play"],
    response_model=EventBatch,
    responses=answers(400, 401, 403, 404, 429),
    openapi_extra=TOKEN_OPTIONAL,
)
async def poll_events(
    room_id: str,
    rooms: Rooms,
    events: Following,
    caps: StreamCaps,
    auth: Auth,
    after: After = None,
    wait: Wait = 0,
):
    """The stream's long-poll: the events after change ``after`` (without it: the view, and
    the end if the room is over), at once if there are any, else at the room's next change or
    after ``wait`` seconds with none. ``change`` is what to pass as ``after`` next."""
    await rooms.refresh(room_id)
    seat = await auth.viewer_in(rooms, room_id)  # (a seat's poll: a sign of its player's life)
    follower = Follower(room_id, seat, auth.optional())
    return Response(await events_when_any(rooms, events, caps, follower, after, wait), media_type="application/json")
