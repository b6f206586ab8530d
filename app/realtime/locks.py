"""One lock per room, kept only while it is held or awaited.

A room's changes take turns on its lock (``app.rooms.live_games``); a lock made for every room
ever changed and never dropped was memory growing with the games played. Here a room's lock
exists while someone holds it or waits for it, and is dropped by the last one to leave.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class RoomLocks:
    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # the lock, and who holds or awaits it

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def hold(self, room_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(room_id) or (asyncio.Lock(), 0)
        self._locks[room_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[room_id]
            if users == 1:
                del self._locks[room_id]
            else:
                self._locks[room_id] = (lock, users - 1)
