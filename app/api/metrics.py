"""GET /metrics: this instance's Prometheus metrics (``app.realtime.metrics``), in the text
format Prometheus scrapes. Only with METRICS_TOKEN set is the route there at all (else the path
is unknown, 404), and then it answers only a request bearing that token
(``Authorization: Bearer <METRICS_TOKEN>``, compared in constant time); anything else is 401.
Kept out of the OpenAPI document: it is for the operator's scraper, not for players' programs.
"""

from __future__ import annotations

import hmac

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.api.deps import Configured, Rooms
from app.rooms import storage
from app.rooms.errors import Unauthorized

router = APIRouter(include_in_schema=False)


def bearer_matches(header: str, token: str) -> bool:
    scheme, _, given = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


@router.get("/metrics")
async def metrics(request: Request, rooms: Rooms, settings: Configured) -> Response:
    if not bearer_matches(request.headers.get("authorization", ""), settings.metrics_token):
        refused = Unauthorized("this call needs the metrics token (Authorization: Bearer ...)")
        refused.headers = {"WWW-Authenticate": "Bearer"}
        raise refused
    collected = request.app.state.metrics
    collected.count_rooms(await storage.census(rooms.db))
    return Response(generate_latest(collected.registry), media_type=CONTENT_TYPE_LATEST)
