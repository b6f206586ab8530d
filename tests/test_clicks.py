"""A browser's click on a move: over the page's live socket (``app.web.live``, as
static/js/moves.js sends it), or by the form post of a page without one (``app.web.pages.act``),
played alike (``app.web.pages.play_click``). Over the socket the move's answer is the sections
that changed, as every seat gets them, and a refusal goes back as the flash on that socket
alone; a resent click plays once; a stale click says the table is up to date. htmx's post is
answered with the flash and the table; the browser's own submit of a move form (no htmx bound
to it, or no script at all: every move form has ``method`` and ``action``) plays the move too,
and is sent back to the seat's page (303)."""

from __future__ import annotations

import asyncio
import json
import random
import re

import httpx
import lxml.html
import pytest
from websockets.asyncio.client import connect

from tests.conftest import auth, create_started_room, play_random_moves
from tests.support.rooms import make_room
from tests.support.servers import in_process_server
from tests.support.sockets import Listener, quiet, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

HTML = {"accept": "text/html"}
HTMX = {**HTML, "hx-request": "true"}  # as htmx posts a form


async def click(client, room_id, token, fields, headers=HTMX):
    return await client.post(f"/rooms/{room_id}/seat/{token}/act", data=fields, headers=headers)


async def test_every_refused_form_click_is_answered_and_changes_nothing(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    seat = view["to_act"][0]
    mine = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    action = json.dumps(mine["legal_actions"][0]["action"])
    idle = next(s for s in range(3) if s not in view["to_act"])
    form = {"action": action, "version": "0"}
    broken = {**HTMX, "content-type": "multipart/form-data; boundary=x"}
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
        r = await client.post(f"/rooms/{room}/seat/{token}/act", **{"headers": HTMX, **options})
        assert r.status_code == status, name
        if status == 200:
            assert r.headers.get("x-refused") == "1" and 'id="flash"' in r.text, name
    stale = await client.post(f"/rooms/{room_id}/seat/{tokens[seat]}/act", data={**form, "version": "7"}, headers=HTMX)
    assert "made just before your click" in stale.text
    after = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert after["version"] == 0, "no refused click changed the game"


async def test_a_click_is_read_by_the_games_action_types_as_a_programs_move_is(client):
    """One reader of a move's shape for every edge (``app.api.shapes.read_action``): a click and a
    program's move with a field the action's type does not have are refused alike, naming it."""
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    mine = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    padded = {**mine["legal_actions"][0]["action"], "colour": 1}
    by_api = await client.post(
        f"/api/rooms/{room_id}/actions", json={"action": padded, "version": 0}, headers=auth(tokens[seat])
    )
    assert by_api.status_code == 422 and "action.colour" in by_api.text
    by_click = await click(client, room_id, tokens[seat], {"action": json.dumps(padded), "version": "0"})
    assert by_click.headers.get("x-refused") == "1" and "action.colour" in by_click.text
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


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


async def first_move(client, room_id, tokens) -> tuple[int, str]:
    """The seat to act first, and the JSON of its first legal move, as a move form holds it."""
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    mine = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    return seat, json.dumps(next(a["action"] for a in mine["legal_actions"] if a["action"]["type"] != "troika"))


async def version_of(client, room_id) -> int:
    return (await client.get(f"/api/rooms/{room_id}/view")).json()["version"]


async def test_a_plain_form_post_plays_the_move_and_goes_back_to_the_seat_page(client):
    """The browser's own submit of a move form (no HX-Request header): the move is played and
    the answer is 303 to the seat's page, which shows the new version; the redirect, whose
    location is the seat's credential, is never stored."""
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat, action = await first_move(client, room_id, tokens)
    page = f"/rooms/{room_id}/seat/{tokens[seat]}"
    r = await click(client, room_id, tokens[seat], {"action": action, "version": "0"}, headers=HTML)
    assert r.status_code == 303 and r.headers["location"] == page, (r.status_code, r.text[:300])
    assert r.headers["cache-control"] == "no-store" and not r.content
    assert await version_of(client, room_id) == 1, "the move was played, once"
    landed = await client.get(r.headers["location"], headers=HTML)
    assert landed.status_code == 200 and 'data-version="1"' in landed.text
    again = await click(client, room_id, tokens[seat], {"action": action, "version": "0"}, headers=HTML)
    assert again.status_code == 303 and again.headers["location"] == page  # resent: played once
    assert await version_of(client, room_id) == 1


async def test_a_refused_plain_form_post_goes_back_to_the_seat_page_and_plays_nothing(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    seat, action = await first_move(client, room_id, tokens)
    idle = next(s for s in range(3) if s != seat)
    form = {"action": action, "version": "0"}
    refused = {
        "stale version": (tokens[seat], {**form, "version": "7"}),
        "illegal move": (tokens[seat], {**form, "action": json.dumps({"type": "take_up", "value": 99})}),
        "no such move": (tokens[seat], {**form, "action": '{"type": "fly"}'}),
        "not your turn": (tokens[idle], form),
        "not json": (tokens[seat], {**form, "action": "{oops"}),
        "an empty action (a Vem aí combo form submitted with no script)": (tokens[seat], {**form, "action": ""}),
        "nothing": (tokens[seat], {}),
    }
    for name, (token, fields) in refused.items():
        r = await click(client, room_id, token, fields, headers=HTML)
        assert r.status_code == 303 and r.headers["location"] == f"/rooms/{room_id}/seat/{token}", name
    # what is no seat's move is refused as before, never sent to a seat's page
    stranger = await click(client, room_id, "not-a-token", form, headers=HTML)
    assert stranger.status_code == 403 and "location" not in stranger.headers
    nowhere = await click(client, "nope", tokens[seat], form, headers=HTML)
    assert nowhere.status_code == 404 and "location" not in nowhere.headers
    cross_site = {**HTML, "sec-fetch-site": "cross-site", "origin": "http://evil.example"}
    forged = await click(client, room_id, "not-a-token", form, headers=cross_site)
    assert forged.status_code == 403 and "location" not in forged.headers
    assert await version_of(client, room_id) == 0, "no refused post changed the game"
    created = (await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})).json()
    waiting, host = created["room"]["id"], created["token"]
    early = await click(client, waiting, host, form, headers=HTML)  # before the start: nothing to play
    assert early.status_code == 303 and early.headers["location"] == f"/rooms/{waiting}/seat/{host}"
    assert (await client.get(f"/api/rooms/{waiting}")).json()["status"] == "open"


async def test_an_htmx_post_is_still_answered_with_the_flash_and_the_table(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat, action = await first_move(client, room_id, tokens)
    stale = await click(client, room_id, tokens[seat], {"action": action, "version": "7"})
    assert stale.status_code == 200 and stale.headers.get("x-refused") == "1" and "location" not in stale.headers
    played = await click(client, room_id, tokens[seat], {"action": action, "version": "0"})
    assert played.status_code == 200 and "location" not in played.headers and "x-refused" not in played.headers
    shown = [el.get("id") for el in lxml.html.fragments_fromstring(played.text) if not isinstance(el, str)]
    assert shown == ["flash", "room-main"] and 'data-version="1"' in played.text
    assert await version_of(client, room_id) == 1


MOVE_URL = re.compile(r"^/rooms/[^/]+/seat/[^/]+/act$")


def move_forms(page: str) -> list:
    """The page's forms that post a move (by hx-post or by action)."""
    forms = lxml.html.fromstring(page).iter("form")
    return [f for f in forms if MOVE_URL.match(f.get("hx-post") or f.get("action") or "")]


@pytest.mark.parametrize(
    "game, options",
    [("troika", {}), ("triatri", {}), ("vem-ai-a-troika", {}), ("vem-ai-a-troika", {"advanced": True})],
)
async def test_every_move_form_posts_natively_where_htmx_posts_it(client, game, options):
    """Every form that posts a move, on every seat's page over the first moves of a game, has
    ``method="post"`` and an ``action`` equal to its ``hx-post``: submitted by the browser itself
    (htmx not bound to it yet, or no script), it plays the move instead of reloading the page;
    a Vem aí combo form, whose move vem.js builds from its controls, then plays nothing."""
    room_id, tokens = await create_started_room(client, game, 3, options=options)
    rng, kinds, count = random.Random(4), set(), 0
    for _ in range(30):
        for token in tokens:
            page = (await client.get(f"/rooms/{room_id}/seat/{token}", headers=HTML)).text
            for form in move_forms(page):
                snippet = lxml.html.tostring(form)[:300]
                assert form.get("method") == "post" and form.get("action") == form.get("hx-post"), snippet
                assert form.get("action").endswith(f"/seat/{token}/act"), snippet
                if "vem-combo" in form.get("class"):  # built by vem.js: with no script, no move at all
                    assert form.xpath('.//input[@name="action"]')[0].get("value") == "", snippet
                kinds.add(form.get("class"))
                count += 1
        if (await play_random_moves(client, room_id, tokens, 1, rng))["status"] != "playing":
            break
    assert count > 0 and "act" in kinds
    if game == "vem-ai-a-troika":
        assert "vem-combo" in kinds, kinds


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


async def test_a_json_socket_plays_no_frame_and_answers_only_with_events(sqlite_url):
    """A program's socket (``format=json``) only sends: the move its page would have clicked,
    and a malformed frame, are dropped; the next frame it gets is the chat line's event."""
    async with in_process_server(sqlite_url) as (base, _), httpx.AsyncClient(base_url=base) as client:
        room_id, tokens = await make_room(client)
        mover = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[mover]))).json()
        action = json.dumps(legal["legal_actions"][0]["action"])
        async with connect(ws_url(base, room_id, tokens[mover]), additional_headers={"Origin": base}) as ws:
            assert json.loads(await asyncio.wait_for(ws.recv(), 5))["event"] == "view"
            for frame in (json.dumps({"action": action, "version": "0"}), "{oops", json.dumps({"version": 9})):
                await ws.send(frame)
            said = await client.post(f"/api/rooms/{room_id}/chat", json={"text": "hi"}, headers=auth(tokens[0]))
            assert said.status_code == 201
            assert json.loads(await asyncio.wait_for(ws.recv(), 5))["event"] == "chat", "no flash, no view"
        assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0, "nothing played"
