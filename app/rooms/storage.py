"""The room core's SQL: rooms, seats and the action log as rows, and the row-to-fact mapping.

Every query the room core makes is here, taking the session the caller opened (so a command's
reads and writes share one transaction): loading a room's facts (``RoomInfo``), reading the
action log, the facts that decide whether a player is absent, and the lobby's small writes. A
move's two writes (append the action, move the room's version on) are statements built once:
on SQLite run together in one call by ``Database.write_all``, on Postgres as one statement in
autocommit (``Database.write_statement``: one round trip, where BEGIN, two writes and COMMIT
were four). Nothing here decides a rule: callers check, this reads and writes.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Insert, Update, and_, bindparam, create_engine, delete, exists, func, insert, or_, update
from sqlalchemy import select as core_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from app.db.database import Database
from app.db.models import ActionRecord, Room, Seat, utcnow
from app.games.registry import GAMES
from app.rooms.changes import VIEW_CHANGED
from app.rooms.errors import Conflict, NotFound
from app.rooms.model import IN_PLAY, RoomInfo, aware, hold_running
from app.rooms.social import last_present

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")  # what ``secrets.token_urlsafe`` makes, as stored
BOT_TOKEN_HASH = "bot"  # no token hashes to this: a bot's seat cannot be claimed by a token

# The two writes of a move, built once (building statements per move cost more than the ORM
# saved): move the room's version on from the one the move was made on, then append the action.
# A move sent with an idempotency key moves the room on only if the seat has not used the key
# before: its first sending is then the only one written, and no read is needed to find out (a
# refused move, and only that, looks the key up: ``app.rooms.play``).
ACTIONS, ROOMS = SQLModel.metadata.tables["actions"], SQLModel.metadata.tables["rooms"]
APPEND_ACTION = insert(ACTIONS)
KEY_UNUSED = ~exists().where(
    ACTIONS.c.room_id == bindparam("room"),
    ACTIONS.c.seat == bindparam("seat"),
    ACTIONS.c.idempotency_key == bindparam("idempotency_key"),
)


def bump_version(keyed: bool) -> Update:
    statement = update(ROOMS).where(
        ROOMS.c.id == bindparam("room"),
        ROOMS.c.version == bindparam("seen"),
        ROOMS.c.status == "playing",  # not a game closed meanwhile (through another instance)
    )
    return (statement.where(KEY_UNUSED) if keyed else statement).values(
        version=bindparam("version"),
        status=bindparam("status"),
        updated_at=bindparam("now"),
        turn_started_at=bindparam("now"),
        **VIEW_CHANGED,
    )


def move_at_once(bump: Update) -> Insert:
    """On Postgres both writes in one statement, run in autocommit: one round trip instead of
    four (BEGIN, the two writes, COMMIT). The action is appended only if the version moved on."""
    bumped = bump.returning(ROOMS.c.id).cte("bumped")
    return (
        insert(ACTIONS)
        .from_select(
            ["room_id", "seat", "seq", "action", "idempotency_key", "from_version", "by_bot", "at"],
            core_select(
                bumped.c.id,
                *(bindparam(name, type_=ACTIONS.c[name].type) for name in ("seat", "seq", "action", "idempotency_key")),
                bindparam("from_version", type_=ACTIONS.c.from_version.type),
                bindparam("by_bot", type_=ACTIONS.c.by_bot.type),
                bindparam("now", type_=ACTIONS.c.at.type),
            ),
        )
        .returning(ACTIONS.c.seq)
    )


BUMP_VERSION = {keyed: bump_version(keyed) for keyed in (False, True)}
MOVE_AT_ONCE = {keyed: move_at_once(BUMP_VERSION[keyed]) for keyed in (False, True)}


def known_id(room_id: Any) -> str:
    """``room_id`` if it could name a room; anything else (odd characters, too long, a NUL that
    Postgres would refuse) is no room, answered 404 without asking the database."""
    if not isinstance(room_id, str) or not ROOM_ID.fullmatch(room_id):
        raise NotFound("no such room")
    return room_id


async def load_room(session: AsyncSession, room_id: str) -> RoomInfo:
    """The room's facts as the database holds them now (404 for no room, or a game no longer
    registered)."""
    row = await session.get(Room, known_id(room_id))
    if row is None or row.game not in GAMES:
        raise NotFound("no such room")
    seats = (await session.exec(select(Seat).where(Seat.room_id == room_id))).all()
    return RoomInfo(
        id=row.id,
        game=row.game,
        title=GAMES[row.game].title,
        options=row.options,
        num_seats=row.num_seats,
        host_seat=row.host_seat,
        status=row.status,
        version=row.version,
        seed_hash=row.seed_hash,
        seats={s.seat: s.name for s in seats},
        bots={s.seat: s.bot for s in seats if s.bot},
        stand_ins={s.seat for s in seats if s.bot and s.bot_until_back},
        humans={s.seat for s in seats if s.token_hash != BOT_TOKEN_HASH},
        token_hashes={s.token_hash: s.seat for s in seats if s.token_hash != BOT_TOKEN_HASH},
        seed=row.seed,
        turn_seconds=row.turn_seconds,
        listed=row.listed,
        hints=row.hints,
        next_room=row.next_room,
        held_until=aware(row.held_until),
        waiting_for=await last_players(session, room_id) if hold_running(row.held_until) else {},
        closed_reason=row.closed_reason,
        turn_started_at=aware(row.turn_started_at),
        updated_at=aware(row.updated_at),
    )


async def last_players(session: AsyncSession, room_id: str) -> dict[int, str]:
    """The seats and names of the people who played the game before a room played again (the
    room linked to it by ``next_room``)."""
    rows = await session.exec(
        select(Seat.seat, Seat.name)
        .join(Room, col(Room.id) == col(Seat.room_id))
        .where(col(Room.next_room) == room_id, col(Seat.token_hash) != BOT_TOKEN_HASH)
    )
    return dict(rows.all())


async def stamp(session: AsyncSession, room_id: str) -> tuple[int, datetime | None] | None:
    """The room's (version, last change), or None for no room: enough to tell a stale copy."""
    row = (await session.exec(select(Room.version, Room.updated_at).where(Room.id == room_id))).first()
    return None if row is None else (row[0], aware(row[1]))


RoomKey = tuple[datetime, str]  # a room's place in the listing: (created_at, id), the newest first


async def room_ids(
    session: AsyncSession, status: str | None, limit: int | None, listed_only: bool = False
) -> list[str]:
    """Room ids, the newest first, of one status or all (only the listed rooms if asked)."""
    return [room_id for _, room_id in await room_keys(session, status, limit, listed_only)]


async def room_keys(
    session: AsyncSession, status: str | None, limit: int | None, listed_only: bool, after: RoomKey | None = None
) -> list[RoomKey]:
    """:func:`room_ids` with each room's place, from the one after ``after`` on."""
    query = select(Room.created_at, Room.id).order_by(col(Room.created_at).desc(), col(Room.id).desc()).limit(limit)
    if status:
        query = query.where(Room.status == status)
    if listed_only:
        query = query.where(col(Room.listed).is_(True))
    if after is not None:
        made, room_id = after
        query = query.where(
            or_(col(Room.created_at) < made, and_(col(Room.created_at) == made, col(Room.id) < room_id))
        )
    return [(aware(made), room_id) for made, room_id in (await session.exec(query)).all()]


async def actions(
    session: AsyncSession, room_id: str, after: int = 0, upto: int | None = None
) -> Sequence[ActionRecord]:
    """The logged actions with ``after`` < seq (<= ``upto``), in order."""
    query = select(ActionRecord).where(ActionRecord.room_id == room_id, ActionRecord.seq > after)
    if upto is not None:
        query = query.where(ActionRecord.seq <= upto)
    return (await session.exec(query.order_by(col(ActionRecord.seq)))).all()


async def keyed_move(session: AsyncSession, room_id: str, seat: int, key: str) -> ActionRecord | None:
    """The seat's move logged with this idempotency key, if any."""
    query = select(ActionRecord).where(
        ActionRecord.room_id == room_id, ActionRecord.seat == seat, ActionRecord.idempotency_key == key
    )
    return (await session.exec(query)).first()


async def write_move(
    db: Database,
    room_id: str,
    seat: int,
    action: Any,
    seen: int,
    status: str,
    from_version: int,
    idempotency_key: str | None,
    now: datetime,
    by_bot: bool = False,
) -> bool:
    """Append the move after version ``seen`` (``by_bot``: a bot chose it) and move the room
    on, in one round trip; False if another move landed first (this sequence number taken, or
    the room's version moved) or the seat used ``idempotency_key`` before."""
    seq = seen + 1
    record = {
        "room_id": room_id,
        "seat": seat,
        "seq": seq,
        "action": action,
        "idempotency_key": idempotency_key,
        "from_version": from_version,
        "by_bot": by_bot,
        "at": now,
    }
    bump = {"room": room_id, "seen": seen, "version": seq, "status": status, "now": now}
    keyed = idempotency_key is not None
    try:
        if db.postgres:
            written = {
                key: record[key] for key in ("seat", "seq", "action", "idempotency_key", "from_version", "by_bot")
            }
            return await db.write_statement(MOVE_AT_ONCE[keyed], {**bump, **written}) == 1
        if keyed:
            bump |= {"seat": seat, "idempotency_key": idempotency_key}
        return await db.write_all([(BUMP_VERSION[keyed], bump), (APPEND_ACTION, record)])
    except IntegrityError:  # another instance landed this sequence number first
        return False


async def current_version(db: Database, room_id: str) -> int:
    async with db.read() as session:
        return (await session.exec(select(func.max(Room.version)).where(Room.id == room_id))).one() or 0


async def rooms_in_play(db: Database) -> list[str]:
    async with db.read() as session:
        return list((await session.exec(select(Room.id).where(Room.status == "playing"))).all())


async def census(db: Database) -> list[tuple[str, str, int]]:
    """How many rooms are stored, by status and game: (status, game, count) rows."""
    async with db.read() as session:
        query = select(Room.status, Room.game, func.count()).group_by(Room.status, Room.game)
        return [(status, game, count) for status, game, count in (await session.exec(query)).all()]


async def last_seen(session: AsyncSession, room_id: str, seat: int, joining: bool = True) -> datetime | None:
    """The seat player's last sign of life: their last move (not one a bot chose for the seat:
    a stand-in's moves made an absent player look present), their last socket or read of their
    view and, if ``joining``, their join; None if there is none."""
    with_join, without = await last_seen_both(session, room_id, seat)
    return with_join if joining else without


async def last_seen_both(session: AsyncSession, room_id: str, seat: int) -> tuple[datetime | None, datetime | None]:
    """:func:`last_seen` with the join counted, and without it, read once."""
    joined = (await session.exec(select(Seat.joined_at).where(Seat.room_id == room_id, Seat.seat == seat))).one()
    own_moves = (ActionRecord.room_id == room_id, ActionRecord.seat == seat, col(ActionRecord.by_bot).is_not(True))
    moved = (await session.exec(select(func.max(ActionRecord.at)).where(*own_moves))).one()
    present = await last_present(session, room_id, seat)
    without = latest(moved, present)
    return latest(joined, without), without


def latest(*moments: datetime | None) -> datetime | None:
    """The latest of the moments given (as timezone-aware), None if none is given."""
    return max((aware(moment) for moment in moments if moment is not None), default=None)


# ---- the lobby's writes ------------------------------------------------------------------------


async def add_room(session: AsyncSession, host_name: str, host_token_hash: str, **room: Any) -> None:
    """A new room (its columns as ``room``) with its host in seat 0, to commit."""
    session.add(Room(**room))
    await session.flush()
    session.add(Seat(room_id=room["id"], seat=0, name=host_name, token_hash=host_token_hash))


async def add_seat(
    session: AsyncSession,
    room_id: str,
    seat: int,
    name: str,
    token_hash: str = BOT_TOKEN_HASH,
    bot: str | None = None,
    join_key_hash: str | None = None,
) -> None:
    """Commit a newly taken seat; a concurrent taker of the same seat (through another instance)
    makes this a 409, whether its row meets this one at the flush or at the commit."""
    session.add(
        Seat(room_id=room_id, seat=seat, name=name, token_hash=token_hash, bot=bot, join_key_hash=join_key_hash)
    )
    try:
        await touch(session, room_id)
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise Conflict("that seat was just taken; try again") from None


async def free_seat(session: AsyncSession, room_id: str, seat: int, **room_values: Any) -> None:
    """Free a person's seat and change the room (a new host, or closed) in one commit."""
    await session.exec(delete(Seat).where(col(Seat.room_id) == room_id, col(Seat.seat) == seat))
    await session.exec(
        update(Room).where(col(Room.id) == room_id).values(updated_at=utcnow(), **VIEW_CHANGED, **room_values)
    )
    await session.commit()


async def free_bot_seat(session: AsyncSession, room_id: str, seat: int) -> bool:
    """Free the seat if a bot holds it; False if none does."""
    result = await session.exec(
        delete(Seat).where(col(Seat.room_id) == room_id, col(Seat.seat) == seat, col(Seat.token_hash) == BOT_TOKEN_HASH)
    )
    if result.rowcount != 1:
        return False
    await touch(session, room_id)
    await session.commit()
    return True


async def set_seat_bot(
    session: AsyncSession, room_id: str, seat: int, level: str | None, until_back: bool = False
) -> bool:
    """Hand the seat to a bot of ``level`` (None: back to its player), committed; ``until_back``:
    a stand-in, which plays only until the player is back, and is seated only while no bot plays
    the seat: False, nothing written, if one does (every instance's turn timer runs out at the
    same moment, and the first to write seats it)."""
    unplayed = [col(Seat.bot).is_(None)] if until_back else []
    result = await session.exec(
        update(Seat)
        .where(col(Seat.room_id) == room_id, col(Seat.seat) == seat, *unplayed)
        .values(bot=level, bot_until_back=until_back and level is not None)
    )
    if result.rowcount == 0:
        await session.rollback()
        return False
    await touch(session, room_id)
    await session.commit()
    return True


async def give_back(session: AsyncSession, room_id: str, seat: int, restart_clock: bool) -> None:
    """The seat's stand-in bot gives it back to its player, committed; with ``restart_clock``
    (the seat is awaited) the turn clock starts afresh, else the timer, its deadline long past,
    would hand the seat over again at once. Another seat's turn keeps its clock (a player coming
    back gave whoever was on turn a fresh one)."""
    await session.exec(
        update(Seat).where(col(Seat.room_id) == room_id, col(Seat.seat) == seat).values(bot=None, bot_until_back=False)
    )
    now = utcnow()
    changed = {"updated_at": now, **VIEW_CHANGED} | ({"turn_started_at": now} if restart_clock else {})
    await session.exec(update(Room).where(col(Room.id) == room_id).values(changed))
    await session.commit()


async def set_seat_token(session: AsyncSession, room_id: str, seat: int, token_hash: str) -> None:
    """Give the seat a new token (its link reissued), committed: the old one holds it no more,
    and is kept as the seat's retired token (:func:`retired_seat`)."""
    await session.exec(
        update(Seat)
        .where(col(Seat.room_id) == room_id, col(Seat.seat) == seat)
        .values(retired_token_hash=col(Seat.token_hash), token_hash=token_hash)
    )
    await touch(session, room_id)
    await session.commit()


async def seat_joined_with(session: AsyncSession, room_id: str, key_hash: str) -> int | None:
    """The seat taken by a join with the idempotency key of this hash, if any."""
    found = await session.exec(
        select(Seat.seat).where(col(Seat.room_id) == room_id, col(Seat.join_key_hash) == key_hash)
    )
    return found.first()


async def retired_seat(session: AsyncSession, room_id: str, token_hash: str) -> int | None:
    """The seat whose link was reissued away from the token of this hash (the last reissue of
    each seat is remembered), or None."""
    found = await session.exec(
        select(Seat.seat).where(col(Seat.room_id) == room_id, col(Seat.retired_token_hash) == token_hash)
    )
    return found.first()


async def mark_started(session: AsyncSession, room_id: str, key: str | None) -> bool:
    """Open to playing, with the start's idempotency key, committed; False if the room was no
    longer open."""
    result = await session.exec(
        update(Room)
        .where(col(Room.id) == room_id, col(Room.status) == "open")
        .values(status="playing", updated_at=utcnow(), turn_started_at=utcnow(), start_key=key, **VIEW_CHANGED)
    )
    if result.rowcount != 1:
        return False
    await session.commit()
    return True


async def close_room(session: AsyncSession, info: RoomInfo, status: str, reason: str) -> bool:
    """Close the room as ``status`` (closed or abandoned) for ``reason``, committed, if it is
    still as ``info`` found it (same status and version: no move or start landed meanwhile,
    through any instance); False, with nothing written, otherwise."""
    result = await session.exec(
        update(Room)
        .where(col(Room.id) == info.id, col(Room.status) == info.status, col(Room.version) == info.version)
        .values(status=status, closed_reason=reason, updated_at=utcnow(), **VIEW_CHANGED)
    )
    if result.rowcount != 1:
        await session.rollback()
        return False
    await session.commit()
    return True


async def idle_rooms(session: AsyncSession, before: datetime, limit: int) -> list[str]:
    """Rooms waiting or in play whose last change (a move, a seat taken, the start) came before
    ``before``, the oldest first."""
    query = (
        select(Room.id)
        .where(col(Room.status).in_(IN_PLAY), col(Room.updated_at) < before)
        .order_by(col(Room.updated_at))
        .limit(limit)
    )
    return list((await session.exec(query)).all())


async def start_key(session: AsyncSession, room_id: str) -> str | None:
    """The idempotency key the room's start was made with, if any."""
    return (await session.exec(select(Room.start_key).where(Room.id == room_id))).one()


async def add_next_room(
    session: AsyncSession, before: RoomInfo, seats: list[dict[str, Any]], held_until: datetime, **room: Any
) -> bool:
    """The room ``before``'s players play again in: its game, options, seat count, turn timer,
    listing and hints, the columns ``room`` and the ``seats`` (each a seat row's columns but the
    room), linked from ``before`` and committed; False, with nothing written, if ``before``
    was linked to another room first."""
    session.add(
        Room(
            game=before.game,
            options=before.options,
            num_seats=before.num_seats,
            turn_seconds=before.turn_seconds,
            listed=before.listed,
            hints=before.hints,
            held_until=held_until,
            **room,
        )
    )
    await session.flush()
    session.add_all(Seat(room_id=room["id"], **seat) for seat in seats)
    linked = await session.exec(
        update(Room)
        .where(col(Room.id) == before.id, col(Room.next_room).is_(None))
        .values(next_room=room["id"], updated_at=utcnow(), **VIEW_CHANGED)
    )
    if linked.rowcount != 1:
        await session.rollback()
        return False
    await session.commit()
    return True


async def touch(session: AsyncSession, room_id: str) -> None:
    """Mark the room's facts changed (a seat's): its stamp and its change ids move on."""
    await session.exec(update(Room).where(col(Room.id) == room_id).values(updated_at=utcnow(), **VIEW_CHANGED))


def add_finished_games(
    database_url: str, games: Sequence[tuple[str, str, str, str, int, list[dict[str, Any]]]]
) -> None:
    """Bulk-insert finished games (the footprint benchmark's restart test): each as (room id,
    game, seed, seed hash, players, action log entries with seq, seat and action)."""
    engine = create_engine(database_url)
    now = utcnow()
    with engine.begin() as conn:
        for start in range(0, len(games), 500):
            rooms, seats, logged = [], [], []
            for room_id, game, seed, seed_hash, players, log in games[start : start + 500]:
                rooms.append(
                    {
                        "id": room_id,
                        "game": game,
                        "options": {},
                        "seed": seed,
                        "seed_hash": seed_hash,
                        "num_seats": players,
                        "host_seat": 0,
                        "status": "finished",
                        "version": len(log),
                        "change_id": len(log),
                        "view_change_id": len(log),
                        "created_at": now,
                        "updated_at": now,
                    }
                )
                seats += [
                    {
                        "room_id": room_id,
                        "seat": s,
                        "name": f"P{s}",
                        "token_hash": secrets.token_hex(32),
                        "joined_at": now,
                    }
                    for s in range(players)
                ]
                logged += [{"room_id": room_id, "at": now, **entry} for entry in log]
            conn.execute(insert(Room), rooms)
            conn.execute(insert(Seat), seats)
            conn.execute(insert(ActionRecord), logged)
    engine.dispose()
