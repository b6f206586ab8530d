"""In-process event bus: ``publish(room_id)`` wakes every subscriber of that room.

Events carry only the room id and its version, never game data: each subscriber renders its
own seat's view afresh, so nothing one seat may not see can travel on the bus. A subscriber that
falls behind keeps only the newest event (a room's current view supersedes older ones).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from contextlib import contextmanager
from typing import Iterator


class Subscription:
    def __init__(self) -> None:
        self._latest: int | None = None
        self._event = asyncio.Event()

    def notify(self, version: int) -> None:
        self._latest = version if self._latest is None else max(self._latest, version)
        self._event.set()

    async def next(self) -> int:
        await self._event.wait()
        self._event.clear()
        version, self._latest = self._latest, None
        return version if version is not None else -1


class EventBus:
    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscription]] = defaultdict(set)

    @contextmanager
    def subscribe(self, room_id: str) -> Iterator[Subscription]:
        sub = Subscription()
        self._subscribers[room_id].add(sub)
        try:
            yield sub
        finally:
            self._subscribers[room_id].discard(sub)
            if not self._subscribers[room_id]:
                del self._subscribers[room_id]

    async def publish(self, room_id: str, version: int) -> None:
        for sub in list(self._subscribers.get(room_id, ())):
            sub.notify(version)

    def subscriber_count(self, room_id: str) -> int:
        return len(self._subscribers.get(room_id, ()))
