"""Database trouble is a clear, retryable answer: 503 with its reason and a Retry-After, a 503
page in words, one log line per failure; a genuine bug stays a 500, logged once with its
traceback. The exceptions are the drivers' own: a SQLite file that is full, a Postgres that
refuses connections (this test's own database, never the machine's server), or psycopg's
SQLSTATE classes."""

from __future__ import annotations

import asyncio
import logging

import httpx
import psycopg
import pytest
from sqlalchemy import create_engine
from sqlalchemy import exc as sa_exc

from app.bench import servers
from app.db import faults
from app.rooms.watchers import RoomWatcher
from tests.conftest import auth, create_started_room, running_app
from tests.support.databases import disk_full_error, sqlite_error
from tests.support.rooms import make_room

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


def postgres_refused() -> sa_exc.DBAPIError:
    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{servers.free_port()}/nowhere")
    try:
        with pytest.raises(sa_exc.OperationalError) as refused:
            engine.connect()
    finally:
        engine.dispose()
    return refused.value


def wrapped(error: Exception) -> sa_exc.DBAPIError:
    return sa_exc.OperationalError("SELECT secret FROM t WHERE x = %(x)s", {"x": "hidden"}, error)


def test_outages_are_told_from_bugs(tmp_path, postgres_url):
    full = faults.outage(disk_full_error(tmp_path))
    assert full.reason == faults.FULL and full.cause == "OperationalError: database or disk is full"
    assert faults.outage(postgres_refused()).reason == faults.UNREACHABLE
    assert faults.outage(wrapped(psycopg.errors.DiskFull("could not extend file"))).reason == faults.FULL
    crowded = faults.outage(wrapped(psycopg.errors.TooManyConnections("sorry, too many clients already")))
    assert crowded.reason == faults.CROWDED and "hidden" not in crowded.cause and "SELECT" not in crowded.cause
    assert faults.outage(wrapped(psycopg.errors.AdminShutdown("terminating connection"))).reason == faults.UNREACHABLE
    assert faults.outage(sa_exc.TimeoutError("QueuePool limit reached")).reason == faults.BUSY
    # Bugs: a missing table (SQLite words it as an OperationalError too), a broken key, any other.
    assert faults.outage(sqlite_error(tmp_path, "SELECT * FROM no_such_table")) is None
    engine = create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://"))
    with pytest.raises(sa_exc.ProgrammingError) as missing, engine.connect() as conn:
        conn.exec_driver_sql("SELECT * FROM no_such_table")
    engine.dispose()
    assert faults.outage(missing.value) is None
    assert faults.outage(sa_exc.IntegrityError("INSERT", {}, Exception("UNIQUE"))) is None
    assert faults.outage(ValueError("list indices must be integers")) is None


def arena_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("troika_arena")]


def records_of(caplog, request: str) -> list[logging.LogRecord]:
    """The arena's log records about one request ("GET /path"): the background tasks (the
    presence heartbeat) may log their own failure of the same patched database meanwhile."""
    return [r for r in arena_records(caplog) if f" on {request}" in r.getMessage()]


async def test_a_full_database_answers_503_with_retry_after_and_is_logged_as_one_line(
    sqlite_url, tmp_path, caplog, monkeypatch
):
    full = disk_full_error(tmp_path)

    def no_space(*_args, **_kwargs):  # as the session factory and the move's write raise it
        raise full

    async with running_app(sqlite_url) as client:
        room_id, tokens = await create_started_room(client, seats=3)
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        seat = view["to_act"][0]
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
        move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
        # inside on purpose: a full disk is simulated by making the database's write raise SQLite's own error
        monkeypatch.setattr(client.app.state.rooms.db, "write_all", no_space)
        caplog.clear()
        r = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
        assert r.status_code == 503
        assert r.headers["retry-after"] == "60"
        assert r.json() == {
            "error": "database_unavailable",
            "message": "the database has run out of space; please try again in 60 seconds",
        }
        [record] = records_of(caplog, f"POST /api/rooms/{room_id}/actions")
        assert record.exc_info is None and record.levelno == logging.WARNING
        assert record.getMessage() == (
            f"database unavailable on POST /api/rooms/{room_id}/actions: "
            "the database has run out of space (OperationalError: database or disk is full)"
        )
        # The page says the same in words.
        # inside on purpose: the same simulated full disk, now met by the page's read session
        monkeypatch.setattr(client.app.state.rooms.db, "read", no_space)
        page = await client.get("/", headers={"accept": "text/html"})
        assert page.status_code == 503 and page.headers["retry-after"] == "60"
        assert "Temporarily unavailable" in page.text and "run out of space" in page.text


async def test_a_bug_is_a_500_logged_once_with_its_traceback(sqlite_url, caplog, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("a genuine bug")

    async with running_app(sqlite_url) as client:
        # inside on purpose: no request can trigger a genuine bug, so the read session factory raises one
        monkeypatch.setattr(client.app.state.rooms.db, "read", broken)
        caplog.clear()
        r = await client.get("/api/rooms")
        assert r.status_code == 500
        assert r.json() == {"error": "internal", "message": "the server hit an unexpected error"}
        assert "retry-after" not in r.headers
        [record] = records_of(caplog, "GET /api/rooms")
        assert record.exc_info[1].args == ("a genuine bug",)


async def test_a_postgres_refusing_connections_gets_503s_logged_once_each_and_no_traceback():
    """A real server process on its own Postgres database, which stops accepting connections
    (its open ones are ended) and then accepts them again."""
    admin_url = servers.POSTGRES_ADMIN
    with (
        servers.database("postgres") as url,
        servers.process("app.main:app", {"DATABASE_URL": url, "LOG_LEVEL": "info"}, access_log=True) as server,
    ):
        name = url.rsplit("/", 1)[1]
        async with httpx.AsyncClient(base_url=server.base, timeout=20) as client:
            room_id, tokens = await make_room(client, seats=2)
            seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
            move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
            with psycopg.connect(admin_url, autocommit=True) as admin:
                admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
            try:
                r = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
                assert r.status_code == 503, r.text
                assert r.headers["retry-after"] == "5" and r.json()["error"] == "database_unavailable"
                assert r.json()["message"] == "the database cannot be reached; please try again in 5 seconds"
                page = await client.get("/", headers={"accept": "text/html"})
                assert page.status_code == 503 and "Temporarily unavailable" in page.text
                assert "cannot be reached" in page.text
            finally:
                with psycopg.connect(admin_url, autocommit=True) as admin:
                    admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            r = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
            assert r.status_code == 200, r.text
        printed = server.output()
    failures = [line for line in printed.splitlines() if "database unavailable on" in line]
    assert len(failures) == 2, printed
    assert f"on POST /api/rooms/{room_id}/actions: the database cannot be reached (OperationalError:" in failures[0]
    assert "on GET /: the database cannot be reached" in failures[1]
    assert "Traceback" not in printed and "Exception in ASGI application" not in printed, printed


async def test_background_tasks_log_an_outage_as_one_line(sqlite_url, tmp_path, caplog, monkeypatch):
    """The presence heartbeat and a room's bot or timer task, failing in an outage."""
    full = disk_full_error(tmp_path)

    async def no_space(*_args, **_kwargs):
        raise full

    class Failing(RoomWatcher):
        async def watch(self, room_id: str) -> None:
            await no_space()

    async with running_app(sqlite_url) as client:
        # inside on purpose: the heartbeat runs on a timer with no endpoint; its beat is made to fail and it is run now
        social = client.app.state.social
        monkeypatch.setattr(social, "beat", no_space)
        caplog.clear()
        heartbeat = asyncio.create_task(social.heartbeat_forever())
        Failing(rooms=None).poke("r")
        await asyncio.sleep(0.1)
        heartbeat.cancel()
        await asyncio.gather(heartbeat, return_exceptions=True)
    lines = sorted(r.getMessage() for r in arena_records(caplog))
    assert lines == [
        "Failing failed in room r: the database has run out of space (OperationalError: database or disk is full)",
        "presence heartbeat failed: the database has run out of space (OperationalError: database or disk is full)",
    ]
    assert all(r.exc_info is None for r in arena_records(caplog))


async def test_a_bot_or_timer_task_an_outage_ended_starts_again_after_its_retry_after(tmp_path, monkeypatch):
    """After a short Postgres outage a bot awaited in its turn never moved again: nothing came
    to poke its room. A watcher's task that an outage ended is started again once the outage's
    Retry-After has passed (shortened here); one that a bug ended is not, nor one after stop."""
    full = disk_full_error(tmp_path)
    monkeypatch.setitem(faults.RETRY_AFTER, faults.FULL, 0.05)
    runs: list[str] = []

    class Flaky(RoomWatcher):
        def __init__(self, *failures: Exception):
            super().__init__(rooms=None)
            self.failures = list(failures)

        async def watch(self, room_id: str) -> None:
            runs.append(room_id)
            if self.failures:
                raise self.failures.pop()

    Flaky(full).poke("r")
    await asyncio.sleep(0.3)
    assert runs == ["r", "r"]  # failed, then again after 0.05 s, and done

    runs.clear()
    Flaky(ValueError("a bug")).poke("b")
    await asyncio.sleep(0.3)
    assert runs == ["b"]

    runs.clear()
    stopped = Flaky(full)
    stopped.poke("s")
    await asyncio.sleep(0.01)
    await stopped.stop()
    await asyncio.sleep(0.3)
    assert runs == ["s"]
