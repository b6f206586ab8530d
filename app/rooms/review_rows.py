"""The reviews' SQL (``app.rooms.reviews``): one row per room and seat, from the request to the
finished review.

A row is added ``queued`` once; a worker claims it (``running``) with a conditional update, so
only one worker of one instance makes it, and each decision assessed moves ``done`` and
``updated_at`` on. A worker that stops mid-review puts its row back in the queue; a row left
``running`` without progress for a while (its instance was killed) may be claimed again.
Nothing here decides who may ask: callers check, this reads and writes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select

from app.db.database import Database
from app.db.models import Review, utcnow
from app.rooms.model import aware

WAITING = ("queued", "running")


async def find(db: Database, room_id: str, seat: int) -> Review | None:
    async with db.read() as session:
        row = await session.get(Review, (room_id, seat))
    if row is not None:
        row.updated_at = aware(row.updated_at)
    return row


async def add(db: Database, room_id: str, seat: int) -> bool:
    """A new queued review, committed; False if the seat's review was asked for before."""
    async with db.write() as session:
        session.add(Review(room_id=room_id, seat=seat))
        try:
            await session.commit()
        except IntegrityError:
            await session.rollback()
            return False
    return True


async def change(db: Database, room_id: str, seat: int, *where: Any, **values: Any) -> bool:
    """Set ``values`` on the seat's row if it matches ``where``, committed; whether it did."""
    async with db.write() as session:
        result = await session.exec(
            update(Review)
            .where(col(Review.room_id) == room_id, col(Review.seat) == seat, *where)
            .values(updated_at=utcnow(), **values)
        )
        await session.commit()
    return result.rowcount == 1


async def requeue_failed(db: Database, room_id: str, seat: int) -> bool:
    """A failed review asked for again: queued afresh."""
    return await change(db, room_id, seat, col(Review.status) == "failed", status="queued", done=0, total=0)


async def release(db: Database, room_id: str, seat: int) -> bool:
    """A running review its worker stopped making: queued afresh, for any worker to claim now."""
    return await change(db, room_id, seat, col(Review.status) == "running", status="queued", done=0, total=0)


def claimable(stale_before: datetime) -> Any:
    return or_(
        col(Review.status) == "queued",
        (col(Review.status) == "running") & (col(Review.updated_at) < stale_before),
    )


async def claim(db: Database, room_id: str, seat: int, stale_before: datetime) -> bool:
    """Mark the review running for this worker, if it is queued or its worker went quiet."""
    return await change(db, room_id, seat, claimable(stale_before), status="running", done=0)


async def progress(db: Database, room_id: str, seat: int, done: int, total: int) -> None:
    await change(db, room_id, seat, done=done, total=total)


async def finish(db: Database, room_id: str, seat: int, status: str, moves: list[dict[str, Any]]) -> None:
    await change(db, room_id, seat, status=status, moves=moves)


async def resumable(db: Database, stale_before: datetime) -> list[tuple[str, int]]:
    """Reviews waiting for a worker: queued, or running with no progress since ``stale_before``."""
    async with db.read() as session:
        rows = await session.exec(select(Review.room_id, Review.seat).where(claimable(stale_before)))
        return [(room_id, seat) for room_id, seat in rows.all()]
