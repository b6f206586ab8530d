"""Per-room values read from the database and kept until the event bus reports a change.

Every write to a room is published on the bus (directly on this instance, through the relay
from the others), so a cached value is dropped by the first delivery for its room that can
concern it (room facts ignore chat and presence events, chat and presence ignore moves), and all
values are dropped when the relay reconnects after an outage (events may have been missed).
Concurrent readers of a missing value share one load; a load that an invalidation overtakes
is handed to the readers that were already waiting but not kept. (Presence rows that go
stale without an event get one from the heartbeat: ``app.rooms.social``.)

One process per SQLite file: two processes writing one SQLite file have no bus between them
and would serve each other's rooms stale (several instances need Postgres and its relay).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from app.realtime.bus import SOCIAL, EventBus

T = TypeVar("T")


class RoomCache(Generic[T]):
    def __init__(self, bus: EventBus, social: bool, limit: int = 10_000):
        """``social``: the value is chat or presence (dropped by SOCIAL events only), else it
        is the room or its game (dropped by every other event). At most ``limit`` rooms are
        held; past that the least recently stored is dropped (it is read again when needed)."""
        self.social, self.limit = social, limit
        self._values: dict[str, T] = {}
        self._loading: dict[str, asyncio.Future[T]] = {}
        bus.add_listener(self._on_event)
        bus.add_reset_listener(self.clear)

    def _on_event(self, room_id: str, version: int) -> None:
        if (version == SOCIAL) == self.social:
            self.invalidate(room_id)

    def invalidate(self, room_id: str) -> None:
        self._values.pop(room_id, None)
        self._loading.pop(room_id, None)

    def clear(self) -> None:
        self._values.clear()
        self._loading.clear()

    def peek(self, room_id: str) -> T | None:
        """The value held for the room, if any (without loading it)."""
        return self._values.get(room_id)

    def put(self, room_id: str, value: T) -> None:
        """Store a value this instance knows to be current (it has just written it)."""
        self._loading.pop(room_id, None)
        self._store(room_id, value)

    def _store(self, room_id: str, value: T) -> None:
        self._values.pop(room_id, None)
        self._values[room_id] = value
        hold_at_most(self._values, self.limit)

    async def get(self, room_id: str, load: Callable[[], Awaitable[T]]) -> T:
        if room_id in self._values:
            return self._values[room_id]
        pending = self._loading.get(room_id)
        if pending is not None:
            try:
                return await asyncio.shield(pending)
            except asyncio.CancelledError:
                if not pending.cancelled():
                    raise  # this reader was cancelled
                return await self.get(room_id, load)  # the reader that was loading was
        pending = asyncio.get_running_loop().create_future()
        self._loading[room_id] = pending
        try:
            value = await load()
        except BaseException as exc:
            if self._loading.get(room_id) is pending:
                del self._loading[room_id]
            if isinstance(exc, Exception):
                pending.set_exception(exc)
                pending.exception()  # retrieved here: no "never retrieved" warning without waiters
            else:
                pending.cancel()
            raise
        if self._loading.get(room_id) is pending:  # no invalidation overtook this load
            del self._loading[room_id]
            self._store(room_id, value)
        pending.set_result(value)
        return value


def hold_at_most(held: dict, limit: int) -> None:
    """Drop the oldest entries of an insertion-ordered dict until it holds ``limit``."""
    while len(held) > limit:
        del held[next(iter(held))]
