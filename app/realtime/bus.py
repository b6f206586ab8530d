"""Event bus: ``publish(room_id, version)`` wakes every subscriber of that room.

Events carry only the room id and its version, or a negative code for a change that leaves the
room and its game as they were: ``PRESENCE`` (-2), ``CHAT`` (-3), or ``SOCIAL`` (-1: anything
may have changed, after a resync). Never game data: each subscriber builds its own seat's view
afresh, so nothing one seat may not see can travel on the bus. A subscriber that falls behind
keeps only what it has to catch up on (:class:`Change`: the newest version, and whether
presence or chat changed; a room's current view supersedes older ones). With
several server instances, a relay (Postgres LISTEN/NOTIFY) forwards local events to the other
instances, which ``deliver`` them to their own subscribers without relaying them back.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple, Protocol

SOCIAL, PRESENCE, CHAT = -1, -2, -3
FLAGS = {SOCIAL: 0b111, PRESENCE: 0b001, CHAT: 0b010}  # EVERYTHING = 0b100


class Change(NamedTuple):
    """What changed in a room since a subscriber last looked."""

    version: int | None  # the newest version published (the room or its game changed), if any
    presence: bool = False
    chat: bool = False
    everything: bool = False  # events may have been missed (a resync): show it all afresh


class Subscription:
    """One subscriber's pending change (:class:`Change`) since it last looked, or closed.

    ``next()`` hands out a bare future, which the notifier resolves: a waiting socket then holds
    that future and nothing else. (Waiting in coroutines, or on a new task per event, kept
    several objects alive per socket for the seconds between events: thousands of them, which
    every collection of the garbage collector's youngest generation had to walk.)"""

    def __init__(self) -> None:
        self._latest: int | None = None
        self._flags = 0
        self._closed = False
        self._waiter: asyncio.Future[Change | None] | None = None

    def notify(self, version: int) -> None:
        if version >= 0:
            self._latest = version if self._latest is None else max(self._latest, version)
        else:
            self._flags |= FLAGS.get(version, FLAGS[SOCIAL])
        self._wake()

    def close(self) -> None:
        """End the subscription: ``next`` yields None from now on (e.g. the viewer left)."""
        self._closed = True
        self._wake()

    def next(self) -> asyncio.Future[Change | None]:
        """Await it for what changed since the last call, or None once closed."""
        waiter = asyncio.get_running_loop().create_future()
        if self._closed or self._latest is not None or self._flags:
            waiter.set_result(self._take())
        else:
            self._waiter = waiter
        return waiter

    def _wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():  # done: the waiter gave up (cancelled)
            waiter.set_result(self._take())

    def _take(self) -> Change | None:
        if self._closed:
            return None
        change = Change(self._latest, bool(self._flags & 0b001), bool(self._flags & 0b010), bool(self._flags & 0b100))
        self._latest, self._flags = None, 0
        return change


class Relay(Protocol):
    def send(self, room_id: str, version: int) -> None: ...


class EventBus:
    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscription]] = defaultdict(set)
        self._listeners: list[Callable[[str, int], None]] = []
        self._reset_listeners: list[Callable[[], None]] = []
        self._release_listeners: list[Callable[[str], None]] = []
        self._delivered: dict[str, int] = {}  # per watched room: how many changes were delivered
        self._streams: set[Subscription] = set()  # the followed streams' (``end_streams``)
        self.relay: Relay | None = None

    def add_listener(self, listener: Callable[[str, int], None]) -> None:
        """Call ``listener(room_id, version)`` on every publish, for every room (bots use it)."""
        self._listeners.append(listener)

    def add_reset_listener(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` when changes may have been missed (caches drop everything)."""
        self._reset_listeners.append(listener)

    def add_release_listener(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(room_id)`` when the last subscriber of a room leaves (what is held
        for the room only while it is watched can go)."""
        self._release_listeners.append(listener)

    def watched(self, room_id: str) -> bool:
        """Whether some subscriber (a socket) of this instance watches the room."""
        return room_id in self._subscribers

    def delivered(self, room_id: str) -> int:
        """How many changes of a watched room were delivered here since it was first watched: a
        read begun when this was N reflects every change delivered up to the Nth."""
        return self._delivered.get(room_id, 0)

    @contextmanager
    def subscribe(self, room_id: str, stream: bool = False) -> Iterator[Subscription]:
        """A subscription to the room's changes while the block runs (``stream``: a followed
        stream's, which :meth:`end_streams` closes)."""
        sub = Subscription()
        self._subscribers[room_id].add(sub)
        if stream:
            self._streams.add(sub)
        try:
            yield sub
        finally:
            self._streams.discard(sub)
            self._subscribers[room_id].discard(sub)
            if not self._subscribers[room_id]:
                del self._subscribers[room_id]
                self._delivered.pop(room_id, None)
                for listener in self._release_listeners:
                    listener(room_id)

    def end_streams(self) -> None:
        """Close every followed stream's subscription, so that each stream ends (the server is
        shutting down: uvicorn waits for every response to finish, and a stream whose client
        never lets go never does; websockets it closes itself, with 1012)."""
        for sub in list(self._streams):
            sub.close()

    async def publish(self, room_id: str, version: int) -> None:
        """A change made on this instance: wake local subscribers and tell the other instances."""
        self.deliver(room_id, version)
        if self.relay is not None:
            self.relay.send(room_id, version)

    def deliver(self, room_id: str, version: int) -> None:
        """Wake this instance's subscribers and listeners (for local and relayed changes)."""
        if room_id in self._subscribers:
            self._delivered[room_id] = self._delivered.get(room_id, 0) + 1
        for sub in list(self._subscribers.get(room_id, ())):
            sub.notify(version)
        for listener in self._listeners:
            listener(room_id, version)

    def resync(self) -> None:
        """After the relay missed events (its connection dropped): drop every cached value and
        wake every subscriber of this instance, so each re-renders the current view."""
        for listener in self._reset_listeners:
            listener()
        for room_id in list(self._subscribers):
            self.deliver(room_id, -1)
