"""Coming back (issue 28, point 7): the bot the turn timer seats when a player's time runs out
stands in only until the player is back. Their next socket (HTML or JSON), stream, click on
their page, move, or read or poll of the API takes the seat back, and their page says so; a bot the
player asked for ("Let a bot play for me") or the host chose stays until taken back. The
migration that marks stand-ins leaves every bot seated before it as one that stays."""

from __future__ import annotations

import asyncio
import json

import httpx
import orjson
import pytest
from sqlalchemy import text
from websockets.asyncio.client import connect

from app.db.engine import migrate
from tests.conftest import auth, create_started_room, running_app
from tests.support.databases import BACKENDS, database_at, insert_room
from tests.support.rooms import FAST, backdate_turn, wait_until
from tests.support.servers import in_process_server
from tests.support.sockets import ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

HTML = {"accept": "text/html"}
BACK = "You are back: a bot played your seat while your time was out, and now it is yours again."
SLOW = {"bot_delay_seconds": 30.0}  # the stand-in is seated but does not move within a test


async def seat_of(client, room_id: str, seat: int) -> dict:
    return (await client.get(f"/api/rooms/{room_id}")).json()["seats"][seat]


async def timed_out(client, turn_timer: int = 30) -> tuple[str, list[str], int]:
    """A started two-seat Troika room whose awaited player's time ran out: the turn timer has
    handed their seat to a stand-in. Returns the room, the tokens and the late seat."""
    room_id, tokens = await create_started_room(client, "troika", 2, turn_timer=turn_timer)
    late = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    await backdate_turn(client, room_id, turn_timer + 1)
    client.app.state.timers.poke(room_id)  # (the turn timer looks now, rather than at its next wake-up)
    await wait_until(client, room_id, lambda v: v["room"]["seats"][late]["bot"] == "strong")
    assert (await seat_of(client, room_id, late))["stand_in"] is True
    return room_id, tokens, late


async def test_a_click_on_their_page_takes_the_seat_back_and_says_so(sqlite_url):
    async with running_app(sqlite_url, **SLOW) as client:
        room_id, tokens, late = await timed_out(client)
        other = 1 - late
        r = await client.post(f"/rooms/{room_id}/seat/{tokens[other]}/chat", data={"text": "hi"}, headers=HTML)
        assert BACK not in r.text and (await seat_of(client, room_id, late))["bot"] == "strong"  # not theirs
        r = await client.post(f"/rooms/{room_id}/seat/{tokens[late]}/chat", data={"text": "back!"}, headers=HTML)
        assert r.status_code == 200 and BACK in r.text and "X-Refused" not in r.headers
        assert 'class="flash shown good"' in r.text  # good news, not a refusal's red
        seat = await seat_of(client, room_id, late)
        assert seat["bot"] is None and seat["stand_in"] is False
        r = await client.post(f"/rooms/{room_id}/seat/{tokens[late]}/chat", data={"text": "again"}, headers=HTML)
        assert BACK not in r.text  # said once
        pt = {**HTML, "cookie": "lang=pt-PT"}
        await backdate_turn(client, room_id, 31)
        client.app.state.timers.poke(room_id)
        await wait_until(client, room_id, lambda v: v["room"]["seats"][late]["stand_in"])
        r = await client.post(f"/rooms/{room_id}/seat/{tokens[late]}/chat", data={"text": "olá"}, headers=pt)
        assert "Voltou:" in r.text


async def test_a_move_through_the_api_takes_the_seat_back_and_is_played(sqlite_url):
    async with running_app(sqlite_url, **SLOW) as client:
        room_id, tokens, late = await timed_out(client)
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[late]))).json()
        move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
        r = await client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(tokens[late]))
        assert r.status_code == 200, r.text
        assert r.json()["version"] == legal["version"] + 1
        assert r.json()["room"]["seats"][late]["bot"] is None


async def test_a_bot_the_player_or_the_host_chose_stays_until_taken_back(sqlite_url):
    async with running_app(sqlite_url, autopilot_grace_seconds=0, **SLOW) as client:
        room_id, tokens = await create_started_room(client, "troika", 3, turn_timer=30)
        seats = f"/api/rooms/{room_id}/seats"
        r = await client.put(f"{seats}/me/autopilot", json={"bot": "strong"}, headers=auth(tokens[1]))
        assert r.status_code == 200
        r = await client.put(f"{seats}/2/autopilot", json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 200
        for seat in (1, 2):
            r = await client.post(f"/rooms/{room_id}/seat/{tokens[seat]}/chat", data={"text": "hi"}, headers=HTML)
            assert BACK not in r.text
            facts = await seat_of(client, room_id, seat)
            assert facts["bot"] is not None and facts["stand_in"] is False
        # While a bot plays the seat, its page says so first on the table, above the status line
        # (whose "Your turn" is still true: a move of the player's own takes the seat back).
        page = (await client.get(f"/rooms/{room_id}/seat/{tokens[1]}", headers=HTML)).text
        assert page.index('id="autopilot"') < page.index('id="table-status"')
        assert "A strong bot is playing your seat." in page
        r = await client.post(f"/rooms/{room_id}/seat/{tokens[1]}/autopilot", data={"level": ""}, headers=HTML)
        assert (await seat_of(client, room_id, 1))["bot"] is None  # taken back by the button
        page = (await client.get(f"/rooms/{room_id}/seat/{tokens[1]}", headers=HTML)).text
        assert page.index('id="your-hand"') < page.index('id="autopilot"')  # "Need a break?": below the table


async def test_their_next_socket_or_stream_takes_the_seat_back(sqlite_url):
    async with in_process_server(sqlite_url, **SLOW) as (base, app), httpx.AsyncClient(base_url=base) as client:
        client.app = app
        origin = {"Origin": base}
        room_id, tokens, late = await timed_out(client)
        async with connect(ws_url(base, room_id, tokens[late], "html"), additional_headers=origin) as ws:
            frames = [await asyncio.wait_for(ws.recv(), 10), await asyncio.wait_for(ws.recv(), 10)]
            assert 'id="room-main"' in frames[0] and 'id="flash"' in frames[1] and BACK in frames[1]
            assert 'class="flash shown good"' in frames[1]
        assert (await seat_of(client, room_id, late))["bot"] is None
        # the JSON socket: its first view already shows the seat given back
        await backdate_turn(client, room_id, 31)
        app.state.timers.poke(room_id)
        await wait_until(client, room_id, lambda v: v["room"]["seats"][late]["stand_in"])
        async with connect(ws_url(base, room_id, tokens[late]), additional_headers=origin) as ws:
            first = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
            assert first["event"] == "view" and first["room"]["seats"][late]["bot"] is None
        # a spectator's socket, or the other player's, gives nothing back
        await backdate_turn(client, room_id, 31)
        app.state.timers.poke(room_id)
        await wait_until(client, room_id, lambda v: v["room"]["seats"][late]["stand_in"])
        for token in (None, tokens[1 - late]):
            async with connect(ws_url(base, room_id, token), additional_headers=origin) as ws:
                await asyncio.wait_for(ws.recv(), 10)
        assert (await seat_of(client, room_id, late))["stand_in"] is True
        async with client.stream("GET", f"/api/rooms/{room_id}/stream", headers=auth(tokens[late])) as stream:
            first = json.loads(await anext(stream.aiter_lines()))
            assert first["event"] == "view" and first["room"]["seats"][late]["bot"] is None


@pytest.mark.parametrize("read", ["/view", "/view?after=0&wait=0", "/events", "/events?after=0&wait=0"])
async def test_their_next_read_or_poll_of_the_api_takes_the_seat_back(sqlite_url, read):
    """A client that only polls (GET /view, its long-poll, GET /events) is back when it reads:
    only a stream, a socket or a move took the seat back, so a polling bot had to move before
    the stand-in did. Another seat's read, or a spectator's, gives nothing back."""
    async with running_app(sqlite_url, **SLOW) as client:
        room_id, tokens, late = await timed_out(client)
        for headers in ({}, auth(tokens[1 - late])):
            assert (await client.get(f"/api/rooms/{room_id}{read}", headers=headers)).status_code == 200
        assert (await seat_of(client, room_id, late))["stand_in"] is True
        assert (await client.get(f"/api/rooms/{room_id}{read}", headers=auth(tokens[late]))).status_code == 200
        seat = await seat_of(client, room_id, late)
        assert seat["bot"] is None and seat["stand_in"] is False


async def test_coming_back_restarts_only_the_returning_players_own_clock(sqlite_url):
    """A player back while another seat is on turn leaves that seat's clock as it was (it was
    restarted: anyone coming back gave whoever was on turn a fresh turn); back while awaited,
    their own clock starts afresh (else the timer would take the seat again at once)."""
    async with running_app(sqlite_url, **FAST) as client:
        room_id, tokens, late = await timed_out(client)
        view = await wait_until(client, room_id, lambda v: v["version"] >= 1 and late not in v["to_act"])
        deadline = view["room"]["turn_deadline"]
        assert deadline is not None
        await asyncio.sleep(0.05)
        assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[late]))).status_code == 200
        room = (await client.get(f"/api/rooms/{room_id}")).json()
        assert room["seats"][late]["bot"] is None and room["turn_deadline"] == deadline
    async with running_app(sqlite_url, **SLOW) as client:
        room_id, tokens, late = await timed_out(client)  # (the stand-in waits: the seat is still awaited)
        before = (await client.get(f"/api/rooms/{room_id}")).json()["turn_deadline"]
        assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[late]))).status_code == 200
        assert (await client.get(f"/api/rooms/{room_id}")).json()["turn_deadline"] > before


async def test_the_stand_in_plays_the_seat_until_the_player_is_back(sqlite_url):
    async with running_app(sqlite_url, **FAST) as client:
        room_id, tokens, late = await timed_out(client)
        await wait_until(client, room_id, lambda v: v["version"] >= 1)  # the stand-in plays meanwhile
        r = await client.post(f"/rooms/{room_id}/seat/{tokens[late]}/chat", data={"text": "back"}, headers=HTML)
        assert BACK in r.text


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_migration_keeps_every_bot_seated_before_it(request, backend, sqlite_url):
    sync_url, engine = database_at(request, backend, sqlite_url, "0009")
    with engine.begin() as conn:
        insert_room(conn, "r", "playing", seats=2)
        conn.execute(
            text(
                "INSERT INTO seats (room_id, seat, name, token_hash, bot, joined_at)"
                " VALUES ('r', 0, 'Ana', 'x', 'strong', CURRENT_TIMESTAMP)"
            )
        )
    migrate(sync_url)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT bot, bot_until_back FROM seats")).all() == [("strong", False)]
    engine.dispose()
