"""The engine contract every game follows, and the helpers engines share.

A game is a module-level object with a small, pure surface over a JSON-serialisable state
(plain dicts, lists, str, int, bool, None): ``setup``, ``to_act``, ``legal_actions``, ``apply``,
``view`` and ``outcome``. Engines never do I/O, read the clock or log; the only randomness is
drawn from the room seed through :func:`rng`, with a counter kept in the state, so the seed
plus the action list reproduces every state exactly. Actions are dicts with a ``type`` field
and a stable JSON form. Log entries carry their own visibility (``"to": None`` for everyone, or
a list of seats) and are filtered per viewer like views.

What an engine says to people (log lines, action labels) it says as a :data:`Message`: a
message id, which is the English text with ``{name}`` placeholders, and its arguments (text,
numbers or other messages), made by :func:`say`. The engine never translates: the API shows
the English text (:func:`spoken`), a browser page the reader's language (the gettext catalogs
of ``app.i18n`` give each id its translation; Babel extracts the ids from the ``say`` calls).

Engines subclass :class:`Game`, whose ``play`` (and ``apply``) is the one place an action is
validated, for every game alike: it is an object with a text ``type``, its seat is awaited, and
it is either one of ``legal_actions`` with the same JSON types (5.0 is not 5, true is not 1) or,
for the types an engine accepts without listing (``Game.unlisted``), it passes that type's
strict schema (:class:`Whole`, :class:`OneOf`, :class:`Ids`). The engine's own ``_apply`` then
gets that canonical action (the listed object itself, or one rebuilt from the schema), works on
a deep copy, never mutates its input and raises :class:`IllegalAction` with a readable reason.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn, Protocol

import orjson
from typing_extensions import TypedDict

from app.reading import whole_number

State = dict[str, Any]
Action = dict[str, Any]
Message = dict[str, Any]  # {"msg": id (the English text), "args": {name: text, number, Message or list}}


def say(msg: str, **args: Any) -> Message:
    """A message to people: its id (the English text, with ``{name}`` placeholders) and its
    arguments, each a text, a number or another message (translated in its turn)."""
    return {"msg": msg, "args": args}


def signed(number: int) -> str:
    """A score change as people write it: "+2", "0", and a true minus sign, U+2212 before "1",
    which lines up with the plus where a hyphen would not."""
    return f"{number:+d}".replace("-", "\u2212") if number else "0"


def one_after_another(messages: list[Message], joined: str = "{first} {rest}") -> Message:
    """Messages said one after another as one message: by default sentences, a space between
    them; ``joined`` (a message with ``{first}`` and ``{rest}``, marked by ``N_``) joins them
    otherwise."""
    said = messages[-1]
    for message in reversed(messages[:-1]):
        said = say(joined, first=message, rest=said)
    return said


def N_(text: str) -> str:
    """Marks a fixed English text (an option's description) for the catalogs; it is translated
    where it is shown."""
    return text


def spoken(message: Message, translate: Callable[[str], str] = str) -> str:
    """The text of ``message``: English, or with ``translate`` (a gettext) another language. An
    argument that is a list of messages is said as their texts joined by commas."""
    args = message["args"]
    text = translate(message["msg"])
    if not args:
        return text
    return text.format_map({name: spoken_value(value, translate) for name, value in args.items()})


def spoken_value(value: Any, translate: Callable[[str], str]) -> Any:
    if isinstance(value, dict):
        return spoken(value, translate)
    if isinstance(value, list):
        return ", ".join(str(spoken_value(item, translate)) for item in value)
    return value


class IllegalAction(Exception):
    """An action that the rules do not allow now; ``reason`` (English) is shown to the player,
    ``said`` (a message) in the reader's language."""

    def __init__(self, reason: str | Message):
        self.said = say(reason) if isinstance(reason, str) else reason
        self.reason = spoken(self.said)
        super().__init__(self.reason)


class OptionRefused(ValueError):
    """A room's options refused (a value the game does not take, a deck's bad field): ``said``
    says why as a message, shown in the reader's language; ``str()`` is its English."""

    def __init__(self, said: Message):
        self.said = said
        super().__init__(spoken(said))


def refuse(path: str, message: str, **args: Any) -> NoReturn:
    """Refuse an option: ``path`` names the bad field (``groups[3].power``), ``message`` (marked
    for the catalogs, ``args`` for its placeholders) says what is wrong with it."""
    raise OptionRefused(say("{path}: {problem}", path=path, problem=say(message, **args)))


class SpokenMessage(TypedDict):
    """A message shown in a view: its English ``text``, and its id and arguments (``Message``)
    for a reader of another language."""

    text: str
    msg: str
    args: dict[str, Any]


class OutcomeJSON(TypedDict):
    """The shape of :meth:`Outcome.to_json`: how a finished game ended, as views and records show it."""

    scores: list[int]
    winners: list[int]
    ranking: list[int]  # seats, best first
    places: list[int]  # each seat's place, 1 the best; tied seats share one (1, 1, 3)
    details: dict[str, Any]  # the game's own scoring breakdown


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: per-seat scores, the ranking (best first), the winners and
    each seat's place (1 for the best; seats that tie share a place and the next place is
    skipped: 1, 1, 3)."""

    scores: list[int]
    winners: list[int]
    ranking: list[int]
    places: list[int]
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "places": list(self.places),
            "details": self.details,
        }


def places(ranking: list[int], standing: Callable[[int], Any]) -> list[int]:
    """Each seat's place from ``ranking`` (best first): seats whose ``standing`` is equal tie
    and share the place of the first of them, and the places they fill are skipped (1, 1, 3)."""
    placed = [0] * len(ranking)
    for index, seat in enumerate(ranking):
        tied = index and standing(seat) == standing(ranking[index - 1])
        placed[seat] = placed[ranking[index - 1]] if tied else index + 1
    return placed


MAX_DECK_BYTES = 512 * 1024  # a "deck" option's file, as uploaded (its JSON text)


@dataclass(frozen=True)
class OptionSpec:
    """One room option a game accepts: its type, default, allowed choices, a description (the
    room form's) and a short label (the room's head names the options not at their default)."""

    name: str
    kind: str  # "bool", "choice", "int" or "deck" (a data file of at most MAX_DECK_BYTES)
    default: Any
    description: str
    choices: tuple[Any, ...] = ()
    label: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "description": self.description,
            "choices": list(self.choices),
        }


def seen_by(public: set[int], awaited: set[int], seat: int | None) -> set[int]:
    """The awaited seats as ``seat`` is shown them: the ``public`` list (which may keep a seat
    that has answered a hidden simultaneous prompt), except that a seat is told the truth about
    itself, so it sees itself listed exactly when it has a legal action."""
    if seat is None:
        return set(public)
    return (public - {seat}) | (awaited & {seat})


Handler = Callable[[State, int, Action], None]  # an action type's rule: changes the working copy in place


class Game(ABC):
    """The surface every registered game exposes (see the module docstring). Engines subclass
    it: they inherit ``setup`` (the player count checked once, here), ``play``, ``apply``,
    ``views`` and ``describe``, and write ``_setup``, the rules of each action type as
    ``handlers`` (plus, if useful, ``handle``, ``explain``, ``unlisted`` and ``label``)."""

    slug: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    # top-level state keys that ``setup`` fills and ``apply`` passes on untouched (the same
    # object: a deck's card definitions, say); a room holds them once instead of in every copy
    fixed_keys: tuple[str, ...] = ()
    # action types accepted without being looked up in ``legal_actions`` (a choice among
    # thousands of card combinations), each with the schema of its fields besides "type"
    unlisted: ClassVar[Mapping[str, Mapping[str, FieldType]]] = {}
    # fields of listed actions whose list of ids is a set (cards chosen together): the legal list
    # spells it in increasing order, and a move may send it in any order (``listed_form``)
    id_sets: ClassVar[frozenset[str]] = frozenset()
    # each action type's rule (:data:`Handler`), looked up by ``handle``: the one table of the
    # game's dispatch, built once with the class
    handlers: ClassVar[Mapping[str, Handler]]
    # the typed definitions of the game's actions (a union of ``TypedDict``s, one per action
    # type, each naming its ``type`` as a literal) and of its ``view``: they document both, and
    # the API publishes them as JSON Schema and reads a move's action by them
    action_type: ClassVar[Any]
    view_type: ClassVar[Any]

    def takes(self, num_players: int) -> bool:
        """Whether the game is played by ``num_players``."""
        return self.min_players <= num_players <= self.max_players

    def setup(self, num_players: int, options: dict[str, Any], seed: str) -> State:
        """The first state of a game of ``num_players`` with ``options`` (checked: ValueError)
        and ``seed``."""
        if not self.takes(num_players):
            raise ValueError(f"{self.title} is for {self.min_players}-{self.max_players} players")
        return self._setup(num_players, options, seed)

    @abstractmethod
    def _setup(self, num_players: int, options: dict[str, Any], seed: str) -> State:
        """The engine's first state, for a player count ``setup`` checked already."""

    @abstractmethod
    def to_act(self, state: State) -> set[int]: ...

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def public_to_act(self, state: State) -> set[int]:
        """The awaited seats as everyone is shown them: ``to_act``, unless a game hides who has
        already answered a simultaneous prompt (those seats then stay listed until it closes)."""
        return self.to_act(state)

    def shown_to_act(self, state: State, seat: int | None) -> set[int]:
        """The awaited seats as ``seat`` (None: a spectator) is shown them (:func:`seen_by`)."""
        return seen_by(self.public_to_act(state), self.to_act(state), seat)

    def apply(self, state: State, seat: int, action: Action) -> State:
        """The state after ``seat`` plays ``action``; raises IllegalAction, never mutates."""
        return self.play(state, seat, action)[1]

    def play(self, state: State, seat: int, action: Any, *, legacy: bool = False) -> tuple[Action, State]:
        """The canonical form of ``action`` (what a log stores) and the state after it.

        ``legacy`` reads an action stored before actions were strict: it may equal a listed
        action only loosely (5.0 for 5, true for 1), as they were accepted then; the listed
        form is what is applied and returned."""
        canonical = self.accept(state, seat, action, legacy=legacy)
        return canonical, self._apply(state, seat, canonical)

    def follow(self, state: State, seat: int, listed: Action) -> State:
        """The state after ``listed``, an element of ``legal_actions(state, seat)`` that the
        caller has just taken from that list, without checking it again (as python-chess's
        ``push`` takes a generated move). For playouts only: a random game of the engine
        benchmark, a search's rollouts; a move of a person or of a seated bot goes through
        ``play``."""
        return self._apply(state, seat, listed)

    def accept(self, state: State, seat: int, action: Any, *, legacy: bool = False) -> Action:
        """The canonical form of ``action`` if ``seat`` may play it now; else IllegalAction."""
        if not isinstance(action, dict) or type(action.get("type")) is not str:
            raise IllegalAction("an action is an object with a 'type' field")
        awaited = self.to_act(state)
        if seat not in awaited:
            raise IllegalAction(self.waiting(state, seat) if awaited else say("the game is over"))
        schema = self.unlisted.get(action["type"])
        if schema is not None:
            return read_fields(action, schema)
        action = self.listed_form(action)
        legal = self.legal_actions(state, seat)
        try:
            listed = legal[legal.index(action)]  # listed actions are distinct: one candidate
        except ValueError:
            listed = None
        if listed is not None and (legacy or same_json(listed, action)):
            return listed
        self.explain(state, seat, action)
        raise IllegalAction(refusal(action["type"], legal))

    def stored_form(self, action: Any) -> Any:
        """``action`` as a log would hold it had it been accepted, as far as that is known with
        no state: an unlisted type rebuilt by its schema, anything else as it is (a listed
        action is accepted only as the listed object itself). A resent move is compared with
        the logged one in this form."""
        kind = action.get("type") if isinstance(action, dict) else None
        schema = self.unlisted.get(kind) if type(kind) is str else None
        try:
            return self.listed_form(action) if schema is None else read_fields(action, schema)
        except IllegalAction:
            return action

    def listed_form(self, action: Action) -> Action:
        """``action`` with each of its ``id_sets`` fields that is a list of ids in increasing
        order, as the legal list spells it (a player ticks cards in any order); every other
        value as sent, for ``accept`` to match exactly or refuse."""
        if not isinstance(action, dict) or not self.id_sets:
            return action
        return {
            key: sorted(value) if key in self.id_sets and type(value) is list and all(map(whole, value)) else value
            for key, value in action.items()
        }

    def waiting(self, state: State, seat: int) -> Message:
        """Why ``seat`` may not move while others may: by default, that it is not its turn (a
        game where seats act at once says that this one has acted already)."""
        return say("it is not your turn")

    def explain(self, state: State, seat: int, action: Action) -> None:
        """Optional: raise IllegalAction with a more helpful reason for an action not listed
        (by default :func:`refusal` names the seat's open move types, or how many of the type
        sent it has)."""
        return None

    def _apply(self, state: State, seat: int, action: Action) -> State:
        """The state after ``action``, which ``play`` validated already: a :func:`moving_copy`
        of ``state`` changed by ``handle``."""
        work = moving_copy(state, self.fixed_keys)
        self.handle(work, seat, action)
        return work

    def handle(self, work: State, seat: int, action: Action) -> None:
        """Change ``work`` (a copy of the state) by ``action``: its type's rule in ``handlers``."""
        self.handlers[action["type"]](work, seat, action)

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def views(self, state: State, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        """``view`` for several seats of one state (a push to a whole room). The views may share
        their public parts, so they are read-only; by default they are built one seat at a time."""
        return {seat: self.view(state, seat) for seat in seats}

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None: ...

    def label(self, action: Action, state: State | None = None) -> Message:
        """A short button label for ``action``, as a message; ``state`` lets a label name cards
        of the game's own data (a custom deck). By default the action's type and its fields as
        they are (``take value=3``), untranslated: an engine names its moves better."""
        text = " ".join(
            [str(action.get("type")), *(f"{name}={value}" for name, value in action.items() if name != "type")]
        )
        return say(text)  # (a text of its own, no catalog's: said as it is in every language)

    def describe(self, action: Action, state: State | None = None) -> str:
        """The English text of ``action``'s label (the API's)."""
        return spoken(self.label(action, state))

    @abstractmethod
    def randomize_hidden(self, state: State, seat: int | None, r: random.Random) -> State:
        """A copy of ``state`` in which everything ``seat`` cannot see is re-dealt at random.

        Other seats' hidden cards, undealt cards, pile order and the seed are resampled
        consistently with what ``seat`` knows (``None``: a spectator, who knows only public
        information), so ``view(result, seat) == view(state, seat)`` must hold. The searching
        bots play every game through it, and the hidden-information tests check it."""


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal with the same types at every level (Python's ``==``
    says 5.0 == 5 and True == 1; JSON does not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same_json, a, b))
    return a == b


def refusal(kind: str, legal: list[Action]) -> Message:
    """Why a move that fits its schema is refused, where the game's ``explain`` says no more: a
    type the seat has no move of now, with the types it has (its own moves: nothing hidden); a
    type it has, with values that make none of its listed moves."""
    kinds = list(dict.fromkeys(a["type"] for a in legal))
    if kind not in kinds:
        return say(
            "'{type}' is not allowed now: your moves now are {types}",
            type=kind,
            types=", ".join(f"'{k}'" for k in kinds),
        )
    count = sum(a["type"] == kind for a in legal)
    return say(
        "'{type}' is not allowed now with those values: your legal actions list {count} of that type",
        type=kind,
        count=count,
    )


# ---- the schema of an unlisted action's fields ---------------------------------------------

MAX_WHOLE = 1_000_000  # beyond any count or id of any game


class FieldType(Protocol):
    def read(self, name: str, value: Any) -> Any:
        """``value`` in its canonical form, or IllegalAction naming the field ``name``."""
        ...

    def json_schema(self) -> dict[str, Any]:
        """What JSON Schema can state of the values ``read`` takes (the API publishes it)."""
        ...


WHOLE_SCHEMA = {"type": "integer", "minimum": 0, "maximum": MAX_WHOLE}


def whole(value: Any) -> bool:
    """A JSON whole number within bounds: an int, never a bool, a float or text."""
    return type(value) is int and 0 <= value <= MAX_WHOLE


@dataclass(frozen=True)
class Whole:
    """A whole number from 0 to ``MAX_WHOLE``."""

    def read(self, name: str, value: Any) -> int:
        require(whole(value), say("'{name}' must be a whole number from 0 to {most}", name=name, most=MAX_WHOLE))
        return value

    def json_schema(self) -> dict[str, Any]:
        return WHOLE_SCHEMA


@dataclass(frozen=True)
class OneOf:
    """One of a few texts."""

    choices: tuple[str, ...]

    def read(self, name: str, value: Any) -> str:
        choices = ", ".join(self.choices)
        require(
            type(value) is str and value in self.choices,
            say("'{name}' must be one of: {choices}", name=name, choices=choices),
        )
        return value

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.choices)}


@dataclass(frozen=True)
class Ids:
    """A list of at most ``most`` distinct ids (whole numbers), kept in increasing order."""

    most: int

    def read(self, name: str, value: Any) -> list[int]:
        require(
            type(value) is list
            and len(value) <= self.most
            and all(whole(v) for v in value)
            and len(set(value)) == len(value),
            say("'{name}' must be a list of at most {most} distinct card ids", name=name, most=self.most),
        )
        return sorted(value)

    def json_schema(self) -> dict[str, Any]:
        return {"type": "array", "items": WHOLE_SCHEMA, "maxItems": self.most, "uniqueItems": True}


@dataclass(frozen=True)
class Omittable:
    """A field an action may leave out (it then has no such field); when given, read by ``inner``."""

    inner: FieldType

    def read(self, name: str, value: Any) -> Any:
        return self.inner.read(name, value)

    def json_schema(self) -> dict[str, Any]:
        return self.inner.json_schema()


def schema_of(shape: Any, ids: FieldType) -> dict[str, FieldType]:
    """The schema of an unlisted action's fields besides ``type``, read from its ``TypedDict``
    (the one declaration of its shape, which the API publishes too): an ``int`` is
    :class:`Whole`, a ``Literal`` of texts :class:`OneOf` them, a ``list[int]`` ``ids`` (a
    list of ids, bounded by the game), and a ``NotRequired`` field is :class:`Omittable`."""
    schema: dict[str, FieldType] = {}
    for name, given in typing.get_type_hints(shape, include_extras=True).items():
        omittable = typing.get_origin(given) is typing.NotRequired
        hint = typing.get_args(given)[0] if omittable else given
        if name == "type":
            continue
        if hint is int:
            read: FieldType = Whole()
        elif typing.get_origin(hint) is typing.Literal:
            read = OneOf(typing.get_args(hint))
        elif hint == list[int]:
            read = ids
        else:
            raise TypeError(f"{shape.__name__}.{name}: no schema reads {hint}")
        schema[name] = Omittable(read) if omittable else read
    return schema


def read_fields(action: Action, schema: Mapping[str, FieldType]) -> Action:
    """``action`` rebuilt from its fields, each read by ``schema``; no field more, and none fewer
    but the omittable ones."""
    kind = action["type"]
    required = {"type", *(name for name, field in schema.items() if not isinstance(field, Omittable))}
    if not required <= action.keys() <= {"type", *schema}:
        optional = [name for name in schema if name not in required]
        also = say(" (and optionally {fields})", fields=", ".join(optional)) if optional else ""
        fields = ", ".join(["type", *(name for name in schema if name in required)])
        raise IllegalAction(
            say("'{type}' takes exactly the fields: {fields}{also}", type=kind, fields=fields, also=also)
        )
    return {"type": kind, **{name: field.read(name, action[name]) for name, field in schema.items() if name in action}}


def rng(state: State) -> random.Random:
    """A generator for the next random draw: seeded by the state's seed and draw counter.

    Each call advances ``state["rng_draws"]`` (call it on the working copy inside ``apply``
    or ``setup``), so every shuffle is reproducible from the seed and the actions alone.
    """
    count = state.get("rng_draws", 0)
    state["rng_draws"] = count + 1
    digest = hashlib.sha256(f"{state['seed']}:{count}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def freeze(state: State) -> bytes:
    """A state as compact JSON bytes (states are plain JSON, the contract); ``thaw`` reverses it."""
    return orjson.dumps(state)


def thaw(frozen: bytes) -> State:
    return orjson.loads(frozen)


def working_copy(state: State) -> State:
    """A deep copy of a state (or a part of one) to mutate inside ``apply`` or hand out in a
    view, so the caller's state is never changed: a JSON round trip, ten times faster than
    ``copy.deepcopy``."""
    return thaw(freeze(state))


def moving_copy(state: State, shared: tuple[str, ...] = ()) -> State:
    """A :func:`working_copy` of a whole state for ``apply`` to change, save for the parts no
    action changes: the log is a new list of the same entries (an entry is never modified once
    logged, so only appending to the copy's list is allowed), and each key of ``shared`` (a
    game's ``fixed_keys``) is the same object. A long game's log is most of its state, so
    copying it made every action slower the longer the game had gone on."""
    moving = dict(state)  # (a copy of the top level, then deletions: many times faster than a filter)
    del moving["log"]
    for key in shared:
        del moving[key]
    work = working_copy(moving)
    work.update({key: state[key] for key in shared})
    work["log"] = list(state["log"])
    return work


def public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options as shown to people: a whole custom data file (a deck) is shown by its name."""
    return {key: (value.get("name", "custom") if isinstance(value, dict) else value) for key, value in options.items()}


def first_player_option(max_players: int) -> OptionSpec:
    """The room option choosing round 1's first player: a seat, or random from the room seed."""
    return OptionSpec(
        "first_player",
        "choice",
        "random",
        N_("Who starts round 1: a seat number, or random from the room seed"),
        choices=("random", *range(max_players)),
        label=N_("first player"),
    )


def check_first_player(chosen: str | int, num_players: int) -> None:
    """Refuse a ``first_player`` option naming a seat the room does not have."""
    if chosen != "random" and int(chosen) >= num_players:
        raise OptionRefused(say("option 'first_player': there is no seat {seat}", seat=chosen))


def first_player(state: State, chosen: str | int, num_players: int) -> int:
    """Round 1's first player for a checked ``first_player`` option (a draw from the seed if random)."""
    return rng(state).randrange(num_players) if chosen == "random" else int(chosen)


class UnknownOption(ValueError):
    """Options naming one the game does not have (``names``)."""

    def __init__(self, names: list[str]):
        super().__init__(f"unknown option '{names[0]}'")
        self.names = names


def resolve_options(specs: tuple[OptionSpec, ...], given: dict[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and validate ``given`` against ``specs``; bad values raise OptionRefused,
    options the game does not have :class:`UnknownOption`."""
    given = dict(given or {})
    resolved: dict[str, Any] = {}
    for spec in specs:
        value = given.pop(spec.name, spec.default)
        if spec.kind == "bool" and not isinstance(value, bool):
            raise OptionRefused(say("option '{name}' must be true or false", name=spec.name))
        if spec.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionRefused(say("option '{name}' must be a whole number", name=spec.name))
        number = whole_number(value, most_digits=None) if spec.choices else None
        if number is not None and number in spec.choices:
            value = number  # a seat written as text, as before 1.0 (stored rooms and records have it so)
        # (a choice is matched with its JSON type: 2.0 and true are not the seats 2 and 1)
        if spec.choices and not any(type(value) is type(choice) and value == choice for choice in spec.choices):
            allowed = ", ".join(str(c) for c in spec.choices)
            raise OptionRefused(say("option '{name}' must be one of: {allowed}", name=spec.name, allowed=allowed))
        resolved[spec.name] = value
    if given:
        raise UnknownOption(sorted(given))
    return resolved


def seat_label(seat: int) -> str:
    """How engines name a seat in log text; the server shows the player's name in its place."""
    return f"Seat {seat}"


# A seat as engines name it (``seat_label``), wherever it stands in a message's arguments.
SEAT_MENTION = re.compile(r"\bSeat (\d+)\b")


def log_entry(message: Message | str, to: list[int] | None = None, **data: Any) -> dict[str, Any]:
    """A log line (a message; a text is a message without arguments): ``to=None`` is public,
    otherwise only the listed seats may read it."""
    said = say(message) if isinstance(message, str) else message
    return {"msg": said["msg"], "args": said["args"], "to": to, **data}


def visible_log(log: list[dict[str, Any]], seat: int | None, last: int | None = None) -> list[dict[str, Any]]:
    """The log entries ``seat`` may read (``None`` is a spectator), without the ``to`` field and
    with their English ``text``; with ``last``, only the last that many (found from the end,
    without reading the rest)."""
    newest_first = (
        entry for entry in reversed(log) if entry["to"] is None or (seat is not None and seat in entry["to"])
    )
    chosen = list(itertools.islice(newest_first, last))[::-1]
    return [{"text": spoken(entry), **{k: v for k, v in entry.items() if k != "to"}} for entry in chosen]


def require(condition: bool, reason: str | Message) -> None:
    """Raise :class:`IllegalAction` with ``reason`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(reason)
