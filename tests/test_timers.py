"""Turn timers and replacing absent players: a seat whose time runs out is played by a bot
until its player takes it back; deadlines live in the database and survive a restart; the host
can hand an absent player's seat to a bot."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from app.games.registry import GAMES
from app.games.vem_ai_troika import GAME as VEM
from app.rooms.timers import TurnTimers
from app.web.tables.room import timer
from tests.conftest import auth, create_started_room, running_app
from tests.support.rooms import FAST, backdate_turn, wait_until
from tests.support.vem_scenarios import G, act, adv


async def test_turn_timer_presets_only(client):
    for value, status in ((45, 400), (-1, 400), (60, 201), (0, 201)):
        r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "A", "turn_timer": value})
        assert r.status_code == status, r.text
    room = r.json()["room"]
    assert room["turn_seconds"] is None and room["turn_deadline"] is None


async def test_a_seat_that_runs_out_of_time_is_played_by_a_bot_until_reclaimed(sqlite_url):
    async with running_app(sqlite_url, **FAST) as client:
        room_id, tokens = await create_started_room(client, "troika", 2, turn_timer=60)
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        late = view["to_act"][0]
        deadline = datetime.fromisoformat(view["room"]["turn_deadline"])
        assert 55 < (deadline - datetime.now(UTC)).total_seconds() <= 60
        await backdate_turn(client, room_id, 61)
        await client.post(f"/api/rooms/{room_id}/chat", json={"text": "hurry"}, headers=auth(tokens[1 - late]))
        view = await wait_until(client, room_id, lambda v: v["room"]["seats"][late]["bot"] == "strong")
        await wait_until(client, room_id, lambda v: v["version"] >= 1)
        page = (await client.get(f"/rooms/{room_id}/seat/{tokens[1 - late]}", headers={"accept": "text/html"})).text
        assert "time ran out: a bot plays" in page, "the others are told why a bot plays the seat"
        r = await client.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": None}, headers=auth(tokens[late]))
        assert r.status_code == 200
        assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][late]["bot"] is None


async def test_deadlines_survive_a_restart(sqlite_url):
    async with running_app(sqlite_url) as client:
        room_id, _ = await create_started_room(client, "troika", 2, turn_timer=30)
        late = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        await backdate_turn(client, room_id, 3600)
    async with running_app(sqlite_url, **FAST) as client:
        await wait_until(client, room_id, lambda v: v["room"]["seats"][late]["bot"] == "strong")


async def test_the_host_lets_a_bot_play_an_absent_players_seat(sqlite_url):
    async with running_app(sqlite_url, autopilot_grace_seconds=0, **FAST) as client:  # absent at once
        room_id, tokens = await create_started_room(client, "troika", 3)
        url = f"/api/rooms/{room_id}/seats/2/autopilot"
        assert (await client.put(url, json={"bot": "strong"}, headers=auth(tokens[1]))).status_code == 403
        assert (await client.put(url, json={"bot": "strong"}, headers=auth(tokens[0]))).status_code == 200
        assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][2]["bot"] == "strong"
        assert (await client.put(url, json={"bot": None}, headers=auth(tokens[0]))).status_code == 403
        me = f"/api/rooms/{room_id}/seats/me/autopilot"
        assert (await client.put(me, json={"bot": None}, headers=auth(tokens[2]))).status_code == 200


async def test_a_reaction_window_respects_the_turn_timer(sqlite_url):
    """Vem aí's advanced reaction window (ruling V10) asks every other seat at once; when the
    turn timer runs out, the seats still asked are played by a bot and the window closes, so a
    player who walked away cannot hold the game."""
    import random

    async with running_app(sqlite_url, **FAST) as client:
        room_id, tokens = await create_started_room(
            client, "vem-ai-a-troika", 2, options={"advanced": True}, turn_timer=60
        )
        pick = random.Random(7)
        for _ in range(600):  # play until a Hand Action opens a reaction window
            view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
            if view["view"].get("reaction"):
                break
            moves = []
            for seat, token in enumerate(tokens):
                legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(token))).json()
                moves += [(seat, item["action"], legal["version"]) for item in legal["legal_actions"]]
            actions = [m for m in moves if m[1]["type"] == "hand_action"] or moves
            seat, action, version = pick.choice(actions)
            r = await client.post(
                f"/api/rooms/{room_id}/actions", json={"version": version, "action": action}, headers=auth(tokens[seat])
            )
            assert r.status_code == 200, r.text
        else:
            raise AssertionError("no reaction window opened in 600 moves")
        window_version = view["version"]
        asked = set(view["to_act"])
        await backdate_turn(client, room_id, 61)
        await client.post(f"/api/rooms/{room_id}/chat", json={"text": "hurry"}, headers=auth(tokens[0]))
        view = await wait_until(client, room_id, lambda v: not (v["view"] or {}).get("reaction"))
        assert view["version"] > window_version
        assert any(view["room"]["seats"][s]["bot"] == "strong" for s in asked)


async def test_a_turn_that_runs_out_on_two_instances_seats_its_stand_in_once(postgres_url, caplog):
    """Every instance's timer computes the same deadline from the database and wakes at it: the
    stand-in is seated once (one write, one change), not once per instance."""
    caplog.set_level("INFO", logger="troika_arena.timers")
    async with running_app(postgres_url, bot_delay_seconds=60.0) as a, running_app(postgres_url) as b:
        room_id, tokens = await create_started_room(a, "troika", 2, turn_timer=60)
        late = (await a.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        await backdate_turn(a, room_id, 61)
        b.app.state.rooms.forget(room_id)  # (the turn was backdated behind both instances' backs)
        await a.post(f"/api/rooms/{room_id}/chat", json={"text": "hurry"}, headers=auth(tokens[1 - late]))
        await wait_until(b, room_id, lambda v: v["room"]["seats"][late]["bot"] == "strong")
        await asyncio.sleep(0.5)
        assert caplog.text.count("ran out of time") == 1


async def test_a_timer_that_wakes_after_the_game_moved_on_hands_no_seat_to_a_bot():
    """The game a timer reads before its sleep is the held one, advanced in place by a move (on
    another instance, no poke restarts the timer): it compares the version it read, not the same
    object with itself."""
    info = SimpleNamespace(
        game="troika", status="playing", humans={0, 1}, bots={}, turn_deadline=lambda: datetime.now(UTC) - timedelta(1)
    )
    held = SimpleNamespace(version=7, state=GAMES["troika"].setup(2, {}, "timer"))
    handed = []

    class Rooms:
        async def room(self, _room_id):
            return info

        async def game_state(self, _room_id):
            held.version += 1  # (each read finds a move made since the last)
            return info, held

    class Lobby:
        async def set_autopilot(self, *args):
            handed.append(args)

    await TurnTimers(Rooms(), Lobby()).watch("r")  # type: ignore[arg-type]
    assert handed == []


async def test_a_reaction_windows_timeout_does_not_tell_who_had_answered():
    """Ruling V10 hides who has answered a reaction window; the timer handed a stand-in only to
    the seats that had not, and the room's seats showed it to everyone (a security probe,
    2026-12-07). Every seat the window shows as asked gets one."""
    state = adv(3, hands={0: ["Banco de Portugalândia"], 1: ["Sindicatos"], 2: ["Claque"]}, money={1: 3})
    state = act(state, 0, {"type": "hand_action", "card": G["Banco de Portugalândia"], "opponent": 1})
    state = act(state, 2, {"type": "no_reaction", "round": False})  # seat 2 has answered, in secret
    assert VEM.to_act(state) == {1} and VEM.public_to_act(state) == {1, 2}
    info = SimpleNamespace(
        game="vem-ai-a-troika",
        status="playing",
        humans={0, 1, 2},
        bots={},
        turn_deadline=lambda: datetime.now(UTC) - timedelta(1),
    )
    held = SimpleNamespace(version=7, state=state)
    handed = []

    class Rooms:
        async def room(self, _room_id):
            return info

        async def game_state(self, _room_id):
            return info, held

    class Lobby:
        async def set_autopilot(self, _room_id, by_seat, seat, level):
            handed.append((by_seat, seat, level))

    await TurnTimers(Rooms(), Lobby()).watch("r")  # type: ignore[arg-type]
    assert handed == [(None, 1, "strong"), (None, 2, "strong")]


def test_the_timer_banner_names_only_the_awaited_seats_a_person_plays():
    """A bot's seat moves on its own: the banner said "30 s left for Strong bot 2 (then a bot
    plays the seat…)" while the bot thought (a player's probe, 2026-12-07)."""
    seats = [{"seat": 0, "bot": None}, {"seat": 1, "bot": "strong"}, {"seat": 2, "bot": None}]
    room = {"turn_deadline": "2026-12-07T01:00:00+00:00", "turn_seconds": 30, "seats": seats}
    seen = SimpleNamespace(p={"room": room, "to_act": [1]}, names={0: "Ana", 1: "Strong bot 2", 2: "Bo"})
    assert timer(seen) == {}, "no banner while only a bot is awaited"
    seen.p["to_act"] = [0, 1, 2]
    assert timer(seen) == {"deadline": room["turn_deadline"], "seconds": 30, "players": ["Ana", "Bo"]}
