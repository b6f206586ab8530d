"""What one seat (or a spectator) is shown of a room: the single source for API and web views.

Everything here is built from the engine's per-seat views and the seat's own legal actions;
the seed appears only once the game is over. :class:`Payloads` builds each seat's payload once
per change of the room rather than once per reader, and each text made of it (the JSON the
live sockets and the API send, the HTML fragments of ``app.web.delivery``) once per format.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from cachetools import LRUCache

from app.games.base import Action, Game, Message, State, seen_by, spoken
from app.games.registry import GAMES
from app.rooms.live_games import LiveGames
from app.rooms.model import LiveGame, Names, RoomInfo, named_args
from app.rooms.social import Social

T = TypeVar("T")
LOG_TAIL = 30
LINES_KEPT = 2 * LOG_TAIL  # a room's latest log lines kept from build to build (NamedLines)
ROOMS_HELD = 256  # rooms whose latest payloads are kept (a move's readers all come within ms)
JSON = "json"  # the payload as JSON text (``Made.kind``)


def seat_view(
    info: RoomInfo, live: LiveGame | None, seat: int | None, connected: frozenset[int] = frozenset()
) -> dict[str, Any]:
    """The whole payload for ``seat`` (None: spectator) at the room's current version;
    ``connected`` lists the seats with an open socket (presence)."""
    return seat_views(info, live, [seat], connected)[seat]


def seat_views(
    info: RoomInfo,
    live: LiveGame | None,
    seats: Iterable[int | None],
    connected: frozenset[int] = frozenset(),
    named: NamedLines | None = None,
) -> dict[int | None, dict[str, Any]]:
    """:func:`seat_view` for several seats, sharing what they have in common (the room's facts,
    the engine's public part of the views); the payloads are read-only. ``named``: the room's
    log lines made by earlier builds, to use again (and to add this build's to)."""
    seats = list(seats)
    room = info.public()
    present = sorted(connected)
    if live is None:
        return {
            seat: {
                "room": room,
                "version": info.version,
                "seat": seat,
                "status": info.status,
                "to_act": [],
                "your_turn": False,
                "view": None,
                "legal_actions": [],
                "log": [],
                "log_total": 0,
                "outcome": None,
                "connected": present,
            }
            for seat in seats
        }
    game = GAMES[info.game]
    state = live.state
    in_play = info.status == "playing"  # an abandoned game awaits no one any more
    awaited, public = (game.to_act(state), game.public_to_act(state)) if in_play else (set(), set())
    outcome = game.outcome(state)
    shown = game.views(state, seats)
    lines = LogLines(state.get("log", []), info.seats, named)
    payloads = {}
    for seat in seats:
        legal = labelled_legal_actions(game, state, seat, awaited, lines.names)
        payloads[seat] = {
            "room": room,
            "version": live.version,
            "seat": seat,
            "status": info.status,
            "to_act": sorted(seen_by(public, awaited, seat)),
            "your_turn": bool(legal),
            "view": shown[seat],
            "legal_actions": legal,
            "log": lines.tail(seat, LOG_TAIL),
            "log_total": lines.readable(seat),
            "outcome": outcome.to_json() if outcome else None,
            "connected": present,
        }
    return payloads


class NamedLines(dict[int, bytes]):
    """A room's log lines as made for its readers (:meth:`LogLines.line`), by their place in the
    log, as JSON text, for the players' ``names`` they were made with. A logged entry never
    changes and a room's log only grows (the engine contract: ``app.games.base.moving_copy``),
    so a room's build after a move makes only the lines that are new. One per room (``Built``:
    each build hands it on to the next), holding lines of the last ``LINES_KEPT`` places of the
    log only (an older line a tail still shows is made again) and gone with its build; nothing
    is shared between rooms. Text, not objects: a held container is one more for every
    garbage collection to walk (``Built``)."""

    def __init__(self, names: Names):
        super().__init__()
        self.names = names


class LogLines:
    """The log as the seats of one change are shown it. Each line a seat may read is made once
    (its English text, the seats it mentions named, without ``to``: ``visible_log`` then
    ``with_names``) and shared, read-only, by every seat that may read it; most lines are
    public, so a room's seats and spectators no longer each say the same 30 lines again. The
    room's earlier builds' lines come from ``named`` (:class:`NamedLines`), which keeps this
    build's too; other names empty it first."""

    def __init__(self, log: list[dict[str, Any]], names: dict[int, str], named: NamedLines | None = None):
        self.log, self.names = log, tuple(sorted(names.items()))  # (Names)
        if named is None:
            named = NamedLines(self.names)
        elif named.names != self.names:  # a seat's player changed: every line is made afresh
            named.clear()
            named.names = self.names
        oldest = len(log) - LINES_KEPT
        if named and min(named) < oldest:
            for index in [index for index in named if index < oldest]:
                del named[index]
        self.named = named
        self.made: dict[int, dict[str, Any]] = {}
        self.public = sum(1 for entry in log if entry["to"] is None)
        self.private = [entry["to"] for entry in log if entry["to"] is not None]

    def tail(self, seat: int | None, last: int) -> list[dict[str, Any]]:
        """The last ``last`` lines ``seat`` may read (None: a spectator, the public ones), oldest
        first, found from the end without reading the rest."""
        chosen: list[int] = []
        for index in range(len(self.log) - 1, -1, -1):
            if len(chosen) == last:
                break
            to = self.log[index]["to"]
            if to is None or (seat is not None and seat in to):
                chosen.append(index)
        return [self.line(index) for index in reversed(chosen)]

    def line(self, index: int) -> dict[str, Any]:
        line = self.made.get(index)
        if line is None:
            kept = self.named.get(index)
            if kept is None:
                entry = self.log[index]
                line = {key: value for key, value in entry.items() if key != "to"}
                line["args"] = named_args(line["args"], self.names)
                line = {"text": spoken(line), **line}
                self.named[index] = orjson.dumps(line)
            else:
                line = orjson.loads(kept)
            self.made[index] = line
        return line

    def readable(self, seat: int | None) -> int:
        """How many lines the seat may read (a spectator: the public ones), so the tail in the
        payload is numbered as in the whole log."""
        return self.public + (0 if seat is None else sum(1 for to in self.private if seat in to))


def labelled_legal_actions(
    game: Game, state: State, seat: int | None, to_act: Iterable[int], names: Names
) -> list[dict[str, Any]]:
    """The seat's legal actions, each with its button label: its English text, and the message
    it is made of (its ``msg`` id and ``args``) for a reader of another language, the players
    named (``names``) where the engine says "Seat N". None for a spectator or a seat not awaited."""
    legal = game.legal_actions(state, seat) if seat is not None and seat in to_act else []
    return [labelled(a, game.label(a, state), names) for a in legal]


def labelled(action: Action, label: Message, names: Names) -> dict[str, Any]:
    args = named_args(label["args"], names)
    return {"action": action, "label": spoken({"msg": label["msg"], "args": args}), "msg": label["msg"], "args": args}


def legal_actions(info: RoomInfo, live: LiveGame | None, seat: int) -> dict[str, Any]:
    """What GET /legal-actions answers: the version and the seat's labelled legal actions
    (the same list as in its ``seat_view``, without building the rest of the payload)."""
    if live is None:
        return {"version": info.version, "seat": seat, "legal_actions": []}
    game, state = GAMES[info.game], live.state
    return {
        "version": live.version,
        "seat": seat,
        "legal_actions": labelled_legal_actions(game, state, seat, game.to_act(state), names_of(info)),
    }


def names_of(info: RoomInfo) -> Names:
    return tuple(sorted(info.seats.items()))


def encode(payload: dict[str, Any]) -> str:
    """Compact UTF-8 JSON (orjson: a tenth of the standard library's time on a view)."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A room as one build is of it, by value: what a view shows of its facts and the links it
    holds (``RoomInfo.public`` and its seats' token hashes, as JSON: 2 to 3 µs to make), its
    game's version (a room's game at a version is always the same state: it is replayed from
    the seed and the log) and the seats connected. Two builds of equal snapshots are alike."""

    facts: bytes
    game_version: int | None
    connected: frozenset[int]

    @classmethod
    def of(cls, info: RoomInfo, live: LiveGame | None, connected: frozenset[int]) -> Snapshot:
        facts = orjson.dumps((info.public(), info.token_hashes), option=orjson.OPT_NON_STR_KEYS)
        return cls(facts, None if live is None else live.version, connected)


@dataclass(frozen=True, slots=True)
class Made:
    """What one text made of a snapshot (or of a chat) is: its kind (the JSON payload, a view
    event, the HTML table...), for which seat, in which language, and after what the reader
    already holds (an HTML delta: the table it was sent; chat lines: the last line it saw).
    Every text cached of a room is filed under one of these, spelled here and nowhere else."""

    kind: str
    seat: int | None = None
    lang: str | None = None
    since: Hashable = None


@dataclass
class Built:
    """The texts made of one room's :class:`Snapshot` (the JSON payloads, the HTML tables...),
    each under its :class:`Made`, and the room's facts and game they are made from (those a
    reader of an equal snapshot handed in last).

    The payloads themselves are kept only as their JSON text, and :meth:`payload` parses a
    fresh copy (a view round-trips through JSON exactly: ``tests/test_payloads.py``). Kept as
    objects, the payloads of the rooms held here were tens of thousands of containers that
    lived about a second, so each garbage collection of the young generations walked them all:
    at 1,400 rooms, pauses of 60 to 160 ms every few seconds (docs/benchmarks.md)."""

    snapshot: Snapshot
    info: RoomInfo
    live: LiveGame | None
    named: NamedLines | None = None  # the room's log lines made so far (handed on to the next build)
    texts: dict[Made, Any] = field(default_factory=dict)

    @property
    def connected(self) -> frozenset[int]:
        return self.snapshot.connected

    def made(self, key: Made, make: Callable[[Built], T]) -> T:
        """The text (or table) ``make`` makes of this build, made once per ``key``."""
        text = self.texts.get(key)
        if text is None:
            text = self.texts[key] = make(self)
        return text

    def json(self, seat: int | None) -> str:
        """The seat's payload as JSON text; the first one asked for is built with every
        connected seat's (the engine shares its public part between them)."""
        text = self.texts.get(Made(JSON, seat))
        if text is None:
            wanted = [seat, *(s for s in sorted(self.connected) if s != seat and Made(JSON, s) not in self.texts)]
            views = seat_views(self.info, self.live, wanted, self.connected, self.named)
            for each, payload in views.items():
                self.texts[Made(JSON, each)] = encode(payload)
            text = self.texts[Made(JSON, seat)]
        return text

    def payload(self, seat: int | None) -> dict[str, Any]:
        """The seat's payload, a fresh copy parsed from its JSON text (the caller's to keep)."""
        return orjson.loads(self.json(seat))


@dataclass
class ChatBuilt:
    """The texts made from one room's chat as it was up to one line (the last shown)."""

    last_line: int
    texts: dict[Made, str] = field(default_factory=dict)


class Payloads:
    """Each seat's payload of the rooms changed most recently, and what is made from it.

    A move's payloads are wanted by every socket of its room and by the reply to the move. The
    first to ask builds the payload of its own seat and of every connected seat at once; each
    text made from a payload (``make``, once per :class:`Made`: the JSON encoding here, the
    HTML fragment in ``app.web.delivery``) is made once too, and the others get the text as it
    is. A room's build serves while the room's :class:`Snapshot` is equal to the one it was
    made of. Chat texts are kept the same way, while the room's last chat line is the same.
    The latest build of at most ``held`` rooms is kept (and of their chats), least recently
    used first to go.
    """

    def __init__(self, rooms: LiveGames, social: Social, held: int = ROOMS_HELD):
        self.rooms, self.social = rooms, social
        self._built: LRUCache[str, Built] = LRUCache(held)
        self._chats: LRUCache[str, ChatBuilt] = LRUCache(held)

    async def text(self, room_id: str, seat: int | None) -> str:
        """The JSON payload of ``seat`` (None: spectator) at the room's current version."""
        return await self.made(room_id, Made(JSON, seat), lambda built: built.json(seat))

    async def text_at(self, room_id: str, seat: int | None, version: int) -> str:
        """The JSON payload of ``seat`` as it was at ``version`` (the first result of a resent
        move or start), with today's presence; built apart from the cache, as resends are rare."""
        info, live = await self.rooms.game_at(room_id, version)
        return encode(seat_view(info, live, seat, await self.social.present(room_id)))

    async def made(self, room_id: str, key: Made, make: Callable[[Built], T]) -> T:
        """The text ``make`` makes of the room as it is now, made once per change and ``key``."""
        info, live = await self.rooms.game_state(room_id)
        return self.made_of(info, live, await self.social.present(room_id), key, make)

    def made_of(
        self, info: RoomInfo, live: LiveGame | None, connected: frozenset[int], key: Made, make: Callable[[Built], T]
    ) -> T:
        """:meth:`made` of the room's facts ``info``, game ``live`` and ``connected`` seats."""
        snapshot = Snapshot.of(info, live, connected)
        built = self._built.get(info.id)
        if built is None or built.snapshot != snapshot:
            named = NamedLines(names_of(info)) if built is None else built.named
            built = self._built[info.id] = Built(snapshot, info, live, named)
        else:  # alike: a text still to make is made from what the reader holds, as it is now
            built.info, built.live = info, live
        return built.made(key, make)

    def chat_made_of(
        self, room_id: str, messages: list[dict[str, Any]], key: Made, make: Callable[[list[dict[str, Any]]], str]
    ) -> str:
        """The text ``make`` makes of the room's chat lines ``messages`` (the last ones shown,
        ``Social.messages``), made once per last line and ``key``."""
        last_line = messages[-1]["id"] if messages else 0
        built = self._chats.get(room_id)
        if built is None or built.last_line != last_line:
            built = self._chats[room_id] = ChatBuilt(last_line)
        text = built.texts.get(key)
        if text is None:
            text = built.texts[key] = make(messages)
        return text
