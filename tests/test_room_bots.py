"""Bots in rooms: the host seats bots, a player can hand their seat to a bot and take it back,
bot-only rooms play to the end through the server, and bots resume after a restart."""

from __future__ import annotations

import asyncio
import random

from tests.conftest import auth, running_app
from tests.support.registered import seated
from tests.support.rooms import FAST, wait_until


async def new_room(client, game, seats, name="Ana", options=None):
    r = await client.post("/api/rooms", json={"game": game, "seats": seats, "name": name, "options": options or {}})
    return r.json()["room"]["id"], r.json()["token"]


async def test_only_the_host_seats_bots_and_only_before_the_start(sqlite_url):
    async with running_app(sqlite_url, **FAST) as client:
        room_id, host = await new_room(client, "troika", 3)
        guest = (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})).json()["token"]
        url = f"/api/rooms/{room_id}/seats"
        assert (await client.post(url, json={"bot": "strong"})).status_code == 401
        assert (await client.post(url, json={"bot": "strong"}, headers=auth(guest))).status_code == 403
        assert (await client.post(url, json={"bot": "genius"}, headers=auth(host))).status_code == 400
        assert (await client.post(url, json={"bot": "random", "seat": 1}, headers=auth(host))).status_code == 409
        r = await client.post(url, json={"bot": "random"}, headers=auth(host))
        assert r.status_code == 201 and r.json() == {"seat": 2, "bot": "random"}
        seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
        assert seats[2]["bot"] == "random" and seats[2]["human"] is False and seats[1]["human"] is True
        assert (await client.delete(f"{url}/1", headers=auth(host))).status_code == 404  # a person
        assert (await client.delete(f"{url}/2", headers=auth(host))).status_code == 200
        assert (await client.post(url, json={"bot": "random"}, headers=auth(host))).status_code == 201
        await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
        assert (await client.delete(f"{url}/2", headers=auth(host))).status_code == 409
        assert (await client.post(url, json={"bot": "random"}, headers=auth(host))).status_code == 409


async def test_a_bot_never_takes_a_name_a_player_holds(sqlite_url):
    """A player who joined as "Strong bot 3" (any case) keeps the name, and the strong bot then
    seated in seat 3 is "Strong bot 3 (2)": two seats called alike could not be told apart in
    the log, the chat or the scores. A name no one holds is left as it is."""
    async with running_app(sqlite_url, **FAST) as client:
        room_id, host = await new_room(client, "troika", 4)
        url = f"/api/rooms/{room_id}/seats"
        assert (await client.post(url, json={"name": "strong BOT 3"})).status_code == 201
        for seat in (2, 3):
            assert (await client.post(url, json={"bot": "strong", "seat": seat}, headers=auth(host))).status_code == 201
        names = [s["name"] for s in (await client.get(f"/api/rooms/{room_id}")).json()["seats"]]
        assert names == ["Ana", "strong BOT 3", "Strong bot 3 (2)", "Strong bot 4"]


async def test_a_person_plays_a_whole_game_alone_with_bots(sqlite_url):
    async with running_app(sqlite_url, **FAST) as client:
        # The person starts round 1: otherwise the bots can end every round by calling "Troika!"
        # before the person's first turn (about one seed in sixteen), and seat 0 never acts.
        room_id, host = await new_room(client, "troika", 4, options={"first_player": 0})
        for level in ("random", "strong", "expert"):
            await client.post(f"/api/rooms/{room_id}/seats", json={"bot": level}, headers=auth(host))
        await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
        rng = random.Random(3)
        for _ in range(2000):
            view = await wait_until(client, room_id, lambda v: v["status"] != "playing" or 0 in v["to_act"])
            if view["status"] == "finished":
                break
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(host))).json()
            options = [a["action"] for a in legal["legal_actions"]]
            choice = rng.choice([a for a in options if a["type"] != "troika"] or options)
            r = await client.post(
                f"/api/rooms/{room_id}/actions",
                headers=auth(host),
                json={"version": legal["version"], "action": choice},
            )
            assert r.status_code in (200, 409), r.text
        assert view["status"] == "finished" and view["outcome"]["winners"]
        record = (await client.get(f"/api/rooms/{room_id}/record")).json()
        assert {a["seat"] for a in record["actions"]} == {0, 1, 2, 3}
        assert [s["bot"] for s in (await client.get(f"/api/rooms/{room_id}")).json()["seats"]] == [
            None,
            "random",
            "strong",
            "expert",
        ]


async def test_a_room_of_bots_plays_to_the_end_and_can_be_watched(sqlite_url):
    async with running_app(sqlite_url, **FAST) as client:
        for game, seats in seated(2):
            room_id, host = await new_room(client, game, seats)
            for _ in range(seats - 1):
                await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(host))
            r = await client.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": "random"}, headers=auth(host))
            assert r.status_code == 200
            await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
            view = await wait_until(client, room_id, lambda v: v["status"] == "finished", timeout=120)
            assert view["seat"] is None and view["outcome"]["winners"], game


async def test_autopilot_hands_the_seat_to_a_bot_and_back(sqlite_url):
    async with running_app(sqlite_url, **FAST) as client:
        room_id, host = await new_room(client, "troika", 2)
        await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(host))
        await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
        await client.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": "random"}, headers=auth(host))
        await wait_until(client, room_id, lambda v: v["version"] >= 12)
        await client.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": None}, headers=auth(host))
        view = await wait_until(client, room_id, lambda v: 0 in v["to_act"])
        await asyncio.sleep(0.3)
        still = (await client.get(f"/api/rooms/{room_id}/view")).json()
        assert still["version"] == view["version"], "no bot plays a seat its owner took back"


async def test_bots_resume_after_a_restart(sqlite_url):
    async with running_app(sqlite_url, bot_delay_seconds=3600.0) as client:
        room_id, host = await new_room(client, "troika", 2)
        await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(host))
        await client.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": "random"}, headers=auth(host))
        await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
        await asyncio.sleep(0.2)
        assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0
    async with running_app(sqlite_url, **FAST) as client:
        await wait_until(client, room_id, lambda v: v["version"] >= 5)


async def test_a_watchers_finished_task_is_let_go_and_its_failure_logged(caplog):
    """Every move pokes the watchers of its room; a finished task must not stay held (one per
    room ever played would pile up), and a failing one is logged."""
    from app.rooms.watchers import RoomWatcher

    class Probe(RoomWatcher):
        async def watch(self, room_id: str) -> None:
            await asyncio.sleep(0)
            if room_id == "bad":
                raise ValueError("boom")

    watcher = Probe(rooms=None)
    for room_id in ("a", "b", "bad"):
        watcher.poke(room_id)
    assert set(watcher._tasks) == {"a", "b", "bad"}  # (inside: a failed task must not stay held)
    for _ in range(5):
        await asyncio.sleep(0)
    assert watcher._tasks == {}
    assert "Probe failed" in caplog.text and "boom" in caplog.text


async def test_a_bot_whose_move_another_instance_made_during_its_pause_looks_again(postgres_url, caplog):
    """Two instances run the same bot: the quick one moves it while the other pauses. The slow
    one, waking, must see that the game moved on (its held game is the same object, advanced in
    place) and look again, not choose for a seat the game no longer awaits: that failed ("a bot
    can only choose among a non-empty list of legal actions") and logged an error for nearly
    every bot move of a two-instance server."""
    async with running_app(postgres_url, bot_delay_seconds=0.3) as slow, running_app(postgres_url, **FAST):
        room_id, host = await new_room(slow, "troika", 2)
        await slow.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(host))
        await slow.post(f"/api/rooms/{room_id}/start", headers=auth(host))
        rng = random.Random(3)
        for _ in range(4):
            view = await wait_until(slow, room_id, lambda v: v["to_act"] == [0] or v["status"] != "playing")
            if view["status"] != "playing":
                break
            legal = (await slow.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(host))).json()
            moves = [a["action"] for a in legal["legal_actions"] if a["action"]["type"] != "troika"]
            body = {"version": legal["version"], "action": rng.choice(moves)}
            assert (await slow.post(f"/api/rooms/{room_id}/actions", headers=auth(host), json=body)).status_code == 200
            await asyncio.sleep(0.5)  # the slow instance's pause ends after the quick one moved the bot
        assert "BotRunner failed" not in caplog.text
