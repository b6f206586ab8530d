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
    colour: Colour | None
    """None for a fake."""
    number: int
    """0 for a fake."""
    fake: bool


class HandCard(Card):
    id: int
    """The card's id, to name it in a commit or a play."""
    playable: bool
    """Legal right now."""


class Gems(TypedDict):
    red: int
    blue: int
    green: int


class TriATriPlayer(TypedDict):
    seat: int
    hand_count: int
    """How many cards it holds."""
    gems: Gems
    """The gems it has won, by colour."""
    committed: bool
    """During the reveal only."""
    revealed: Card | None
    """Its start card shown this round."""
    known_cards: list[Card]
    """Cards it took back after a tied reveal and still holds."""
    void: list[Colour]
    """Colours it is known to lack this round."""
    score_now: int
    """What its gems would score if the game ended now."""


class Gem(TypedDict):
    colour: Colour
    source: Literal["supply", "own"]
    """supply: taken from the supply; own: one of the leader's own gems."""


class Position(Card):
    """A card played to a trick, in position order."""

    seat: int
    """Whom it counts for."""
    value: int
    """What it counts in the trick (fixed when played; a fake counts 0)."""
    doubled: bool
    """Its number doubled: its colour beats the colour of the card before it."""
    quadrupled: bool
    """Its number quadrupled: a 2 that beats the colour before it."""
    swapped: bool
    """Moved by a fake: the fake took this position, or this card the fake's (it counts for the fake's player)."""


class LastTrick(TypedDict):
    cards: list[Position]
    winner: int
    """The seat that won it."""
    gem: Gem
    """The gem it won."""


class LastReveal(TypedDict):
    round: int
    cards: list[Card]
    """Per seat."""
    result: Literal["start", "void", "take_back", "redeal"]
    """start: the highest card starts the round; void, take_back, redeal: how a tie was settled."""
    starter: int | None
    """The seat that starts, or None."""


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
    """reveal: every seat commits a start card; choose_gem: the trick's leader puts a gem in the
    centre; play: cards are played to the trick; over: the game has ended."""
    round: int
    """The round, 1 to 3."""
    trick_number: int
    """The trick being played or about to be, 1 to 5."""
    you: int | None
    """The viewer's seat, or None for a spectator."""
    hand: list[HandCard]
    """The viewer's cards, sorted."""
    commit: Card | None
    """The viewer's own committed start card during the reveal."""
    players: list[TriATriPlayer]
    """Every seat, in seat order."""
    supply: Gems
    """Gems left in the supply."""
    current: list[int]
    """Seats whose input is awaited."""
    leader: int | None
    """None during the reveal."""
    gem: Gem | None
    """The gem in the centre."""
    trick: list[Position]
    """The cards played to the current trick, in position order."""
    last_trick: LastTrick | None
    """The trick won last, or None."""
    last_reveal: LastReveal | None
    """The last start-card reveal, or None."""
    result: TriATriResult | None
    """None until the game is over; then the final scores."""
    seed: NotRequired[str]
    """Once the game is over."""
