"""A real server process: per-seat websocket pushes, the Origin check, SIGKILL mid-game
followed by a restart on the same database (SQLite and Postgres), and Ctrl-C while a client
follows a stream."""

from __future__ import annotations

import asyncio
import json
import random
import signal

import httpx
import pytest
import websockets
from websockets.asyncio.client import connect

from tests.support.databases import BACKENDS
from tests.support.rooms import auth, every_view, make_room, play
from tests.support.servers import free_port, server_process
from tests.support.sockets import until_version, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


@pytest.fixture(params=BACKENDS)
def database_url(request, sqlite_url):
    return sqlite_url if request.param == "sqlite" else request.getfixturevalue("postgres_url")


async def test_each_socket_gets_its_own_seats_view_after_every_move(sqlite_url):
    with server_process(sqlite_url, free_port()) as (_, base):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client)
            headers = {"Origin": base}
            async with (
                connect(ws_url(base, room_id, tokens[0]), additional_headers=headers) as ws0,
                connect(ws_url(base, room_id, tokens[1]), additional_headers=headers) as ws1,
                connect(ws_url(base, room_id, None), additional_headers=headers) as spectator,
            ):
                first = [await until_version(ws, 0) for ws in (ws0, ws1, spectator)]
                assert [m["seat"] for m in first] == [0, 1, None]
                reply = await play(client, room_id, tokens, 1, random.Random(1))
                pushed = [await until_version(ws, 1) for ws in (ws0, ws1, spectator)]
                assert pushed[2]["connected"] == [0, 1], "both seats' sockets count as present"
                assert {"event": "view", **reply} == {**pushed[reply["seat"]], "duplicate": False}, (
                    "the reply is the mover's push (which is typed as a view event)"
                )
                for seat, message in enumerate(pushed[:2]):
                    hands = [p["hand"] for p in message["view"]["players"]]
                    assert hands[seat] == message["view"]["hand"] and hands[1 - seat] is None
                assert pushed[2]["view"]["hand"] == [] and pushed[2]["legal_actions"] == []
            async with connect(ws_url(base, room_id, tokens[0], "html"), additional_headers=headers) as ws:
                html = await ws.recv()
                assert 'id="room-main"' in html and 'data-version="1"' in html


async def test_websocket_handshakes_need_this_servers_origin_and_a_real_seat(sqlite_url):
    with server_process(sqlite_url, free_port()) as (_, base):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client)
        url = ws_url(base, room_id, tokens[0])
        cases = [
            (url, {}, 403, "forbidden", "origin not allowed"),
            (url, {"Origin": "http://evil.example"}, 403, "forbidden", "origin not allowed"),
            (ws_url(base, room_id, "forged"), {"Origin": base}, 403, "forbidden", "holds no seat"),
            (ws_url(base, "no-room", None), {"Origin": base}, 404, "not_found", "no such room"),
        ]
        for address, headers, status, code, words in cases:  # (each said: it was a bare 403, 2026-12-07)
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                async with connect(address, additional_headers=headers):
                    pass
            answer = refused.value.response
            said = json.loads(answer.body)
            assert (answer.status_code, said["error"]) == (status, code) and words in said["message"], said


async def test_sigkill_mid_game_then_restart_continues_from_the_same_version(database_url):
    port = free_port()
    with server_process(database_url, port) as (proc, base):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client, seats=3)
            await play(client, room_id, tokens, 17, random.Random(4))
            before = await every_view(client, room_id, tokens)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    with server_process(database_url, port) as (_, base):
        async with httpx.AsyncClient(base_url=base) as client:
            after = await every_view(client, room_id, tokens)
            assert after == before and after[0]["version"] == 17
            await play(client, room_id, tokens, 3, random.Random(5))
            assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 20


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
async def test_the_server_stops_while_a_client_still_follows_a_stream(sqlite_url, stop):
    """uvicorn waits for every response to end before it stops, and a followed stream (its
    keep-alive lines included) ends only when its client lets go: Ctrl-C waited for that. The
    server now ends the streams first; the client here would follow for a minute."""
    with server_process(sqlite_url, free_port()) as (proc, base):
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            room_id, tokens = await make_room(client)
            async with client.stream("GET", f"/api/rooms/{room_id}/stream", headers=auth(tokens[0])) as stream:
                lines = stream.aiter_lines()
                assert json.loads(await anext(lines))["event"] == "view"  # following
                proc.send_signal(stop)
                exited = await asyncio.to_thread(proc.wait, 30)  # (raises if it is still waiting)
                rest = [line async for line in lines]  # the stream ended, cleanly
        # (uvicorn raises a caught SIGTERM again once it has shut down: the shell sees it so)
        assert exited in (0, -stop) and all(line == "" for line in rest)
