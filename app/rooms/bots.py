"""The bot runner: whenever a room changes, seats played by a bot that the game awaits get a
move, after a short delay so people can follow.

A bot sees only its seat's view and legal actions, plus a sampler of full states consistent
with that view (the engine's ``randomize_hidden``), never the true state. Its choice is computed
on a worker thread and submitted through :meth:`RoomService.act` like anyone's: validated,
versioned and logged. A conflict (someone else moved first) just means trying again on the new
version. Each room has at most one bot task at a time on this instance.
"""

from __future__ import annotations

import asyncio
import logging
import random

from app.bots import choose
from app.games.registry import GAMES
from app.rooms.errors import Conflict, RoomError
from app.rooms.service import RoomService

log = logging.getLogger("troika_arena.bots")


def report_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a bot task failed", exc_info=task.exception())


class BotRunner:
    def __init__(self, service: RoomService, delay: float, budget: float):
        self.service = service
        self.delay = delay
        self.budget = budget
        self._tasks: dict[str, asyncio.Task] = {}
        self._rng = random.Random()

    def poke(self, room_id: str, _version: int = 0) -> None:
        """Make sure a bot task runs for this room (a no-op while one is running)."""
        task = self._tasks.get(room_id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._play(room_id))
            task.add_done_callback(report_failure)
            self._tasks[room_id] = task

    async def resume_all(self) -> None:
        for room_id in await self.service.rooms_in_play():
            self.poke(room_id)

    async def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _play(self, room_id: str) -> None:
        while True:
            info, live = await self.service.game_state(room_id)
            if live is None or info.status != "playing":
                return
            game = GAMES[info.game]
            waiting = sorted(s for s in game.to_act(live.state) if s in info.bots)
            if not waiting:
                return
            await asyncio.sleep(self.delay)
            info, fresh = await self.service.game_state(room_id)
            if fresh is None or fresh.version != live.version or waiting[0] not in info.bots:
                continue  # something changed while we waited: look again
            seat, state, version = waiting[0], fresh.state, fresh.version
            action = await asyncio.to_thread(self._decide, game, info.bots[seat], seat, state)
            try:
                await self.service.act(room_id, seat, action, version, as_bot=True)
            except Conflict:
                continue
            except RoomError as exc:
                log.error("bot in room %s seat %s was refused: %s", room_id, seat, exc.message)
                return

    def _decide(self, game, level: str, seat: int, state):
        return choose(
            level,
            game,
            seat,
            game.view(state, seat),
            game.legal_actions(state, seat),
            lambda r: game.randomize_hidden(state, seat, r),
            random.Random(self._rng.random()),
            self.budget,
        )
