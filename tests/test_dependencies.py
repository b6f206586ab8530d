"""Routes take the room core's services and the seat token as typed dependencies
(``app.api.deps``): the token through ``HTTPBearer``, which documents it in the OpenAPI schema
(the Authorize button of /docs), while the answers stay as they were: 401 JSON
``{"error", "message"}`` for a missing or malformed token where one is needed, and a body that
does not validate is answered 400 before the token is looked at. Every route and dependency is a
coroutine function: FastAPI runs a plain ``def`` one in its thread pool, a thread hop per call
(the services' dependencies were plain functions, and those hops were 6% of the server's busy
time under a browser load: issue 14's profile)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.dependencies.models import Dependant

from app.main import create_app
from tests.conftest import create_started_room
from tests.support.document import served_document

MALFORMED = "use 'Authorization: Bearer <seat token>'"


def test_the_schema_documents_the_seat_token_as_a_bearer_scheme():
    schema = served_document()
    assert schema["components"]["securitySchemes"]["seatToken"]["scheme"] == "bearer"
    for path, method in [
        ("/api/rooms/{room_id}/actions", "post"),
        ("/api/rooms/{room_id}/start", "post"),
        ("/api/rooms/{room_id}/chat", "post"),
        ("/api/rooms/{room_id}/legal-actions", "get"),
    ]:
        assert schema["paths"][path][method]["security"] == [{"seatToken": []}], path
    # A spectator reads and follows without one (and anyone joins with a name): optional there.
    for path, method in [
        ("/api/rooms/{room_id}/view", "get"),
        ("/api/rooms/{room_id}/log", "get"),
        ("/api/rooms/{room_id}/stream", "get"),
        ("/api/rooms/{room_id}/events", "get"),
        ("/api/rooms/{room_id}/seats", "post"),
    ]:
        assert schema["paths"][path][method]["security"] == [{"seatToken": []}, {}], path
    assert "security" not in schema["paths"]["/api/rooms"]["post"]  # creating a room needs no token


async def test_a_missing_or_malformed_token_is_answered_as_before(client):
    room_id, _ = await create_started_room(client, "troika", 3)
    move = {"version": 0, "action": {"type": "pass"}}
    for url, body in [(f"/api/rooms/{room_id}/actions", move), (f"/api/rooms/{room_id}/chat", {"text": "hi"})]:
        for headers, message in [
            ({}, "this call needs your seat token (Authorization: Bearer ...)"),
            ({"Authorization": "Basic abc"}, MALFORMED),
            ({"Authorization": "Bearer   "}, MALFORMED),
            ({"Authorization": ""}, MALFORMED),
        ]:
            answer = await client.post(url, json=body, headers=headers)
            assert answer.status_code == 401, (url, headers)
            assert answer.json() == {"error": "unauthorized", "message": message}, (url, headers)
    view = await client.get(f"/api/rooms/{room_id}/view", headers={"Authorization": "Basic abc"})
    assert (view.status_code, view.json()["message"]) == (401, MALFORMED)
    assert (await client.get(f"/api/rooms/{room_id}/view")).status_code == 200  # a spectator needs none


async def test_a_token_in_the_address_is_refused_where_a_header_is_read_not_taken_for_a_spectator(client):
    """``?token=`` is the websocket's way. On a call that reads the header it is 401 with how
    to send it (it was read as no token: a spectator's view, answered 200); a header sent with
    it wins, and a missing room is still 404 first."""
    room_id, tokens = await create_started_room(client, "troika", 3)
    in_address = "send the seat token as 'Authorization: Bearer <seat token>', not in the address"
    for url in [f"/api/rooms/{room_id}/view", f"/api/rooms/{room_id}/legal-actions", f"/api/rooms/{room_id}/log"]:
        answer = await client.get(url, params={"token": tokens[0]})
        assert (answer.status_code, answer.json()) == (401, {"error": "unauthorized", "message": in_address}), url
    move = await client.post(
        f"/api/rooms/{room_id}/actions", params={"token": tokens[0]}, json={"version": 0, "action": {"type": "pass"}}
    )
    assert (move.status_code, move.json()["message"]) == (401, in_address)
    mine = await client.get(
        f"/api/rooms/{room_id}/view", params={"token": "x"}, headers={"Authorization": f"Bearer {tokens[1]}"}
    )
    assert (mine.status_code, mine.json()["seat"]) == (200, 1)
    missing = await client.get("/api/rooms/nosuchroom/view", params={"token": tokens[0]})
    assert missing.status_code == 404


async def test_a_body_that_does_not_validate_is_answered_before_the_token(client):
    room_id, _ = await create_started_room(client, "troika", 3)
    answer = await client.post(f"/api/rooms/{room_id}/chat", json={"text": 5}, headers={"Authorization": "Basic x"})
    assert answer.status_code == 400
    assert answer.json()["error"] == "invalid_request"


def test_routes_fetch_no_service_from_the_untyped_app_state():
    root = Path(__file__).resolve().parent.parent / "app"
    for module in ("api/routes.py", "web/pages.py", "web/live.py"):
        source = (root / module).read_text()
        assert "app.state" not in source, module


def callables(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for dependency in dependant.dependencies:
        if dependency.call is not None:
            yield dependency.call
        yield from callables(dependency)


def awaited(call: Callable[..., Any]) -> bool:
    """Whether FastAPI awaits ``call`` on the event loop: a coroutine function, or an object
    whose call is one (``HTTPBearer``)."""
    return inspect.iscoroutinefunction(call) or inspect.iscoroutinefunction(type(call).__call__)


def routes(router: Any) -> Iterator[Any]:
    """The router's routes, and those of the routers it includes (FastAPI keeps an included
    router as one entry, its ``original_router``)."""
    for route in router.routes:
        included = getattr(route, "original_router", None)
        yield from routes(included) if included is not None else [route]


def sync_calls(app: FastAPI) -> list[str]:
    found = []
    for route in routes(app):
        dependant = getattr(route, "dependant", None)
        if dependant is None:
            continue  # static files
        for call in [dependant.call, *callables(dependant)]:
            if call is not None and not awaited(call):
                found.append(f"{getattr(route, 'path', route)}: {getattr(call, '__qualname__', call)}")
    return found


def test_no_route_or_dependency_runs_in_the_thread_pool():
    app = create_app()
    assert sum(1 for _ in routes(app)) >= 50  # every page, API call and socket, not the top level alone
    assert sync_calls(app) == []


def test_the_scan_finds_a_plain_function_dependency():
    def plain() -> int:
        return 1

    app = FastAPI()

    @app.get("/x")
    async def x(value: int = Depends(plain)) -> int:
        return value

    assert sync_calls(app) == ["/x: test_the_scan_finds_a_plain_function_dependency.<locals>.plain"]
