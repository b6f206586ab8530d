"""``troika-arena backup FILE`` and ``restore FILE`` for a SQLite database.

A backup is SQLite's online backup API (``sqlite3.Connection.backup``): a consistent copy of the
database as of one moment, taken page by page while the server goes on reading and writing (a
write during the copy restarts it, so the copy is never half of two moments), written to a
temporary file beside FILE and renamed into place, so FILE is whole or absent. A restore first
checks that FILE is a SQLite database of this server (its integrity check passes and it has the
rooms and the migrations' version), then copies it into the configured database with the same
API and brings it to the newest schema; the server must be stopped while it runs (its cached
rooms would not know): a running server holds a shared lock on its database file
(:func:`serving`), a restore that cannot take it alone refuses, and so does a second
``serve`` (:func:`served`). On Postgres neither
applies: :data:`POSTGRES_HOWTO` says how to use ``pg_dump`` and ``pg_restore``, which take the
same kind of consistent snapshot.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import quote

POSTGRES_HOWTO = """On Postgres, back up with pg_dump, which takes a consistent snapshot while the server runs:
    pg_dump --format=custom --file=FILE "$DATABASE_URL"
and restore with pg_restore (stop the server first; it drops what the dump holds and makes it again):
    pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" FILE
then start the server, which migrates the schema if the dump is older."""


class BackupError(Exception):
    """A backup or restore that cannot be done, with the reason to print."""


def sqlite_path(sync_url: str) -> Path:
    """The file of a ``sqlite:///path`` URL; BackupError for Postgres (pg_dump does it)."""
    if sync_url.startswith("postgresql"):
        raise BackupError(POSTGRES_HOWTO)
    path = sync_url.split("///", 1)[1] if "///" in sync_url else ""
    if not path or path == ":memory:":
        raise BackupError("DATABASE_URL names no SQLite file")
    return Path(path)


@contextmanager
def serving(sync_url: str) -> Iterator[None]:
    """While the block runs, hold a shared lock on the SQLite database file of ``sync_url`` (a
    server runs on it: a restore refuses). Servers share it; Postgres and memory hold none."""
    try:
        path = sqlite_path(sync_url)
        fd = os.open(path, os.O_RDONLY)
    except (BackupError, OSError):
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # (the lock goes with it)


def served(sync_url: str) -> Path | None:
    """The SQLite database file of ``sync_url`` if a server runs on it (holds :func:`serving`'s
    lock), else None: ``serve`` refuses to start a second one (its moves would never reach the
    first one's sockets and streams; only Postgres relays them)."""
    try:
        path = sqlite_path(sync_url)
    except BackupError:
        return None
    try:
        with alone(path):
            return None
    except BackupError:
        return path


@contextmanager
def alone(path: Path) -> Iterator[None]:
    """The database file ``path`` locked for this process alone, or BackupError while a server
    runs on it (:func:`serving`)."""
    if not path.exists():
        yield
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(f"a server is running on {path}: stop it first, then restore") from None
        yield
    finally:
        os.close(fd)


def backup(sync_url: str, target: Path) -> int:
    """Copy the database of ``sync_url`` to ``target`` (a consistent copy, taken while the server
    runs); the number of rooms copied."""
    source = sqlite_path(sync_url)
    if not source.exists():
        raise BackupError(f"there is no database at {source}")
    if target.resolve() == source.resolve():
        raise BackupError("the backup would overwrite the database itself")
    if target.is_dir():
        raise BackupError(f"{target} is a folder: name the backup file to write")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent} to write the backup in")
    partial = target.with_name(target.name + ".partial")
    try:
        partial.unlink(missing_ok=True)
        with closing(sqlite3.connect(source, timeout=30)) as src, closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            rooms = rooms_in(dst)
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:  # a folder that cannot be written, a full disk
        raise BackupError(f"cannot copy the database to {target} ({exc})") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
    return rooms


def restore(backup_file: Path, sync_url: str) -> int:
    """Put ``backup_file`` in place of the database of ``sync_url`` (the server stopped); the
    number of rooms restored. Refuses a file that is not a sound backup of this server."""
    target = sqlite_path(sync_url)
    if backup_file.is_dir():
        raise BackupError(f"{backup_file} is a folder: name the backup file")
    if not backup_file.is_file():
        raise BackupError(f"there is no backup at {backup_file}")
    if target.exists() and backup_file.resolve() == target.resolve():
        raise BackupError("the backup is the database itself")
    with alone(target):
        return copied(backup_file, target)


def copied(backup_file: Path, target: Path) -> int:
    """Check ``backup_file`` and copy it over ``target``; the number of rooms."""
    read_only = f"file:{quote(str(backup_file.resolve()))}?mode=ro"  # (a '#', '?' or '%' in the name)
    try:
        with closing(sqlite3.connect(read_only, uri=True)) as src:
            (check,) = src.execute("PRAGMA integrity_check").fetchone()
            if check != "ok":
                raise BackupError(f"{backup_file} is damaged: {check}")
            tables = {name for (name,) in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"rooms", "alembic_version"} <= tables:
                raise BackupError(f"{backup_file} is not a Troika Arena database")
            target.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(target, timeout=30)) as dst:
                src.backup(dst)
                return rooms_in(dst)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{backup_file} is not a SQLite database ({exc})") from None


def rooms_in(connection: sqlite3.Connection) -> int:
    return connection.execute("SELECT count(*) FROM rooms").fetchone()[0]
