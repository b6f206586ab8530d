"""Request bodies over the limit (64 KB; creating a room, which may carry a deck, 512 KB and its
form) answer 413 without being read whole: a declared length is refused at once, a chunked body
as soon as it passes the limit; a body of exactly the limit is read, and the refusal says the
limit as set (in bytes unless it is whole KB). A real server's memory stays flat after 50 MB posts."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from app.games.vem_ai_troika.deck import default_deck
from tests.conftest import auth, create_started_room, running_app
from tests.support.servers import free_port, server_process

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

HTML = {"accept": "text/html"}
KB = 1024


def chunks(total: int, size: int = 64 * KB):
    """A body of ``total`` bytes sent without a length (chunked), as a JSON string's inside."""
    yield b'{"version": 0, "action": {"type": "'
    for _ in range(total // size):
        yield b"x" * size
    yield b'"}}'


async def async_chunks(total: int):
    for chunk in chunks(total):
        yield chunk


async def test_bodies_over_the_limit_are_413_before_any_route_reads_them(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    big = {"version": 0, "action": {"type": "x" * 70 * KB}}
    paths = ("actions", "chat", "seats", "start")
    for path in [f"/api/rooms/{room_id}/{call}" for call in paths] + ["/api/rooms/nonexistent/actions"]:
        r = await client.post(path, json=big, headers=auth(tokens[0]))
        assert r.status_code == 413, (path, r.text[:200])
        assert r.json()["error"] == "too_large" and "64 KB" in r.json()["message"]
        headers = {**auth(tokens[0]), "content-type": "application/json"}
        r = await client.post(path, content=async_chunks(70 * KB), headers=headers)
        assert (r.status_code, r.json()["error"]) == (413, "too_large"), (path, r.text[:200])
        assert "64 KB" in r.json()["message"]
    r = await client.post(f"/rooms/{room_id}/join", data={"name": "x" * 70 * KB}, headers=HTML)
    assert r.status_code == 413 and "<html" in r.text
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


async def test_room_creation_may_carry_a_deck_up_to_the_upload_limit(client):
    padded = json.dumps(default_deck(), indent=40)  # a valid deck file, generously indented
    assert 64 * KB < len(padded) < 512 * KB
    files = {"opt_deck": ("mine.json", padded, "application/json")}
    data = {"game": "vem-ai-a-troika", "seats": "2", "name": "Ana"}
    r = await client.post("/rooms", data=data, files=files, headers=HTML)
    assert r.status_code == 303, r.text[-300:]
    body = {"game": "vem-ai-a-troika", "seats": 2, "name": "Ana", "options": {"deck": json.loads(padded)}}
    r = await client.post(
        "/api/rooms", content=json.dumps(body, indent=40), headers={"content-type": "application/json"}
    )
    assert r.status_code == 201, r.text[-300:]
    files = {"opt_deck": ("mine.json", padded + " " * 600 * KB, "application/json")}
    r = await client.post("/rooms", data=data, files=files, headers=HTML)
    assert r.status_code == 413 and "KB" in r.text
    r = await client.post("/api/rooms", content=async_chunks(600 * KB), headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (413, "too_large"), r.text[:200]
    assert "528 KB" in r.json()["message"]


def body_of(size: int) -> bytes:
    """A move's JSON body of exactly ``size`` bytes."""
    head, tail = b'{"version": 0, "action": {"type": "', b'"}}'
    return head + b"x" * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize(("limit", "said"), [(1000, "1000 bytes"), (1500, "1500 bytes"), (2048, "2 KB")])
async def test_a_body_of_the_limit_is_read_one_byte_more_is_refused_saying_the_limit(sqlite_url, limit, said):
    async with running_app(sqlite_url, max_body_bytes=limit) as client:
        headers = {**auth("made-up"), "content-type": "application/json"}
        path = "/api/rooms/nonexistent/actions"
        for send in (body_of, lambda size: async_chunks_of(body_of(size))):  # a declared length, then chunked
            r = await client.post(path, content=send(limit), headers=headers)
            assert r.status_code == 404, r.text[:200]  # read, and the room looked for
            r = await client.post(path, content=send(limit + 1), headers=headers)
            assert r.status_code == 413 and r.json() == {
                "error": "too_large",
                "message": f"the request body is larger than {said}",
            }


async def async_chunks_of(body: bytes, size: int = 100):
    for start in range(0, len(body), size):
        yield body[start : start + size]


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * KB
    raise AssertionError("no VmRSS")


def test_a_50_mb_post_leaves_a_real_servers_memory_flat(sqlite_url):
    with server_process(sqlite_url, free_port()) as (proc, base), httpx.Client(base_url=base, timeout=60) as http:
        http.get("/healthz")
        before = rss(proc.pid)
        headers = {"Authorization": "Bearer made-up", "content-type": "application/json"}
        body = b'{"version": 0, "action": {"type": "' + b"x" * (50 * KB * KB) + b'"}}'
        r = http.post("/api/rooms/nonexistent/actions", content=body, headers=headers)
        assert r.status_code == 413
        r = http.post("/api/rooms/nonexistent/actions", content=chunks(50 * KB * KB), headers=headers)
        assert r.status_code == 413
        grown = rss(proc.pid) - before
        print(f"server RSS {before / KB / KB:.1f} MB before, grown by {grown / KB / KB:.1f} MB after two 50 MB posts")
        assert grown < 10 * KB * KB
        assert http.get("/healthz").status_code == 200
