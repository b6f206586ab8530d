"""The IETF RateLimit fields (issue 27, ``app.rooms.throttle``): every answer of a rate-limited
call (creating a room, a chat line, a hint) carries ``RateLimit-Policy`` (each window: its
quota ``q`` and length ``w``) and ``RateLimit`` (what is left, ``r``, and the seconds ``t``
until the window is whole), counting down to 0 at the limit and on the 429 that follows; calls
no limit counts carry neither; the document names both headers where they come."""

from __future__ import annotations

import re

import pytest

from app.rooms.errors import TooMany
from app.rooms.throttle import Throttle
from tests.conftest import auth, create_started_room, running_app
from tests.support.document import served_document

ITEM = re.compile(r'^"([a-z]+-\d+s)";(\w)=(\d+);(\w)=(\d+)$')


def fields(value: str) -> dict[str, dict[str, int]]:
    """A RateLimit or RateLimit-Policy value as {policy: {parameter: number}}."""
    parsed = {}
    for item in value.split(", "):
        found = ITEM.match(item)
        assert found, value
        name, k1, v1, k2, v2 = found.groups()
        parsed[name] = {k1: int(v1), k2: int(v2)}
    return parsed


async def test_room_creation_counts_down_both_windows_and_its_429_says_none_is_left(sqlite_url):
    async with running_app(sqlite_url, room_creation_limit="3/minute;5/hour") as client:
        body = {"game": "troika", "seats": 2, "name": "Ana"}
        left = []
        for _ in range(3):
            r = await client.post("/api/rooms", json=body)
            assert r.status_code == 201
            policy = fields(r.headers["ratelimit-policy"])
            assert policy == {"rooms-60s": {"q": 3, "w": 60}, "rooms-3600s": {"q": 5, "w": 3600}}
            now = fields(r.headers["ratelimit"])
            assert 0 < now["rooms-60s"]["t"] <= 60 and 0 < now["rooms-3600s"]["t"] <= 3600
            left.append((now["rooms-60s"]["r"], now["rooms-3600s"]["r"]))
        assert left == [(2, 4), (1, 3), (0, 2)]
        refused = await client.post("/api/rooms", json=body)
        assert refused.status_code == 429 and "retry-after" in refused.headers
        assert fields(refused.headers["ratelimit"])["rooms-60s"]["r"] == 0
        assert fields(refused.headers["ratelimit-policy"]) == policy
        for call in ("/api/rooms", "/api/games", "/healthz"):
            answered = await client.get(call)
            assert "ratelimit" not in answered.headers and "ratelimit-policy" not in answered.headers


async def test_a_chat_line_tells_the_seat_what_is_left_of_its_own_limit(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    url = f"/api/rooms/{room_id}/chat"
    seen = []
    for n in range(5):
        r = await client.post(url, json={"text": f"m{n}"}, headers=auth(tokens[0]))
        assert r.status_code == 201 and fields(r.headers["ratelimit-policy"]) == {"chat-10s": {"q": 5, "w": 10}}
        seen.append(fields(r.headers["ratelimit"])["chat-10s"]["r"])
    assert seen == [4, 3, 2, 1, 0]
    r = await client.post(url, json={"text": "one more"}, headers=auth(tokens[0]))
    assert r.status_code == 429 and fields(r.headers["ratelimit"])["chat-10s"]["r"] == 0
    other = await client.post(url, json={"text": "mine"}, headers=auth(tokens[1]))
    assert fields(other.headers["ratelimit"])["chat-10s"]["r"] == 4, "each seat has its own"
    assert "ratelimit" not in (await client.get(url)).headers


async def test_a_limit_holds_over_any_stretch_of_its_window_not_only_its_fixed_ones(monkeypatch):
    """Five chat lines a seat in any 10 s: three just before a whole ten seconds and two just
    after leave no room for a sixth (a sliding-window counter's estimate let it through), and
    one more passes only once the first of the five is 10 s old. A room created just before a
    whole minute is still counted just after it (the counter said 10 left)."""
    clock = [1_000_009.5]
    monkeypatch.setattr("limits.aio.storage.memory.time.time", lambda: clock[0])
    monkeypatch.setattr("app.rooms.throttle.time.time", lambda: clock[0])
    throttle = Throttle()
    for at in (1_000_009.5, 1_000_009.6, 1_000_009.7, 1_000_010.1, 1_000_010.2):
        clock[0] = at
        await throttle.chatting("room", 0)
    clock[0] = 1_000_010.3
    with pytest.raises(TooMany) as refused:
        await throttle.chatting("room", 0)
    assert refused.value.headers["Retry-After"] == "10"  # ceil(1_000_019.5 - 1_000_010.3)
    clock[0] = 1_000_019.4  # the first line is 9.9 s old: still five in the last 10 s
    with pytest.raises(TooMany):
        await throttle.chatting("room", 0)
    clock[0] = 1_000_019.6
    await throttle.chatting("room", 0)
    clock[0] = 1_000_019.9  # a room created just before a whole minute (and ten seconds) ...
    await throttle.creating_room("203.0.113.5")
    clock[0] = 1_000_020.1  # ... is still counted just after it
    assert fields((await throttle.quota("rooms", "203.0.113.5"))["RateLimit"])["rooms-60s"]["r"] == 9


async def test_a_hint_carries_the_fields_and_one_answered_again_counts_nothing(sqlite_url):
    async with running_app(sqlite_url, hint_rollouts=24) as client:
        room_id, tokens = await create_started_room(client, "troika", 2, hints=True)
        seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        url, mine = f"/api/rooms/{room_id}/hint", auth(tokens[seat])
        first, again = await client.get(url, headers=mine), await client.get(url, headers=mine)
        assert first.status_code == again.status_code == 200
        assert fields(first.headers["ratelimit-policy"]) == {"hints-60s": {"q": 6, "w": 60}}
        assert fields(first.headers["ratelimit"])["hints-60s"]["r"] == 5
        assert fields(again.headers["ratelimit"])["hints-60s"]["r"] == 5, "a hint kept is answered freely"


def test_the_document_names_the_fields_where_they_come():
    paths = served_document()["paths"]
    for path, method, status in (
        ("/api/rooms", "post", "201"),
        ("/api/rooms/{room_id}/chat", "post", "201"),
        ("/api/rooms/{room_id}/hint", "get", "200"),
    ):
        headers = paths[path][method]["responses"][status]["headers"]
        assert {"RateLimit", "RateLimit-Policy"} <= set(headers), (path, method)
    assert "Location" in paths["/api/rooms"]["post"]["responses"]["201"]["headers"]
    assert "headers" not in paths["/api/rooms/{room_id}/actions"]["post"]["responses"]["200"]
