"""Postgres LISTEN/NOTIFY relay: moves made through one server instance reach the sockets held
by every other instance sharing the database.

Payloads are ids only (``instance:room:version``, far below NOTIFY's 8000-byte limit). Sending
uses its own autocommit connection, and sends every event waiting in one statement (under load,
the events of many moves share a round trip); listening uses a dedicated one in a loop that reconnects
with backoff after any failure and then resyncs: every room this instance watches is delivered
once, so its sockets re-render the current view and nothing missed while disconnected is lost.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

import psycopg

from app.realtime.bus import EventBus

CHANNEL = "troika_arena_rooms"
BATCH = 500  # events sent in one statement at most
log = logging.getLogger("troika_arena.relay")


class PostgresRelay:
    def __init__(self, conninfo: str, bus: EventBus):
        self.conninfo = conninfo
        self.bus = bus
        self.instance = secrets.token_hex(4)
        self.connected = asyncio.Event()
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []
        self.listen_pid: int | None = None

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._send_loop())]
        await asyncio.wait_for(self.connected.wait(), timeout=10)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def send(self, room_id: str, version: int) -> None:
        self._outbox.put_nowait(f"{self.instance}:{room_id}:{version}")

    async def _send_loop(self) -> None:
        backoff, pending = 0.2, None
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    backoff = 0.2
                    while True:
                        pending = pending or await self.waiting()
                        await conn.execute(
                            "SELECT pg_notify(%s, note) FROM unnest(%s::text[]) AS note", (CHANNEL, pending)
                        )
                        pending = None
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database restarted or the network dropped
                log.warning("relay sender lost its connection (%s); retrying", exc)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    async def waiting(self) -> list[str]:
        """The events to send next, in order: at least one (waited for), and every one queued
        behind it, up to ``BATCH``."""
        batch = [await self._outbox.get()]
        while len(batch) < BATCH and not self._outbox.empty():
            batch.append(self._outbox.get_nowait())
        return batch

    async def _listen(self) -> None:
        backoff = 0.2
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listen_pid = conn.info.backend_pid
                    backoff = 0.2
                    self.bus.resync()
                    self.connected.set()
                    async for note in conn.notifies():
                        self._receive(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.connected.clear()
                log.warning("relay listener lost its connection (%s); reconnecting", exc)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    def _receive(self, payload: str) -> None:
        instance, _, rest = payload.partition(":")
        room_id, _, version = rest.rpartition(":")
        if instance != self.instance and room_id and version.lstrip("-").isdigit():
            self.bus.deliver(room_id, int(version))
