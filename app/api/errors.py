"""Every error leaves the server as a readable message, JSON under /api, never a stack trace.

Room errors carry their own status; a request that does not validate (a body, a query or a
path parameter of the wrong shape) is 400, summarised field by field, unless all that is wrong
with it is fields the call does not name: 422 ``unknown_field``, naming them (the rule is in
docs/api.md, "Statuses and errors"). Every error has one
shape, :class:`ErrorAnswer`, and each route lists the statuses it can answer (:func:`answers`),
as the OpenAPI document publishes them.
A browser asking for a page gets one from the ``ErrorPage`` the app was built with
(``app.web.render.error_page``, handed over by ``app.main``: this layer knows no templates).
Whatever else escapes a route (or the move front door) is answered by :class:`ErrorBoundary`
and goes no further: database trouble (``app.db.faults``) as 503 with its reason and a
``Retry-After``, logged as one line; anything else as a plain 500, logged once with its
traceback. (An exception let out of the app would be logged a second time by the server, and
would cost the client its kept-alive connection.)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db.faults import OUTAGES, outage
from app.games.base import Message as Said
from app.games.base import say, spoken
from app.logs import redact
from app.reading import validation_words
from app.rooms.errors import RoomError, UnknownField

log = logging.getLogger("troika_arena")


class ErrorAnswer(BaseModel):
    """Every error the API answers: a stable code and a message safe to show (it names what was
    wrong with the request, never another seat's hidden information)."""

    model_config = ConfigDict(extra="forbid")

    error: str = Field(description="a stable code: invalid_request, bad_request, unauthorized, forbidden, ...")
    message: str = Field(description="what was wrong, in words")
    version: int | None = Field(default=None, description="409 and 422 answers to a move: the room's current version")
    change: int | None = Field(default=None, description="an `after` past the room's last change: that change's id")
    retry_after: int | None = Field(
        default=None,
        description="429: seconds until one more would pass; 409 for a seat held after play again: seconds "
        "until the hold ends",
    )


MEANINGS = {
    400: "malformed: the request does not read as the call's (not JSON, not an object, a field missing or of "
    "the wrong type, a value out of range, an action no type of the game fits)",
    401: "the call needs a seat token (Authorization: Bearer <token>), or the header is malformed",
    403: "the token holds no seat in this room, or the call is the host's",
    404: "no such room (whatever the token), seat or bot",
    405: "the path takes other methods (the Allow header lists them)",
    409: "the room's state refuses it now: a stale version, the game not started or over, a seat taken",
    413: "the body is larger than MAX_BODY_BYTES",
    422: "invalid: the request reads as the call's, but something it says is refused: a field the call "
    "does not name (unknown_field, named), a move the rules refuse (the engine's reason), an idempotency "
    "key reused for other content",
    429: "rate limited; the Retry-After header says when to try again",
    503: "the database is unavailable; the Retry-After header says when to try again",
}


# the refusals raised below the routes (``install_error_handlers``), by status: the code and the
# message, or None to keep the exception's own (the body limit's names the limit)
REFUSALS: dict[int, tuple[str, Said | None]] = {
    400: ("invalid_request", say("body: not valid JSON")),  # (as pydantic's json_invalid is said: PLAINER)
    404: ("not_found", say("no such page or call")),
    405: ("method_not_allowed", say("this call does not take that method (see Allow)")),
    413: ("too_large", None),
}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error statuses a route can answer, as FastAPI's ``responses``: each one an
    :class:`ErrorAnswer`, described by :data:`MEANINGS` (413 and 503 are added to every route:
    the body limit answers any request with a body past it, a GET's too, before a route is
    found, and any route may find the database down)."""
    every = {*statuses, 413, 503}
    return {status: {"model": ErrorAnswer, "description": MEANINGS[status]} for status in sorted(every)}


def wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api") or "text/html" not in request.headers.get("accept", "")


class ErrorPage(Protocol):
    """An error as a page for a browser: its status, its message (a text, or a message of
    ``app.games.base.say`` that the page says in its reader's language) and any headers."""

    def __call__(
        self, request: Request, status: int, message: str | Said, headers: Mapping[str, str] | None
    ) -> Response: ...


def json_error(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None, **extra: Any
) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, **extra}, status_code=status, headers=headers)


def error_response(
    page: ErrorPage,
    request: Request,
    status: int,
    code: str,
    message: str | Said,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> Response:
    if wants_json(request):
        return json_error(status, code, message if isinstance(message, str) else spoken(message), headers, **extra)
    return page(request, status, message, headers)


def unknown_fields(errors: Sequence[Mapping[str, Any]]) -> list[str] | None:
    """The fields named in ``errors`` (pydantic's) if every one of them is a field the model
    does not name: the body is otherwise what the call takes (422 ``unknown_field``); None if
    anything else is wrong with it (400: the shape comes first)."""
    if not errors or any(err.get("type") != "extra_forbidden" for err in errors):
        return None
    return [".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path")) for err in errors]


NOT_AN_OBJECT = ("model_attributes_type", "dict_type")  # pydantic's error types for it

# pydantic's words for an error, where they would not help a reader
PLAINER = {
    "string_pattern_mismatch": "must be at least one character, with no control character",
    "extra_forbidden": "unknown field",
    "json_invalid": "not valid JSON",
    **dict.fromkeys(NOT_AN_OBJECT, "must be a JSON object"),  # ("Input should be a valid dictionary or object ...")
    "union_tag_not_found": 'needs a "type" naming one of the game\'s actions (send a legal action\'s "action", '
    "not the whole entry)",
}


def described(errors: Sequence[Mapping[str, Any]], skip: int = 0) -> str:
    """Each of pydantic's ``errors`` as "where: what", in plainer words where pydantic's would
    not help; ``skip``: the steps of each place to leave out (an action's chosen type)."""
    parts = []
    for err in errors:
        steps = [str(p) for p in err.get("loc", ())[skip:] if p not in ("body", "query", "path")]
        # (the body itself, not a field of it, of the wrong kind or missing; a validator's own
        # words about the whole body stand alone)
        whole = tuple(err.get("loc", ())) == ("body",) and err.get("type") in ("missing", *NOT_AN_OBJECT)
        where = "body" if err.get("type") == "json_invalid" or whole else ".".join(steps)
        what = PLAINER.get(err.get("type", ""), validation_words(err))
        if whole and err.get("type") == "missing":
            what = "missing: send a JSON object"  # ("Field required" named no field)
        parts.append(cut(f"{where}: {what}" if where else what))
    return "; ".join(parts)


ECHO_LIMIT = 200  # characters of one error's words: pydantic's echo the value refused, however long


def cut(words: str) -> str:
    return words if len(words) <= ECHO_LIMIT else words[: ECHO_LIMIT - 1] + "…"


def describe_validation(exc: RequestValidationError) -> str:
    return described(exc.errors()) or "invalid request"


def not_sent_as_json(request: Request, errors: Sequence[Mapping[str, Any]]) -> str | None:
    """Why a body was not read, when it came with a Content-Type other than JSON's (``curl -d``
    sends a form's) or none: the framework then reads no JSON (FastAPI's strict content type),
    and the whole body is wrong."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/json" or kind.endswith("+json"):
        return None
    if not any(tuple(err.get("loc", ())) == ("body",) for err in errors):
        return None
    came = f"as {kind[:60]}" if kind else "with none"
    return f"the body must be JSON, sent with Content-Type: application/json (it came {came})"


def allowed(app: FastAPI, request: Request) -> str:
    """The methods some route takes at the request's path (every GET answers HEAD too): the
    router names only those of the first route matching the path."""
    methods: set[str] = set()
    pending = list(app.router.routes)
    while pending:
        route = pending.pop()
        included = getattr(route, "original_router", None)  # a router included in the app's
        if included is not None:
            pending += included.routes
        elif route.matches(request.scope)[0] != Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


def install_error_handlers(app: FastAPI, page: ErrorPage) -> None:
    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError):
        return error_response(page, request, exc.status, exc.code, exc.said, headers=exc.headers, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError):
        unknown = unknown_fields(exc.errors())
        if unknown is not None:
            refused = UnknownField(unknown)
            return error_response(page, request, refused.status, refused.code, refused.said)
        why = not_sent_as_json(request, exc.errors()) if wants_json(request) else None
        return error_response(page, request, 400, "invalid_request", why or describe_validation(exc))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        """The refusals of the layers below the routes: no route at this path (404
        ``not_found``), or not with this method (405 ``method_not_allowed``, with ``Allow``); a
        body the framework cannot decode (400 ``invalid_request``: not UTF-8, nested too deep);
        a streamed body past the limit (413 ``too_large``). No other status is raised there."""
        code, said = REFUSALS.get(exc.status_code, ("invalid_request", None))
        message = said or (exc.detail if isinstance(exc.detail, str) else "request failed")
        headers = {"Allow": allowed(app, request)} if exc.status_code == 405 else exc.headers
        return error_response(page, request, exc.status_code, code, message, headers=headers)


INTERNAL_ERROR = 1011  # the websocket close code for a server-side failure
RESPONSE_STARTS = {"http.response.start", "websocket.accept", "websocket.close", "websocket.http.response.start"}


class ErrorBoundary:
    """ASGI middleware: the last stop of an exception on its way out of the app (see above).

    Once a response has started, nothing more can be said to the client: the failure is only
    logged. A websocket that fails before it is answered is refused with 1011 and the reason."""

    def __init__(self, app: ASGIApp, page: ErrorPage) -> None:
        self.app = app
        self.page = page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] in RESPONSE_STARTS
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        except Exception as exc:
            trouble = outage(exc)
            where = f"{scope.get('method', 'WEBSOCKET')} {redact(scope['path'])}"
            if trouble is not None:
                OUTAGES.count += 1
                log.warning("database unavailable on %s: %s (%s)", where, trouble.reason, trouble.cause)
            else:
                log.error("unexpected error on %s", where, exc_info=exc)
            if started:
                return
            if scope["type"] == "websocket":
                reason = trouble.message if trouble else "server error"
                await send({"type": "websocket.close", "code": INTERNAL_ERROR, "reason": reason})
                return
            request = Request(scope, receive)
            if trouble is not None:
                response = error_response(
                    self.page,
                    request,
                    503,
                    "database_unavailable",
                    trouble.message,
                    headers={"Retry-After": str(trouble.retry_after)},
                )
            else:
                response = error_response(self.page, request, 500, "internal", "the server hit an unexpected error")
            await response(scope, receive, send)
