"""Several server instances on one Postgres: a move made through one instance reaches the
sockets held by another at once (LISTEN/NOTIFY), also after the relay's connections to the
database are cut and re-established."""

from __future__ import annotations

import asyncio
import random

import httpx
import psycopg
from websockets.asyncio.client import connect

from tests.conftest import auth
from tests.servers import free_port, server_process
from tests.test_live_server import make_room, play, until_version, ws_url


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
    with server_process(postgres_url, free_port()) as (_, base_a), server_process(
        postgres_url, free_port()
    ) as (_, base_b):
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
                    while 0 not in (await until_version(ws, 3))["connected"]:
                        pass
            view_a = (await a.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
            view_b = (await b.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
            # Presence reaches the other instance through the relay, a moment later: not compared.
            assert {**view_a, "connected": None} == {**view_b, "connected": None}
