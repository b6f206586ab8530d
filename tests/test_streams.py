"""Following a room without a websocket (``app.api.streams``): the long-poll form of GET /view
and the newline-delimited event stream, in process and across two server instances on
Postgres; strict parameters, the per-seat bound, and hidden information in every line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.rooms import make_room, play
from tests.support.servers import free_port, in_process_server, server_process
from tests.support.sockets import Lines, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


def invalid(r: httpx.Response) -> bool:
    """A refused parameter: a client error with the JSON error shape (400, or 422 for FastAPI's
    own validation while the contract's statuses settle)."""
    return r.status_code in (400, 422) and set(r.json()) >= {"error", "message"}


async def last_change(client, room_id: str) -> int:
    """The id of the room's last change, as a view tells it."""
    return (await client.get(f"/api/rooms/{room_id}/view")).json()["change"]


async def test_a_long_poll_answers_when_a_move_lands(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    started = time.monotonic()
    after = await last_change(client, room_id)
    waiting = asyncio.create_task(
        client.get(f"/api/rooms/{room_id}/view", params={"after": after, "wait": 20}, headers=auth(tokens[1]))
    )
    await asyncio.sleep(0.3)
    assert not waiting.done()
    await play_random_moves(client, room_id, tokens, 1)
    r = await asyncio.wait_for(waiting, 10)
    assert r.status_code == 200 and r.json()["version"] == 1 and r.json()["seat"] == 1
    assert r.json()["change"] == after + 1
    assert time.monotonic() - started < 10


async def test_a_long_poll_answers_at_once_when_the_room_is_past_after_and_else_after_wait(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    await play_random_moves(client, room_id, tokens, 2)
    now = await last_change(client, room_id)
    began = time.monotonic()
    r = await client.get(f"/api/rooms/{room_id}/view", params={"after": now - 1, "wait": 30})
    assert r.status_code == 200 and r.json()["version"] == 2 and time.monotonic() - began < 2
    began = time.monotonic()
    r = await client.get(f"/api/rooms/{room_id}/view", params={"after": now, "wait": 1}, headers=auth(tokens[0]))
    waited = time.monotonic() - began
    assert r.status_code == 200 and r.json()["version"] == 2 and r.json()["seat"] == 0
    assert 0.9 <= waited < 5
    # Presence and chat do not answer a view's poll: it waits for the view to change.
    began = time.monotonic()
    waiting = asyncio.create_task(client.get(f"/api/rooms/{room_id}/view", params={"after": now, "wait": 1}))
    await asyncio.sleep(0.2)
    await client.post(f"/api/rooms/{room_id}/chat", json={"text": "hi"}, headers=auth(tokens[1]))
    answered = (await waiting).json()
    assert answered["version"] == 2 and time.monotonic() - began >= 0.9
    assert answered["change"] == now + 1  # the chat line's change: the view reflects it (it has none of it)


async def test_a_long_poll_wakes_on_a_change_of_the_lobby(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    waiting = asyncio.create_task(
        client.get(f"/api/rooms/{room_id}/view", params={"after": 0, "wait": 20}, headers=auth(host))
    )
    await asyncio.sleep(0.3)
    await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})
    view = (await asyncio.wait_for(waiting, 10)).json()
    assert view["status"] == "open" and view["room"]["seats"][1]["name"] == "Bo"


@pytest.mark.parametrize(
    "params",
    [
        {"after": "1.0"},
        {"after": "+1"},
        {"after": "-1"},
        {"after": " 1"},
        {"after": "1e3"},
        {"after": "٣"},
        {"after": "9" * 40},
        {"after": "true"},
        {"after": ""},
        {"after": "0", "wait": "61"},
        {"after": "0", "wait": "1.5"},
        {"after": "0", "wait": "-1"},
        {"after": "0", "wait": "9" * 400},
        {"wait": "5"},
        {"after": "7"},
    ],
)
async def test_long_poll_parameters_are_strict(client, params):
    room_id, tokens = await create_started_room(client, "troika", 3)
    r = await client.get(f"/api/rooms/{room_id}/view", params=params, headers=auth(tokens[0]))
    assert invalid(r), (params, r.status_code, r.text)
    if params.get("after", "0") != "0":  # the stream takes no wait (and would stream on here)
        r = await client.get(f"/api/rooms/{room_id}/stream", params=params, headers=auth(tokens[0]))
        assert invalid(r), (params, r.status_code, r.text)


async def test_a_long_poll_needs_a_room_and_a_token_of_this_room(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    other_id, _ = await create_started_room(client, "troika", 3)
    r = await client.get(f"/api/rooms/{other_id}/view", params={"after": 0, "wait": 1}, headers=auth(tokens[0]))
    assert r.status_code == 403
    for token in (None, tokens[0]):
        headers = auth(token) if token else {}
        r = await client.get("/api/rooms/nosuchroom/view", params={"after": 0, "wait": 1}, headers=headers)
        assert r.status_code == 404, r.text
        r = await client.get("/api/rooms/nosuchroom/stream", headers=headers)
        assert r.status_code == 404, r.text
    r = await client.get(f"/api/rooms/{room_id}/stream", headers=auth(tokens[0]) | {"Authorization": "Basic x"})
    assert r.status_code == 401


async def test_waiting_polls_are_bounded_per_seat(sqlite_url):
    async with running_app(sqlite_url, max_streams_per_seat=1, max_spectators_per_room=1) as client:
        room_id, tokens = await create_started_room(client, "troika", 3)
        now = await last_change(client, room_id)
        for headers in (auth(tokens[0]), {}):
            waiting = asyncio.create_task(
                client.get(f"/api/rooms/{room_id}/view", params={"after": now, "wait": 3}, headers=headers)
            )
            await asyncio.sleep(0.3)
            r = await client.get(f"/api/rooms/{room_id}/view", params={"after": now, "wait": 3}, headers=headers)
            assert r.status_code == 429 and r.json()["error"] == "too_many_streams", r.text
            # Another seat has its own bound; a plain read is not counted.
            assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[1]))).status_code == 200
            assert (await waiting).status_code == 200
        r = await client.get(f"/api/rooms/{room_id}/view", params={"after": now, "wait": 1}, headers=auth(tokens[0]))
        assert r.status_code == 200  # the place is free again


# ---- the stream, on real servers --------------------------------------------------------


async def test_streams_and_polls_follow_moves_made_through_another_instance(postgres_url):
    settings = {"STREAM_KEEPALIVE_SECONDS": "0.5"}
    with (
        server_process(postgres_url, free_port(), **settings) as (_, base_a),
        server_process(postgres_url, free_port(), **settings) as (_, base_b),
    ):
        async with httpx.AsyncClient(base_url=base_a) as a, httpx.AsyncClient(base_url=base_b, timeout=30) as b:
            room_id, tokens = await make_room(a, seats=2)
            url = f"/api/rooms/{room_id}/stream"
            async with b.stream("GET", url, headers=auth(tokens[1])) as response:
                assert response.status_code == 200
                assert response.headers["content-type"].startswith("application/x-ndjson")
                lines = Lines(response)
                first = await lines.next()
                assert first["event"] == "view" and first["version"] == 0 and first["seat"] == 1
                # Its own stream counts as the seat's presence (numbered before the first view).
                assert 1 in first["connected"]
                polled = asyncio.create_task(
                    b.get(
                        f"/api/rooms/{room_id}/view",
                        params={"after": await last_change(b, room_id), "wait": 20},
                        headers=auth(tokens[0]),
                    )
                )
                await asyncio.sleep(0.5)
                assert not polled.done()
                await play(a, room_id, tokens, 1, random.Random(1))
                view = await lines.until(lambda e: e["event"] == "view")
                assert view["version"] == 1
                assert {**view, "event": None, "connected": None, "change": None} == {
                    **(await b.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[1]))).json(),
                    "event": None,
                    "connected": None,
                    "change": None,
                }
                r = await asyncio.wait_for(polled, 10)
                assert r.json()["version"] == 1 and r.json()["seat"] == 0
                seat0 = (await a.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
                assert {**r.json(), "connected": None, "change": None} == {**seat0, "connected": None, "change": None}
                await a.post(f"/api/rooms/{room_id}/chat", json={"text": "hello"}, headers=auth(tokens[0]))
                chat = await lines.until(lambda e: e["event"] == "chat")
                assert [m["text"] for m in chat["messages"]] == ["hello"]
                await asyncio.sleep(1.2)
                assert lines.keepalives >= 1
            # Resumed after the chat line: nothing is sent until the room changes again.
            async with b.stream("GET", url, params={"after": chat["change"]}, headers=auth(tokens[1])) as response:
                lines = Lines(response)
                first = await lines.next()  # its own presence, a change after the chat line
                assert first["event"] == "presence" and first["change"] > chat["change"]
                await play(a, room_id, tokens, 1, random.Random(2))
                assert (await lines.until(lambda e: e["event"] == "view"))["version"] == 2
            # Resumed after an older change: what changed since comes at once, oldest first.
            async with b.stream("GET", url, params={"after": view["change"]}) as response:
                lines = Lines(response)
                assert await lines.next() == chat
                view = await lines.next()
                assert view["event"] == "view" and view["version"] == 2 and view["seat"] is None


async def test_a_stream_ends_with_the_game_and_tells_no_secret_before(sqlite_url):
    fast = {"BOT_DELAY_SECONDS": "0", "BOT_BUDGET_SECONDS": "0.02"}
    with server_process(sqlite_url, free_port(), **fast) as (_, base):
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            r = await client.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"})
            room_id, host = r.json()["room"]["id"], r.json()["token"]
            await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(host))
            url = f"/api/rooms/{room_id}/stream"
            async with client.stream("GET", url, headers=auth(host)) as response:
                lines = Lines(response)
                assert (await lines.next())["status"] == "open"
                await client.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": "random"}, headers=auth(host))
                await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
                events = []
                while not events or events[-1]["event"] != "end":
                    events.append(await lines.next(30))
                assert await lines.ended()
            views = [e for e in events if e["event"] == "view"]
            assert views[-1]["status"] == "finished" and views[-1]["room"]["seed"]
            seed = views[-1]["room"]["seed"]
            # Nothing before the final view tells the seed (presence may come between it and the end).
            final = next(i for i, e in enumerate(events) if e.get("status") == "finished")
            assert final > 0 and all(seed not in json.dumps(e) for e in events[:final])
            end = events[-1]
            assert end == {
                "change": end["change"],
                "event": "end",
                "version": views[-1]["version"],
                "status": "finished",
                "closed_reason": None,
                "outcome": views[-1]["outcome"],
            }
            assert end["change"] >= views[-1]["change"]
            assert [v["version"] for v in views] == sorted(v["version"] for v in views)
            # A stream of a finished room: the final view, what came after it, the end, then it
            # closes; resumed after its final view (which it holds), it sends what came since
            # (presence, as streams closed) and closes.
            async with client.stream("GET", url, params={"after": views[-1]["change"] - 1}) as response:
                lines = Lines(response)
                assert (await lines.next())["version"] == end["version"]
                resumed_end = await lines.until(lambda e: e["event"] == "end")
                assert {**resumed_end, "change": None} == {**end, "change": None}
                assert await lines.ended()
            async with client.stream("GET", url, params={"after": resumed_end["change"]}) as response:
                assert await Lines(response).ended(events_before=True)


# ---- the websocket speaks the same events ------------------------------------------------


async def test_the_json_socket_sends_typed_events_and_a_seat_its_view_once_on_connect(sqlite_url):
    fast = {"bot_delay_seconds": 0.0, "bot_budget_seconds": 0.02}
    async with in_process_server(sqlite_url, **fast) as (base, _), httpx.AsyncClient(base_url=base) as client:
        r = await client.post("/api/rooms", json={"game": "vem-ai-a-troika", "seats": 2, "name": "Ana"})
        room_id, host = r.json()["room"]["id"], r.json()["token"]
        await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(host))
        async with connect(ws_url(base, room_id, host), additional_headers={"Origin": base}) as ws:
            frames = []
            with contextlib.suppress(TimeoutError):
                while True:
                    frames.append(json.loads(await asyncio.wait_for(ws.recv(), 1.0)))
            assert [f["event"] for f in frames] == ["view"], "the view once, its own presence in it"
            assert frames[0]["seat"] == 0 and frames[0]["connected"] == [0]
            await client.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": "random"}, headers=auth(host))
            await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
            events = []
            while not events or events[-1]["event"] != "end":
                events.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
            assert {e["event"] for e in events} <= {"view", "presence", "chat", "end"}
            changes = [frames[0]["change"], *(e["change"] for e in events)]
            assert changes == sorted(changes) and len(set(changes[:-1])) == len(changes) - 1, "numbered, once each"
            last_view = max(i for i, e in enumerate(events) if e["event"] == "view")
            final = events[last_view]
            assert final["status"] == "finished"
            assert {e["event"] for e in events[last_view + 1 : -1]} <= {"presence"}, "only presence between"
            assert events[-1] == {
                "change": max(final["change"], events[-1]["change"]),  # the batch's last change
                "event": "end",
                "version": final["version"],
                "status": "finished",
                "closed_reason": None,
                "outcome": final["outcome"],
            }
            # the seed is shown from the first finished view on, never before (a change of the
            # room's facts after the end comes as a second finished view)
            ended = min(i for i, e in enumerate(events) if e["event"] == "view" and e["status"] == "finished")
            assert all(final["room"]["seed"] not in json.dumps(e) for e in events[:ended]), [
                (e["event"], e.get("version"), e.get("status")) for e in events
            ]


def test_streams_are_bounded_per_seat_and_a_closed_one_frees_its_place(sqlite_url):
    with (
        server_process(sqlite_url, free_port(), MAX_STREAMS_PER_SEAT="1") as (_, base),
        httpx.Client(base_url=base, timeout=10) as client,
    ):
        created = client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}).json()
        room_id, host = created["room"]["id"], created["token"]
        url = f"/api/rooms/{room_id}/stream"
        with client.stream("GET", url, headers=auth(host)) as first:
            lines = first.iter_lines()  # held: dropping it would close the stream
            assert json.loads(next(lines))["event"] == "view"
            with httpx.Client(base_url=base, timeout=10) as other:
                r = other.get(url, headers=auth(host))
                assert r.status_code == 429 and r.json()["error"] == "too_many_streams"
                r = other.get(f"/api/rooms/{room_id}/view", params={"after": 0, "wait": 1}, headers=auth(host))
                assert r.status_code == 429, "a waiting poll shares the seat's bound"
                assert other.get(f"/api/rooms/{room_id}/view").json()["connected"] == [0]
        # The server notices the client left: its place and its presence are freed.
        for _ in range(50):
            if client.get(f"/api/rooms/{room_id}/view").json()["connected"] == []:
                break
            time.sleep(0.1)
        assert client.get(f"/api/rooms/{room_id}/view").json()["connected"] == []
        with client.stream("GET", url, headers=auth(host)) as again:
            assert again.status_code == 200
