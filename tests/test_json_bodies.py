"""A JSON body that names a key twice in one object is refused, on every call under /api and
at any depth (JSON leaves its meaning open: the last value won, unsaid), and nothing of it is
applied; the same body with each key once is taken."""

from __future__ import annotations

import pytest

from app.api.errors import ECHO_LIMIT
from app.api.json_bodies import TOO_DEEP, body_fault
from tests.conftest import auth, create_started_room

JSON = {"content-type": "application/json"}


async def test_a_new_room_with_a_key_twice_is_refused_and_none_is_made(client):
    twice = b'{"game": "troika", "seats": 2, "name": "Ana", "name": "Eve"}'
    r = await client.post("/api/rooms", content=twice, headers=JSON)
    assert r.status_code == 400 and r.json() == {
        "error": "invalid_request",
        "message": 'body: the key "name" is given twice in one object',
    }
    assert (await client.get("/api/rooms")).json() == []
    once = b'{"game": "troika", "seats": 2, "name": "Ana"}'
    assert (await client.post("/api/rooms", content=once, headers=JSON)).status_code == 201


async def test_a_move_with_a_key_twice_deep_inside_is_refused_and_not_played(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    url, headers = f"/api/rooms/{room_id}/actions", {**auth(tokens[view["to_act"][0]]), **JSON}
    r = await client.post(url, content=b'{"version": 0, "action": {"type": "pass", "type": "pass"}}', headers=headers)
    assert r.status_code == 400 and r.json()["message"] == 'body: the key "type" is given twice in one object'
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0
    r = await client.post(url, content=b'{"version": 0, "version": 0, "action": {}}', headers=headers)
    assert r.status_code == 400 and '"version"' in r.json()["message"]


async def test_a_huge_repeated_key_is_named_only_in_part(client):
    key = "k" * 10_000
    r = await client.post("/api/rooms", content=f'{{"{key}": 1, "{key}": 2}}'.encode(), headers=JSON)
    assert r.status_code == 400 and len(r.json()["message"]) == ECHO_LIMIT and r.json()["message"].endswith("…")


@pytest.mark.parametrize(
    ("body", "fault"),
    [
        (b'{"a": 1, "b": {"a": 1}}', None),  # (the same key in two objects is no repeat)
        (b'[{"a": 1}, {"a": 2}]', None),
        (b'{"a": {"b": 1, "b": 2}}', 'body: the key "b" is given twice in one object'),
        (b'{"\\u0061": 1, "a": 2}', 'body: the key "a" is given twice in one object'),  # (escaped: the same key)
        (b'{"a": 1, "a": 2', None),  # (not JSON: the route says so, in its own words)
        (b"\xff", None),
        (b"[" * 100_000 + b"]" * 100_000, TOO_DEEP),  # (past the parser's depth: "not valid JSON" said less)
        (b"[" * 500 + b"]" * 500, None),
    ],
)
def test_the_fault_found_is_the_repeated_key_or_the_depth(body, fault):
    assert body_fault(body) == fault


async def test_a_move_nested_too_deeply_is_told_so(client):
    """A body of valid JSON nested past the parser's depth was answered "not valid JSON" (a
    programmer's probe): it is told what is wrong."""
    room_id, tokens = await create_started_room(client, "troika", 2)
    body = b'{"version": 0, "action": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    r = await client.post(f"/api/rooms/{room_id}/actions", content=body, headers={**auth(tokens[0]), **JSON})
    assert r.status_code == 400 and r.json() == {"error": "invalid_request", "message": TOO_DEEP}
