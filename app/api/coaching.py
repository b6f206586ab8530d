"""The coaching calls: a hint on a seat's turn in a room created with hints, and, after the
game, a review of a seat's moves. Thin: the rules are ``app.rooms.hints``'s and
``app.rooms.reviews``'s; a seat token is the seat's, as for a move.
"""

from __future__ import annotations

from fastapi import APIRouter

from app.api.answers import Hint
from app.api.deps import Auth, Hinting, Rooms
from app.api.errors import answers
from app.api.routes import answer

router = APIRouter()


@router.get("/api/rooms/{room_id}/hint", response_model=Hint, tags=["play"], responses=answers(401, 403, 404, 409, 429))
async def get_hint(room_id: str, rooms: Rooms, hints: Hinting, auth: Auth):
    """Your seat's suggested move now, from the strong bot at a small budget, with a one-line
    reason; only in a room created with ``hints`` (else 409 ``hints_off``), only on your turn in
    a game in play (else 409). The same answer until the game moves on; at most 6 new hints a
    minute per seat (429)."""
    await rooms.refresh(room_id)
    seat = await auth.seat_in(rooms, room_id)
    return answer(await hints.hint(room_id, seat))
