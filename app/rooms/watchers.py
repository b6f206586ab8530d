"""A per-room background task that the event bus pokes on every change: the shared frame of
the bot runner and the turn timers (one task per room at a time, resumed for every room in play
when the server starts, cancelled at shutdown, failures logged). A task that a database outage
ended is started again once the outage's Retry-After has passed, as a poke would: nothing else
may come to poke the room (a bot awaited in a game of bots, a turn timer's deadline)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine

from app.db.faults import log_failure, outage
from app.rooms.live_games import LiveGames

log = logging.getLogger("troika_arena")


class RoomWatcher:
    restart_on_poke = False  # True: a poke cancels the running task and starts a fresh one

    def __init__(self, rooms: LiveGames):
        self.rooms = rooms
        self._tasks: dict[str, asyncio.Task] = {}
        self._retries: dict[str, asyncio.TimerHandle] = {}  # rooms whose task an outage ended
        self._stopped = False

    def watch(self, room_id: str) -> Coroutine:
        raise NotImplementedError

    def poke(self, room_id: str, _version: int = 0) -> None:
        if self._stopped:
            return  # shutting down: no new work may start after stop()
        task = self._tasks.get(room_id)
        if task is not None and not task.done():
            if not self.restart_on_poke or task is asyncio.current_task():
                return
            task.cancel()
        task = asyncio.get_running_loop().create_task(self.watch(room_id))
        task.add_done_callback(lambda done: self._finished(room_id, done))
        self._tasks[room_id] = task

    async def resume_all(self) -> None:
        for room_id in await self.rooms.rooms_in_play():
            self.poke(room_id)

    async def stop(self) -> None:
        self._stopped = True
        for retry in self._retries.values():
            retry.cancel()
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    def _finished(self, room_id: str, task: asyncio.Task) -> None:
        """Forget the room's task (a finished one held on would keep its coroutine and frame
        alive, one per room ever watched) and log its failure, if any."""
        if self._tasks.get(room_id) is task:
            del self._tasks[room_id]
        failure = None if task.cancelled() else task.exception()
        if failure is None:
            return
        log_failure(log, f"{type(self).__name__} failed in room {room_id}", failure)
        trouble = outage(failure)
        if trouble is not None and not self._stopped:
            earlier = self._retries.pop(room_id, None)
            if earlier is not None:
                earlier.cancel()
            self._retries[room_id] = asyncio.get_running_loop().call_later(trouble.retry_after, self._retry, room_id)

    def _retry(self, room_id: str) -> None:
        self._retries.pop(room_id, None)
        self.poke(room_id)
