"""What routes take as typed dependencies: the room core's services and the seat token.

``create_app`` builds one of each service per app (``app.main``); a route names the ones it
uses as ``Annotated`` parameters (``rooms: Rooms``, ``play: Playing``), so FastAPI hands them
over and mypy checks their use. The seat token is read by FastAPI's ``HTTPBearer`` (which gives
``/docs`` its Authorize button); a malformed Authorization header is kept as such until the
route asks for the seat (``Credentials.seat_in``), so a request that is wrong in several ways
is answered in one order: the body's 400, then a missing room's 404, then the token's 401.
The move front door (``app.api.moves``) calls these same functions, and the live websocket
takes the same services (they read the connection, HTTP or websocket).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import orjson
from fastapi import Depends, Request
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from app.config import Settings
from app.rooms.errors import Unauthorized, UnknownField
from app.rooms.hints import Hints
from app.rooms.live_games import LiveGames
from app.rooms.lobby import Lobby
from app.rooms.play import Play
from app.rooms.replays import Replays
from app.rooms.reviews import Reviews
from app.rooms.social import Social
from app.rooms.throttle import Throttle
from app.rooms.views import Payloads

# the calls a spectator may make without a token, or a player with theirs (their operation's
# ``openapi_extra``, which FastAPI adds to the bearer scheme it lists: the token is optional)
TOKEN_OPTIONAL: dict[str, Any] = {"security": [{}]}
BEARER = HTTPBearer(
    auto_error=False, scheme_name="seatToken", description="the token your seat was given when you took it"
)


async def rooms(request: HTTPConnection) -> LiveGames:
    return request.app.state.rooms


async def lobby(request: HTTPConnection) -> Lobby:
    return request.app.state.lobby


async def play(request: HTTPConnection) -> Play:
    return request.app.state.play


async def payloads(request: HTTPConnection) -> Payloads:
    return request.app.state.payloads


async def hints(request: HTTPConnection) -> Hints:
    return request.app.state.hints


async def reviews(request: HTTPConnection) -> Reviews:
    return request.app.state.reviews


async def replays(request: HTTPConnection) -> Replays:
    return request.app.state.replays


async def social(request: HTTPConnection) -> Social:
    return request.app.state.social


async def throttle(request: HTTPConnection) -> Throttle:
    return request.app.state.throttle


async def settings(request: HTTPConnection) -> Settings:
    return request.app.state.settings


async def seat_reading(social: Social, lobby: Lobby, room_id: str, seat: int | None) -> bool:
    """A seat's player called or posted with its token: a sign of life (the host may hand only
    an absent player's seat to a bot, or give it a new link), and a stand-in the turn timer
    seated gives the seat back, as when a stream of theirs opens; whether one did. (Only reads
    of the view counted: a player on a page without scripts, or a program reading its legal
    actions, was taken for absent, and the host could take their seat and see their hand.)"""
    if seat is None:
        return False
    await social.polled(room_id, seat)
    return await lobby.come_back(room_id, seat)


async def seat_seen(connection: HTTPConnection, room_id: str, token: str | None) -> int:
    """The seat ``token`` holds in the room (``LiveGames.seat_of``), noted as its player's sign
    of life (:func:`seat_reading`): every call and page of a seat's own."""
    state = connection.app.state
    seat = await state.rooms.seat_of(room_id, token)
    await seat_reading(state.social, state.lobby, room_id, seat)
    return seat


@dataclass(frozen=True)
class Credentials:
    """The seat token a request carries, if any; ``malformed``: an Authorization header that is
    not ``Bearer <token>``; ``in_address``: no header, but a ``token`` in the query string;
    ``connection``: the request, whose seat is noted as present once found (:func:`seat_seen`)."""

    token: str | None
    malformed: bool = False
    in_address: bool = False
    connection: HTTPConnection | None = None

    def optional(self) -> str | None:
        """The token, or None without one; 401 for a malformed header or a token in the address."""
        if self.malformed:
            raise Unauthorized("use 'Authorization: Bearer <seat token>'")
        if self.in_address:
            raise Unauthorized("send the seat token as 'Authorization: Bearer <seat token>', not in the address")
        return self.token

    async def seat_in(self, rooms: LiveGames, room_id: str) -> int:
        """The seat this token holds in the room: 404 for a missing room whatever the token,
        then 401 without a token or with a malformed header, 403 for a token of no seat here."""
        if self.malformed or self.in_address:
            await rooms.room(room_id)
        if self.connection is None:
            return await rooms.seat_of(room_id, self.optional())
        return await seat_seen(self.connection, room_id, self.optional())

    async def viewer_in(self, rooms: LiveGames, room_id: str) -> int | None:
        """:meth:`seat_in` for a call a spectator may make too: None without a token."""
        if self.token is None and not self.malformed and not self.in_address:
            return None
        return await self.seat_in(rooms, room_id)


async def credentials(
    request: Request, bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]
) -> Credentials:
    if bearer is not None and bearer.credentials.strip():
        return Credentials(bearer.credentials.strip(), connection=request)
    # (a token in the address is the websocket's way: here it is refused, not read as a spectator)
    malformed, in_address = "authorization" in request.headers, "token" in request.query_params
    return Credentials(None, malformed=malformed, in_address=in_address, connection=request)


Rooms = Annotated[LiveGames, Depends(rooms)]
Lobbying = Annotated[Lobby, Depends(lobby)]
Playing = Annotated[Play, Depends(play)]
Views = Annotated[Payloads, Depends(payloads)]
Chat = Annotated[Social, Depends(social)]
Replaying = Annotated[Replays, Depends(replays)]
Hinting = Annotated[Hints, Depends(hints)]
Reviewing = Annotated[Reviews, Depends(reviews)]
Limits = Annotated[Throttle, Depends(throttle)]
Auth = Annotated[Credentials, Depends(credentials)]
Configured = Annotated[Settings, Depends(settings)]


async def no_body(request: Request) -> None:
    """The body of a call that takes none (``NO_BODY``): it may be sent empty or as ``{}``; an
    object's fields are fields the call does not name (422 ``unknown_field``), and anything else
    is not the call's (400 ``invalid_request``), as with every other call's body."""
    raw = await request.body()
    if not raw.strip():
        return
    try:
        sent = orjson.loads(raw)
    except orjson.JSONDecodeError:
        sent = None
    if not isinstance(sent, dict):
        raise RequestValidationError([{"type": "no_body", "loc": ("body",), "msg": "this call takes no body"}])
    if sent:
        raise UnknownField(sorted(sent))


NO_BODY = Depends(no_body)
