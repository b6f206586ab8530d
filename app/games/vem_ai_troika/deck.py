"""Vem aí a Troika decks: the documented deck-file schema, its validation and the default deck.

The rulebook prints no card values, so the project ships its own reconstruction
(``decks/default.json``, ruling V1). A room may load another deck that follows this schema.

Deck schema (a JSON object)
---------------------------
Text limits, in characters (every text is printable, newlines and tabs aside): the deck's
``name`` 60 and ``description`` 500; a card's ``name`` 40 and ``gloss`` 80; a
``hand_action``'s ``text`` 300; an Event's ``text`` 500 (ignored, but stored with the room).
Deck texts are shown in rooms, lobbies and records, so they are bounded like a chat line. No
text says "Seat" and a number: log lines show a player's name where engines say so.

``name`` (str), optional ``description`` (str), and three lists:

``groups``: exactly 42 Group cards, 10 gold, 10 blue, 10 red and 12 grey, each::

    {"name": str (unique), "gloss": str (English), "colour": "gold"|"blue"|"red"|"grey",
     "type": "marginal"|"spiritual"|"financial"|"infrastructure"|"justice"|"media"|
             "professional"|"social"|"public"  (optional for the basic game),
     "power": 0-4, "votes": 0-4, "income": 0-3,
     "variable": [bonus, ...]  (optional, 0-3 variable values; advanced game only),
     "hand_action": {"when": "income"|"organization"|"attack"|"elections"|"any",
                     "effects": [effect, ...]  (card_actions.py; needed by the advanced game),
                     "first": bool (optional: only as the first card played in an attack),
                     "discard_only": bool (optional: only in an attack to discard),
                     "reconstructed": bool (optional: the project's own reconstruction),
                     "text": str (optional; with effects it is ignored and rewritten)}}

A variable value (a *bonus*) adds to the printed Power, Votes or Income::

    {"adds": "power"|"votes"|"income", "amount": 1-2,
     "per": "type"               (per Group of type ``of`` you control)
          | "colour"             (per Group of colour ``of`` you control)
          | "colour_pair"        (per two Groups of colour ``of`` you control)
          | "table_colour_pair"  (per two Groups of colour ``of`` on the whole table)
          | "named",             (if you control the Group named ``of``)
     "of": a type, a colour or a Group name}

A card counts itself when it matches; one played from hand (in an attack, a campaign) uses its
own variable values, counting itself, but is not on the table for the other cards' values.

``leaders``: exactly 9 Leaders: 8 ordinary ones (2 blue, 2 red, 4 grey) and one with
``"bonus": true`` (blue, red or grey)::

    {"name": str (unique), "gloss": str, "colour": "blue"|"red"|"grey",
     "power": 0-4, "votes": 0-4, "income": 0-3, "bonus": bool (optional, default false),
     "variable": [bonus, ...] (optional),
     "table_action": {"name": str, "when": "turn"|"elections", "cost": 0-3,
                      "effects": [effect, ...], "reconstructed": bool (optional)}
                     (needed by the advanced game)}

``events``: exactly 16 Events::

    {"name": str, "gloss": str, "role": "troika"|"elections"|"normal" (optional, default
     "normal"), "points": 0-20 (optional, default 0: Victory Points the card is worth to a
     player who keeps it as a Government card), "effects": [effect, ...] (1-4 effects),
     "text": str (optional and ignored: validation writes the effects in plain English here)}

A deck without the advanced fields plays the basic game; :func:`check_advanced` refuses it for
the advanced game, naming the first missing field (every Group needs a ``type`` and a
``hand_action`` with ``effects``, every Leader a ``table_action``).

Exactly one Event has role "troika" and is named "Chegou a Troika" (it must end the game);
exactly two have role "elections" and are named "Eleições" (they must hold Elections); one
Event is named "Voto de Confiança". The effect primitives are documented in ``effects.py``.

:func:`validate_deck` returns a normalised copy (optional fields filled in) or raises
``base.OptionRefused`` (a ``ValueError``) whose message starts with the path of the bad field, e.g.
``groups[3].power: must be an integer 0-4``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.games import base
from app.games.vem_ai_troika import card_actions, effects, table
from app.games.vem_ai_troika.table import COLOURS, GROUP_TYPES, type_word

LEADER_COLOURS = ("blue", "red", "grey")
HAND_ACTION_TIMES = ("income", "organization", "attack", "elections", "any")
BONUS_KEYS = ("power", "votes", "income")
BONUS_PER = ("type", "colour", "colour_pair", "table_colour_pair", "named")
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


def need_text(card: dict[str, Any], key: str, path: str, limit: int) -> str:
    value = card.get(key)
    if not isinstance(value, str) or not value.strip():
        base.refuse(f"{path}.{key}", "must be a non-empty string")
    return bounded(value, f"{path}.{key}", limit)


def bounded(value: str, path: str, limit: int) -> str:
    """``value`` if it is at most ``limit`` characters of printable text (newlines and tabs
    allowed; no NUL, control character or lone surrogate)."""
    if len(value) > limit:
        base.refuse(path, "must be at most {limit} characters, not {length}", limit=limit, length=len(value))
    if not value.replace("\n", " ").replace("\t", " ").isprintable():
        base.refuse(path, "must be printable text")
    if base.SEAT_MENTION.search(value):  # (a log line would show a player's name in its place)
        base.refuse(path, "must not say 'Seat' and a number, which the server reads as a player")
    return value


def need_int(card: dict[str, Any], key: str, path: str, low: int, high: int) -> int:
    value = card.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        base.refuse(f"{path}.{key}", "must be an integer {low}-{high}", low=low, high=high)
    return value


def need_choice(card: dict[str, Any], key: str, path: str, choices: tuple[str, ...]) -> str:
    value = card.get(key)
    if value not in choices:
        base.refuse(f"{path}.{key}", "must be one of {choices}", choices=", ".join(choices))
    return value


def need_keys(card: Any, path: str, allowed: set[str]) -> None:
    if not isinstance(card, dict):
        base.refuse(path, "must be an object")
    unknown = sorted(set(card) - allowed)
    if unknown:
        base.refuse(path, "unknown field '{field}'", field=unknown[0])


def need_list(data: dict[str, Any], key: str, size: int) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        base.refuse(key, "must be a list")
    if len(value) != size:
        base.refuse(key, "must hold exactly {size} cards, not {found}", size=size, found=len(value))
    return value


def values(card: dict[str, Any], path: str) -> dict[str, int]:
    return {
        "power": need_int(card, "power", path, 0, 4),
        "votes": need_int(card, "votes", path, 0, 4),
        "income": need_int(card, "income", path, 0, 3),
    }


def check_bonus(bonus: Any, path: str) -> dict[str, Any]:
    need_keys(bonus, path, {"adds", "amount", "per", "of"})
    checked = {
        "adds": need_choice(bonus, "adds", path, BONUS_KEYS),
        "amount": need_int(bonus, "amount", path, 1, 2),
        "per": need_choice(bonus, "per", path, BONUS_PER),
    }
    of = bonus.get("of")
    if checked["per"] == "type":
        need_choice(bonus, "of", path, GROUP_TYPES)
    elif checked["per"] != "named":
        need_choice(bonus, "of", path, COLOURS)
    elif not isinstance(of, str):
        base.refuse(f"{path}.of", "must name a Group card")
    checked["of"] = of
    return checked


def bonus_message(bonus: dict[str, Any]) -> base.Message:
    """One variable value in words, e.g. '+1 Vote per media Group you control'."""
    per, of, amount = bonus["per"], bonus["of"], bonus["amount"]
    votes = base.say("Vote") if amount == 1 else base.say("Votes")  # ("+1 Vote"; Power and Income count no units)
    figure = {"power": base.say("Power"), "votes": votes}.get(bonus["adds"]) or base.say("Income")
    if per == "named":
        return base.say("+{amount} {adds} if you control {of}", amount=amount, adds=figure, of=of)
    word = type_word(of) if per == "type" else table.colour_word(of)
    if per in ("type", "colour"):
        return base.say("+{amount} {adds} per {of} Group you control", amount=amount, adds=figure, of=word)
    if per == "colour_pair":
        return base.say("+{amount} {adds} per two {of} Groups you control", amount=amount, adds=figure, of=word)
    return base.say("+{amount} {adds} per two {of} Groups on the whole table", amount=amount, adds=figure, of=word)


def bonuses_message(card: dict[str, Any]) -> base.Message | None:
    """A card's variable values in words, as one message (None if it has none)."""
    said = [bonus_message(b) for b in card.get("variable", [])]
    return base.one_after_another(said, base.N_("{first}; {rest}")) if said else None


def describe_bonuses(card: dict[str, Any]) -> str:
    """A card's variable values in words, e.g. '+1 Vote per media Group you control' ('' if none)."""
    said = bonuses_message(card)
    return "" if said is None else base.spoken(said)


def bonuses_json(card: dict[str, Any]) -> str | None:
    """:func:`bonuses_message` as JSON text (a card view stays flat), or None."""
    said = bonuses_message(card)
    return None if said is None else base.freeze(said).decode()


def check_variable(card: dict[str, Any], path: str) -> list[dict[str, Any]]:
    raw = card.get("variable", [])
    if not isinstance(raw, list) or len(raw) > 3:
        base.refuse(f"{path}.variable", "must be a list of at most 3 variable values")
    return [check_bonus(b, f"{path}.variable[{i}]") for i, b in enumerate(raw)]


def need_flag(card: dict[str, Any], key: str, path: str) -> bool:
    value = card.get(key, False)
    if not isinstance(value, bool):
        base.refuse(f"{path}.{key}", "must be true or false")
    return value


def check_hand_action(action: Any, where: str) -> dict[str, Any]:
    need_keys(action, where, {"when", "text", "said", "effects", "first", "discard_only", "reconstructed"})
    when = need_choice(action, "when", where, HAND_ACTION_TIMES)
    checked: dict[str, Any] = {"when": when}
    for flag in ("first", "discard_only", "reconstructed"):
        checked[flag] = need_flag(action, flag, where)
    if "effects" not in action:
        checked["text"] = need_text(action, "text", where, HAND_ACTION_LENGTH)
        return checked
    if "text" in action:  # ignored, as an Event's, but bounded like every deck text
        need_text(action, "text", where, HAND_ACTION_LENGTH)
    checked["effects"] = card_actions.check_effects(action["effects"], when, f"{where}.effects")
    return described(checked)


def described(action: dict[str, Any]) -> dict[str, Any]:
    """A card action with its effects in words: ``text`` in English and ``said``, the message in
    JSON text (a card view stays flat: the table memoises a card's HTML by its values)."""
    said = card_actions.action_message(action["effects"])
    return {**action, "text": base.spoken(said), "said": base.freeze(said).decode()}


def check_table_action(action: Any, where: str) -> dict[str, Any]:
    need_keys(action, where, {"name", "when", "cost", "effects", "reconstructed", "text", "said"})
    when = need_choice(action, "when", where, card_actions.TABLE_TIMINGS)
    checked: dict[str, Any] = {
        "name": need_text(action, "name", where, CARD_NAME_LENGTH),
        "when": when,
        "cost": need_int(action, "cost", where, 0, 3),
        "effects": card_actions.check_effects(action.get("effects"), when, f"{where}.effects"),
        "reconstructed": need_flag(action, "reconstructed", where),
    }
    return described(checked)


def check_group(card: Any, path: str) -> dict[str, Any]:
    need_keys(card, path, {"name", "gloss", "colour", "type", "power", "votes", "income", "variable", "hand_action"})
    group = {
        "name": need_text(card, "name", path, CARD_NAME_LENGTH),
        "gloss": need_text(card, "gloss", path, GLOSS_LENGTH),
        "colour": need_choice(card, "colour", path, COLOURS),
        **values(card, path),
    }
    if "type" in card:
        group["type"] = need_choice(card, "type", path, GROUP_TYPES)
    if "variable" in card:
        group["variable"] = check_variable(card, path)
    if "hand_action" in card:
        group["hand_action"] = check_hand_action(card["hand_action"], f"{path}.hand_action")
    return group


def check_leader(card: Any, path: str) -> dict[str, Any]:
    need_keys(card, path, {"name", "gloss", "colour", "power", "votes", "income", "bonus", "variable", "table_action"})
    leader = {
        "name": need_text(card, "name", path, CARD_NAME_LENGTH),
        "gloss": need_text(card, "gloss", path, GLOSS_LENGTH),
        "colour": need_choice(card, "colour", path, LEADER_COLOURS),
        **values(card, path),
        "bonus": need_flag(card, "bonus", path),
    }
    if "variable" in card:
        leader["variable"] = check_variable(card, path)
    if "table_action" in card:
        leader["table_action"] = check_table_action(card["table_action"], f"{path}.table_action")
    return leader


def check_event(card: Any, path: str) -> dict[str, Any]:
    need_keys(card, path, {"name", "gloss", "role", "points", "effects", "text", "said"})  # text, said: rewritten
    if "text" in card and not isinstance(card["text"], str):
        base.refuse(f"{path}.text", "must be a string")
    bounded(card.get("text", ""), f"{path}.text", EVENT_TEXT_LENGTH)
    event = {
        "name": need_text(card, "name", path, CARD_NAME_LENGTH),
        "gloss": need_text(card, "gloss", path, GLOSS_LENGTH),
        "role": need_choice({"role": card.get("role", "normal")}, "role", path, ROLES),
        "points": need_int({"points": card.get("points", 0)}, "points", path, 0, 20),
    }
    raw = card.get("effects")
    if not isinstance(raw, list) or not 1 <= len(raw) <= 4:
        base.refuse(f"{path}.effects", "must be a list of 1-4 effects")
    event["effects"] = [effects.check_effect(e, f"{path}.effects[{i}]") for i, e in enumerate(raw)]
    said = effects.event_message(event)
    event["said"] = said  # the text as a message, for a reader of another language
    event["text"] = base.spoken(said)
    return event


def check_unique_names(cards: list[dict[str, Any]], key: str) -> None:
    seen: set[str] = set()
    for i, card in enumerate(cards):
        if card["name"] in seen:
            base.refuse(f"{key}[{i}].name", "'{name}' appears twice", name=card["name"])
        seen.add(card["name"])


def check_counts(cards: list[dict[str, Any]], key: str, wanted: dict[str, int]) -> None:
    for colour, count in wanted.items():
        found = sum(1 for card in cards if card["colour"] == colour)
        if found != count:
            base.refuse(key, "must hold {count} {colour} cards, not {found}", count=count, colour=colour, found=found)


def check_required_events(events: list[dict[str, Any]]) -> None:
    required = ((TROIKA_NAME, "troika", 1, "end_game"), (ELECTIONS_NAME, "elections", 2, "elections"))
    for name, role, count, primitive in required:
        found = [i for i, e in enumerate(events) if e["role"] == role]
        if len(found) != count or any(events[i]["name"] != name for i in found):
            base.refuse(
                "events",
                "must hold the '{name}' event, with role '{role}', exactly this many times: {count}",
                count=count,
                name=name,
                role=role,
            )
        for i in found:
            if all(effect["do"] != primitive for effect in events[i]["effects"]):
                base.refuse(
                    f"events[{i}].effects",
                    "a '{role}' event must include the '{primitive}' effect",
                    role=role,
                    primitive=primitive,
                )
    if all(e["name"] != CONFIDENCE_NAME for e in events):
        base.refuse("events", "must hold the '{name}' event", name=CONFIDENCE_NAME)


def validate_deck(data: Any) -> dict[str, Any]:
    """A checked, normalised copy of a deck; ValueError naming the bad field otherwise."""
    need_keys(data, "deck", {"name", "description", "groups", "leaders", "events"})
    deck: dict[str, Any] = {
        "name": need_text(data, "name", "deck", DECK_NAME_LENGTH),
        "description": data.get("description", ""),
    }
    if not isinstance(deck["description"], str):
        base.refuse("deck.description", "must be a string")
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
        base.refuse("leaders", "must hold exactly 1 bonus leader, not {found}", found=len(bonus))
    check_counts([leader for leader in deck["leaders"] if not leader["bonus"]], "leaders", LEADER_COUNTS)
    check_required_events(deck["events"])
    check_named_bonuses(deck)
    return deck


def check_named_bonuses(deck: dict[str, Any]) -> None:
    names = {card["name"] for card in deck["groups"]}
    for key in ("groups", "leaders"):
        for i, card in enumerate(deck[key]):
            for j, bonus in enumerate(card.get("variable", [])):
                if bonus["per"] == "named" and bonus["of"] not in names:
                    base.refuse(f"{key}[{i}].variable[{j}].of", "names no Group card: '{name}'", name=bonus["of"])


def check_advanced(deck: dict[str, Any]) -> None:
    """Refuse a validated deck that lacks a field the advanced game needs, naming the first."""
    for i, card in enumerate(deck["groups"]):
        if "type" not in card:
            base.refuse(f"groups[{i}].type", "the advanced game needs every Group's type")
        if "hand_action" not in card:
            base.refuse(f"groups[{i}].hand_action", "the advanced game needs every Group's Hand Action")
        if "effects" not in card["hand_action"]:
            base.refuse(f"groups[{i}].hand_action.effects", "the advanced game needs every Hand Action's effects")
    for i, card in enumerate(deck["leaders"]):
        if "table_action" not in card:
            base.refuse(f"leaders[{i}].table_action", "the advanced game needs every Leader's Table Action")


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
