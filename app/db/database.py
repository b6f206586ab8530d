"""The database as the services use it: reading sessions, writing sessions, and a move's
writes committed in one trip.

SQLite lets one connection write at a time; a writer that finds another busy sleeps in SQLite's
busy handler, in steps growing to 100 ms, and under load moves waited there for up to a
second. So on SQLite writers take turns on the event loop (an asyncio lock, first come first
served) and never meet inside SQLite; and a move's writes (append the action, bump the room's
version, commit) run in one call on a thread of their own with the plain sqlite3 driver,
because through the async driver each statement costs several round trips through the busy
event loop while the turn is held. Reading sessions have a pool of their own, whose connections
SQLite keeps read-only, and never wait for a turn (WAL readers do not wait for the writer).
On Postgres, where writers do not block each other, there are no turns and
every session comes from one pool.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Connection, Engine, Executable, create_engine
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from app.db.engine import configure_sqlite, make_sessionmaker, sqlite_engine

Step = tuple[Executable, dict[str, Any]]


class Database:
    """``read()`` and ``write()`` open sessions (a session that writes must come from
    ``write``); ``write_all`` commits a short list of statements at once."""

    def __init__(self, async_url: str, sync_url: str):
        self._sync_writer: Engine | None = None
        self._thread: ThreadPoolExecutor | None = None
        if async_url.startswith("sqlite"):
            self._reader = sqlite_engine(async_url, read_only=True)
            self._writer = sqlite_engine(async_url, pool_size=1, max_overflow=0)
            self._turn: asyncio.Lock | None = asyncio.Lock()
            self._sync_writer = create_engine(
                sync_url, pool_size=1, max_overflow=0, connect_args={"timeout": 30, "check_same_thread": False}
            )
            configure_sqlite(self._sync_writer)
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        else:
            self._reader = self._writer = create_async_engine(
                async_url, pool_size=10, max_overflow=20, pool_pre_ping=True
            )
            self._turn = None
        self._reads, self._writes = make_sessionmaker(self._reader), make_sessionmaker(self._writer)

    @property
    def url(self) -> str:
        return self._reader.url.render_as_string(hide_password=True)

    def read(self) -> AsyncSession:
        return self._reads()

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        async with self._turn or contextlib.nullcontext(), self._writes() as session:
            yield session

    async def write_all(self, steps: Sequence[Step]) -> bool:
        """Run ``steps`` in one transaction and commit, unless one of them changes no row: then
        roll back and return False (a row count the driver does not know, such as psycopg's
        for an INSERT, passes). A broken unique key raises ``IntegrityError`` (rolled back)."""
        if self._turn is None:
            async with self._writer.connect() as connection:
                return await connection.run_sync(commit_all, steps)
        async with self._turn:
            return await asyncio.get_running_loop().run_in_executor(self._thread, self._write_all_now, steps)

    @property
    def postgres(self) -> bool:
        return self._writer.dialect.name == "postgresql"

    async def write_statement(self, statement: Executable, params: dict[str, Any]) -> int:
        """Postgres: run one statement in autocommit (a single statement is its own
        transaction), so that it costs one round trip with no BEGIN or COMMIT; the number of
        rows it returns (psycopg does not count an INSERT's rows: the statement returns them).
        A broken unique key raises ``IntegrityError``, and nothing is written."""
        async with self._writer.connect() as connection:
            connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
            return len((await connection.execute(statement, params)).all())

    def _write_all_now(self, steps: Sequence[Step]) -> bool:
        assert self._sync_writer is not None
        with self._sync_writer.connect() as connection:
            return commit_all(connection, steps)

    async def dispose(self) -> None:
        for engine in {self._reader, self._writer}:
            await engine.dispose()
        if self._sync_writer is not None:
            self._sync_writer.dispose()
        if self._thread is not None:
            self._thread.shutdown()


def commit_all(connection: Connection, steps: Sequence[Step]) -> bool:
    """``Database.write_all`` on a plain connection (the async one lends its own to this)."""
    for statement, params in steps:
        if connection.execute(statement, params).rowcount == 0:  # -1: not known
            connection.rollback()
            return False
    connection.commit()
    return True
