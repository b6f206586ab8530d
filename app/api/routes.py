"""JSON routes. Seat-specific calls take the seat's token as ``Authorization: Bearer <token>``;
reading a room's public (spectator) view needs no token. Errors are JSON
``{"error", "message", ...}`` with 400/401/403/404/409/422 as documented in the README.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from app.games.registry import GAMES
from app.rooms.errors import Unauthorized
from app.rooms.service import RoomService
from app.rooms.views import Payloads, encode, legal_actions

router = APIRouter()


class StrictBody(BaseModel):
    """A JSON body read strictly: a whole number is a JSON integer, never "0", true or 0.0
    (a malformed body is answered 422, field by field)."""

    model_config = ConfigDict(strict=True)


class CreateRoom(StrictBody):
    game: str = Field(description="game slug, see GET /api/games")
    seats: int = Field(description="number of seats, within the game's range")
    name: str = Field(description="the host's display name; the host takes seat 0")
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    turn_timer: int = Field(
        default=0,
        description="seconds per turn (0 = off, or 30, 60, 120, 300); a seat whose time runs out "
        "is played by a bot until its player takes it back",
    )


class JoinRoom(StrictBody):
    name: str | None = Field(default=None, description="your display name (to take a seat yourself)")
    bot: Literal["random", "strong"] | None = Field(
        default=None, description="host only: seat a bot of this level instead"
    )
    seat: int | None = Field(default=None, description="with bot: which free seat (default: lowest)")
    idempotency_key: str | None = Field(
        default=None,
        description="optional, with name: 16 to 64 characters nobody can guess (a UUID, say); a resend "
        "with the same key and name answers the same seat and token",
    )


class StartRoom(StrictBody):
    idempotency_key: str | None = Field(
        default=None, description="optional: a resend with the same key answers as the first start did"
    )


class ChatLine(StrictBody):
    text: str = Field(description="1 to 300 characters")


class Autopilot(StrictBody):
    bot: Literal["random", "strong"] | None = Field(
        description="a bot level to play your seat for you, or null to play it yourself again"
    )


class SubmitAction(StrictBody):
    version: int = Field(description="the version of the view this action was chosen from")
    action: dict[str, Any] = Field(description="one of the objects listed by legal-actions")
    idempotency_key: str | None = Field(
        default=None, description="optional: a resend with the same key is applied once"
    )


def json_text(text: str) -> Response:
    """JSON encoded already (``app.rooms.views``): FastAPI would otherwise walk a view through
    ``jsonable_encoder``, which cost four times as much as building it."""
    return Response(text, media_type="application/json")


def payloads(request: Request) -> Payloads:
    return request.app.state.payloads


def rooms(request: Request) -> RoomService:
    return request.app.state.rooms


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("use 'Authorization: Bearer <seat token>'")
    return token.strip()


async def optional_seat(service: RoomService, room_id: str, authorization: str | None):
    token = bearer(authorization)
    return None if token is None else await service.seat_of(room_id, token)


@router.get("/healthz", tags=["meta"])
async def healthz(request: Request):
    await rooms(request).list_rooms(limit=1)
    return {"status": "ok"}


@router.get("/api/games", tags=["games"])
async def list_games():
    return [
        {
            "slug": g.slug,
            "title": g.title,
            "min_players": g.min_players,
            "max_players": g.max_players,
            "options": [o.to_json() for o in g.options],
            "rules": f"/rules/{g.slug}",
        }
        for g in GAMES.values()
    ]


@router.post("/api/rooms", status_code=201, tags=["rooms"])
async def create_room(body: CreateRoom, request: Request):
    """At most 10 rooms a minute and 100 an hour per client address (ROOM_CREATION_LIMIT)."""
    await request.app.state.throttle.creating_room(request.client and request.client.host)
    info, token = await rooms(request).create(
        body.game, body.seats, body.options, body.name, body.turn_timer
    )
    return {"room": info.public(), "seat": 0, "token": token}


@router.get("/api/rooms", tags=["rooms"])
async def list_rooms(
    request: Request,
    status: Literal["open", "playing", "finished", "closed"] | None = Query(default=None),
):
    return [info.public() for info in await rooms(request).list_rooms(status)]


@router.get("/api/rooms/{room_id}", tags=["rooms"])
async def get_room(room_id: str, request: Request):
    await rooms(request).refresh(room_id)
    return (await rooms(request).room(room_id)).public()


@router.post("/api/rooms/{room_id}/seats", status_code=201, tags=["rooms"])
async def join_room(
    room_id: str, body: JoinRoom, request: Request, authorization: str | None = Header(None)
):
    """Take a free seat with a name, or (host token) seat a bot: ``{"bot": "strong"}``."""
    service = rooms(request)
    if body.bot is not None:
        host = await service.seat_of(room_id, bearer(authorization))
        seat = await service.add_bot(room_id, host, body.bot, body.seat)
        return {"seat": seat, "bot": body.bot}
    seat, token, duplicate = await service.join(room_id, body.name, body.idempotency_key)
    return {"seat": seat, "token": token, "duplicate": duplicate}


@router.delete("/api/rooms/{room_id}/seats/me", tags=["rooms"])
async def leave_room(room_id: str, request: Request, authorization: str | None = Header(None)):
    service = rooms(request)
    seat = await service.seat_of(room_id, bearer(authorization))
    await service.leave(room_id, seat)
    return {"left": seat}


@router.delete("/api/rooms/{room_id}/seats/{seat}", tags=["rooms"])
async def remove_bot(
    room_id: str, seat: int, request: Request, authorization: str | None = Header(None)
):
    """Host only, before the start: free a seat that a bot holds."""
    service = rooms(request)
    host = await service.seat_of(room_id, bearer(authorization))
    await service.remove_bot(room_id, host, seat)
    return {"removed": seat}


@router.put("/api/rooms/{room_id}/seats/me/autopilot", tags=["rooms"])
async def set_autopilot(
    room_id: str, body: Autopilot, request: Request, authorization: str | None = Header(None)
):
    """Let a bot play your seat (``{"bot": "strong"}``) or play it yourself again (``null``)."""
    service = rooms(request)
    seat = await service.seat_of(room_id, bearer(authorization))
    await service.set_autopilot(room_id, seat, seat, body.bot)
    return {"seat": seat, "bot": body.bot}


@router.put("/api/rooms/{room_id}/seats/{seat}/autopilot", tags=["rooms"])
async def replace_by_bot(
    room_id: str, seat: int, body: Autopilot, request: Request, authorization: str | None = Header(None)
):
    """Host only: let a bot play an absent player's seat (the player takes it back themselves)."""
    service = rooms(request)
    host = await service.seat_of(room_id, bearer(authorization))
    await service.set_autopilot(room_id, host, seat, body.bot)
    return {"seat": seat, "bot": body.bot}


@router.post("/api/rooms/{room_id}/start", tags=["rooms"])
async def start_room(
    room_id: str, request: Request, body: StartRoom | None = None, authorization: str | None = Header(None)
):
    """Host only, once every seat is taken; answers the host's payload (at version 0 for a resend)."""
    service = rooms(request)
    seat = await service.seat_of(room_id, bearer(authorization))
    duplicate = await service.start(room_id, seat, body and body.idempotency_key)
    text = await (payloads(request).text_at(room_id, seat, 0) if duplicate else payloads(request).text(room_id, seat))
    return with_duplicate(text, duplicate)


@router.get("/api/rooms/{room_id}/view", tags=["play"])
async def get_view(room_id: str, request: Request, authorization: str | None = Header(None)):
    service = rooms(request)
    await service.refresh(room_id)
    seat = await optional_seat(service, room_id, authorization)
    return json_text(await payloads(request).text(room_id, seat))


@router.get("/api/rooms/{room_id}/legal-actions", tags=["play"])
async def get_legal_actions(
    room_id: str, request: Request, authorization: str | None = Header(None)
):
    service = rooms(request)
    await service.refresh(room_id)
    seat = await service.seat_of(room_id, bearer(authorization))
    return json_text(encode(legal_actions(*await service.game_state(room_id), seat)))


@router.post("/api/rooms/{room_id}/actions", tags=["play"])
async def submit_action(
    room_id: str, body: SubmitAction, request: Request, authorization: str | None = Header(None)
):
    """Most calls are answered by ``app.api.moves.MoveFrontDoor`` with the same handler."""
    return await reply_to_move(request, room_id, body, authorization)


async def reply_to_move(request: Request, room_id: str, body: SubmitAction, authorization: str | None) -> Response:
    service = rooms(request)
    seat = await service.seat_of(room_id, bearer(authorization))
    version, duplicate = await service.act(
        room_id, seat, body.action, body.version, body.idempotency_key
    )
    if duplicate:  # the first result: the payload at the version the move landed at
        text = await payloads(request).text_at(room_id, seat, version)
    else:
        text = await payloads(request).text(room_id, seat)  # the same text the seat's socket gets
    return with_duplicate(text, duplicate)


def with_duplicate(text: str, duplicate: bool) -> Response:
    """A payload's JSON text with ``"duplicate"`` added: whether this answers a resend."""
    return json_text(f'{text[:-1]},"duplicate":{"true" if duplicate else "false"}}}')


@router.get("/api/rooms/{room_id}/log", tags=["play"])
async def get_log(room_id: str, request: Request, authorization: str | None = Header(None)):
    service = rooms(request)
    await service.refresh(room_id)
    seat = await optional_seat(service, room_id, authorization)
    return {"seat": seat, "log": await service.log(room_id, seat)}


@router.get("/api/rooms/{room_id}/chat", tags=["chat"])
async def get_chat(room_id: str, request: Request):
    await rooms(request).room(room_id)
    return {"messages": await request.app.state.social.messages(room_id)}


@router.post("/api/rooms/{room_id}/chat", status_code=201, tags=["chat"])
async def post_chat(
    room_id: str, body: ChatLine, request: Request, authorization: str | None = Header(None)
):
    """Players only; at most 5 messages per 10 seconds (429 beyond)."""
    seat = await rooms(request).seat_of(room_id, bearer(authorization))
    await request.app.state.social.post(room_id, seat, body.text)
    return {"messages": await request.app.state.social.messages(room_id)}


@router.get("/api/rooms/{room_id}/record", tags=["play"])
async def get_record(room_id: str, request: Request):
    record = await rooms(request).record(room_id)
    return JSONResponse(
        record,
        headers={"Content-Disposition": f'attachment; filename="troika-arena-{room_id}.json"'},
    )
