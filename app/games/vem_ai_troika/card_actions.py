"""Hand Actions and Table Actions of the advanced game as data (rulings V2, V10): the primitives
a card's ``effects`` combine, their checks, their plain-English description, the choices each
needs from the player and how they are carried out.

A Group card's ``hand_action`` and a Leader's ``table_action`` hold ``effects``, a list of
1-3 effects resolved in order, each ``{"do": primitive, ...}``. "You" is the player of the card.

Primitives (and the timings they may be used at)
------------------------------------------------
``{"do": "receive", "amount": 1-5}``     you take the amount from the Treasury (any timing).
``{"do": "receive_per", "amount": 1-2, "per": "type"|"colour", "of": a type or colour,
  "on": "yours"|"all"}``                 you take the amount from the Treasury for each Group of
    that type or colour on your table ("yours") or on every table ("all"), as far as the
    Treasury goes (any timing; the layout's example "Broadcasting Rights").
``{"do": "draw", "count": 1-2}``         you draw that many Group cards (any timing).
``{"do": "take_money", "amount": 1-3}``  you take up to the amount from an opponent's hand
    (they pay what they have); in an attack the opponent is the defender.
``{"do": "fine", "amount": 1-3}``        an opponent pays the amount to the Treasury; one who
    cannot pays nothing and returns their lowest Deposit Title to the Title pile instead (no
    Group cards are discarded for it); in an attack the opponent is the defender.
``{"do": "discount", "price": 3-5}``     until the end of your turn a Deposit Title costs
    ``price`` Mega-Euro (income timing).
``{"do": "cancel"}``                     cancels the Hand Action of the card just played by
    another player: that card is discarded without effect (a reaction, see ``reactions.py``).
``{"do": "control_votes"}``              for this Election the Votes of a Group on the table
    (any player's) count for the candidate you name instead of its controller; Consensuses do
    not change (elections timing). A Group's Votes are controlled once: a later control of the
    same Group (in the order the Pre-Campaign is revealed) has no effect, and a seat may not aim
    two of its own cards at one Group (V10).
``{"do": "votes", "amount": 1-4}``       you gain that many Votes in this Election (elections).
``{"do": "neutralise", "until": "turn"|"round"}``  an opponent's Leader counts 0 Power, 0 Votes
    and 0 Income and cannot use its Table Action until the end of this turn or this round; in
    an attack the opponent is the defender.
``{"do": "pay_or_fall", "amount": 1-3}`` the Government chooses to pay you the amount; if it
    does not, you may pay the amount to the Treasury to bring it down (its card turns face
    down) and Elections are held at the end of the round, before the Event. No effect without a
    Government, or when you are the Government.
``{"do": "swap"}``                       you swap a Group you control with a Group of the same
    colour an opponent controls (organization or any timing).
``{"do": "attack_bonus", "amount": 1-5}`` adds Power to your attack (attack timing).

Choices (the fields of a ``hand_action`` / ``table_action`` action that an effect needs):
``opponent`` (a seat) for take_money, fine and neutralise outside an attack; ``mine`` and
``theirs`` (Group ids) for swap; ``group`` and ``candidate`` (a Group id on the table and a
seat) for control_votes.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from app.games import base
from app.games.base import Action, State
from app.games.vem_ai_troika import table
from app.games.vem_ai_troika.table import group_label, log, name, player

TIMINGS = ("income", "organization", "attack", "elections", "any")
TABLE_TIMINGS = ("turn", "elections")
DURATIONS = ("turn", "round")
# primitive: (its numeric field and range or None, the timings it may be used at)
PRIMITIVES: dict[str, tuple[tuple[str, int, int] | None, tuple[str, ...]]] = {
    "receive": (("amount", 1, 5), TIMINGS + TABLE_TIMINGS),
    "receive_per": (("amount", 1, 2), TIMINGS + TABLE_TIMINGS),
    "draw": (("count", 1, 2), TIMINGS + TABLE_TIMINGS),
    "take_money": (("amount", 1, 3), ("income", "organization", "attack", "any", "turn")),
    "fine": (("amount", 1, 3), ("income", "organization", "attack", "any", "turn")),
    "discount": (("price", 3, 5), ("income", "turn")),
    "cancel": (None, ("any",)),
    "control_votes": (None, ("elections",)),
    "votes": (("amount", 1, 4), ("elections",)),
    "neutralise": (None, ("income", "organization", "attack", "any", "turn")),
    "pay_or_fall": (("amount", 1, 3), ("income", "organization", "attack", "any", "turn")),
    "swap": (None, ("organization", "any", "turn")),
    "attack_bonus": (("amount", 1, 5), ("attack",)),
}
OPPONENT_PRIMITIVES = ("take_money", "fine", "neutralise")
# the word fields a primitive takes besides its number, each with its allowed values ("of"
# depends on "per": a Group type or a colour)
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "neutralise": {"until": DURATIONS},
    "receive_per": {"per": ("type", "colour"), "of": (), "on": ("yours", "all")},
}


# --- checking -------------------------------------------------------------------------------


def check_effects(raw: Any, when: str, path: str) -> list[dict[str, Any]]:
    """Checked copies of a card action's effects for its timing; ValueError naming the field."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= 3:
        base.refuse(path, "must be a list of 1-3 effects")
    checked = [check_effect(effect, when, f"{path}[{i}]") for i, effect in enumerate(raw)]
    if any(e["do"] == "cancel" for e in checked) and len(checked) > 1:
        base.refuse(path, "'cancel' must be the action's only effect")
    return checked


def check_effect(effect: Any, when: str, path: str) -> dict[str, Any]:
    if not isinstance(effect, dict) or effect.get("do") not in PRIMITIVES:
        base.refuse(f"{path}.do", "must be one of {choices}", choices=", ".join(PRIMITIVES))
    do = effect["do"]
    number, timings = PRIMITIVES[do]
    words = WORDS.get(do, {})
    allowed = {"do"} | ({number[0]} if number else set()) | set(words)
    unknown = sorted(set(effect) - allowed)
    if unknown:
        base.refuse(path, "unknown field '{field}' for '{do}'", field=unknown[0], do=do)
    if when not in timings:
        base.refuse(f"{path}.do", "'{do}' cannot be used at the '{when}' timing", do=do, when=when)
    checked: dict[str, Any] = {"do": do}
    if number:
        key, low, high = number
        value = effect.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            base.refuse(f"{path}.{key}", "must be an integer {low}-{high}", low=low, high=high)
        checked[key] = value
    for key, values in words.items():
        if key == "of":
            values = table.GROUP_TYPES if checked["per"] == "type" else table.COLOURS
        if effect.get(key) not in values:
            base.refuse(f"{path}.{key}", "must be one of {choices}", choices=", ".join(values))
        checked[key] = effect[key]
    return checked


# --- describing -----------------------------------------------------------------------------


def sentence(effect: dict[str, Any]) -> base.Message:
    """One card action effect in words, as a message."""
    do, amount = effect["do"], effect.get("amount")
    if do == "receive":
        return base.say("Take {amount} Mega-Euro from the Treasury.", amount=amount)
    if do == "receive_per":
        of = table.type_word(effect["of"]) if effect["per"] == "type" else table.colour_word(effect["of"])
        if effect["on"] == "yours":
            return base.say(
                "Take {amount} Mega-Euro from the Treasury per {of} Group you control.", amount=amount, of=of
            )
        return base.say(
            "Take {amount} Mega-Euro from the Treasury per {of} Group on every table.", amount=amount, of=of
        )
    if do == "draw":
        return (
            base.say("Draw 1 Group card.")
            if effect["count"] == 1
            else base.say("Draw {count} Group cards.", count=effect["count"])
        )
    if do == "take_money":
        return base.say("Take up to {amount} Mega-Euro from an opponent's hand.", amount=amount)
    if do == "fine":
        return base.say(
            "An opponent pays {amount} Mega-Euro to the Treasury; one who cannot returns a Deposit Title.",
            amount=amount,
        )
    if do == "discount":
        return base.say("Until the end of your turn each Deposit Title costs {price} Mega-Euro.", price=effect["price"])
    if do == "cancel":
        return base.say("Cancel the Hand Action of the card another player has just played, even on their turn.")
    if do == "control_votes":
        return base.say(
            "In the Pre-Campaign, give the Votes of one Group on the table to a candidate you name "
            "for this Election (Consensuses do not change)."
        )
    if do == "votes":
        return (
            base.say("Gain 1 Vote in this Election.")
            if amount == 1
            else base.say("Gain {amount} Votes in this Election.", amount=amount)
        )
    if do == "neutralise" and effect["until"] == "round":
        return base.say(
            "Until the end of the round, an opponent's Leader counts 0 Power, 0 Votes and 0 Income "
            "and cannot use its Table Action."
        )
    if do == "neutralise":
        return base.say(
            "Until the end of the turn, an opponent's Leader counts 0 Power, 0 Votes and 0 Income "
            "and cannot use its Table Action."
        )
    if do == "pay_or_fall":
        return base.say(
            "The Government may pay you {amount} Mega-Euro; if it does not, you may pay {amount} to the "
            "Treasury to bring it down, and Elections are held at the end of the round.",
            amount=amount,
        )
    if do == "swap":
        return base.say("Swap a Group you control with a Group of the same colour an opponent controls.")
    return base.say("Add {amount} Power to your attack.", amount=amount)


def action_message(effects: list[dict[str, Any]]) -> base.Message:
    """A card action's effects in words, as one message."""
    return base.one_after_another([sentence(e) for e in effects])


def describe(effects: list[dict[str, Any]]) -> str:
    return base.spoken(action_message(effects))


# --- choices --------------------------------------------------------------------------------


def needs(effects: list[dict[str, Any]], in_attack: bool) -> set[str]:
    """The choice fields an action with these effects takes (in an attack, none for opponents)."""
    fields: set[str] = set()
    for e in effects:
        if e["do"] in OPPONENT_PRIMITIVES and not in_attack:
            fields.add("opponent")
        elif e["do"] == "swap":
            fields |= {"mine", "theirs"}
        elif e["do"] == "control_votes":
            fields |= {"group", "candidate"}
    return fields


def choices(state: State, seat: int, effects: list[dict[str, Any]]) -> list[dict[str, int]]:
    """Every legal combination of the choices the effects need, outside an attack ([{}] if none;
    [] when a needed choice has no legal value, so the action cannot be played now)."""
    fields = needs(effects, in_attack=False)
    opponents = [s for s in table.round_order(state) if s != seat]
    options: list[list[dict[str, int]]] = []
    if "opponent" in fields:
        options.append([{"opponent": s} for s in opponents])
    if "mine" in fields:
        options.append(
            [
                {"mine": mine, "theirs": theirs}
                for mine in player(state, seat)["table"]
                for other in opponents
                for theirs in player(state, other)["table"]
                if table.group(state, mine)["colour"] == table.group(state, theirs)["colour"]
            ]
        )
    if "group" in fields:  # not a Group whose Votes are controlled already, as far as the seat knows
        taken = {c["group"] for c in state["vote_control"]} | {
            e["picks"].get("group") for e in player(state, seat)["precampaign"]
        }
        on_table = [gid for s in table.round_order(state) for gid in player(state, s)["table"] if gid not in taken]
        options.append([{"group": gid, "candidate": c} for gid in on_table for c in table.round_order(state)])
    return [{k: v for part in combo for k, v in part.items()} for combo in product(*options)]


# --- resolving ------------------------------------------------------------------------------


def resolve(state: State, seat: int, effects: list[dict[str, Any]], picks: dict[str, int]) -> None:
    """Carry out ``effects`` for ``seat`` with its ``picks`` (in an attack ``opponent`` is the
    defender); choices some effects leave to other players become prompts."""
    for effect in effects:
        RESOLVERS[effect["do"]](state, seat, effect, picks)


def _receive(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    paid = table.receive(state, seat, effect["amount"])
    log(state, base.say("{player} takes {money} Mega-Euro from the Treasury.", player=name(seat), money=paid))


def _receive_per(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    seats = range(len(state["players"])) if effect["on"] == "all" else [seat]
    key = "type" if effect["per"] == "type" else "colour"
    count = sum(table.group(state, gid).get(key) == effect["of"] for s in seats for gid in player(state, s)["table"])
    _receive(state, seat, {"amount": effect["amount"] * count}, picks)


def _draw(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    drawn = 0
    for _ in range(effect["count"]):
        gid = table.draw_group(state, seat)
        if gid is None:
            break
        drawn += 1
        log(state, base.say("You drew {card}.", card=group_label(state, gid)), to=[seat])
    if drawn == 1:
        log(state, base.say("{player} draws 1 Group card.", player=name(seat)))
    else:
        log(state, base.say("{player} draws {count} Group cards.", player=name(seat), count=drawn))


def _take_money(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    other = picks["opponent"]
    taken = min(effect["amount"], player(state, other)["money"])
    player(state, other)["money"] -= taken
    player(state, seat)["money"] += taken
    log(
        state,
        base.say("{player} takes {money} Mega-Euro from {other}.", player=name(seat), money=taken, other=name(other)),
    )


def _fine(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    other = picks["opponent"]
    p = player(state, other)
    if p["money"] >= effect["amount"]:
        table.pay_to_treasury(state, other, effect["amount"])
        log(
            state,
            base.say("{player} pays {money} Mega-Euro to the Treasury.", player=name(other), money=effect["amount"]),
        )
    elif p["titles"]:
        title = min(p["titles"])
        p["titles"].remove(title)
        state["titles"] = sorted([*state["titles"], title], reverse=True)
        log(
            state,
            base.say(
                "{player} cannot pay and returns a Deposit Title worth {title} to the pile.",
                player=name(other),
                title=title,
            ),
        )
    else:
        log(state, base.say("{player} cannot pay and has no Deposit Title: nothing happens.", player=name(other)))


def _discount(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    state["title_price"] = effect["price"]
    log(
        state,
        base.say(
            "Until the end of {player}'s turn a Deposit Title costs {price} Mega-Euro.",
            player=name(seat),
            price=effect["price"],
        ),
    )


def _control_votes(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    gid, candidate = picks["group"], picks["candidate"]
    if table.owner(state, gid) is None:
        log(state, base.say("{card} has left the table: its Votes stay uncounted.", card=group_label(state, gid)))
        return
    card = group_label(state, gid)
    if any(control["group"] == gid for control in state["vote_control"]):  # one card's Votes, one candidate (V10)
        said = base.say(
            "{card}'s Votes are already controlled: {player}'s control has no effect.", card=card, player=name(seat)
        )
    else:
        state["vote_control"].append({"group": gid, "candidate": candidate})
        said = base.say("In this Election the Votes of {card} count for {player}.", card=card, player=name(candidate))
    log(state, said)


def _votes(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    player(state, seat)["bonus_votes"] += effect["amount"]
    log(state, base.say("{player} gains {votes} Votes in this Election.", player=name(seat), votes=effect["amount"]))


def _neutralise(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    other = picks["opponent"]
    held = player(state, other)["neutral"]
    player(state, other)["neutral"] = "round" if "round" in (held, effect["until"]) else "turn"
    if effect["until"] == "round":
        log(state, base.say("{player}'s Leader counts nothing until the end of the round.", player=name(other)))
    else:
        log(state, base.say("{player}'s Leader counts nothing until the end of the turn.", player=name(other)))


def _pay_or_fall(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    government = state["government"]
    if government is None:
        log(state, base.say("There is no Government to pressure: nothing happens."))
        return
    if government == seat:
        log(state, base.say("{player} is the Government: nobody to pressure, nothing happens.", player=name(seat)))
        return
    state["prompts"].append({"kind": "government_pays", "seat": government, "player": seat, "amount": effect["amount"]})


def _swap(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    mine, theirs = picks["mine"], picks["theirs"]
    other = table.owner(state, theirs)
    if other is None or table.owner(state, mine) != seat:
        log(state, base.say("One of the Groups to swap has left the table: nothing happens."))
        return
    table.move_to_table(state, seat, other, mine)
    table.move_to_table(state, other, seat, theirs)
    log(
        state,
        base.say(
            "{player} swaps {card} for {other}'s {theirs}.",
            player=name(seat),
            card=group_label(state, mine),
            other=name(other),
            theirs=group_label(state, theirs),
        ),
    )


def _attack_bonus(state: State, seat: int, effect: dict[str, Any], picks: dict[str, int]) -> None:
    state["attack"]["bonus"] += effect["amount"]
    log(state, base.say("{player}'s attack gains {power} Power.", player=name(seat), power=effect["amount"]))


# "cancel" has no resolver: it is only ever played as a reaction (reactions.py)
RESOLVERS = {
    "receive": _receive,
    "receive_per": _receive_per,
    "draw": _draw,
    "take_money": _take_money,
    "fine": _fine,
    "discount": _discount,
    "control_votes": _control_votes,
    "votes": _votes,
    "neutralise": _neutralise,
    "pay_or_fall": _pay_or_fall,
    "swap": _swap,
    "attack_bonus": _attack_bonus,
}


def pick_fields(action: Action) -> dict[str, int]:
    """The choice fields of an action (everything but its type and card)."""
    return {key: action[key] for key in ("opponent", "mine", "theirs", "group", "candidate") if key in action}
