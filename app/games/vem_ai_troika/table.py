"""Shared state helpers for Vem aí a Troika: card look-ups, table metrics and card movements.

Everything here reads or changes the working copy of a state (see ``rules.py`` for its layout).
"""

from __future__ import annotations

from typing import Any

from app.games import base
from app.games.base import State

HAND_LIMIT = 6
FAMILY_LIMIT = 4
TITLE_PRICE = 6
DRAW_MONEY = 2
COLOURS = ("gold", "blue", "red", "grey")
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


def name(seat: int) -> str:
    return base.seat_label(seat)


def log(state: State, message: base.Message | str, to: list[int] | None = None) -> None:
    """Add a log line (a message; a text only from the advanced game's lines not yet messages)."""
    state["log"].append(base.log_entry(message, to))


def colour_word(colour: str) -> base.Message:
    """A Family's colour, as a message."""
    words = {"gold": base.say("gold"), "blue": base.say("blue"), "red": base.say("red")}
    return words.get(colour) or base.say("grey")


def type_word(kind: str) -> base.Message:
    """A Group type, as a message."""
    return {
        "marginal": base.say("marginal"),
        "spiritual": base.say("spiritual"),
        "financial": base.say("financial"),
        "infrastructure": base.say("infrastructure"),
        "justice": base.say("justice"),
        "media": base.say("media"),
        "professional": base.say("professional"),
        "social": base.say("social"),
    }.get(kind) or base.say("public")


def group(state: State, gid: int) -> dict[str, Any]:
    return state["deck"]["groups"][gid]


def group_label(state: State, gid: int, power: int | None = None) -> base.Message:
    """A Group card named with its colour and Power: printed, unless ``power`` (as it counts)."""
    card = group(state, gid)
    shown = card["power"] if power is None else power
    return base.say(
        "{name} ({colour}, {power} Power)", name=card["name"], colour=colour_word(card["colour"]), power=shown
    )


def player(state: State, seat: int) -> dict[str, Any]:
    return state["players"][seat]


def leader(state: State, seat: int) -> dict[str, Any] | None:
    lid = player(state, seat)["leader"]
    return None if lid is None else state["deck"]["leaders"][lid]


def order_from(state: State, start: int) -> list[int]:
    """Every seat once, clockwise from ``start``."""
    n = len(state["players"])
    return [(start + i) % n for i in range(n)]


def round_order(state: State) -> list[int]:
    return order_from(state, state["first"])


def campaign_order(state: State) -> list[int]:
    """The order in which the seats commit their campaigns (V5): round order, starting with the
    Government, if there is one, else the round's first player."""
    return order_from(state, state["government"] if state["government"] is not None else state["first"])


def hand_size(state: State, seat: int) -> int:
    """Cards in hand for the hand limit (V8): Group cards and Mega-Euro together."""
    p = player(state, seat)
    return len(p["hand"]) + p["money"]


def advanced(state: State) -> bool:
    return bool(state["options"]["advanced"])


def owner(state: State, gid: int) -> int | None:
    """The seat controlling Group ``gid``, or None when it is not on the table."""
    for seat, p in enumerate(state["players"]):
        if gid in p["table"]:
            return seat
    return None


def family(state: State, seat: int, colour: str) -> list[int]:
    return [gid for gid in player(state, seat)["table"] if group(state, gid)["colour"] == colour]


def column_number(state: State, seat: int, gid: int) -> int:
    """The column of a controlled Group among its colour's columns (always 0 in the basic game)."""
    return player(state, seat)["columns"].get(str(gid), 0)


def column(state: State, seat: int, gid: int) -> list[int]:
    """The controlled Groups in the same column as ``gid`` (its Family in the basic game)."""
    colour, number = group(state, gid)["colour"], column_number(state, seat, gid)
    return [other for other in family(state, seat, colour) if column_number(state, seat, other) == number]


def columns(state: State, seat: int, colour: str) -> list[list[int]]:
    """``seat``'s columns of ``colour`` in column order (one Family in the basic game). A move's
    column is a place in this list: a column emptied since leaves no gap."""
    found: dict[int, list[int]] = {}
    for gid in family(state, seat, colour):
        found.setdefault(column_number(state, seat, gid), []).append(gid)
    return [found[number] for number in sorted(found)]


def open_columns(state: State, seat: int, colour: str, without: int | None = None) -> list[int]:
    """The columns (places in ``columns``' list) a new Group of ``colour`` may join: those with
    room, and in the advanced game a new one after the last (several columns of one colour are
    allowed there); ``without``: a Group taken back into hand in the same move, whose place then
    counts as free (and whose column, left empty, is gone)."""
    stacks = [[gid for gid in col if gid != without] for col in columns(state, seat, colour)]
    stacks = [col for col in stacks if col]
    if not stacks:
        return [0]
    room = [n for n, col in enumerate(stacks) if len(col) < FAMILY_LIMIT]
    return room + [len(stacks)] if advanced(state) else room


def put_on_table(state: State, seat: int, gid: int, place: int | None = None) -> None:
    """Add ``gid`` to ``seat``'s table, in the column at ``place`` in ``columns``' list (past its
    end: a new column) or the first column with room."""
    p, colour = player(state, seat), group(state, gid)["colour"]
    if advanced(state):
        choices = open_columns(state, seat, colour) if place is None else [place]
        numbers = sorted({column_number(state, seat, other) for other in family(state, seat, colour)})
        at = choices[0] if choices else 0
        p["columns"][str(gid)] = numbers[at] if at < len(numbers) else max(numbers, default=-1) + 1
    p["table"].append(gid)


def move_to_table(state: State, from_seat: int, to_seat: int, gid: int) -> None:
    player(state, from_seat)["table"].remove(gid)
    put_on_table(state, to_seat, gid)


def consensus(state: State, seat: int) -> int:
    """Complete gold+blue+red+grey sets among the controlled Groups (V6)."""
    return min(len(family(state, seat, colour)) for colour in COLOURS)


def bonus_count(state: State, seat: int, card: dict[str, Any], bonus: dict[str, Any], from_hand: bool) -> int:
    """How many times a variable value applies (see deck.py): counted over ``seat``'s table, or
    every table; a card played from hand counts itself but is not on the table for others."""
    per, of = bonus["per"], bonus["of"]
    if per == "named":
        return int(any(group(state, gid)["name"] == of for gid in player(state, seat)["table"]))
    key = "type" if per == "type" else "colour"
    seats = range(len(state["players"])) if per == "table_colour_pair" else [seat]
    found = sum(1 for s in seats for gid in player(state, s)["table"] if group(state, gid).get(key) == of)
    found += from_hand and card.get(key) == of
    return found // 2 if per in ("colour_pair", "table_colour_pair") else found


def card_value(state: State, seat: int, card: dict[str, Any], key: str, from_hand: bool = False) -> int:
    """A card's Power, Votes or Income for ``seat``: printed, plus its variable values in the
    advanced game."""
    value = card[key]
    if advanced(state):
        for bonus in card.get("variable", []):
            if bonus["adds"] == key:
                value += bonus["amount"] * bonus_count(state, seat, card, bonus, from_hand)
    return value


def group_value(state: State, seat: int, gid: int, key: str, from_hand: bool = False) -> int:
    return card_value(state, seat, group(state, gid), key, from_hand)


def table_sum(state: State, seat: int, key: str) -> int:
    return sum(group_value(state, seat, gid, key) for gid in player(state, seat)["table"])


def leader_value(state: State, seat: int, key: str) -> int:
    """The Leader's figure; 0 while it is neutralised (advanced game)."""
    card = leader(state, seat)
    if card is None or player(state, seat).get("neutral"):
        return 0
    return card_value(state, seat, card, key)


def metric(state: State, seat: int, what: str) -> int:
    """A public figure of a player: power, votes, income, money or consensus."""
    if what == "power":
        return table_sum(state, seat, "power")
    if what == "votes":
        return leader_value(state, seat, "votes") + table_sum(state, seat, "votes") + 2 * consensus(state, seat)
    if what == "income":
        return leader_value(state, seat, "income") + table_sum(state, seat, "income")
    if what == "money":
        return player(state, seat)["money"]
    return consensus(state, seat)


def can_draw_group(state: State) -> bool:
    return bool(state["draw_pile"] or state["discards"])


def draw_group(state: State, seat: int) -> int | None:
    """Move the top Group card to ``seat``'s hand, reshuffling the discards when the pile is empty."""
    if not state["draw_pile"]:
        if not state["discards"]:
            return None
        state["draw_pile"] = state["discards"]
        state["discards"] = []
        base.rng(state).shuffle(state["draw_pile"])
        log(state, base.say("The discarded Group cards are shuffled into a new Group pile."))
    gid = state["draw_pile"].pop(0)
    player(state, seat)["hand"].append(gid)
    return gid


def payable(state: State, amount: int) -> int:
    """What the Treasury can pay of ``amount``: all of it, or what it holds."""
    return min(amount, state["treasury"])


def receive(state: State, seat: int, amount: int) -> int:
    """Pay up to ``amount`` from the Treasury to ``seat``; returns what was actually paid."""
    paid = payable(state, amount)
    state["treasury"] -= paid
    player(state, seat)["money"] += paid
    return paid


def take_draw(state: State, seat: int, what: str) -> None:
    """The standard reward: 1 Group card or 2 Mega-Euro, as the player chose."""
    if what == "group":
        gid = draw_group(state, seat)
        assert gid is not None  # "group" is offered only while a card can be drawn (draw_choices)
        log(state, base.say("{player} draws a Group card.", player=name(seat)))
        log(state, base.say("You drew {card}.", card=group_label(state, gid)), to=[seat])
    else:
        paid = receive(state, seat, DRAW_MONEY)
        log(state, base.say("{player} takes {money} Mega-Euro from the Treasury.", player=name(seat), money=paid))


def draw_choices(state: State) -> list[str]:
    return [what for what, possible in (("group", can_draw_group(state)), ("money", state["treasury"] > 0)) if possible]


def discard_from_hand(state: State, seat: int, gid: int) -> None:
    player(state, seat)["hand"].remove(gid)
    state["discards"].append(gid)


def title_price(state: State) -> int:
    """A Deposit Title's price now (a Hand Action may lower it until the end of the turn)."""
    return state.get("title_price") or TITLE_PRICE


def discard_from_table(state: State, seat: int, gid: int) -> None:
    player(state, seat)["table"].remove(gid)
    state["discards"].append(gid)


def discard_anywhere(state: State, seat: int, gid: int) -> None:
    """Discard a Group card from ``seat``'s hand or table, face up, and log it."""
    if gid in player(state, seat)["hand"]:
        discard_from_hand(state, seat, gid)
        log(
            state,
            base.say("{player} discards {card} from their hand.", player=name(seat), card=group_label(state, gid)),
        )
    else:
        discard_from_table(state, seat, gid)
        log(
            state,
            base.say("{player} discards {card} from their table.", player=name(seat), card=group_label(state, gid)),
        )


def pay_to_treasury(state: State, seat: int, amount: int) -> None:
    player(state, seat)["money"] -= amount
    state["treasury"] += amount
