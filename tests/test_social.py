"""Chat and presence: chat is for players, length- and rate-limited, escaped, and kept with the
room across restarts; presence shows which seats have a socket open, live."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest
from websockets.asyncio.client import connect

import app.rooms.social as social_module
from app.db.models import Presence, utcnow
from app.realtime.bus import SOCIAL
from app.rooms.social import STALE_AFTER
from tests.conftest import auth, create_started_room, running_app
from tests.support.rooms import make_room
from tests.support.servers import free_port, server_process
from tests.support.sockets import next_event, until_version, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


async def test_chat_is_for_players_limited_escaped_and_kept(sqlite_url):
    async with running_app(sqlite_url) as client:
        room_id, tokens = await create_started_room(client, "troika", 2)
        url = f"/api/rooms/{room_id}/chat"
        assert (await client.post(url, json={"text": "hi"})).status_code == 401
        assert (await client.post(url, json={"text": "x" * 301}, headers=auth(tokens[0]))).status_code == 400
        assert (await client.post(url, json={"text": "   "}, headers=auth(tokens[0]))).status_code == 400
        r = await client.post(url, json={"text": "<img src=x onerror=alert(1)>"}, headers=auth(tokens[1]))
        assert r.status_code == 201
        page = (await client.get(f"/rooms/{room_id}", headers={"accept": "text/html"})).text
        assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
        codes = [
            (await client.post(url, json={"text": f"m{i}"}, headers=auth(tokens[0]))).status_code for i in range(6)
        ]
        assert codes == [201] * 5 + [429]
        r = await client.post(url, json={"text": "still here"}, headers=auth(tokens[1]))
        assert r.status_code == 201, "one seat's flood does not silence another"
    async with running_app(sqlite_url) as client:
        messages = (await client.get(f"/api/rooms/{room_id}/chat")).json()["messages"]
        assert [m["text"] for m in messages][-2:] == ["m4", "still here"]
        assert messages[0]["name"] == "Bruno" and len(messages) == 7


async def test_presence_shows_open_seat_sockets_live(sqlite_url):
    with server_process(sqlite_url, free_port()) as (_, base):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client)
            headers = {"Origin": base}
            async with connect(ws_url(base, room_id, None), additional_headers=headers) as watcher:
                assert (await until_version(watcher, 0))["connected"] == []
                async with connect(ws_url(base, room_id, tokens[1]), additional_headers=headers):
                    came = await next_event(watcher, "presence")
                    assert {**came, "change": None} == {"change": None, "event": "presence", "connected": [1]}
                went = await next_event(watcher, "presence")
                assert went == {"change": came["change"] + 1, "event": "presence", "connected": []}
            page = (await client.get(f"/rooms/{room_id}")).text
            assert 'class="away"' in page and 'class="online"' not in page


async def test_a_stopped_instances_seat_shows_away_after_the_heartbeat(sqlite_url, monkeypatch):
    """Presence is cached until a presence event; rows of an instance that stopped beating go
    stale without one, so the next heartbeat publishes it."""
    async with running_app(sqlite_url) as client:
        room_id, _ = await create_started_room(client, "troika", 2)
        social = client.app.state.social
        async with social.db.write() as session:  # a socket held by an instance that then crashed
            session.add(
                Presence(
                    room_id=room_id,
                    seat=1,
                    instance="crashed",
                    sockets=1,
                    seen_at=utcnow() - STALE_AFTER + timedelta(seconds=1),
                )
            )
            await session.commit()
        await social.bus.publish(room_id, SOCIAL)  # as its relayed event did
        assert await social.present(room_id) == {1}
        later = utcnow() + timedelta(seconds=2)
        monkeypatch.setattr(social_module, "utcnow", lambda: later)
        assert await social.present(room_id) == {1}, "no event yet: the cached presence stands"
        await social.beat()
        assert await social.present(room_id) == set(), "the beat told the room its seat went stale"
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        assert view["connected"] == []


async def test_the_heartbeat_outlives_a_failed_beat(sqlite_url, monkeypatch):
    async with running_app(sqlite_url) as client:
        social = client.app.state.social
        beats = []

        async def beat():
            beats.append(len(beats))
            if len(beats) == 1:
                raise ConnectionError("the database is restarting")

        monkeypatch.setattr(social, "beat", beat)
        monkeypatch.setattr(social_module, "HEARTBEAT", 0.01)
        task = asyncio.create_task(social.heartbeat_forever())
        await asyncio.sleep(0.1)
        task.cancel()
        assert len(beats) >= 3, "the heartbeat stopped at the failed beat"
