"""Play: one move for one seat, whoever sends it (browser, API, bot), applied at most once.

A move is validated by the engine (``Game.play``), checked against the version rule
(``app.rooms.model.check_version``), appended with the next sequence number in the same round
trip that moves the room's version on (a concurrent duplicate breaks the unique key or finds the
version moved) and only then published. An idempotency key makes a resent move answer its first
result (the version it landed at, whose payload ``LiveGames.game_at`` rebuilds), and refuses
another move sent with the same key. The write itself checks that the seat has not used the key
(``app.rooms.storage``), so a move is played without a read; only a refused move looks its key
up, to tell a resend (answered with its first result) from a true refusal.
"""

from __future__ import annotations

from typing import Any

from app.db.models import ActionRecord, utcnow
from app.games.base import IllegalAction
from app.games.registry import GAMES
from app.reading import canonical_json
from app.rooms import storage
from app.rooms.errors import Conflict, Illegal, KeyReused, RoomError, Stale
from app.rooms.live_games import LiveGames
from app.rooms.lobby import take_back
from app.rooms.model import Move, RoomInfo, advance, check_version


def first_result(earlier: ActionRecord, action: Any, version: int, current: int) -> int:
    """The version a keyed move landed at, when this is the same move sent again: the same
    action, JSON types and all, made against the same version (not known for moves logged
    before versions were kept with them); any other move with that key is refused."""
    same_version = earlier.from_version is None or earlier.from_version == version
    if not same_version or canonical_json(earlier.action) != canonical_json(action):
        raise KeyReused("this key was used for another move", version=current)
    return earlier.seq


class Play:
    def __init__(self, rooms: LiveGames):
        self.rooms = rooms

    async def act(self, room_id: str, seat: int, move: Move, as_bot: bool = False) -> tuple[int, bool]:
        """Apply one move for ``seat``; returns (new version, whether it was a resend).
        ``as_bot``: a bot's move, refused if the seat's owner has taken the seat back."""
        if not as_bot:  # the player is back: a stand-in the turn timer seated gives the seat back
            await take_back(self.rooms, room_id, seat)
        async with self.rooms.lock(room_id):
            info = await self.rooms.room(room_id)
            try:
                return await self.apply(info, seat, move.action, move.version, move.key, as_bot), False
            except RoomError:
                if not move.key:
                    raise
                async with self.rooms.db.read() as session:  # refused: perhaps a resend
                    earlier = await storage.keyed_move(session, room_id, seat, move.key)
                if earlier is None:
                    raise
                stored = GAMES[info.game].stored_form(move.action)  # a campaign's cards in order, say
                current = (await self.rooms.room(room_id)).version
                return first_result(earlier, stored, move.version, current), True

    async def apply(
        self, info: RoomInfo, seat: int, action: Any, version: int, idempotency_key: str | None, as_bot: bool
    ) -> int:
        """Check and play the move on the room as it is (its lock held), write it, publish it;
        the new version. A move whose key the seat used before is refused like a stale one."""
        rooms = self.rooms
        if info.status == "open":
            raise Conflict("the game has not started yet", version=info.version)
        if info.status != "playing":
            raise Conflict("the game is over", version=info.version)
        if as_bot and seat not in info.bots:
            raise Conflict("the seat's owner took it back", version=info.version)
        live = await rooms.caught_up(info)  # reads the log only if this instance is behind
        check_version(live, seat, version)
        game = GAMES[info.game]
        try:
            action, new_state = game.play(live.state, seat, action)  # stored as the engine lists it
        except IllegalAction as exc:
            raise Illegal(exc.said, version=live.version) from None
        status = "finished" if game.outcome(new_state) is not None else "playing"
        now = utcnow()
        seen = live.version
        if not await storage.write_move(
            rooms.db, info.id, seat, action, seen, status, version, idempotency_key, now, by_bot=as_bot
        ):
            rooms.forget(info.id)
            raise Stale("another move landed first", version=await storage.current_version(rooms.db, info.id))
        if live.version == seen:  # else a reader caught the held game up from the log meanwhile
            advance(game, live, seat, new_state)
        await rooms.moved(info, live.version, status, now)
        return live.version
