"""Faults and abuse against real server processes: Postgres restarting under running games (a
cluster of the test's own, never the machine's),
sockets dropped around moves, two instances racing one turn, oversized and flooding frames.
After each, the log replays to the stored state, versions have no gaps and every client ends
on the server's version."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import psycopg
import pytest
import websockets
from websockets.asyncio.client import connect

from tests.conftest import POSTGRES_ADMIN_URL, auth
from tests.support.databases import log_is_sound
from tests.support.postgres_cluster import own_cluster
from tests.support.rooms import every_view, make_room, play
from tests.support.servers import free_port, server_process
from tests.support.sockets import until_version, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


async def test_games_continue_after_postgres_restarts():
    """Postgres restarted under a running game: the server's pool and relay recover, views are
    unchanged and pushes resume. The cluster is this test's own (tests/support/postgres_cluster.py),
    never the machine's: that one has the same start time afterwards."""
    machine_started = postmaster_start(POSTGRES_ADMIN_URL)
    with own_cluster() as cluster:
        database_url = cluster.url
        with server_process(database_url, free_port()) as (_, base):
            async with httpx.AsyncClient(base_url=base, timeout=20) as client:
                room_id, tokens = await make_room(client, seats=2)
                await play(client, room_id, tokens, 6, random.Random(1))
                url = ws_url(base, room_id, tokens[0])
                async with connect(url, additional_headers={"Origin": base}) as ws:
                    await until_version(ws, 6)
                    before = await every_view(client, room_id, tokens)  # seat 0 shown connected
                    cluster.restart()
                    deadline = time.monotonic() + 30
                    while (await client.get("/healthz")).status_code != 200:
                        assert time.monotonic() < deadline, "the server never recovered"
                        await asyncio.sleep(0.5)
                    assert await every_view(client, room_id, tokens) == before
                    await asyncio.sleep(2)  # the relay's listener reconnects with backoff
                    await play(client, room_id, tokens, 2, random.Random(2))
                    await until_version(ws, 8, timeout=10)
        log_is_sound(database_url, room_id)
        assert postmaster_start(database_url) > machine_started
    assert postmaster_start(POSTGRES_ADMIN_URL) == machine_started, "the machine's Postgres was restarted"


async def test_a_bot_awaited_while_postgres_is_down_moves_once_it_is_back():
    """A bot's turn came while Postgres was stopped: its move failed, and nothing came to poke
    the room again, so the game waited for ever (a host's probe). The bot tries again after the
    outage's Retry-After."""
    with own_cluster() as cluster, server_process(cluster.url, free_port(), BOT_DELAY_SECONDS="2") as (_, base):
        async with httpx.AsyncClient(base_url=base, timeout=20) as client:
            created = (await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})).json()
            room_id, host = created["room"]["id"], auth(created["token"])
            assert (await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=host)).status_code
            await client.post(f"/api/rooms/{room_id}/start", headers=host)
            view = await until_awaited(client, room_id, host)
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=host)).json()
            body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
            moved = await client.post(f"/api/rooms/{room_id}/actions", headers=host, json=body)
            assert moved.status_code == 200 and moved.json()["to_act"] in ([0], [1])
            if moved.json()["to_act"] == [0]:  # (a turn in two steps: the human's second one first)
                legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=host)).json()
                body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
                moved = await client.post(f"/api/rooms/{room_id}/actions", headers=host, json=body)
            assert moved.json()["to_act"] == [1], "the bot is awaited"
            cluster.stop()  # within the bot's 2 s pause: its move meets no database
            await asyncio.sleep(4)
            cluster.start()
            deadline = time.monotonic() + 30
            while True:
                r = await client.get(f"/api/rooms/{room_id}/view")
                if r.status_code == 200 and r.json()["version"] > moved.json()["version"]:
                    break
                assert time.monotonic() < deadline, "the bot never moved after the outage"
                await asyncio.sleep(0.5)
        assert view["version"] < r.json()["version"]


async def until_awaited(client: httpx.AsyncClient, room_id: str, host: dict) -> dict:
    """The host's view once seat 0 is awaited (the bot may have the first turn)."""
    for _ in range(100):
        view = (await client.get(f"/api/rooms/{room_id}/view", headers=host)).json()
        if view["to_act"] == [0]:
            return view
        await asyncio.sleep(0.2)
    raise AssertionError("seat 0 was never awaited")


def postmaster_start(url: str):
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT pg_postmaster_start_time()").fetchone()[0]


async def test_a_dropped_socket_at_any_point_of_a_move_ends_on_the_servers_version(sqlite_url):
    with server_process(sqlite_url, free_port()) as (_, base):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client, seats=2)
            url = ws_url(base, room_id, tokens[0])
            rng = random.Random(5)
            for point in ("before", "during", "after"):
                ws = await connect(url, additional_headers={"Origin": base})
                version = (await client.get(f"/api/rooms/{room_id}")).json()["version"]
                await until_version(ws, version)
                if point == "before":
                    await ws.close()
                    await play(client, room_id, tokens, 1, rng)
                elif point == "during":
                    move = asyncio.create_task(play(client, room_id, tokens, 1, rng))
                    await ws.close()
                    await move
                else:
                    await play(client, room_id, tokens, 1, rng)
                    await until_version(ws, version + 1)
                    await ws.close()
                async with connect(url, additional_headers={"Origin": base}) as again:
                    assert (await until_version(again, version + 1))["version"] == version + 1
            # A move resent after a drop (same idempotency key) lands once.
            seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
            action = legal["legal_actions"][0]["action"]
            body = {"version": legal["version"], "action": action, "idempotency_key": "resend-1"}
            for _ in range(2):
                r = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=body)
                assert r.status_code == 200
            assert (await client.get(f"/api/rooms/{room_id}")).json()["version"] == 4
    log_is_sound(sqlite_url, room_id)


@asynccontextmanager
async def two_instances(database_url: str) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """Clients of two server processes on one database."""
    with (
        server_process(database_url, free_port()) as (_, base_a),
        server_process(database_url, free_port()) as (_, base_b),
    ):
        async with httpx.AsyncClient(base_url=base_a) as a, httpx.AsyncClient(base_url=base_b) as b:
            yield a, b


async def race(clients, room_id: str, tokens: list[str], key: str | None = None) -> tuple[dict, list[httpx.Response]]:
    """The first legal move of the seat to act, sent at once through each client in turn, twice
    (with ``key`` as its idempotency key, if given); the legal actions and the answers."""
    a = clients[0]
    seat = (await a.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    legal = (await a.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"], "idempotency_key": key}
    url = f"/api/rooms/{room_id}/actions"
    answers = await asyncio.gather(*[c.post(url, headers=auth(tokens[seat]), json=body) for c in (*clients, *clients)])
    return legal, list(answers)


async def test_two_instances_racing_one_turn_land_it_once(postgres_url):
    async with two_instances(postgres_url) as (a, b):
        room_id, tokens = await make_room(a, seats=2)
        for round_ in range(5):
            _, results = await race((a, b), room_id, tokens)
            assert sorted(r.status_code for r in results) == [200, 409, 409, 409], round_
        views_a = await every_view(a, room_id, tokens)
        assert views_a == await every_view(b, room_id, tokens) and views_a[0]["version"] == 5
    log_is_sound(postgres_url, room_id)


async def test_two_instances_racing_one_keyed_move_land_it_once_and_both_answer_it(postgres_url):
    """The same keyed move sent at once through two instances, twice to each: it lands once,
    and every sending is answered with its result (the losers find the key used), not 409."""
    async with two_instances(postgres_url) as (a, b):
        room_id, tokens = await make_room(a, seats=2)
        for round_ in range(5):
            legal, results = await race((a, b), room_id, tokens, key=f"race-{round_}")
            assert [r.status_code for r in results] == [200] * 4, [r.text for r in results]
            assert sorted(r.json()["duplicate"] for r in results) == [False, True, True, True], round_
            assert {r.json()["version"] for r in results} == {legal["version"] + 1}
        views_a = await every_view(a, room_id, tokens)
        assert views_a == await every_view(b, room_id, tokens) and views_a[0]["version"] == 5
    log_is_sound(postgres_url, room_id)


async def test_oversized_and_flooding_frames_close_only_that_socket(sqlite_url):
    with server_process(sqlite_url, free_port()) as (_, base):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client, seats=2)
            other_room, other_tokens = await make_room(client, seats=2)
            headers = {"Origin": base}
            async with connect(ws_url(base, other_room, other_tokens[0]), additional_headers=headers) as bystander:
                await until_version(bystander, 0)
                async with connect(ws_url(base, room_id, tokens[0]), additional_headers=headers) as big:
                    await big.send("x" * 10_000)
                    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                        while True:
                            await asyncio.wait_for(big.recv(), 5)
                    assert closed.value.rcvd.code == 1009
                async with connect(ws_url(base, room_id, tokens[1]), additional_headers=headers) as flood:
                    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                        for _ in range(200):
                            await flood.send("ping")
                            await asyncio.sleep(0.001)
                        while True:
                            await asyncio.wait_for(flood.recv(), 5)
                    assert closed.value.rcvd.code == 1008
                await play(client, other_room, other_tokens, 1, random.Random(1))
                assert (await until_version(bystander, 1))["version"] == 1


async def test_two_instances_racing_for_the_last_seats_and_the_start_change_the_room_once(postgres_url):
    """The lobby's changes through two instances at once: each instance holds its own lock of a
    room, so only the database keeps them apart (a seat's row is unique: the later taker of the
    same seat is told "that seat was just taken; try again"). Four players join a room with two
    free seats, two through each instance: two are seated, in different seats, and two refused;
    then the host starts it through both at once: it starts once."""
    async with two_instances(postgres_url) as (a, b):
        for round_ in range(3):
            created = (await a.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})).json()
            room_id, host = created["room"]["id"], created["token"]
            joins = [
                client.post(f"/api/rooms/{room_id}/seats", json={"name": name})
                for client, name in zip((a, b, a, b), ("Bruno", "Carla", "Duarte", "Eva"), strict=True)
            ]
            answers = await asyncio.gather(*joins)
            assert sorted(r.status_code for r in answers) == [201, 201, 409, 409], [r.text for r in answers]
            view = (await b.get(f"/api/rooms/{room_id}/view")).json()
            seated = sorted(s["seat"] for s in view["room"]["seats"] if s["name"])
            assert seated == [0, 1, 2], (round_, view["room"]["seats"])
            starts = await asyncio.gather(*(c.post(f"/api/rooms/{room_id}/start", headers=auth(host)) for c in (a, b)))
            assert sorted(r.status_code for r in starts) == [200, 409], [r.text for r in starts]
            assert (await a.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0
        log_is_sound(postgres_url, room_id)
