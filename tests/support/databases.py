"""Databases as tests set them up and read them behind the server: a fresh database migrated
up to an older revision and a room row as those migrations knew it (``database_at``,
``insert_room``), a room's action log checked to replay to its stored state (``log_is_sound``),
the real errors a SQLite file raises, a full one's included (``sqlite_error``,
``disk_full_error``), the two backends a test runs on (``BACKENDS``: the Postgres case is
marked ``postgres``), and a new SQLite database started at the newest schema
(``start_migrated``)."""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy import exc as sa_exc
from sqlmodel import Session, select

from app.config import to_driver_url
from app.db.engine import alembic_config, migrate
from app.db.models import ActionRecord, Room, utcnow
from app.games.registry import GAMES

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
MIGRATED: list[Path] = []  # the database this test process migrated, once it has (start_migrated)


def start_migrated(database_url: str) -> None:
    """Give a SQLite database whose file is not made yet the newest schema, as a copy of one
    this test process migrated once: running the migrations took 0.09 s of the 0.12 s a test's
    app takes to start, some 600 times a run. The app still migrates at its start (nothing left
    to do); the tests of the migrations, and the servers tests start as processes, begin from
    an empty file, as a new server does."""
    if not database_url.startswith("sqlite"):
        return
    path = Path(database_url.split(":///", 1)[1])
    if path.exists():
        return
    if not MIGRATED:
        folder = Path(tempfile.mkdtemp(prefix="arena-migrated-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        migrate(f"sqlite:///{folder / 'arena.db'}")
        MIGRATED.append(folder / "arena.db")
    with closing(sqlite3.connect(MIGRATED[0])) as source, closing(sqlite3.connect(path)) as copy:
        source.backup(copy)


def database_at(request, backend: str, sqlite_url: str, revision: str):
    """A fresh database (SQLite or Postgres) migrated up to ``revision``: (its URL, an engine)."""
    url = sqlite_url if backend == "sqlite" else request.getfixturevalue("fresh_postgres_url")
    sync_url = to_driver_url(url, sync=True)
    command.upgrade(alembic_config(sync_url), revision)
    return sync_url, create_engine(sync_url)


def insert_room(conn, room_id: str, status: str, seats: int = 3) -> None:
    """A room row as the migrations before 0009 knew it."""
    conn.execute(
        text(
            "INSERT INTO rooms (id, game, options, seed, seed_hash, num_seats, host_seat, status, version,"
            " listed, created_at, updated_at) VALUES (:id, 'troika', '{}', 's', 'h', :seats, 0, :status, 0,"
            " true, :now, :now)"
        ),
        {"id": room_id, "status": status, "seats": seats, "now": utcnow()},
    )


def log_is_sound(database_url: str, room_id: str) -> None:
    """Versions 1..n with no gap, the room's version is n, and the log replays legally."""
    engine = create_engine(to_driver_url(database_url, sync=True))
    with Session(engine) as session:
        room = session.get(Room, room_id)
        rows = session.exec(
            select(ActionRecord).where(ActionRecord.room_id == room_id).order_by(ActionRecord.seq)
        ).all()
    engine.dispose()
    assert [row.seq for row in rows] == list(range(1, room.version + 1))
    game = GAMES[room.game]
    state = game.setup(room.num_seats, room.options, room.seed)
    for row in rows:
        state = game.apply(state, row.seat, row.action)


def sqlite_error(tmp_path, statement: str, fill: bool = False) -> sa_exc.DBAPIError:
    """The error SQLAlchemy raises for ``statement`` on a real SQLite file (``fill``: one that
    is full, capped at its current size as a full disk would)."""
    engine = create_engine(f"sqlite:///{tmp_path}/probe.db")
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS junk (text TEXT)")
            if fill:
                conn.exec_driver_sql("PRAGMA max_page_count = 2")
            for _ in range(1000):
                conn.exec_driver_sql(statement)
    except sa_exc.DBAPIError as exc:
        return exc
    finally:
        engine.dispose()
    raise AssertionError("the statement did not fail")


def disk_full_error(tmp_path) -> sa_exc.DBAPIError:
    return sqlite_error(tmp_path, "INSERT INTO junk VALUES (printf('%.1000c', 'x'))", fill=True)
