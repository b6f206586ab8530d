"""The database as the services use it: on SQLite, writers take turns and reading sessions
cannot write; on both databases, ``write_all`` commits all of its statements or none."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

import pytest
from sqlalchemy import event, func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from app.config import to_driver_url
from app.db.database import Database
from app.db.engine import migrate
from app.db.models import Room, utcnow
from app.rooms import storage
from tests.support.databases import BACKENDS

ROOMS = Room.__table__


def room_row(room_id: str) -> dict:
    return {
        "id": room_id,
        "game": "troika",
        "options": {},
        "num_seats": 2,
        "host_seat": 0,
        "status": "playing",
        "version": 0,
        "seed": "s",
        "seed_hash": "h",
        "created_at": utcnow(),
        "updated_at": utcnow(),
    }


async def opened(url: str) -> Database:
    migrate(to_driver_url(url, sync=True))
    return Database(to_driver_url(url, sync=False), to_driver_url(url, sync=True))


async def rooms_named(db: Database, *ids: str) -> int:
    async with db.read() as session:
        connection = await session.connection()
        return (await connection.execute(select(func.count()).select_from(ROOMS).where(ROOMS.c.id.in_(ids)))).scalar()


@pytest.mark.parametrize("database", BACKENDS)
async def test_write_all_commits_every_statement_or_none(database, sqlite_url, request):
    url = sqlite_url if database == "sqlite" else request.getfixturevalue("postgres_url")
    db = await opened(url)
    try:
        prefix = f"{database[:2]}-"
        assert await db.write_all([(insert(ROOMS), room_row(prefix + "a")), (insert(ROOMS), room_row(prefix + "b"))])
        assert await rooms_named(db, prefix + "a", prefix + "b") == 2
        no_such_room = update(ROOMS).where(ROOMS.c.id == "nowhere").values(version=1)
        assert not await db.write_all([(insert(ROOMS), room_row(prefix + "c")), (no_such_room, {})])
        assert await rooms_named(db, prefix + "c") == 0, "a step that changed no row undid the others"
        with pytest.raises(IntegrityError):
            await db.write_all([(insert(ROOMS), room_row(prefix + "d")), (insert(ROOMS), room_row(prefix + "a"))])
        assert await rooms_named(db, prefix + "d") == 0
    finally:
        await db.dispose()


async def test_on_sqlite_reading_sessions_cannot_write_and_writers_take_turns(sqlite_url):
    db = await opened(sqlite_url)
    try:
        async with db.read() as session:
            with pytest.raises(OperationalError, match="readonly"):
                await (await session.connection()).execute(insert(ROOMS), room_row("r"))
        inside, most = 0, 0

        async def writer(n: int) -> None:
            nonlocal inside, most
            async with db.write() as session:
                inside += 1
                most = max(most, inside)
                await (await session.connection()).execute(insert(ROOMS), room_row(f"w{n}"))
                await asyncio.sleep(0.01)
                await session.commit()
                inside -= 1

        await asyncio.gather(*(writer(n) for n in range(5)), db.write_all([(insert(ROOMS), room_row("m"))]))
        assert most == 1, "two writing sessions were open at once"
        assert await rooms_named(db, "m", *(f"w{n}" for n in range(5))) == 6
    finally:
        await db.dispose()


def test_migrating_a_new_sqlite_file_switches_it_to_wal_once(tmp_path):
    """Reading connections never switch the journal mode (two connections switching it at the
    same moment fail with "database is locked"): migrations do it before the pools open."""
    migrate(f"sqlite:///{tmp_path}/arena.db")
    with contextlib.closing(sqlite3.connect(tmp_path / "arena.db")) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("database", BACKENDS)
async def test_a_move_is_written_whole_or_not_at_all_and_on_postgres_in_one_statement(database, sqlite_url, request):
    """``storage.write_move`` moves the version on and appends the action together; a move made
    on a version that moved on, whose sequence number is taken, or whose idempotency key the
    seat used before, writes nothing. On Postgres it is one statement in autocommit: one round
    trip, no BEGIN or COMMIT."""
    url = sqlite_url if database == "sqlite" else request.getfixturevalue("postgres_url")
    db = await opened(url)
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_rest) -> None:
        statements.append(statement.split()[0].upper())

    # (private: the statements are counted on the writing engine itself, which the Database does not expose)
    writer = db._writer.sync_engine if db.postgres else db._sync_writer
    event.listen(writer, "before_cursor_execute", seen)
    try:
        room = f"mv-{database[:2]}"
        assert await db.write_all([(insert(ROOMS), room_row(room))])
        statements.clear()
        assert await storage.write_move(db, room, 0, {"type": "a"}, 0, "playing", 0, "k1", utcnow())
        assert statements == (["WITH"] if db.postgres else ["UPDATE", "INSERT"])
        assert not await storage.write_move(db, room, 1, {"type": "b"}, 0, "playing", 0, None, utcnow()), "stale"
        assert not await storage.write_move(db, room, 0, {"type": "b"}, 1, "playing", 1, "k1", utcnow()), "key used"
        async with db.read() as session:
            logged = await storage.actions(session, room)
            rows = [(row.seq, row.seat, row.action, row.idempotency_key) for row in logged]
            assert rows == [(1, 0, {"type": "a"}, "k1")]
            assert (await storage.stamp(session, room))[0] == 1
        await db.write_all([(update(ROOMS).where(ROOMS.c.id == room).values(version=0), {})])
        assert not await storage.write_move(db, room, 1, {"type": "c"}, 0, "playing", 0, None, utcnow()), "seq taken"
        async with db.read() as session:
            assert len(await storage.actions(session, room)) == 1
            assert (await storage.stamp(session, room))[0] == 0, "the version stayed where it was"
    finally:
        event.remove(writer, "before_cursor_execute", seen)
        await db.dispose()
