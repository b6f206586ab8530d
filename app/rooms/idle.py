"""Idle rooms close by themselves: a game with no move, or a waiting room with no change, for
``ROOM_IDLE_HOURS`` (24 by default; 0 never closes one) is closed, the game as abandoned.

A room's last change is its ``updated_at``, which every move, seat taken, bot seated and start
moves on. Every instance looks every few minutes (``forever``) and closes each room it finds
idle with ``app.rooms.lobby.close_as`` under the room's lock; the write checks that the room
is still as it was read (status and version), so a move landing meanwhile, through any
instance, keeps its room open, and two instances never close one room twice. The change is
published as any other, so every open page and program is told (the room's ``closed_reason``
is ``idle``); an abandoned game leaves the lobby and stays replayable.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from app.db.faults import log_failure
from app.db.models import utcnow
from app.rooms import storage
from app.rooms.errors import Conflict
from app.rooms.live_games import LiveGames
from app.rooms.lobby import close_as
from app.rooms.model import IN_PLAY

log = logging.getLogger("troika_arena.idle")
BATCH = 100  # rooms closed per look, the oldest first (the next look takes the rest)
LONGEST_PAUSE = 300.0  # seconds between looks, at most (and a twentieth of the idle time, at least 1 s)


class IdleRooms:
    def __init__(self, rooms: LiveGames, idle_hours: float):
        self.rooms = rooms
        self.idle = timedelta(hours=idle_hours) if idle_hours > 0 else None

    @property
    def pause(self) -> float:
        """Seconds between two looks."""
        if self.idle is None:
            return LONGEST_PAUSE
        return max(1.0, min(LONGEST_PAUSE, self.idle.total_seconds() / 20))

    async def close_idle(self) -> list[str]:
        """Close the rooms idle now (a batch of them); returns their ids."""
        if self.idle is None:
            return []
        before = utcnow() - self.idle
        async with self.rooms.db.read() as session:
            found = await storage.idle_rooms(session, before, BATCH)
        closed = []
        for room_id in found:
            try:
                async with self.rooms.changing(room_id) as (session, info):
                    if info.status not in IN_PLAY or info.updated_at is None or info.updated_at >= before:
                        continue  # changed since it was found
                    status = await close_as(session, info, "idle")
            except Conflict:
                continue  # a move landed just now
            self.rooms.closed(room_id)
            log.info("room %s: closed as %s after %s with no change", room_id, status, self.idle)
            closed.append(room_id)
        return closed

    async def forever(self) -> None:
        """Look for idle rooms every ``pause`` seconds while this instance runs (a failed look,
        say while the database restarts, is logged and the next one tried)."""
        if self.idle is None:
            return
        while True:
            try:
                await self.close_idle()
            except Exception as exc:
                log_failure(log, "closing idle rooms failed", exc)
            await asyncio.sleep(self.pause)
