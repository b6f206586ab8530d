"""The live socket's edges, against a uvicorn server running in the test's own event loop (so
its tasks and log records can be inspected): handshakes to missing rooms, the caps on sockets
per seat and spectators per room, and a database outage closing sockets cleanly."""

from __future__ import annotations

import asyncio
import json
import logging

import httpx
import psycopg
import pytest
import websockets
from websockets.asyncio.client import connect

from app.bench.servers import database
from tests.support.rooms import make_room
from tests.support.servers import in_process_server
from tests.support.sockets import close_of, until_version, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


def socket_tasks() -> list[asyncio.Task]:
    """Tasks of this loop still reading a live socket."""
    return [t for t in asyncio.all_tasks() if "read_incoming" in repr(t.get_coro())]


def tracebacks(caplog) -> list[logging.LogRecord]:
    """Errors and tracebacks logged by the socket route or by uvicorn for it."""
    return [
        r
        for r in caplog.records
        if r.name.startswith(("app.web", "uvicorn")) and (r.exc_info or r.levelno >= logging.ERROR)
    ]


async def test_a_missing_room_is_refused_at_the_handshake_whatever_the_token(sqlite_url, caplog):
    async with in_process_server(sqlite_url) as (base, _):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, _ = await make_room(client)
        for room, token in [("no-room", None), ("no-room", ""), ("no-room", "made-up"), (room_id, "")]:
            url = base.replace("http://", "ws://") + f"/ws/rooms/{room}?format=json"
            url += "" if token is None else f"&token={token}"
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                async with connect(url, additional_headers={"Origin": base}):
                    pass
            answer = refused.value.response
            expected = (404, "not_found") if room == "no-room" else (401, "unauthorized")  # (an empty token)
            assert (answer.status_code, json.loads(answer.body)["error"]) == expected, (room, token)
    assert tracebacks(caplog) == []


async def test_a_socket_of_a_format_neither_html_nor_json_is_refused_at_the_handshake(sqlite_url, caplog):
    """(Any other format was served HTML, and its frames were played as a page's clicks.)"""
    async with in_process_server(sqlite_url) as (base, _):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client)
        for fmt in ("xml", "JSON", "", "html%20"):
            url = base.replace("http://", "ws://") + f"/ws/rooms/{room_id}?token={tokens[0]}&format={fmt}"
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                async with connect(url, additional_headers={"Origin": base}):
                    pass
            answer = refused.value.response
            assert answer.status_code == 400 and json.loads(answer.body) == {
                "error": "invalid_request",
                "message": "format must be html or json",
            }, fmt
        for fmt in ("json", "html"):
            async with connect(ws_url(base, room_id, tokens[0], fmt), additional_headers={"Origin": base}) as ws:
                assert await ws.recv()
    assert tracebacks(caplog) == []


async def test_sockets_past_the_caps_are_closed_with_a_reason(sqlite_url):
    async with in_process_server(sqlite_url, max_sockets_per_seat=2, max_spectators_per_room=2) as (base, app):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client)
        headers = {"Origin": base}
        for token, reason in [
            (tokens[0], "too many sockets for this seat (at most 2)"),
            (None, "too many spectators in this room (at most 2)"),
        ]:
            url = ws_url(base, room_id, token)
            async with connect(url, additional_headers=headers) as first, connect(url, additional_headers=headers):
                await until_version(first, 0)
                async with connect(url, additional_headers=headers) as third:
                    close = await close_of(third)
                    assert (close.code, close.reason) == (1008, reason)
                async with connect(ws_url(base, room_id, tokens[1]), additional_headers=headers) as other:
                    assert (await until_version(other, 0))["seat"] == 1, "another seat has its own cap"
                await first.close()
                # inside on purpose: the server frees a closed socket's place after the client's close returns,
                # and no endpoint counts one room's sockets (the second is the only one left open)
                while app.state.sockets.in_room(room_id) > 1:
                    await asyncio.sleep(0.02)
                async with connect(url, additional_headers=headers) as again:
                    assert (await until_version(again, 0))["version"] == 0, "a closed socket frees its place"
        # inside on purpose (as above): every socket's place freed before the server stops
        while app.state.sockets.in_room(room_id):
            await asyncio.sleep(0.02)


def refuse_connections(database_url: str, allow: bool) -> None:
    """Make one database refuse every new connection and drop the open ones (or undo that)."""
    name = database_url.rsplit("/", 1)[1]
    admin = database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {str(allow).lower()}')
        if not allow:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))


async def test_a_database_outage_closes_sockets_with_1011_and_leaves_no_task(caplog):
    with database("postgres") as url:
        try:
            async with in_process_server(url) as (base, _):
                async with httpx.AsyncClient(base_url=base) as client:
                    room_id, tokens = await make_room(client)
                headers = {"Origin": base}
                async with connect(ws_url(base, room_id, None), additional_headers=headers) as watcher:
                    await until_version(watcher, 0)
                    refuse_connections(url, allow=False)
                    caplog.clear()
                    async with connect(ws_url(base, room_id, tokens[1]), additional_headers=headers) as seat:
                        close = await close_of(seat)
                    assert (close.code, close.reason) == (1011, "database unavailable, try again shortly")
                    await asyncio.sleep(0.2)
                    assert len(socket_tasks()) == 1, "only the watcher's reader is left"
                lines = [r for r in caplog.records if r.name == "app.web.live"]
                assert [r.getMessage().split(":")[0] for r in lines] == [f"live socket of room {room_id} closed"]
                assert "OperationalError" in lines[0].getMessage()
                assert tracebacks(caplog) == []
                await asyncio.sleep(0.2)
                assert socket_tasks() == []
        finally:
            refuse_connections(url, allow=True)
