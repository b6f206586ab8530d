"""The coaching calls: a hint on a seat's turn in a room created with hints, and, after the
game, a review of a seat's moves. Thin: the rules are ``app.rooms.hints``'s and
``app.rooms.reviews``'s; a seat token is the seat's, as for a move.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.answers import Hint, Review
from app.api.contract import operation_id
from app.api.deps import NO_BODY, Auth, Hinting, Limits, Reviewing, Rooms
from app.api.errors import answers
from app.api.quotas import RATE_LIMIT, with_headers
from app.api.routes import answer
from app.api.streams import WholeNumber

router = APIRouter(generate_unique_id_function=operation_id)  # (the app adds its routes as they are)


@router.get(
    "/api/rooms/{room_id}/hint",
    response_model=Hint,
    tags=["play"],
    responses=answers(401, 403, 404, 409, 429) | with_headers(200, RATE_LIMIT),
)
async def get_hint(room_id: str, rooms: Rooms, hints: Hinting, auth: Auth, throttle: Limits):
    """Your seat's suggested move now, from the strong bot at a small budget, with a one-line
    reason; only in a room created with ``hints`` (else 409 ``hints_off``), only on your turn in
    a game in play (else 409). The same answer until the game moves on; at most 6 new hints a
    minute per seat (429)."""
    await rooms.refresh(room_id)
    seat = await auth.seat_in(rooms, room_id)
    hint = await hints.hint(room_id, seat)
    return answer(hint, headers=await throttle.quota("hints", room_id, seat))


@router.post(
    "/api/rooms/{room_id}/review",
    response_model=Review,
    status_code=202,
    tags=["play"],
    responses=answers(400, 401, 403, 404, 409, 422) | {200: {"model": Review, "description": "asked for before"}},
    dependencies=[NO_BODY],
)
async def ask_for_review(room_id: str, rooms: Rooms, reviews: Reviewing, auth: Auth):
    """Once the game is over, ask for the review of your seat's moves: 202 when this queues it,
    200 with its status when it was asked for before (a failed one is queued again). Follow it
    with ``GET .../review?seat=N``."""
    seat = await auth.seat_in(rooms, room_id)
    review, queued = await reviews.ask(room_id, seat)
    return answer(review, 202 if queued else 200)


@router.get("/api/rooms/{room_id}/review", response_model=Review, tags=["play"], responses=answers(400, 404, 409))
async def get_review(
    room_id: str,
    reviews: Reviewing,
    seat: Annotated[WholeNumber, Query(description="whose review")],
):
    """A seat's review as it stands: anyone may read it, since the game is over (409 before)."""
    info = await reviews.ended(room_id, seat)
    return answer(await reviews.answer(info, seat))
