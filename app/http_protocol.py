"""uvicorn's HTTP protocol with deadlines for each request's head and body, its websocket
protocol sending a refused handshake's answer without a spurious error, and its server ending
the followed streams first when it shuts down.

uvicorn bounds the size of a request head but not the time it takes to arrive: its keep-alive
timeout runs only between requests and stops at the first byte, so a client that sends one
header line every few seconds (slowloris) holds a connection, and its slot, for ever. Here a
connection must deliver a complete request line and headers within ``head_timeout`` seconds of
opening, and of the first byte of each later request on it; otherwise it gets a 408 and is
closed. Bodies, responses and websockets (the deadline ends when the head is complete) are not
affected. A request's body must then arrive whole within ``body_timeout`` seconds of its head
(a client announcing 100 bytes and sending 7 held its connection for ever): else a 408 if no
answer has begun, and the connection is closed. ``troika-arena serve`` runs with this protocol
(app/cli.py).

uvicorn waits for every response to finish when it shuts down, so a followed stream whose
client never lets go held Ctrl-C up; :class:`StreamEndingServer` ends them first.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


def timed_out(why: bytes) -> bytes:
    """A 408 answer saying ``why``, written straight to the connection."""
    head = b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    return head + b"content-length: %d\r\nconnection: close\r\n\r\n" % len(why) + why


TIMEOUT_RESPONSE = timed_out(b"the request head came too slowly")
BODY_TIMEOUT_RESPONSE = timed_out(b"the request body came too slowly")


class HeadDeadlineProtocol(HttpToolsProtocol):
    head_timeout: float = 10.0
    body_timeout: float = 30.0
    head_timer: asyncio.TimerHandle | None = None
    body_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm_head_timer()

    def on_message_begin(self) -> None:  # the first byte of a request (a later one on keep-alive)
        super().on_message_begin()
        if self.head_timer is None:
            self.arm_head_timer()

    def on_headers_complete(self) -> None:
        self.cancel("head_timer")
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):  # (a websocket has no body)
            self.body_timer = asyncio.get_running_loop().call_later(self.body_timeout, self.body_too_slow)

    def on_message_complete(self) -> None:  # the body came whole (at once, for a request with none)
        self.cancel("body_timer")
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel("head_timer", "body_timer")
        super().connection_lost(exc)

    def cancel(self, *timers: str) -> None:
        """Cancel the timers named (those running) and forget them."""
        for name in timers:
            timer = getattr(self, name)
            if timer is not None:
                timer.cancel()
                setattr(self, name, None)

    def arm_head_timer(self) -> None:
        self.head_timer = asyncio.get_running_loop().call_later(self.head_timeout, self.head_too_slow)

    def head_too_slow(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            self.transport.write(TIMEOUT_RESPONSE)
            self.transport.close()

    def body_too_slow(self) -> None:
        """The app, waiting for the rest of the body, is told the client left (and answers no one)."""
        self.body_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(BODY_TIMEOUT_RESPONSE)
        self.transport.close()


def with_deadlines(head: float, body: float) -> type[HeadDeadlineProtocol]:
    """The protocol class with deadlines of ``head`` and ``body`` seconds (uvicorn instantiates
    it per connection)."""
    return type("HeadDeadlineProtocol", (HeadDeadlineProtocol,), {"head_timeout": head, "body_timeout": body})


class DenyingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (the one it picks when ``websockets`` is installed), whose
    handshake counts as complete once a denial response (a refused handshake's answer, with its
    status and body) is sent. Without it every refusal also logged "ASGI callable returned
    without completing handshake" at ERROR (uvicorn 0.54; the fix proposed upstream,
    Kludex/uvicorn#3138, does the same)."""

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body", False):
            self.handshake_complete = True


class StreamEndingServer(uvicorn.Server):
    """uvicorn's server, which calls ``end_streams`` (the app's: its event bus ends the followed
    streams) before it waits for the responses in flight."""

    def __init__(self, config: uvicorn.Config, end_streams: Callable[[], None]):
        super().__init__(config)
        self.end_streams = end_streams

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.end_streams()
        await super().shutdown(sockets)
