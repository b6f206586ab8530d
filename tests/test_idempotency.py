"""Idempotency keys: a resent move answers its first result (the version and payload it
produced, however many moves followed), another move sent with a used key is refused, and
starting a room and joining a seat take keys too."""

from __future__ import annotations

import random

import pytest

from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.databases import BACKENDS


async def first_legal(client, room_id, tokens):
    """(seat, version, action): the first legal action of the first seat awaited."""
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    return seat, legal["version"], legal["legal_actions"][0]["action"]


def without_duplicate(payload: dict) -> dict:
    """A reply without ``duplicate``, and its ``change`` as None (a resend's is left out once the
    room has moved on)."""
    return {key: value for key, value in payload.items() if key != "duplicate"} | {"change": None}


async def test_a_resent_key_answers_the_version_and_payload_its_move_produced(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat, version, action = await first_legal(client, room_id, tokens)
    move = {"version": version, "action": action, "idempotency_key": "key-A"}
    first = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
    assert first.status_code == 200 and first.json()["version"] == 1 and first.json()["duplicate"] is False
    await play_random_moves(client, room_id, tokens, 3, random.Random(7))
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 4
    for _ in range(2):  # once rebuilt from the log, once more
        resend = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
        assert resend.status_code == 200 and resend.json()["duplicate"] is True
        assert "change" not in resend.json(), "the room moved on: its change id would skip three views"
        assert without_duplicate(resend.json()) == without_duplicate(first.json())
        client.app.state.rooms.forget(room_id)  # inside on purpose: the next resend is answered from the stored log
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 4


async def test_a_key_reused_for_another_move_or_version_is_refused(client):
    room_id, tokens = await create_started_room(client, "triatri", 3)  # a simultaneous start
    seat, _, action = await first_legal(client, room_id, tokens)
    url, headers = f"/api/rooms/{room_id}/actions", auth(tokens[seat])
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=headers)).json()["legal_actions"]
    other = next(a["action"] for a in legal if a["action"] != action)
    r = await client.post(url, headers=headers, json={"version": 0, "action": action, "idempotency_key": "k"})
    assert r.status_code == 200 and r.json()["version"] == 1
    for reused in ({"version": 0, "action": other}, {"version": 1, "action": action}):
        r = await client.post(url, headers=headers, json={**reused, "idempotency_key": "k"})
        assert r.status_code == 422, r.text
        assert r.json()["message"] == "this key was used for another move" and r.json()["version"] == 1
    r = await client.post(url, headers=headers, json={"version": 0, "action": action, "idempotency_key": "k"})
    assert r.status_code == 200 and r.json()["duplicate"] is True and r.json()["version"] == 1
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert view["version"] == 1 and seat not in view["to_act"]


async def test_a_start_resent_with_its_key_answers_the_first_result_not_409(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    guest = (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})).json()["token"]
    start = f"/api/rooms/{room_id}/start"
    first = await client.post(start, json={"idempotency_key": "start-1"}, headers=auth(host))
    assert first.status_code == 200 and first.json()["duplicate"] is False and first.json()["status"] == "playing"
    await play_random_moves(client, room_id, [host, guest], 2, random.Random(3))
    again = await client.post(start, json={"idempotency_key": "start-1"}, headers=auth(host))
    assert again.status_code == 200 and again.json()["duplicate"] is True and "change" not in again.json()
    assert without_duplicate(again.json()) == without_duplicate(first.json())
    assert (await client.post(start, json={"idempotency_key": "start-2"}, headers=auth(host))).status_code == 409
    assert (await client.post(start, headers=auth(host))).status_code == 409
    assert (await client.post(start, json={"idempotency_key": "start-1"}, headers=auth(guest))).status_code == 403


async def test_a_join_resent_with_its_key_and_name_answers_the_same_seat_and_token(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 4, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    url, key = f"/api/rooms/{room_id}/seats", "0b7e6c1a-5f7e-4d1c-9a51-3c1f0a2d9e44"
    first = await client.post(url, json={"name": "Bo", "idempotency_key": key})
    assert first.status_code == 201 and first.json()["duplicate"] is False
    again = await client.post(url, json={"name": "Bo", "idempotency_key": key})
    assert again.status_code == 201 and again.json()["duplicate"] is True
    assert (again.json()["seat"], again.json()["token"]) == (first.json()["seat"], first.json()["token"])
    other = await client.post(url, json={"name": "Carla", "idempotency_key": key})  # same key, another name
    assert other.status_code == 422 and other.json()["error"] == "idempotency_key_reused"  # no seat taken
    assert (await client.post(url, json={"name": "Carla"})).status_code == 201
    view = await client.get(f"/api/rooms/{room_id}/view", headers=auth(first.json()["token"]))
    assert view.status_code == 200 and view.json()["seat"] == first.json()["seat"]
    for wrong in ("k", "x" * 15, "x" * 65, "x" * 15 + "\x00"):  # a join's key stands for its token: 16 to 64
        r = await client.post(url, json={"name": "Duarte", "idempotency_key": wrong})
        assert (r.status_code, r.json()["error"]) == (400, "invalid_request"), (wrong, r.text)
    seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert [s["name"] for s in seats] == ["Ana", "Bo", "Carla", None]
    r = await client.post(url, json={"name": "Duarte", "idempotency_key": "x" * 64})  # the longest
    assert r.status_code == 201, r.text
    assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))).status_code == 200
    after = await client.post(url, json={"name": "Bo", "idempotency_key": key})  # after the start too
    assert after.status_code == 201 and after.json()["token"] == first.json()["token"]
    late = await client.post(url, json={"name": "Eva", "idempotency_key": key})
    assert late.status_code == 422  # the key is Bo's join's, whatever the room's state


@pytest.mark.parametrize("database", BACKENDS)
async def test_a_used_key_on_a_move_legal_now_is_refused_and_writes_nothing(database, sqlite_url, request):
    """The write itself refuses a key the seat used before (no read comes first): a move that
    is legal at the room's version, sent with the seat's old key, is refused as reused and
    changes nothing; the same move with a new key is played."""
    url = sqlite_url if database == "sqlite" else request.getfixturevalue("fresh_postgres_url")
    async with running_app(url) as client:
        room_id, tokens = await create_started_room(client, "troika", 2)
        first_seat, version, action = await first_legal(client, room_id, tokens)
        moves = f"/api/rooms/{room_id}/actions"
        body = {"version": version, "action": action, "idempotency_key": "k"}
        assert (await client.post(moves, headers=auth(tokens[first_seat]), json=body)).status_code == 200
        while True:  # until the first seat is to act again
            seat, version, action = await first_legal(client, room_id, tokens)
            if seat == first_seat:
                break
            assert (
                await client.post(moves, headers=auth(tokens[seat]), json={"version": version, "action": action})
            ).status_code == 200
        reused = {"version": version, "action": action, "idempotency_key": "k"}
        refused = await client.post(moves, headers=auth(tokens[seat]), json=reused)
        assert refused.status_code == 422, refused.text
        assert refused.json()["message"] == "this key was used for another move"
        # inside on purpose: the held game is dropped, so what is read back is what was written
        client.app.state.rooms.forget(room_id)
        assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == version
        played = await client.post(moves, headers=auth(tokens[seat]), json={**reused, "idempotency_key": "k2"})
        assert played.status_code == 200 and played.json()["version"] == version + 1
