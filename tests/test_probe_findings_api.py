"""Findings of a programmer's probe of the API (2026-12-06), each pinned: a body sent as a
form's (``curl -d``) is told to be JSON; an error never echoes more than a short piece of the
value it refuses; a number too long for a query is "too large", not "not a number"; a player
who hands another's seat to a bot is told who may; a seat written as text in a new room's
options is stored as the seat. (A bot seated with an idempotency key, which it ignored, is
refused in tests/test_schema_rules.py; a socket of an unknown ``format`` in tests/test_sockets.py;
a seat's forms sent from another site in tests/test_probe_findings_forms.py.)"""

from __future__ import annotations

import json

import pytest

from app.api.errors import ECHO_LIMIT, cut
from tests.conftest import auth, create_started_room

NEW_ROOM = {"game": "troika", "seats": 2, "name": "Ana"}
AS_JSON = "the body must be JSON, sent with Content-Type: application/json"


@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data", None])
async def test_json_sent_as_another_content_type_is_told_to_be_json(client, kind):
    """Sent with no content type, a move was played (its own route read it as JSON) while every
    other route refused the body as "not a valid dictionary", without saying why (2026-12-07)."""
    sent_as = {"content-type": kind} if kind else {}  # (httpx names no type for raw content)
    r = await client.post("/api/rooms", content=json.dumps(NEW_ROOM), headers=sent_as)
    assert r.status_code == 400 and r.json() == {
        "error": "invalid_request",
        "message": f"{AS_JSON} (it came {f'as {kind}' if kind else 'with none'})",
    }
    assert (await client.get("/api/rooms")).json() == []
    room_id, tokens = await create_started_room(client, "troika", 2)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    body = json.dumps({"version": 0, "action": {"type": "pass"}})
    r = await client.post(
        f"/api/rooms/{room_id}/actions", content=body, headers={**auth(tokens[view["to_act"][0]]), **sent_as}
    )
    assert r.status_code == 400 and r.json()["message"].startswith(AS_JSON)
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


async def test_json_with_its_own_content_type_is_read_and_a_wrong_field_still_named(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 2})
    assert r.status_code == 400 and r.json()["message"] == "name: Field required"
    for kind in ("application/json", "application/json; charset=utf-8", "application/merge-patch+json"):
        r = await client.post("/api/rooms", content=json.dumps(NEW_ROOM), headers={"content-type": kind})
        assert r.status_code == 201, (kind, r.text)


async def test_an_error_echoes_at_most_a_short_piece_of_a_huge_value(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    url, headers = f"/api/rooms/{room_id}/actions", auth(tokens[view["to_act"][0]])
    r = await client.post(url, json={"version": 0, "action": {"type": "x" * 60_000}}, headers=headers)
    message = r.json()["message"]
    assert r.status_code == 400 and message.startswith("action: Input tag 'xxx") and message.endswith("…")
    assert len(message) == len("action: ") + ECHO_LIMIT
    r = await client.post(url, json={"version": 0, "action": {"type": "xyz"}}, headers=headers)
    assert "'xyz'" in r.json()["message"] and not r.json()["message"].endswith("…"), "a short one is whole"


def test_an_errors_words_are_cut_past_the_limit_only():
    assert cut("w" * ECHO_LIMIT) == "w" * ECHO_LIMIT
    assert cut("w" * (ECHO_LIMIT + 1)) == "w" * (ECHO_LIMIT - 1) + "…"


async def test_a_query_number_too_long_is_too_large_not_malformed(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    cases = {
        "9" * 19: "too large: at most 18 digits",
        "9" * 18: None,
        "1.0": "a whole number written with the digits 0-9",
    }
    for written, said in cases.items():
        r = await client.get(f"/api/rooms/{room_id}/events", params={"after": written}, headers=auth(tokens[0]))
        if said is None:
            assert r.status_code == 400 and "after" in r.json()["message"] and "digits" not in r.json()["message"]
        else:
            assert r.status_code == 400 and said in r.json()["message"], (written, r.text)


async def test_handing_anothers_seat_to_a_bot_says_who_may(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    url = f"/api/rooms/{room_id}/seats/0/autopilot"
    r = await client.put(url, json={"bot": "strong"}, headers=auth(tokens[1]))  # Bruno, not the host, for Ana
    assert r.status_code == 403 and r.json()["message"] == "only the seat's player or the host can hand it to a bot"
    r = await client.put(url, json={"bot": None}, headers=auth(tokens[1]))
    assert r.status_code == 403 and r.json()["message"] == "only the seat's player can take it back"
    assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][0]["bot"] is None


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "attack", "target": 1, "mode": "control", "cards": [-1]}, "'cards' must be a list of at most 42"),
        ({"type": "attack", "target": 1, "mode": "control", "cards": [3, 3]}, "distinct card ids"),
        ({"type": "attack", "target": 1, "mode": "control", "cards": list(range(43))}, "at most 42"),
        ({"type": "attack", "target": -1, "mode": "control", "cards": [3]}, "'target' must be a whole number"),
        ({"type": "campaign", "cards": [], "money": 1_000_001}, "'money' must be a whole number from 0 to 1000000"),
    ],
)
async def test_an_action_a_client_builds_is_refused_as_malformed_past_the_bounds_its_schema_states(
    client, action, words
):
    """Vem aí's Attack and Campaign are built from a hand, not picked from the legal actions: their
    schemas said only "integer" and "array", and ids past the bounds were 422 illegal_action
    (a programmer's probe, 2026-12-07). The schemas state the bounds; the edge refuses past them."""
    schemas = (await client.get("/openapi.json")).json()["components"]["schemas"]
    cards = schemas["Attack"]["properties"]["cards"]
    assert (cards["maxItems"], cards["uniqueItems"], cards["items"]["minimum"]) == (42, True, 0)
    assert schemas["Campaign"]["properties"]["money"]["maximum"] == 1_000_000
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 2)
    r = await client.post(
        f"/api/rooms/{room_id}/actions", json={"version": 0, "action": action}, headers=auth(tokens[0])
    )
    assert r.status_code == 400 and r.json()["error"] == "invalid_request", r.text
    assert r.json()["message"].startswith("action: '") and words in r.json()["message"], r.json()
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0
    within = {**action, "cards": [3], "target": 1} if action["type"] == "attack" else {**action, "money": 0}
    r = await client.post(
        f"/api/rooms/{room_id}/actions", json={"version": 0, "action": within}, headers=auth(tokens[0])
    )
    assert r.status_code != 400, "within the bounds, the rules decide (not the Leaders' turn for an attack: 422)"


async def test_a_move_sent_with_no_body_is_told_the_body_is_missing(client):
    """It was "Field required", naming no field (a programmer's probe, 2026-12-07)."""
    room_id, tokens = await create_started_room(client, "troika", 2)
    r = await client.post(
        f"/api/rooms/{room_id}/actions", headers={**auth(tokens[0]), "content-type": "application/json"}
    )
    assert (r.status_code, r.json()["message"]) == (400, "body: missing: send a JSON object")


@pytest.mark.parametrize("body", [b"[]", b"5", b'"x"', b"{}"])
async def test_a_body_that_is_not_an_object_is_told_so(client, body):
    """A body of JSON that is not an object was answered in pydantic's words, naming nothing:
    "Input should be a valid dictionary or object to extract fields from" (a programmer's probe);
    an object, even an empty one, is told what it lacks instead."""
    room_id, tokens = await create_started_room(client, "troika", 2)
    headers = {**auth(tokens[0]), "content-type": "application/json"}
    for url in (f"/api/rooms/{room_id}/actions", "/api/rooms"):
        message = (await client.post(url, content=body, headers=headers)).json()["message"]
        assert (message == "body: must be a JSON object") is (body != b"{}"), message
