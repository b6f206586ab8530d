"""GET /metrics, as an operator's Prometheus scrapes it: absent unless METRICS_TOKEN is set, then
only for that bearer token; in the Prometheus text format, with the rooms by status and game,
the live sockets and streams, moves counted, each move's latency up to its sockets' sends, 503s
and database failures, and bots' thinking time. Counted on a real server with real sockets."""

from __future__ import annotations

import asyncio
import random
import time

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from app.db import faults
from app.realtime.caps import SocketCaps
from app.realtime.metrics import Metrics
from tests.conftest import auth, create_started_room, running_app
from tests.support.databases import disk_full_error
from tests.support.rooms import make_room, play
from tests.support.servers import free_port, server_process
from tests.support.sockets import until_version, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

TOKEN = "scrape-me-0123456789"


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of a scrape, by name and labels."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(scrape: dict, name: str, **labels: str) -> float:
    return scrape.get((name, frozenset(labels.items())), 0.0)


async def test_metrics_are_absent_without_a_token(sqlite_url):
    async with running_app(sqlite_url) as client:
        for headers in ({}, auth("")):
            r = await client.get("/metrics", headers=headers)
            assert r.status_code == 404 and r.json()["error"] == "not_found"
        assert "/metrics" not in (await client.get("/openapi.json")).text


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        f"Basic {TOKEN}",
        f"Bearer {TOKEN}x",
        f"Bearer {TOKEN[:-1]}",
        "Bearer wrong",
        "x" * 5000,
    ],
)
async def test_metrics_answer_only_their_bearer_token(sqlite_url, header):
    async with running_app(sqlite_url, metrics_token=TOKEN) as client:
        r = await client.get("/metrics", headers={} if header is None else {"Authorization": header})
        assert r.status_code == 401 and r.json()["error"] == "unauthorized"
        assert r.headers["www-authenticate"] == "Bearer"
        assert "troika_" not in r.text


async def test_the_scrape_counts_503s_and_database_failures(sqlite_url, tmp_path, monkeypatch):
    full = disk_full_error(tmp_path)

    def no_space(*_args, **_kwargs):
        raise full

    async with running_app(sqlite_url, metrics_token=TOKEN) as client:
        await create_started_room(client, seats=2)
        before = samples((await client.get("/metrics", headers=auth(TOKEN))).text)
        # inside on purpose: an outage is simulated by making the read session factory raise a full disk's error
        monkeypatch.setattr(client.app.state.rooms.db, "read", no_space)
        for _ in range(3):
            assert (await client.get("/api/rooms?status=open")).status_code == 503
        monkeypatch.undo()
        r = await client.get("/metrics", headers=auth(TOKEN))
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain; version=")
        after = samples(r.text)
        assert (
            value(after, "troika_unavailable_responses_total") - value(before, "troika_unavailable_responses_total")
            == 3
        )
        assert value(after, "troika_database_errors_total") - value(before, "troika_database_errors_total") == 3
        assert value(after, "troika_rooms", status="playing", game="troika") == 1
        assert faults.OUTAGES.count >= 3


async def test_a_real_server_counts_rooms_sockets_streams_moves_latency_and_bot_thinking(sqlite_url):
    with server_process(sqlite_url, free_port(), METRICS_TOKEN=TOKEN, BOT_DELAY_SECONDS="0") as (_, base):
        async with httpx.AsyncClient(base_url=base, timeout=20) as client:
            room_id, tokens = await make_room(client, seats=2)
            await client.post("/api/rooms", json={"game": "triatri", "seats": 3, "name": "Rui"})  # stays open
            headers = {"Origin": base}
            async with (
                connect(ws_url(base, room_id, tokens[0]), additional_headers=headers) as ana,
                connect(ws_url(base, room_id, None, fmt="html"), additional_headers=headers) as watcher,
                client.stream("GET", f"/api/rooms/{room_id}/stream", headers=auth(tokens[1])) as stream,
            ):
                assert stream.status_code == 200
                await until_version(ana, 0)
                await watcher.recv()
                await play(client, room_id, tokens, 5, random.Random(3))
                await until_version(ana, 5)
                for _ in range(5):
                    await watcher.recv()
                scrape = samples((await client.get("/metrics", headers=auth(TOKEN))).text)
                assert value(scrape, "troika_sockets") == 2 and value(scrape, "troika_streams") == 1
            assert value(scrape, "troika_moves_total", game="troika") == 5
            assert value(scrape, "troika_move_latency_seconds_count") == 5  # each ended at its last socket's send
            assert 0 < value(scrape, "troika_move_latency_seconds_sum") < 5
            assert value(scrape, "troika_rooms", status="playing", game="troika") == 1
            assert value(scrape, "troika_rooms", status="open", game="triatri") == 1

            bot_room = (await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Eva"})).json()
            host = auth(bot_room["token"])
            bot_id = bot_room["room"]["id"]
            assert (
                await client.post(f"/api/rooms/{bot_id}/seats", json={"bot": "random"}, headers=host)
            ).status_code == 201
            assert (await client.post(f"/api/rooms/{bot_id}/start", headers=host)).status_code == 200
            for _ in range(100):  # the host's first move (if it is theirs), then the bot answers
                view = (await client.get(f"/api/rooms/{bot_id}/view")).json()
                if 0 in view["to_act"]:
                    await play(client, bot_id, [bot_room["token"], ""], 1, random.Random(4))
                scrape = samples((await client.get("/metrics", headers=auth(TOKEN))).text)
                if value(scrape, "troika_bot_thinking_seconds_count", game="troika") >= 1:
                    break
                await asyncio.sleep(0.1)
            assert value(scrape, "troika_bot_thinking_seconds_count", game="troika") >= 1
            assert value(scrape, "troika_sockets") == 0 and value(scrape, "troika_streams") == 0


def test_a_moves_latency_ends_at_its_rooms_last_socket_and_a_lost_socket_times_nothing(monkeypatch):
    sockets, streams = SocketCaps(8, 8), SocketCaps(8, 8, "streams")
    metrics = Metrics(sockets, streams)
    now = [100.0]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])  # inside on purpose: latencies timed on a set clock

    def timed() -> list[float]:
        return [s.value for s in metrics.latency.collect()[0].samples if s.name.endswith(("_count", "_sum"))]

    with sockets.admit("r", 0) as refused, sockets.admit("r", None):
        assert refused is None and sockets.in_room("r") == 2 and sockets.total() == 2
        metrics.moved("troika", "r", 1)
        now[0] += 0.25
        metrics.sent("r", 1)
        assert timed() == [0.0, 0.0]  # one of the two sockets still to send
        metrics.sent("r", 1)
        assert timed() == [1.0, 0.25]
        metrics.moved("troika", "r", 2)
        metrics.moved("troika", "r", 3)
        now[0] += 0.5
        metrics.sent("r", 3)  # each socket sends the newest view once: it covers both moves
        metrics.sent("r", 3)
        assert timed() == [3.0, 1.25]
        metrics.moved("troika", "r", 4)
        metrics.sent("r", 4)  # the other socket goes before sending
        now[0] += 61
        metrics.moved("troika", "r", 5)  # version 4 is dropped, never timed
        metrics.sent("r", 5)
        metrics.sent("r", 5)
        assert timed() == [4.0, 1.25]
    metrics.moved("troika", "s", 1)  # nobody watches: timed when applied
    assert timed() == [5.0, 1.25] and sockets.total() == 0
