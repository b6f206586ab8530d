"""Per-room values read from the database and kept until the event bus reports a change.

Every write to a room is published on the bus (directly on this instance, through the relay
from the others), so a cached value is dropped by the first delivery for its room that can
concern it (room facts ignore chat and presence events, chat and presence ignore moves), and all
values are dropped when the relay reconnects after an outage (events may have been missed). A
versioned value (room facts) ignores events below its own version, which it already reflects,
and the event of the value its own instance has just ``put`` (the writer stores what it wrote,
then publishes it); another event at its version is a change that keeps the version (a seat
taken, a bot handed a seat) and drops it.
Concurrent readers of a missing value share one load; a load that an invalidation overtakes
is handed to the readers that were already waiting but not kept. (Presence rows that go
stale without an event get one from the heartbeat: ``app.rooms.social``.)

Memory follows what is in play, not what was ever played (:class:`Held`): the value of a room
in play (for room facts: open or playing; for chat and presence: watched by a socket on this
instance) is kept as long as it is, and any other only among the ``SPARE`` stored last. A room
whose last socket closes is reviewed at once (the bus's release listeners).

One process per SQLite file: two processes writing one SQLite file have no bus between them
and would serve each other's rooms stale (several instances need Postgres and its relay).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from app.realtime.bus import EventBus

T = TypeVar("T")
LIMIT = 10_000  # values held at most, in play or not (past it the least recently stored goes)
SPARE = 256  # values of rooms not in play kept, the most recently stored


class Held(Generic[T]):
    """Values by room: those of rooms in play kept as long as they are (up to ``limit`` in all),
    the others only among the ``spare`` stored most recently. Whether a room is in play is
    told when its value is stored, and again by ``let_go`` when it stops being so."""

    def __init__(self, spare: int = SPARE, limit: int = LIMIT):
        self.spare, self.limit = spare, limit
        self._values: dict[str, T] = {}  # least recently stored first
        self._spares: dict[str, None] = {}  # the rooms among them not in play, in the same order

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, room_id: str) -> bool:
        return room_id in self._values

    def get(self, room_id: str) -> T | None:
        return self._values.get(room_id)

    def put(self, room_id: str, value: T, in_play: bool) -> None:
        self.pop(room_id)
        self._values[room_id] = value
        if not in_play:
            self.let_go(room_id)
        while len(self._values) > self.limit:
            self.pop(next(iter(self._values)))

    def let_go(self, room_id: str) -> None:
        """The room is no longer in play: its value is kept only while among the spare ones."""
        if room_id in self._values:
            self._spares[room_id] = None
        while len(self._spares) > self.spare:
            self.pop(next(iter(self._spares)))

    def pop(self, room_id: str) -> T | None:
        self._spares.pop(room_id, None)
        return self._values.pop(room_id, None)

    def clear(self) -> None:
        self._values.clear()
        self._spares.clear()


class RoomCache(Generic[T]):
    def __init__(
        self,
        bus: EventBus,
        social: bool,
        limit: int = LIMIT,
        in_play: Callable[[T], bool] = lambda _value: False,
        spare: int = SPARE,
        version: Callable[[T], int] | None = None,
    ):
        """``social``: the value is chat or presence (dropped by social events only, those
        with a negative code: ``app.realtime.bus``), else it
        is the room or its game (dropped by every other event). A room's value is kept while
        ``in_play(value)`` or a socket of this instance watches the room; the others only
        among the ``spare`` stored last (a dropped value is read again when needed).
        ``version(value)``: the room version a value reflects (module doc)."""
        self.social, self.bus, self.in_play, self.version = social, bus, in_play, version
        self._values: Held[T] = Held(spare, limit)
        self._loading: dict[str, asyncio.Future[T]] = {}
        self._written: dict[str, int] = {}  # room: version of the value just put, until its event
        bus.add_listener(self._on_event)
        bus.add_reset_listener(self.clear)
        bus.add_release_listener(self._released)

    def _released(self, room_id: str) -> None:
        value = self._values.get(room_id)
        if value is not None and not self.in_play(value):
            self._values.let_go(room_id)

    def _on_event(self, room_id: str, version: int) -> None:
        if (version < 0) != self.social:
            return
        written = self._written.pop(room_id, None)
        held, version_of = self._values.get(room_id), self.version
        current = version_of(held) if held is not None and version_of is not None and version >= 0 else None
        if current is not None and (version < current or version == written):
            return  # the held value already reflects this change
        self.invalidate(room_id)

    def invalidate(self, room_id: str) -> None:
        self._values.pop(room_id)
        self._loading.pop(room_id, None)
        self._written.pop(room_id, None)

    def clear(self) -> None:
        self._values.clear()
        self._loading.clear()
        self._written.clear()

    def peek(self, room_id: str) -> T | None:
        """The value held for the room, if any (without loading it)."""
        return self._values.get(room_id)

    def put(self, room_id: str, value: T) -> None:
        """Store a value this instance knows to be current (it has just written it, and
        publishes the change next: that event leaves the value in place)."""
        self._loading.pop(room_id, None)
        self._store(room_id, value)
        if self.version is not None:
            self._written[room_id] = self.version(value)

    def _store(self, room_id: str, value: T) -> None:
        self._values.put(room_id, value, self.in_play(value) or self.bus.watched(room_id))

    async def get(self, room_id: str, load: Callable[[], Awaitable[T]]) -> T:
        held = self._values.get(room_id)
        if held is not None:
            return held
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
