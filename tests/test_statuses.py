"""Statuses are consistent (issue 17, point 4; issue 27): 400 for a malformed request, 422 for
one that is well formed but refused (a field the call does not name, a move the rules refuse,
an idempotency key reused), and only on calls that take a body (or refuse one), 404 for a
missing room whatever the token, HEAD wherever GET is answered; every error has the one shape,
and the README's table of statuses is the code's (each status and its `error` codes, answered
by real requests)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.routing import APIRoute

from app.api.deps import no_body
from app.api.errors import MEANINGS, ErrorAnswer
from app.rooms.errors import RoomError
from tests.conftest import auth, create_started_room, running_app
from tests.support.document import document_app, served_document

README = Path(__file__).resolve().parent.parent / "README.md"
# the codes answered outside app.rooms.errors: FastAPI's validation, the body limit, the boundary
OTHER_CODES = {
    400: {"invalid_request"},
    405: {"method_not_allowed"},
    413: {"too_large"},
    500: {"internal"},
    503: {"database_unavailable"},
}
UNDECLARED = {405, 500}  # a method no operation of the path has; the boundary's unexpected error


def readme_table(path: Path = README) -> dict[int, set[str]]:
    """A document's table of error statuses (the README's unless told): each status and the
    `error` codes it lists."""
    codes: dict[int, set[str]] = {}
    for status, listed in re.findall(r"^\| (\d{3}) \| ([^|]+) \|", path.read_text(), re.MULTILINE):
        codes.setdefault(int(status), set()).update(re.findall(r"`([a-z_]+)`", listed))
    return codes


def room_error_codes() -> dict[int, set[str]]:
    codes: dict[int, set[str]] = {}
    pending = [RoomError]
    while pending:
        kind = pending.pop()
        pending.extend(kind.__subclasses__())
        codes.setdefault(kind.status, set()).add(kind.code)
    return codes


def test_the_readme_table_lists_every_status_and_code_the_server_answers():
    table = readme_table()
    answered = room_error_codes()
    for status, codes in OTHER_CODES.items():
        answered.setdefault(status, set()).update(codes)
    assert table == answered
    assert set(table) - {500} == set(MEANINGS)  # every status but the unexpected error has its meaning
    assert readme_table(README.parent / "docs" / "api.md") == table, "docs/api.md's error table says the same"


def test_the_openapi_document_lists_only_the_tables_statuses_in_the_one_error_shape():
    document = served_document()
    refusing_a_body = {  # the calls that take no body, and refuse one that names fields (422)
        (route.path, method.lower())
        for route in document_app().routes
        if isinstance(route, APIRoute) and any(d.call is no_body for d in route.dependant.dependencies)
        for method in route.methods
    }
    assert len(refusing_a_body) == 6
    assert "HTTPValidationError" not in document["components"]["schemas"]
    assert document["components"]["schemas"]["ErrorAnswer"]["additionalProperties"] is False
    declared = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if int(status) >= 400:
                    declared.add(int(status))
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorAnswer"}, (path, method, status)
            assert {"413", "503"} <= set(operation["responses"]), (path, method, "any call may answer them")
            if "422" in operation["responses"]:
                taken = "requestBody" in operation or (path, method) in refusing_a_body
                assert taken, (path, method, "422 is for calls that take a body, or refuse one")
    assert declared == set(readme_table()) - UNDECLARED


def test_every_operation_is_described_for_its_caller_not_by_the_codes_modules():
    """A generated client copies each description into its docstrings: getView's named a
    module and a version where ``after`` is a change, and submitAction's whole description was
    a note about the code (a programmer's probe, 2026-12-07)."""
    for path, operations in served_document()["paths"].items():
        for method, operation in operations.items():
            words = operation.get("description") or operation.get("summary", "")
            assert len(words) > 40 and "app." not in words, (method, path, words)
            assert "version ``after``" not in words, (method, path)


async def answer_of(client, method, url, **kwargs):
    r = await client.request(method, url, **kwargs)
    ErrorAnswer.model_validate(r.json())  # the one shape, nothing more
    return r.status_code, r.json()["error"]


async def test_real_requests_answer_the_tables_statuses_and_codes(sqlite_url):
    table = readme_table()
    async with running_app(sqlite_url, room_creation_limit="4/minute") as client:
        room_id, tokens = await create_started_room(client, "troika", 2)
        seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        mover, idle = auth(tokens[seat]), auth(tokens[1 - seat])
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=mover)).json()["legal_actions"]
        moves = f"/api/rooms/{room_id}/actions"
        cases = [
            ("POST", "/api/rooms", {"json": {"game": "troika", "seats": "2", "name": "A"}}, 400),
            ("POST", "/api/rooms", {"json": {"game": "chess", "seats": 2, "name": "A"}}, 400),
            ("POST", moves, {"json": {"version": 0.0, "action": legal[0]["action"]}, "headers": mover}, 400),
            ("GET", "/api/rooms?status=sideways", {}, 400),
            ("GET", f"/api/rooms/{room_id}/legal-actions", {}, 401),
            ("GET", f"/api/rooms/{room_id}/legal-actions", {"headers": auth("not-a-seat")}, 403),
            ("GET", "/api/rooms/nope/view", {}, 404),
            ("POST", f"/api/rooms/{room_id}/start", {"headers": auth(tokens[0])}, 409),
            ("POST", moves, {"json": {"version": 0, "action": legal[0]["action"]}, "headers": idle}, 422),
            ("POST", "/api/rooms/x/chat", {"content": b"x" * 2_000_000, "headers": mover}, 413),
        ]
        for method, url, kwargs, status in cases:
            answered, code = await answer_of(client, method, url, **kwargs)
            assert answered == status and code in table[status], (method, url, answered, code)
        for _ in range(4):
            await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "A"})
        answered, code = await answer_of(client, "POST", "/api/rooms", json={"game": "troika", "seats": 2, "name": "A"})
        assert (answered, code) == (429, "rate_limited")


async def test_a_missing_room_is_404_whatever_the_token(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    calls = [
        ("GET", "view", None),
        ("GET", "legal-actions", None),
        ("GET", "log", None),
        ("GET", "chat", None),
        ("GET", "record", None),
        ("POST", "actions", {"version": 0, "action": {"type": "pass"}}),
        ("POST", "chat", {"text": "hi"}),
        ("POST", "start", None),
        ("POST", "seats", {"bot": "random"}),
        ("DELETE", "seats/me", None),
        ("DELETE", "seats/1", None),
        ("PUT", "seats/me/autopilot", {"bot": "random"}),
        ("PUT", "seats/1/autopilot", {"bot": "random"}),
    ]
    for headers in ({}, auth(tokens[0]), {"Authorization": "Basic abc"}, auth("no-such-token")):
        for method, tail, body in calls:
            r = await client.request(method, f"/api/rooms/missing/{tail}", json=body, headers=headers)
            assert (r.status_code, r.json()["error"]) == (404, "not_found"), (method, tail, headers, r.text)
    assert (await client.get(f"/api/rooms/{room_id}/legal-actions")).status_code == 401  # the room exists


async def test_head_is_answered_wherever_get_is(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    for url, headers in [
        ("/", {}),
        ("/api/games", {}),
        (f"/api/rooms/{room_id}", {}),
        (f"/api/rooms/{room_id}/view", auth(tokens[0])),
        (f"/api/rooms/{room_id}/legal-actions", auth(tokens[0])),
        ("/openapi.json", {}),
        ("/asyncapi.json", {}),
        ("/healthz", {}),
        ("/static/css/arena.css", {}),
    ]:
        got = await client.get(url, headers=headers)
        head = await client.head(url, headers=headers)
        assert (head.status_code, got.status_code) == (200, 200), url
        assert head.content == b"", url
        assert head.headers["content-type"] == got.headers["content-type"], url
        assert int(head.headers["content-length"]) == len(got.content), url
    for url, status in [("/api/rooms/missing/view", 404), (f"/api/rooms/{room_id}/legal-actions", 401)]:
        head = await client.head(url)
        assert (head.status_code, head.content) == (status, b""), url
    assert (await client.head(f"/api/rooms/{room_id}/actions")).status_code == 405  # no GET there


async def test_a_request_wrong_in_several_ways_is_answered_for_the_first_as_the_readme_orders(client):
    """README: a malformed body (400), a missing room (404), an action that fits none of the
    game's action types (400), then a missing or foreign token (401, 403)."""
    room_id, _ = await create_started_room(client, "troika", 2)
    _, strangers = await create_started_room(client, "troika", 2)
    odd = {"version": 0, "action": {"type": "no_such_move"}}
    fine = {"version": 0, "action": {"type": "troika"}}

    async def status(room: str, body: object, token: str | None = None) -> int:
        headers = auth(token) if token else {}
        return (await client.post(f"/api/rooms/{room}/actions", json=body, headers=headers)).status_code

    assert await status("no-such-room", {"version": "0"}) == 400  # the body first
    assert await status("no-such-room", odd) == 404  # then the room
    assert await status(room_id, odd) == 400  # then the action's shape
    assert await status(room_id, odd, strangers[0]) == 400
    assert await status(room_id, fine) == 401  # then the token
    assert await status(room_id, fine, strangers[0]) == 403
