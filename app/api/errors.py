"""Every error leaves the server as a readable message, JSON under /api, never a stack trace.

Room errors carry their own status; request validation errors are summarised field by field;
anything unexpected is logged server-side and answered with a plain 500 message.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from app.logs import redact
from app.rooms.errors import RoomError
from app.web.render import templates

log = logging.getLogger("troika_arena")


def wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api") or "text/html" not in request.headers.get(
        "accept", ""
    )


def error_response(request: Request, status: int, code: str, message: str, **extra):
    if wants_json(request):
        return JSONResponse({"error": code, "message": message, **extra}, status_code=status)
    return templates.TemplateResponse(
        request, "error.html", {"status": status, "message": message}, status_code=status
    )


def describe_validation(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
        parts.append(f"{where or 'request'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError):
        return error_response(request, exc.status, exc.code, exc.message, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError):
        return error_response(request, 422, "invalid_request", describe_validation(exc))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        message = exc.detail if isinstance(exc.detail, str) else "request failed"
        if exc.status_code == 404 and message == "Not Found":
            message = "no such page"
        return error_response(request, exc.status_code, "http_error", message)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception):
        log.exception("unexpected error on %s %s", request.method, redact(request.url.path))
        return error_response(request, 500, "internal", "the server hit an unexpected error")
