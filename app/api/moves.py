"""The front door of a program's move, ``POST /api/rooms/{room_id}/actions``.

Every move a program makes comes through this one route, and FastAPI's routing, dependency
solving and exception layers cost a large share of the move: measured in process on issue 25's
machine (Vem aí, 4 seats, the rules, the database write and the views included), 2.55 ms of
CPU a move through this door against 2.95 ms through the route, so it stays, a middleware that
shadows its route. (A browser's click no longer has one: it travels over the page's socket,
``app.web.live``.) It answers the calls that need none of that, a JSON body that parses and
validates as ``SubmitAction``, with the route's own handler (``reply_to_move``) and the same
dependencies (``app.api.deps``), and room errors with the same JSON error as every /api route.
Everything else (a body that does not validate, another content type) goes on to the FastAPI
route, which words the error as for every other call and documents the call in the OpenAPI
schema.
"""

from __future__ import annotations

import re

import orjson
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.deps import BEARER, credentials, payloads, play, rooms
from app.api.errors import json_error
from app.api.json_bodies import json_content, receive_again, whole_body
from app.api.routes import SubmitAction, reply_to_move
from app.rooms.errors import RoomError

ACTIONS = re.compile(r"/api/rooms/([^/]+)/actions")


class MoveFrontDoor:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = ACTIONS.fullmatch(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if found is None or not json_content(Headers(scope=scope).get("content-type")):
            await self.app(scope, receive, send)
            return
        body = await whole_body(scope, receive)
        if body is None:
            return
        request = Request(scope, receive)
        try:
            move = SubmitAction.model_validate(orjson.loads(body))
        except ValueError:  # not JSON, or not a SubmitAction (pydantic's error is a ValueError)
            await self.app(scope, receive_again(body, receive), send)
            return
        try:
            auth = await credentials(request, await BEARER(request))
            response = await reply_to_move(
                found[1], move, await rooms(request), await play(request), await payloads(request), auth
            )
        except RoomError as exc:
            response = json_error(exc.status, exc.code, exc.message, exc.headers, **exc.extra)
        await response(scope, receive, send)
