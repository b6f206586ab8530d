"""Limits that hold before the application reads anything, on a real ``troika-arena serve``:
a websocket frame larger than MAX_WS_MESSAGE_BYTES is refused from its header (the protocol's
``ws_max_size``), not buffered whole; a connection that sends its request head slowly is
closed after HEAD_TIMEOUT_SECONDS, and one whose body does not come whole after
BODY_TIMEOUT_SECONDS."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.bench.servers import process
from tests.support.rooms import make_room
from tests.support.sockets import until_version, ws_url

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

FRAME_BYTES = 15 * 1024 * 1024


async def test_a_frame_over_the_limit_closes_the_socket_without_being_buffered(sqlite_url):
    with process("app.main:app", {"DATABASE_URL": sqlite_url}) as server:
        async with httpx.AsyncClient(base_url=server.base) as client:
            room_id, _ = await make_room(client, seats=2)
        url = ws_url(server.base, room_id, None)
        async with connect(url, additional_headers={"Origin": server.base}, max_size=None) as ws:
            await until_version(ws, 0)  # the socket is open and the server has done its work
            before = server.rss_bytes()
            with contextlib.suppress(ConnectionClosed):  # the server may close while the frame goes out
                await asyncio.wait_for(ws.send(b"x" * FRAME_BYTES), 30)
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 30)
            except ConnectionClosed:
                pass
            assert ws.close_code == 1009, (ws.close_code, ws.close_reason)
            grown = server.rss_bytes() - before
        assert grown < FRAME_BYTES // 3, f"the server grew {grown / 2**20:.1f} MB for a refused frame"
        async with httpx.AsyncClient(base_url=server.base) as client:
            assert (await client.get("/healthz")).status_code == 200


def read_response(conn: socket.socket) -> bytes:
    """One whole HTTP response with a Content-Length, head and body."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    fields = head.split(b"\r\n")
    length = next(int(line.split(b":")[1]) for line in fields if line.lower().startswith(b"content-length"))
    while len(body) < length:
        body += conn.recv(4096)
    return data


def test_a_request_head_sent_one_line_at_a_time_is_cut_off(sqlite_url):
    """On a kept-alive connection, after a normal request, the next request's head comes one
    header line every half second; with a 2 s deadline the server closes the connection (with
    a 408) long before 20 lines are sent."""
    env = {"DATABASE_URL": sqlite_url, "HEAD_TIMEOUT_SECONDS": "2"}
    with (
        process("app.main:app", env) as server,
        socket.create_connection(("127.0.0.1", int(server.base.rsplit(":", 1)[1])), timeout=10) as conn,
    ):
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_response(conn).startswith(b"HTTP/1.1 200")
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sent = 0
        try:
            for sent in range(1, 21):
                conn.sendall(f"X-Slow-{sent}: drip\r\n".encode())
                conn.settimeout(0.5)
                try:
                    answer = conn.recv(4096)
                    break  # the server answered or closed
                except TimeoutError:
                    continue
            else:
                answer = None
        except (BrokenPipeError, ConnectionResetError):
            answer = b""
        assert answer is not None, "the server still waited for the head after 20 lines (10 s)"
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer
        assert sent <= 8, f"cut off only after {sent} lines"
        # Normal requests on other connections are not affected.
        assert httpx.get(f"{server.base}/healthz").status_code == 200


def test_a_connection_that_sends_nothing_is_closed(sqlite_url):
    env = {"DATABASE_URL": sqlite_url, "HEAD_TIMEOUT_SECONDS": "1"}
    with (
        process("app.main:app", env) as server,
        socket.create_connection(("127.0.0.1", int(server.base.rsplit(":", 1)[1])), timeout=10) as conn,
    ):
        answer = conn.recv(4096)  # blocks until the server answers or closes
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer


def test_a_request_body_that_never_comes_whole_is_cut_off(sqlite_url):
    """A client announces 100 bytes of body and sends 7: with a 1 s deadline the server answers
    408 and closes (it held the connection for ever), logging no error; a body sent in two parts
    within the deadline is read as usual."""
    env = {"DATABASE_URL": sqlite_url, "BODY_TIMEOUT_SECONDS": "1"}
    with process("app.main:app", env) as server:
        port = int(server.base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            head = b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            conn.sendall(head + b"Content-Length: 100\r\n\r\n" + b'{"a":1}')
            answer = conn.recv(4096)  # blocks until the server answers or closes (the socket's 10 s at most)
            assert answer.startswith(b"HTTP/1.1 408") and b"the request body came too slowly" in answer, answer
            assert conn.recv(4096) == b"", "and the connection is closed"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            body = json.dumps({"game": "troika", "seats": 2, "name": "Ana"}).encode()
            conn.sendall(head + b"Content-Length: %d\r\n\r\n" % len(body) + body[:10])
            time.sleep(0.4)
            conn.sendall(body[10:])
            assert read_response(conn).startswith(b"HTTP/1.1 201")
        assert httpx.get(f"{server.base}/healthz").status_code == 200
        printed = server.output()
    assert "Traceback" not in printed and "ERROR" not in printed, printed
