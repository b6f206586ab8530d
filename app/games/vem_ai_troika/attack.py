"""The Attack action of Vem aí a Troika as an exchange of single actions (ruling V4).

``state["attack"]`` while an attack runs::

    {"attacker": seat, "defender": seat, "target": group id, "mode": "control"|"discard",
     "attack_base": Leader Power (4 in an attack to discard), "defence_base": target Power
     + 1 per other card in its column + 1 same-colour Leader + 1 Government defending gold,
     "attack_cards": [ids], "defence_cards": [ids], "answered": bool (the defender has played)}

The attacker opens with one or more cards whose total beats the defence. From then on the side
that is not ahead (the attacker at a tie) answers, whatever put it behind (V4): the defender's
first answer is any number of cards, or ``stop`` (no defence: the attacker wins); every later
answer, and every answer of the attacker, is one card or ``stop``, and stopping loses.

Advanced game (V4, V10), further keys: ``actions`` (the attacker's cards played for their Hand
Action instead of their Power: declared in the opening's or an ``add``'s ``actions`` field),
``bonus`` (Power those actions added), ``phase`` ("actions" while they wait for reactions,
"support", then "exchange"), ``supporters`` (seats still to declare a support, in round order
from the attacker's left) and ``support`` ([{seat, side, card}]). Only the target's column
counts in its defence. In an attack to control every other player with a Group card in hand
may support either side with one card, before the defender answers; a supporter of the
winning side may draw. A support may put the defence ahead before the defender has answered:
the attacker then adds or stops, and the defender's first answer, when it comes, may still be
several cards. A card with a "first" Hand Action may use it only in the opening, one
marked "discard_only" only in an attack to discard.
"""

from __future__ import annotations

from itertools import combinations
from typing import get_args

from app.games import base
from app.games.base import Action, Ids, IllegalAction, State, require
from app.games.vem_ai_troika import advanced, card_actions, table
from app.games.vem_ai_troika.deck import GROUP_COUNTS
from app.games.vem_ai_troika.table import group, group_label, log, name, owner, player
from app.games.vem_ai_troika.types import Attack, Mode

DISCARD_ATTACK_POWER = 4
# an attack is chosen by ticking cards, not from the list: the schema its fields must pass,
# read from its one declaration (``types.Attack``)
MODES: tuple[str, ...] = get_args(Mode)
CARD_IDS = Ids(most=sum(GROUP_COUNTS.values()))
FIELDS = base.schema_of(Attack, CARD_IDS)
SIDES = ("attack", "defence")


def defence_base(state: State, defender: int, target: int) -> int:
    colour = group(state, target)["colour"]
    column = table.column(state, defender, target)
    leader = table.leader(state, defender)
    same_colour_leader = leader is not None and leader["colour"] == colour
    government_gold = state["government"] == defender and colour == "gold"
    power = table.group_value(state, defender, target, "power")
    return power + len(column) - 1 + same_colour_leader + government_gold


def attack_base(state: State, attacker: int, mode: str) -> int:
    return DISCARD_ATTACK_POWER if mode == "discard" else table.leader_value(state, attacker, "power")


def power_of(state: State, seat: int, cards: list[int], actions: list[int] | tuple[int, ...] = ()) -> int:
    """The Power ``seat`` adds by playing ``cards`` from hand (those in ``actions`` add none)."""
    return sum(table.group_value(state, seat, gid, "power", from_hand=True) for gid in cards if gid not in actions)


def bonus_of(state: State, actions: list[int]) -> int:
    """The Power the attack-bonus Hand Actions of ``actions`` would add."""
    return sum(
        e["amount"]
        for gid in actions
        for e in advanced.played_action(state, gid)["effects"]
        if e["do"] == "attack_bonus"
    )


def totals(state: State) -> tuple[int, int]:
    a = state["attack"]
    supports = {
        side: sum(
            table.group_value(state, s["seat"], s["card"], "power", True) for s in a["support"] if s["side"] == side
        )
        for side in SIDES
    }
    return (
        a["attack_base"]
        + power_of(state, a["attacker"], a["attack_cards"], a["actions"])
        + a["bonus"]
        + supports["attack"],
        a["defence_base"] + power_of(state, a["defender"], a["defence_cards"]) + supports["defence"],
    )


def awaited(state: State) -> int:
    a = state["attack"]
    if a["phase"] == "support":
        return a["supporters"][0]
    attack, defence = totals(state)
    return a["defender"] if attack > defence else a["attacker"]


def usable_in_attack(state: State, gid: int, mode: str, opening: bool) -> bool:
    """Whether the attacker may play ``gid`` for its Hand Action in this attack (advanced game)."""
    action = advanced.hand_action(state, gid)
    if not table.advanced(state) or action is None or "effects" not in action:
        return False
    if action["when"] not in ("attack", "any") or advanced.is_cancel(state, gid):
        return False
    if (action["first"] and not opening) or (action["discard_only"] and mode != "discard"):
        return False
    return not card_actions.needs(action["effects"], in_attack=True)


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
    actions = action.get("actions", [])
    require(set(actions) <= set(cards), "a card played for its Hand Action must be one of the cards you play")
    require(
        all(usable_in_attack(state, gid, action["mode"], opening=True) for gid in actions),
        "that card's Hand Action cannot be used in this attack",
    )
    opening = (
        attack_base(state, seat, action["mode"]) + power_of(state, seat, cards, actions) + bonus_of(state, actions)
    )
    require(opening > defence_base(state, defender, target), "the opening attack must be stronger than the defence")


def start_actions(state: State, seat: int) -> list[Action]:
    """The openings ``seat`` may make; in the advanced game also each one that plays a single
    card for its Hand Action (several such cards may be declared, but are not listed). A card's
    Power from hand, and so each set's, is the same against every target: counted once."""
    hand = player(state, seat)["hand"]
    power = {gid: table.group_value(state, seat, gid, "power", from_hand=True) for gid in hand}
    hand_sets = [(cards, sum(power[gid] for gid in cards)) for cards in subsets(hand)]
    modes = []
    for mode in MODES:
        usable = [gid for gid in hand if usable_in_attack(state, gid, mode, True)]
        modes.append(
            (mode, attack_base(state, seat, mode), [(gid, bonus_of(state, [gid]) - power[gid]) for gid in usable])
        )
    actions = []
    for defender in table.round_order(state):
        if defender == seat:
            continue
        for target in player(state, defender)["table"]:
            need = defence_base(state, defender, target)
            for mode, opening, usable in modes:
                for cards, total in hand_sets:
                    if opening + total > need:
                        actions.append({"type": "attack", "target": target, "mode": mode, "cards": cards})
                    actions += [
                        {"type": "attack", "target": target, "mode": mode, "cards": cards, "actions": [gid]}
                        for gid, change in usable
                        if gid in cards and opening + total + change > need
                    ]
    return actions


def start(state: State, seat: int, action: Action) -> None:
    check_start(state, seat, action)
    cards, target, mode = sorted(action["cards"]), action["target"], action["mode"]
    actions = sorted(action.get("actions", []))
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
        "actions": actions,
        "bonus": 0,
        "phase": "actions",
        "supporters": [],
        "support": [],
        "opened": False,
    }
    state["stage"] = "attack"
    attack, defence = totals(state)
    facts = {
        "player": name(seat),
        "other": name(defender),
        "card": group_label(state, target),
        "cards": played_cards(state, seat, cards, actions),
        "attack": attack,
        "defence": defence,
    }
    if mode == "discard":
        said = base.say(
            "{player} attacks {other}'s {card} to discard it, playing {cards}: "
            "attack {attack} against defence {defence}.",
            **facts,
        )
    else:
        said = base.say(
            "{player} attacks {other}'s {card} to take control of it, playing {cards}: "
            "attack {attack} against defence {defence}.",
            **facts,
        )
    log(state, said)
    if actions:
        advanced.play(state, "attack", [{"seat": seat, "card": gid, "picks": {}} for gid in actions])


def played_cards(state: State, seat: int, cards: list[int], actions: list[int]) -> list[base.Message]:
    """The cards ``seat``'s attack or answer plays, each with the Power it adds as the totals
    count it (from the hand: the log named a variable card's printed Power beside a total that
    counted more), those played for their Hand Action said so."""
    return [
        base.say("{card} for its Hand Action", card=group_label(state, gid))
        if gid in actions
        else group_label(state, gid, table.group_value(state, seat, gid, "power", from_hand=True))
        for gid in cards
    ]


def after_hand_actions(state: State) -> None:
    """The attack goes on once its Hand Actions are settled: after the opening, to the supports
    (an attack to control in the advanced game), else to the exchange. An opening that a
    cancelled card left too weak awaits the attacker, as a defence that holds would (``awaited``)."""
    a = state["attack"]
    others = [
        s for s in table.round_order(state) if s not in (a["attacker"], a["defender"]) and player(state, s)["hand"]
    ]
    if not a["opened"] and a["mode"] == "control" and table.advanced(state) and others:
        start = table.order_from(state, a["attacker"])
        a["supporters"] = [s for s in start if s in others]
        a["phase"] = "support"
    else:
        a["phase"] = "exchange"
    a["opened"] = True


def support_actions(state: State, seat: int) -> list[Action]:
    hand = sorted(player(state, seat)["hand"])
    return [{"type": "support", "side": side, "card": gid} for side in SIDES for gid in hand] + [{"type": "no_support"}]


def support(state: State, seat: int, action: Action) -> None:
    a = state["attack"]
    a["supporters"].pop(0)
    if action["type"] == "support":
        player(state, seat)["hand"].remove(action["card"])
        a["support"].append({"seat": seat, "side": action["side"], "card": action["card"]})
        attack, defence = totals(state)
        counted = table.group_value(state, seat, action["card"], "power", True)  # (as ``totals`` counts it)
        facts = {
            "player": name(seat),
            "card": group_label(state, action["card"], counted),
            "attack": attack,
            "defence": defence,
        }
        if action["side"] == "attack":
            said = base.say(
                "{player} supports the attack with {card}: attack {attack} against defence {defence}.", **facts
            )
        else:
            said = base.say(
                "{player} supports the defence with {card}: attack {attack} against defence {defence}.", **facts
            )
        log(state, said)
    else:
        log(state, base.say("{player} supports neither side.", player=name(seat)))
    if not a["supporters"]:
        a["phase"] = "exchange"


def answer_actions(state: State, seat: int) -> list[Action]:
    a = state["attack"]
    if a["phase"] == "support":
        return support_actions(state, seat)
    hand = player(state, seat)["hand"]
    if a["answered"] or seat == a["attacker"]:
        adds = [{"type": "add", "cards": [gid]} for gid in sorted(hand)]
        if seat == a["attacker"]:
            adds += [
                {"type": "add", "cards": [gid], "actions": [gid]}
                for gid in sorted(hand)
                if usable_in_attack(state, gid, a["mode"], opening=False)
            ]
    else:
        adds = [{"type": "add", "cards": cards} for cards in subsets(hand)]
    return adds + [{"type": "stop"}]


def add(state: State, seat: int, action: Action) -> None:
    a = state["attack"]
    cards = sorted(action["cards"])
    actions = action.get("actions", [])
    for gid in cards:
        player(state, seat)["hand"].remove(gid)
    side = "attack_cards" if seat == a["attacker"] else "defence_cards"
    a[side] += cards
    a["actions"] += actions
    a["answered"] = a["answered"] or seat == a["defender"]
    attack, defence = totals(state)
    played = played_cards(state, seat, cards, actions)
    log(
        state,
        base.say(
            "{player} adds {cards}: attack {attack} against defence {defence}.",
            player=name(seat),
            cards=played,
            attack=attack,
            defence=defence,
        ),
    )
    if actions:
        a["phase"] = "actions"
        advanced.play(state, "attack", [{"seat": seat, "card": gid, "picks": {}} for gid in actions])


def stop(state: State, seat: int) -> None:
    """The awaited side stops: it loses, except that a defender who never answered simply yields."""
    a = state["attack"]
    if seat == a["defender"] and not a["answered"]:
        log(state, base.say("{player} does not defend.", player=name(seat)))
    else:
        log(state, base.say("{player} stops.", player=name(seat)))
    finish(state, attacker_wins=seat == a["defender"])


def has_cards(state: State, seat: int) -> bool:
    return bool(player(state, seat)["hand"])


def finish(state: State, attacker_wins: bool) -> None:
    """Settle the attack: move or discard the target, discard played cards, queue the draws."""
    a = state["attack"]
    attacker, defender, target = a["attacker"], a["defender"], a["target"]
    state["discards"] += a["attack_cards"] + a["defence_cards"] + [s["card"] for s in a["support"]]
    if not attacker_wins:
        log(state, base.say("{player} holds {card}.", player=name(defender), card=group_label(state, target)))
    elif a["mode"] == "discard":
        table.discard_from_table(state, defender, target)
        log(
            state,
            base.say("{player} wins: {card} is discarded.", player=name(attacker), card=group_label(state, target)),
        )
    else:
        table.move_to_table(state, defender, attacker, target)
        log(
            state,
            base.say(
                "{player} wins and takes control of {card}.", player=name(attacker), card=group_label(state, target)
            ),
        )
        colour = group(state, target)["colour"]
        if len(table.family(state, attacker, colour)) > table.FAMILY_LIMIT and not table.advanced(state):
            state["prompts"].append({"kind": "overflow", "seat": attacker, "colour": colour, "keep": target})
    if attacker_wins:
        state["prompts"].append({"kind": "draw", "seat": defender, "reason": "lost an attack"})
    if len(state["players"]) >= 3:
        state["prompts"].append({"kind": "draw", "seat": attacker, "reason": "attacked"})
    winners = "attack" if attacker_wins else "defence"
    state["prompts"] += [
        {"kind": "draw", "seat": s["seat"], "reason": "supported the winning side", "optional": True}
        for s in a["support"]
        if s["side"] == winners
    ]
    state["attack"] = None
    state["stage"] = "end_turn"


def auto_stop(state: State) -> bool:
    """Stop for the awaited side when it has no Group card left to play; True if it did."""
    if state["attack"]["phase"] != "exchange":
        return False
    seat = awaited(state)
    if has_cards(state, seat):
        return False
    stop(state, seat)
    return True
