"""Database engines and session factories, a first connection's check, and migrations at start.

SQLite runs in WAL mode with a busy timeout (how its writers take turns: ``app.db.database``).
Migrations are alembic's, run on a worker thread with the matching sync driver; on Postgres
under an advisory lock, so instances started together take turns.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, inspect, make_url, text
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import NullPool
from sqlmodel.ext.asyncio.session import AsyncSession

from app.files import project_file


def sqlite_engine(async_url: str, read_only: bool = False, **pool: int) -> AsyncEngine:
    engine = create_async_engine(async_url, connect_args={"timeout": 30}, **pool)
    configure_sqlite(engine.sync_engine, read_only)
    return engine


def configure_sqlite(sync_engine: Engine, read_only: bool = False) -> None:
    """A busy timeout, foreign keys and NORMAL sync on every new connection, and WAL on every
    writing one; with ``read_only``, SQLite refuses any write on it (a write through a reading
    session fails)."""

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_conn, _record):
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA busy_timeout=30000")
        if not read_only:  # the mode is kept in the file: ``migrate`` sets it before any reader
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        if read_only:
            cursor.execute("PRAGMA query_only=ON")
        cursor.close()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


def alembic_config(sync_url: str) -> Config:
    ini = project_file("alembic.ini")
    config = Config(str(ini)) if ini.exists() else Config()
    config.set_main_option("script_location", str(project_file("migrations")))
    config.set_main_option("sqlalchemy.url", sync_url.replace("%", "%%"))
    return config


# How long the check at start waits for a Postgres server that does not answer (a host that
# drops the packets, a port that accepts and stays silent), unless the URL sets connect_timeout.
CHECK_TIMEOUT_SECONDS = 10


def unusable(sync_url: str) -> str | None:
    """Why the database of ``sync_url`` cannot be used, in one line, or None when it can: a
    SQLite file in a folder that does not exist, or not a database; a Postgres server that does
    not answer within :data:`CHECK_TIMEOUT_SECONDS`, or refuses the connection (no such
    database, a wrong password). Connects once and reads the list of tables; a SQLite file that
    does not exist yet is created, as at start, and one that exists must take a write
    (:func:`sqlite_unwritable`)."""
    url = make_url(sync_url)
    path = url.database if sync_url.startswith("sqlite") else None
    if path and path != ":memory:" and not Path(path).parent.is_dir():
        return f"there is no folder {Path(path).parent} for the database file {path}"
    timeout = {} if path or "connect_timeout" in url.query else {"connect_timeout": CHECK_TIMEOUT_SECONDS}
    try:
        engine = create_engine(sync_url, poolclass=NullPool, connect_args=timeout)
        try:
            with engine.connect() as conn:
                inspect(conn).get_table_names()
        finally:
            engine.dispose()
    except (SQLAlchemyError, ValueError) as exc:  # (ValueError: a port that is not a number)
        reason = str(exc.orig if isinstance(exc, DBAPIError) else exc)
        lines = [" ".join(line.split()) for line in reason.splitlines() if line.strip()]  # (psycopg's: several)
        return "; ".join(lines) + (f" ({path})" if path else "")
    return sqlite_unwritable(path) if path and path != ":memory:" else None


def sqlite_unwritable(path: str) -> str | None:
    """Why the SQLite file ``path`` cannot be written, or None: a table made in a transaction
    rolled back, which needs the file writable and, for its WAL or journal, its folder (a
    read-only file otherwise served reads and failed the first move, or failed at start with a
    traceback)."""
    connection = sqlite3.connect(path, isolation_level=None, timeout=30)  # (BEGIN as written)
    try:
        connection.execute("BEGIN")
        connection.execute("CREATE TABLE troika_arena_write_check (x)")
    except sqlite3.Error as exc:
        return f"the file or its folder cannot be written: {exc} ({path})"
    finally:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        connection.close()
    return None


# Any fixed 64-bit number, the same in every instance: the key of the migrations' advisory lock.
MIGRATION_LOCK = 0x7472_6F69_6B61  # "troika"


@contextmanager
def advisory_lock(sync_url: str, key: int) -> Iterator[None]:
    """Hold a session-level Postgres advisory lock for the block (waiting for it if needed)."""
    engine = create_engine(sync_url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": key})
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
    finally:
        engine.dispose()


def migrate(sync_url: str) -> None:
    """Bring the database to the newest schema (idempotent).

    On Postgres under an advisory lock: instances started at once take turns, and those that
    get the lock after the first find the schema current (without it the second one failed
    with a UniqueViolation, creating the same tables). A SQLite file is switched to WAL here,
    once, before the server's pools open it: two connections that switch it at the same moment
    fail with "database is locked" (seen when the heartbeat's first write met the first read at
    start-up)."""
    postgres = sync_url.startswith("postgresql")
    with advisory_lock(sync_url, MIGRATION_LOCK) if postgres else nullcontext():
        command.upgrade(alembic_config(sync_url), "head")
    if sync_url.startswith("sqlite"):
        engine = create_engine(sync_url, connect_args={"timeout": 30})
        try:
            with engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        finally:
            engine.dispose()


async def migrate_async(sync_url: str) -> None:
    await asyncio.to_thread(migrate, sync_url)
