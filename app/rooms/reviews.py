"""Post-game reviews: after a game ends, a player asks for a review of their seat's moves; the
expert bot goes through each decision of that seat with what the seat knew then, and marks the
moves that cost the most expected score against the move it prefers.

A decision is a move of the seat's player where it had a choice (more than one legal action,
or an action of a type the engine does not list); a move a bot chose for the seat (a stand-in,
or the player's autopilot: ``bot`` in the record) is not theirs to review. For each, the
reviewer rebuilds the game at that step from the record and hands
``app.bots.coach.review_decision`` the state then, from which a sampler of the engine's
``randomize_hidden`` for the seat is built, as for a seated bot: the assessment depends on the
seat's information set then and on a random stream seeded by the room, seat and step, never on
what came later or on what other seats held. Its budget is ``REVIEW_ROLLOUTS`` rollouts per
decision. The marked moves are the costliest (largest gain), at most ``MOST``, at least
``LEAST`` of those that cost anything, and beyond those only gains of
``NOTABLE`` or more.

Reviews run in the background, one at a time per server instance: a queue read by one task,
whose CPU work runs in one worker process at a lowered priority (``os.nice``), so that play,
on the event loop and the bots' threads, never waits for it. Progress (decisions done of the
total) is written as it goes; the review is kept once made (``app.rooms.review_rows``), and
reviews left waiting by a stopped instance are taken up again by the next sweep (when an
instance starts, and every ``SWEEP_SECONDS``): an instance that stops cleanly hands the review it
was making back to the queue; one that was killed leaves it running, taken up once ``STALE``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from app.bots import coach
from app.db.database import Database
from app.db.models import utcnow
from app.games.base import Action, State, same_json
from app.games.registry import GAMES
from app.rooms import review_rows
from app.rooms.errors import Conflict
from app.rooms.live_games import LiveGames
from app.rooms.model import RECORDED, RoomInfo, require_seat
from app.rooms.replays import Replay, Replays
from app.rooms.views import labelled, names_of

log = logging.getLogger("troika_arena.reviews")

MOST, LEAST, NOTABLE = 5, 3, 0.02  # marked moves: at most 5; beyond 3, only gains of 2 points or more
STALE = timedelta(minutes=2)  # a running review with no progress this long is taken up again
SWEEP_SECONDS = 60.0  # how often a worker with nothing queued looks for reviews left waiting


@dataclass(frozen=True)
class Decision:
    """A move of the seat where it had a choice: its step (the version it made) and the state
    before it."""

    step: int
    state: State
    played: Action


def decisions(replay: Replay, seat: int) -> Iterator[Decision]:
    """The seat's decisions in the record, in order: the moves its player chose, not those a
    bot chose for it (a stand-in or their autopilot)."""
    game = GAMES[replay.game]
    state = game.setup(replay.num_players, replay.options, replay.seed)
    for step, (mover, action) in enumerate(replay.actions, start=1):
        if mover == seat and step not in replay.by_bot:
            legal = game.legal_actions(state, seat)
            if len(legal) > 1 or not any(same_json(action, listed) for listed in legal):
                yield Decision(step, state, action)
        state = game.play(state, mover, action, legacy=True)[1]


def marked(assessed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves a review marks (see the module docstring), in the order they were played."""
    costly = sorted((m for m in assessed if m["gain"] > 0), key=lambda m: (-m["gain"], m["step"]))
    kept = [m for rank, m in enumerate(costly[:MOST]) if rank < LEAST or m["gain"] >= NOTABLE]
    return sorted(kept, key=lambda m: m["step"])


def lower_priority() -> None:
    os.nice(10)


def end_pool(pool: ProcessPoolExecutor) -> None:
    """Shut the pool down and end its worker at once: a shutdown alone left a worker in the middle
    of a review running, and when the server then exited it stayed for good (about 90 MB, waiting
    on a pipe nobody wrote to). (``_processes``: Python 3.14 has ``terminate_workers`` for it.)"""
    workers = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
        worker.join(timeout=5)


def worker_pool() -> ProcessPoolExecutor:
    """The one worker process reviews run in (started at its first review, at a lower priority)."""
    return ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=lower_priority
    )


class Reviews:
    def __init__(self, db: Database, rooms: LiveGames, replays: Replays, rollouts: int):
        self.db = db
        self.rooms = rooms
        self.replays = replays
        self.rollouts = rollouts
        self._queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self._pool: ProcessPoolExecutor | None = None
        self._worker: asyncio.Task[None] | None = None

    # ---- asking and reading ----------------------------------------------------------------

    async def ask(self, room_id: str, seat: int) -> tuple[dict[str, Any], bool]:
        """Queue the review of ``seat`` (the caller's own) unless it was asked for already;
        answers its status and whether this call queued it. 409 before the game is over."""
        info = await self.ended(room_id)
        queued = await review_rows.add(self.db, room_id, seat) or await review_rows.requeue_failed(
            self.db, room_id, seat
        )
        if queued:
            self._queue.put_nowait((room_id, seat))
        return await self.answer(info, seat), queued

    async def status(self, room_id: str, seat: int) -> dict[str, Any]:
        """The review of ``seat`` as it stands (``none`` if nobody asked for it)."""
        return await self.answer(await self.ended(room_id), seat)

    async def ended(self, room_id: str, seat: int | None = None) -> RoomInfo:
        """The room, once its game is over (409 before); ``seat``, if named, one it has (404,
        checked first)."""
        await self.rooms.refresh(room_id)
        info = await self.rooms.room(room_id)
        if seat is not None:
            require_seat(info.num_seats, seat)
        if info.status not in RECORDED:
            raise Conflict("a review is made once the game has ended")
        return info

    async def answer(self, info: RoomInfo, seat: int) -> dict[str, Any]:
        row = await review_rows.find(self.db, info.id, seat)
        names = names_of(info)
        moves = [] if row is None or row.status != "ready" else row.moves
        return {
            "room": info.id,
            "seat": seat,
            "status": "none" if row is None else row.status,
            "done": 0 if row is None else row.done,
            "total": 0 if row is None else row.total,
            "level": coach.REVIEW_LEVEL,
            "moves": [
                {
                    "step": m["step"],
                    "played": labelled(m["played"], m["played_label"], names),
                    "preferred": labelled(m["best"], m["best_label"], names),
                    "played_value": m["played_value"],
                    "preferred_value": m["best_value"],
                    "gain": m["gain"],
                }
                for m in moves
            ],
        }

    # ---- the worker --------------------------------------------------------------------------

    def start(self) -> None:
        self._pool = worker_pool()
        self._worker = asyncio.create_task(self._work())

    async def stop(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
        if self._pool is not None:
            end_pool(self._pool)

    async def _work(self) -> None:
        """Take the reviews queued here one after another, and every ``SWEEP_SECONDS`` with
        nothing queued (and at the start) those left waiting in the database. A review that
        fails is marked so; the database unavailable leaves them waiting for the next sweep."""
        sweep = True
        while True:
            try:
                if sweep:
                    await self._sweep()
                    sweep = False
                room_id, seat = await asyncio.wait_for(self._queue.get(), SWEEP_SECONDS)
            except TimeoutError:
                sweep = True
                continue
            except Exception as exc:
                log.warning("reviews: cannot look for waiting reviews now (%s)", exc)
                await asyncio.sleep(SWEEP_SECONDS)
                continue
            try:
                await self.review(room_id, seat)
            except Exception:
                log.exception("the review of room %s seat %s failed", room_id, seat)
                with contextlib.suppress(Exception):  # (else it is taken up again once stale)
                    await review_rows.finish(self.db, room_id, seat, "failed", [])

    async def _sweep(self) -> None:
        """Queue the reviews waiting for a worker (asked for through an instance that stopped)."""
        for waiting in await review_rows.resumable(self.db, utcnow() - STALE):
            self._queue.put_nowait(waiting)

    async def review(self, room_id: str, seat: int) -> None:
        """Make the review of ``seat`` if no other worker has it (see the module docstring)."""
        if not await review_rows.claim(self.db, room_id, seat, utcnow() - STALE):
            return
        try:
            await self._make(room_id, seat)
        except asyncio.CancelledError:  # stopping: handed back, not left to go stale
            with contextlib.suppress(Exception):
                await review_rows.release(self.db, room_id, seat)
            raise

    async def _make(self, room_id: str, seat: int) -> None:
        replay = await self.replays.of_room(room_id)
        found = await asyncio.to_thread(lambda: list(decisions(replay, seat)))
        await review_rows.progress(self.db, room_id, seat, 0, len(found))
        loop = asyncio.get_running_loop()
        assessed = []
        for done, decision in enumerate(found, start=1):
            seed = f"review:{room_id}:{seat}:{decision.step}"
            args = (replay.game, seat, decision.state, decision.played, seed, self.rollouts)
            try:
                assessment = await loop.run_in_executor(self._pool, coach.review_decision, *args)
            except BrokenProcessPool:  # the worker process died: the next review gets a new one
                broken, self._pool = self._pool, worker_pool()
                if broken is not None:
                    broken.shutdown(wait=False)
                raise
            assessed.append({"step": decision.step, **assessment})
            await review_rows.progress(self.db, room_id, seat, done, len(found))
        await review_rows.finish(self.db, room_id, seat, "ready", marked(assessed))
