"""Findings of a hostile-client probe of a running server, each answered without a 500.

Deeply nested JSON (a thousand levels fits in a 64 KB body) once reached code that recurses:
the engine's lookup among the listed actions (whose "not in list" error prints the value), the
browser's resend key, and Python's JSON parser for a clicked action or an uploaded deck. A
move nested deeper than an action can be is refused at the room service's edge, whoever
sends it, and the browser's forms parse JSON with a depth limit; the room stays playable. A
body the framework itself cannot decode (not UTF-8, too deep for the parser) is the API's 400
``invalid_request``, like any other body that is not JSON, on every call that takes one.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import auth, create_started_room
from tests.support.pages import HTMX, create_by_form
from tests.support.registered import seated

CASES = seated(2)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


async def seat_to_act(client, room_id, tokens):
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    seat = view["to_act"][0]
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    return seat, legal["version"], legal["legal_actions"][0]["action"]


@pytest.mark.parametrize(("game", "seats"), CASES)
async def test_a_deeply_nested_move_is_refused_and_the_room_plays_on(client, game, seats):
    room_id, tokens = await create_started_room(client, game, seats)
    seat, version, action = await seat_to_act(client, room_id, tokens)
    field = next(key for key in action if key != "type")
    for depth in (1000, 1020):
        for key in (field, "extra"):
            move = {"version": version, "idempotency_key": "deep-move", "action": {"type": action["type"], key: 0}}
            text = json.dumps(move).replace(f'"{key}": 0', f'"{key}": {nested(depth)}')
            r = await client.post(
                f"/api/rooms/{room_id}/actions",
                content=text,
                headers={"content-type": "application/json", **auth(tokens[seat])},
            )
            # refused as malformed: by the game's typed action shapes (app/api/shapes.py) where
            # the field takes no list, else by the nesting bound
            assert r.status_code == 400 and r.json()["error"] == "invalid_request", r.text
            assert len(r.text) < 1000, "the refusal does not echo the nested value back"
    r = await client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(tokens[seat]),
        json={"version": version, "action": action, "idempotency_key": "deep-move"},
    )
    assert r.status_code == 200 and r.json()["version"] == version + 1, r.text


async def test_a_deeply_nested_click_is_refused_in_place(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat, version, action = await seat_to_act(client, room_id, tokens)
    for depth in (990, 10_000):
        r = await client.post(
            f"/rooms/{room_id}/seat/{tokens[seat]}/act",
            data={"action": nested(depth), "version": str(version)},
            headers=HTMX,
        )
        assert r.status_code == 200 and ("malformed" in r.text or "nested" in r.text), r.text[:300]
    r = await client.post(
        f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json={"version": version, "action": action}
    )
    assert r.status_code == 200, r.text


async def test_a_deeply_nested_deck_file_is_refused_as_not_json(client):
    files = {"opt_deck": ("deep.json", nested(20_000), "application/json")}
    r = await create_by_form(client, game="vem-ai-a-troika", files=files)
    assert r.status_code == 400 and "not valid JSON" in r.text, r.text[:300]


UNDECODABLE = {
    "not UTF-8": b"\xff{}",
    "a number too long to read": b'{"a":' + b"9" * 5000 + b"}",
    "nested past the parser's depth": nested(5000).encode(),
}


@pytest.mark.parametrize("body", UNDECODABLE.values(), ids=UNDECODABLE.keys())
async def test_a_body_the_framework_cannot_decode_is_400_invalid_request(client, body):
    room_id, tokens = await create_started_room(client, "troika", 2)
    headers = {**auth(tokens[0]), "content-type": "application/json"}
    for path in ["/api/rooms"] + [f"/api/rooms/{room_id}/{call}" for call in ("seats", "start", "chat", "actions")]:
        r = await client.post(path, content=body, headers=headers)
        assert (r.status_code, r.json()["error"]) == (400, "invalid_request"), (path, r.text[:200])
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


async def test_the_calls_that_take_no_body_refuse_one_that_says_anything(client):
    """Every body is closed, a bodyless call's too: fields are 422 ``unknown_field`` (named),
    anything but an object 400; nothing is done. An empty body or ``{}`` is no body."""
    room_id, tokens = await create_started_room(client, "troika", 2)
    calls = [
        ("POST", f"/api/rooms/{room_id}/close"),
        ("POST", f"/api/rooms/{room_id}/review"),
        ("POST", f"/api/rooms/{room_id}/again"),
        ("POST", f"/api/rooms/{room_id}/seats/1/reissue"),
        ("DELETE", f"/api/rooms/{room_id}/seats/me"),
        ("DELETE", f"/api/rooms/{room_id}/seats/1"),
    ]
    headers = {**auth(tokens[0]), "content-type": "application/json"}
    for method, path in calls:
        r = await client.request(method, path, content=b'{"seat": 0, "x": 1}', headers=headers)
        assert (r.status_code, r.json()) == (422, {"error": "unknown_field", "message": "unknown field: seat, x"}), path
        for body in (b"[1]", b"0", b"seat=0", *UNDECODABLE.values()):
            r = await client.request(method, path, content=body, headers=headers)
            assert (r.status_code, r.json()["error"]) == (400, "invalid_request"), (path, body)
        r = await client.request(method, path, content=b"{" + b" " * 70 * 1024 + b"}", headers=headers)
        assert (r.status_code, r.json()["error"]) == (413, "too_large"), path
    room = (await client.get(f"/api/rooms/{room_id}")).json()
    assert (room["status"], room["version"]) == ("playing", 0)
    r = await client.post(f"/api/rooms/{room_id}/seats/1/reissue", content=b"{}", headers=headers)
    assert r.status_code == 200, r.text
    assert (await client.post(f"/api/rooms/{room_id}/close", content=b" ", headers=headers)).status_code == 200
