"""A lean HTTP/1.1 client for the load generator's moves: one keep-alive connection per room.

Moves are posted as JSON to the API (JSON clients) or as the browser's htmx form posts them
(HTML clients). A general client (httpx) cost the load generator about a millisecond of CPU per request and
more as requests queued in its shared pool, so at several hundred moves per second the
generator, not the server under test, ran out of CPU. Moves only need ``POST`` with a JSON
body and the status and JSON of the reply, on a connection that the room reuses (a room never
has two moves in flight). Room setup still goes through httpx.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlencode, urlsplit

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
        status, reply = await self._send(
            path, orjson.dumps(body), "application/json", f"Authorization: Bearer {token}\r\n"
        )
        try:
            return status, orjson.loads(reply) if reply else None
        except ValueError as exc:
            raise PosterError("ValueError") from exc

    async def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        """POST ``fields`` as a browser's htmx form does; returns (status, the HTML reply)."""
        status, reply = await self._send(
            path,
            urlencode(fields).encode(),
            "application/x-www-form-urlencoded",
            f"HX-Request: true\r\nOrigin: http://{self.host}:{self.port}\r\n",
        )
        return status, reply.decode()

    async def _send(self, path: str, payload: bytes, content_type: str, headers: str) -> tuple[int, bytes]:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{headers}"
            f"Content-Type: {content_type}\r\nContent-Length: {len(payload)}\r\n\r\n"
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

    async def _reply(self) -> tuple[int, bytes]:
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
        return status, body

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
