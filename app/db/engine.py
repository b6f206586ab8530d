"""Database engines and session factories, and migrations at start.

SQLite runs in WAL mode with a busy timeout (how its writers take turns: ``app.db.database``).
Migrations are alembic's, run on a worker thread with the matching sync driver.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

ROOT = Path(__file__).resolve().parents[2]


def sqlite_engine(async_url: str, read_only: bool = False, **pool: int) -> AsyncEngine:
    engine = create_async_engine(async_url, connect_args={"timeout": 30}, **pool)
    configure_sqlite(engine.sync_engine, read_only)
    return engine


def configure_sqlite(sync_engine: Engine, read_only: bool = False) -> None:
    """WAL, a busy timeout, foreign keys and NORMAL sync on every new connection; with
    ``read_only``, SQLite refuses any write on it (a write through a reading session fails)."""

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_conn, _record):
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        if read_only:
            cursor.execute("PRAGMA query_only=ON")
        cursor.close()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


def alembic_config(sync_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini")) if (ROOT / "alembic.ini").exists() else Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", sync_url.replace("%", "%%"))
    return config


def migrate(sync_url: str) -> None:
    """Bring the database to the newest schema (idempotent)."""
    command.upgrade(alembic_config(sync_url), "head")


async def migrate_async(sync_url: str) -> None:
    await asyncio.to_thread(migrate, sync_url)
