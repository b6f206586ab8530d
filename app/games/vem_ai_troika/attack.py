"""The Attack action of Vem aí a Troika as an exchange of single actions (ruling V4).

``state["attack"]`` while an attack runs::

    {"attacker": seat, "defender": seat, "target": group id, "mode": "control"|"discard",
     "attack_base": Leader Power (4 in an attack to discard), "defence_base": target Power
     + 1 per other card in its column + 1 same-colour Leader + 1 Government defending gold,
     "attack_cards": [ids], "defence_cards": [ids], "answered": bool}

The attacker opens with one or more cards whose total beats the defence. The defender's first
answer is any number of cards, or ``stop`` (no defence: the attacker wins). Afterwards the side
that is not ahead (the attacker at a tie) adds one card or stops, and stopping loses.
"""

from __future__ import annotations

from itertools import combinations

from app.games.base import Action, FieldType, Ids, IllegalAction, OneOf, State, Whole, require
from app.games.vem_ai_troika import table
from app.games.vem_ai_troika.deck import GROUP_COUNTS
from app.games.vem_ai_troika.table import group, group_label, log, name, player

MODES = ("control", "discard")
DISCARD_ATTACK_POWER = 4
# an attack is chosen by ticking cards, not from the list: the schema its fields must pass
FIELDS: dict[str, FieldType] = {"target": Whole(), "mode": OneOf(MODES), "cards": Ids(most=sum(GROUP_COUNTS.values()))}


def owner(state: State, gid: int) -> int | None:
    for seat, p in enumerate(state["players"]):
        if gid in p["table"]:
            return seat
    return None


def defence_base(state: State, defender: int, target: int) -> int:
    colour = group(state, target)["colour"]
    column = table.family(state, defender, colour)
    leader = table.leader(state, defender)
    same_colour_leader = leader is not None and leader["colour"] == colour
    government_gold = state["government"] == defender and colour == "gold"
    return group(state, target)["power"] + len(column) - 1 + same_colour_leader + government_gold


def attack_base(state: State, attacker: int, mode: str) -> int:
    return DISCARD_ATTACK_POWER if mode == "discard" else table.leader_value(state, attacker, "power")


def power_of(state: State, cards: list[int]) -> int:
    return sum(group(state, gid)["power"] for gid in cards)


def totals(state: State) -> tuple[int, int]:
    a = state["attack"]
    return (
        a["attack_base"] + power_of(state, a["attack_cards"]),
        a["defence_base"] + power_of(state, a["defence_cards"]),
    )


def awaited(state: State) -> int:
    a = state["attack"]
    attack, defence = totals(state)
    if not a["answered"] or attack > defence:
        return a["defender"]
    return a["attacker"]


def subsets(cards: list[int]) -> list[list[int]]:
    ordered = sorted(cards)
    return [list(c) for size in range(1, len(ordered) + 1) for c in combinations(ordered, size)]


def check_start(state: State, seat: int, action: Action) -> None:
    """Raise IllegalAction unless ``action`` (its fields read by ``FIELDS``) is a valid opening
    of an attack by ``seat``."""
    require(
        state["stage"] == "action" and not state["prompts"] and state["current"] == seat,
        "you can only attack as the action of your own turn",
    )
    target, cards = action["target"], action["cards"]
    defender = owner(state, target)
    if defender is None or defender == seat:
        raise IllegalAction("you can only attack an opponent's Group on the table")
    require(len(cards) > 0, "play at least one Group card from your hand")
    require(set(cards) <= set(player(state, seat)["hand"]), "you can only play Group cards from your hand")
    require(
        attack_base(state, seat, action["mode"]) + power_of(state, cards) > defence_base(state, defender, target),
        "the opening attack must be stronger than the defence",
    )


def start_actions(state: State, seat: int) -> list[Action]:
    hand_sets = subsets(player(state, seat)["hand"])
    actions = []
    for defender in table.round_order(state):
        if defender == seat:
            continue
        for target in player(state, defender)["table"]:
            need = defence_base(state, defender, target)
            for mode in MODES:
                base = attack_base(state, seat, mode)
                actions += [
                    {"type": "attack", "target": target, "mode": mode, "cards": cards}
                    for cards in hand_sets
                    if base + power_of(state, cards) > need
                ]
    return actions


def start(state: State, seat: int, action: Action) -> None:
    check_start(state, seat, action)
    cards, target, mode = sorted(action["cards"]), action["target"], action["mode"]
    defender = owner(state, target)
    assert defender is not None  # check_start made sure
    for gid in cards:
        player(state, seat)["hand"].remove(gid)
    state["attack"] = {
        "attacker": seat,
        "defender": defender,
        "target": target,
        "mode": mode,
        "attack_base": attack_base(state, seat, mode),
        "defence_base": defence_base(state, defender, target),
        "attack_cards": cards,
        "defence_cards": [],
        "answered": False,
    }
    state["stage"] = "attack"
    what = "to discard it" if mode == "discard" else "to take control of it"
    played = ", ".join(group_label(state, gid) for gid in cards)
    attack, defence = totals(state)
    log(
        state,
        f"{name(seat)} attacks {name(defender)}'s {group_label(state, target)} {what}, "
        f"playing {played}: attack {attack} against defence {defence}.",
    )


def answer_actions(state: State, seat: int) -> list[Action]:
    hand = player(state, seat)["hand"]
    if state["attack"]["answered"]:
        adds = [{"type": "add", "cards": [gid]} for gid in sorted(hand)]
    else:
        adds = [{"type": "add", "cards": cards} for cards in subsets(hand)]
    return adds + [{"type": "stop"}]


def add(state: State, seat: int, action: Action) -> None:
    a = state["attack"]
    cards = sorted(action["cards"])
    for gid in cards:
        player(state, seat)["hand"].remove(gid)
    side = "attack_cards" if seat == a["attacker"] else "defence_cards"
    a[side] += cards
    a["answered"] = True
    attack, defence = totals(state)
    played = ", ".join(group_label(state, gid) for gid in cards)
    log(state, f"{name(seat)} adds {played}: attack {attack} against defence {defence}.")


def stop(state: State, seat: int) -> None:
    """The awaited side stops: it loses, except that a defender who never answered simply yields."""
    a = state["attack"]
    if seat == a["defender"] and not a["answered"]:
        log(state, f"{name(seat)} does not defend.")
    else:
        log(state, f"{name(seat)} stops.")
    finish(state, attacker_wins=seat == a["defender"])


def has_cards(state: State, seat: int) -> bool:
    return bool(player(state, seat)["hand"])


def finish(state: State, attacker_wins: bool) -> None:
    """Settle the attack: move or discard the target, discard played cards, queue the draws."""
    a = state["attack"]
    attacker, defender, target = a["attacker"], a["defender"], a["target"]
    state["discards"] += a["attack_cards"] + a["defence_cards"]
    if not attacker_wins:
        log(state, f"{name(defender)} holds {group_label(state, target)}.")
    elif a["mode"] == "discard":
        table.discard_from_table(state, defender, target)
        log(state, f"{name(attacker)} wins: {group_label(state, target)} is discarded.")
    else:
        player(state, defender)["table"].remove(target)
        player(state, attacker)["table"].append(target)
        log(state, f"{name(attacker)} wins and takes control of {group_label(state, target)}.")
        colour = group(state, target)["colour"]
        if len(table.family(state, attacker, colour)) > table.FAMILY_LIMIT:
            state["prompts"].append({"kind": "overflow", "seat": attacker, "colour": colour, "keep": target})
    if attacker_wins:
        state["prompts"].append({"kind": "draw", "seat": defender, "reason": "lost an attack"})
    if len(state["players"]) >= 3:
        state["prompts"].append({"kind": "draw", "seat": attacker, "reason": "attacked"})
    state["attack"] = None
    state["stage"] = "end_turn"


def auto_stop(state: State) -> bool:
    """Stop for the awaited side when it has no Group card left to play; True if it did."""
    seat = awaited(state)
    if has_cards(state, seat):
        return False
    stop(state, seat)
    return True
