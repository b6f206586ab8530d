"""Change ids: every change of a room is numbered, one sequence per room, so that a client
whose stream dropped resumes after the last change it holds and misses none.

Each write that changes a room's facts or game (``app.rooms.storage``: a move, the start, a
seat taken, freed, handed to a bot or given a new link, the game's end, the room played again
or closed) moves its ``change_id`` on by one and makes the new id its ``view_change_id``; a
change of presence makes it its ``presence_change_id``, a chat line its ``chat_change_id`` and
the line's own. The ids live in the room's row and move on in the transaction of the change
they number, so every server instance numbers a room's changes in the same one sequence; a
reader learns from the row (:class:`Changes`, one small query) what changed after the id it
holds: its view, its presence, which chat lines (``app.api.events``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, NamedTuple

from sqlalchemy import bindparam, update
from sqlalchemy import select as core_select
from sqlmodel import SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession

from app.db.models import Room
from app.rooms.model import aware

ROOMS = SQLModel.metadata.tables["rooms"]
# the values that number a change of the room's view, for an UPDATE of its row (both right-hand
# sides read the row as it was: the new id is the old one plus one)
VIEW_CHANGED = {"change_id": ROOMS.c.change_id + 1, "view_change_id": ROOMS.c.change_id + 1}
SOCIAL_COLUMN = {"presence": "presence_change_id", "chat": "chat_change_id"}


class Changes(NamedTuple):
    """A room's change ids: of its last change, and of the last that changed its view, its
    presence, its chat (0: none yet)."""

    last: int
    view: int
    presence: int
    chat: int


COLUMNS = ("change_id", "view_change_id", "presence_change_id", "chat_change_id")  # Changes' fields in the row


STAMP_AND_IDS: Any = core_select(  # six columns: untyped
    *(ROOMS.c[name] for name in ("version", "updated_at", *COLUMNS))
).where(ROOMS.c.id == bindparam("room"))


async def read(session: AsyncSession, room_id: str) -> tuple[tuple[int, datetime | None], Changes] | None:
    """The room's stamp (version, last change of its facts: ``app.rooms.live_games`` tells a
    stale copy by it) and change ids, or None for no room."""
    row = (await session.exec(STAMP_AND_IDS, params={"room": room_id})).first()
    if row is None:
        return None
    return (row[0], aware(row[1])), Changes(*row[2:])


async def number(session: AsyncSession, room_id: str, kind: Literal["presence", "chat"]) -> int:
    """Number a change of the room's presence or chat in the caller's transaction: its id
    (0 if there is no such room)."""
    column = SOCIAL_COLUMN[kind]
    await session.exec(
        update(ROOMS)
        .where(ROOMS.c.id == room_id)
        .values({"change_id": ROOMS.c.change_id + 1, column: ROOMS.c.change_id + 1})
    )
    found = (await session.exec(select(Room.change_id).where(Room.id == room_id))).first()
    return found or 0
