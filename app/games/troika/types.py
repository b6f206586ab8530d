"""The shapes of Troika's actions and views, as typed definitions (``app.games.troika``).

These document what the engine takes and shows, and the API publishes them as JSON Schema
(``app.api.contract``): each action type is one ``TypedDict`` whose ``type`` names it, and the
view one ``TypedDict`` per part. tests/test_contract.py checks every view of whole games
against them, so they cannot drift from the engine.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from app.games.base import OutcomeJSON, SpokenMessage

Tile = int  # a tile's value, 1-15
FaceDown = Literal["unknown"] | int  # an unknown face-down tile, or a marked one by its id


class CallTroika(TypedDict):
    """Call "Troika!" at the start of your turn (3-5 players)."""

    type: Literal["troika"]


class Reveal(TypedDict):
    """Turn a face-down table tile up: an unknown one or a marked one."""

    type: Literal["reveal"]
    tile: FaceDown


class TakeUp(TypedDict):
    """Move a face-up table tile of this value into your Container."""

    type: Literal["take_up"]
    value: Tile


class TakeDown(TypedDict):
    """Take a face-down table tile into your hand."""

    type: Literal["take_down"]
    tile: FaceDown


DiscardTile = TypedDict(
    "DiscardTile",
    {"type": Literal["discard"], "from": Literal["hand", "container"], "value": Tile},
)
DiscardTile.__doc__ = "Discard a tile of this value from your hand (face down, marked) or Container (face up)."


class TroikaPass(TypedDict):
    """Offered only when nothing else is possible."""

    type: Literal["pass"]


TroikaAction = CallTroika | Reveal | TakeUp | TakeDown | DiscardTile | TroikaPass


class TroikaPlayer(TypedDict):
    seat: int
    hand_count: int
    """How many tiles it holds in its hand."""
    container: list[Tile]
    """Its Container's face-up tiles, sorted."""
    status: Literal["playing", "called", "left", "failed"]
    """playing or called while the round runs (called: it called "Troika!"); left or failed once it is over."""
    tokens: list[int]
    """The tokens it has won, one value each."""
    token_total: int
    """The sum of its tokens."""
    hand: list[Tile] | None
    """The viewer's own, or everyone's once the game is over."""


class MarkedTile(TypedDict):
    id: int
    """The id to name it by in a reveal or take_down."""
    by: int
    """The seat that discarded it."""
    value: Tile | None
    """For the discarder, or once the game is over."""


class Trio(TypedDict):
    kind: Literal["fuel", "gem"]
    tiles: list[Tile]
    points: int


class SeatRound(TypedDict):
    """One seat's round breakdown."""

    seat: int
    hand: list[Tile]
    container: list[Tile]
    called_troika: bool
    status: Literal["left", "failed"]
    reason: Literal["failed_call", "no_fuel_set"] | None
    trios: list[Trio]
    trash: list[Tile]
    troika_bonus: int
    score: int | None
    """None when the seat failed."""
    tokens: list[int]


class RoundRecord(TypedDict):
    round: int
    first_player: int
    ended_by: Literal["table_empty", "troika"]
    players: list[SeatRound]
    ranking: list[int]
    """The round's seats, best first (who left the planet, by points)."""
    places: list[int]
    """Each seat's place in the round (equal points share one)."""


class TroikaView(TypedDict):
    """What one seat (None: a spectator) sees of a Troika game."""

    phase: Literal["turn_start", "act", "over"]
    """turn_start: the current seat may call "Troika!" or turn a tile up; act: it takes or discards
    a tile; over: the game has ended."""
    round: int
    """The round, 1 to 3."""
    current: int | None
    """The seat whose turn it is (None once the game is over)."""
    first_player: int
    """The seat that began this round."""
    num_players: int
    """The number of seats."""
    you: int | None
    """The viewer's seat, or None for a spectator."""
    hand: list[Tile]
    """The viewer's sorted hand, [] for a spectator."""
    call_would_succeed: bool | None
    """For the seat whose turn starts, when it may call."""
    call_problems: list[SpokenMessage] | None
    """For that seat alone: why its call would fail."""
    players: list[TroikaPlayer]
    """Every seat, in seat order."""
    table_up: list[Tile]
    """The face-up tiles on the table, sorted."""
    down_unmarked: int
    """How many face-down tiles on the table nobody has marked."""
    down_marked: list[MarkedTile]
    """The face-down tiles a discard marked, each by its id."""
    set_aside: int
    """How many tiles were set aside, unseen, this round (with 2 players; else 0)."""
    rounds: list[RoundRecord]
    """The finished rounds' breakdowns, oldest first."""
    result: OutcomeJSON | None
    """None until the game is over; then its outcome."""
    seed: NotRequired[str]
    """Once the game is over."""
