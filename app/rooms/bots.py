"""The bot runner: whenever a room changes, seats played by a bot that the game awaits get a
move, after a short delay so people can follow.

A bot sees only its seat's view and legal actions, plus a sampler of full states consistent
with that view (the engine's ``randomize_hidden``), never the true state. Its choice is computed
on a worker thread and submitted through :meth:`Play.act` like anyone's: validated,
versioned and logged. A conflict (someone else moved first) just means trying again on the new
version. Each room has at most one bot task at a time on this instance.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

from app.bots import choose
from app.games.base import Action, Game, State
from app.games.registry import GAMES
from app.realtime.metrics import REQUEST_STARTED
from app.rooms.errors import Conflict, RoomError
from app.rooms.live_games import LiveGames
from app.rooms.model import Move
from app.rooms.play import Play
from app.rooms.watchers import RoomWatcher

log = logging.getLogger("troika_arena.bots")


class BotRunner(RoomWatcher):
    def __init__(self, rooms: LiveGames, play: Play, delay: float, budget: float):
        super().__init__(rooms)
        self.play = play
        self.delay = delay
        self.budget = budget
        self._rng = random.Random()

    async def watch(self, room_id: str) -> None:
        while True:
            if not (await self.rooms.room(room_id)).bots:
                return  # no bot seated: the game need not even be rebuilt
            info, live = await self.rooms.game_state(room_id)
            if live is None or info.status != "playing":
                return
            game = GAMES[info.game]
            waiting = sorted(s for s in game.to_act(live.state) if s in info.bots)
            if not waiting:
                return
            version = live.version  # (``live`` is the held game: advanced in place by a move)
            await asyncio.sleep(self.delay)
            info, fresh = await self.rooms.game_state(room_id)
            if fresh is None or fresh.version != version or waiting[0] not in info.bots:
                continue  # something changed while we waited: look again
            seat, state = waiting[0], fresh.state
            thinking = time.perf_counter()
            action = await asyncio.to_thread(self._decide, game, info.bots[seat], seat, state)
            self.rooms.metrics.thought(info.game, time.perf_counter() - thinking)
            REQUEST_STARTED.set(time.perf_counter())  # the bot's move is timed from here (GET /metrics)
            try:
                await self.play.act(room_id, seat, Move.read(action, version), as_bot=True)
            except Conflict:
                continue
            except RoomError as exc:
                log.error("bot in room %s seat %s was refused: %s", room_id, seat, exc.message)
                return

    def _decide(self, game: Game, level: str, seat: int, state: State) -> Action:
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
