"""The front door of a browser's move, POST /rooms/{id}/seat/{token}/act (``app.web.clicks``),
answers every click exactly as the page route would, and hands every error it does not word
itself (an unknown room or token, a form that does not parse) on to the route."""

from __future__ import annotations

import json

import pytest

from app.web import clicks, pages
from app.web.clicks import ClickFrontDoor
from tests.conftest import auth, create_started_room
from tests.test_moves import counted, straight_to_the_route

HTML = {"accept": "text/html"}


async def click(client, room_id, token, fields):
    return await client.post(f"/rooms/{room_id}/seat/{token}/act", data=fields, headers=HTML)


async def test_every_refused_click_is_answered_as_by_the_route(client, monkeypatch):
    room_id, tokens = await create_started_room(client, "troika", 3)
    view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    seat = view["to_act"][0]
    mine = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    action = json.dumps(mine["legal_actions"][0]["action"])
    idle = next(s for s in range(3) if s not in view["to_act"])
    form = {"action": action, "version": "0"}
    broken = {**HTML, "content-type": "multipart/form-data; boundary=x"}
    cases = {  # the room, the token, and how the click is posted
        "foreign token": (room_id, "not-a-token", {"data": form}),
        "unknown room": ("nope", tokens[seat], {"data": form}),
        "stale version": (room_id, tokens[seat], {"data": {**form, "version": "7"}}),
        "float version": (room_id, tokens[seat], {"data": {**form, "version": "0.0"}}),
        "not your turn": (room_id, tokens[idle], {"data": form}),
        "not json": (room_id, tokens[seat], {"data": {**form, "action": "{oops"}}),
        "no such move": (room_id, tokens[seat], {"data": {**form, "action": '{"type": "fly"}'}}),
        "nothing": (room_id, tokens[seat], {}),
        "broken multipart": (room_id, tokens[seat], {"content": b"--x\r\nnot a part", "headers": broken}),
        "huge version": (room_id, tokens[seat], {"data": {**form, "version": "9" * 30}}),
        "action a list": (room_id, tokens[seat], {"data": {**form, "action": "[1, 2]"}}),
        "action nested junk": (room_id, tokens[seat], {"data": {**form, "action": '{"type": {"a": [1e999]}}'}}),
        "body over the limit": (room_id, tokens[seat], {"data": {**form, "pad": "x" * 70_000}}),
    }

    async def answers() -> dict[str, tuple[int, str, str | None]]:
        out = {}
        for name, (room, token, options) in cases.items():
            r = await client.post(f"/rooms/{room}/seat/{token}/act", **{"headers": HTML, **options})
            out[name] = (r.status_code, r.text, r.headers.get("x-refused"))
        return out

    front = counted(monkeypatch, clicks, pages.act)
    through_the_door = await answers()
    assert len(front) == len(cases) - 1, "the front door took every click first, but the one over the body limit"
    with monkeypatch.context() as bypass:
        bypass.setattr(ClickFrontDoor, "__call__", straight_to_the_route)
        assert await answers() == through_the_door
    assert {status for status, _, _ in through_the_door.values()} >= {200, 400, 403, 404, 413}
    assert through_the_door["body over the limit"][0] == 413
    assert (
        through_the_door["stale version"][2] == "1"
        and "made just before your click" in through_the_door["stale version"][1]
    )
    after = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert after["version"] == 0, "no refused click changed the game"


@pytest.mark.parametrize("front_door", [True, False])
async def test_a_click_lands_once_and_is_answered_alike_either_way(client, monkeypatch, front_door):
    room_id, tokens = await create_started_room(client, "troika", 2)
    calls = counted(monkeypatch, clicks if front_door else pages, pages.act)
    if not front_door:
        monkeypatch.setattr(ClickFrontDoor, "__call__", straight_to_the_route)
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    mine = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    fields = {"action": json.dumps(mine["legal_actions"][0]["action"]), "version": "0"}
    first = await click(client, room_id, tokens[seat], fields)
    again = await click(client, room_id, tokens[seat], fields)  # resent after a dropped connection
    assert calls == ([room_id, room_id] if front_door else [])
    assert first.status_code == again.status_code == 200
    assert first.headers["content-type"].startswith("text/html") and "x-refused" not in first.headers
    assert 'data-version="1"' in first.text and first.text == again.text
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 1, "the resent click played once"
