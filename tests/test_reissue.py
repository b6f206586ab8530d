"""A lost seat link (``Lobby.reissue``): the host gives an absent player's seat a new private
link, answered to the host alone; the old token stops working at once, for reads, moves,
sockets, streams and waiting polls; hostile callers and seat numbers are refused."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect

import app.rooms.lobby as lobby_module
from tests.conftest import auth, create_started_room, running_app
from tests.support.rooms import make_room
from tests.support.servers import free_port, in_process_server, server_process
from tests.support.sockets import Lines, close_of, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


def reissue(client, room_id: str, seat, token: str | None) -> httpx.Response:
    headers = auth(token) if token else {}
    return client.post(f"/api/rooms/{room_id}/seats/{seat}/reissue", headers=headers)


async def test_the_host_reissues_an_absent_players_link_and_the_old_one_stops_working(sqlite_url):
    async with running_app(sqlite_url, autopilot_grace_seconds=0) as client:  # (the new link is used at once)
        await reissued_and_replaced(client)


async def reissued_and_replaced(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    r = await reissue(client, room_id, 1, tokens[0])
    assert r.status_code == 200, r.text
    answer = r.json()
    new = answer["token"]
    assert answer == {"seat": 1, "token": new, "url": f"/rooms/{room_id}/seat/{new}"} and new != tokens[1]
    assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(new))).json()["seat"] == 1
    for path in ("view", "legal-actions", "log"):
        r = await client.get(f"/api/rooms/{room_id}/{path}", headers=auth(tokens[1]))
        assert r.status_code == 403, (path, r.text)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    mover = tokens[view["to_act"][0]] if view["to_act"][0] != 1 else new
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(mover))).json()
    move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
    r = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[1]), json=move)
    assert r.status_code == 403, r.text
    old_page = await client.get(f"/rooms/{room_id}/seat/{tokens[1]}", headers={"accept": "text/html"})
    assert old_page.status_code == 403 and "if the host gave the seat a new one" in old_page.text  # (why, said)
    assert (await client.get(f"/rooms/{room_id}/seat/{new}", headers={"accept": "text/html"})).status_code == 200
    # Shown to the host only: no other answer carries the new token.
    for headers in ({}, auth(tokens[2]), auth(new)):
        for path in ("", "/view", "/log", "/chat"):
            assert new not in (await client.get(f"/api/rooms/{room_id}{path}", headers=headers)).text
    # Reissued again, the second link replaces the first.
    newer = (await reissue(client, room_id, 1, tokens[0])).json()["token"]
    assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(new))).status_code == 403
    assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(newer))).json()["seat"] == 1


async def test_a_player_seen_within_the_grace_keeps_their_link(client):
    """A player with no socket open may still be playing: one who read their view (a program
    that polls) or moved within AUTOPILOT_GRACE_SECONDS keeps the seat, as they would keep it
    from a bot; a new link would give the host their seat and their hand. One who never came to
    their seat after joining may have lost its link: theirs is reissued."""
    room_id, tokens = await create_started_room(client, "troika", 3, options={"first_player": 1})
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[1]))).json()
    move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
    assert (await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[1]), json=move)).status_code == 200
    assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[2]))).status_code == 200
    for seat in (1, 2):
        r = await reissue(client, room_id, seat, tokens[0])
        assert r.status_code == 409 and "within the last 60 seconds" in r.json()["message"], r.text
        mine = await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[seat]))
        assert mine.json()["seat"] == seat, "the player keeps their link"
    room_id, tokens = await create_started_room(client, "troika", 3)
    assert (await reissue(client, room_id, 1, tokens[0])).status_code == 200


async def test_every_call_or_page_of_a_seats_own_is_a_sign_of_its_player(sqlite_url):
    """Only a read of the view, a poll or a move counted: a player who had loaded their seat's
    page (without scripts, no socket), read their legal actions or their log, posted a chat
    line or asked for a hint was taken for absent, and the host, an opponent, could give their
    seat a new link and see their hand, or hand it to a bot (a security probe, 2026-12-07)."""
    async with running_app(sqlite_url, autopilot_grace_seconds=1.0, bot_delay_seconds=30.0) as client:
        room_id, tokens = await create_started_room(client, "troika", 5)
        await asyncio.sleep(1.1)  # every seat joined longer ago than the grace
        signs = {
            1: client.get(f"/rooms/{room_id}/seat/{tokens[1]}", headers={"accept": "text/html"}),
            2: client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[2])),
            3: client.post(f"/api/rooms/{room_id}/chat", json={"text": "hi"}, headers=auth(tokens[3])),
        }
        for seat, call in signs.items():
            assert (await call).status_code in (200, 201), seat
        for seat in signs:
            r = await reissue(client, room_id, seat, tokens[0])
            assert r.status_code == 409 and "within the last 1 seconds" in r.json()["message"], (seat, r.text)
            takeover = f"/api/rooms/{room_id}/seats/{seat}/autopilot"
            assert (await client.put(takeover, json={"bot": "random"}, headers=auth(tokens[0]))).status_code == 409
        assert (await reissue(client, room_id, 4, tokens[0])).status_code == 200, "seat 4 did nothing: absent"
        room_id, tokens = await create_started_room(client, "troika", 2)
        await asyncio.sleep(1.1)
        assert (await client.get(f"/api/rooms/{room_id}/log", headers=auth(tokens[1]))).status_code == 200
        assert (await reissue(client, room_id, 1, tokens[0])).status_code == 409, "its log read: a sign too"


async def test_a_bots_moves_for_an_absent_players_seat_are_no_sign_of_the_player(sqlite_url):
    """An absent player's seat, handed to a bot, moved every turn: each move counted as the
    player being here, and the host could not give them a new link until the game paused (a
    player's probe, 2026-12-07)."""
    async with running_app(sqlite_url, autopilot_grace_seconds=1.0, bot_delay_seconds=0.0) as client:
        room_id, tokens = await create_started_room(client, "troika", 3, options={"first_player": 1})
        await asyncio.sleep(1.1)  # every seat joined longer ago than the grace
        r = await client.put(f"/api/rooms/{room_id}/seats/1/autopilot", json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        for _ in range(100):  # the bot moves for seat 1 (its turn first)
            view = (await client.get(f"/api/rooms/{room_id}/view")).json()
            if view["version"] > 0:
                break
            await asyncio.sleep(0.05)
        assert view["version"] > 0, "the bot moved for seat 1, whose turn it was"
        r = await reissue(client, room_id, 1, tokens[0])
        assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("seat", "statuses"),
    [
        ("1.0", (400, 422)),
        ("+1", (400, 422)),
        (" 1", (400, 422)),
        ("one", (400, 422)),
        ("9" * 40, (404,)),
        ("3", (404,)),
        ("-1", (404,)),
        ("2", (404,)),  # a bot's seat: no player, no link
        ("0", (409,)),  # the host's own seat
    ],
)
async def test_bad_seat_numbers_are_refused(client, seat, statuses):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})
    await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(host))
    r = await reissue(client, room_id, seat, host)
    assert r.status_code in statuses and set(r.json()) >= {"error", "message"}, r.text


async def test_only_the_host_may_reissue_and_only_in_a_live_room(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    _, others = await create_started_room(client, "troika", 3)
    assert (await reissue(client, room_id, 2, tokens[1])).status_code == 403
    assert (await reissue(client, room_id, 2, others[0])).status_code == 403
    assert (await reissue(client, room_id, 2, None)).status_code == 401
    assert (await reissue(client, "nosuchroom", 2, tokens[0])).status_code == 404
    r = await client.post(f"/api/rooms/{room_id}/seats/2/reissue", headers={"Authorization": "Basic eA=="})
    assert r.status_code == 401
    # Nothing changed: every old token still holds its seat.
    for seat, token in enumerate(tokens):
        assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(token))).json()["seat"] == seat


async def test_the_page_form_reads_its_seat_strictly_and_refuses_in_words(client):
    """The host's "New link" button posts to /rooms/<id>/seat/<token>/reissue/<seat>: a seat that
    is no number is a malformed request, one that names no player (huge, negative, past the
    room's seats) or the host's own is refused in the flash, a player's token other than the
    host's gets the refusal too, and none of it changes any seat's token."""
    room_id, tokens = await create_started_room(client, "troika", 3)

    def post(token: str, target: str):
        return client.post(f"/rooms/{room_id}/seat/{token}/reissue/{target}")

    for target in ("abc", "1.5", "1e3", ""):
        assert (await post(tokens[0], target)).status_code in (400, 404, 405), target
    for target, reason in (
        ("9" * 30, "No such seat"),
        ("-1", "No such seat"),
        ("7", "No such seat"),
        ("0", "your own seat"),
    ):
        answer = await post(tokens[0], target)
        assert answer.status_code == 200 and reason in answer.text.split('id="flash"')[1].split("</div>")[0], target
    answer = await post(tokens[1], "2")
    assert answer.status_code == 200 and "Only the host" in answer.text.split('id="flash"')[1].split("</div>")[0]
    for seat, token in enumerate(tokens):
        assert (await client.get(f"/api/rooms/{room_id}/view", headers=auth(token))).json()["seat"] == seat


async def test_a_present_player_keeps_their_link_and_an_absent_ones_old_sockets_close(sqlite_url, monkeypatch):
    served = in_process_server(sqlite_url, autopilot_grace_seconds=0)  # (only sockets open now keep a link)
    async with served as (base, _), httpx.AsyncClient(base_url=base, timeout=30) as client:
        room_id, tokens = await create_started_room(client, "troika", 3)
        headers = {"Origin": base}
        async with connect(ws_url(base, room_id, tokens[1]), additional_headers=headers) as ws:
            await ws.recv()
            r = await reissue(client, room_id, 1, tokens[0])
            assert r.status_code == 409 and "connected" in r.json()["message"]
        async with client.stream("GET", f"/api/rooms/{room_id}/stream", headers=auth(tokens[2])) as response:
            held = Lines(response)  # held: dropping its reader would close the stream
            await held.next()
            assert (await reissue(client, room_id, 2, tokens[0])).status_code == 409, "a stream is presence"
        # A socket, a stream and a poll opened just as the host reissues (the presence check
        # passed before they were counted): each is cut at the change.
        monkeypatch.setattr(lobby_module, "seat_connected", lambda *_: asyncio.sleep(0, False))
        async with (
            connect(ws_url(base, room_id, tokens[1]), additional_headers=headers) as ws,
            connect(ws_url(base, room_id, tokens[1], "html"), additional_headers=headers) as page,
            client.stream("GET", f"/api/rooms/{room_id}/stream", headers=auth(tokens[1])) as response,
        ):
            lines = Lines(response)
            assert json.loads(await ws.recv())["seat"] == 1 and (await lines.next())["seat"] == 1
            await page.recv()
            now = (await client.get(f"/api/rooms/{room_id}/view")).json()["change"]
            poll = asyncio.create_task(
                client.get(f"/api/rooms/{room_id}/view", params={"after": now, "wait": 20}, headers=auth(tokens[1]))
            )
            await asyncio.sleep(0.3)
            assert (await reissue(client, room_id, 1, tokens[0])).status_code == 200
            for socket in (ws, page):
                close = await close_of(socket)
                assert close.code == 1008 and "reissued" in close.reason
            r = await asyncio.wait_for(poll, 10)
            assert r.status_code == 403 and "reissued" in r.json()["message"]
            assert await lines.ended(events_before=True)  # (presence events came before)


async def test_the_old_token_stops_working_on_every_instance_at_once(postgres_url):
    with (
        server_process(postgres_url, free_port(), AUTOPILOT_GRACE_SECONDS="0") as (_, base_a),
        server_process(postgres_url, free_port()) as (_, base_b),
    ):
        async with httpx.AsyncClient(base_url=base_a) as a, httpx.AsyncClient(base_url=base_b, timeout=30) as b:
            room_id, tokens = await make_room(a, seats=2)
            seen = await b.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[1]))
            assert seen.status_code == 200
            params = {"after": seen.json()["change"], "wait": 20}
            poll = asyncio.create_task(b.get(f"/api/rooms/{room_id}/view", params=params, headers=auth(tokens[1])))
            await asyncio.sleep(0.5)
            new = (await reissue(a, room_id, 1, tokens[0])).json()["token"]
            r = await asyncio.wait_for(poll, 10)
            assert r.status_code == 403, r.text
            # B held the room's facts with the old token: its next read is as fresh as the database.
            assert (await b.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[1]))).status_code == 403
            assert (await b.get(f"/api/rooms/{room_id}/view", headers=auth(new))).json()["seat"] == 1


async def test_a_keyed_join_resent_after_its_seat_was_reissued_takes_no_other_seat(client):
    """The join's key stood for the old token: its resend is refused with the reason, and the
    room's free seat stays free; the same name with another key is a new join, as ever."""
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    url, key = f"/api/rooms/{room_id}/seats", "7d0f4b2e-3c61-4a8e-b5d9-0e2a6f1c8b73"
    first = (await client.post(url, json={"name": "Bo", "idempotency_key": key})).json()
    reissued = await reissue(client, room_id, first["seat"], host)
    assert reissued.status_code == 200
    for _ in range(2):  # and again: still refused, nothing taken
        again = await client.post(url, json={"name": "Bo", "idempotency_key": key})
        assert again.status_code == 409 and "reissued" in again.json()["message"], again.text
        assert first["token"] not in again.text and reissued.json()["token"] not in again.text
    mine = await client.get(f"/api/rooms/{room_id}/view", headers=auth(reissued.json()["token"]))
    assert mine.json()["seat"] == first["seat"], "the new link still holds the seat"
    seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert [s["name"] for s in seats] == ["Ana", "Bo", None]
    other = await client.post(url, json={"name": "Bea", "idempotency_key": "another-key-of-16-chars"})
    assert other.status_code == 201 and other.json()["seat"] == 2


async def test_the_hosts_new_link_names_the_player_escaped(sqlite_url):
    """The page's answer names whose seat the new link is for: a name is the player's own text,
    so markup in it is shown as text, never as markup."""
    async with running_app(sqlite_url, autopilot_grace_seconds=0) as client:
        created = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})
        room_id, host = created.json()["room"]["id"], created.json()["token"]
        joined = await client.post(f"/api/rooms/{room_id}/seats", json={"name": "<b onclick=x>Zé</b>"})
        assert joined.status_code == 201, joined.text
        assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))).status_code == 200
        answer = await client.post(f"/rooms/{room_id}/seat/{host}/reissue/1")
        flash = answer.text.split('id="flash"')[1].split("</div>")[0]
        assert "A new private link for &lt;b onclick=x&gt;Zé&lt;/b&gt;&#39;s seat" in flash, flash
        assert "<b onclick" not in answer.text
