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
    container: list[Tile]
    status: Literal["playing", "called", "left", "failed"]
    tokens: list[int]
    token_total: int
    hand: list[Tile] | None  # the viewer's own, or everyone's once the game is over


class MarkedTile(TypedDict):
    id: int
    by: int  # the seat that discarded it
    value: Tile | None  # for the discarder, or once the game is over


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
    score: int | None  # None when the seat failed
    tokens: list[int]


class RoundRecord(TypedDict):
    round: int
    first_player: int
    ended_by: Literal["table_empty", "troika"]
    players: list[SeatRound]
    ranking: list[int]  # the round's seats, best first (who left the planet, by points)
    places: list[int]  # each seat's place in the round (equal points share one)


class TroikaView(TypedDict):
    """What one seat (None: a spectator) sees of a Troika game."""

    phase: Literal["turn_start", "act", "over"]
    round: int
    current: int | None
    first_player: int
    num_players: int
    you: int | None
    hand: list[Tile]  # the viewer's sorted hand, [] for a spectator
    call_would_succeed: bool | None  # for the seat whose turn starts, when it may call
    call_problems: list[SpokenMessage] | None  # for that seat alone: why its call would fail
    players: list[TroikaPlayer]
    table_up: list[Tile]
    down_unmarked: int
    down_marked: list[MarkedTile]
    set_aside: int
    rounds: list[RoundRecord]
    result: OutcomeJSON | None
    seed: NotRequired[str]  # once the game is over
