"""Hints for learners: in a room created with the ``hints`` option, a seat asks, on its turn,
for the strong bot's suggested move and a one-line reason (``app.bots.coach.hint``).

The coach is handed what a seated bot is handed: the seat, its legal actions and a sampler of
the engine's ``randomize_hidden`` for that seat, so a hint depends on nothing the seat cannot
see. Its budget is a fixed number of rollouts (``HINT_ROLLOUTS``, about a fifth of a second),
run on a worker thread, one hint at a time per instance, with at most ``HINTS_WAITING`` more
waiting their turn (one more is 429 ``rate_limited``, to ask again a second later: the queue
had no end, and each hint in it costs its fifth of a second). A hint is kept per room, version and
seat: asking again before the game moves on costs nothing and answers the same; a hint worked
out afresh counts against the seat's rate limit (``app.rooms.throttle``). Refused: in a room
without the option (409 ``hints_off``), before the start, after the end and when the game does
not await the seat (409 ``conflict``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from cachetools import LRUCache

from app.bots import coach
from app.games.base import Action, Game, Message, State, say, spoken
from app.games.registry import GAMES
from app.rooms.errors import Conflict, HintsOff, TooMany
from app.rooms.live_games import LiveGames
from app.rooms.model import RoomInfo, named_args
from app.rooms.throttle import Throttle
from app.rooms.views import labelled, names_of

HINTS_HELD = 512  # hints kept, by room, version and seat
HINTS_WAITING = 8  # hints waiting for the one being worked out: about two seconds of work


class Hints:
    def __init__(self, rooms: LiveGames, throttle: Throttle, rollouts: int):
        self.rooms = rooms
        self.throttle = throttle
        self.rollouts = rollouts
        self._held: LRUCache[str, dict[str, Any]] = LRUCache(HINTS_HELD)  # the most recently used kept
        self._one_at_a_time = asyncio.Lock()
        self._waiting = 0

    async def hint(self, room_id: str, seat: int) -> dict[str, Any]:
        """What GET /api/rooms/{id}/hint answers the seat (see the module docstring)."""
        info, live = await self.rooms.game_state(room_id)
        if not info.hints:
            raise HintsOff("this room was created without hints")
        if info.status == "open":
            raise Conflict("hints are given once the game has started")
        if live is None or info.status != "playing":
            raise Conflict("the game is over: no more hints")
        key = f"{room_id}:{live.version}:{seat}"
        held = self._held.get(key)
        if held is not None:
            return held
        game, state = GAMES[info.game], live.state
        if seat not in game.to_act(state):
            raise Conflict("a hint is given on your turn only")
        if self._waiting >= HINTS_WAITING:
            raise TooMany(say("the server is working out other hints: ask again in a moment"), retry_after=1)
        self._waiting += 1
        try:
            await self._one_at_a_time.acquire()
        finally:
            self._waiting -= 1
        try:
            held = self._held.get(key)  # (another request may have worked it out meanwhile)
            if held is None:
                await self.throttle.hinting(room_id, seat)
                held = await asyncio.to_thread(self._work_out, info, game, state, seat, live.version)
                self._held[key] = held
        finally:
            self._one_at_a_time.release()
        return held

    def _work_out(self, info: RoomInfo, game: Game, state: State, seat: int, version: int) -> dict[str, Any]:
        names = names_of(info)

        def label(action: Action) -> Message:
            return game.label(action, state)

        rng = random.Random(f"hint:{info.id}:{version}:{seat}")
        sampler = lambda r: game.randomize_hidden(state, seat, r)  # noqa: E731 (as a seated bot's)
        found = coach.hint(game, seat, game.legal_actions(state, seat), sampler, rng, self.rollouts, label)
        reason = say(found.reason["msg"], **named_args(found.reason["args"], names))
        return {
            "version": version,
            "seat": seat,
            "level": coach.HINT_LEVEL,
            "suggestion": labelled(found.action, label(found.action), names),
            "reason": {"text": spoken(reason), **reason},
        }
