"""Lobby hygiene (issue 28, point 6): a game with no move for ROOM_IDLE_HOURS is closed as
abandoned (it leaves the lobby and can still be replayed, its record verified), a waiting room
expires the same way, the host can close a room (API and form) and everyone following it is
told why (page, socket, stream), and a full waiting room shows "full" instead of "Join". The
new status and its reason come with a migration that marks the rooms closed before it."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta

import httpx
import orjson
import pytest
from sqlalchemy import text
from websockets.asyncio.client import connect

from app.db.engine import migrate
from app.db.models import utcnow
from app.rooms import storage
from app.rooms.records import verify_record
from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.databases import BACKENDS, database_at, insert_room
from tests.support.servers import in_process_server
from tests.support.sockets import ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

HTML = {"accept": "text/html"}


async def age(client, room_id: str, hours: float) -> None:
    """Make the room's last change ``hours`` old, as if nothing had happened since."""
    # Inside on purpose: no public call ages a room, and the idle time is a day.
    async with client.app.state.rooms.db.write() as session:
        await session.exec(
            text("UPDATE rooms SET updated_at = :at WHERE id = :id").bindparams(
                at=utcnow() - timedelta(hours=hours), id=room_id
            )
        )
        await session.commit()
    client.app.state.rooms.forget(room_id)


async def open_room(client, seats: int = 3, name: str = "Ana") -> tuple[str, str]:
    created = (await client.post("/api/rooms", json={"game": "troika", "seats": seats, "name": name})).json()
    return created["room"]["id"], created["token"]


async def lobby_html(client) -> str:
    return (await client.get("/", headers=HTML)).text


async def test_a_game_with_no_move_for_the_idle_hours_is_abandoned_and_stays_replayable(client):
    room, tokens = await create_started_room(client, "triatri", 2)
    view = await play_random_moves(client, room, tokens, 6, random.Random(3), avoid=())
    version, mover = view["version"], view["to_act"][0]
    legal = (await client.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[mover]))).json()
    fresh, _ = await create_started_room(client, "triatri", 2)
    recent, _ = await create_started_room(client, "triatri", 2)
    await age(client, room, 24.01)
    await age(client, recent, 23.9)  # not yet: the boundary is the idle time itself
    assert room in await lobby_html(client)
    # (the idle closer's pass is run now, rather than waited for on its own timer)
    assert await client.app.state.idle.close_idle() == [room]
    facts = (await client.get(f"/api/rooms/{room}")).json()
    assert facts["status"] == "abandoned" and facts["closed_reason"] == "idle" and facts["version"] == version
    assert facts["seed"] is not None  # the game is over: its seed is revealed, as at a finished game's end
    for other in (fresh, recent):
        assert (await client.get(f"/api/rooms/{other}")).json()["status"] == "playing"
    page = await lobby_html(client)
    assert room not in page and fresh in page
    assert room not in [r["id"] for r in (await client.get("/api/rooms?status=playing")).json()]
    assert [r["id"] for r in (await client.get("/api/rooms?status=abandoned")).json()] == [room]
    # nobody is awaited any more, no move is offered, and none lands
    seat_view = (await client.get(f"/api/rooms/{room}/view", headers=auth(tokens[0]))).json()
    assert seat_view["to_act"] == [] and seat_view["legal_actions"] == [] and not seat_view["your_turn"]
    move = {"version": version, "action": legal["legal_actions"][0]["action"]}
    r = await client.post(f"/api/rooms/{room}/actions", json=move, headers=auth(tokens[mover]))
    assert r.status_code == 409 and "over" in r.json()["message"]
    # the page says why; the record and the replay stay
    seat_page = (await client.get(f"/rooms/{room}/seat/{tokens[0]}", headers=HTML)).text
    assert "closed as abandoned: nobody moved for too long" in seat_page and 'data-status="abandoned"' in seat_page
    assert "Watch the replay" in seat_page
    record = (await client.get(f"/api/rooms/{room}/record")).json()
    assert record["status"] == "abandoned" and record["outcome"] is None and len(record["actions"]) == version
    assert verify_record(record).outcome is None
    replay = await client.get(f"/rooms/{room}/replay?step={version}", headers=HTML)
    assert replay.status_code == 200
    uploaded = await client.post(
        "/replay", files={"record": ("r.json", json.dumps(record).encode(), "application/json")}, headers=HTML
    )
    assert uploaded.status_code == 303
    # an abandoned record that claims more, or a finished one cut short, does not verify
    finished_claim = {**record, "status": "finished"}
    r = await client.post("/replay", files={"record": ("r.json", json.dumps(finished_claim).encode())}, headers=HTML)
    assert r.status_code == 400 and "do not finish the game" in r.text
    r = await client.post(
        "/replay", files={"record": ("r.json", json.dumps({**record, "status": "won"}).encode())}, headers=HTML
    )
    assert r.status_code == 400 and "finished or abandoned" in r.text
    assert await client.app.state.idle.close_idle() == []  # closed once


async def test_a_waiting_room_expires_the_same_way(client):
    room, _ = await open_room(client)
    kept, _ = await open_room(client)
    await age(client, room, 25)
    assert room in await lobby_html(client)
    assert await client.app.state.idle.close_idle() == [room]
    facts = (await client.get(f"/api/rooms/{room}")).json()
    assert facts["status"] == "closed" and facts["closed_reason"] == "idle" and facts["seed"] is None
    page = await lobby_html(client)
    assert room not in page and kept in page
    r = await client.post(f"/api/rooms/{room}/seats", json={"name": "Late"})
    assert r.status_code == 409
    spectator = (await client.get(f"/rooms/{room}", headers=HTML)).text
    assert "it waited too long with nothing happening" in spectator and "Take a seat<" not in spectator


async def test_the_idle_rooms_close_by_themselves_and_never_with_zero_hours(sqlite_url):
    async with running_app(sqlite_url, room_idle_hours=0.0004) as client:  # 1.44 s; looked at every second
        room, _ = await open_room(client)
        for _ in range(100):
            if (await client.get(f"/api/rooms/{room}")).json()["status"] == "closed":
                break
            await asyncio.sleep(0.1)
        assert (await client.get(f"/api/rooms/{room}")).json()["closed_reason"] == "idle"
    async with running_app(sqlite_url, room_idle_hours=0) as client:
        room, _ = await open_room(client)
        await age(client, room, 10_000)
        assert await client.app.state.idle.close_idle() == []
        assert (await client.get(f"/api/rooms/{room}")).json()["status"] == "open"


async def test_a_move_landing_first_keeps_its_room_and_a_closed_game_takes_no_move(client):
    """The close writes only if the room is as it was read; a move's write only while the game
    is in play (two instances: each may hold a stale copy)."""
    room, tokens = await create_started_room(client, "triatri", 2)
    rooms = client.app.state.rooms
    stale = await rooms.room(room)
    await play_random_moves(client, room, tokens, 1, random.Random(1), avoid=())
    async with rooms.db.write() as session:
        assert not await storage.close_room(session, stale, "abandoned", "idle")  # a move landed since
    info = await rooms.room(room)
    async with rooms.db.write() as session:
        assert await storage.close_room(session, info, "abandoned", "host")
    rooms.forget(room)
    seen = info.version
    assert not await storage.write_move(rooms.db, room, 0, {"type": "x"}, seen, "playing", seen, None, utcnow())
    facts = (await client.get(f"/api/rooms/{room}")).json()
    assert facts["status"] == "abandoned" and facts["version"] == info.version


async def read_until_end(ws) -> dict:
    while True:
        event = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
        if event["event"] == "end":
            return event


async def test_the_host_closes_a_game_and_every_socket_and_stream_is_told_why(sqlite_url):
    async with in_process_server(sqlite_url) as (base, _), httpx.AsyncClient(base_url=base) as client:
        room, tokens = await create_started_room(client, "troika", 3)
        origin = {"Origin": base}
        async with (
            connect(ws_url(base, room, tokens[1]), additional_headers=origin) as seat_ws,
            connect(ws_url(base, room, None), additional_headers=origin) as spectator_ws,
            client.stream("GET", f"/api/rooms/{room}/stream", headers=auth(tokens[2])) as stream,
        ):
            lines = stream.aiter_lines()
            assert json.loads(await anext(lines))["event"] == "view"
            for refused, token in ((403, tokens[1]), (401, None)):
                r = await client.post(f"/api/rooms/{room}/close", headers=auth(token) if token else {})
                assert r.status_code == refused
            r = await client.post(f"/api/rooms/{room}/close", headers=auth(tokens[0]))
            assert r.status_code == 200 and r.json() == {"status": "abandoned", "closed_reason": "host"}
            for ws in (seat_ws, spectator_ws):
                end = await read_until_end(ws)
                assert end["status"] == "abandoned" and end["closed_reason"] == "host"
            while (event := json.loads(await anext(lines)))["event"] != "end":
                pass
            assert event["status"] == "abandoned" and event["closed_reason"] == "host"
        again = await client.post(f"/api/rooms/{room}/close", headers=auth(tokens[0]))
        assert again.status_code == 409
        assert (await client.post("/api/rooms/nosuchroom/close", headers=auth(tokens[0]))).status_code == 404
        page = (await client.get(f"/rooms/{room}/seat/{tokens[1]}", headers=HTML)).text
        assert "The host closed this game before its end." in page and "It can still be replayed." in page


async def test_the_host_closes_a_waiting_room_from_its_page(client):
    created = await client.post("/rooms", data={"game": "troika", "seats": "3", "name": "Ana"}, headers=HTML)
    host = created.headers["location"]
    room = host.split("/")[2]
    joined = await client.post(f"/rooms/{room}/join", data={"name": "Bo"}, headers=HTML)
    guest = joined.headers["location"]
    host_page = (await client.get(host, headers=HTML)).text
    assert 'id="close-room"' in host_page and f'hx-post="/rooms/{room}/seat/' in host_page
    assert 'id="close-room"' not in (await client.get(guest, headers=HTML)).text  # only the host's page offers it
    refused = await client.post(guest + "/close", headers=HTML)
    assert "Only the host can close the room." in refused.text
    assert (await client.get(f"/api/rooms/{room}")).json()["status"] == "open"
    closed = await client.post(host + "/close", headers=HTML)
    assert closed.status_code == 200 and 'data-status="closed"' in closed.text
    assert "The host closed this room." in closed.text
    assert "The host closed this room." in (await client.get(guest, headers=HTML)).text
    facts = (await client.get(f"/api/rooms/{room}")).json()
    assert facts["status"] == "closed" and facts["closed_reason"] == "host"
    assert room not in await lobby_html(client)


async def test_everyone_leaving_is_the_reason_of_a_room_closed_so(client):
    room, token = await open_room(client)
    assert (await client.delete(f"/api/rooms/{room}/seats/me", headers=auth(token))).status_code == 200
    facts = (await client.get(f"/api/rooms/{room}")).json()
    assert facts["status"] == "closed" and facts["closed_reason"] == "left"
    assert "This room was closed: everyone left." in (await client.get(f"/rooms/{room}", headers=HTML)).text


async def test_a_full_waiting_room_shows_full_instead_of_join(client):
    full, host = await open_room(client, seats=2, name="Ana")
    await client.post(f"/api/rooms/{full}/seats", json={"name": "Bo"})
    waiting, _ = await open_room(client, seats=3, name="Eva")
    fragment = (await client.get("/lobby/rooms", headers=HTML)).text
    rows = {room: row for row in fragment.split("<li>")[1:] for room in (full, waiting) if f"/rooms/{room}" in row}
    assert ">full<" in rows[full] and "Join" not in rows[full]
    assert "Join" in rows[waiting] and ">full<" not in rows[waiting]
    await client.delete(f"/api/rooms/{full}/seats/1", headers=auth(host))  # not a bot: nothing freed
    await client.post(f"/api/rooms/{full}/seats", json={"name": "Cy"})
    assert ">full<" in (await client.get("/lobby/rooms", headers=HTML)).text


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_migration_marks_the_rooms_closed_before_it_as_left(request, backend, sqlite_url):
    sync_url, engine = database_at(request, backend, sqlite_url, "0008")
    with engine.begin() as conn:
        for room_id, status in (("gone", "closed"), ("waits", "open"), ("done", "finished")):
            insert_room(conn, room_id, status)
    migrate(sync_url)
    with engine.begin() as conn:
        reasons = dict(conn.execute(text("SELECT id, closed_reason FROM rooms")).all())
    engine.dispose()
    assert reasons == {"gone": "left", "waits": None, "done": None}
