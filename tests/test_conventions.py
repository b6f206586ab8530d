"""The HTTP conventions integrators look for (issue 27): the router's refusals in the error
vocabulary (404 ``not_found``, 405 ``method_not_allowed`` with an ``Allow`` naming every
method of the path), ``Location`` on every 201, and ``ETag``/``If-None-Match`` (304) on views
and room facts."""

from __future__ import annotations

import pytest

from tests.conftest import auth


@pytest.mark.parametrize("path", ["/api/nothing", "/api/rooms/abc/nothing", "/api/rooms/abc/seats/me/nothing"])
async def test_an_unknown_call_is_404_not_found(client, path):
    r = await client.get(path)
    assert r.status_code == 404 and r.json() == {"error": "not_found", "message": "no such page or call"}


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/rooms", "GET, HEAD, POST"),
        ("PUT", "/api/rooms/abc/chat", "GET, HEAD, POST"),
        ("GET", "/api/rooms/abc/start", "POST"),
        ("POST", "/healthz", "GET, HEAD"),
        ("PATCH", "/api/rooms/abc/seats/me/autopilot", "PUT"),
    ],
)
async def test_a_wrong_method_is_405_with_every_method_of_the_path_in_allow(client, method, path, allow):
    r = await client.request(method, path)
    assert r.status_code == 405 and r.headers["allow"] == allow, (r.status_code, r.headers)
    assert r.json()["error"] == "method_not_allowed"


async def test_every_201_says_where_its_creation_is(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    assert r.status_code == 201 and r.headers["location"] == f"/api/rooms/{room_id}"
    assert (await client.get(r.headers["location"])).json()["id"] == room_id
    r = await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})
    assert r.status_code == 201 and r.headers["location"] == f"/api/rooms/{room_id}/seats/1"
    r = await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(host))
    assert r.status_code == 201 and r.headers["location"] == f"/api/rooms/{room_id}/seats/2"
    r = await client.post(f"/api/rooms/{room_id}/chat", json={"text": "hi"}, headers=auth(host))
    assert r.status_code == 201 and r.headers["location"] == f"/api/rooms/{room_id}/chat"


async def test_views_and_room_facts_carry_an_etag_and_answer_304_while_unchanged(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    for path, headers in ((f"/api/rooms/{room_id}", {}), (f"/api/rooms/{room_id}/view", auth(host))):
        first = await client.get(path, headers=headers)
        tag = first.headers["etag"]
        assert (
            first.status_code == 200 and tag.startswith('"') and first.headers["cache-control"] == "private, no-cache"
        )
        again = await client.get(path, headers=headers | {"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
        listed = await client.get(path, headers=headers | {"If-None-Match": f'"other", W/{tag}'})
        assert listed.status_code == 304
        assert (await client.get(path, headers=headers | {"If-None-Match": '"other"'})).status_code == 200
    # Another seat's view is another answer; a change of the room is a new tag.
    view_tag = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(host))).headers["etag"]
    spectator = await client.get(f"/api/rooms/{room_id}/view", headers={"If-None-Match": view_tag})
    assert spectator.status_code == 200 and spectator.json()["seat"] is None
    await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})
    changed = await client.get(f"/api/rooms/{room_id}/view", headers=auth(host) | {"If-None-Match": view_tag})
    assert changed.status_code == 200 and changed.headers["etag"] != view_tag
