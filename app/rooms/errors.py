"""Errors the room layer raises; each carries the HTTP status and a message safe to show.

Messages never include hidden information: they name what was wrong with the request, the
engine's public reason for an illegal action, or the room's current version. A message is a
text or a message of ``app.games.base.say``: ``message`` is its English text (the API's),
``said`` the message itself, which a page shows in its reader's language.
"""

from __future__ import annotations

from app.games.base import Message, say, spoken


class RoomError(Exception):
    status = 400
    code = "bad_request"
    headers: dict[str, str] | None = None  # sent with the answer (Retry-After, say)

    def __init__(self, message: str | Message, **extra):
        self.said = say(message) if isinstance(message, str) else message
        self.message = spoken(self.said)
        super().__init__(self.message)
        self.extra = extra

    def to_json(self) -> dict:
        return {"error": self.code, "message": self.message, **self.extra}


class BadRequest(RoomError):
    status, code = 400, "bad_request"


class InvalidRequest(RoomError):
    """A request of the wrong shape, as FastAPI's own validation of a body answers it."""

    status, code = 400, "invalid_request"


class UnknownField(RoomError):
    """A body that reads as the call's but has a field the call (or the action's type, or the
    game's options) does not name: refused, and the fields named."""

    status, code = 422, "unknown_field"

    def __init__(self, fields: list[str]):
        super().__init__(say("unknown field: {fields}", fields=", ".join(fields)))


class Unauthorized(RoomError):
    status, code = 401, "unauthorized"


class Forbidden(RoomError):
    status, code = 403, "forbidden"


class NotFound(RoomError):
    status, code = 404, "not_found"


class Conflict(RoomError):
    status, code = 409, "conflict"


class Held(Conflict):
    """A seat held for the last game's players after "play again": ``retry_after`` seconds until
    the hold ends (the answer's ``Retry-After`` header, and ``retry_after`` in its JSON)."""

    def __init__(self, message: str | Message, retry_after: int):
        super().__init__(message, retry_after=retry_after)
        self.headers = {"Retry-After": str(retry_after)}


class Stale(Conflict):
    """A move chosen from a view that another move has since superseded (same answer as any
    conflict; the browser pages explain it in plain words)."""


class HintsOff(Conflict):
    """A hint asked for in a room created without the ``hints`` option."""

    status, code = 409, "hints_off"


class Illegal(RoomError):
    status, code = 422, "illegal_action"


class KeyReused(RoomError):
    status, code = 422, "idempotency_key_reused"


class TooMany(RoomError):
    """A rate limit: ``retry_after`` seconds until one more would pass (the answer's
    ``Retry-After`` header, and ``retry_after`` in its JSON)."""

    status, code = 429, "rate_limited"

    def __init__(self, message: str | Message, retry_after: int, headers: dict[str, str] | None = None):
        super().__init__(message, retry_after=retry_after)
        self.headers = {"Retry-After": str(retry_after), **(headers or {})}


class TooManyStreams(TooMany):
    """One more event stream (or waiting poll) than a seat or a room's spectators may hold;
    ``retry_after``: the seconds until a stream whose client has gone is let go at the latest
    (its next keep-alive line)."""

    status, code = 429, "too_many_streams"
