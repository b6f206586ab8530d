"""Live games: each room's facts and rebuilt game held in memory, caught up, locked, bounded.

A room's game state is never stored: it is rebuilt from the seed, the options and the action
log, and kept in memory per room with the room's facts (``app.realtime.cache``: refreshed by
every change published for the room, on this instance or relayed from another); a finished or
closed room's are kept only among the few read last, so memory follows the rooms in play. A
read catches the game up with any actions the room's version says it is missing. A room's
changes take turns on its lock (``changing``, which also publishes the change once committed);
the lobby (``app.rooms.lobby``) and play (``app.rooms.play``) make them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from app.db.database import Database
from app.games.base import visible_log
from app.games.registry import GAMES
from app.realtime.bus import EventBus
from app.realtime.cache import Held, RoomCache
from app.realtime.locks import RoomLocks
from app.realtime.metrics import OFF, Off
from app.rooms import changes, storage
from app.rooms.changes import Changes
from app.rooms.errors import Forbidden, NotFound, Unauthorized
from app.rooms.model import IN_PLAY, LiveGame, RoomInfo, apply_recorded, hash_token, with_names
from app.rooms.storage import known_id

MAX_GAMES_HELD = 10_000  # games kept in memory; an older one is rebuilt from its log when asked for
ENDED_GAMES_HELD = 64  # of these, finished games (the most recently read; any other is rebuilt)
ENDED_ROOMS_HELD = 256  # facts of finished or closed rooms kept (the most recently read)


def failed(done: asyncio.Future[Any]) -> bool:
    return done.cancelled() or done.exception() is not None


class CorruptLog(Exception):
    """The stored action log cannot be applied (a missing seq): never expected, always logged."""


class LiveGames:
    def __init__(self, db: Database, bus: EventBus, metrics: Off = OFF):
        self.db = db
        self.bus = bus
        self.metrics = metrics  # GET /metrics (app.realtime.metrics): off unless METRICS_TOKEN is set
        self._games: Held[LiveGame] = Held(ENDED_GAMES_HELD, MAX_GAMES_HELD)
        self._infos: RoomCache[RoomInfo] = RoomCache(
            bus,
            social=False,
            in_play=lambda info: info.status in IN_PLAY,
            spare=ENDED_ROOMS_HELD,
            version=lambda info: info.version,
        )
        self._locks = RoomLocks()
        # per watched room, the read of its change ids since the last change delivered here
        self._reading: dict[str, tuple[int, asyncio.Future[Changes]]] = {}
        bus.add_release_listener(self._released)

    def lock(self, room_id: str) -> AbstractAsyncContextManager[None]:
        return self._locks.hold(room_id)

    # ---- reading -------------------------------------------------------------------------

    async def room(self, room_id: str) -> RoomInfo:
        """The room's facts, from the cache that every published change refreshes."""
        known_id(room_id)
        return await self._infos.get(room_id, lambda: self._load_room(room_id))

    async def refresh(self, room_id: str) -> None:
        """Drop this instance's cached facts of the room if the database holds newer ones (a
        change made through another instance whose relayed event has not arrived yet), so that
        API reads and page loads are as fresh as the database; pushes rely on the relay."""
        if self._infos.peek(room_id) is None:
            return
        async with self.db.read() as session:
            self._drop_if_stale(room_id, await storage.stamp(session, room_id))

    async def changes(self, room_id: str) -> Changes:
        """The room's change ids as the database has them now (``app.rooms.changes``), with
        this instance's cached facts dropped if they are older (as ``refresh`` does, in the
        same query): what is read of the room after this reflects every change numbered.

        Every socket of a watched room asks at each change, and so do the move's reply and each
        JSON socket's view once it is built: all that ask after the same change delivered here
        share one read, under way or done, until the next change is delivered (one read a
        change, not one a socket and another per view: 100 JSON spectators made a move cost 20
        times its CPU; a read kept only while under way let a move cost three). What a shared
        read reflects is every change delivered before it began (``EventBus.delivered``); a
        change written elsewhere and not yet delivered here wakes the sockets when it is, and
        ``refresh`` drops the shared read with the facts it finds stale. A room nobody watches
        is read afresh each time."""
        known_id(room_id)
        if not self.bus.watched(room_id):
            return await self._read_changes(room_id)
        mark = self.bus.delivered(room_id)
        reading = self._reading.get(room_id)
        if reading is None or reading[0] != mark:
            reading = self._reading[room_id] = (mark, asyncio.ensure_future(self._read_changes(room_id)))
            reading[1].add_done_callback(lambda done: self._read_done(room_id, done))
        return await asyncio.shield(reading[1])

    def _read_done(self, room_id: str, done: asyncio.Future[Changes]) -> None:
        """A failed read is not kept; a read is not kept past its room's last watcher."""
        reading = self._reading.get(room_id)
        if reading is not None and reading[1] is done and (failed(done) or not self.bus.watched(room_id)):
            del self._reading[room_id]

    def _released(self, room_id: str) -> None:
        self._reading.pop(room_id, None)

    async def _read_changes(self, room_id: str) -> Changes:
        async with self.db.read() as session:
            found = await changes.read(session, room_id)
        if found is None:
            raise NotFound("no such room")
        stamp, numbered = found
        self._drop_if_stale(room_id, stamp)
        return numbered

    def _drop_if_stale(self, room_id: str, stamp: tuple[int, datetime | None] | None) -> None:
        cached = self._infos.peek(room_id)
        if cached is not None and stamp != (cached.version, cached.updated_at):
            self._infos.invalidate(room_id)
            if (reading := self._reading.get(room_id)) is not None and reading[1].done():
                del self._reading[room_id]  # read before the change that made the facts stale

    async def _load_room(self, room_id: str) -> RoomInfo:
        async with self.db.read() as session:
            return await storage.load_room(session, room_id)

    async def list_rooms(
        self, status: str | None = None, limit: int = 100, listed_only: bool = False
    ) -> list[RoomInfo]:
        """Rooms, the newest first; ``listed_only`` leaves out the unlisted (as a lobby does)."""
        async with self.db.read() as session:
            ids = await storage.room_ids(session, status, limit, listed_only)
        return [await self.room(room_id) for room_id in ids]

    async def room_page(
        self, status: str | None, limit: int, after: storage.RoomKey | None
    ) -> tuple[list[RoomInfo], storage.RoomKey | None]:
        """The listed rooms after ``after`` (a room's place: none, from the newest), at most
        ``limit`` of them, and the place of the last one if there are more."""
        async with self.db.read() as session:
            keys = await storage.room_keys(session, status, limit + 1, True, after)
        return [await self.room(room_id) for _, room_id in keys[:limit]], keys[limit - 1] if len(keys) > limit else None

    async def rooms_in_play(self) -> list[str]:
        """Every room in play (bots and turn timers resume them when the server starts)."""
        return await storage.rooms_in_play(self.db)

    async def seat_of(self, room_id: str, token: str | None) -> int:
        """The seat a token holds in this room: 404 for a missing room whatever the token, then
        401 without a token, 403 for a foreign one."""
        info = await self.room(room_id)
        if not token:
            raise Unauthorized("this call needs your seat token (Authorization: Bearer ...)")
        seat = info.token_hashes.get(hash_token(token))
        if seat is None:
            raise Forbidden(
                "that token holds no seat in this room (a seat's old link, if the host gave the seat a new one)"
            )
        return seat

    async def game_state(self, room_id: str) -> tuple[RoomInfo, LiveGame | None]:
        """The room and its current game (None before the start), caught up with the log."""
        info = await self.room(room_id)
        if info.status in ("open", "closed"):
            return info, None
        return info, await self.caught_up(info)

    async def caught_up(self, info: RoomInfo) -> LiveGame:
        """``catch_up`` with a reading session of its own, opened only if the log must be read
        (a move on a game this instance holds at the room's version reads nothing)."""
        live = self._games.get(info.id)
        if live is not None and live.version >= info.version:
            self._games.put(info.id, live, in_play=info.status == "playing")
            return live
        async with self.db.read() as session:
            return await self.catch_up(session, info)

    async def catch_up(self, session: AsyncSession, info: RoomInfo) -> LiveGame:
        """The room's game, rebuilt or brought forward to the room's version from the log."""
        game = GAMES[info.game]
        live = self._games.get(info.id)
        if live is None:
            live = LiveGame.begin(game, game.setup(info.num_seats, info.options, info.seed))
        if live.version < info.version:  # the game never runs ahead of its room
            rows = await storage.actions(session, info.id, after=live.version, upto=info.version)
            # another reader may have caught the shared cache up while this one queried
            rows = [row for row in rows if row.seq > live.version]
            for expected, row in enumerate(rows, live.version + 1):
                if row.seq != expected:
                    raise CorruptLog(f"room {info.id}: action log has a gap at {row.seq}")
            apply_recorded(game, live, [(row.seat, row.action) for row in rows])
        self._games.put(info.id, live, in_play=info.status == "playing")
        return live

    async def log(self, room_id: str, seat: int | None) -> list[dict[str, Any]]:
        info, live = await self.game_state(room_id)
        return [] if live is None else with_names(visible_log(live.state.get("log", []), seat), info.seats)

    async def game_at(self, room_id: str, version: int) -> tuple[RoomInfo, LiveGame | None]:
        """The room and its game as they were at ``version`` (what a move answered when it
        landed there): the game this instance holds if it is at that version, else rebuilt
        from the seed and the log up to it (kept by no cache: resends are rare)."""
        info, live = await self.game_state(room_id)
        if live is None or live.version == version:
            return info, live
        game = GAMES[info.game]
        async with self.db.read() as session:
            rows = await storage.actions(session, room_id, upto=version)
        past = LiveGame.begin(game, game.setup(info.num_seats, info.options, info.seed))
        apply_recorded(game, past, [(row.seat, row.action) for row in rows])
        status = "finished" if game.outcome(past.state) is not None else "playing"
        return replace(info, version=version, status=status), past

    # ---- changing ------------------------------------------------------------------------

    @asynccontextmanager
    async def changing(self, room_id: str) -> AsyncIterator[tuple[AsyncSession, RoomInfo]]:
        """Hold the room's lock and a session, with the room's facts as the database has them
        now; once the block has committed its change, publish it (nothing if it raised)."""
        async with self.lock(room_id), self.db.write() as session:
            info = await storage.load_room(session, room_id)
            yield session, info
        await self.bus.publish(room_id, info.version)

    async def moved(self, info: RoomInfo, seq: int, status: str, now: datetime) -> None:
        """A move this instance wrote landed at ``seq`` (its game advanced already): hold the
        room's new facts, then publish the change (which leaves them held). Under the room's lock."""
        if status == "finished":
            self._games.let_go(info.id)
        self._infos.put(info.id, replace(info, version=seq, status=status, turn_started_at=now, updated_at=now))
        self.metrics.moved(info.game, info.id, seq)
        await self.bus.publish(info.id, seq)

    def closed(self, room_id: str) -> None:
        """The room was closed (its change published): its game, if held, is let go as a
        finished one is."""
        self._games.let_go(room_id)

    def forget(self, room_id: str) -> None:
        """Drop the cached room and game (after a lost race; tests use it to force a rebuild)."""
        self._games.pop(room_id)
        self._infos.invalidate(room_id)
