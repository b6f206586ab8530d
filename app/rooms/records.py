"""Game records: building a finished game's record and checking one from first principles.

:func:`seed_hash` is the one definition of the commitment to a room's seed, published before
the deal (``Room.seed_hash``) and checked against the revealed seed here. A record holds the
game, the options, the seed, its published hash and every action in order, each marked ``bot``
if a bot chose it (a bot's seat, a stand-in or a player's autopilot; false in a record of moves
logged before that was kept, and optional in a file). :func:`verify_record`
checks that the seed matches the commitment shown before the deal, that
the actions form an unbroken sequence, that every one was legal for its seat when it was made
(the engine replays the whole game, deal and shuffles included, from the seed) and that the
replay ends with exactly the recorded result. It uses no database and no server. Actions are
read as a room's replay reads its log: a record exported before actions were strict may hold
5.0 or true for a listed 5 or 1.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from app.db.database import Database
from app.games.base import IllegalAction, Message, say, spoken
from app.games.registry import GAMES
from app.rooms import storage
from app.rooms.errors import BadRequest, Conflict
from app.rooms.model import RECORDED, clean_name, nested_deeper_than, states_after

RECORD_FORMAT = "troika-arena-record/1"


class RecordError(ValueError):
    """The record is malformed or does not replay to what it claims: ``said``, the reason as a
    message (a page says it in the reader's language), and its English text."""

    def __init__(self, said: Message):
        self.said = said
        super().__init__(spoken(said))


@dataclass(frozen=True)
class Verified:
    game: str
    players: int
    actions: int
    outcome: dict[str, Any] | None  # None: the game was abandoned


def seed_hash(seed: str) -> str:
    """The commitment to a room's seed: SHA-256 of its text, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


async def export(db: Database, room_id: str) -> dict[str, Any]:
    """The replayable record of a game over, finished or abandoned (closed before its end):
    seed, options, seats and every action (in its canonical form, which applying the log
    gives even for entries stored loosely before actions were strict)."""
    async with db.read() as session:
        info = await storage.load_room(session, room_id)
        if info.status not in RECORDED:
            raise Conflict("the record is available once the game has ended")
        rows = await storage.actions(session, room_id)
    game = GAMES[info.game]
    actions, state = [], game.setup(info.num_seats, info.options, info.seed)
    for action, after in states_after(game, state, [(row.seat, row.action) for row in rows]):
        actions.append(action)
        state = after
    outcome = game.outcome(state)
    return {
        "format": RECORD_FORMAT,
        "status": info.status,
        "room": info.id,
        "game": info.game,
        "num_players": info.num_seats,
        "options": info.options,
        "seed": info.seed,
        "seed_hash": info.seed_hash,
        "players": [info.seats.get(s) for s in range(info.num_seats)],
        "actions": [
            {"seq": r.seq, "seat": r.seat, "action": a, "bot": r.by_bot is True}
            for r, a in zip(rows, actions, strict=True)
        ],
        "outcome": outcome.to_json() if outcome else None,
    }


MAX_RECORD_DEPTH = 32  # objects and lists within one another: a record needs a handful


def parse_record(text: bytes | str) -> Any:
    """A record file's JSON (RecordError if it is not JSON, or nested deeper than any record is:
    comparing such values would recurse past Python's limit)."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):  # a UnicodeDecodeError is a ValueError
        raise RecordError(say("the file is not a JSON record")) from None
    if nested_deeper_than(record, MAX_RECORD_DEPTH):
        raise RecordError(say("the record is nested more than {depth} levels deep", depth=MAX_RECORD_DEPTH))
    return record


def _comparable(recomputed: dict[str, Any], recorded: Any) -> dict[str, Any]:
    """The recomputed outcome as a record holds it: one exported before outcomes named places
    has none (they follow from the rest), and its other fields must still match exactly."""
    if isinstance(recorded, dict) and "places" not in recorded:
        return {key: value for key, value in recomputed.items() if key != "places"}
    return recomputed


def check_names(record: dict[str, Any], players: int) -> None:
    """The record's room id and players' names, as a room's own are: an id as rooms are named,
    one name per seat, each a name a player could have chosen (``clean_name``: at most 24
    printable characters) or none. A replay shows them on every table and log line."""
    room = record.get("room")
    if room is not None and not (isinstance(room, str) and storage.ROOM_ID.fullmatch(room)):
        raise RecordError(say("room must be a room id"))
    names = record.get("players")
    if names is None:
        return
    if not isinstance(names, list) or len(names) != players:
        raise RecordError(say("players must list one name per seat"))
    for seat, name in enumerate(names):
        try:
            if name is not None and clean_name(name) != name:
                raise BadRequest("name must be trimmed")
        except BadRequest as exc:
            raise RecordError(say("the name of seat {seat}: {problem}", seat=seat, problem=exc.said)) from None


def verify_record(record: Any) -> Verified:
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(say("not a {format} record", format=RECORD_FORMAT))
    slug = record.get("game")
    game = GAMES.get(slug) if isinstance(slug, str) else None
    if game is None:
        raise RecordError(say("unknown game {game}", game=repr(record.get("game"))))
    seed = record.get("seed")
    if not isinstance(seed, str) or seed_hash(seed) != record.get("seed_hash"):
        raise RecordError(say("the seed does not match the commitment (seed_hash) shown before the deal"))
    try:
        state = game.setup(record["num_players"], record.get("options") or {}, seed)
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(say("the game cannot be set up from this record: {problem}", problem=str(exc))) from None
    check_names(record, record["num_players"])
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError(say("actions must be a list"))
    for expected_seq, entry in enumerate(actions, start=1):
        if not isinstance(entry, dict) or entry.get("seq") != expected_seq:
            raise RecordError(say("action {seq} is missing or out of order", seq=expected_seq))
        if not isinstance(entry.get("bot", False), bool):
            raise RecordError(say("action {seq}'s bot must be true or false", seq=expected_seq))
        try:
            _, state = game.play(state, entry["seat"], entry["action"], legacy=True)  # as replay reads a log
        except (IllegalAction, KeyError, TypeError) as exc:
            reason = exc.said if isinstance(exc, IllegalAction) else say("malformed ({problem})", problem=str(exc))
            raise RecordError(
                say(
                    "action {seq} by seat {seat} is illegal: {reason}",
                    seq=expected_seq,
                    seat=str(entry.get("seat")),
                    reason=reason,
                )
            ) from None
    outcome = game.outcome(state)
    if record.get("status", "finished") == "abandoned":  # closed before its end: it must not have ended
        if outcome is not None or record.get("outcome") is not None:
            raise RecordError(say("an abandoned game's actions must not finish it, nor its record have an outcome"))
        return Verified(game.slug, record["num_players"], len(actions), None)
    if record.get("status", "finished") != "finished":
        raise RecordError(say("status must be finished or abandoned"))
    if outcome is None:
        raise RecordError(say("the actions do not finish the game"))
    if _comparable(outcome.to_json(), record.get("outcome")) != record.get("outcome"):
        raise RecordError(say("the replayed result differs from the recorded outcome"))
    return Verified(game.slug, record["num_players"], len(actions), outcome.to_json())
