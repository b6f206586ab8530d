"""The front door of POST /api/rooms/{id}/actions (``app.api.moves``) answers every move exactly
as the FastAPI route would, and hands every call it does not take on to the route."""

from __future__ import annotations

import pytest

from app.api import moves, routes
from app.api.moves import MoveFrontDoor
from app.rooms import storage
from tests.conftest import auth, create_started_room
from tests.support.rooms import straight_to_the_route


async def post(client, url, headers, body):
    return await client.post(url, headers=headers, **({"content": body} if isinstance(body, bytes) else {"json": body}))


def counted(monkeypatch, module) -> list[str]:
    """Record each call of the move route's handler (``reply_to_move``) made through ``module``,
    by its first argument, the room's id."""
    calls: list[str] = []
    original = routes.reply_to_move

    async def spy(room_id, *rest):
        calls.append(room_id)
        return await original(room_id, *rest)

    monkeypatch.setattr(module, "reply_to_move", spy)
    return calls


async def test_every_refused_move_is_answered_as_by_the_route(client, monkeypatch):
    room_id, tokens = await create_started_room(client, "troika", 3)
    view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    seat = view["to_act"][0]
    legal = view if seat == 0 else (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[seat]))).json()
    action = legal["legal_actions"][0]["action"]
    idle = next(s for s in range(3) if s not in view["to_act"])
    path = f"/api/rooms/{room_id}/actions"
    json = {"content-type": "application/json"}
    cases = {
        "no token": (path, {}, {"version": 0, "action": action}),
        "foreign token": (path, auth("not-a-token"), {"version": 0, "action": action}),
        "not a bearer": (path, {"authorization": "Basic abc"}, {"version": 0, "action": action}),
        "stale version": (path, auth(tokens[seat]), {"version": 7, "action": action}),
        "not your turn": (path, auth(tokens[idle]), {"version": 0, "action": action}),
        "malformed action": (path, auth(tokens[seat]), {"version": 0, "action": {"type": "no-such-move"}}),
        "unknown room": ("/api/rooms/nope/actions", auth(tokens[seat]), {"version": 0, "action": action}),
        "missing field": (path, auth(tokens[seat]), {"action": action}),
        "wrong type": (path, auth(tokens[seat]), {"version": "first", "action": action}),
        "not json": (path, {**auth(tokens[seat]), **json}, b"{version: 0"),
        "form body": (path, {**auth(tokens[seat]), "content-type": "text/plain"}, b'{"version":0}'),
    }
    front = counted(monkeypatch, moves)
    answers = {}
    for name, (url, headers, body) in cases.items():
        r = await post(client, url, headers, body)
        answers[name] = (r.status_code, r.json())
    assert len(front) == 7, "the front door took the calls whose body is a valid SubmitAction"
    with monkeypatch.context() as bypass:
        bypass.setattr(MoveFrontDoor, "__call__", straight_to_the_route)
        for name, (url, headers, body) in cases.items():
            r = await post(client, url, headers, body)
            assert (r.status_code, r.json()) == answers[name], name
    assert {status for status, _ in answers.values()} >= {400, 401, 403, 404, 409, 422}
    after = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    assert after["version"] == 0, "no refused call changed the game"


@pytest.mark.parametrize("front_door", [True, False])
async def test_a_move_lands_and_is_answered_alike_either_way(client, monkeypatch, front_door):
    room_id, tokens = await create_started_room(client, "troika", 2)
    calls = counted(monkeypatch, moves if front_door else routes)
    if not front_door:
        monkeypatch.setattr(MoveFrontDoor, "__call__", straight_to_the_route)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    seat = view["to_act"][0]
    mine = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[seat]))).json()
    move = {"version": 0, "action": mine["legal_actions"][0]["action"], "idempotency_key": "k1"}
    first = await client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(tokens[seat]))
    again = await client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(tokens[seat]))
    assert calls == [room_id, room_id]
    assert first.status_code == again.status_code == 200
    assert first.headers["content-type"] == "application/json"
    now = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[seat]))).json()
    assert isinstance(now["change"], int) and now["change"] > 0
    assert first.json() == {**now, "duplicate": False}
    assert again.json() == {**now, "duplicate": True}


async def test_a_move_puts_the_rooms_new_facts_before_publishing_them(client):
    """The move's own event finds the room's new facts held (none dropped and put back)."""
    room_id, tokens = await create_started_room(client, "troika", 3)
    rooms = client.app.state.rooms
    # Inside on purpose: the held facts are peeked at without loading them (any public read would load).
    seen: list[int | None] = []

    def look(room: str, _version: int) -> None:
        if room == room_id:
            seen.append(getattr(rooms._infos.peek(room), "version", None))

    client.app.state.bus.add_listener(look)
    view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    seat = view["to_act"][0]
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    answer = await client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(tokens[seat]),
        json={"version": 0, "action": legal["legal_actions"][0]["action"]},
    )
    assert answer.status_code == 200, answer.text
    assert seen == [1]
    assert rooms._infos.peek(room_id).version == 1


async def test_a_move_on_a_game_held_up_to_date_opens_no_reading_session(client, monkeypatch):
    """The move's database work is its write and the answer's change id (one row's ids): the
    game this instance holds is at the room's version, so play reads nothing, and a keyed
    move's write itself checks that the key is new. Only a refused move reads its key too: a
    resend, answered as the first."""
    room_id, tokens = await create_started_room(client, "troika", 3)
    db = client.app.state.rooms.db  # inside on purpose: the sessions a move opens are counted where they open
    opened: list[str] = []
    original = db.read

    def read():
        opened.append("read")
        return original()

    for key in (None, "the-key"):
        view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
        seat = view["to_act"][0]
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
        monkeypatch.setattr(db, "read", read)
        body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"], "idempotency_key": key}
        answer = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=body)
        assert answer.status_code == 200, answer.text
        assert opened == ["read"]
        if key is not None:
            again = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=body)
            assert again.status_code == 200, again.text
            assert again.json()["version"] == answer.json()["version"] == legal["version"] + 1
            assert opened == ["read"] * 3
        monkeypatch.setattr(db, "read", original)
        opened.clear()
        opened.clear()


async def test_a_reader_catching_the_game_up_while_a_move_is_written_does_not_apply_it_twice(client, monkeypatch):
    """A reader (a socket's or a stream's) that reads the room between a move's write and its
    return finds the room a version ahead of the held game and replays the move from the log;
    the move then leaves the game as it is (it was applied twice, and every later move of the
    room was refused as 'another move landed first')."""
    room_id, tokens = await create_started_room(client, "troika", 2)
    rooms, original = client.app.state.rooms, storage.write_move
    interleaved: list[int] = []

    async def written_then_read(db, room, *rest, **named):
        landed = await original(db, room, *rest, **named)
        # As a reader's stale check drops the room's facts and keeps the game held (forget would drop both):
        rooms._infos.invalidate(room)
        interleaved.append((await rooms.game_state(room))[1].version)
        return landed

    monkeypatch.setattr(storage, "write_move", written_then_read)
    for expected in (1, 2, 3):
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        token = tokens[view["to_act"][0]]
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(token))).json()
        move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
        r = await client.post(f"/api/rooms/{room_id}/actions", json=move, headers=auth(token))
        assert r.status_code == 200 and r.json()["version"] == expected, r.text
    assert interleaved == [1, 2, 3]
