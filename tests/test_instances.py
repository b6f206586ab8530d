"""Several server instances on one Postgres: they can start at once on a new database (the
migrations run under an advisory lock), and a move made through one instance reaches the
sockets held by another at once (LISTEN/NOTIFY), also after the relay's connections to the
database are cut and re-established."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import ExitStack

import httpx
import psycopg
import pytest
from websockets.asyncio.client import connect

from app.config import to_driver_url
from app.db.engine import migrate
from app.realtime.bus import EventBus
from app.realtime.pg_relay import PostgresRelay
from tests.conftest import auth
from tests.support.rooms import make_room, play
from tests.support.servers import free_port, server_process
from tests.support.sockets import next_event, until_version, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


def cut_relay_connections(database_url: str) -> int:
    """Terminate every LISTEN and NOTIFY connection of the servers (as a Postgres restart would)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND (query LIKE 'LISTEN%%' OR query LIKE 'SELECT pg_notify%%')"
        ).fetchall()
    return len(rows)


async def test_a_move_through_one_instance_reaches_sockets_on_the_other(postgres_url):
    with (
        server_process(postgres_url, free_port()) as (_, base_a),
        server_process(postgres_url, free_port()) as (_, base_b),
    ):
        async with httpx.AsyncClient(base_url=base_a) as a, httpx.AsyncClient(base_url=base_b) as b:
            room_id, tokens = await make_room(a, seats=2)
            url = ws_url(base_b, room_id, tokens[1])
            async with connect(url, additional_headers={"Origin": base_b}) as ws:
                await until_version(ws, 0)
                await play(a, room_id, tokens, 1, random.Random(1))
                await until_version(ws, 1)
                # Both instances serve the same room: moves through B land on the same log.
                await play(b, room_id, tokens, 1, random.Random(2))
                await until_version(ws, 2)
                assert (await a.get(f"/api/rooms/{room_id}/view")).json()["version"] == 2

                assert cut_relay_connections(postgres_url) >= 1
                await asyncio.sleep(1.5)  # the relays reconnect with backoff, then resync
                await play(a, room_id, tokens, 1, random.Random(3))
                await until_version(ws, 3)
                # Presence changes travel too: a seat connecting on A shows up on B's sockets.
                async with connect(ws_url(base_a, room_id, tokens[0]), additional_headers={"Origin": base_a}):
                    while 0 not in (await next_event(ws, "presence"))["connected"]:
                        pass
            view_a = (await a.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
            view_b = (await b.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
            # Presence reaches the other instance through the relay, a moment later: not compared.
            # presence, and the change id it moves, may differ between the instances for a moment
            assert {**view_a, "connected": None, "change": None} == {**view_b, "connected": None, "change": None}


def migrate_when_all_are_ready(url: str, ready) -> str:
    ready.wait()
    migrate(url)
    return "migrated"


def test_migrations_started_at_the_same_moment_on_a_new_database_all_succeed(fresh_postgres_url):
    """Three processes, their imports done, migrate one empty database at the same moment."""
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(3, mp_context=context) as pool:
        ready = manager.Barrier(3)
        url = to_driver_url(fresh_postgres_url, sync=True)
        runs = [pool.submit(migrate_when_all_are_ready, url, ready) for _ in range(3)]
        assert [run.result(timeout=120) for run in runs] == ["migrated"] * 3


async def test_instances_started_at_once_on_a_new_database_both_serve(fresh_postgres_url):
    """Two server processes launched together race to migrate the same empty database; the
    advisory lock lets one migrate while the other waits, then finds the schema current."""
    with ExitStack() as stack, ThreadPoolExecutor(2) as pool:
        launches = [server_process(fresh_postgres_url, free_port()) for _ in range(2)]
        bases = [base for _, base in pool.map(stack.enter_context, launches)]
        for base in bases:
            async with httpx.AsyncClient(base_url=base) as client:
                room_id, tokens = await make_room(client, seats=2)
                await play(client, room_id, tokens, 1, random.Random(4))
                assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 1


async def test_a_burst_of_events_goes_out_in_few_statements_and_arrives_whole_and_in_order(postgres_url):
    """The relay sends every event waiting in one statement; another instance's relay
    delivers each of them, in the order they were published."""
    sending, receiving = EventBus(), EventBus()
    heard: list[tuple[str, int]] = []
    receiving.add_listener(lambda room, version: heard.append((room, version)))
    sender, listener = PostgresRelay(postgres_url, sending), PostgresRelay(postgres_url, receiving)
    await sender.start()
    await listener.start()
    statements = 0
    batch = sender.waiting

    async def counted() -> list[str]:
        nonlocal statements
        statements += 1
        return await batch()

    sender.waiting = counted  # type: ignore[method-assign]
    try:
        sending.relay = sender
        for version in range(1, 201):
            await sending.publish("burst", version)
        for _ in range(100):
            if len(heard) == 200:
                break
            await asyncio.sleep(0.05)
        assert heard == [("burst", version) for version in range(1, 201)]
        assert statements < 200, "the waiting events shared statements"
    finally:
        await sender.stop()
        await listener.stop()
