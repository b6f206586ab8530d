"""Strict everywhere (issue 27): every request body is closed (a field the call does not name
is refused, named: 422 ``unknown_field``, while a body that does not read as the call's is 400
``invalid_request``, even with a field more),
an idempotency key means the same on join, start and move (sent again with other content: 422
``idempotency_key_reused``), and seat-valued options are integers."""

from __future__ import annotations

import pytest

from tests.conftest import auth, create_started_room

KEY = "0b7c2d4e-9f18-4a3b-8c5d-6e7f8a9b0c1d"


async def open_room(client) -> tuple[str, str]:
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})
    return r.json()["room"]["id"], r.json()["token"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/rooms", {"game": "troika", "seats": 3, "name": "Ana", "colour": "red"}),
        ("POST", "/api/rooms/{room}/seats", {"name": "Bo", "colour": "red"}),
        ("POST", "/api/rooms/{room}/start", {"idempotency_key": KEY, "colour": "red"}),
        ("POST", "/api/rooms/{room}/chat", {"text": "hi", "colour": "red"}),
        ("PUT", "/api/rooms/{room}/seats/me/autopilot", {"bot": None, "colour": "red"}),
        ("POST", "/api/rooms/{room}/actions", {"version": 0, "action": {"type": "pass"}, "colour": "red"}),
        ("PUT", "/api/rooms/{room}/seats/1/autopilot", {"bot": "random", "colour": "red"}),
        ("POST", "/api/rooms", {"game": "troika", "seats": 3, "name": "Ana", "options": {"colour": "red"}}),
        ("POST", "/api/rooms/{room}/seats", {"bot": "random", "seat": 1, "idempotency_key": KEY, "colour": "red"}),
    ],
)
async def test_a_field_the_call_does_not_name_is_422_and_named(client, method, path, body):
    room_id, host = await open_room(client)
    rooms_before = len((await client.get("/api/rooms")).json())
    r = await client.request(method, path.format(room=room_id), json=body, headers=auth(host))
    assert r.status_code == 422 and r.json()["error"] == "unknown_field", r.text
    assert r.json()["message"] == f"unknown field: {'options.' if 'options' in body else ''}colour", r.text
    info = (await client.get(f"/api/rooms/{room_id}")).json()
    assert info["status"] == "open" and [s["name"] for s in info["seats"]] == ["Ana", None, None]
    assert len((await client.get("/api/rooms")).json()) == rooms_before  # nothing was made
    assert (await client.get(f"/api/rooms/{room_id}/chat")).json()["messages"] == []


async def test_every_field_more_is_named_and_a_body_wrong_otherwise_too_is_400(client):
    room_id, host = await open_room(client)
    url = f"/api/rooms/{room_id}/chat"
    r = await client.post(url, json={"text": "hi", "colour": "red", "size": 3}, headers=auth(host))
    assert (r.status_code, r.json()["message"]) == (422, "unknown field: colour, size"), r.text
    for malformed in ({"text": 5, "colour": "red"}, {"colour": "red"}, ["text", "hi"], "hi"):
        r = await client.post(url, json=malformed, headers=auth(host))
        assert r.status_code == 400 and r.json()["error"] == "invalid_request", (malformed, r.text)
    r = await client.post(
        url, content=b'{"text": "hi", "colour": ', headers={**auth(host), "content-type": "application/json"}
    )
    assert r.status_code == 400 and r.json()["error"] == "invalid_request", r.text
    assert (await client.get(url)).json()["messages"] == []


async def test_a_join_key_sent_again_with_another_name_is_422_and_takes_no_seat(client):
    room_id, _ = await open_room(client)
    url = f"/api/rooms/{room_id}/seats"
    first = await client.post(url, json={"name": "Bo", "idempotency_key": KEY})
    assert first.status_code == 201
    again = await client.post(url, json={"name": "Bo", "idempotency_key": KEY})
    assert again.json() == {**first.json(), "duplicate": True}  # the same key and name: the same seat
    other = await client.post(url, json={"name": "Cy", "idempotency_key": KEY})
    assert other.status_code == 422 and other.json()["error"] == "idempotency_key_reused", other.text
    seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert [s["name"] for s in seats] == ["Ana", "Bo", None]
    # A key is the join's in its own room only.
    elsewhere, _ = await open_room(client)
    assert (await client.post(f"/api/rooms/{elsewhere}/seats", json={"name": "Cy", "idempotency_key": KEY})).is_success


async def test_seat_valued_options_are_integers_and_a_seat_as_text_is_read_as_before(client):
    troika = next(g for g in (await client.get("/api/games")).json() if g["slug"] == "troika")
    choices = next(o for o in troika["options"] if o["name"] == "first_player")["choices"]
    assert choices == ["random", 0, 1, 2, 3, 4]
    for chosen in (2, "2"):  # (the text is how rooms made before 1.0 stored it; it is still read, as the seat)
        room_id, _ = await create_started_room(client, "troika", 3, options={"first_player": chosen})
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        assert view["room"]["options"]["first_player"] == 2 and view["view"]["first_player"] == 2, "stored as the seat"
    for wrong in (3, "3", -1, 2.0, True, "two", "²"):
        body = {"game": "troika", "seats": 3, "name": "Ana", "options": {"first_player": wrong}}
        r = await client.post("/api/rooms", json=body)
        assert r.status_code == 400, (wrong, r.text)


async def test_an_action_with_a_field_more_is_422_naming_it_and_one_a_field_short_is_400(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    token = tokens[view["to_act"][0]]
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(token))).json()
    action = next(a["action"] for a in legal["legal_actions"] if len(a["action"]) > 1)
    url = f"/api/rooms/{room_id}/actions"
    r = await client.post(url, json={"version": 0, "action": {**action, "colour": 1}}, headers=auth(token))
    assert (r.status_code, r.json()["error"]) == (422, "unknown_field"), r.text
    assert r.json()["message"] == "unknown field: action.colour"
    short = {key: value for key, value in action.items() if key == "type"}
    r = await client.post(url, json={"version": 0, "action": {**short, "colour": 1}}, headers=auth(token))
    assert (r.status_code, r.json()["error"]) == (400, "invalid_request"), r.text
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0
