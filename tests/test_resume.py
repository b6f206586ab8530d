"""Resuming after a change id (``app.rooms.changes``, ``app.api.events``): every change of a
room, of every kind, is numbered one more than the last; a follower that dropped at any of
them and resumes after it (the stream's ``?after=``, or its long-poll GET /events) is sent
every later change once, oldest first, and ends up holding what a follower that never dropped
holds. Also the issue's case: a view's long-poll from the waiting room answers the start."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.conftest import auth, running_app

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

VIEW, PRESENCE, CHAT = "view", "presence", "chat"


@dataclass
class Held:
    """What a follower holds of a room: its last view, presence, chat lines and the end (which
    closes each batch that brings a view of a room that is over)."""

    change: int = 0
    view: dict[str, Any] | None = None
    connected: list[int] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None

    def apply(self, events: list[dict[str, Any]]) -> None:
        over = False  # a view of a room that is over came in this batch
        for event in events:
            assert event["change"] >= self.change, "an event older than one before it"
            if event["event"] == VIEW:
                self.view = {k: v for k, v in event.items() if k not in ("event", "change", "connected")}
                self.connected = event["connected"]
            elif event["event"] == PRESENCE:
                self.connected = event["connected"]
            elif event["event"] == CHAT:
                held = {m["id"] for m in self.chat}
                assert not held & {m["id"] for m in event["messages"]}, "a chat line sent twice"
                self.chat += event["messages"]
            else:
                assert over, "an end that no view of a room that is over came before, in its batch"
                assert event is events[-1], "something after the end"
                self.end = event
            self.change = event["change"]
            over = over or (event["event"] == VIEW and event["status"] in ("finished", "closed", "abandoned"))

    def copy(self) -> Held:
        return Held(self.change, self.view, list(self.connected), list(self.chat), self.end)


def unnumbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events but presence ones, without their change ids and presence."""
    return [{**e, "change": None, "connected": None} for e in events if e["event"] != PRESENCE]


async def events_after(client, room_id: str, token: str, after: int) -> tuple[int, list[dict[str, Any]]]:
    r = await client.get(f"/api/rooms/{room_id}/events", params={"after": after}, headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()["change"], r.json()["events"]


async def test_a_follower_resumed_after_any_change_misses_none_and_is_sent_none_twice(sqlite_url):
    # (no grace: the host reissues the link of a seat that was connected a moment before)
    async with running_app(sqlite_url, bot_delay_seconds=30, autopilot_grace_seconds=0) as client:
        social = client.app.state.social
        r = await client.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"})
        room_id, host = r.json()["room"]["id"], r.json()["token"]
        follower, held_at = Held(), {}  # never drops; what it held at each change id
        kinds: list[str] = []

        async def step(kind: str, change) -> None:
            """Make one change, and check the follower is told exactly that one."""
            answer = await change
            assert getattr(answer, "status_code", 200) < 300, answer.text
            last, events = await events_after(client, room_id, host, follower.change)
            assert last == follower.change + 1, (kind, last, follower.change)
            assert [e["change"] for e in events] == [last] * len(events), (kind, events)
            # a view of a room that is over is followed by the end (the game's end, play again)
            ends = ["end"] if kind in ("move", "again") and len(events) == 2 else []
            assert [e["event"] for e in events[1:]] == ends
            assert events[0]["event"] == {"presence": PRESENCE, "chat": CHAT}.get(kind, VIEW), (kind, events)
            follower.apply(events)
            held_at[last] = follower.copy()
            kinds.append(kind)

        start = await client.get(f"/api/rooms/{room_id}/events", headers=auth(host))
        follower.apply(start.json()["events"])
        held_at[follower.change] = follower.copy()
        assert follower.change == 0 and follower.view["status"] == "open"

        def post(path: str, body: Any = None, token: str = host):
            return client.post(f"/api/rooms/{room_id}{path}", json=body, headers=auth(token))

        chat = lambda text, token=host: post("/chat", {"text": text}, token)  # noqa: E731
        await step("chat", chat("welcome"))
        bo = (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})).json()
        await step("join", asyncio.sleep(0))  # (the join made above: told as one view)
        await step("leave", client.delete(f"/api/rooms/{room_id}/seats/me", headers=auth(bo["token"])))
        joined = await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Cy"})
        cy = joined.json()["token"]
        await step("join", asyncio.sleep(0))
        await step("presence", social.connected(room_id, 1))
        await step("presence", social.disconnected(room_id, 1))
        await step("start", post("/start"))
        cy = (await post("/seats/1/reissue")).json()["token"]
        await step("reissue", asyncio.sleep(0))
        autopilot = f"/api/rooms/{room_id}/seats/me/autopilot"
        await step("autopilot", client.put(autopilot, json={"bot": "random"}, headers=auth(cy)))
        await step("autopilot", client.put(autopilot, json={"bot": None}, headers=auth(cy)))
        tokens, rng = [host, cy], random.Random(4)
        while follower.view["status"] == "playing":
            view = follower.view
            seat = rng.choice(view["to_act"])
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
            action = rng.choice([a["action"] for a in legal["legal_actions"]])
            await step("move", post("/actions", {"version": legal["version"], "action": action}, tokens[seat]))
            if len(kinds) % 15 == 0:
                await step("chat", chat(f"move {view['version']}", tokens[seat]))
        assert follower.end is not None and follower.end["status"] == "finished"
        await step("chat", chat("good game", cy))
        await step("again", post("/again"))
        assert follower.view["room"]["next_room"]
        final = follower.change

        # Dropped at any change, from the empty waiting room to after the end: resumed.
        resumed_events = {}
        for after, held in held_at.items():
            last, events = resumed_events[after] = await events_after(client, room_id, host, after)
            assert last == final
            changes = [e["change"] for e in events]
            assert all(c > after for c in changes) and changes == sorted(changes), (after, changes)
            resumed = held.copy()
            resumed.apply(events)
            assert resumed == follower, f"resumed after {after}: {events}"
        # The stream says the same (but for its own presence, a change of its own), and closes
        # at once when it has said it: the room is over.
        for after, (_, events) in resumed_events.items():
            r = await client.get(f"/api/rooms/{room_id}/stream", params={"after": after}, headers=auth(host))
            streamed = [json.loads(line) for line in r.text.splitlines() if line.strip()]
            changes = [e["change"] for e in streamed]
            assert all(c > after for c in changes) and changes == sorted(changes), (after, changes)
            assert unnumbered(streamed) == unnumbered(events), after
        assert {"chat", "join", "leave", "presence", "start", "reissue", "autopilot", "move", "again"} <= set(kinds)


async def test_a_poll_from_the_waiting_room_answers_the_start_at_once(client):
    """The issue's case: the seat's last view is of the waiting room (the start does not move
    the version); its long-poll after that view's change answers the start, without waiting."""
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    joined = (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})).json()
    waiting = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(joined["token"]))).json()
    assert waiting["status"] == "open" and waiting["version"] == 0
    await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
    began = time.monotonic()
    params = {"after": waiting["change"], "wait": 3}
    r = await client.get(f"/api/rooms/{room_id}/view", params=params, headers=auth(joined["token"]))
    assert r.json()["status"] == "playing" and r.json()["change"] > waiting["change"]
    assert time.monotonic() - began < 1
    r = await client.get(f"/api/rooms/{room_id}/events", params=params, headers=auth(joined["token"]))
    assert [e["event"] for e in r.json()["events"]] == ["view"] and time.monotonic() - began < 1
    # Past the room's last change is a mistake, told with the last change.
    last = r.json()["change"]
    r = await client.get(f"/api/rooms/{room_id}/events", params={"after": last + 1}, headers=auth(host))
    assert r.status_code == 400 and r.json()["change"] == last, r.text


async def test_a_poll_of_events_waits_for_any_change_and_answers_none_when_wait_runs_out(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    began = time.monotonic()
    r = await client.get(f"/api/rooms/{room_id}/events", params={"after": 0, "wait": 1}, headers=auth(host))
    assert r.json() == {"change": 0, "events": []} and 0.9 <= time.monotonic() - began < 5
    waiting = asyncio.create_task(
        client.get(f"/api/rooms/{room_id}/events", params={"after": 0, "wait": 20}, headers=auth(host))
    )
    await asyncio.sleep(0.3)
    assert not waiting.done()
    await client.post(f"/api/rooms/{room_id}/chat", json={"text": "anyone?"}, headers=auth(host))
    answer = (await asyncio.wait_for(waiting, 10)).json()
    assert answer["change"] == 1 and [e["event"] for e in answer["events"]] == ["chat"]
    assert answer["events"][0]["messages"][0]["change"] == 1


async def test_a_start_or_move_reply_carries_the_change_to_resume_after(client):
    """A start's and a move's reply carry the room's last change: resumed after it, a follower
    is sent nothing until the next change, then exactly it. A resend's reply carries it while
    its view is still the room's, and none once the room has moved on (a later id on an older
    view would skip the view in between)."""
    r = await client.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    guest = (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})).json()["token"]
    tokens = [host, guest]
    started = (await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))).json()
    assert started["change"] == (await events_after(client, room_id, host, 0))[0]
    assert await events_after(client, room_id, host, started["change"]) == (started["change"], [])
    replies = []
    for key in ("first-move-key-0001", "second-move-key-002"):
        view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(host))).json()
        mover = tokens[view["to_act"][0]]
        mine = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(mover))).json()
        move = {"version": mine["version"], "action": mine["legal_actions"][0]["action"], "idempotency_key": key}
        reply = (await client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(mover))).json()
        last, events = await events_after(client, room_id, mover, reply["change"] - 1)
        assert last == reply["change"] and [e["event"] for e in events] == [VIEW]
        assert await events_after(client, room_id, mover, reply["change"]) == (reply["change"], [])
        again = (await client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(mover))).json()
        assert again["duplicate"] and again["change"] == reply["change"], "still the room's view"
        replies.append((mover, move, reply))
    mover, move, reply = replies[0]
    stale = (await client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(mover))).json()
    assert stale["duplicate"] and stale["version"] == reply["version"] and "change" not in stale


async def test_a_json_socket_numbers_its_frames_as_the_stream_does(sqlite_url):
    """The websocket's JSON frames carry ``change``: the first view the room's last, each later
    frame the change it shows, as GET /events numbers the same changes."""
    from websockets.asyncio.client import connect

    from tests.support.rooms import make_room
    from tests.support.servers import in_process_server
    from tests.support.sockets import ws_url

    async with in_process_server(sqlite_url) as (base, _), httpx.AsyncClient(base_url=base) as client:
        room_id, tokens = await make_room(client)
        async with connect(ws_url(base, room_id, tokens[0]), additional_headers={"Origin": base}) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 5))
            view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
            assert first["event"] == VIEW and first["change"] == view["change"]
            mover = tokens[view["to_act"][0]]
            mine = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(mover))).json()
            move = {"version": mine["version"], "action": mine["legal_actions"][0]["action"]}
            assert (await client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(mover))).is_success
            said = await client.post(f"/api/rooms/{room_id}/chat", json={"text": "hi"}, headers=auth(tokens[1]))
            assert said.status_code == 201
            frames: list[dict[str, Any]] = []
            while not frames or frames[-1]["event"] != CHAT:
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
            _, events = await events_after(client, room_id, tokens[0], first["change"])
            assert [(f["event"], f["change"]) for f in frames] == [(e["event"], e["change"]) for e in events]
            assert [f["change"] for f in frames] == [first["change"] + 1, first["change"] + 2]
