"""Cursor pagination (issue 27, ``app.api.paging``): ``GET /api/rooms`` (with its status filter),
``/log`` and ``/chat`` answer a page of at most ``limit`` items and, when there are more, a
``Link`` to the next page; walking the links reads every item once, in the listing's order;
``limit`` is 1 to the listing's maximum, exactly that maximum passes, and a cursor this
listing never gave is refused, as a malformed request (400)."""

from __future__ import annotations

import base64
import random
import re

import pytest

from tests.conftest import auth, create_started_room, play_random_moves

NOT_TEXT = base64.urlsafe_b64encode(b"\xff\xfe:1").decode()
LINK = re.compile(r'^<(/[^>]+)>; rel="next"$')


async def walk(client, url: str, params: dict, key: str | None, headers=None) -> list[list]:
    """Every page, following the next links from ``url``: each page's items (``key`` of the
    body, or the body itself)."""
    pages = []
    r = await client.get(url, params=params, headers=headers)
    while True:
        assert r.status_code == 200, r.text
        pages.append(r.json()[key] if key else r.json())
        link = r.headers.get("link")
        if link is None:
            return pages
        found = LINK.match(link)
        assert found, link
        assert len(pages) < 50, "the links go round"
        r = await client.get(found[1], headers=headers)


async def test_the_rooms_are_read_page_by_page_newest_first_once_each(client):
    made = []
    for n in range(7):
        r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": f"P{n}"})
        made.append(r.json()["room"]["id"])
    await client.post(f"/api/rooms/{made[2]}/seats", json={"name": "Bo"})  # (still open: full, not started)
    whole = (await client.get("/api/rooms", params={"limit": 100})).json()
    assert [room["id"] for room in whole] == made[::-1]
    pages = await walk(client, "/api/rooms", {"limit": 3}, None)
    assert [len(page) for page in pages] == [3, 3, 1]
    assert [room for page in pages for room in page] == whole
    assert len(await walk(client, "/api/rooms", {"limit": 7}, None)) == 1, "no link after the last room"
    assert (await client.get("/api/rooms")).json() == whole  # the default page (50) holds them all
    # The filter holds from page to page.
    await create_started_room(client, "troika", 2)
    playing = await walk(client, "/api/rooms", {"status": "playing", "limit": 1}, None)
    assert [[room["status"] for room in page] for page in playing] == [["playing"]]
    opened = await walk(client, "/api/rooms", {"status": "open", "limit": 2}, None)
    assert [room["id"] for page in opened for room in page] == made[::-1]


async def test_a_log_is_read_page_by_page_oldest_first(client):
    room_id, tokens = await create_started_room(client, "triatri", 2)
    await play_random_moves(client, room_id, tokens, 12, random.Random(5))
    for token in (None, tokens[1]):
        headers = auth(token) if token else None
        whole = (await client.get(f"/api/rooms/{room_id}/log", params={"limit": 1000}, headers=headers)).json()
        assert len(whole["log"]) > 6 and "link" not in (await client.get(f"/api/rooms/{room_id}/log")).headers
        pages = await walk(client, f"/api/rooms/{room_id}/log", {"limit": 4}, "log", headers)
        assert all(len(page) == 4 for page in pages[:-1]) and 1 <= len(pages[-1]) <= 4
        assert [line for page in pages for line in page] == whole["log"]


async def test_chat_pages_go_back_from_the_last_lines(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    url = f"/api/rooms/{room_id}/chat"
    for n in range(7):
        assert (await client.post(url, json={"text": f"line {n}"}, headers=auth(tokens[n % 3]))).status_code == 201
    pages = await walk(client, url, {"limit": 3}, "messages")
    assert [[m["text"] for m in page] for page in pages] == [
        ["line 4", "line 5", "line 6"],
        ["line 1", "line 2", "line 3"],
        ["line 0"],
    ]
    whole = (await client.get(url, params={"limit": 100})).json()["messages"]
    assert [m for page in reversed(pages) for m in page] == whole and len(whole) == 7
    assert (await client.get(url)).json()["messages"] == whole  # the default page (50)


def cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize(("listing", "most"), [("", 100), ("/log", 1000), ("/chat", 100)])
async def test_a_limit_is_1_to_the_listings_most_and_a_cursor_only_its_own(client, listing, most):
    room_id, _ = await create_started_room(client, "troika", 2)
    url = "/api/rooms" + (f"/{room_id}{listing}" if listing else "")
    assert (await client.get(url, params={"limit": most})).status_code == 200
    assert (await client.get(url, params={"limit": 1})).status_code == 200
    for wrong in (most + 1, 0, -1, "1.0", "+2", "two", 10**30):
        r = await client.get(url, params={"limit": wrong})
        assert r.status_code == 400 and r.json()["error"] == "invalid_request", (wrong, r.text)
        assert "limit" in r.json()["message"]
    own = {"": "rooms", "/log": "log", "/chat": "chat"}[listing]
    foreign = "chat:5" if own != "chat" else "log:5"
    made = (
        []
        if listing
        else [  # a time with no zone, or out of range once in UTC (a 500 once)
            f"{own}:2026-01-01T00:00:00|x",
            f"{own}:2026-01-01|x",
            f"{own}:0001-01-01T00:00:00+14:00|x",
            f"{own}:9999-12-31T23:59:59-14:00|x",
        ]
    )
    for wrong in (
        "!!!",
        "",
        cursor(foreign),
        cursor(f"{own}:"),
        cursor(f"{own}:x|y"),
        "x" * 201,
        NOT_TEXT,
        *map(cursor, made),
    ):
        r = await client.get(url, params={"cursor": wrong})
        assert r.status_code == 400 and r.json()["error"] == "invalid_request", (wrong, r.text)
        assert "cursor" in r.json()["message"]
