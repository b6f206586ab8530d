"""Replays: a game over (finished, or abandoned before its end) stepped through version by
version, from its record.

A :class:`Replay` is a game's record (``app.rooms.records``: game, options, seed, names and
every action in its canonical form) read once; :meth:`Replay.step` rebuilds the game at any
version from the seed, as the room itself was rebuilt, and says which log lines that version's
action added. A stored game's replay is made from its exported record, so it is available only
once the game has ended (the record refuses before: the seed and the hands stay hidden) and
works after a restart; an uploaded record file is verified as ``troika-arena verify`` does
before it is replayed. Both are kept in small bounded caches: a record never changes. A replay
keeps the game every ``CHECKPOINT_EVERY`` versions as it passes them (frozen, as a room holds
its game), so a step replays at most that many actions instead of the whole game.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from cachetools import LRUCache

from app.db.database import Database
from app.games.base import Action, State, visible_log
from app.games.registry import GAMES
from app.rooms import records, storage
from app.rooms.errors import Conflict, NotFound
from app.rooms.model import LiveGame, RoomInfo, apply_recorded, with_names
from app.rooms.views import seat_view

STORED_HELD = 32  # replays of stored games kept (a record is read once per game, not per step)
UPLOADED_HELD = 16  # verified record files kept, by the SHA-256 of their text
MAX_RECORD_BYTES = 1024 * 1024  # a record file as uploaded: a custom deck's 512 KB and the actions
# a replay keeps the game at every 32nd version: a step then replays at most 32 actions (about
# 1 ms) rather than up to the whole game (8 ms for an advanced Vem aí game of 220), and a game of
# 220 actions keeps 7 frozen states, about 200 KB
CHECKPOINT_EVERY = 32


@dataclass(frozen=True)
class Step:
    """The game at one version: the room's facts and game then, and which log entries (counted
    among those the viewer may read) the version's action added."""

    info: RoomInfo
    live: LiveGame
    state: State
    before: State | None  # the state before the step's action (None at version 0)

    def log(self, seat: int | None) -> tuple[list[dict[str, Any]], int]:
        """The log ``seat`` (None: a spectator) could read at this version, with names, and
        how many of its entries came before this version's action."""
        now = visible_log(self.state.get("log", []), seat)
        earlier = 0 if self.before is None else len(visible_log(self.before.get("log", []), seat))
        return with_names(now, self.info.seats), earlier

    def payload(self, seat: int | None) -> dict[str, Any]:
        """The seat's payload (None: a spectator's) at this version, with no move offered."""
        return {**seat_view(self.info, self.live, seat), "legal_actions": [], "your_turn": False}


@dataclass(frozen=True)
class Replay:
    """A finished game's record, ready to be stepped through."""

    room: str | None
    game: str
    num_players: int
    options: dict[str, Any]
    seed: str
    seed_hash: str
    names: dict[int, str]
    actions: list[tuple[int, Action]]
    by_bot: frozenset[int] = frozenset()  # the steps (versions) whose move a bot chose
    ended: str = "finished"  # or abandoned: closed before its end
    checkpoints: dict[int, LiveGame] = field(default_factory=dict, compare=False, repr=False)
    facts: RoomInfo | None = field(default=None, compare=False, repr=False)  # a stored room's own

    @classmethod
    def of(cls, record: dict[str, Any]) -> Replay:
        """The replay of a record that verified (``records.verify_record``) or was exported."""
        players = record.get("players") or []
        names = {s: name if isinstance(name, str) else f"Seat {s + 1}" for s, name in enumerate(players)}
        names.update({s: f"Seat {s + 1}" for s in range(record["num_players"]) if s not in names})
        return cls(
            room=record.get("room") if isinstance(record.get("room"), str) else None,
            game=record["game"],
            num_players=record["num_players"],
            options=record.get("options") or {},
            seed=record["seed"],
            seed_hash=record["seed_hash"],
            names=names,
            actions=[(entry["seat"], entry["action"]) for entry in record["actions"]],
            by_bot=frozenset(step for step, entry in enumerate(record["actions"], start=1) if entry.get("bot") is True),
            ended="abandoned" if record.get("status") == "abandoned" else "finished",
        )

    @property
    def last(self) -> int:
        return len(self.actions)

    def step(self, version: int) -> Step:
        """The game after the first ``version`` actions (clamped to the record's range)."""
        version = max(0, min(version, self.last))
        game = GAMES[self.game]
        live, before = self.at(max(version - 1, 0)), None
        if version:
            before = live.state
            apply_recorded(game, live, self.actions[version - 1 : version])
        state = live.state
        status = self.status_at(version, game.outcome(state) is not None)
        if self.facts is not None:  # a stored room: its own facts (seats, bots, seed...), at this step
            facts = replace(self.facts, status=status, version=version, turn_started_at=None)
            return Step(facts, live, state, before)
        info = RoomInfo(
            id=self.room or "record",
            game=self.game,
            title=game.title,
            options=self.options,
            num_seats=self.num_players,
            host_seat=0,
            status=status,
            version=version,
            seed_hash=self.seed_hash,
            seats=dict(self.names),
        )
        return Step(info, live, state, before)

    def status_at(self, version: int, over: bool) -> str:
        """The room's status at ``version``: playing until the end, then finished (or abandoned)."""
        if over:
            return "finished"
        return self.ended if version == self.last and self.ended == "abandoned" else "playing"

    def at(self, version: int) -> LiveGame:
        """The game after the first ``version`` actions, rebuilt from the nearest checkpoint
        at or before it; the checkpoints passed on the way are kept."""
        game = GAMES[self.game]
        if 0 not in self.checkpoints:
            self.checkpoints[0] = LiveGame.begin(game, game.setup(self.num_players, self.options, self.seed))
        start = max(k for k in self.checkpoints if k <= version)
        live = copied(self.checkpoints[start])
        for mark in range(start + CHECKPOINT_EVERY, version + 1, CHECKPOINT_EVERY):
            apply_recorded(game, live, self.actions[live.version : mark])
            self.checkpoints[mark] = copied(live)
        apply_recorded(game, live, self.actions[live.version : version])
        return live


def copied(live: LiveGame) -> LiveGame:
    """A copy of a game to move on, the kept one left as it is (its state is frozen bytes)."""
    return replace(live, awaited=list(live.awaited), seats_by_version=list(live.seats_by_version))


class Replays:
    """Replays of stored games by room, and of uploaded record files by their digest."""

    def __init__(self, db: Database):
        self.db = db
        self._stored: LRUCache[str, Replay] = LRUCache(STORED_HELD)  # the most recently used kept
        self._uploaded: LRUCache[str, Replay] = LRUCache(UPLOADED_HELD)

    async def of_room(self, room_id: str) -> Replay:
        """A finished game's replay (404 for no room, 409 before its end, from the record)."""
        held = self._stored.get(room_id)
        if held is None:
            try:
                record = await records.export(self.db, room_id)
            except Conflict:
                raise Conflict("the replay opens once the game has ended") from None
            async with self.db.read() as session:
                held = self._stored[room_id] = replace(
                    Replay.of(record), facts=await storage.load_room(session, room_id)
                )
        return held

    def upload(self, text: bytes) -> str:
        """Verify an uploaded record file (``records.RecordError`` with the reason if it does
        not verify) and keep it; returns its key, the SHA-256 of its text."""
        record = records.parse_record(text)
        records.verify_record(record)
        key = hashlib.sha256(text).hexdigest()
        self._uploaded[key] = Replay.of(record)
        return key

    def uploaded(self, key: str) -> Replay:
        held = self._uploaded.get(key)
        if held is None:
            raise NotFound("that record file is not open here (any more): open it again")
        return held
