"""The tables. A room is event-sourced: its seed and options plus the append-only action log
(unique on room and sequence number) rebuild its game state exactly; ``rooms.version`` is the
number of actions applied, and the unique key is the guard that lets only one submission land
for a given sequence number, on one server instance or several.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


class Room(SQLModel, table=True):
    __tablename__ = "rooms"

    id: str = Field(primary_key=True, max_length=16)
    game: str = Field(max_length=32, index=True)
    options: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seed: str = Field(max_length=64)
    seed_hash: str = Field(max_length=64)
    num_seats: int
    host_seat: int = 0
    status: str = Field(default="open", max_length=16, index=True)
    version: int = 0
    turn_seconds: int | None = None
    turn_started_at: datetime | None = None
    start_key: str | None = Field(default=None, max_length=64)  # the idempotency key of the start
    listed: bool = True  # shown in the lobby; an unlisted room is found only through its link
    hints: bool = False  # its seats may ask the strong bot for a move (app.rooms.hints); set at creation only
    next_room: str | None = Field(default=None, max_length=16)  # where its players played again
    held_until: datetime | None = None  # a room played again: its free seats wait for their players until then
    closed_reason: str | None = Field(default=None, max_length=16)  # closed or abandoned: left, host or idle
    # change ids (app.rooms.changes): the room's last change of any kind, and the last that
    # changed its view (a move, the start, a seat...), its presence, its chat
    change_id: int = 0
    view_change_id: int = 0
    presence_change_id: int = 0
    chat_change_id: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class Seat(SQLModel, table=True):
    __tablename__ = "seats"

    room_id: str = Field(foreign_key="rooms.id", primary_key=True, max_length=16)
    seat: int = Field(primary_key=True)
    name: str = Field(max_length=64)
    token_hash: str = Field(max_length=64, index=True)
    retired_token_hash: str | None = Field(default=None, max_length=64)  # the token a reissue replaced
    join_key_hash: str | None = Field(default=None, max_length=64)  # the hash of its join's idempotency key
    bot: str | None = Field(default=None, max_length=16)
    bot_until_back: bool = False  # the turn timer's stand-in: it plays until the player is back
    joined_at: datetime = Field(default_factory=utcnow)


class ActionRecord(SQLModel, table=True):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("room_id", "seq", name="uq_actions_room_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    room_id: str = Field(foreign_key="rooms.id", max_length=16, index=True)
    seq: int
    seat: int
    action: dict = Field(sa_column=Column(JSON, nullable=False))
    idempotency_key: str | None = Field(default=None, max_length=64)
    from_version: int | None = None  # the version the move was chosen from (None: logged before 0005)
    by_bot: bool | None = None  # a bot chose it (its own seat, a stand-in, an autopilot); None: logged before 0014
    at: datetime = Field(default_factory=utcnow)


class ChatMessage(SQLModel, table=True):
    """A line of a room's chat, kept with the room (text is stored raw and escaped on output)."""

    __tablename__ = "chat_messages"

    id: int | None = Field(default=None, primary_key=True)
    room_id: str = Field(foreign_key="rooms.id", max_length=16, index=True)
    seat: int
    name: str = Field(max_length=64)
    text: str = Field(max_length=500)
    change_id: int = 0  # the room's change that posted it (app.rooms.changes)
    at: datetime = Field(default_factory=utcnow)


class Presence(SQLModel, table=True):
    """Open sockets per seat and server instance; rows not refreshed for a while are stale
    (their instance stopped), so a crash never leaves a seat shown as connected."""

    __tablename__ = "presence"

    room_id: str = Field(primary_key=True, max_length=16)
    seat: int = Field(primary_key=True)
    instance: str = Field(primary_key=True, max_length=16)
    sockets: int = 0
    seen_at: datetime = Field(default_factory=utcnow)


class Review(SQLModel, table=True):
    """A finished game's review of one seat's moves (app.rooms.reviews): asked for once, made
    in the background, kept. ``done`` of ``total`` decisions are assessed so far; ``moves``
    holds, once ready, the marked moves with the move preferred and its gain."""

    __tablename__ = "reviews"

    room_id: str = Field(foreign_key="rooms.id", primary_key=True, max_length=16)
    seat: int = Field(primary_key=True)
    status: str = Field(default="queued", max_length=16)  # queued, running, ready or failed
    done: int = 0
    total: int = 0
    moves: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    requested_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)  # a running review's last progress
