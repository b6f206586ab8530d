"""The delivery pipeline (``app.web.delivery``): for each change of a room, each (seat, format)
is built once and shared by every socket of that seat, every spectator, the mover's reply and
the JSON answers; a browser socket is sent only the sections that changed, so presence and chat
changes go out as small frames (the presence section, the chat line)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import httpx
import lxml.html
import pytest
from websockets.asyncio.client import connect

import app.rooms.views as views_module
import app.web.delivery as delivery_module
from app.bench.browser import Page
from app.web.delivery import Viewer, ascii_html
from tests.conftest import auth, create_started_room
from tests.support.rendering import laid_out
from tests.support.rooms import make_room
from tests.support.servers import in_process_server
from tests.support.sockets import Listener, quiet, ws_url
from tests.support.tables import normal

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

HTML = {"accept": "text/html"}
HTMX = {**HTML, "hx-request": "true"}  # as htmx posts a form


class Counting:
    """Counts each seat's payload builds, HTML renders and JSON encodings."""

    def __init__(self, monkeypatch):
        self.counts: Counter = Counter()
        seat_views, table, encode = (
            views_module.seat_views,
            delivery_module.table,
            views_module.encode,
        )

        def counted_seat_views(info, live, seats, connected=frozenset(), named=None):
            seats = list(seats)
            self.counts.update(("payload", seat) for seat in seats)
            return seat_views(info, live, seats, connected, named)

        def counted_table(renderer, payload, seat, token, lang="en"):
            self.counts["html", seat] += 1
            return table(renderer, payload, seat, token, lang)

        def counted_encode(payload):
            self.counts["json", payload.get("seat", payload.get("event"))] += 1
            return encode(payload)

        monkeypatch.setattr(views_module, "seat_views", counted_seat_views)
        monkeypatch.setattr(delivery_module, "table", counted_table)
        monkeypatch.setattr(views_module, "encode", counted_encode)


async def open_sockets(base, room_id, plan) -> list[tuple[int | None, Listener]]:
    headers = {"Origin": base}
    opened = []
    for token, seat, fmt, count in plan:
        for _ in range(count):
            ws = await connect(ws_url(base, room_id, token, fmt), additional_headers=headers)
            opened.append((seat, Listener(ws, fmt)))
    return opened


async def close_all(opened) -> None:
    for _, lis in opened:
        await lis.ws.close()
        lis.task.cancel()


async def test_each_seat_and_format_is_built_once_per_move_for_all_its_sockets(sqlite_url, monkeypatch):
    async with in_process_server(sqlite_url) as (base, _), httpx.AsyncClient(base_url=base) as client:
        room_id, tokens = await make_room(client)
        mover = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        other = 1 - mover
        opened = await open_sockets(
            base,
            room_id,
            [
                (tokens[mover], mover, "html", 3),
                (tokens[mover], mover, "json", 2),
                (tokens[other], other, "html", 2),
                (tokens[other], other, "json", 2),
                (None, None, "html", 30),
                (None, None, "json", 3),
            ],
        )
        try:
            await asyncio.gather(*(lis.until(lis.shows(0)) for _, lis in opened))
            await quiet([lis for _, lis in opened])
            counting = Counting(monkeypatch)
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[mover]))).json()
            action = next(a["action"] for a in legal["legal_actions"] if a["action"]["type"] != "troika")
            reply = await client.post(
                f"/rooms/{room_id}/seat/{tokens[mover]}/act",
                headers=HTMX,
                data={"action": json.dumps(action), "version": "0"},
            )
            assert 'data-version="1"' in reply.text
            pushed = await asyncio.gather(*(lis.until(lis.shows(1)) for _, lis in opened))
            await quiet([lis for _, lis in opened])
            counts = dict(counting.counts)  # before the sockets close: presence builds tables now
        finally:
            await close_all(opened)
    assert counts == {
        **{("payload", seat): 1 for seat in (mover, other, None)},
        **{("html", seat): 1 for seat in (mover, other, None)},
        **{("json", seat): 1 for seat in (mover, other, None)},
    }, "one payload, one HTML table and one JSON text per seat, whatever the sockets"
    by_seat: dict = {}
    for (seat, lis), frame in zip(opened, pushed, strict=True):
        by_seat.setdefault((seat, lis.format), set()).add(frame)
    assert all(len(frames) == 1 for frames in by_seat.values()), "every socket of a seat gets the same text"
    sections = lxml.html.fragments_fromstring(next(iter(by_seat[mover, "html"])))
    assert "room-main" not in {s.get("id") for s in sections} and "table-state" in {s.get("id") for s in sections}
    replied = lxml.html.fromstring(f"<div>{reply.text}</div>")
    for section in sections:  # the mover's reply holds the very sections its sockets were pushed
        for element in [section] if section.get("id") else list(section):  # (new log lines: put first)
            same = replied.get_element_by_id(element.get("id"))
            assert lxml.html.tostring(element, with_tail=False) == lxml.html.tostring(same, with_tail=False)
    assert all(frame.isascii() for (_, fmt), frames in by_seat.items() if fmt == "html" for frame in frames)
    assert all("chat-log" not in frame for frame in by_seat[mover, "html"]), "a move re-sends no chat"


async def test_presence_and_chat_changes_go_out_as_small_frames_without_a_view(sqlite_url, monkeypatch):
    async with in_process_server(sqlite_url) as (base, _), httpx.AsyncClient(base_url=base) as client:
        room_id, tokens = await make_room(client)
        opened = await open_sockets(
            base,
            room_id,
            [
                (tokens[1], 1, "html", 2),
                (tokens[1], 1, "json", 1),
                (None, None, "html", 2),
                (None, None, "json", 1),
            ],
        )
        listeners = [lis for _, lis in opened]
        try:
            await asyncio.gather(*(lis.until(lis.shows(0)) for lis in listeners))
            await quiet(listeners)
            counting = Counting(monkeypatch)
            marks = [len(lis.frames) for lis in listeners]
            late = await open_sockets(base, room_id, [(tokens[0], 0, "json", 1)])
            opened += late
            await late[0][1].until(late[0][1].shows(0))
            await quiet(listeners)
            presence = [lis.frames[mark:] for lis, mark in zip(listeners, marks, strict=True)]
            assert all(len(frames) == 1 for frames in presence), presence
            for lis, (frame,) in zip(listeners, presence, strict=True):
                if lis.format == "json":
                    presence_event = json.loads(frame)
                    assert presence_event == {
                        "change": presence_event["change"],
                        "event": "presence",
                        "connected": [0, 1],
                    }
                else:  # the presence section alone
                    assert [s.get("id") for s in lxml.html.fragments_fromstring(frame)] == ["presence"]
                    assert "Your turn" not in frame and len(frame) < 2000 and frame.count('class="online"') == 2

            chat_url = f"/rooms/{room_id}/seat/{tokens[1]}/chat"
            assert 'class="flash' in (await client.post(chat_url, data={"text": "first"}, headers=HTML)).text
            await quiet(listeners)
            marks = [len(lis.frames) for lis in listeners]
            counting.counts.clear()
            reply = await client.post(chat_url, data={"text": "second <b>line</b>"}, headers=HTML)
            assert "room-main" not in reply.text and "chat-log" not in reply.text, "the line comes by the socket"
            await quiet(listeners)
        finally:
            await close_all(opened)
    chat = [lis.frames[mark:] for lis, mark in zip(listeners, marks, strict=True)]
    assert all(len(frames) == 1 for frames in chat), chat
    for (seat, lis), (frame,) in zip(opened[: len(listeners)], chat, strict=True):
        if lis.format == "json":
            event = json.loads(frame)
            assert event["event"] == "chat" and "view" not in event
            assert [(m["seat"], m["text"]) for m in event["messages"]] == [(1, "second <b>line</b>")]
        else:
            assert frame.startswith('<ol id="chat-log" hx-swap-oob="beforeend">') and frame.count("<li") == 1
            assert "second &lt;b&gt;line&lt;/b&gt;" in frame and "first" not in frame and "room-main" not in frame
            assert ('class="mine"' in frame) == (seat == 1)
    assert not [key for key in counting.counts if key[0] in ("payload", "html")], "a chat line builds no view"


def test_a_pushed_table_is_ascii_and_reads_as_the_same_text():
    table = '<div id="room-main" title="Ação · €5">Vem aí a Troika — 𝄞 &amp; <b>Mega-Euro</b></div>'
    pushed = ascii_html(table)
    assert pushed.isascii() and pushed != table
    assert lxml.html.fromstring(pushed).text_content() == lxml.html.fromstring(table).text_content()
    assert lxml.html.fromstring(pushed).get("title") == "Ação · €5"
    assert ascii_html("<p>plain</p>") == "<p>plain</p>"


async def test_the_sockets_of_a_room_share_one_read_of_its_change_ids_per_change(sqlite_url, monkeypatch):
    """Each JSON socket numbers its events by the room's change ids, read from the database at
    each change: the sockets woken by one change, the move's reply and each socket's second look
    after its view is built share one read until the next change (30 spectators made a move
    cost 30 reads, and 100 cost 20 times the move's CPU; sharing only a read under way left 2
    to 8), and each is still sent the move's view, numbered."""
    import app.rooms.changes as changes_module

    reads = Counter()
    read = changes_module.read

    async def counted(session, room_id):
        reads[room_id] += 1
        return await read(session, room_id)

    async with in_process_server(sqlite_url) as (base, _), httpx.AsyncClient(base_url=base) as client:
        room_id, tokens = await make_room(client)
        mover = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        opened = await open_sockets(base, room_id, [(None, None, "json", 30)])
        try:
            await asyncio.gather(*(lis.until(lis.shows(0)) for _, lis in opened))
            await quiet([lis for _, lis in opened])
            monkeypatch.setattr(changes_module, "read", counted)
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[mover]))).json()
            action = next(a["action"] for a in legal["legal_actions"] if a["action"]["type"] != "troika")
            moved = await client.post(
                f"/api/rooms/{room_id}/actions", headers=auth(tokens[mover]), json={"version": 0, "action": action}
            )
            assert moved.status_code == 200, moved.text
            pushed = await asyncio.gather(*(lis.until(lis.shows(1)) for _, lis in opened))
            await quiet([lis for _, lis in opened])
            counted_reads = reads[room_id]
        finally:
            await close_all(opened)
    changes = {json.loads(frame)["change"] for frame in pushed}
    assert len(changes) == 1 and changes.pop() >= moved.json()["change"]  # every socket, the same numbered view
    assert counted_reads == 1, f"{counted_reads} reads of the change ids for one move and 30 sockets"


async def test_a_move_landing_while_a_delta_is_made_leaves_no_socket_behind(client, monkeypatch):
    """Two sockets of one seat (two spectators here) hold the same table; a move lands while the
    first one's delta is being made. Each frame, applied to the page the socket's reader holds,
    gives exactly the table that socket then takes itself to hold: no socket is sent a delta
    that stops short of it (made in two reads of the room, a delta filed under the newer table
    was sent to the second socket, which then missed the last move's sections)."""
    room, tokens = await create_started_room(client, "troika", 2)
    state = client.app.state
    first, second = Viewer(room, None, None), Viewer(room, None, None)
    await state.delivery.pushed_main(first)
    await state.delivery.pushed_main(second)
    assert first.table is not None and first.table == second.table
    held = laid_out(first.table, "en")

    async def one_move() -> None:
        view = (await client.get(f"/api/rooms/{room}/view")).json()
        token = tokens[view["to_act"][0]]
        legal = (await client.get(f"/api/rooms/{room}/legal-actions", headers=auth(token))).json()
        body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
        assert (await client.post(f"/api/rooms/{room}/actions", headers=auth(token), json=body)).status_code == 200

    await one_move()
    real, reads = state.rooms.game_state, 0

    async def landing(room_id):
        nonlocal reads
        reads += 1
        if reads == 2:  # the second read of the room while the deltas are made: a move lands
            await one_move()
        return await real(room_id)

    monkeypatch.setattr(state.rooms, "game_state", landing)
    for viewer in (first, second):
        frame = await state.delivery.changed(viewer)
        page = Page(held)
        page.apply(frame or "")
        assert normal(page) == normal(Page(laid_out(viewer.table, "en")))
    assert reads >= 2 and second.table.shape[0] == "playing"
