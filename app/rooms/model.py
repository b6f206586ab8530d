"""What the room core works with: a room's public facts (``RoomInfo``), its game rebuilt
from the log (``LiveGame``) with the rule that decides whether a move made against an older
version may still land, and small pure helpers for names, tokens and times. Values only: this
module knows the engine contract (``app.games.base``), not which games exist.

Version rule: a submission names the version it was made against. It lands if that is the
current version, or, in a simultaneous phase, if every action since was another seat's and the
submitting seat has been awaited all along (so independent commitments never reject each other).
Anything else is stale and answered 409 with the current version.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, overload

from app.games.base import SEAT_MENTION, Action, Game, State, freeze, public_options, say, thaw
from app.rooms.errors import BadRequest, NotFound, Stale

MAX_NAME_LENGTH = 24
MAX_KEY_LENGTH = 64
MAX_ACTION_DEPTH = 8  # objects and lists within one another; an action needs two (cards in a list)
BOT_LEVELS = ("random", "strong", "expert")  # the bots a room can seat (``app.bots`` plays each)
# A room's statuses: open (waiting for players), playing, finished (the game ended), closed
# (before the start: everyone left, the host closed it or it stood idle) and abandoned (a game
# in play closed by its host or for standing idle). A game over, finished or abandoned, has its
# seed revealed and its record exported; only a room in play changes.
IN_PLAY = ("open", "playing")
RECORDED = ("finished", "abandoned")
ENDED = ("finished", "closed", "abandoned")


Names = tuple[tuple[int, str], ...]  # the players' names by seat, as a cache key


def with_names(entries: list[dict[str, Any]], names: dict[int, str]) -> list[dict[str, Any]]:
    """Log entries with the engines' "Seat N" mentions replaced by the players' names, in their
    text and their message's arguments alike."""
    key = tuple(sorted(names.items()))
    return [{**e, "text": named(e["text"], key), "args": named_args(e["args"], key)} for e in entries]


def named_args(args: dict[str, Any], names: Names) -> dict[str, Any]:
    """A message's arguments with the seat mentions in them (at any depth) named: a client that
    says the message from ``msg`` and ``args`` shows the names its text shows."""
    return {name: named_value(value, names) for name, value in args.items()}


def named_value(value: Any, names: Names) -> Any:
    if isinstance(value, str):
        return named(value, names)
    if isinstance(value, dict) and "args" in value:
        return {**value, "args": named_args(value["args"], names)}
    if isinstance(value, list):
        return [named_value(item, names) for item in value]
    return value


def named(text: str, names: Names) -> str:
    """One log line (or label) with its "Seat N" mentions replaced by the players' names."""
    lookup = dict(names)
    return SEAT_MENTION.sub(lambda match: lookup.get(int(match.group(1)), match.group(0)), text)


@overload
def aware(moment: datetime) -> datetime: ...
@overload
def aware(moment: None) -> None: ...
def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return moment.replace(tzinfo=UTC) if moment and moment.tzinfo is None else moment


def hold_running(held_until: datetime | None, now: datetime | None = None) -> bool:
    """Whether a play-again hold that ends at ``held_until`` (None: no hold) still runs."""
    return held_until is not None and (now or datetime.now(UTC)) < aware(held_until)


def iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# Unicode's default-ignorable characters that ``str.isprintable`` lets through: drawn as nothing
# (a combining grapheme joiner, Hangul fillers, Khmer and Mongolian marks, variation selectors)
INVISIBLE = dict.fromkeys(
    [0x34F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x3164, *range(0xFE00, 0xFE10), 0xFFA0]
    + list(range(0xE0100, 0xE01F0))
)


def clean_name(name: Any) -> str:
    """A display name: trimmed, 1 to 24 printable characters (HTML is escaped on output)."""
    if name is None:
        raise BadRequest("name is required")
    if not isinstance(name, str):
        raise BadRequest("name must be text")
    name = " ".join(name.split())
    if not name.translate(INVISIBLE).strip():
        raise BadRequest("name must not be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise BadRequest(say("name must be at most {most} characters", most=MAX_NAME_LENGTH))
    if any(not ch.isprintable() for ch in name):
        raise BadRequest("name must contain only printable characters")
    if len(alphabets(name)) > 1:
        raise BadRequest("name must not mix Latin, Greek and Cyrillic letters, which can look alike")
    return name


LOOK_ALIKE_ALPHABETS = ("LATIN", "GREEK", "CYRILLIC")  # each has letters drawn as another's are


def alphabets(name: str) -> set[str]:
    """Which of :data:`LOOK_ALIKE_ALPHABETS` the letters of ``name`` come from (in Unicode's
    compatibility form). A name mixing them could pass for another player's: "Ana" with a
    Cyrillic A (U+0410) reads as "Ana"."""
    letters = (ch for ch in unicodedata.normalize("NFKC", name) if ch.isalpha())
    return {script for ch in letters for script in LOOK_ALIKE_ALPHABETS if script in unicodedata.name(ch, "").split()}


def require_seat(num_seats: int, seat: int) -> None:
    """404 for a seat number a room of ``num_seats`` does not have, on every call that names a
    seat (seating a bot, removing one, autopilot, a reissued link, a replay's or a review's
    seat), checked before the room's state: a number out of range is no seat at all, whatever
    the room is doing."""
    if seat not in range(num_seats):
        raise NotFound(say("no such seat: this room's seats are 0 to {last}", last=num_seats - 1))


def check_key(key: Any, shortest: int = 1) -> None:
    """An idempotency key, when given: ``shortest`` to 64 printable characters (no NUL or lone
    surrogate, which a database would refuse to store)."""
    if key is not None and (
        not isinstance(key, str) or not shortest <= len(key) <= MAX_KEY_LENGTH or not key.isprintable()
    ):
        raise BadRequest(f"idempotency_key must be text of {shortest} to {MAX_KEY_LENGTH} printable characters")


def check_action(action: Any) -> None:
    """An action as a move needs it: an object, nested at most MAX_ACTION_DEPTH deep. A deeper
    one (a thousand levels fit in a small body) would reach code that recurses (comparing it
    with the listed actions, writing it as JSON) and is refused here, read without recursion."""
    if not isinstance(action, dict):
        raise BadRequest("action must be an object with a 'type' field")
    if nested_deeper_than(action, MAX_ACTION_DEPTH):
        raise BadRequest(f"action must not be nested more than {MAX_ACTION_DEPTH} levels deep")


def nested_deeper_than(value: Any, limit: int) -> bool:
    """Whether JSON ``value`` nests objects and lists more than ``limit`` levels deep, found
    without recursion (the value may be too deep for Python's recursion limit)."""
    pending: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, dict | list) else []
    while pending:
        item, depth = pending.pop()
        if depth > limit:
            return True
        inner = item.values() if isinstance(item, dict) else item
        pending.extend((child, depth + 1) for child in inner if isinstance(child, dict | list))
    return False


@dataclass(frozen=True, slots=True)
class Move:
    """One move, read once where it comes in (a program's body, a click's fields) or as a bot
    chose it: its action (an object no deeper than an action needs), the version of the view
    it was chosen from, and its idempotency key. ``Play.act`` and what follows take it as read;
    only the engine rules on the action itself (``Game.play``: listed, or its fields read by
    its type's schema)."""

    action: Action
    version: int
    key: str | None = None

    @classmethod
    def read(cls, action: Any, version: Any, key: Any = None) -> Move:
        """The move of these fields, or BadRequest naming the first one that is not right."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("version must be the whole number of the view you acted on")
        check_action(action)
        check_key(key)
        return cls(action, version, key)


@dataclass
class RoomInfo:
    """Public facts about a room: safe to show anyone (the seed stays out until the end)."""

    id: str
    game: str
    title: str
    options: dict[str, Any]
    num_seats: int
    host_seat: int
    status: str
    version: int
    seed_hash: str
    seats: dict[int, str]
    turn_seconds: int | None = None
    turn_started_at: datetime | None = None
    updated_at: datetime | None = field(repr=False, default=None)
    bots: dict[int, str] = field(default_factory=dict)
    stand_ins: set[int] = field(default_factory=set)  # seats whose bot plays only until the player is back
    humans: set[int] = field(default_factory=set)
    listed: bool = True
    hints: bool = False  # the seats may ask for a hint (app.rooms.hints), as chosen at creation
    next_room: str | None = None
    held_until: datetime | None = None
    waiting_for: dict[int, str] = field(default_factory=dict)  # a room played again: the last game's players' seats
    closed_reason: str | None = None  # why a closed or abandoned room closed: left, host or idle
    seed: str = field(repr=False, default="")
    token_hashes: dict[str, int] = field(repr=False, default_factory=dict)

    @property
    def free_seats(self) -> list[int]:
        return [s for s in range(self.num_seats) if s not in self.seats]

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "title": self.title,
            "options": public_options(self.options),
            "num_seats": self.num_seats,
            "seats": [
                {
                    "seat": s,
                    "name": self.seats.get(s),
                    "host": s == self.host_seat,
                    "bot": self.bots.get(s),
                    "stand_in": s in self.stand_ins,
                    "human": s in self.humans,
                    "held_for": self.held_seats().get(s),
                }
                for s in range(self.num_seats)
            ],
            "status": self.status,
            "version": self.version,
            "seed_hash": self.seed_hash,
            "seed": self.seed if self.status in RECORDED else None,
            "turn_seconds": self.turn_seconds,
            "turn_deadline": iso(self.turn_deadline()),
            "listed": self.listed,
            "hints": self.hints,
            "next_room": self.next_room,
            "held_until": iso(self.held_until),
            "closed_reason": self.closed_reason,
        }

    def held(self, now: datetime | None = None) -> bool:
        """Whether some free seat still waits for its player of the game before (play again)."""
        return bool(self.held_seats(now))

    def held_seats(self, now: datetime | None = None) -> dict[int, str]:
        """The free seats that still wait for the last game's players, with their names: until
        ``held_until``, a seat a player of the game before held and has not taken again (a seat
        a bot left, or the host freed, waits for no one)."""
        if not hold_running(self.held_until, now):
            return {}
        return {seat: name for seat, name in self.waiting_for.items() if seat not in self.seats}

    def turn_deadline(self) -> datetime | None:
        """When the seats awaited now run out of time (None without a turn timer)."""
        if self.status != "playing" or not self.turn_seconds or self.turn_started_at is None:
            return None
        return self.turn_started_at + timedelta(seconds=self.turn_seconds)


@dataclass
class LiveGame:
    """A room's rebuilt game state, and which seats were awaited at each version.

    The state is held frozen (JSON bytes) and thawed afresh on each read; the parts the game
    declares fixed (``Game.fixed_keys``, e.g. a deck's card definitions) are held once, as
    they are, beside it. Held as objects, the states of a thousand rooms were some 100,000
    containers, each replaced by a move a few seconds later: too long-lived to die before a
    garbage collection of the youngest generation, so every such collection walked them all
    (pauses of 100 ms and more). Every read thaws its own copy, the first after a move too: a
    long game's state thaws in 40 to 160 µs (Vem aí's, 36 KB, the longest), once per change,
    as the views of all seats are built together (``app.rooms.views``)."""

    version: int
    frozen: bytes
    fixed: dict[str, Any]
    awaited: list[frozenset[int]]
    seats_by_version: list[int]

    @classmethod
    def begin(cls, game: Game, state: State) -> LiveGame:
        """A game at version 0, from the state ``game.setup`` made."""
        fixed = {key: state[key] for key in game.fixed_keys}
        return cls(0, freeze_moving(state, fixed), fixed, [frozenset(game.to_act(state))], [])

    @property
    def state(self) -> State:
        """The current state: a fresh copy, the caller's to keep or change, except for its
        fixed parts, which are shared and read-only (as for the engines, which never change
        their input)."""
        state = thaw(self.frozen)
        state.update(self.fixed)
        return state

    def hold(self, state: State) -> None:
        """Make ``state`` (frozen now: the caller may go on using it) the current state."""
        self.frozen = freeze_moving(state, self.fixed)


def freeze_moving(state: State, fixed: dict[str, Any]) -> bytes:
    """The state without its fixed parts, frozen."""
    return freeze({key: value for key, value in state.items() if key not in fixed} if fixed else state)


def advance(game: Game, live: LiveGame, seat: int, new_state: State) -> None:
    """Move the cached game one action forward: ``new_state`` is the state after the action."""
    moved(live, new_state, [seat], [frozenset(game.to_act(new_state))])


def apply_recorded(game: Game, live: LiveGame, actions: list[tuple[int, Action]]) -> None:
    """Apply logged actions in order, thawing and freezing the state once for them all; the
    cached game changes only if every action applies."""
    if not actions:
        return
    state = live.state
    awaited = []
    for _, after in states_after(game, state, actions):
        awaited.append(frozenset(game.to_act(after)))
        state = after
    moved(live, state, [seat for seat, _ in actions], awaited)


def states_after(game: Game, state: State, actions: list[tuple[int, Action]]) -> Iterator[tuple[Action, State]]:
    """Each logged action in its canonical form, with the state after it. A log may hold
    entries stored before actions were strict (5.0 or true for a listed 5 or 1, which the
    engines then took as equal): each is read as the listed action it stood for."""
    for seat, action in actions:
        action, state = game.play(state, seat, action, legacy=True)
        yield action, state


def moved(live: LiveGame, state: State, seats: list[int], awaited: list[frozenset[int]]) -> None:
    """Record actions by ``seats`` that led to ``state``, and whom each new version awaits."""
    live.hold(state)
    live.version += len(seats)
    live.seats_by_version.extend(seats)
    live.awaited.extend(awaited)


def check_version(live: LiveGame, seat: int, version: int) -> None:
    """Raise Conflict unless an action made against ``version`` may still land (module doc)."""
    if version == live.version:
        return
    if not 0 <= version < live.version:  # a version the game never had: not a view out of date
        raise Stale(
            say("the game has no version {version}: it is at {current}", version=version, current=live.version),
            version=live.version,
        )
    stale = Stale(
        say(
            "your view is out of date (you acted on version {version}, the game is at {current}); reload and try again",
            version=version,
            current=live.version,
        ),
        version=live.version,
    )
    since = live.seats_by_version[version:]
    continuously_awaited = all(seat in awaited for awaited in live.awaited[version:])
    if seat in since or not continuously_awaited:
        raise stale
