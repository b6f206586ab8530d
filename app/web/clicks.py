"""The front door of a browser's move, ``POST /rooms/{room_id}/seat/{token}/act``.

Every click on the table comes through this one form route, and FastAPI's routing and
dependency solving cost a tenth of the server's busy time under a browser load (issue 14's
profile), as they did for the JSON move before ``app.api.moves``. This middleware answers the
click with the page route's own handler (``app.web.pages.act``) and the same dependencies. An
error that the handler lets out (a room or token that does not exist, a form that does not
parse: each raised before anything is played) is handed on to the route with the body, so it
is worded as the route words it, on the same error page.
"""

from __future__ import annotations

import re

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.deps import live_games, play
from app.api.moves import replay
from app.rooms.errors import RoomError
from app.web.delivery import delivery
from app.web.pages import act

ACT = re.compile(r"/rooms/([^/]+)/seat/([^/]+)/act")


class ClickFrontDoor:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = ACT.fullmatch(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        body = await request.body()  # kept by the request for its form, and for the route below
        try:
            response = await act(
                found[1], found[2], request, await live_games(request), await play(request), await delivery(request)
            )
        except (RoomError, HTTPException):
            await self.app(scope, replay(body, receive), send)
            return
        await response(scope, receive, send)
