"""The headers an answer documents beside its body, for the OpenAPI document: ``Location`` on a
201, and the IETF ``RateLimit-Policy`` and ``RateLimit`` fields on the calls a rate limit counts
(``app.rooms.throttle``), on every answer the limit counted and on its 429."""

from __future__ import annotations

from typing import Any

LOCATION = {"Location": "the path of what was made"}
RATE_LIMIT = {
    "RateLimit-Policy": 'the limits this call counts against, one a window: `"chat-10s";q=5;w=10` (quota q in w '
    "seconds; draft-ietf-httpapi-ratelimit-headers)",
    "RateLimit": 'what is left of each: `"chat-10s";r=4;t=10` (r more may pass; t seconds until the window is whole)',
}


def with_headers(status: int, headers: dict[str, str]) -> dict[int | str, dict[str, Any]]:
    """FastAPI ``responses`` naming ``headers`` (name: description) on answers of ``status``."""
    return {
        status: {
            "headers": {name: {"description": said, "schema": {"type": "string"}} for name, said in headers.items()}
        }
    }
