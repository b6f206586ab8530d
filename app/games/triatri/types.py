"""The shapes of TriATri's actions and views, as typed definitions (``app.games.triatri``).

These document what the engine takes and shows, and the API publishes them as JSON Schema
(``app.api.contract``): each action type is one ``TypedDict`` whose ``type`` names it, and the
view one ``TypedDict`` per part. tests/test_contract.py checks every view of whole games
against them, so they cannot drift from the engine.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

Colour = Literal["red", "blue", "green"]


class Commit(TypedDict):
    """Commit a card of your hand, by its id, as your start card (the reveal)."""

    type: Literal["commit"]
    card: int


class ChooseGem(TypedDict):
    """The leader puts a gem in the centre: from the supply, or one of their own."""

    type: Literal["choose_gem"]
    colour: Colour
    source: Literal["supply", "own"]


class PlayCard(TypedDict):
    """Play a card of your hand, by its id, to the trick."""

    type: Literal["play"]
    card: int


TriATriAction = Commit | ChooseGem | PlayCard


class Card(TypedDict):
    colour: Colour | None  # None for a fake
    number: int  # 0 for a fake
    fake: bool


class HandCard(Card):
    id: int
    playable: bool  # legal right now


class Gems(TypedDict):
    red: int
    blue: int
    green: int


class TriATriPlayer(TypedDict):
    seat: int
    hand_count: int
    gems: Gems
    committed: bool  # during the reveal only
    revealed: Card | None  # its start card shown this round
    known_cards: list[Card]  # cards it took back after a tied reveal and still holds
    void: list[Colour]  # colours it is known to lack this round
    score_now: int  # what its gems would score if the game ended now


class Gem(TypedDict):
    colour: Colour
    source: Literal["supply", "own"]


class Position(Card):
    """A card played to a trick, in position order."""

    seat: int  # whom it counts for
    value: int
    doubled: bool
    quadrupled: bool
    swapped: bool


class LastTrick(TypedDict):
    cards: list[Position]
    winner: int
    gem: Gem


class LastReveal(TypedDict):
    round: int
    cards: list[Card]  # per seat
    result: Literal["start", "void", "take_back", "redeal"]
    starter: int | None


class TriATriScore(TypedDict):
    gems: Gems
    held: int
    sets: int
    pairs: int
    singles: int
    single_points: int
    total: int
    winner: bool
    instant_win: bool


class TriATriResult(TypedDict):
    players: list[TriATriScore]
    winners: list[int]
    ranking: list[int]
    places: list[int]
    instant_winner: int | None


class TriATriView(TypedDict):
    """What one seat (None: a spectator) sees of a TriATri game."""

    phase: Literal["reveal", "choose_gem", "play", "over"]
    round: int
    trick_number: int
    you: int | None
    hand: list[HandCard]  # the viewer's cards, sorted
    commit: Card | None  # the viewer's own committed start card during the reveal
    players: list[TriATriPlayer]
    supply: Gems  # gems left in the supply
    current: list[int]  # seats whose input is awaited
    leader: int | None  # None during the reveal
    gem: Gem | None  # the gem in the centre
    trick: list[Position]
    last_trick: LastTrick | None
    last_reveal: LastReveal | None
    result: TriATriResult | None
    seed: NotRequired[str]  # once the game is over
