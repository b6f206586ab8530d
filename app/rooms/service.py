"""The room service: every change to a room goes through here, whoever asks (browser, API, bot).

A room's game state is never stored: it is rebuilt from the seed, the options and the action
log, and kept in memory per room with the room's facts (``app.realtime.cache``: dropped by
every change published for the room, on this instance or relayed from another); a finished
or closed room's are kept only among the few read last, so memory follows the rooms in play. A read
catches the game up with any actions the room's version says it is missing. A move is
validated by the engine, checked against the version rule (``app.rooms.model``), appended with
the next sequence number (the unique key makes a concurrent duplicate fail) and only then
published on the event bus. An idempotency key makes a resent action answer its first result
(the version it landed at, whose payload ``game_at`` rebuilds), and refuses another move sent
with the same key; a start and a join take keys too (``start``, ``join_token``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from app.bots import LEVELS
from app.db.database import Database
from app.db.models import ActionRecord, Room, Seat, utcnow
from app.games.base import IllegalAction, visible_log
from app.games.registry import GAMES
from app.realtime.bus import EventBus
from app.realtime.cache import Held, RoomCache
from app.realtime.locks import RoomLocks
from app.rooms.errors import BadRequest, Conflict, Forbidden, Illegal, KeyReused, NotFound, Unauthorized
from app.rooms.model import (
    LiveGame,
    RoomInfo,
    advance,
    aware,
    check_version,
    clean_name,
    hash_token,
    replay,
    replayed,
    with_names,
)
from app.rooms.social import last_present

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")  # what ``secrets.token_urlsafe`` makes, as stored
MAX_KEY_LENGTH = 64
MIN_JOIN_KEY_LENGTH = 16  # a join's key stands for its token: it must not be guessable
MAX_GAMES_HELD = 10_000  # games kept in memory; an older one is rebuilt from its log when asked for
ENDED_GAMES_HELD = 64  # of these, finished games (the most recently read; any other is rebuilt)
ENDED_ROOMS_HELD = 256  # facts of finished or closed rooms kept (the most recently read)
BOT_TOKEN_HASH = "bot"  # no token hashes to this: a bot's seat cannot be claimed by a token


def known_id(room_id: Any) -> str:
    """``room_id`` if it could name a room; anything else (odd characters, too long, a NUL that
    Postgres would refuse) is no room, answered 404 without asking the database."""
    if not isinstance(room_id, str) or not ROOM_ID.fullmatch(room_id):
        raise NotFound("no such room")
    return room_id


def check_key(key: Any, shortest: int = 1) -> None:
    """An idempotency key, when given: ``shortest`` to 64 printable characters (no NUL or lone
    surrogate, which a database would refuse to store)."""
    if key is not None and (not isinstance(key, str) or not shortest <= len(key) <= MAX_KEY_LENGTH
                            or not key.isprintable()):
        raise BadRequest(f"idempotency_key must be text of {shortest} to {MAX_KEY_LENGTH} printable characters")


def join_token(info: RoomInfo, name: str, key: str) -> str:
    """The seat token of a join made with an idempotency key: an HMAC of the room, the name and
    the key under the room's secret seed. Only the server can compute it, and only for someone
    who sends the same key and name again; the database keeps its hash, as of every token.
    (The seed is published when the game ends; the key never is.)"""
    message = "\0".join(("join", info.id, name, key)).encode()
    digest = hmac.new(info.seed.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def check_level(level: Any) -> None:
    if level not in LEVELS:
        raise BadRequest(f"bot level must be one of: {', '.join(LEVELS)}")


TURN_TIMER_PRESETS = (0, 30, 60, 120, 300)


def require_host(info: RoomInfo, seat: int | None, what: str) -> None:
    if seat != info.host_seat:
        raise Forbidden(f"only the host can {what}")


def require_open(info: RoomInfo, refusal: str) -> None:
    if info.status != "open":
        raise Conflict(refusal)


def first_free_seat(info: RoomInfo) -> int:
    if not info.free_seats:
        raise Conflict("every seat is taken")
    return info.free_seats[0]


async def touch(session: AsyncSession, room_id: str) -> None:
    await session.exec(update(Room).where(Room.id == room_id).values(updated_at=utcnow()))


async def commit_seat(session: AsyncSession, room_id: str) -> None:
    """Commit a newly taken seat; a concurrent taker of the same seat makes this a 409."""
    await touch(session, room_id)
    try:
        await session.commit()
    except IntegrityError:
        raise Conflict("that seat was just taken; try again") from None


def first_result(earlier: ActionRecord, action: Any, version: int, current: int) -> int:
    """The version a keyed move landed at, when this is the same move sent again: the same
    action, JSON types and all, made against the same version (not known for moves logged
    before versions were kept with them); any other move with that key is refused."""
    same_version = earlier.from_version is None or earlier.from_version == version
    if not same_version or canonical_json(earlier.action) != canonical_json(action):
        raise KeyReused("this key was used for another move", version=current)
    return earlier.seq


def canonical_json(value: Any) -> str:
    """JSON text that tells 1 from 1.0 and from true, whatever the order of keys."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class CorruptLog(Exception):
    """The stored action log cannot be replayed (a missing seq): never expected, always logged."""


# The two writes of a move, built once (building statements per move cost more than the ORM
# saved): append the action, then move the room's version on from the one the move was made on.
APPEND_ACTION = insert(ActionRecord.__table__)
BUMP_VERSION = (
    update(Room.__table__)
    .where(Room.__table__.c.id == bindparam("room"), Room.__table__.c.version == bindparam("seen"))
    .values(version=bindparam("version"), status=bindparam("status"), updated_at=bindparam("now"),
            turn_started_at=bindparam("now"))
)


class RoomService:
    def __init__(self, db: Database, bus: EventBus, autopilot_grace: float = 60.0):
        self.db = db
        self.bus = bus
        self.autopilot_grace = timedelta(seconds=autopilot_grace)
        self._games: Held[LiveGame] = Held(ENDED_GAMES_HELD, MAX_GAMES_HELD)
        self._infos: RoomCache[RoomInfo] = RoomCache(
            bus, social=False, in_play=lambda info: info.status in ("open", "playing"), spare=ENDED_ROOMS_HELD)
        self._locks = RoomLocks()

    def _lock(self, room_id: str) -> AbstractAsyncContextManager[None]:
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
        cached = self._infos.peek(room_id)
        if cached is None:
            return
        async with self.db.read() as session:
            row = (await session.exec(select(Room.version, Room.updated_at).where(Room.id == room_id))).first()
        if row is None or (row[0], aware(row[1])) != (cached.version, cached.updated_at):
            self._infos.invalidate(room_id)

    async def _load_room(self, room_id: str) -> RoomInfo:
        async with self.db.read() as session:
            return await self._room(session, room_id)

    async def _room(self, session: AsyncSession, room_id: str) -> RoomInfo:
        row = await session.get(Room, known_id(room_id))
        if row is None or row.game not in GAMES:
            raise NotFound("no such room")
        seats = (await session.exec(select(Seat).where(Seat.room_id == room_id))).all()
        return RoomInfo(
            id=row.id,
            game=row.game,
            options=row.options,
            num_seats=row.num_seats,
            host_seat=row.host_seat,
            status=row.status,
            version=row.version,
            seed_hash=row.seed_hash,
            seats={s.seat: s.name for s in seats},
            bots={s.seat: s.bot for s in seats if s.bot},
            humans={s.seat for s in seats if s.token_hash != BOT_TOKEN_HASH},
            token_hashes={s.token_hash: s.seat for s in seats if s.token_hash != BOT_TOKEN_HASH},
            seed=row.seed,
            turn_seconds=row.turn_seconds,
            turn_started_at=aware(row.turn_started_at),
            updated_at=aware(row.updated_at),
        )

    async def list_rooms(self, status: str | None = None, limit: int = 100) -> list[RoomInfo]:
        async with self.db.read() as session:
            query = select(Room.id).order_by(Room.created_at.desc()).limit(limit)
            if status:
                query = query.where(Room.status == status)
            ids = (await session.exec(query)).all()
        return [await self.room(room_id) for room_id in ids]

    async def seat_of(self, room_id: str, token: str | None) -> int:
        """The seat a token holds in this room: 401 without a token, 403 for a foreign one."""
        if not token:
            raise Unauthorized("this call needs your seat token (Authorization: Bearer ...)")
        seat = (await self.room(room_id)).token_hashes.get(hash_token(token))
        if seat is None:
            raise Forbidden("that token holds no seat in this room")
        return seat

    async def game_state(self, room_id: str) -> tuple[RoomInfo, LiveGame | None]:
        """The room and its current game (None before the start), caught up with the log."""
        info = await self.room(room_id)
        if info.status in ("open", "closed"):
            return info, None
        live = self._games.get(room_id)
        if live is None or live.version < info.version:
            async with self.db.read() as session:
                live = await self._catch_up(session, info)
        return info, live

    async def _catch_up(self, session: AsyncSession, info: RoomInfo) -> LiveGame:
        game = GAMES[info.game]
        live = self._games.get(info.id)
        if live is None:
            live = LiveGame.begin(game, game.setup(info.num_seats, info.options, info.seed))
        if live.version < info.version:
            rows = (
                await session.exec(
                    select(ActionRecord)
                    .where(
                        ActionRecord.room_id == info.id,
                        ActionRecord.seq > live.version,
                        ActionRecord.seq <= info.version,  # the game never runs ahead of its room
                    )
                    .order_by(ActionRecord.seq)
                )
            ).all()
            # another reader may have caught the shared cache up while this one queried
            rows = [row for row in rows if row.seq > live.version]
            for expected, row in enumerate(rows, live.version + 1):
                if row.seq != expected:
                    raise CorruptLog(f"room {info.id}: action log has a gap at {row.seq}")
            replay(game, live, [(row.seat, row.action) for row in rows])
        self._games.put(info.id, live, in_play=info.status == "playing")
        return live

    async def log(self, room_id: str, seat: int | None) -> list[dict[str, Any]]:
        info, live = await self.game_state(room_id)
        return [] if live is None else with_names(visible_log(live.state.get("log", []), seat), info.seats)

    async def record(self, room_id: str) -> dict[str, Any]:
        """The replayable record of a finished game: seed, options, seats and every action (in
        its canonical form, which a replay of the log gives even for entries stored loosely
        before actions were strict)."""
        async with self.db.read() as session:
            info = await self._room(session, room_id)
            if info.status != "finished":
                raise Conflict("the record is available once the game has ended")
            rows = (
                await session.exec(
                    select(ActionRecord)
                    .where(ActionRecord.room_id == room_id)
                    .order_by(ActionRecord.seq)
                )
            ).all()
        game = GAMES[info.game]
        actions, state = [], game.setup(info.num_seats, info.options, info.seed)
        for action, state in replayed(game, state, [(row.seat, row.action) for row in rows]):
            actions.append(action)
        outcome = game.outcome(state)
        return {
            "format": "troika-arena-record/1",
            "room": info.id,
            "game": info.game,
            "num_players": info.num_seats,
            "options": info.options,
            "seed": info.seed,
            "seed_hash": info.seed_hash,
            "players": [info.seats.get(s) for s in range(info.num_seats)],
            "actions": [{"seq": r.seq, "seat": r.seat, "action": a} for r, a in zip(rows, actions, strict=True)],
            "outcome": outcome.to_json() if outcome else None,
        }

    # ---- lobby ---------------------------------------------------------------------------

    async def create(
        self,
        game_slug: str,
        num_seats: int,
        options: dict[str, Any] | None,
        host_name: str,
        turn_seconds: Any = 0,
    ) -> tuple[RoomInfo, str]:
        game = GAMES.get(game_slug) if isinstance(game_slug, str) else None
        if game is None:
            raise BadRequest(f"unknown game; choose one of: {', '.join(sorted(GAMES))}")
        if not isinstance(num_seats, int) or not (
            game.min_players <= num_seats <= game.max_players
        ):
            raise BadRequest(
                f"{game.title} needs {game.min_players} to {game.max_players} seats"
            )
        if options is not None and not isinstance(options, dict):
            raise BadRequest("options must be an object")
        name = clean_name(host_name)
        if turn_seconds not in TURN_TIMER_PRESETS:
            presets = ", ".join(str(p) for p in TURN_TIMER_PRESETS)
            raise BadRequest(f"turn_timer must be one of (seconds, 0 = off): {presets}")
        seed = secrets.token_hex(16)
        try:
            game.setup(num_seats, dict(options or {}), seed)
        except ValueError as exc:
            raise BadRequest(f"invalid options: {exc}") from None
        room = Room(
            id=secrets.token_urlsafe(6),
            game=game.slug,
            options=dict(options or {}),
            seed=seed,
            seed_hash=hashlib.sha256(seed.encode()).hexdigest(),
            num_seats=num_seats,
            turn_seconds=turn_seconds or None,
        )
        token = secrets.token_urlsafe(24)
        async with self.db.write() as session:
            session.add(room)
            await session.flush()
            session.add(Seat(room_id=room.id, seat=0, name=name, token_hash=hash_token(token)))
            await session.commit()
            info = await self._room(session, room.id)
        return info, token

    @asynccontextmanager
    async def _changing(self, room_id: str) -> AsyncIterator[tuple[AsyncSession, RoomInfo]]:
        """Hold the room's lock and a session, with the room's facts as the database has them
        now; once the block has committed its change, publish it (nothing if it raised)."""
        async with self._lock(room_id):
            async with self.db.write() as session:
                info = await self._room(session, room_id)
                yield session, info
        await self.bus.publish(room_id, info.version)

    async def join(self, room_id: str, name: Any, idempotency_key: Any = None) -> tuple[int, str, bool]:
        """Take the first free seat with ``name``; returns (seat, token, whether it was a resend).
        With an idempotency key the token is derived from it (``join_token``), so a resend with
        the same key and name finds the seat it took and answers the same seat and token."""
        name = clean_name(name)
        check_key(idempotency_key, shortest=MIN_JOIN_KEY_LENGTH)
        info = await self.room(room_id)
        token = secrets.token_urlsafe(24) if idempotency_key is None else join_token(info, name, idempotency_key)
        async with self._changing(room_id) as (session, info):
            taken = info.token_hashes.get(hash_token(token))
            if taken is not None:  # the same key and name: this join landed already
                return taken, token, True
            require_open(info, "this game has already started")
            seat = first_free_seat(info)
            session.add(Seat(room_id=room_id, seat=seat, name=name, token_hash=hash_token(token)))
            await commit_seat(session, room_id)
        return seat, token, False

    async def leave(self, room_id: str, seat: int) -> None:
        """Give up a seat before the start; the host role passes to the next person, and a
        room with no person left closes."""
        async with self._changing(room_id) as (session, info):
            require_open(info, "you can only leave before the game starts")
            await session.exec(delete(Seat).where(Seat.room_id == room_id, Seat.seat == seat))
            others = sorted(s for s in info.humans if s != seat)
            values: dict[str, Any] = {"updated_at": utcnow()}
            if not others:
                values["status"] = "closed"
            elif seat == info.host_seat:
                values["host_seat"] = others[0]
            await session.exec(update(Room).where(Room.id == room_id).values(**values))
            await session.commit()

    async def add_bot(self, room_id: str, by_seat: int, level: Any, seat: Any = None) -> int:
        """The host seats a bot of ``level`` in a free seat (the lowest one unless named)."""
        check_level(level)
        async with self._changing(room_id) as (session, info):
            require_host(info, by_seat, "add bots")
            require_open(info, "bots can be added before the game starts")
            seat = first_free_seat(info) if seat is None else seat
            if seat not in info.free_seats:
                raise Conflict(f"seat {seat} is not free" if isinstance(seat, int) else "no such seat")
            name = f"{level.capitalize()} bot {seat + 1}"
            session.add(Seat(room_id=room_id, seat=seat, name=name, token_hash=BOT_TOKEN_HASH, bot=level))
            await commit_seat(session, room_id)
        return seat

    async def remove_bot(self, room_id: str, by_seat: int, seat: int) -> None:
        """The host frees a bot's seat before the start."""
        async with self._changing(room_id) as (session, info):
            require_host(info, by_seat, "remove bots")
            require_open(info, "bots can be removed before the game starts")
            if seat not in range(info.num_seats):  # a number the database could not even hold
                raise NotFound("no bot sits in that seat")
            result = await session.exec(
                delete(Seat).where(Seat.room_id == room_id, Seat.seat == seat, Seat.token_hash == BOT_TOKEN_HASH)
            )
            if result.rowcount != 1:
                raise NotFound("no bot sits in that seat")
            await touch(session, room_id)
            await session.commit()

    async def set_autopilot(self, room_id: str, by_seat: int | None, seat: int, level: Any) -> None:
        """Hand ``seat`` to a bot of ``level``, or back to its owner (None). A player may do
        either for their own seat; the host may hand an absent player's seat to a bot
        (``_require_absent``); the turn timer (``by_seat`` None) does so when time runs out."""
        if level is not None:
            check_level(level)
        async with self._changing(room_id) as (session, info):
            if info.status not in ("open", "playing"):
                raise Conflict("the game is over")
            if seat not in info.humans:
                raise NotFound("no player sits in that seat")
            host_replacing = by_seat == info.host_seat and level is not None
            if by_seat is not None and by_seat != seat and not host_replacing:
                raise Forbidden("only the seat's player can take it back")
            if by_seat is not None and by_seat != seat:
                await self._require_absent(session, info, seat)
            await session.exec(update(Seat).where(Seat.room_id == room_id, Seat.seat == seat).values(bot=level))
            await touch(session, room_id)
            await session.commit()

    async def _require_absent(self, session: AsyncSession, info: RoomInfo, seat: int) -> None:
        """409 unless the seat's player is absent: no socket of theirs open, and none closed,
        no join and no move of theirs, within the grace period; or the seat is awaited and its
        turn time has run out."""
        now = utcnow()
        deadline = info.turn_deadline()
        if deadline is not None and deadline <= now:
            live = await self._catch_up(session, info)
            if seat in GAMES[info.game].to_act(live.state):
                return
        joined = (await session.exec(
            select(Seat.joined_at).where(Seat.room_id == info.id, Seat.seat == seat))).one()
        moved = (await session.exec(
            select(func.max(ActionRecord.at)).where(ActionRecord.room_id == info.id, ActionRecord.seat == seat))).one()
        present = await last_present(session, info.id, seat)
        last = max(aware(moment) for moment in (joined, moved, present) if moment is not None)
        if now - last < self.autopilot_grace:
            grace = round(self.autopilot_grace.total_seconds())
            raise Conflict(f"that player is here or was within the last {grace} seconds: only they can hand "
                           "their seat to a bot, unless their turn time runs out")

    async def rooms_in_play(self) -> list[str]:
        """Every room in play (bots and turn timers resume them when the server starts)."""
        async with self.db.read() as session:
            return list((await session.exec(select(Room.id).where(Room.status == "playing"))).all())

    async def start(self, room_id: str, seat: int, idempotency_key: Any = None) -> bool:
        """The host starts the game; returns whether this was a resend: a start sent again with
        the key of the start that landed answers as that start did, not 409."""
        check_key(idempotency_key)
        async with self._changing(room_id) as (session, info):
            require_host(info, seat, "start the game")
            if idempotency_key is not None and info.status != "open":
                started_with = (await session.exec(select(Room.start_key).where(Room.id == room_id))).one()
                if started_with == idempotency_key:
                    return True
            require_open(info, "this game has already started")
            if info.free_seats:
                raise Conflict(f"{len(info.free_seats)} seat(s) are still free")
            result = await session.exec(
                update(Room)
                .where(Room.id == room_id, Room.status == "open")
                .values(status="playing", updated_at=utcnow(), turn_started_at=utcnow(), start_key=idempotency_key)
            )
            if result.rowcount != 1:
                raise Conflict("this game has already started")
            await session.commit()
        return False

    # ---- playing -------------------------------------------------------------------------

    async def act(
        self,
        room_id: str,
        seat: int,
        action: Any,
        version: Any,
        idempotency_key: str | None = None,
        as_bot: bool = False,
    ) -> tuple[int, bool]:
        """Apply one action for ``seat``; returns (new version, whether it was a resend).
        ``as_bot``: a bot's move, refused if the seat's owner has taken the seat back."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("version must be the whole number of the view you acted on")
        if not isinstance(action, dict):
            raise BadRequest("action must be an object with a 'type' field")
        check_key(idempotency_key)
        async with self._lock(room_id):
            info = await self.room(room_id)
            async with self.db.read() as session:
                if idempotency_key:
                    earlier = await self._keyed_move(session, room_id, seat, idempotency_key)
                    if earlier is not None:
                        stored = GAMES[info.game].stored_form(action)  # a campaign's cards in order, say
                        return first_result(earlier, stored, version, info.version), True
                if info.status == "open":
                    raise Conflict("the game has not started yet", version=info.version)
                if info.status != "playing":
                    raise Conflict("the game is over", version=info.version)
                if as_bot and seat not in info.bots:
                    raise Conflict("the seat's owner took it back", version=info.version)
                live = await self._catch_up(session, info)
            check_version(live, seat, version)
            game = GAMES[info.game]
            try:
                action, new_state = game.play(live.state, seat, action)  # stored as the engine lists it
            except IllegalAction as exc:
                raise Illegal(exc.reason, version=live.version) from None
            finished = game.outcome(new_state) is not None
            seq, now = live.version + 1, utcnow()
            status = "finished" if finished else "playing"
            record = {"room_id": room_id, "seat": seat, "seq": seq, "action": action,
                      "idempotency_key": idempotency_key, "from_version": version, "at": now}
            bump = {"room": room_id, "seen": live.version, "version": seq, "status": status, "now": now}
            try:
                landed = await self.db.write_all([(APPEND_ACTION, record), (BUMP_VERSION, bump)])
            except IntegrityError:  # another instance landed this sequence number first
                landed = False
            if not landed:  # ... or moved the room's version on
                self._games.pop(room_id)
                self._infos.invalidate(room_id)
                raise Conflict("another move landed first", version=await self._current_version(room_id))
            advance(game, live, seat, new_state)
            if finished:
                self._games.let_go(room_id)
            await self.bus.publish(room_id, seq)
            self._infos.put(room_id, replace(info, version=seq, status=status, turn_started_at=now, updated_at=now))
        return seq, False

    @staticmethod
    async def _keyed_move(session: AsyncSession, room_id: str, seat: int, key: str) -> ActionRecord | None:
        """The seat's move logged with this idempotency key, if any."""
        query = select(ActionRecord).where(
            ActionRecord.room_id == room_id, ActionRecord.seat == seat, ActionRecord.idempotency_key == key)
        return (await session.exec(query)).first()

    async def game_at(self, room_id: str, version: int) -> tuple[RoomInfo, LiveGame | None]:
        """The room and its game as they were at ``version`` (what a move answered when it
        landed there): the game this instance holds if it is at that version, else rebuilt
        from the seed and the log up to it (kept by no cache: resends are rare)."""
        info, live = await self.game_state(room_id)
        if live is None or live.version == version:
            return info, live
        game = GAMES[info.game]
        async with self.db.read() as session:
            rows = (await session.exec(
                select(ActionRecord.seat, ActionRecord.action)
                .where(ActionRecord.room_id == room_id, ActionRecord.seq <= version)
                .order_by(ActionRecord.seq)
            )).all()
        past = LiveGame.begin(game, game.setup(info.num_seats, info.options, info.seed))
        replay(game, past, [(seat, action) for seat, action in rows])
        status = "finished" if game.outcome(past.state) is not None else "playing"
        return replace(info, version=version, status=status), past

    async def _current_version(self, room_id: str) -> int:
        async with self.db.read() as session:
            return (await session.exec(select(func.max(Room.version)).where(Room.id == room_id))).one() or 0

    def forget(self, room_id: str) -> None:
        """Drop the cached room and game (tests use it to force a rebuild from the log)."""
        self._games.pop(room_id)
        self._infos.invalidate(room_id)
