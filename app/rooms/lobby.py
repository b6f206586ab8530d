"""Lobby commands: creating a room, taking and leaving seats, bots, autopilot, the start, a
seat's reissued link.

Each command checks its rules against the room's facts as the database holds them, under the
room's lock (``LiveGames.changing``), writes through ``app.rooms.storage`` and, once committed,
publishes the change. None of them touches the game itself, except to ask whom it awaits. A
start and a join take idempotency keys (``start``, ``join_token``): a resend answers as the first
did.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import math
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from app.db.models import utcnow
from app.games.base import N_, Game, Message, OptionRefused, UnknownOption, resolve_options, say
from app.games.registry import GAMES
from app.rooms import storage
from app.rooms.errors import BadRequest, Conflict, Forbidden, Held, KeyReused, NotFound, UnknownField
from app.rooms.live_games import LiveGames
from app.rooms.model import (
    BOT_LEVELS,
    IN_PLAY,
    INVISIBLE,
    RECORDED,
    RoomInfo,
    check_key,
    clean_name,
    hash_token,
    require_seat,
)
from app.rooms.records import seed_hash
from app.rooms.social import seat_connected

TURN_TIMER_PRESETS = (0, 30, 60, 120, 300)
MIN_JOIN_KEY_LENGTH = 16  # a join's key stands for its token: it must not be guessable


def check_level(level: Any) -> None:
    if level not in BOT_LEVELS:
        raise BadRequest(say("bot level must be one of: {levels}", levels=", ".join(BOT_LEVELS)))


def join_token(info: RoomInfo, name: str, key: str) -> str:
    """The seat token of a join made with an idempotency key: an HMAC of the room, the name and
    the key under the room's secret seed. Only the server can compute it, and only for someone
    who sends the same key and name again; the database keeps its hash, as of every token.
    (The seed is published when the game ends; the key never is.)"""
    message = "\0".join(("join", info.id, name, key)).encode()
    digest = hmac.new(info.seed.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def again_token(seed: str, room_id: str, seat: int, token: str) -> str:
    """A player's seat token in the room they play again in: an HMAC of the finished room, the
    seat and the player's token there under the new room's secret seed. Only the holder of the
    old seat's token gets it, and gets the same one however often they ask; the database keeps
    only its hash."""
    message = "\0".join(("again", room_id, str(seat), token)).encode()
    digest = hmac.new(seed.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


# a bot's name, with its seat counted from 1
BOT_SEAT_NAMES = {
    "random": N_("Random bot {seat}"),
    "strong": N_("Strong bot {seat}"),
    "expert": N_("Expert bot {seat}"),
}


def require_host(info: RoomInfo, seat: int | None, refusal: Message) -> None:
    if seat != info.host_seat:
        raise Forbidden(refusal)


def require_open(info: RoomInfo, refusal: str) -> None:
    """409 unless the room waits for players: ``refusal`` while its game is in play; a room
    closed before its start, or whose game is over, is told so (not that it started)."""
    if info.status == "closed":
        raise Conflict("this room is closed: its game never started")
    if info.status in RECORDED:
        raise Conflict("the game is over")
    if info.status != "open":
        raise Conflict(refusal)


def require_unheld(info: RoomInfo, seat: int | None = None) -> None:
    """409 while a room played again holds ``seat`` (None: any seat) for its player of the last
    game: no one else takes it, not even the host's bots, so the host cannot start without
    them either."""
    now = utcnow()
    held = info.held_seats(now)
    if info.held_until is not None and (seat in held or (seat is None and held)):
        moment = info.held_until.strftime("%H:%M:%S UTC")
        names = ", ".join(held[s] for s in sorted(held) if seat in (None, s))
        raise Held(
            say(
                "held for the last game's players ({names}) until {moment}; try again then", names=names, moment=moment
            ),
            retry_after=max(1, math.ceil((info.held_until - now).total_seconds())),
        )


async def take_back(rooms: LiveGames, room_id: str, seat: int) -> bool:
    """Give the seat back to its player if a stand-in plays it (``Lobby.come_back``); the
    cached facts are looked at first, so a player with no stand-in costs no write."""
    if seat not in (await rooms.room(room_id)).stand_ins:
        return False
    async with rooms.changing(room_id) as (session, info):
        if seat not in info.stand_ins or info.status != "playing":
            return False
        awaited = seat in GAMES[info.game].to_act((await rooms.catch_up(session, info)).state)
        await storage.give_back(session, room_id, seat, restart_clock=awaited)
    return True


async def close_as(session: AsyncSession, info: RoomInfo, reason: str) -> str:
    """Close a room waiting or in play for ``reason`` (host or idle): a waiting room becomes
    closed, a game in play abandoned. 409 if it is over already or changed meanwhile."""
    if info.status not in IN_PLAY:
        raise Conflict("the room is closed or its game over already")
    status = "closed" if info.status == "open" else "abandoned"
    if not await storage.close_room(session, info, status, reason):
        raise Conflict("the room changed just now; try again")
    return status


def name_key(name: str) -> str:
    """A name as two names that read alike compare: in any case, in Unicode's compatibility
    form (full-width letters are the letters) and without the characters drawn as nothing."""
    return unicodedata.normalize("NFKC", name).translate(INVISIBLE).casefold()


def require_new_name(info: RoomInfo, name: str) -> None:
    """409 for a name a seat of the room holds already (:func:`name_key`): the log, the chat and
    the scores name players, and two alike could not be told apart."""
    if any(name_key(held) == name_key(name) for held in info.seats.values()):
        raise Conflict(say("someone in this room is already called {name}: choose another name", name=name))


def unused_name(info: RoomInfo, name: str) -> str:
    """``name``, or, if a seat of the room holds it already (a player who joined as "Strong bot
    3", say), the first of "name (2)", "name (3)", ... that none holds."""
    taken = {name_key(held) for held in info.seats.values()}
    candidates = (name if n == 1 else f"{name} ({n})" for n in itertools.count(1))
    return next(c for c in candidates if name_key(c) not in taken)


def first_free_seat(info: RoomInfo) -> int:
    """The lowest free seat that waits for no one (a held one if every free seat is held)."""
    if not info.free_seats:
        raise Conflict("every seat is taken")
    held = info.held_seats(utcnow())
    return next((s for s in info.free_seats if s not in held), info.free_seats[0])


def canonical_options(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """The options given, as the game reads them (checked already): a seat written as text,
    "1", is kept as the seat, 1."""
    resolved = resolve_options(game.options, options)
    return {name: resolved[name] for name in options}


@dataclass(frozen=True)
class NewRoom:
    """A room to be created, its values checked (``Lobby.check_new_room``); its seed drawn."""

    game: Game
    num_seats: int
    options: dict[str, Any]
    host_name: str
    turn_seconds: int
    listed: bool
    hints: bool
    seed: str = field(repr=False)


class Lobby:
    def __init__(self, rooms: LiveGames, autopilot_grace: float = 60.0, again_hold: float = 120.0):
        self.rooms = rooms
        self.autopilot_grace = timedelta(seconds=autopilot_grace)
        self.again_hold = timedelta(seconds=again_hold)

    def check_new_room(
        self,
        game_slug: str,
        num_seats: int,
        options: dict[str, Any] | None,
        host_name: str,
        turn_seconds: Any = 0,
        listed: Any = True,
        hints: Any = False,
    ) -> NewRoom:
        """A room as :meth:`create` would open it, every value checked (400 ``bad_request``, 422
        ``unknown_field`` for an option the game lacks), nothing written: the rate limit counts
        only a creation that passes this (``app.rooms.throttle``)."""
        game = GAMES.get(game_slug) if isinstance(game_slug, str) else None
        if game is None:
            raise BadRequest(say("unknown game; choose one of: {games}", games=", ".join(sorted(GAMES))))
        if not isinstance(num_seats, int) or not game.takes(num_seats):
            raise BadRequest(
                say(
                    "{game} needs {least} to {most} seats",
                    game=game.title,
                    least=game.min_players,
                    most=game.max_players,
                )
            )
        if options is not None and not isinstance(options, dict):
            raise BadRequest("options must be an object")
        name = clean_name(host_name)
        if turn_seconds not in TURN_TIMER_PRESETS:
            presets = ", ".join(str(p) for p in TURN_TIMER_PRESETS)
            raise BadRequest(say("turn_timer must be one of (seconds, 0 = off): {presets}", presets=presets))
        if not isinstance(listed, bool):
            raise BadRequest("listed must be true or false")
        if not isinstance(hints, bool):
            raise BadRequest("hints must be true or false")
        seed = secrets.token_hex(16)
        try:
            game.setup(num_seats, dict(options or {}), seed)
        except UnknownOption as exc:
            raise UnknownField([f"options.{name}" for name in exc.names]) from None
        except ValueError as exc:  # (an OptionRefused says why in the reader's language)
            problem = exc.said if isinstance(exc, OptionRefused) else str(exc)
            raise BadRequest(say("invalid options: {problem}", problem=problem)) from None
        return NewRoom(game, num_seats, canonical_options(game, options or {}), name, turn_seconds, listed, hints, seed)

    async def create(self, room: NewRoom) -> tuple[RoomInfo, str]:
        """A new open room (checked by :meth:`check_new_room`) with its host in seat 0, and the
        host's token; an unlisted room (``listed`` False) is left out of the lobby, found only
        through its invite link. With ``hints`` its seats may ask for a suggested move
        (``app.rooms.hints``): chosen here, for good (no call changes a room's options
        afterwards)."""
        room_id, token = secrets.token_urlsafe(6), secrets.token_urlsafe(24)
        async with self.rooms.db.write() as session:
            await storage.add_room(
                session,
                room.host_name,
                hash_token(token),
                id=room_id,
                game=room.game.slug,
                options=room.options,
                seed=room.seed,
                seed_hash=seed_hash(room.seed),
                num_seats=room.num_seats,
                turn_seconds=room.turn_seconds or None,
                listed=room.listed,
                hints=room.hints,
            )
            await session.commit()
            info = await storage.load_room(session, room_id)
        return info, token

    async def join(self, room_id: str, name: Any, idempotency_key: Any = None) -> tuple[int, str, bool]:
        """Take the first free seat with ``name``; returns (seat, token, whether it was a resend).
        With an idempotency key the token is derived from it (``join_token``), so a resend with
        the same key and name finds the seat it took and answers the same seat and token; after
        the host reissued that seat's link it is refused (409), rather than taking another seat."""
        name = clean_name(name)
        check_key(idempotency_key, shortest=MIN_JOIN_KEY_LENGTH)
        info = await self.rooms.room(room_id)
        token = secrets.token_urlsafe(24) if idempotency_key is None else join_token(info, name, idempotency_key)
        async with self.rooms.changing(room_id) as (session, info):
            taken = info.token_hashes.get(hash_token(token))
            if taken is not None:  # the same key and name: this join landed already
                return taken, token, True
            if (
                idempotency_key is not None
                and await storage.retired_seat(session, room_id, hash_token(token)) is not None
            ):
                raise Conflict(
                    say("this join took a seat whose link the host has since reissued: ask the host for the new link")
                )
            key_hash = None if idempotency_key is None else hash_token(idempotency_key)
            if key_hash is not None and await storage.seat_joined_with(session, room_id, key_hash) is not None:
                raise KeyReused(say("that idempotency key was sent with another name: a new join needs a new key"))
            require_open(info, "this game has already started")
            seat = first_free_seat(info)
            require_unheld(info, seat)
            require_new_name(info, name)
            await storage.add_seat(session, room_id, seat, name, hash_token(token), join_key_hash=key_hash)
        return seat, token, False

    async def play_again(self, room_id: str, seat: int, token: str) -> tuple[str, str, bool]:
        """A player of a finished game plays again: (the next room, their seat token there,
        whether they had asked already). The first to ask opens the next room (same game,
        options, seats, names and bots, a new seed) as its host, and the finished room links to
        it; each player who asks takes their own seat there with a token only they are given
        (``again_token``). Seats whose players do not come wait ``again_hold`` for them, then
        are open to the invite link."""
        info = await self.rooms.room(room_id)
        next_room, opened = (
            (info.next_room, False) if info.next_room else await self._open_next_room(room_id, seat, token)
        )
        try:
            return await self._take_next_seat(next_room, room_id, seat, info.seats[seat], token, opened)
        except Conflict:
            # the same player asking through another instance at the same moment took it first
            self.rooms.forget(next_room)
            after = await self.rooms.room(next_room)
            again = again_token(after.seed, room_id, seat, token)
            if after.token_hashes.get(hash_token(again)) == seat:
                return next_room, again, True
            raise

    async def _take_next_seat(
        self, next_room: str, room_id: str, seat: int, name: str, token: str, opened: bool
    ) -> tuple[str, str, bool]:
        """The player's own seat in the next room, taken unless it is theirs already."""
        async with self.rooms.changing(next_room) as (session, after):
            again = again_token(after.seed, room_id, seat, token)
            if after.token_hashes.get(hash_token(again)) == seat:  # seated when opened, or asked before
                return next_room, again, not opened
            if after.status == "closed":
                raise Conflict("the next game was closed")
            require_open(after, "the next game has already started")
            if seat in after.seats:
                raise Conflict("your seat in the next game was taken while you were away")
            await storage.add_seat(session, next_room, seat, name, hash_token(again))
        return next_room, again, False

    async def _open_next_room(self, room_id: str, seat: int, token: str) -> tuple[str, bool]:
        """The room the finished room's players play again in, opened with ``seat`` as host
        (or the one another player opened first), and whether this call opened it."""
        async with self.rooms.changing(room_id) as (session, info):
            if info.status == "abandoned":  # (ended, but not played to its end)
                raise Conflict("a game closed before its end cannot be played again: create a new room")
            if info.status != "finished":
                raise Conflict("you can play again once the game has ended")
            if info.next_room is not None:
                return info.next_room, False
            seed, next_room = secrets.token_hex(16), secrets.token_urlsafe(6)
            bots = [
                {"seat": s, "name": info.seats[s], "token_hash": storage.BOT_TOKEN_HASH, "bot": info.bots.get(s)}
                for s in range(info.num_seats)
                if s not in info.humans
            ]
            host = {
                "seat": seat,
                "name": info.seats[seat],
                "token_hash": hash_token(again_token(seed, room_id, seat, token)),
            }
            opened = await storage.add_next_room(
                session,
                info,
                [*bots, host],
                utcnow() + self.again_hold,
                id=next_room,
                seed=seed,
                seed_hash=seed_hash(seed),
                host_seat=seat,
            )
        if opened:
            return next_room, True
        self.rooms.forget(room_id)  # another instance linked the room first: read its choice
        linked = (await self.rooms.room(room_id)).next_room
        if linked is None:
            raise Conflict("the next game could not be set up; try again")
        return linked, False

    async def leave(self, room_id: str, seat: int) -> None:
        """Give up a seat before the start; the host role passes to the next person, and a
        room with no person left closes."""
        async with self.rooms.changing(room_id) as (session, info):
            require_open(info, "you can only leave before the game starts")
            others = sorted(s for s in info.humans if s != seat)
            values: dict[str, Any] = {}
            if not others:
                values |= {"status": "closed", "closed_reason": "left"}
            elif seat == info.host_seat:
                values["host_seat"] = others[0]
            await storage.free_seat(session, room_id, seat, **values)

    async def close(self, room_id: str, by_seat: int) -> str:
        """The host closes the room: a waiting room is closed, a game in play abandoned (it
        leaves the lobby; its record and replay stay). Returns the room's new status; every
        page and program following the room is sent the change, with the reason."""
        async with self.rooms.changing(room_id) as (session, info):
            require_host(info, by_seat, say("only the host can close the room"))
            status = await close_as(session, info, "host")
        self.rooms.closed(room_id)
        return status

    async def add_bot(
        self, room_id: str, by_seat: int, level: Any, seat: Any = None, words: Callable[[str], str] = str
    ) -> int:
        """The host seats a bot of ``level`` in a free seat (the lowest one unless named), named
        in the host's language (``words``: its gettext, given by a page; a program's bots keep
        the English names), as a player would be: the name stays, and is one no seat holds."""
        check_level(level)
        async with self.rooms.changing(room_id) as (session, info):
            require_host(info, by_seat, say("only the host can add bots"))
            if seat is not None:
                require_seat(info.num_seats, seat)
            require_open(info, "bots can be added before the game starts")
            seat = first_free_seat(info) if seat is None else seat
            if seat not in info.free_seats:
                raise Conflict(say("seat {seat} is not free", seat=seat))
            require_unheld(info, seat)
            name = unused_name(info, words(BOT_SEAT_NAMES[level]).format(seat=seat + 1))
            await storage.add_seat(session, room_id, seat, name, bot=level)
        return seat

    async def remove_bot(self, room_id: str, by_seat: int, seat: int) -> None:
        """The host frees a bot's seat before the start."""
        async with self.rooms.changing(room_id) as (session, info):
            require_host(info, by_seat, say("only the host can remove bots"))
            require_seat(info.num_seats, seat)  # (and a number the database could not even hold)
            require_open(info, "bots can be removed before the game starts")
            if not await storage.free_bot_seat(session, room_id, seat):
                raise NotFound("no bot sits in that seat")

    async def set_autopilot(self, room_id: str, by_seat: int | None, seat: int, level: Any) -> None:
        """Hand ``seat`` to a bot of ``level``, or back to its owner (None). A player may do
        either for their own seat; the host may hand an absent player's seat to a bot
        (``_require_absent``); either bot stays until the player takes the seat back. The turn
        timer (``by_seat`` None) seats a stand-in when time runs out, which plays only until the
        player is back (``come_back``)."""
        if level is not None:
            check_level(level)
        async with self.rooms.changing(room_id) as (session, info):
            require_seat(info.num_seats, seat)
            if info.status not in IN_PLAY:
                raise Conflict("the game is over")
            if seat not in info.humans:
                raise NotFound("no player sits in that seat")
            host_replacing = by_seat == info.host_seat and level is not None
            if by_seat is not None and by_seat != seat and not host_replacing:
                if level is None:
                    raise Forbidden("only the seat's player can take it back")
                raise Forbidden("only the seat's player or the host can hand it to a bot")
            if by_seat is not None and by_seat != seat:
                await self._require_absent(session, info, seat)
            if not await storage.set_seat_bot(session, room_id, seat, level, until_back=by_seat is None):
                raise Conflict("the room changed just now; try again")  # (only a timer meets it)

    async def grace_left(self, room_id: str) -> dict[str, dict[int, float]]:
        """Each player's seconds left of the grace after their last sign of life, for the host's
        page: its "Let a bot play" button (``replace``: their join counted, as
        :meth:`_require_absent` does) and its "New link" (``reissue``: not counted, as
        :meth:`reissue` does) wait out only this (they waited the whole grace from the page's
        load, for a player gone for minutes, or not at all, to be refused)."""
        info = await self.rooms.room(room_id)
        async with self.rooms.db.read() as session:
            seen = {seat: await storage.last_seen_both(session, room_id, seat) for seat in info.humans}
        now, grace = utcnow(), self.autopilot_grace

        def left(at: datetime | None) -> float:
            return max(0.0, (at + grace - now).total_seconds()) if at else 0.0

        return {
            "replace": {seat: left(with_join) for seat, (with_join, _) in seen.items()},
            "reissue": {seat: left(without) for seat, (_, without) in seen.items()},
        }

    async def come_back(self, room_id: str, seat: int) -> bool:
        """The seat's player is back (a socket or stream of theirs opened, or they clicked or
        moved): a stand-in the turn timer seated gives the seat back. Whether one did (a bot
        the player or the host chose stays)."""
        return await take_back(self.rooms, room_id, seat)

    async def reissue(self, room_id: str, by_seat: int, seat: int) -> str:
        """The host gives an absent player's seat a new private link (they lost theirs): the
        seat's new token, which only the host is answered. The old token holds the seat no more
        from the commit on: its reads are refused, and its sockets and streams closed at the
        room's change (``app.api.events``). Refused for the host's own seat, a bot's, a seat
        whose player has a socket or stream open or has moved, read their view or had a socket
        open within the autopilot grace (the new link shows the host their hand), and a room whose
        game is over. Their join alone is no sign of life here: a player who never came to their
        seat may well have lost its link."""
        async with self.rooms.changing(room_id) as (session, info):
            require_host(info, by_seat, say("only the host can reissue a seat's link"))
            require_seat(info.num_seats, seat)
            if info.status not in IN_PLAY:
                raise Conflict("the game is over")
            if seat not in info.humans:
                raise NotFound("no player sits in that seat")
            if seat == by_seat:
                raise Conflict("that is your own seat: your link still works")
            if await seat_connected(session, room_id, seat):
                raise Conflict("that player is connected: only an absent player's link can be reissued")
            if self._seen_within_grace(await storage.last_seen(session, room_id, seat, joining=False)):
                raise Conflict(
                    say(
                        "that player was here within the last {grace} seconds: only an absent player's link "
                        "can be reissued",
                        grace=round(self.autopilot_grace.total_seconds()),
                    )
                )
            token = secrets.token_urlsafe(24)
            await storage.set_seat_token(session, room_id, seat, hash_token(token))
        return token

    def _seen_within_grace(self, seen: datetime | None) -> bool:
        return seen is not None and utcnow() - seen < self.autopilot_grace

    async def _require_absent(self, session: AsyncSession, info: RoomInfo, seat: int) -> None:
        """409 unless the seat's player is absent: no socket of theirs open, and none closed,
        no join and no move of theirs, within the grace period; or the seat is awaited and its
        turn time has run out."""
        now = utcnow()
        deadline = info.turn_deadline()
        if deadline is not None and deadline <= now:
            live = await self.rooms.catch_up(session, info)
            if seat in GAMES[info.game].public_to_act(live.state):  # (as everyone sees it awaited)
                return
        if self._seen_within_grace(await storage.last_seen(session, info.id, seat)):
            grace = round(self.autopilot_grace.total_seconds())
            raise Conflict(
                say(
                    "that player is here or was within the last {grace} seconds: only they can hand "
                    "their seat to a bot, unless their turn time runs out",
                    grace=grace,
                )
            )

    async def start(self, room_id: str, seat: int, idempotency_key: Any = None) -> bool:
        """The host starts the game; returns whether this was a resend: a start sent again with
        the key of the start that landed answers as that start did, not 409."""
        check_key(idempotency_key)
        async with self.rooms.changing(room_id) as (session, info):
            require_host(info, seat, say("only the host can start the game"))
            resent = idempotency_key is not None and info.status != "open"
            if resent and await storage.start_key(session, room_id) == idempotency_key:
                return True
            require_open(info, "this game has already started")
            require_unheld(info)
            if info.free_seats:
                free, seats = len(info.free_seats), info.num_seats
                raise Conflict(
                    say(
                        "{count} of the {seats} seats still free: seat a player or a bot in each first",
                        count=free,
                        seats=seats,
                    )
                )
            if not await storage.mark_started(session, room_id, idempotency_key):
                raise Conflict("this game has already started")
        return False
