"""Findings of an API client's probe (2026-12), each pinned: a room creation refused for its
values is not counted by the rate limit (refusals have a looser limit of their own); a 429
for too many streams says when to try again; a seat number the room does not have is 404 on
every call, before the room's state; a closed room's join says it is closed; a seat held
after "play again" says until when, in seconds; ``turn_timer``'s values are in the schema;
pydantic's "Value error, " stays out of messages."""

from __future__ import annotations

import asyncio
import hashlib

import pytest

from app.api.json_bodies import TOO_DEEP
from app.rooms.lobby import TURN_TIMER_PRESETS
from app.rooms.throttle import REFUSED_ROOMS_LIMIT
from tests.conftest import auth, create_started_room, running_app

NEW_ROOM = {"game": "troika", "seats": 2, "name": "Ana"}

REFUSED_ROOMS = int(REFUSED_ROOMS_LIMIT.split("/")[0])  # refused creations an address may send a minute

# Each refused for a value, before the limit is consulted: 400 bad_request, 400
# invalid_request or 422 unknown_field.
REFUSED_CREATIONS = [
    ({**NEW_ROOM, "game": "chess"}, 400, "bad_request"),
    ({**NEW_ROOM, "options": {"colour": "red"}}, 422, "unknown_field"),
    ({**NEW_ROOM, "game": "vem-ai-a-troika", "options": {"deck": "garbage"}}, 400, "bad_request"),
    ({**NEW_ROOM, "game": "triatri", "seats": 5}, 400, "bad_request"),
    ({**NEW_ROOM, "turn_timer": 45}, 400, "invalid_request"),
    ({**NEW_ROOM, "name": " "}, 400, "bad_request"),
    ({**NEW_ROOM, "options": {"first_player": 7}}, 400, "bad_request"),
    ({**NEW_ROOM, "seats": 9}, 400, "invalid_request"),
]


async def test_refused_creations_are_not_counted_and_the_limit_holds_at_its_boundary(sqlite_url):
    async with running_app(sqlite_url, room_creation_limit="3/minute") as client:
        for _ in range(2):  # a burst of them, past the limit itself
            for body, status, code in REFUSED_CREATIONS:
                r = await client.post("/api/rooms", json=body)
                assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
                assert "ratelimit" not in r.headers and "retry-after" not in r.headers
        made = [await client.post("/api/rooms", json=NEW_ROOM) for _ in range(3)]
        assert [r.status_code for r in made] == [201] * 3
        assert [r.headers["ratelimit"].split(";")[1] for r in made] == ["r=2", "r=1", "r=0"]
        refused = await client.post("/api/rooms", json=NEW_ROOM)
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        assert refused.headers["ratelimit"].startswith('"rooms-60s";r=0;')
        # past the limit, a creation refused for its values is still told what is wrong with it
        for body, status, code in REFUSED_CREATIONS:
            r = await client.post("/api/rooms", json=body)
            assert (r.status_code, r.json()["error"]) == (status, code), body


async def test_refused_creations_have_a_looser_limit_of_their_own(sqlite_url):
    """Refused creations cost no creation, but an address sending more than 60 a minute (a
    deck's check reads up to 512 KB each) is answered 429 before its values are read, its valid
    creations too, by the API or the lobby form, until the minute has passed."""
    async with running_app(sqlite_url) as client:
        chess = {**NEW_ROOM, "game": "chess"}
        statuses = [(await client.post("/api/rooms", json=chess)).status_code for _ in range(REFUSED_ROOMS)]
        assert statuses == [400] * REFUSED_ROOMS
        for body in (chess, NEW_ROOM):
            r = await client.post("/api/rooms", json=body)
            assert r.status_code == 429 and "too many refused room creations" in r.json()["message"], r.text
            assert int(r.headers["retry-after"]) >= 1 and r.headers["ratelimit"].startswith('"refused-60s";r=0;')
        html = {"accept": "text/html", "origin": "http://arena.test"}
        form = {"game": "troika", "seats": "2", "name": "Ana"}
        assert (await client.post("/rooms", data=form, headers=html)).status_code == 429


async def test_the_lobby_form_counts_only_the_rooms_it_creates(sqlite_url):
    html = {"accept": "text/html", "origin": "http://arena.test"}
    async with running_app(sqlite_url, room_creation_limit="2/minute") as client:
        for _ in range(4):
            r = await client.post("/rooms", data={"game": "chess", "seats": "2", "name": "Ana"}, headers=html)
            assert r.status_code == 400
        form = {"game": "troika", "seats": "2", "name": "Ana"}
        codes = [(await client.post("/rooms", data=form, headers=html)).status_code for _ in range(3)]
        assert codes == [303, 303, 429]


async def test_too_many_streams_says_when_to_try_again(sqlite_url):
    """Past the streams and waiting polls of a seat, or a room's spectators: 429 with
    Retry-After and retry_after, the keep-alive interval (by which a stream whose client has
    gone is let go), rounded up."""
    settings = {"max_streams_per_seat": 1, "max_spectators_per_room": 1, "stream_keepalive_seconds": 2.5}
    async with running_app(sqlite_url, **settings) as client:
        room_id, tokens = await create_started_room(client, "troika", 2)
        now = (await client.get(f"/api/rooms/{room_id}/view")).json()["change"]
        for headers in (auth(tokens[0]), {}):
            for call in ("view", "events"):
                params = {"after": now, "wait": 2}
                waiting = asyncio.create_task(
                    client.get(f"/api/rooms/{room_id}/{call}", params=params, headers=headers)
                )
                await asyncio.sleep(0.2)
                r = await client.get(f"/api/rooms/{room_id}/{call}", params=params, headers=headers)
                assert r.status_code == 429 and r.json()["error"] == "too_many_streams", r.text
                assert r.headers["retry-after"] == "3" and r.json()["retry_after"] == 3
                assert (await waiting).status_code == 200


NO_SUCH_SEAT = {"error": "not_found", "message": "no such seat: this room's seats are 0 to 2"}


async def test_a_seat_the_room_lacks_is_404_on_every_call_before_the_rooms_state(client):
    """A 3-seat room: seats 3 and up (and -1 in a path) are no seat, 404 with one message on
    every call that names a seat, whether the room waits, plays or is over; seat 2 is one."""
    r = await client.post("/api/rooms", json={**NEW_ROOM, "seats": 3})
    room_id, host = r.json()["room"]["id"], auth(r.json()["token"])
    base = f"/api/rooms/{room_id}"

    async def refusals(seat: int) -> list[tuple[int, dict]]:
        answers = (
            []
            if seat not in range(5)
            else [  # (a body's seat outside 0-4 is 400: the schema's bounds)
                await client.post(f"{base}/seats", json={"bot": "random", "seat": seat}, headers=host)
            ]
        )
        answers += [
            await client.delete(f"{base}/seats/{seat}", headers=host),
            await client.put(f"{base}/seats/{seat}/autopilot", json={"bot": "strong"}, headers=host),
            await client.post(f"{base}/seats/{seat}/reissue", headers=host),
        ]
        if seat >= 0:
            answers += [await client.get(f"{base}/replay", params={"seat": seat})]
            answers += [await client.get(f"{base}/review", params={"seat": seat})]
        return [(a.status_code, a.json()) for a in answers]

    for seat, calls in ((3, 6), (4, 6), (9, 5), (-1, 3)):
        assert await refusals(seat) == [(404, NO_SUCH_SEAT)] * calls, seat
    # seat 2 exists: the room's state answers (no bot there, nobody there, the game not over)
    waiting = [status for status, _ in await refusals(2)]
    assert waiting == [201, 200, 404, 404, 409, 409]
    for name in ("Bruno", "Carla"):
        await client.post(f"{base}/seats", json={"name": name})
    assert (await client.post(f"{base}/start", headers=host)).status_code == 200
    for seat, calls in ((3, 6), (7, 5)):
        assert await refusals(seat) == [(404, NO_SUCH_SEAT)] * calls, "in play: still no such seat, not 409"
    assert [status for status, _ in await refusals(1)][:2] == [409, 409]
    assert (await client.post(f"{base}/close", headers=host)).json()["status"] == "abandoned"
    for seat, calls in ((3, 6), (9, 5)):
        assert await refusals(seat) == [(404, NO_SUCH_SEAT)] * calls, "over: still no such seat"
    assert (await client.get(f"{base}/replay", params={"seat": 2})).status_code == 200
    assert (await client.get(f"{base}/review", params={"seat": 2})).status_code == 200


async def test_a_closed_waiting_room_says_it_is_closed_not_that_its_game_started(client):
    r = await client.post("/api/rooms", json={**NEW_ROOM, "seats": 3})
    room_id, host = r.json()["room"]["id"], auth(r.json()["token"])
    guest = auth((await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bruno"})).json()["token"])
    assert (await client.post(f"/api/rooms/{room_id}/close", headers=host)).json()["status"] == "closed"
    closed = {"error": "conflict", "message": "this room is closed: its game never started"}
    for call in (
        client.post(f"/api/rooms/{room_id}/seats", json={"name": "Late"}),
        client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=host),
        client.delete(f"/api/rooms/{room_id}/seats/me", headers=guest),
        client.post(f"/api/rooms/{room_id}/start", headers=host),
    ):
        r = await call
        assert (r.status_code, r.json()) == (409, closed)
    # a game in play is still "already started"; one over, "over"
    room_id, tokens = await create_started_room(client, "troika", 2)
    r = await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Late"})
    assert (r.status_code, r.json()["message"]) == (409, "this game has already started")
    await client.post(f"/api/rooms/{room_id}/close", headers=auth(tokens[0]))
    r = await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Late"})
    assert (r.status_code, r.json()["message"]) == (409, "the game is over")


async def test_wait_0_is_no_wait_and_needs_no_after_but_a_views_longer_wait_does(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    for headers in (auth(tokens[0]), {}):
        view = await client.get(f"/api/rooms/{room_id}/view", params={"wait": 0}, headers=headers)
        assert view.status_code == 200 and view.json()["version"] == 0
        r = await client.get(f"/api/rooms/{room_id}/view", params={"wait": 1}, headers=headers)
        assert (r.status_code, r.json()) == (
            400,
            {"error": "bad_request", "message": "wait needs after=<change>: the change id of the last view you hold"},
        )
        for wait in (0, 1, 60):  # the stream's long-poll answers the view at once without after
            events = await asyncio.wait_for(
                client.get(f"/api/rooms/{room_id}/events", params={"wait": wait}, headers=headers), 0.9
            )
            assert events.status_code == 200 and [e["event"] for e in events.json()["events"]] == ["view"]
    document = (await client.get("/openapi.json")).json()
    wait = next(p for p in document["paths"]["/api/rooms/{room_id}/view"]["get"]["parameters"] if p["name"] == "wait")
    assert wait["schema"]["default"] == 0 and "needs no `after`" in wait["description"]


async def test_turn_timers_choices_are_the_schemas_enum_and_another_is_refused_naming_them(client):
    document = (await client.get("/openapi.json")).json()
    timer = document["components"]["schemas"]["CreateRoom"]["properties"]["turn_timer"]
    assert timer["type"] == "integer" and timer["enum"] == list(TURN_TIMER_PRESETS) and timer["default"] == 0
    for refused in (45, -30, 3000):
        r = await client.post("/api/rooms", json={**NEW_ROOM, "turn_timer": refused})
        assert (r.status_code, r.json()) == (
            400,
            {"error": "invalid_request", "message": "turn_timer: Input should be 0, 30, 60, 120 or 300"},
        )
    for refused in (False, 30.0, "30"):  # a whole number is a JSON integer, as everywhere in a body
        r = await client.post("/api/rooms", json={**NEW_ROOM, "turn_timer": refused})
        assert (r.status_code, r.json()["message"]) == (400, "turn_timer: Input should be a valid integer")
    for seconds in TURN_TIMER_PRESETS:
        r = await client.post("/api/rooms", json={**NEW_ROOM, "turn_timer": seconds})
        assert r.status_code == 201 and r.json()["room"]["turn_seconds"] == (seconds or None)


async def test_a_validators_words_come_without_pydantics_prefix_and_unreadable_json_says_why(client):
    room_id, _ = await create_started_room(client, "troika", 2)
    r = await client.post(f"/api/rooms/{room_id}/seats", json={})
    assert r.json() == {
        "error": "invalid_request",
        "message": "give a name (to take a seat) or a bot (the host, to seat one), not both or neither",
    }
    r = await client.get(f"/api/rooms/{room_id}/view", params={"after": "x"})
    assert r.json() == {"error": "invalid_request", "message": "after: a whole number written with the digits 0-9"}
    r = await client.put(f"/api/rooms/{room_id}/seats/01/autopilot", json={"bot": None})
    assert r.json()["message"] == "seat: a seat number is written without leading zeros"
    # (JSON nested past the parser's depth is JSON: it is told so, not "not valid JSON", a probe)
    for body, said in (
        (b"{not json", "body: not valid JSON"),
        (b'{"name": "\xff"}', "body: not valid JSON"),
        (b"[" * 30_000 + b"]" * 30_000, TOO_DEEP),
    ):
        r = await client.post(f"/api/rooms/{room_id}/seats", content=body, headers={"content-type": "application/json"})
        assert (r.status_code, r.json()) == (400, {"error": "invalid_request", "message": said}), body[:20]
    assert "Value error" not in r.text


def test_the_settings_problems_say_a_validators_words_alone():
    from pydantic import ValidationError

    from app.config import Settings, problems

    with pytest.raises(ValidationError) as refused:
        Settings(database_url="mysql://x")
    assert not any("Value error" in line for line in problems(refused.value)), problems(refused.value)


async def test_documented_facts_of_rooms_seed_host_replay_and_options(client):
    """What docs/api.md, "Rooms", says: the seed's SHA-256 hex digest is seed_hash; a host who
    leaves a waiting room hands the role to the next player by seat; a replay's step past the
    end is the last step; room.options echoes the options asked for (the defaults are GET
    /api/games')."""
    r = await client.post("/api/rooms", json={**NEW_ROOM, "seats": 3, "options": {"first_player": "1"}})
    room_id, host = r.json()["room"]["id"], auth(r.json()["token"])
    assert r.json()["room"]["options"] == {"first_player": 1}, "as asked (read as the game reads it)"
    games = {g["slug"]: g for g in (await client.get("/api/games")).json()}
    assert [o["default"] for o in games["troika"]["options"]] == ["random"]
    plain = (await client.post("/api/rooms", json=NEW_ROOM)).json()["room"]
    assert plain["options"] == {}, "an option not asked for is at its default, not echoed"
    bruno = auth((await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bruno"})).json()["token"])
    await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Carla"})
    assert (await client.delete(f"/api/rooms/{room_id}/seats/me", headers=host)).status_code == 200
    seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert [(s["name"], s["host"]) for s in seats] == [(None, False), ("Bruno", True), ("Carla", False)]
    assert (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Ana"})).json()["seat"] == 0
    assert (await client.post(f"/api/rooms/{room_id}/start", headers=bruno)).status_code == 200
    await client.post(f"/api/rooms/{room_id}/close", headers=bruno)
    room = (await client.get(f"/api/rooms/{room_id}")).json()
    assert hashlib.sha256(room["seed"].encode("utf-8")).hexdigest() == room["seed_hash"]
    last = (await client.get(f"/api/rooms/{room_id}/replay")).json()
    for past in (last["last"] + 1, 10**6):
        clamped = (await client.get(f"/api/rooms/{room_id}/replay", params={"step": past})).json()
        assert (clamped["step"], clamped["last"]) == (last["last"], last["last"])
