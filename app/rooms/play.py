"""Play: one move for one seat, whoever sends it (browser, API, bot), applied at most once.

A move is validated by the engine (``Game.play``), checked against the version rule
(``app.rooms.model.check_version``), appended with the next sequence number in the same round
trip that moves the room's version on (a concurrent duplicate breaks the unique key or finds the
version moved) and only then published. An idempotency key makes a resent move answer its first
result (the version it landed at, whose payload ``LiveGames.game_at`` rebuilds), and refuses
another move sent with the same key.
"""

from __future__ import annotations

import json
from typing import Any

from app.db.models import ActionRecord, utcnow
from app.games.base import IllegalAction
from app.games.registry import GAMES
from app.rooms import storage
from app.rooms.errors import BadRequest, Conflict, Illegal, KeyReused, Stale
from app.rooms.live_games import LiveGames
from app.rooms.model import advance, check_action, check_key, check_version


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


class Play:
    def __init__(self, games: LiveGames):
        self.games = games

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
        check_action(action)
        check_key(idempotency_key)
        games = self.games
        async with games.lock(room_id):
            info = await games.room(room_id)
            if idempotency_key:
                async with games.db.read() as session:
                    earlier = await storage.keyed_move(session, room_id, seat, idempotency_key)
                if earlier is not None:
                    stored = GAMES[info.game].stored_form(action)  # a campaign's cards in order, say
                    return first_result(earlier, stored, version, info.version), True
            if info.status == "open":
                raise Conflict("the game has not started yet", version=info.version)
            if info.status != "playing":
                raise Conflict("the game is over", version=info.version)
            if as_bot and seat not in info.bots:
                raise Conflict("the seat's owner took it back", version=info.version)
            live = await games.caught_up(info)  # reads the log only if this instance is behind
            check_version(live, seat, version)
            game = GAMES[info.game]
            try:
                action, new_state = game.play(live.state, seat, action)  # stored as the engine lists it
            except IllegalAction as exc:
                raise Illegal(exc.said, version=live.version) from None
            status = "finished" if game.outcome(new_state) is not None else "playing"
            now = utcnow()
            if not await storage.write_move(
                games.db, room_id, seat, action, live.version, status, version, idempotency_key, now
            ):
                games.forget(room_id)
                raise Stale("another move landed first", version=await storage.current_version(games.db, room_id))
            advance(game, live, seat, new_state)
            await games.moved(info, live.version, status, now)
        return live.version, False
