"""Unlisted rooms: a room created unlisted (API ``"listed": false``, or the lobby form's box)
stays out of the lobby page and GET /api/rooms, and is found only through its invite link; the
lobby also lists the listed games in play, for spectators."""

from __future__ import annotations

import re

from tests.conftest import auth

HTML = {"accept": "text/html"}


async def create(client, listed=True, seats=2, name="Ana"):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": seats, "name": name, "listed": listed})
    assert r.status_code == 201, r.text
    return r.json()["room"]["id"], r.json()["token"]


async def start(client, room_id, host_token):
    assert (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bruno"})).status_code == 201
    assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth(host_token))).status_code == 200


def listed_ids(html: str, list_id: str) -> list[str]:
    match = re.search(rf'<ul class="room-list" id="{list_id}">(.*?)</ul>', html, re.S)
    return sorted(set(re.findall(r'href="/rooms/([^"/]+)"', match.group(1)))) if match else []


async def test_an_unlisted_room_is_found_only_through_its_link(client):
    hidden, _ = await create(client, listed=False)
    shown, _ = await create(client)
    for path in ("/api/rooms", "/api/rooms?status=open"):
        ids = [room["id"] for room in (await client.get(path)).json()]
        assert shown in ids and hidden not in ids
    for path in ("/", "/lobby/rooms"):
        page = (await client.get(path, headers=HTML)).text
        assert shown in listed_ids(page, "waiting-rooms") and hidden not in page
    room = (await client.get(f"/api/rooms/{hidden}")).json()
    assert room["listed"] is False and room["status"] == "open"
    assert "unlisted" in (await client.get(f"/rooms/{hidden}", headers=HTML)).text
    joined = await client.post(f"/api/rooms/{hidden}/seats", json={"name": "Bruno"})  # the invite link works
    assert joined.status_code == 201 and joined.json()["seat"] == 1


async def test_the_lobby_lists_listed_games_in_play_for_spectators(client):
    playing, host = await create(client)
    secret, secret_host = await create(client, listed=False)
    await start(client, playing, host)
    await start(client, secret, secret_host)
    page = (await client.get("/", headers=HTML)).text
    assert listed_ids(page, "playing-rooms") == [playing]
    assert playing not in listed_ids(page, "waiting-rooms") and secret not in page
    assert "Watch" in page
    ids = [room["id"] for room in (await client.get("/api/rooms?status=playing")).json()]
    assert playing in ids and secret not in ids
    watched = await client.get(f"/rooms/{playing}", headers=HTML)
    assert watched.status_code == 200 and "You are watching as a spectator" in watched.text
    # a player who opened the invite link again, not their seat's, is told how to get it back
    assert "if you lost it, the host can give your seat a new one" in watched.text


async def test_the_lobby_form_creates_an_unlisted_room(client):
    data = {"game": "troika", "seats": "2", "name": "Ana"}
    r = await client.post("/rooms", data={**data, "unlisted": "on"}, headers=HTML)
    assert r.status_code == 303, r.text
    room_id = r.headers["location"].split("/")[2]
    assert (await client.get(f"/api/rooms/{room_id}")).json()["listed"] is False
    r = await client.post("/rooms", data=data, headers=HTML)
    room_id = r.headers["location"].split("/")[2]
    assert (await client.get(f"/api/rooms/{room_id}")).json()["listed"] is True
    assert 'name="unlisted"' in (await client.get("/", headers=HTML)).text


async def test_listed_must_be_a_json_boolean(client):
    before = len((await client.get("/api/rooms")).json())
    for wrong in ("false", 0, 1, None, [], {"x": 1}, 0.0):
        r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana", "listed": wrong})
        assert r.status_code == 400, (wrong, r.text)
        assert set(r.json()) >= {"error", "message"} and "listed" in r.text
    assert len((await client.get("/api/rooms")).json()) == before
