"""The API's guards: numbers and strings that a database cannot hold answer 404 or 400, never
500 (on both databases); room creation is rate-limited per client address, and chat per seat,
with a Retry-After."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.conftest import auth, create_started_room, running_app
from tests.support.databases import BACKENDS

HUGE = "100000000000000000000000000000"
HTML = {"accept": "text/html"}


@pytest.fixture(params=BACKENDS)
def database_url(request, sqlite_url):
    return sqlite_url if request.param == "sqlite" else request.getfixturevalue("postgres_url")


async def post_escaped(client, path, body, headers):
    """POST ``body`` as ASCII JSON, so that a lone surrogate travels as its ``\\ud800`` escape."""
    return await client.post(path, content=json.dumps(body), headers={**headers, "content-type": "application/json"})


async def test_seat_numbers_beyond_the_databases_range_are_404(database_url):
    async with running_app(database_url) as client:
        r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})
        room_id, host = r.json()["room"]["id"], r.json()["token"]
        for number in (HUGE, f"-{HUGE}", str(2**63), str(2**31), "-1", "7"):
            r = await client.delete(f"/api/rooms/{room_id}/seats/{number}", headers=auth(host))
            assert r.status_code == 404, (number, r.text)
            r = await client.put(
                f"/api/rooms/{room_id}/seats/{number}/autopilot", json={"bot": "random"}, headers=auth(host)
            )
            assert r.status_code == 404, (number, r.text)
        r = await client.post(
            f"/api/rooms/{room_id}/seats", json={"bot": "random", "seat": int(HUGE)}, headers=auth(host)
        )
        assert r.status_code == 400 and "less than or equal to 4" in r.text, r.text  # beyond the schema's seats
        r = await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random", "seat": 4}, headers=auth(host))
        assert r.status_code == 404 and "no such seat" in r.text, r.text  # a seat the schema allows, not this room's
        for number in (HUGE, str(2**63)):  # the browser's forms reach the same service calls
            for action in (f"bots/{number}/remove", f"replace/{number}"):
                r = await client.post(f"/rooms/{room_id}/seat/{host}/{action}", headers=HTML)
                assert r.status_code < 500 and "No such seat: this room&#39;s seats are 0 to 1" in r.text, r.text[-300:]


async def test_seat_numbers_in_paths_are_written_in_plain_digits(sqlite_url):
    async with running_app(sqlite_url) as client:
        room_id, tokens = await create_started_room(client, "troika", 2)
        for written in ("1.0", "+1", "%201", "1%20", "%D9%A1", "1e0", "0x1", "true", "01", "00"):
            r = await client.put(
                f"/api/rooms/{room_id}/seats/{written}/autopilot", json={"bot": "random"}, headers=auth(tokens[0])
            )
            assert r.status_code == 400 and r.json()["error"] == "invalid_request", (written, r.text)
            r = await client.delete(f"/api/rooms/{room_id}/seats/{written}", headers=auth(tokens[0]))
            assert r.status_code == 400, (written, r.text)
        r = await client.put(f"/api/rooms/{room_id}/seats/1/autopilot", json={"bot": "random"}, headers=auth(tokens[0]))
        assert r.status_code == 409 and "that player is here" in r.json()["message"], r.text  # seat 1, read


async def test_strings_a_database_cannot_store_are_refused_not_500(database_url):
    async with running_app(database_url) as client:
        room_id, tokens = await create_started_room(client, "troika", 2)
        for odd in ("a%00b", "x" * 40, "%C3%A9t%C3%A9", "a.b", "%20"):
            for path in (f"/api/rooms/{odd}", f"/api/rooms/{odd}/view", f"/api/rooms/{odd}/chat"):
                r = await client.get(path)
                assert r.status_code == 404, (path, r.text)
        for text in ("a\x00b", "a\ud800b"):
            r = await post_escaped(client, f"/api/rooms/{room_id}/chat", {"text": text}, auth(tokens[0]))
            assert r.status_code == 400, r.text
        seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
        action = legal["legal_actions"][0]["action"]
        for key in ("k\x00", "k\ud800", "", "k" * 65):
            r = await post_escaped(
                client,
                f"/api/rooms/{room_id}/actions",
                {"version": 0, "action": action, "idempotency_key": key},
                auth(tokens[seat]),
            )
            assert r.status_code == 400, (key, r.text)  # a malformed key (issue 17: 400, never 422)
        assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


async def test_room_creation_is_rate_limited_per_client_address_with_retry_after(sqlite_url):
    async with running_app(sqlite_url, room_creation_limit="3/minute") as client:
        body = {"game": "troika", "seats": 2, "name": "Ana"}
        codes = [(await client.post("/api/rooms", json=body)).status_code for _ in range(3)]
        assert codes == [201] * 3
        r = await client.post("/api/rooms", json=body)
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert 1 <= int(r.headers["retry-after"]) <= 60 and r.json()["retry_after"] == int(r.headers["retry-after"])
        r = await client.post("/rooms", data={"game": "troika", "seats": "2", "name": "Ana"}, headers=HTML)
        assert r.status_code == 429 and "<html" in r.text and "retry-after" in r.headers
        other = httpx.ASGITransport(app=client.app, client=("203.0.113.9", 4000))
        async with httpx.AsyncClient(transport=other, base_url="http://arena.test") as elsewhere:
            assert (await elsewhere.post("/api/rooms", json=body)).status_code == 201
        assert len((await client.get("/api/rooms")).json()) == 4


async def test_the_chat_limit_answers_retry_after(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    url = f"/api/rooms/{room_id}/chat"
    codes = [(await client.post(url, json={"text": f"m{i}"}, headers=auth(tokens[0]))).status_code for i in range(6)]
    assert codes == [201] * 5 + [429]
    r = await client.post(url, json={"text": "again"}, headers=auth(tokens[0]))
    assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 10
