"""A JSON body under /api says each key of an object once: one with a key twice is refused, as is
one nested deeper than the parser goes, each in words of its own.

JSON leaves a repeated key's meaning open, and the parsers differ (ours, orjson and the standard
library, keep the last value; others keep the first or refuse), so ``{"name": "Ana", "name":
"Eve"}`` could mean one thing to a proxy or a client's log and another to the server. The
middleware reads such a body once, refuses it with 400 ``invalid_request`` naming the key, and
hands any other body on as it came. It also holds the body helpers the move's front door
(``app.api.moves``) shares: whether a request's content type is JSON, reading the whole body
(none if the client went away before sending it: the server has answered it 408, and there
is no one left to answer), and handing a body read once to the app again.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import cut, json_error

CARRY_A_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the body, refused (:class:`RepeatedKey`) where it names a key twice."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise RepeatedKey(key)
        found[key] = value
    return found


TOO_DEEP = "body: nested too deeply (arrays and objects inside one another)"


def body_fault(body: bytes) -> str | None:
    """What is wrong with ``body`` that the route would not say: the first key some object names
    twice, or nesting deeper than the parser goes (the route said only "not valid JSON");
    None for a sound body, and for one that is not JSON at all (the route words that)."""
    try:
        json.loads(body, object_pairs_hook=unique_pairs)
    except RepeatedKey as repeated:
        return cut(f"body: the key {json.dumps(repeated.key, ensure_ascii=False)} is given twice in one object")
    except RecursionError:
        return TOO_DEEP
    except ValueError:  # (not JSON, not UTF-8)
        return None
    return None


class UniqueKeys:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not (
            scope["type"] == "http"
            and scope["method"] in CARRY_A_BODY
            and scope["path"].startswith("/api/")
            and json_content(Headers(scope=scope).get("content-type"))
        ):
            await self.app(scope, receive, send)
            return
        body = await whole_body(scope, receive)
        if body is None:
            return
        fault = body_fault(body)
        if fault is None:
            await self.app(scope, receive_again(body, receive), send)
            return
        await json_error(400, "invalid_request", fault)(scope, receive, send)


def json_content(content_type: str | None) -> bool:
    """Whether the body came as application/json (FastAPI reads no other body as JSON, and none
    without a content type: the route refuses those, in the same words as every route)."""
    return content_type is not None and content_type.split(";")[0].strip().lower() == "application/json"


async def whole_body(scope: Scope, receive: Receive) -> bytes | None:
    """The request's whole body, or None if the client went away before it came."""
    try:
        return await Request(scope, receive).body()
    except ClientDisconnect:
        return None


def receive_again(body: bytes, receive: Receive) -> Receive:
    """``receive`` with the body already read handed out again first."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def again() -> Message:
        return pending.pop() if pending else await receive()

    return again
