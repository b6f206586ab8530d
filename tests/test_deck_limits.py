"""Custom deck text fields have length limits (named in the deck schema): a deck at every limit
is accepted, one character more is refused naming the field, through validation and the API."""

from __future__ import annotations

import json
import re

import pytest

from app.games.vem_ai_troika import deck as decks
from app.games.vem_ai_troika.deck import DEFAULT_PATH, validate_deck

FIELDS = [  # (where in the deck, its limit)
    (("name",), decks.DECK_NAME_LENGTH),
    (("description",), decks.DESCRIPTION_LENGTH),
    (("groups", 0, "name"), decks.CARD_NAME_LENGTH),
    (("groups", 5, "gloss"), decks.GLOSS_LENGTH),
    (("leaders", 2, "name"), decks.CARD_NAME_LENGTH),
    (("leaders", 2, "gloss"), decks.GLOSS_LENGTH),
    (("events", 4, "name"), decks.CARD_NAME_LENGTH),
    (("events", 4, "gloss"), decks.GLOSS_LENGTH),
    (("events", 4, "text"), decks.EVENT_TEXT_LENGTH),
]


def raw_deck():
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def with_text(where, text):
    deck = raw_deck()
    *parents, key = where
    target = deck
    for step in parents:
        target = target[step]
    target[key] = text
    return deck


def field_path(where) -> str:
    path = "deck" if len(where) == 1 else f"{where[0]}[{where[1]}]"
    return f"{path}.{where[-1]}"


def test_the_schema_docstring_names_every_limit():
    for limit in (
        decks.DECK_NAME_LENGTH,
        decks.DESCRIPTION_LENGTH,
        decks.CARD_NAME_LENGTH,
        decks.GLOSS_LENGTH,
        decks.HAND_ACTION_LENGTH,
        decks.EVENT_TEXT_LENGTH,
    ):
        assert f" {limit}" in decks.__doc__.split("Text limits", 1)[1].split("\n\n", 1)[0]


@pytest.mark.parametrize("where, limit", FIELDS, ids=[field_path(w) for w, _ in FIELDS])
def test_each_text_field_is_bounded(where, limit):
    unique = "Ω" + "x" * (limit - 1)  # unique among the deck's names, and not ASCII
    validate_deck(with_text(where, unique))
    with pytest.raises(ValueError, match=rf"^{re.escape(field_path(where))}: must be at most {limit} characters"):
        validate_deck(with_text(where, unique + "x"))


def test_hand_action_text_is_bounded_and_text_is_printable():
    deck = raw_deck()
    index = next(i for i, g in enumerate(deck["groups"]) if "hand_action" in g)
    deck["groups"][index]["hand_action"]["text"] = "y" * (decks.HAND_ACTION_LENGTH + 1)
    with pytest.raises(ValueError, match=rf"groups\[{index}\]\.hand_action\.text: must be at most"):
        validate_deck(deck)
    for odd in ("a\x00b", "a\ud800b", "a\x1bb"):
        with pytest.raises(ValueError, match=r"deck\.name: must be printable text"):
            validate_deck(with_text(("name",), odd))
    validate_deck(with_text(("description",), "two\nlines\tand a tab"))


@pytest.mark.parametrize("where", [("name",), ("groups", 0, "name"), ("events", 0, "text")])
def test_a_deck_text_may_not_say_seat_and_a_number(where):
    """The server puts a player's name where an engine says "Seat 2": a card named so would be
    shown as that player in the log."""
    with pytest.raises(ValueError, match=rf"^{re.escape(field_path(where))}: must not say 'Seat' and a number"):
        validate_deck(with_text(where, "Seat 2"))
    validate_deck(with_text(where, "Seats 2 and Seat"))  # (no seat mention: taken)


async def test_the_api_refuses_a_deck_with_a_long_name_and_the_lobby_stays_small(client):
    body = {
        "game": "vem-ai-a-troika",
        "seats": 2,
        "name": "Ana",
        "options": {"deck": with_text(("name",), "n" * 100_000)},
    }
    r = await client.post("/api/rooms", json=body)
    assert r.status_code == 400 and "deck.name: must be at most 60 characters" in r.json()["message"]
    body["options"]["deck"] = with_text(("events", 0, "text"), "t" * 300_000)
    r = await client.post("/api/rooms", json=body)
    assert r.status_code == 400 and "events[0].text" in r.json()["message"]
    assert (await client.get("/api/rooms?status=open")).json() == []
