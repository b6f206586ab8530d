"""Routes take the room core's services and the seat token as typed dependencies
(``app.api.deps``): the token through ``HTTPBearer``, which documents it in the OpenAPI schema
(the Authorize button of /docs), while the answers stay as they were: 401 JSON
``{"error", "message"}`` for a missing or malformed token where one is needed, and a body that
does not validate is answered 400 before the token is looked at."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import create_started_room

MALFORMED = "use 'Authorization: Bearer <seat token>'"


async def test_the_schema_documents_the_seat_token_as_a_bearer_scheme(client):
    schema = (await client.get("/openapi.json")).json()
    assert schema["components"]["securitySchemes"]["seat token"]["scheme"] == "bearer"
    for path, method in [
        ("/api/rooms/{room_id}/actions", "post"),
        ("/api/rooms/{room_id}/view", "get"),
        ("/api/rooms/{room_id}/start", "post"),
        ("/api/rooms/{room_id}/chat", "post"),
    ]:
        assert schema["paths"][path][method]["security"] == [{"seat token": []}], path
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
