"""Vem aí a Troika decks: the documented deck-file schema, its validation and the default deck.

The rulebook prints no card values, so the project ships its own reconstruction
(``decks/default.json``, ruling V1). A room may load another deck that follows this schema.

Deck schema (a JSON object)
---------------------------
Text limits, in characters (every text is printable, newlines and tabs aside): the deck's
``name`` 60 and ``description`` 500; a card's ``name`` 40 and ``gloss`` 80; a
``hand_action``'s ``text`` 300; an Event's ``text`` 500 (ignored, but stored with the room).
Deck texts are shown in rooms, lobbies and records, so they are bounded like a chat line.

``name`` (str), optional ``description`` (str), and three lists:

``groups``: exactly 42 Group cards, 10 gold, 10 blue, 10 red and 12 grey, each::

    {"name": str (unique), "gloss": str (English), "colour": "gold"|"blue"|"red"|"grey",
     "type": "marginal"|"spiritual"|"financial"|"infrastructure"|"justice"|"media"|
             "professional"|"social"|"public",
     "power": 0-4, "votes": 0-4, "income": 0-3,
     "hand_action": {"when": "income"|"organization"|"attack"|"elections"|"any",
                     "text": str}  (optional; advanced rules only, shown but not played)}

``leaders``: exactly 9 Leaders: 8 ordinary ones (2 blue, 2 red, 4 grey) and one with
``"bonus": true`` (blue, red or grey)::

    {"name": str (unique), "gloss": str, "colour": "blue"|"red"|"grey",
     "power": 0-4, "votes": 0-4, "income": 0-3, "bonus": bool (optional, default false)}

``events``: exactly 16 Events::

    {"name": str, "gloss": str, "role": "troika"|"elections"|"normal" (optional, default
     "normal"), "points": 0-20 (optional, default 0: Victory Points the card is worth to a
     player who keeps it as a Government card), "effects": [effect, ...] (1-4 effects),
     "text": str (optional and ignored: validation writes the effects in plain English here)}

Exactly one Event has role "troika" and is named "Chegou a Troika" (it must end the game);
exactly two have role "elections" and are named "Eleições" (they must hold Elections); one
Event is named "Voto de Confiança". The effect primitives are documented in ``effects.py``.

:func:`validate_deck` returns a normalised copy (optional fields filled in) or raises
``ValueError`` whose message starts with the path of the bad field, e.g.
``groups[3].power: must be an integer 0-4``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

from app.games.vem_ai_troika import effects

COLOURS = ("gold", "blue", "red", "grey")
LEADER_COLOURS = ("blue", "red", "grey")
GROUP_TYPES = (
    "marginal",
    "spiritual",
    "financial",
    "infrastructure",
    "justice",
    "media",
    "professional",
    "social",
    "public",
)
HAND_ACTION_TIMES = ("income", "organization", "attack", "elections", "any")
GROUP_COUNTS = {"gold": 10, "blue": 10, "red": 10, "grey": 12}
LEADER_COUNTS = {"blue": 2, "red": 2, "grey": 4}
EVENT_COUNT = 16
ROLES = ("troika", "elections", "normal")
TROIKA_NAME = "Chegou a Troika"
ELECTIONS_NAME = "Eleições"
CONFIDENCE_NAME = "Voto de Confiança"
DEFAULT_PATH = Path(__file__).parent / "decks" / "default.json"
DECK_NAME_LENGTH, DESCRIPTION_LENGTH = 60, 500
CARD_NAME_LENGTH, GLOSS_LENGTH, HAND_ACTION_LENGTH, EVENT_TEXT_LENGTH = 40, 80, 300, 500


def fail(path: str, message: str) -> NoReturn:
    raise ValueError(f"{path}: {message}")


def need_text(card: dict[str, Any], key: str, path: str, limit: int) -> str:
    value = card.get(key)
    if not isinstance(value, str) or not value.strip():
        fail(f"{path}.{key}", "must be a non-empty string")
    return bounded(value, f"{path}.{key}", limit)


def bounded(value: str, path: str, limit: int) -> str:
    """``value`` if it is at most ``limit`` characters of printable text (newlines and tabs
    allowed; no NUL, control character or lone surrogate)."""
    if len(value) > limit:
        fail(path, f"must be at most {limit} characters, not {len(value)}")
    if not value.replace("\n", " ").replace("\t", " ").isprintable():
        fail(path, "must be printable text")
    return value


def need_int(card: dict[str, Any], key: str, path: str, low: int, high: int) -> int:
    value = card.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        fail(f"{path}.{key}", f"must be an integer {low}-{high}")
    return value


def need_choice(card: dict[str, Any], key: str, path: str, choices: tuple[str, ...]) -> str:
    value = card.get(key)
    if value not in choices:
        fail(f"{path}.{key}", f"must be one of {', '.join(choices)}")
    return value


def need_keys(card: Any, path: str, allowed: set[str]) -> None:
    if not isinstance(card, dict):
        fail(path, "must be an object")
    unknown = sorted(set(card) - allowed)
    if unknown:
        fail(path, f"unknown field '{unknown[0]}'")


def need_list(data: dict[str, Any], key: str, size: int) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        fail(key, "must be a list")
    if len(value) != size:
        fail(key, f"must hold exactly {size} cards, not {len(value)}")
    return value


def values(card: dict[str, Any], path: str) -> dict[str, int]:
    return {
        "power": need_int(card, "power", path, 0, 4),
        "votes": need_int(card, "votes", path, 0, 4),
        "income": need_int(card, "income", path, 0, 3),
    }


def check_group(card: Any, path: str) -> dict[str, Any]:
    need_keys(card, path, {"name", "gloss", "colour", "type", "power", "votes", "income", "hand_action"})
    group = {
        "name": need_text(card, "name", path, CARD_NAME_LENGTH),
        "gloss": need_text(card, "gloss", path, GLOSS_LENGTH),
        "colour": need_choice(card, "colour", path, COLOURS),
        "type": need_choice(card, "type", path, GROUP_TYPES),
        **values(card, path),
    }
    if "hand_action" in card:
        action, where = card["hand_action"], f"{path}.hand_action"
        need_keys(action, where, {"when", "text"})
        group["hand_action"] = {
            "when": need_choice(action, "when", where, HAND_ACTION_TIMES),
            "text": need_text(action, "text", where, HAND_ACTION_LENGTH),
        }
    return group


def check_leader(card: Any, path: str) -> dict[str, Any]:
    need_keys(card, path, {"name", "gloss", "colour", "power", "votes", "income", "bonus"})
    bonus = card.get("bonus", False)
    if not isinstance(bonus, bool):
        fail(f"{path}.bonus", "must be true or false")
    return {
        "name": need_text(card, "name", path, CARD_NAME_LENGTH),
        "gloss": need_text(card, "gloss", path, GLOSS_LENGTH),
        "colour": need_choice(card, "colour", path, LEADER_COLOURS),
        **values(card, path),
        "bonus": bonus,
    }


def check_event(card: Any, path: str) -> dict[str, Any]:
    need_keys(card, path, {"name", "gloss", "role", "points", "effects", "text"})
    if "text" in card and not isinstance(card["text"], str):
        fail(f"{path}.text", "must be a string")
    bounded(card.get("text", ""), f"{path}.text", EVENT_TEXT_LENGTH)
    event = {
        "name": need_text(card, "name", path, CARD_NAME_LENGTH),
        "gloss": need_text(card, "gloss", path, GLOSS_LENGTH),
        "role": need_choice({"role": card.get("role", "normal")}, "role", path, ROLES),
        "points": need_int({"points": card.get("points", 0)}, "points", path, 0, 20),
    }
    raw = card.get("effects")
    if not isinstance(raw, list) or not 1 <= len(raw) <= 4:
        fail(f"{path}.effects", "must be a list of 1-4 effects")
    event["effects"] = [effects.check_effect(e, f"{path}.effects[{i}]") for i, e in enumerate(raw)]
    event["text"] = effects.describe_event(event)
    return event


def check_unique_names(cards: list[dict[str, Any]], key: str) -> None:
    seen: set[str] = set()
    for i, card in enumerate(cards):
        if card["name"] in seen:
            fail(f"{key}[{i}].name", f"'{card['name']}' appears twice")
        seen.add(card["name"])


def check_counts(cards: list[dict[str, Any]], key: str, wanted: dict[str, int]) -> None:
    for colour, count in wanted.items():
        found = sum(1 for card in cards if card["colour"] == colour)
        if found != count:
            fail(key, f"must hold {count} {colour} cards, not {found}")


def check_required_events(events: list[dict[str, Any]]) -> None:
    required = ((TROIKA_NAME, "troika", 1, "end_game"), (ELECTIONS_NAME, "elections", 2, "elections"))
    for name, role, count, primitive in required:
        found = [i for i, e in enumerate(events) if e["role"] == role]
        if len(found) != count or any(events[i]["name"] != name for i in found):
            fail("events", f"must hold exactly {count} '{name}' event(s) with role '{role}'")
        for i in found:
            if all(effect["do"] != primitive for effect in events[i]["effects"]):
                fail(f"events[{i}].effects", f"a '{role}' event must include the '{primitive}' effect")
    if all(e["name"] != CONFIDENCE_NAME for e in events):
        fail("events", f"must hold the '{CONFIDENCE_NAME}' event")


def validate_deck(data: Any) -> dict[str, Any]:
    """A checked, normalised copy of a deck; ValueError naming the bad field otherwise."""
    need_keys(data, "deck", {"name", "description", "groups", "leaders", "events"})
    deck: dict[str, Any] = {
        "name": need_text(data, "name", "deck", DECK_NAME_LENGTH),
        "description": data.get("description", ""),
    }
    if not isinstance(deck["description"], str):
        fail("deck.description", "must be a string")
    bounded(deck["description"], "deck.description", DESCRIPTION_LENGTH)
    deck["groups"] = [
        check_group(c, f"groups[{i}]") for i, c in enumerate(need_list(data, "groups", sum(GROUP_COUNTS.values())))
    ]
    deck["leaders"] = [
        check_leader(c, f"leaders[{i}]")
        for i, c in enumerate(need_list(data, "leaders", sum(LEADER_COUNTS.values()) + 1))
    ]
    deck["events"] = [check_event(c, f"events[{i}]") for i, c in enumerate(need_list(data, "events", EVENT_COUNT))]
    check_unique_names(deck["groups"], "groups")
    check_unique_names(deck["leaders"], "leaders")
    check_counts(deck["groups"], "groups", GROUP_COUNTS)
    bonus = [leader for leader in deck["leaders"] if leader["bonus"]]
    if len(bonus) != 1:
        fail("leaders", f"must hold exactly 1 bonus leader, not {len(bonus)}")
    check_counts([leader for leader in deck["leaders"] if not leader["bonus"]], "leaders", LEADER_COUNTS)
    check_required_events(deck["events"])
    return deck


@lru_cache(maxsize=1)
def _default_text() -> str:
    return DEFAULT_PATH.read_text(encoding="utf-8")


def default_deck() -> dict[str, Any]:
    """The project's default deck, validated (a fresh copy on every call)."""
    return validate_deck(json.loads(_default_text()))


@lru_cache(maxsize=1)
def shared_default_deck() -> dict[str, Any]:
    """The default deck, validated once and shared by every game that uses it: no engine code
    modifies a deck, and a copy per game held in memory cost about 50 KB per room."""
    return default_deck()
