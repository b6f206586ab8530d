"""The bare fan-out baseline: the arena's room API and websocket, with no rules behind them.

It speaks the subset of the arena's protocol the load generator uses (create, join, start,
act, ``/ws/rooms/<id>``) on the same stack (uvicorn, Starlette websockets, JSON), but a move
only bumps the room's version and pushes one prepared message of ``BENCH_PAYLOAD_BYTES``
bytes to every socket of the room: no rules, no rendering, no database. The ratio of the
arena's figures to these is the cost of the product itself.
"""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from itertools import count

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.runtime import tune_garbage_collector

PAYLOAD_BYTES = int(os.environ.get("BENCH_PAYLOAD_BYTES", "4000"))
SEATS = 4


@dataclass
class BareRoom:
    version: int = 0
    joined: int = 1
    sockets: dict[WebSocket, int] = field(default_factory=dict)


rooms: dict[str, BareRoom] = {}
room_ids = count()


def message(version: int, seat: int) -> str:
    """A view-shaped message padded to PAYLOAD_BYTES: seat ``version % 4`` is to act."""
    to_act = version % SEATS
    legal = [{"action": {"type": "pass"}, "label": "Pass"}] if seat == to_act else []
    body = {"version": version, "status": "playing", "to_act": [to_act], "legal_actions": legal}
    pad = max(PAYLOAD_BYTES - len(json.dumps(body)) - 12, 0)
    return json.dumps({**body, "pad": "x" * pad})


async def create(request: Request) -> JSONResponse:
    room_id = f"r{next(room_ids)}"
    rooms[room_id] = BareRoom()
    return JSONResponse({"room": {"id": room_id}, "seat": 0, "token": "0"})


async def join(request: Request) -> JSONResponse:
    room = rooms[request.path_params["room_id"]]
    seat, room.joined = room.joined, room.joined + 1
    return JSONResponse({"seat": seat, "token": str(seat)})


async def start(request: Request) -> JSONResponse:
    return JSONResponse({"status": "playing"})


async def act(request: Request) -> JSONResponse:
    room = rooms[request.path_params["room_id"]]
    await request.json()
    room.version += 1
    for ws, seat in list(room.sockets.items()):
        try:
            await ws.send_text(message(room.version, seat))
        except (WebSocketDisconnect, RuntimeError):
            room.sockets.pop(ws, None)
    return JSONResponse({"version": room.version, "duplicate": False})


async def socket(ws: WebSocket) -> None:
    room = rooms[ws.path_params["room_id"]]
    seat = int(ws.query_params.get("token", "0"))
    await ws.accept()
    room.sockets[ws] = seat
    try:
        await ws.send_text(message(room.version, seat))
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass
    finally:
        room.sockets.pop(ws, None)


async def healthz(request: Request) -> JSONResponse:
    return JSONResponse({"ok": True})


@asynccontextmanager
async def lifespan(_app: Starlette):
    tune_garbage_collector()
    yield


app = Starlette(
    lifespan=lifespan,
    routes=[
        Route("/healthz", healthz),
        Route("/api/rooms", create, methods=["POST"]),
        Route("/api/rooms/{room_id}/seats", join, methods=["POST"]),
        Route("/api/rooms/{room_id}/start", start, methods=["POST"]),
        Route("/api/rooms/{room_id}/actions", act, methods=["POST"]),
        WebSocketRoute("/ws/rooms/{room_id}", socket),
    ]
)
