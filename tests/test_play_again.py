"""Play again (issue 16, point 1): at the end of a game its players move on to a new room with
the same game, options, seats, names and bots, and a new seed. Each player who asks gets their
own seat there and its token, in their own answer only; the finished room links to the next
one; seats whose players do not come wait for them, then open to the invite link. Through the
API and the pages alike, with hostile requests: no token, another room's token, a game not
over, asking twice, asking at once."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import httpx
import pytest
from websockets.asyncio.client import connect

from app.rooms.model import hash_token
from tests.conftest import auth, create_started_room, running_app
from tests.support.servers import in_process_server
from tests.support.sockets import Listener, ws_url

HTML = {"accept": "text/html"}
FAST_BOTS = {"bot_delay_seconds": 0.0, "bot_budget_seconds": 0.02}


async def finished_room(client, listed=True, turn_timer=60):
    """A finished 3-seat Troika game of Ana (host, seat 0), Bruno and a random bot (seat 2)."""
    body = {
        "game": "troika",
        "seats": 3,
        "name": "Ana",
        "options": {"first_player": 1},
        "turn_timer": turn_timer,
        "listed": listed,
    }
    created = (await client.post("/api/rooms", json=body)).json()
    room, tokens = created["room"]["id"], [created["token"]]
    tokens.append((await client.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"})).json()["token"])
    bot = await client.post(f"/api/rooms/{room}/seats", json={"bot": "random"}, headers=auth(tokens[0]))
    assert bot.status_code == 201, bot.text
    assert (await client.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))).status_code == 200
    rng = random.Random(16)
    for _ in range(5000):
        view = (await client.get(f"/api/rooms/{room}/view")).json()
        if view["status"] == "finished":
            return room, tokens
        humans = [seat for seat in view["to_act"] if seat < 2]
        if not humans:
            await asyncio.sleep(0.01)  # the bot's turn
            continue
        seat = humans[0]
        legal = (await client.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat]))).json()
        action = rng.choice([a["action"] for a in legal["legal_actions"]])  # calls included: short rounds
        await client.post(
            f"/api/rooms/{room}/actions",
            headers=auth(tokens[seat]),
            json={"version": legal["version"], "action": action},
        )
    raise AssertionError("the game did not finish")


async def again(client, room, token):
    return await client.post(f"/api/rooms/{room}/again", headers=auth(token))


async def test_players_play_again_with_the_same_table_and_a_new_seed(sqlite_url):
    async with running_app(sqlite_url, **FAST_BOTS) as client:
        room, (ana, bruno) = await finished_room(client, listed=False)
        before = (await client.get(f"/api/rooms/{room}")).json()
        first = await again(client, room, ana)
        assert first.status_code == 200, first.text
        answer = first.json()
        assert answer["seat"] == 0 and answer["duplicate"] is False and answer["token"] not in (ana, bruno)
        nxt = (await client.get(f"/api/rooms/{answer['room']}")).json()
        assert (await client.get(f"/api/rooms/{room}")).json()["next_room"] == nxt["id"]
        same = ("game", "options", "num_seats", "turn_seconds", "listed")
        assert {k: nxt[k] for k in same} == {k: before[k] for k in same}
        assert nxt["status"] == "open" and nxt["seed"] is None and nxt["seed_hash"] != before["seed_hash"]
        assert [(s["name"], s["host"], s["bot"]) for s in nxt["seats"]] == [
            ("Ana", True, None),
            (None, False, None),  # Bruno's seat waits for him
            (before["seats"][2]["name"], False, "random"),
        ]
        assert nxt["held_until"] is not None
        mine = await client.get(f"/api/rooms/{nxt['id']}/view", headers=auth(answer["token"]))
        assert mine.json()["seat"] == 0
        assert (await client.get(f"/api/rooms/{nxt['id']}/view", headers=auth(ana))).status_code == 403

        twice = (await again(client, room, ana)).json()
        assert twice == {**answer, "duplicate": True}  # the same seat link, however often asked
        his = (await again(client, room, bruno)).json()
        assert (his["room"], his["seat"], his["duplicate"]) == (nxt["id"], 1, False)
        assert his["token"] != answer["token"]
        started = await client.post(f"/api/rooms/{nxt['id']}/start", headers=auth(answer["token"]))
        assert started.status_code == 200, started.text
        seated = (await client.get(f"/api/rooms/{nxt['id']}")).json()["seats"]
        assert [s["name"] for s in seated] == ["Ana", "Bruno", before["seats"][2]["name"]]


async def test_asking_at_once_opens_one_next_room(sqlite_url):
    async with running_app(sqlite_url, **FAST_BOTS) as client:
        room, (ana, bruno) = await finished_room(client)
        answers = await asyncio.gather(*(again(client, room, token) for token in (ana, bruno, ana, bruno)))
        assert [a.status_code for a in answers] == [200] * 4, [a.text for a in answers]
        bodies = [a.json() for a in answers]
        assert len({b["room"] for b in bodies}) == 1
        assert [b["seat"] for b in bodies] == [0, 1, 0, 1]
        assert bodies[0]["token"] == bodies[2]["token"] and bodies[1]["token"] == bodies[3]["token"]
        assert sorted(b["duplicate"] for b in bodies) == [False, False, True, True]
        # (inside: the seats' token hashes are never shown outside the server)
        info, _ = await client.app.state.rooms.game_state(bodies[0]["room"])
        assert info.token_hashes == {hash_token(bodies[0]["token"]): 0, hash_token(bodies[1]["token"]): 1}


async def test_hostile_requests_are_refused_and_change_nothing(sqlite_url):
    async with running_app(sqlite_url, **FAST_BOTS) as client:
        room, (ana, bruno) = await finished_room(client)
        other = (await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Eva"})).json()
        cases = [
            (room, {}, 401),
            (room, {"Authorization": "Basic abc"}, 401),
            (room, {"Authorization": "Bearer "}, 401),
            (room, auth(other["token"]), 403),  # a seat of another room
            (room, auth("x" * 5000), 403),
            ("no-such-room", auth(ana), 404),
            ("../" + room, auth(ana), 404),
            (other["room"]["id"], auth(other["token"]), 409),  # that game has not even started
        ]
        for target, headers, status in cases:
            r = await client.post(f"/api/rooms/{target}/again", headers=headers)
            assert r.status_code == status, (target, headers, r.text)
            assert set(r.json()) >= {"error", "message"}
        assert (await client.get(f"/api/rooms/{room}")).json()["next_room"] is None
        r = await client.post(f"/api/rooms/{room}/again", headers=auth(bruno), json={"seat": 0, "token": ana})
        assert (r.status_code, r.json()["message"]) == (422, "unknown field: seat, token")  # it takes no body
        assert (await client.get(f"/api/rooms/{room}")).json()["next_room"] is None
        r = await client.post(f"/api/rooms/{room}/again", headers=auth(bruno))
        assert r.status_code == 200 and r.json()["seat"] == 1
        again_page = await client.get(f"/api/rooms/{room}/again")
        assert again_page.status_code == 405


async def test_a_game_closed_before_its_end_is_not_played_again_and_says_so(client):
    """It said "you can play again once the game has ended" of a game that had ended, abandoned
    (a programmer's probe, 2026-12-07)."""
    room_id, tokens = await create_started_room(client, "troika", 2)
    assert (await client.post(f"/api/rooms/{room_id}/close", headers=auth(tokens[0]))).status_code == 200
    assert (await client.get(f"/api/rooms/{room_id}")).json()["status"] == "abandoned"
    r = await client.post(f"/api/rooms/{room_id}/again", headers=auth(tokens[1]))
    assert (r.status_code, r.json()["message"]) == (
        409,
        "a game closed before its end cannot be played again: create a new room",
    )


async def test_seats_whose_players_do_not_come_open_to_the_invite_link(sqlite_url):
    async with running_app(sqlite_url, again_hold_seconds=3600, **FAST_BOTS) as client:
        room, (ana, _) = await finished_room(client)
        nxt = (await again(client, room, ana)).json()["room"]
        r = await client.post(f"/api/rooms/{nxt}/seats", json={"name": "Eva"})
        assert r.status_code == 409 and "held for the last game's players (Bruno)" in r.json()["message"]
        assert nxt not in (await client.get("/", headers=HTML)).text  # the lobby offers no seat that waits
    async with running_app(sqlite_url, again_hold_seconds=0, **FAST_BOTS) as client:
        room, (ana, bruno) = await finished_room(client)
        nxt = (await again(client, room, ana)).json()["room"]
        assert nxt in (await client.get("/", headers=HTML)).text
        eva = await client.post(f"/api/rooms/{nxt}/seats", json={"name": "Eva"})
        assert eva.status_code == 201 and eva.json()["seat"] == 1
        late = await again(client, room, bruno)
        assert late.status_code == 409 and "taken" in late.json()["message"]


async def test_the_pages_take_each_player_to_their_own_seat_only(sqlite_url):
    async with running_app(sqlite_url, **FAST_BOTS) as client:
        room, (ana, bruno) = await finished_room(client)
        bruno_page = (await client.get(f"/rooms/{room}/seat/{bruno}", headers=HTML)).text
        assert f'action="/rooms/{room}/seat/{bruno}/again"' in bruno_page and ">Play again<" in bruno_page
        r = await client.post(f"/rooms/{room}/seat/{ana}/again", headers=HTML)
        assert r.status_code == 303
        _, _, nxt, _, ana_token = r.headers["location"].split("/")
        assert r.headers["location"] == f"/rooms/{nxt}/seat/{ana_token}"
        seat_page = (await client.get(r.headers["location"], headers=HTML)).text
        assert 'id="held-seats"' in seat_page and "Ana" in seat_page
        for page in (f"/rooms/{room}/seat/{bruno}", f"/rooms/{room}"):
            html = (await client.get(page, headers=HTML)).text
            assert f'href="/rooms/{nxt}"' in html and ana_token not in html
        assert ">Go to the next game<" in (await client.get(f"/rooms/{room}/seat/{bruno}", headers=HTML)).text
        r = await client.post(f"/rooms/{room}/seat/{bruno}/again", headers=HTML)
        assert r.status_code == 303 and r.headers["location"].startswith(f"/rooms/{nxt}/seat/")


async def test_two_instances_asked_at_once_open_one_next_room(fresh_postgres_url):
    """Two server instances on one Postgres (each with its own locks and caches), asked at once:
    the guard is the database's, one link to one next room, and every player gets a seat in it."""
    async with running_app(fresh_postgres_url, **FAST_BOTS) as a:
        room, (ana, bruno) = await finished_room(a)  # (B starts after: two bot runners in one game is another matter)
        async with running_app(fresh_postgres_url, **FAST_BOTS) as b:
            await asked_at_once(a, b, room, ana, bruno)


async def asked_at_once(a, b, room, ana, bruno):
    """Ana through A, Bruno and Ana again through B, all at once."""
    answers = await asyncio.gather(again(a, room, ana), again(b, room, bruno), again(b, room, ana))
    assert [r.status_code for r in answers] == [200, 200, 200], [r.text for r in answers]
    bodies = [r.json() for r in answers]
    assert len({body["room"] for body in bodies}) == 1
    assert bodies[0]["token"] == bodies[2]["token"] and [body["seat"] for body in bodies] == [0, 1, 0]
    linked = {(await client.get(f"/api/rooms/{room}")).json()["next_room"] for client in (a, b)}
    assert linked == {bodies[0]["room"]}
    opened = (await a.get("/api/rooms", params={"status": "open"})).json()
    assert [r["id"] for r in opened] == [bodies[0]["room"]]  # the other's room was never written


async def test_a_next_game_everyone_left_is_closed_to_late_players(sqlite_url):
    async with running_app(sqlite_url, **FAST_BOTS) as client:
        room, (ana, bruno) = await finished_room(client)
        first = (await again(client, room, ana)).json()
        left = await client.delete(f"/api/rooms/{first['room']}/seats/me", headers=auth(first["token"]))
        assert (
            left.status_code == 200 and (await client.get(f"/api/rooms/{first['room']}")).json()["status"] == "closed"
        )
        late = await again(client, room, bruno)
        assert late.status_code == 409 and "closed" in late.json()["message"]


async def test_the_hold_keeps_only_the_last_games_players_seats_not_a_seat_a_bot_left(sqlite_url):
    """The hold is for people: the host who swaps a bot for another level during it, or frees a
    bot's seat, may fill that seat at once (it waited for no one, and the bot buttons refused
    for two minutes); a newcomer's join takes it too, never the seat held for Bruno, which the
    room names."""
    async with running_app(sqlite_url, again_hold_seconds=3600, **FAST_BOTS) as client:
        room, (ana, _) = await finished_room(client)
        answer = (await again(client, room, ana)).json()
        nxt, host = answer["room"], answer["token"]
        seats = (await client.get(f"/api/rooms/{nxt}")).json()["seats"]
        assert [(s["name"] is None, s["held_for"]) for s in seats] == [(False, None), (True, "Bruno"), (False, None)]
        assert (await client.delete(f"/api/rooms/{nxt}/seats/2", headers=auth(host))).status_code == 200
        r = await client.post(f"/api/rooms/{nxt}/seats", json={"bot": "strong"}, headers=auth(host))
        assert (r.status_code, r.json()["seat"]) == (201, 2), r.text  # the lowest free seat that waits for no one
        assert (await client.delete(f"/api/rooms/{nxt}/seats/2", headers=auth(host))).status_code == 200
        eva = await client.post(f"/api/rooms/{nxt}/seats", json={"name": "Eva"})
        assert (eva.status_code, eva.json()["seat"]) == (201, 2), eva.text
        full = await client.post(f"/api/rooms/{nxt}/seats", json={"name": "Zé"})
        assert full.status_code == 409 and "held for the last game's players (Bruno)" in full.json()["message"]
        page = (await client.get(f"/rooms/{nxt}/seat/{host}", headers=HTML)).text
        start = page.index('<span class="seat-no">2</span>')
        held = page[start : page.index("</li>", start)]
        assert "held for Bruno" in held and "/bots" not in held  # no bot button that would be refused
        # Why Start waits, and what a visitor may do: only Bruno's seat is free, and no one else takes it.
        assert '<span class="muted small" id="start-why">waiting for Bruno (held seats)</span>' in page
        visitor = (await client.get(f"/rooms/{nxt}", headers=HTML)).text
        assert f'action="/rooms/{nxt}/join"' not in visitor  # no join form that would be refused
        assert "The free seats wait for the last game's players (Bruno)." in visitor


async def test_a_held_seats_refusal_says_in_seconds_when_the_hold_ends(sqlite_url):
    """A join, a bot or a start refused for a seat held after play again carries Retry-After and
    retry_after: the seconds until held_until (rounded up), as the room's facts state it."""
    async with running_app(sqlite_url, again_hold_seconds=90, **FAST_BOTS) as client:
        room, (ana, _) = await finished_room(client)
        answer = (await again(client, room, ana)).json()
        nxt, host = answer["room"], answer["token"]
        held_until = datetime.fromisoformat((await client.get(f"/api/rooms/{nxt}")).json()["held_until"])
        for call in (
            client.post(f"/api/rooms/{nxt}/seats", json={"name": "Zé"}),
            client.post(f"/api/rooms/{nxt}/seats", json={"bot": "random"}, headers=auth(host)),
            client.post(f"/api/rooms/{nxt}/start", headers=auth(host)),
        ):
            r = await call
            left = (held_until - datetime.now(UTC)).total_seconds()
            assert r.status_code == 409 and r.json()["error"] == "conflict", r.text
            assert r.headers["retry-after"] == str(r.json()["retry_after"])
            assert left <= r.json()["retry_after"] <= left + 2 and r.json()["retry_after"] <= 90
        free = await client.post(f"/api/rooms/{room}/seats", json={"name": "Zé"})  # not held: no retry_after
        assert free.status_code == 409 and "retry_after" not in free.json() and "retry-after" not in free.headers


async def test_the_hold_binds_the_next_rooms_host_too(sqlite_url):
    """Finding 22: while the free seats wait for the last game's players, the next room's host
    can neither seat bots in them (API or form) nor start; after the hold, or once every seat
    is filled by its own player, they can."""
    async with running_app(sqlite_url, again_hold_seconds=3600, **FAST_BOTS) as client:
        room, (ana, bruno) = await finished_room(client)
        answer = (await again(client, room, ana)).json()
        nxt, host = answer["room"], answer["token"]
        for body in ({"bot": "random"}, {"bot": "strong", "seat": 1}):
            r = await client.post(f"/api/rooms/{nxt}/seats", json=body, headers=auth(host))
            assert r.status_code == 409 and "held for the last game's players (Bruno)" in r.json()["message"], body
        page = f"/rooms/{nxt}/seat/{host}"
        r = await client.post(page + "/bots", data={"level": "strong", "seat": "1"}, headers=HTML)
        assert r.status_code == 200 and "Held for the last game&#39;s players (Bruno)" in r.text
        r = await client.post(f"/api/rooms/{nxt}/start", headers=auth(host))
        assert r.status_code == 409 and "held for the last game's players (Bruno)" in r.json()["message"]
        r = await client.post(page + "/start", headers=HTML)
        assert "Held for the last game&#39;s players (Bruno)" in r.text
        seats = (await client.get(f"/api/rooms/{nxt}")).json()
        assert seats["status"] == "open" and seats["seats"][1]["name"] is None
        assert (await again(client, room, bruno)).status_code == 200  # Bruno comes back: every seat filled
        assert (await client.post(f"/api/rooms/{nxt}/start", headers=auth(host))).status_code == 200
    async with running_app(sqlite_url, again_hold_seconds=0, **FAST_BOTS) as client:
        room, (ana, _) = await finished_room(client)
        answer = (await again(client, room, ana)).json()
        nxt, host = answer["room"], answer["token"]
        r = await client.post(f"/api/rooms/{nxt}/seats", json={"bot": "random"}, headers=auth(host))
        assert r.status_code == 201 and r.json()["seat"] == 1
        assert (await client.post(f"/api/rooms/{nxt}/start", headers=auth(host))).status_code == 200


@pytest.mark.server
async def test_a_waiting_rooms_page_is_sent_the_held_seat_freed_when_the_hold_ends(sqlite_url):
    """Nothing changes in the room when its hold ends, yet the page open on it must stop
    showing Bruno's seat held: its socket is sent the seat, free, at that moment; a page opened
    after that shows it free from the first."""
    async with in_process_server(sqlite_url, again_hold_seconds=3, **FAST_BOTS) as (base, _):
        async with httpx.AsyncClient(base_url=base) as client:
            room, (ana, _) = await finished_room(client)
            answer = (await again(client, room, ana)).json()
        url = ws_url(base, answer["room"], answer["token"], fmt="html")
        async with connect(url, additional_headers={"Origin": base}) as ws:
            page = Listener(ws, "html")
            first = await page.until(lambda frame: "Seats" in frame)
            assert "held for Bruno" in first and "waiting for Bruno (held seats)" in first
            freed = await page.until(lambda frame: "1 seat still free" in frame, timeout=8)
            assert "held for Bruno" not in freed and "free seat" in freed
            assert 'id="held-seats"' not in "".join(page.frames[page.frames.index(freed) :])
        async with connect(url, additional_headers={"Origin": base}) as ws:  # the page opened after the hold
            first = await Listener(ws, "html").until(lambda frame: "Seats" in frame)
            assert "held for Bruno" not in first and "1 seat still free" in first
