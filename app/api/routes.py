"""JSON routes. Seat-specific calls take the seat's token as ``Authorization: Bearer <token>``;
reading a room's public (spectator) view needs no token. Errors are JSON
``{"error", "message", ...}`` (``app.api.errors.ErrorAnswer``); each route lists the statuses it
can answer, as the README's table does.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, SkipValidation, model_validator
from pydantic_core import PydanticCustomError

from app.api.answers import (
    FEWEST_SEATS,
    MOST_SEATS,
    AutopilotSet,
    BotLevel,
    BotSeated,
    Created,
    GameInfo,
    Health,
    Joined,
    Left,
    LegalActions,
    Log,
    MoveReply,
    NextSeat,
    Payload,
    Record,
    Reissued,
    Removed,
    ReplayStep,
    Room,
    RoomClosed,
    RoomStatus,
    SeatNumber,
)
from app.api.answers import Chat as ChatAnswer
from app.api.contract import operation_id
from app.api.deps import (
    NO_BODY,
    TOKEN_OPTIONAL,
    Auth,
    Chat,
    Credentials,
    Limits,
    Lobbying,
    Playing,
    Replaying,
    Rooms,
    Views,
)
from app.api.errors import answers
from app.api.events import Follower
from app.api.paging import (
    CHAT_PAGE,
    LOG_PAGE,
    NEXT_LINK,
    ROOMS_PAGE,
    ChatLimit,
    Cursor,
    LogLimit,
    RoomsLimit,
    foreign,
    next_link,
    place_of,
    whole_place,
)
from app.api.quotas import LOCATION, RATE_LIMIT, with_headers
from app.api.shapes import AnyAction, read_action
from app.api.streams import After, Following, StreamCaps, Wait, WholeNumber, poll
from app.bots import ratings
from app.games.registry import GAMES
from app.reading import written_whole
from app.rooms import records
from app.rooms.live_games import LiveGames
from app.rooms.lobby import MIN_JOIN_KEY_LENGTH
from app.rooms.model import MAX_KEY_LENGTH, Move, require_seat
from app.rooms.play import Play
from app.rooms.storage import RoomKey
from app.rooms.views import Payloads, encode, legal_actions

router = APIRouter(generate_unique_id_function=operation_id)  # (the app adds its routes as they are)


def ascii_digits(value: object) -> object:
    """A seat number in a path is a whole number in the digits 0-9 (a minus sign allowed), in its
    one canonical form: "1.0", "+1", " 1", "01" or other scripts' digits are refused (400), not
    read as seat 1; a number that names no seat, however large, is 404."""
    if not written_whole(value, most_digits=None, signed=True):
        raise ValueError("a seat number is written with the digits 0-9 only")
    digits = value.removeprefix("-")
    if len(digits) > 1 and digits.startswith("0"):
        raise ValueError("a seat number is written without leading zeros")
    return value


SeatInPath = Annotated[int, BeforeValidator(ascii_digits)]


def json_integer(value: object) -> object:
    """A JSON integer, as a strict body reads one (a literal's choices would take false for 0, or
    30.0 for 30)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


# a room's turn timer, one of ``app.rooms.lobby.TURN_TIMER_PRESETS`` (a test holds the two alike),
# stated as the schema's enum so that generated clients know the choices
TurnTimer = Annotated[Literal[0, 30, 60, 120, 300], BeforeValidator(json_integer)]


class StrictBody(BaseModel):
    """A JSON body read strictly and closed: a whole number is a JSON integer, never "0", true or
    0.0, and a field the call does not name is refused, named (a malformed body is answered
    400 ``invalid_request``, field by field)."""

    model_config = ConfigDict(strict=True, extra="forbid", use_attribute_docstrings=True)


# What a text field may hold, as a pattern JSON Schema states and the body's reading enforces
# (400 invalid_request; the room's own check is stricter, 400 bad_request: app.rooms.model,
# app.rooms.social): a name or a chat line has no control character but the whitespace ones
# (folded into single spaces); a key has none at all.
TEXT = r"^[^\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]+$"
KEY = r"^[^\x00-\x1f\x7f-\x9f]+$"


def printable(description: str, **field: Any) -> Any:
    """A name's or a chat line's field, with its pattern."""
    return Field(description=description, pattern=TEXT, **field)


def key(description: str, shortest: int = 1) -> Any:
    """An idempotency key's field, with its pattern and lengths (``check_key`` checks them too)."""
    return Field(default=None, description=description, pattern=KEY, min_length=shortest, max_length=MAX_KEY_LENGTH)


class CreateRoom(StrictBody):
    game: str = Field(description="game slug, see GET /api/games")
    seats: int = Field(  # (the bounds of all games; the room's game says its own range: bad_request)
        description="number of seats, within the game's range", ge=FEWEST_SEATS, le=MOST_SEATS
    )
    name: str = printable("the host's display name (1 to 24 printable characters); the host takes seat 0")
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    turn_timer: TurnTimer = Field(
        default=0,
        description="seconds per turn: 0 (off), 30, 60, 120 or 300; a seat whose time runs out "
        "is played by a bot until its player takes it back",
    )
    listed: bool = Field(
        default=True,
        description="false keeps the room out of the lobby and GET /api/rooms: only its invite link finds it",
    )
    hints: bool = Field(
        default=False,
        description="true lets each seat ask for the strong bot's suggested move on its turn (GET "
        "/api/rooms/{id}/hint); fixed for the room's life",
    )


class JoinRoom(StrictBody):
    """A name (to take a seat yourself) or a bot (the host's, to seat one): one of the two."""

    # (said without oneOf, which would make generators read the body as a union of two objects
    # with no fields: without a bot, a name; with a bot, no name; a seat only with a bot)
    model_config = ConfigDict(
        json_schema_extra={
            "if": {"not": {"required": ["bot"]}},
            "then": {"required": ["name"]},
            "dependentSchemas": {"bot": {"not": {"required": ["name"]}}},
            "dependentRequired": {"seat": ["bot"], "idempotency_key": ["name"]},
        }
    )

    name: str | None = printable(
        "your display name, 1 to 24 printable characters (to take a seat yourself)", default=None
    )
    bot: BotLevel | None = Field(default=None, description="host only: seat a bot of this level instead")
    seat: SeatNumber | None = Field(default=None, description="with bot: which free seat (default: lowest)")
    idempotency_key: str | None = key(
        "optional, with name: 16 to 64 characters nobody can guess (a UUID, say); a resend with the same key "
        "and name answers the same seat and token",
        shortest=MIN_JOIN_KEY_LENGTH,
    )

    @model_validator(mode="after")
    def name_or_bot(self) -> JoinRoom:
        given = self.model_fields_set
        if len({"name", "bot"} & given) != 1:
            raise ValueError("give a name (to take a seat) or a bot (the host, to seat one), not both or neither")
        if "seat" in given and "bot" not in given:
            raise ValueError("a seat is chosen only for a bot")
        if "idempotency_key" in given and "name" not in given:
            raise ValueError("an idempotency key goes with a name only (a bot is seated once per call)")
        return self


class StartRoom(StrictBody):
    idempotency_key: str | None = key("optional: a resend with the same key answers as the first start did")


NO_START_KEY = StartRoom()  # a start sent without a body (never changed: models are values here)


class ChatLine(StrictBody):
    text: str = printable("1 to 300 printable characters (runs of whitespace are folded into one space)")


class Autopilot(StrictBody):
    bot: BotLevel | None = Field(description="a bot level to play your seat for you, or null to play it yourself again")


class SubmitAction(StrictBody):
    version: int = Field(description="the version of the view this action was chosen from")
    # read by the room's game in reply_to_move (app.api.shapes), not here: which game it is
    # is known once the room is
    action: Annotated[AnyAction, SkipValidation] = Field(description="one of the objects listed by legal-actions")
    idempotency_key: str | None = key("optional: a resend with the same key is applied once")


LOCATED = with_headers(201, LOCATION)


def answer(
    content: Any, status: int = 200, location: str | None = None, headers: dict[str, str] | None = None
) -> Response:
    """An answer as the code built it, encoded as JSON. Routes name their answer's model for the
    contract (``response_model``) but do not have FastAPI re-read every answer through it: a
    field the contract lacks would then be a 500 for the caller; tests/test_contract.py checks
    the answers against the contract instead, and fails on any drift. A 201 names what it made
    (``location``); a listing, its next page (``headers``: ``app.api.paging``)."""
    sent = (headers or {}) | ({"Location": location} if location else {})
    return JSONResponse(content, status_code=status, headers=sent or None)


NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "not modified: the answer is still the one whose ETag If-None-Match named"}
}


def conditional(request: Request, text: str) -> Response:
    """A JSON answer with its ``ETag`` (a digest of its text), or 304 with no body when the
    request's ``If-None-Match`` names it: a client polling a view or a room that did not change
    is sent nothing again. ``no-cache``: a cache may keep it, but asks each time."""
    tag = f'"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'
    headers = {"ETag": tag, "Cache-Control": "private, no-cache"}
    asked = [part.strip().removeprefix("W/") for part in request.headers.get("if-none-match", "").split(",")]
    if tag in asked or "*" in asked:
        return Response(status_code=304, headers=headers)
    return Response(text, media_type="application/json", headers=headers)


def json_text(text: str) -> Response:
    """JSON encoded already (``app.rooms.views``): FastAPI would otherwise walk a view through
    ``jsonable_encoder``, which cost four times as much as building it."""
    return Response(text, media_type="application/json")


@router.get("/healthz", response_model=Health, tags=["meta"], responses=answers())
async def get_health(rooms: Rooms):
    """200 ``{"status": "ok"}`` while the server can read its database, else 503 with
    ``Retry-After`` (the image's health check and a proxy's ask this)."""
    await rooms.list_rooms(limit=1)
    return answer({"status": "ok"})


@router.get("/api/games", response_model=list[GameInfo], tags=["games"], responses=answers())
async def list_games():
    """The games this server hosts: each one's slug, title, seat range, the options a new room
    takes (with their kinds and defaults), the bot levels a seat may be given, rated, and the
    path of its rules page."""
    return answer(
        [
            {
                "slug": g.slug,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "options": [o.to_json() for o in g.options],
                "bots": ratings.levels(g.slug),
                "rules": f"/rules/{g.slug}",
            }
            for g in GAMES.values()
        ]
    )


@router.post(
    "/api/rooms",
    response_model=Created,
    status_code=201,
    tags=["rooms"],
    responses=answers(400, 422, 429) | with_headers(201, LOCATION | RATE_LIMIT),
)
async def create_room(body: CreateRoom, request: Request, lobby: Lobbying, throttle: Limits):
    """At most 10 rooms a minute and 100 an hour per client address (ROOM_CREATION_LIMIT): only a
    creation that passes every other check is counted."""
    address = request.client and request.client.host
    new_room = await throttle.checking_room(
        address,
        lambda: lobby.check_new_room(
            body.game, body.seats, body.options, body.name, body.turn_timer, body.listed, body.hints
        ),
    )
    await throttle.creating_room(address)
    info, token = await lobby.create(new_room)
    quota = await throttle.quota("rooms", address)
    return answer({"room": info.public(), "seat": 0, "token": token}, 201, f"/api/rooms/{info.id}", quota)


@router.get("/api/rooms", response_model=list[Room], tags=["rooms"], responses=answers(400) | NEXT_LINK)
async def list_rooms(
    request: Request,
    rooms: Rooms,
    status: Annotated[RoomStatus | None, Query()] = None,
    limit: RoomsLimit = ROOMS_PAGE,
    cursor: Cursor = None,
):
    """The listed rooms, the newest first (an unlisted room is found only through its link), a
    page at a time: with more, a ``Link`` header to the next page."""
    infos, last = await rooms.room_page(status, limit, room_key(cursor))
    place = None if last is None else f"{last[0].isoformat()}|{last[1]}"
    return answer([info.public() for info in infos], headers=next_link(request, "rooms", place))


def room_key(cursor: str | None) -> RoomKey | None:
    """The room a ``rooms`` cursor names the place of (its creation time and id)."""
    place = place_of("rooms", cursor)
    if place is None:
        return None
    made, _, room_id = place.partition("|")
    try:
        made_at = datetime.fromisoformat(made)
        if made_at.tzinfo is None:  # the server's own cursors are always in UTC
            raise ValueError(made)
        return made_at.astimezone(UTC), room_id
    except (ValueError, OverflowError):  # (out of range once in UTC)
        raise foreign("rooms") from None


@router.get("/api/rooms/{room_id}", response_model=Room, tags=["rooms"], responses=answers(404) | NOT_MODIFIED)
async def get_room(room_id: str, request: Request, rooms: Rooms):
    """The room's facts, with an ``ETag``: with ``If-None-Match`` naming it, 304 while unchanged."""
    await rooms.refresh(room_id)
    return conditional(request, encode((await rooms.room(room_id)).public()))


@router.post(
    "/api/rooms/{room_id}/seats",
    response_model=Joined | BotSeated,
    status_code=201,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422) | LOCATED,
    openapi_extra=TOKEN_OPTIONAL,  # the host's, to seat a bot
)
async def join_room(room_id: str, body: JoinRoom, rooms: Rooms, lobby: Lobbying, auth: Auth):
    """Take a free seat with a name, or (host token) seat a bot: ``{"bot": "strong"}``."""
    if body.bot is not None:
        host = await auth.seat_in(rooms, room_id)
        seat = await lobby.add_bot(room_id, host, body.bot, body.seat)
        return answer({"seat": seat, "bot": body.bot}, 201, f"/api/rooms/{room_id}/seats/{seat}")
    seat, token, duplicate = await lobby.join(room_id, body.name, body.idempotency_key)
    return answer({"seat": seat, "token": token, "duplicate": duplicate}, 201, f"/api/rooms/{room_id}/seats/{seat}")


@router.delete(
    "/api/rooms/{room_id}/seats/me",
    response_model=Left,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422),
    dependencies=[NO_BODY],
)
async def leave_room(room_id: str, rooms: Rooms, lobby: Lobbying, auth: Auth):
    """Give up your seat before the start (409 after it): the host role passes to the player in
    the lowest-numbered seat left, and the last player to leave closes the room."""
    seat = await auth.seat_in(rooms, room_id)
    await lobby.leave(room_id, seat)
    return answer({"left": seat})


@router.post(
    "/api/rooms/{room_id}/close",
    response_model=RoomClosed,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422),
    dependencies=[NO_BODY],
)
async def close_room(room_id: str, rooms: Rooms, lobby: Lobbying, auth: Auth):
    """Host only: close the room. A waiting room is closed; a game in play is abandoned (it
    leaves the lobby, its record and replay stay). Every socket and stream following the room
    gets the final view and the ``end`` event, with ``closed_reason`` ``host``."""
    host = await auth.seat_in(rooms, room_id)
    return answer({"status": await lobby.close(room_id, host), "closed_reason": "host"})


@router.delete(
    "/api/rooms/{room_id}/seats/{seat}",
    response_model=Removed,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422),
    dependencies=[NO_BODY],
)
async def remove_bot(room_id: str, seat: SeatInPath, rooms: Rooms, lobby: Lobbying, auth: Auth):
    """Host only, before the start: free a seat that a bot holds."""
    host = await auth.seat_in(rooms, room_id)
    await lobby.remove_bot(room_id, host, seat)
    return answer({"removed": seat})


@router.put(
    "/api/rooms/{room_id}/seats/me/autopilot",
    response_model=AutopilotSet,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422),
)
async def set_autopilot(room_id: str, body: Autopilot, rooms: Rooms, lobby: Lobbying, auth: Auth):
    """Let a bot play your seat (``{"bot": "strong"}``) or play it yourself again (``null``)."""
    seat = await auth.seat_in(rooms, room_id)
    await lobby.set_autopilot(room_id, seat, seat, body.bot)
    return answer({"seat": seat, "bot": body.bot})


@router.put(
    "/api/rooms/{room_id}/seats/{seat}/autopilot",
    response_model=AutopilotSet,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422),
)
async def replace_by_bot(room_id: str, seat: SeatInPath, body: Autopilot, rooms: Rooms, lobby: Lobbying, auth: Auth):
    """Host only: let a bot play an absent player's seat (the player takes it back themselves)."""
    host = await auth.seat_in(rooms, room_id)
    await lobby.set_autopilot(room_id, host, seat, body.bot)
    return answer({"seat": seat, "bot": body.bot})


@router.post(
    "/api/rooms/{room_id}/seats/{seat}/reissue",
    response_model=Reissued,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422),
    dependencies=[NO_BODY],
)
async def reissue_link(room_id: str, seat: SeatInPath, rooms: Rooms, lobby: Lobbying, auth: Auth):
    """Host only: give the seat of an absent player (no socket or stream open) a new private
    link, when they lost theirs; the old token stops working at once. Answered to the host
    alone: pass the link on to the player."""
    host = await auth.seat_in(rooms, room_id)
    token = await lobby.reissue(room_id, host, seat)
    return answer({"seat": seat, "token": token, "url": f"/rooms/{room_id}/seat/{token}"})


@router.post(
    "/api/rooms/{room_id}/start",
    response_model=MoveReply,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422),
)
async def start_room(
    room_id: str, rooms: Rooms, lobby: Lobbying, payloads: Views, auth: Auth, body: StartRoom = NO_START_KEY
):
    """Host only, once every seat is taken; answers the host's payload (at version 0 for a resend).
    The body is optional (published as such, not as "an object or null")."""
    seat = await auth.seat_in(rooms, room_id)
    duplicate = await lobby.start(room_id, seat, body.idempotency_key)
    return await reply(rooms, payloads, room_id, seat, 0 if duplicate else None)


@router.get(
    "/api/rooms/{room_id}/view",
    response_model=Payload,
    tags=["play"],
    responses=answers(400, 401, 403, 404, 429) | NOT_MODIFIED,
    openapi_extra=TOKEN_OPTIONAL,
)
async def get_view(
    room_id: str,
    request: Request,
    rooms: Rooms,
    payloads: Views,
    auth: Auth,
    events: Following,
    caps: StreamCaps,
    after: After = None,
    wait: Wait = 0,
):
    """Your seat's view (a spectator's without a token), with the room's last ``change``.
    Long-poll with ``after`` (a ``change`` you hold) and ``wait``: answered at once if the view
    changed after it or the room is over, else when the view next changes (presence and chat
    alone do not answer it) or after ``wait`` seconds. With an ``ETag``: ``If-None-Match``
    naming it is answered 304 while unchanged."""
    await rooms.refresh(room_id)
    seat = await auth.viewer_in(rooms, room_id)  # (a seat's read: a sign of its player's life)
    follower = Follower(room_id, seat, auth.optional())
    return conditional(request, await poll(rooms, events, payloads, caps, follower, after, wait))


@router.get(
    "/api/rooms/{room_id}/legal-actions", response_model=LegalActions, tags=["play"], responses=answers(401, 403, 404)
)
async def get_legal_actions(room_id: str, rooms: Rooms, auth: Auth):
    """Your seat's legal actions now, labelled, with the room's ``version``: each one's
    ``action`` is what ``POST .../actions`` takes (none off your turn, or before the start)."""
    await rooms.refresh(room_id)
    seat = await auth.seat_in(rooms, room_id)
    return json_text(encode(legal_actions(*await rooms.game_state(room_id), seat)))


@router.post(
    "/api/rooms/{room_id}/actions",
    response_model=MoveReply,
    tags=["play"],
    responses=answers(400, 401, 403, 404, 409, 422),
)
async def submit_action(room_id: str, body: SubmitAction, rooms: Rooms, play: Playing, payloads: Views, auth: Auth):
    """Play a move: one of your seat's ``legal_actions`` (its ``action``), with the ``version``
    of the view you chose it from (409 with the room's ``version`` if the room has moved on) and
    optionally an ``idempotency_key``, so that a resend after a dropped answer lands once
    (``duplicate``). Answers your seat's new payload.
    \f
    (FastAPI publishes none of this paragraph.) Most moves are answered by
    ``app.api.moves.MoveFrontDoor``, before the framework, with this same handler."""
    return await reply_to_move(room_id, body, rooms, play, payloads, auth)


async def reply_to_move(
    room_id: str, body: SubmitAction, rooms: LiveGames, play: Play, payloads: Payloads, auth: Credentials
) -> Response:
    read_action((await rooms.room(room_id)).game, body.action)
    seat = await auth.seat_in(rooms, room_id)
    move = Move.read(body.action, body.version, body.idempotency_key)
    version, duplicate = await play.act(room_id, seat, move)
    return await reply(rooms, payloads, room_id, seat, version if duplicate else None)


async def reply(rooms: LiveGames, payloads: Payloads, room_id: str, seat: int, resent: int | None) -> Response:
    """A start's or a move's reply: the seat's payload (the same text its socket gets) with the
    room's last ``change`` (read before the payload is built, as GET /view does) and
    ``duplicate``. A resend (``resent``: the version its first result landed at) answers the
    payload at that version; it carries ``change`` only if that payload is still the room's
    own, since a later change's id on an older view would let a client resume past a view it
    never read."""
    ids = await rooms.changes(room_id)
    now = await payloads.text(room_id, seat)
    text = now if resent is None else await payloads.text_at(room_id, seat, resent)
    change = f',"change":{ids.last}' if text == now else ""
    return json_text(f'{text[:-1]}{change},"duplicate":{"true" if resent is not None else "false"}}}')


@router.get(
    "/api/rooms/{room_id}/log",
    response_model=Log,
    tags=["play"],
    responses=answers(400, 401, 403, 404) | NEXT_LINK,
    openapi_extra=TOKEN_OPTIONAL,
)
async def get_log(
    room_id: str, request: Request, rooms: Rooms, auth: Auth, limit: LogLimit = LOG_PAGE, cursor: Cursor = None
):
    """The log lines this seat (or a spectator) may read, oldest first, a page at a time: with
    more, a ``Link`` header to the next page."""
    start = whole_place("log", cursor) or 0
    await rooms.refresh(room_id)
    seat = await auth.viewer_in(rooms, room_id)
    lines = await rooms.log(room_id, seat)
    end = start + limit
    return answer(
        {"seat": seat, "log": lines[start:end]}, headers=next_link(request, "log", end if end < len(lines) else None)
    )


@router.get(
    "/api/rooms/{room_id}/chat", response_model=ChatAnswer, tags=["chat"], responses=answers(400, 404) | NEXT_LINK
)
async def get_chat(
    room_id: str, request: Request, rooms: Rooms, social: Chat, limit: ChatLimit = CHAT_PAGE, cursor: Cursor = None
):
    """The room's last lines, oldest first; with older ones, a ``Link`` header to the page of
    the lines before these."""
    before = whole_place("chat", cursor)
    await rooms.room(room_id)
    lines, older = await social.page(room_id, limit, before)
    return answer({"messages": lines}, headers=next_link(request, "chat", lines[0]["id"] if older else None))


@router.post(
    "/api/rooms/{room_id}/chat",
    response_model=ChatAnswer,
    status_code=201,
    tags=["chat"],
    responses=answers(400, 401, 403, 404, 422, 429) | with_headers(201, LOCATION | RATE_LIMIT),
)
async def post_chat(room_id: str, body: ChatLine, rooms: Rooms, social: Chat, auth: Auth, throttle: Limits):
    """Players only; at most 5 messages per 10 seconds (429 beyond)."""
    seat = await auth.seat_in(rooms, room_id)
    await social.post(room_id, seat, body.text)
    quota = await throttle.quota("chat", room_id, seat)
    return answer({"messages": await social.messages(room_id)}, 201, f"/api/rooms/{room_id}/chat", quota)


@router.post(
    "/api/rooms/{room_id}/again",
    response_model=NextSeat,
    tags=["rooms"],
    responses=answers(400, 401, 403, 404, 409, 422),
    dependencies=[NO_BODY],
)
async def play_again(room_id: str, rooms: Rooms, lobby: Lobbying, auth: Auth):
    """A player of a finished game plays again with the same game, options, seats, names and
    bots, and a new seed. The first to ask opens the next room as its host (the finished room's
    ``next_room`` names it); each player who asks gets their own seat there and its token, in
    this answer only. Seats whose players do not ask stay free for them for AGAIN_HOLD_SECONDS
    (``held_until``), then are open to the invite link."""
    seat = await auth.seat_in(rooms, room_id)
    token = auth.optional() or ""  # there is one: it holds the seat
    next_room, token, duplicate = await lobby.play_again(room_id, seat, token)
    return answer({"room": next_room, "seat": seat, "token": token, "duplicate": duplicate})


@router.get("/api/rooms/{room_id}/record", response_model=Record, tags=["play"], responses=answers(404, 409))
async def get_record(room_id: str, rooms: Rooms):
    """The replayable record of a game over, finished or abandoned (409 before): its seed,
    options, seats and every action, which ``troika-arena verify`` checks against the
    ``seed_hash`` published at the start."""
    record = await records.export(rooms.db, room_id)
    return JSONResponse(
        record,
        headers={"Content-Disposition": f'attachment; filename="troika-arena-{room_id}.json"'},
    )


@router.get("/api/rooms/{room_id}/replay", response_model=ReplayStep, tags=["play"], responses=answers(400, 404, 409))
async def get_replay_step(
    room_id: str,
    rooms: Rooms,
    replays: Replaying,
    step: Annotated[
        WholeNumber | None, Query(description="the version to show (default, or past the end: the end)")
    ] = None,
    seat: Annotated[WholeNumber | None, Query(description="whose view (default: a spectator's)")] = None,
):
    """A finished game at one version, as the replay page shows it (409 before the game ends):
    any seat's view may be asked for, since the game is over."""
    if seat is not None:  # (a seat the room lacks is 404, before the game's state: 409 until its end)
        require_seat((await rooms.room(room_id)).num_seats, seat)
    replay = await replays.of_room(room_id)
    shown = replay.step(replay.last if step is None else step)
    log, earlier = shown.log(seat)
    payload = shown.payload(seat)
    answered = {"room": room_id, "step": payload["version"], "last": replay.last, "seat": seat, "payload": payload}
    return answer({**answered, "log": log, "new_lines_from": earlier})
