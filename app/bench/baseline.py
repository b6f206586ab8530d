"""The bare fan-out baseline: the arena's room API and websocket, with no rules behind them.

It speaks the subset of the arena's protocol the load generator uses (create, join, start,
act as JSON, as the page's form or as a click over the page's socket, ``/ws/rooms/<id>`` as
JSON with ``format=json`` or else as the page's HTML fragment) on the same stack (uvicorn,
Starlette websockets), but a move only bumps the room's version and pushes one message of
``BENCH_PAYLOAD_BYTES`` bytes (each format's built once per move and seat) to every socket of
the room: no rules, no templates, no database. The ratio of the arena's figures to these is the
cost of the product itself.
"""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from itertools import count

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.runtime import tune_garbage_collector

PAYLOAD_BYTES = int(os.environ.get("BENCH_PAYLOAD_BYTES", "4000"))
SEATS = 4


@dataclass
class BareRoom:
    version: int = 0
    joined: int = 1
    sockets: dict[WebSocket, tuple[int, bool]] = field(default_factory=dict)  # seat, html


rooms: dict[str, BareRoom] = {}
room_ids = count()


def html_message(version: int, seat: int) -> str:
    """The page's ``#room-main`` fragment padded to PAYLOAD_BYTES, with a pass form for the
    seat to act."""
    form = (
        (
            '<form class="act"><input type="hidden" name="action" value="{&#34;type&#34;:&#34;pass&#34;}">'
            "<button>Pass</button></form>"
        )
        if seat == version % SEATS
        else ""
    )
    state = f'<div id="table-state" hidden data-version="{version}" data-status="playing"></div>'
    head = f'<div id="room-main">{state}{form}<p>'
    return head + "x" * max(PAYLOAD_BYTES - len(head) - 10, 0) + "</p></div>"


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


async def push(room: BareRoom) -> None:
    room.version += 1
    built: dict[tuple[int, bool], str] = {}
    for ws, (seat, html) in list(room.sockets.items()):
        if (seat, html) not in built:
            built[seat, html] = (html_message if html else message)(room.version, seat)
        try:
            await ws.send_text(built[seat, html])
        except (WebSocketDisconnect, RuntimeError):
            room.sockets.pop(ws, None)


async def act(request: Request) -> JSONResponse:
    room = rooms[request.path_params["room_id"]]
    await request.json()
    await push(room)
    return JSONResponse({"version": room.version, "duplicate": False})


async def act_form(request: Request) -> HTMLResponse:
    room = rooms[request.path_params["room_id"]]
    await request.form()
    await push(room)
    return HTMLResponse(html_message(room.version, int(request.path_params["token"])))


async def socket(ws: WebSocket) -> None:
    room = rooms[ws.path_params["room_id"]]
    seat = int(ws.query_params.get("token", "0"))
    html = ws.query_params.get("format") != "json"
    await ws.accept()
    room.sockets[ws] = seat, html
    try:
        await ws.send_text((html_message if html else message)(room.version, seat))
        while (received := await ws.receive())["type"] != "websocket.disconnect":
            if received.get("text"):  # a browser's click over its socket
                await push(room)
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
        Route("/rooms/{room_id}/seat/{token}/act", act_form, methods=["POST"]),
        WebSocketRoute("/ws/rooms/{room_id}", socket),
    ],
)
