"""TriATri's cards and numbers: the deck for each player count, how cards and gems are named,
and how strong a card is when revealed or played (A5, A7)."""

from __future__ import annotations

from typing import Any

from app.games import base

COLOURS = ("red", "blue", "green")
BEATS: dict[str | None, str] = {"red": "green", "green": "blue", "blue": "red"}  # key beats value
HAND_SIZE = 6
TRICKS_PER_ROUND = 5
ROUNDS = 3
GEMS_PER_COLOUR = 6
DECKS = {2: (6, 2), 3: (7, 1), 4: (8, 3)}  # players -> (highest number, fakes)

# Card id -> (colour, number): ids 0-20 are red, blue, green 2-8; ids 21-23 are fakes.
CARDS: tuple[tuple[str | None, int], ...] = (
    tuple((colour, number) for colour in COLOURS for number in range(2, 9)) + ((None, 0),) * 3
)
FIRST_FAKE = 21


def deck(num_players: int) -> list[int]:
    """The card ids used with this many players (ruling A1)."""
    highest, fakes = DECKS[num_players]
    numbered = [i for i, (colour, number) in enumerate(CARDS) if colour and number <= highest]
    return numbered + list(range(FIRST_FAKE, FIRST_FAKE + fakes))


def colour_of(card: int) -> str | None:
    return CARDS[card][0]


def card_name(card: int) -> base.Message:
    """A card as people read it ("red 3", "fake"), as a message."""
    colour, number = CARDS[card]
    if colour == "red":
        return base.say("red {number}", number=number)
    if colour == "blue":
        return base.say("blue {number}", number=number)
    if colour == "green":
        return base.say("green {number}", number=number)
    return base.say("fake")


def label(card: int) -> str:
    """A card's name in English."""
    return base.spoken(card_name(card))


def colour_gem(colour: str) -> base.Message:
    """ "red gem", as a message."""
    if colour == "red":
        return base.say("red gem")
    return base.say("blue gem") if colour == "blue" else base.say("green gem")


def a_gem(colour: str) -> base.Message:
    """ "a red gem", as a message."""
    if colour == "red":
        return base.say("a red gem")
    return base.say("a blue gem") if colour == "blue" else base.say("a green gem")


def the_gem(colour: str) -> base.Message:
    """ "the red gem", as a message."""
    if colour == "red":
        return base.say("the red gem")
    return base.say("the blue gem") if colour == "blue" else base.say("the green gem")


def name(seat: int) -> str:
    return base.seat_label(seat)


def card_view(card: int) -> dict[str, Any]:
    colour, number = CARDS[card]
    return {"colour": colour, "number": number, "fake": colour is None}


# --- card strength ---------------------------------------------------------------------------


def reveal_strongest(commits: list[int]) -> tuple[int | None, list[int]]:
    """The start reveal's winning seat (None if no single strongest card) and the top-number seats."""
    top = max(CARDS[c][1] for c in commits)
    tied = [seat for seat, c in enumerate(commits) if CARDS[c][1] == top]
    if len(tied) == 1:
        return tied[0], tied
    if len(tied) == 2 and top > 0:
        first, second = tied
        winner = first if BEATS[colour_of(commits[first])] == colour_of(commits[second]) else second
        return winner, tied
    return None, tied


def fixed_value(card: int, previous: int | None) -> tuple[int, int]:
    """(value, multiplier) of a card played after ``previous`` (A5): fakes are worth 0."""
    colour, number = CARDS[card]
    if colour is None:
        return 0, 1
    if previous is not None and BEATS[colour] == colour_of(previous):
        multiplier = 4 if number == 2 else 2
        return number * multiplier, multiplier
    return number, 1


def strongest(positions: list[dict[str, Any]]) -> int:
    """Index of the strongest position (A7): value, then the beating colour, then the later one."""
    top = max(p["value"] for p in positions)
    tied = [i for i, p in enumerate(positions) if p["value"] == top]
    colours = {colour_of(positions[i]["card"]) for i in tied}
    if len(colours) == 2:
        a, b = colours
        winning = a if BEATS[a] == b else b
        tied = [i for i in tied if colour_of(positions[i]["card"]) == winning]
    return tied[-1]
