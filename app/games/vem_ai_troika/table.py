"""Shared state helpers for Vem aí a Troika: card look-ups, table metrics and card movements.

Everything here reads or changes the working copy of a state (see ``engine.py`` for its layout).
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


def name(seat: int) -> str:
    return base.seat_label(seat)


def log(state: State, text: str, to: list[int] | None = None) -> None:
    state["log"].append(base.log_entry(text, to))


def group(state: State, gid: int) -> dict[str, Any]:
    return state["deck"]["groups"][gid]


def group_label(state: State, gid: int) -> str:
    card = group(state, gid)
    return f"{card['name']} ({card['colour']}, {card['power']} Power)"


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


def family(state: State, seat: int, colour: str) -> list[int]:
    return [gid for gid in player(state, seat)["table"] if group(state, gid)["colour"] == colour]


def consensus(state: State, seat: int) -> int:
    """Complete gold+blue+red+grey sets among the controlled Groups (V6)."""
    return min(len(family(state, seat, colour)) for colour in COLOURS)


def table_sum(state: State, seat: int, key: str) -> int:
    return sum(group(state, gid)[key] for gid in player(state, seat)["table"])


def leader_value(state: State, seat: int, key: str) -> int:
    card = leader(state, seat)
    return 0 if card is None else card[key]


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
        log(state, "The discarded Group cards are shuffled into a new Group pile.")
    gid = state["draw_pile"].pop(0)
    player(state, seat)["hand"].append(gid)
    return gid


def receive(state: State, seat: int, amount: int) -> int:
    """Pay up to ``amount`` from the Treasury to ``seat``; returns what was actually paid."""
    paid = min(amount, state["treasury"])
    state["treasury"] -= paid
    player(state, seat)["money"] += paid
    return paid


def take_draw(state: State, seat: int, what: str) -> None:
    """The standard reward: 1 Group card or 2 Mega-Euro, as the player chose."""
    if what == "group":
        gid = draw_group(state, seat)
        assert gid is not None  # "group" is offered only while a card can be drawn (draw_choices)
        log(state, f"{name(seat)} draws a Group card.")
        log(state, f"You drew {group_label(state, gid)}.", to=[seat])
    else:
        paid = receive(state, seat, DRAW_MONEY)
        log(state, f"{name(seat)} takes {paid} Mega-Euro from the Treasury.")


def draw_choices(state: State) -> list[str]:
    return [what for what, possible in (("group", can_draw_group(state)), ("money", state["treasury"] > 0)) if possible]


def discard_from_hand(state: State, seat: int, gid: int) -> None:
    player(state, seat)["hand"].remove(gid)
    state["discards"].append(gid)


def discard_from_table(state: State, seat: int, gid: int) -> None:
    player(state, seat)["table"].remove(gid)
    state["discards"].append(gid)


def discard_anywhere(state: State, seat: int, gid: int) -> None:
    """Discard a Group card from ``seat``'s hand or table, face up, and log it."""
    where = "hand" if gid in player(state, seat)["hand"] else "table"
    if where == "hand":
        discard_from_hand(state, seat, gid)
    else:
        discard_from_table(state, seat, gid)
    log(state, f"{name(seat)} discards {group_label(state, gid)} from their {where}.")


def pay_to_treasury(state: State, seat: int, amount: int) -> None:
    player(state, seat)["money"] -= amount
    state["treasury"] += amount
