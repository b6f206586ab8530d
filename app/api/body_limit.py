"""Request bodies are limited before they are read, whichever route they are for.

An ASGI middleware placed before the move front door and FastAPI: a request whose
``Content-Length`` is over the limit is answered 413 at once, its body never read (the server
discards it as it arrives); a body sent without a length (chunked) is counted as it streams in,
and the first chunk past the limit ends the reading with the same 413. The limit is
``MAX_BODY_BYTES`` (64 KB by default); creating a room, which may carry a deck (an uploaded
file in the browser's form, a ``deck`` option through the API), may send a deck file's
512 KB and the form around it, and opening a record file to replay it, a record's 1 MB.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import ErrorPage, error_response
from app.games.base import MAX_DECK_BYTES
from app.rooms.replays import MAX_RECORD_BYTES

FORM_ROOM = 16 * 1024  # the room form's other fields and the multipart framing around the file
CARRIES_A_DECK = {("POST", "/rooms"), ("POST", "/api/rooms")}
CARRIES_A_RECORD = ("POST", "/replay")  # a record file to replay, which may hold a deck


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes its limit. An HTTPException, so a
    route reading the body (through FastAPI or Starlette's form parser) answers 413 too."""

    def __init__(self, limit: int):
        super().__init__(413, f"the request body is larger than {size(limit)}")


def size(limit: int) -> str:
    """A limit as a refusal says it: in KB when it is a whole number of KB, else in bytes."""
    return f"{limit // 1024} KB" if limit % 1024 == 0 else f"{limit} bytes"


class BodyLimit:
    def __init__(self, app: ASGIApp, limit: int, page: ErrorPage) -> None:
        self.app = app
        self.limit = limit
        self.page = page

    def limit_for(self, scope: Scope) -> int:
        if (scope["method"], scope["path"]) in CARRIES_A_DECK:
            return max(self.limit, MAX_DECK_BYTES + FORM_ROOM)
        if (scope["method"], scope["path"]) == CARRIES_A_RECORD:
            return max(self.limit, MAX_RECORD_BYTES + FORM_ROOM)
        return self.limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope)
        if declared_length(scope) > limit:
            await refuse(self.page, scope, receive, send, BodyTooLarge(limit))
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge as exc:  # raised where nothing turned it into an answer already
            if started:
                raise
            await refuse(self.page, scope, receive, send, exc)


def declared_length(scope: Scope) -> int:
    """The request's Content-Length (0 if none; the server has refused a malformed one)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value) if value.isdigit() else 0
    return 0


async def refuse(page: ErrorPage, scope: Scope, receive: Receive, send: Send, exc: BodyTooLarge) -> None:
    """Answer 413 (JSON under /api, a page elsewhere); the connection stays open and the
    server drops the rest of the body as it arrives, so the client reads the answer."""
    request = Request(scope)
    await error_response(page, request, 413, "too_large", exc.detail)(scope, receive, send)
