"""Following a live room as a client does: the socket's URL, the frames a socket is pushed
(the next view at a version, the next event of a kind, the close frame, every frame read as it
comes by a ``Listener``), and the lines of an event stream (``Lines``). The servers these talk
to come from tests/support/servers.py."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets


async def next_event(ws, event: str, timeout: float = 5.0) -> dict:
    """The next pushed JSON event of this kind (``presence`` or ``chat``), skipping views."""

    async def wait():
        while True:
            message = json.loads(await ws.recv())
            if message.get("event") == event:
                return message

    return await asyncio.wait_for(wait(), timeout)


async def until_version(ws, version: int, timeout: float = 5.0) -> dict:
    """The first pushed ``view`` event at ``version`` (skipping the other events)."""

    async def wait():
        while True:
            message = json.loads(await ws.recv())
            if message["event"] == "view" and message["version"] == version:
                return message

    return await asyncio.wait_for(wait(), timeout)


def ws_url(base: str, room_id: str, token: str | None, fmt: str = "json") -> str:
    query = f"?format={fmt}" + (f"&token={token}" if token else "")
    return base.replace("http://", "ws://") + f"/ws/rooms/{room_id}{query}"


async def close_of(ws) -> websockets.frames.Close:
    """Read until the server closes ``ws``; the close frame it sent."""
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    return closed.value.rcvd


class Listener:
    """One socket's frames, read as they come."""

    def __init__(self, ws, fmt: str):
        self.ws, self.format, self.frames = ws, fmt, []
        self.arrived = asyncio.Event()
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for text in self.ws:
            self.frames.append(text)
            self.arrived.set()

    async def until(self, test, timeout: float = 10.0) -> str:
        """The first frame (from now on, or already read) that passes ``test``."""

        async def wait():
            seen = 0
            while True:
                for frame in self.frames[seen:]:
                    if test(frame):
                        return frame
                seen = len(self.frames)
                self.arrived.clear()
                await self.arrived.wait()

        return await asyncio.wait_for(wait(), timeout)

    def shows(self, version: int):
        if self.format == "json":
            return lambda frame: json.loads(frame).get("version") == version
        return lambda frame: f'data-version="{version}"' in frame


async def quiet(listeners: list[Listener], gap: float = 0.5) -> None:
    """Wait until no socket has been sent anything for ``gap`` seconds."""
    while True:
        before = sum(len(lis.frames) for lis in listeners)
        await asyncio.sleep(gap)
        if sum(len(lis.frames) for lis in listeners) == before:
            return


class Lines:
    """The lines of one open stream, read as they come."""

    def __init__(self, response: httpx.Response):
        self.response = response
        self._lines = response.aiter_lines()
        self.keepalives = 0

    async def next(self, timeout: float = 10.0) -> dict:
        """The next event (empty keep-alive lines are counted and skipped)."""

        async def read():
            while True:
                line = await anext(self._lines)
                if line.strip():
                    return json.loads(line)
                self.keepalives += 1

        return await asyncio.wait_for(read(), timeout)

    async def until(self, predicate, timeout: float = 10.0) -> dict:
        async def read():
            while not predicate(event := await self.next(timeout)):
                pass
            return event

        return await asyncio.wait_for(read(), timeout)

    async def ended(self, timeout: float = 10.0, events_before: bool = False) -> bool:
        """Whether the server closes the stream within ``timeout``, with no more events (or any
        number of them, with ``events_before``)."""

        async def read():
            try:
                while True:
                    await self.next(timeout)
                    if not events_before:
                        return False
            except StopAsyncIteration:
                return True

        return await asyncio.wait_for(read(), timeout)
