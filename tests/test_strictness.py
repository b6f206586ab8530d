"""Strict everywhere (issue 27): every request body is closed (a field the call does not name
is refused, named: 400 ``invalid_request``, as every body that does not fit the call's schema),
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
    ],
)
async def test_a_field_the_call_does_not_name_is_refused_and_named(client, method, path, body):
    room_id, host = await open_room(client)
    rooms_before = len((await client.get("/api/rooms")).json())
    r = await client.request(method, path.format(room=room_id), json=body, headers=auth(host))
    assert r.status_code == 400 and r.json()["error"] == "invalid_request", r.text
    assert "colour" in r.json()["message"], r.text
    info = (await client.get(f"/api/rooms/{room_id}")).json()
    assert info["status"] == "open" and [s["name"] for s in info["seats"]] == ["Ana", None, None]
    assert len((await client.get("/api/rooms")).json()) == rooms_before  # nothing was made
    assert (await client.get(f"/api/rooms/{room_id}/chat")).json()["messages"] == []


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
    for chosen in (2, "2"):  # (the text is how rooms made before 1.0 stored it)
        room_id, _ = await create_started_room(client, "troika", 3, options={"first_player": chosen})
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        assert view["room"]["options"]["first_player"] == chosen and view["view"]["first_player"] == 2
    for wrong in (3, "3", -1, 2.0, True, "two", "²"):
        body = {"game": "troika", "seats": 3, "name": "Ana", "options": {"first_player": wrong}}
        r = await client.post("/api/rooms", json=body)
        assert r.status_code == 400, (wrong, r.text)
