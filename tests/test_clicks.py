"""A browser's click on a move: over the page's live socket (``app.web.live``, as
static/js/moves.js sends it), or by the form post of a page without one (``app.web.pages.act``),
played alike (``app.web.pages.play_click``). Over the socket the move's answer is the sections
that changed, as every seat gets them, and a refusal goes back as the flash on that socket
alone; a resent click plays once; a stale click says the table is up to date."""

from __future__ import annotations

import asyncio
import json

import httpx
import lxml.html
from websockets.asyncio.client import connect

from tests.conftest import auth, create_started_room
from tests.test_delivery import Listener, quiet
from tests.test_live_server import make_room, ws_url
from tests.test_sockets import in_process_server

HTML = {"accept": "text/html"}


async def click(client, room_id, token, fields):
    return await client.post(f"/rooms/{room_id}/seat/{token}/act", data=fields, headers=HTML)


async def test_every_refused_form_click_is_answered_and_changes_nothing(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    seat = view["to_act"][0]
    mine = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    action = json.dumps(mine["legal_actions"][0]["action"])
    idle = next(s for s in range(3) if s not in view["to_act"])
    form = {"action": action, "version": "0"}
    broken = {**HTML, "content-type": "multipart/form-data; boundary=x"}
    cases = {  # the room, the token, how the click is posted, and the status it gets
        "foreign token": (room_id, "not-a-token", {"data": form}, 403),
        "unknown room": ("nope", tokens[seat], {"data": form}, 404),
        "stale version": (room_id, tokens[seat], {"data": {**form, "version": "7"}}, 200),
        "float version": (room_id, tokens[seat], {"data": {**form, "version": "0.0"}}, 200),
        "not your turn": (room_id, tokens[idle], {"data": form}, 200),
        "not json": (room_id, tokens[seat], {"data": {**form, "action": "{oops"}}, 200),
        "no such move": (room_id, tokens[seat], {"data": {**form, "action": '{"type": "fly"}'}}, 200),
        "nothing": (room_id, tokens[seat], {}, 200),
        "broken multipart": (room_id, tokens[seat], {"content": b"--x\r\nnot a part", "headers": broken}, 400),
        "huge version": (room_id, tokens[seat], {"data": {**form, "version": "9" * 30}}, 200),
        "action a list": (room_id, tokens[seat], {"data": {**form, "action": "[1, 2]"}}, 200),
        "action nested junk": (room_id, tokens[seat], {"data": {**form, "action": '{"type": {"a": [1e999]}}'}}, 200),
        "body over the limit": (room_id, tokens[seat], {"data": {**form, "pad": "x" * 70_000}}, 413),
    }
    for name, (room, token, options, status) in cases.items():
        r = await client.post(f"/rooms/{room}/seat/{token}/act", **{"headers": HTML, **options})
        assert r.status_code == status, name
        if status == 200:
            assert r.headers.get("x-refused") == "1" and 'id="flash"' in r.text, name
    stale = await client.post(f"/rooms/{room_id}/seat/{tokens[seat]}/act", data={**form, "version": "7"}, headers=HTML)
    assert "made just before your click" in stale.text
    after = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert after["version"] == 0, "no refused click changed the game"


async def test_a_form_click_lands_once_and_answers_the_table(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    mine = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    fields = {"action": json.dumps(mine["legal_actions"][0]["action"]), "version": "0"}
    first = await click(client, room_id, tokens[seat], fields)
    again = await click(client, room_id, tokens[seat], fields)  # resent after a dropped connection
    assert first.status_code == again.status_code == 200
    assert first.headers["content-type"].startswith("text/html") and "x-refused" not in first.headers
    assert 'data-version="1"' in first.text and first.text == again.text
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 1, "the resent click played once"


def flash_of(frame: str) -> str | None:
    for element in lxml.html.fragments_fromstring(frame):
        if not isinstance(element, str) and element.get("id") == "flash":
            return element.text_content().strip()
    return None


async def test_a_click_over_the_socket_is_played_and_a_refusal_goes_back_on_that_socket_alone(sqlite_url):
    async with in_process_server(sqlite_url) as (base, _), httpx.AsyncClient(base_url=base) as client:
        room_id, tokens = await make_room(client)
        mover = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[mover]))).json()
        action = json.dumps(next(a["action"] for a in legal["legal_actions"] if a["action"]["type"] != "troika"))
        headers = {"Origin": base}
        sockets = [
            await connect(ws_url(base, room_id, token, "html"), additional_headers=headers)
            for token in (tokens[mover], tokens[1 - mover], None)
        ]
        listeners = [Listener(ws, "html") for ws in sockets]
        mine, other, spectator = listeners
        try:
            await asyncio.gather(*(lis.until(lis.shows(0)) for lis in listeners))
            await quiet(listeners)

            await mine.ws.send(json.dumps({"action": action, "version": "0"}))
            frames = await asyncio.gather(*(lis.until(lis.shows(1)) for lis in listeners))
            assert all('id="room-main"' not in frame for frame in frames), "the sections that changed"
            await quiet(listeners)
            assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 1

            marks = [len(lis.frames) for lis in listeners]
            await mine.ws.send(json.dumps({"action": action, "version": "0"}))  # resent: played once, nothing said
            await other.ws.send(json.dumps({"action": action, "version": "7"}))  # stale
            for text in ("{oops", "[1, 2]", json.dumps({"action": "[1]", "version": "1"}), json.dumps({"version": 1})):
                await other.ws.send(text)
            await spectator.ws.send(json.dumps({"action": action, "version": "1"}))  # dropped
            await quiet(listeners)
            said = [
                [flash_of(frame) for frame in lis.frames[mark:]] for lis, mark in zip(listeners, marks, strict=True)
            ]
            stale_frame = other.frames[marks[1]]
        finally:
            for lis in listeners:
                await lis.ws.close()
                lis.task.cancel()
        assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 1, "no refused click played"
    assert said[0] == [] and said[2] == [], "the resent click and the spectator's frame get no answer"
    stale, *malformed = said[1]
    assert "made just before your click" in stale
    assert 'id="room-main"' in stale_frame, "with the whole table, up to date, whatever the page had made of it"
    assert len(malformed) == 4 and all(m for m in malformed)
