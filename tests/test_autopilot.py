"""Autopilot is for absent players: the host hands another player's seat to a bot only once that
player has had no socket open (nor joined, moved or read their view) for the grace period, or when their turn
time has run out; otherwise 409. A player may always hand their own seat over."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from websockets.asyncio.client import connect

from app.rooms import social
from tests.conftest import auth, create_started_room, running_app
from tests.support.rooms import backdate_turn, make_room
from tests.support.servers import free_port, server_process
from tests.support.sockets import until_version, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

GRACE = 2.0


async def test_a_connected_player_keeps_their_seat_until_away_past_the_grace(sqlite_url):
    settings = {"AUTOPILOT_GRACE_SECONDS": str(GRACE), "BOT_DELAY_SECONDS": "30"}
    with server_process(sqlite_url, free_port(), **settings) as (_, base):
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, tokens = await make_room(client, seats=3)
            await asyncio.sleep(GRACE)  # every seat joined longer ago than the grace
            takeover = f"/api/rooms/{room_id}/seats/1/autopilot"
            async with connect(ws_url(base, room_id, tokens[1]), additional_headers={"Origin": base}) as ws:
                await until_version(ws, 0)
                r = await client.put(takeover, json={"bot": "random"}, headers=auth(tokens[0]))
                assert r.status_code == 409, r.text
                assert "only they can hand their seat to a bot" in r.json()["message"]
                assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][1]["bot"] is None
            r = await client.put(takeover, json={"bot": "random"}, headers=auth(tokens[0]))
            assert r.status_code == 409, "just gone: still within the grace"
            await asyncio.sleep(GRACE)
            r = await client.put(takeover, json={"bot": "random"}, headers=auth(tokens[0]))
            assert r.status_code == 200, r.text
            assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][1]["bot"] == "random"
            async with connect(ws_url(base, room_id, tokens[2]), additional_headers={"Origin": base}) as ws:
                await until_version(ws, 0)
                own = f"/api/rooms/{room_id}/seats/me/autopilot"
                r = await client.put(own, json={"bot": "strong"}, headers=auth(tokens[2]))
                assert r.status_code == 200, "a connected player hands their own seat over"
                assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][2]["bot"] == "strong"


async def test_a_seat_whose_turn_time_ran_out_may_be_handed_over_at_once(sqlite_url):
    async with running_app(sqlite_url, bot_delay_seconds=30.0) as client:  # default grace: 60 s
        room_id, tokens = await create_started_room(client, "troika", 3, turn_timer=60)
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        while view["to_act"] == [0]:  # let the host move until another seat is awaited
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[0]))).json()
            move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
            view = (await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[0]), json=move)).json()
        awaited = view["to_act"][0]
        idle = 3 - awaited
        urls = {seat: f"/api/rooms/{room_id}/seats/{seat}/autopilot" for seat in (awaited, idle)}
        for seat in (awaited, idle):
            r = await client.put(urls[seat], json={"bot": "random"}, headers=auth(tokens[0]))
            assert r.status_code == 409, "joined within the grace, turn time left"
        await backdate_turn(client, room_id, 61)
        r = await client.put(urls[idle], json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 409, "not awaited: its time has not run out"
        r = await client.put(urls[awaited], json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text


@pytest.mark.parametrize("read", ["/view", "/events?after=0&wait=1"])
async def test_a_player_who_only_polls_is_not_absent(sqlite_url, monkeypatch, read):
    """A client that follows the room by polling (no socket or stream) shows no connection, but
    its reads are signs of life: the host may not hand its seat over within the grace of its
    last read (a 63-second poll loop was taken for absent), and may once it stops reading."""
    monkeypatch.setattr(social, "POLL_NOTED_EVERY", 0.2)  # (noted at most this often: 10 s)
    async with running_app(sqlite_url, autopilot_grace_seconds=1.0, bot_delay_seconds=30.0) as client:
        room_id, tokens = await create_started_room(client, "troika", 3)
        await asyncio.sleep(1.1)  # every seat joined longer ago than the grace
        for _ in range(3):  # seat 1 polls on past the grace
            assert (await client.get(f"/api/rooms/{room_id}{read}", headers=auth(tokens[1]))).status_code == 200
            await asyncio.sleep(0.4)
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        assert 1 not in view["connected"]  # (a poll is no connection)
        takeover = {seat: f"/api/rooms/{room_id}/seats/{seat}/autopilot" for seat in (1, 2)}
        r = await client.put(takeover[1], json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 409, r.text
        r = await client.put(takeover[2], json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 200, "seat 2 read nothing: absent"
        await asyncio.sleep(1.1)  # seat 1 stopped reading: past the grace, it is absent
        r = await client.put(takeover[1], json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
