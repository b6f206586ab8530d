"""A lean HTTP/1.1 client for the load generator's moves: one keep-alive connection per room.

A general client (httpx) cost the load generator about a millisecond of CPU per request and
more as requests queued in its shared pool, so at several hundred moves per second the
generator, not the server under test, ran out of CPU. Moves only need ``POST`` with a JSON
body and the status and JSON of the reply, on a connection that the room reuses (a room never
has two moves in flight). Room setup still goes through httpx.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

import orjson


class PosterError(Exception):
    """The connection failed or the reply could not be read."""


class Poster:
    def __init__(self, base: str):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, Any], token: str) -> tuple[int, Any]:
        """POST ``body`` as JSON with a bearer token; returns (status, decoded JSON reply)."""
        payload = orjson.dumps(body)
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        ).encode()
        for attempt in (1, 2):  # a kept-alive connection the server closed is opened again once
            try:
                if self._writer is None:
                    self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
                self._writer.write(head + payload)
                return await self._reply()
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                await self.close()
                if attempt == 2:
                    raise PosterError(type(exc).__name__) from exc
        raise AssertionError("unreachable")

    async def _reply(self) -> tuple[int, Any]:
        assert self._reader is not None
        status = int((await self._reader.readuntil(b"\r\n")).split(b" ", 2)[1])
        length, closing = 0, False
        while (line := await self._reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and value.strip().lower() == "close":
                closing = True
        body = await self._reader.readexactly(length)
        if closing:
            await self.close()
        return status, orjson.loads(body) if body else None  # a bad body raises ValueError

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
