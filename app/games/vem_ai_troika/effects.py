"""Event effects for Vem aí a Troika as data (ruling V2): the primitives, their checks, their
plain-English description and how they are carried out.

An Event's ``effects`` is a list of effects resolved in order. An effect is an object with
``do`` (the primitive) and, for primitives that act on players, ``who`` (a selector).

Selectors (``who`` / ``to``)
----------------------------
``"all"``                 every player
``"government"``          the Government (no one if there is no Government)
``{"most": metric}``      the player(s) with the highest figure (all tied players; no one when
                          the highest figure is 0)
``{"fewest": metric}``    the player(s) with the lowest figure (all tied players)

Metrics are public figures: ``"power"`` (Power of controlled Groups), ``"votes"`` (Votes on the
table: Leader, controlled Groups, 2 per Consensus), ``"income"`` (Leader + controlled Groups),
``"money"`` (Mega-Euro in hand) and ``"consensus"`` (number of Consensuses).

Primitives
----------
``{"do": "receive", "who": S, "amount": 1-10}``   each selected player takes the amount from the
    Treasury, in round order; when the Treasury runs short a player gets only what is left.
``{"do": "pay", "who": S, "amount": 1-10, "to": S2 (optional)}``  each selected player pays the
    amount to the Treasury, or to each player chosen by ``to`` (never to themselves). A player
    who cannot pay in full keeps their Mega-Euro and instead discards Group cards (hand or
    table, their choice) with total Power at least the amount owed; an unpaid payee takes the
    amount from the Treasury instead.
``{"do": "discard", "who": S, "count": 1-4, "from": "any"|"hand"|"table"}``  each selected
    player discards that many Group cards of their choice (``from`` defaults to "any").
``{"do": "draw", "who": S}``  each selected player draws 1 Group card or 2 Mega-Euro.
``{"do": "elections"}``  Elections are held now; the winner keeps this Event card.
``{"do": "end_game"}``  the game ends once this Event has been resolved.
``{"do": "interim_government", "who": S}``  if exactly one player is selected, they become the
    Government (the sitting one turns its card face down) and keep this Event card.
"""

from __future__ import annotations

from typing import Any

from app.games import base
from app.games.base import State
from app.games.vem_ai_troika import advanced, table
from app.games.vem_ai_troika.table import log, name

METRICS = ("power", "votes", "income", "money", "consensus")
SOURCES = ("any", "hand", "table")
FIELDS = {
    "receive": {"who", "amount"},
    "pay": {"who", "amount", "to"},
    "discard": {"who", "count", "from"},
    "draw": {"who"},
    "elections": set(),
    "end_game": set(),
    "interim_government": {"who"},
}


# --- checking -------------------------------------------------------------------------------


def check_selector(value: Any, path: str) -> Any:
    if value in ("all", "government"):
        return value
    if isinstance(value, dict) and len(value) == 1:
        ((how, what),) = value.items()
        if how in ("most", "fewest") and what in METRICS:
            return {how: what}
    base.refuse(
        path,
        'must be "all", "government", {{"most": metric}} or {{"fewest": metric}} with a metric among {metrics}',
        metrics=", ".join(METRICS),
    )


def check_amount(effect: dict[str, Any], key: str, path: str, high: int) -> int:
    value = effect.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        base.refuse(f"{path}.{key}", "must be an integer {low}-{high}", low=1, high=high)
    return value


def check_effect(effect: Any, path: str) -> dict[str, Any]:
    """A checked copy of one effect; ValueError naming the bad field otherwise."""
    if not isinstance(effect, dict) or effect.get("do") not in FIELDS:
        base.refuse(f"{path}.do", "must be one of {choices}", choices=", ".join(FIELDS))
    do = effect["do"]
    unknown = sorted(set(effect) - FIELDS[do] - {"do"})
    if unknown:
        base.refuse(path, "unknown field '{field}' for '{do}'", field=unknown[0], do=do)
    checked: dict[str, Any] = {"do": do}
    if "who" in FIELDS[do]:
        checked["who"] = check_selector(effect.get("who"), f"{path}.who")
    if do in ("receive", "pay"):
        checked["amount"] = check_amount(effect, "amount", path, 10)
    if do == "pay" and "to" in effect:
        checked["to"] = check_selector(effect["to"], f"{path}.to")
    if do == "discard":
        checked["count"] = check_amount(effect, "count", path, 4)
        checked["from"] = effect.get("from", "any")
        if checked["from"] not in SOURCES:
            base.refuse(f"{path}.from", "must be one of {choices}", choices=", ".join(SOURCES))
    return checked


# --- describing -----------------------------------------------------------------------------


def who_words(selector: Any) -> base.Message:
    """Whom an effect hits, as a message opening the effect's sentence."""
    if selector == "all":
        return base.say("Every player")
    if selector == "government":
        return base.say("The Government")
    ((how, what),) = selector.items()
    return {
        ("most", "power"): base.say("The player with the most Power on the table (every tied player)"),
        ("fewest", "power"): base.say("The player with the fewest Power on the table (every tied player)"),
        ("most", "votes"): base.say("The player with the most Votes on the table (every tied player)"),
        ("fewest", "votes"): base.say("The player with the fewest Votes on the table (every tied player)"),
        ("most", "income"): base.say("The player with the most Income (every tied player)"),
        ("fewest", "income"): base.say("The player with the fewest Income (every tied player)"),
        ("most", "money"): base.say("The player with the most Mega-Euro in hand (every tied player)"),
        ("fewest", "money"): base.say("The player with the fewest Mega-Euro in hand (every tied player)"),
        ("most", "consensus"): base.say("The player with the most Consensuses (every tied player)"),
        ("fewest", "consensus"): base.say("The player with the fewest Consensuses (every tied player)"),
    }[how, what]


def payee_words(selector: Any) -> base.Message:
    """Whom an effect pays, with its "to", as a message inside a sentence (a language joins the
    two: Portuguese's "a o" is "ao")."""
    if selector == "all":
        return base.say("to every player")
    if selector == "government":
        return base.say("to the Government")
    ((how, what),) = selector.items()
    return {
        ("most", "power"): base.say("to the player with the most Power on the table (every tied player)"),
        ("fewest", "power"): base.say("to the player with the fewest Power on the table (every tied player)"),
        ("most", "votes"): base.say("to the player with the most Votes on the table (every tied player)"),
        ("fewest", "votes"): base.say("to the player with the fewest Votes on the table (every tied player)"),
        ("most", "income"): base.say("to the player with the most Income (every tied player)"),
        ("fewest", "income"): base.say("to the player with the fewest Income (every tied player)"),
        ("most", "money"): base.say("to the player with the most Mega-Euro in hand (every tied player)"),
        ("fewest", "money"): base.say("to the player with the fewest Mega-Euro in hand (every tied player)"),
        ("most", "consensus"): base.say("to the player with the most Consensuses (every tied player)"),
        ("fewest", "consensus"): base.say("to the player with the fewest Consensuses (every tied player)"),
    }[how, what]


def discard_words(who: base.Message, count: int, source: str) -> base.Message:
    if count == 1:
        return {
            "hand": base.say("{who} discards 1 Group card from their hand.", who=who),
            "table": base.say("{who} discards 1 Group card from their table.", who=who),
        }.get(source) or base.say("{who} discards 1 Group card from their hand or table.", who=who)
    return {
        "hand": base.say("{who} discards {count} Group cards from their hand.", who=who, count=count),
        "table": base.say("{who} discards {count} Group cards from their table.", who=who, count=count),
    }.get(source) or base.say("{who} discards {count} Group cards from their hand or table.", who=who, count=count)


def effect_message(effect: dict[str, Any]) -> base.Message:
    """One effect as a message, e.g. 'The Government receives 3 Mega-Euro from the Treasury.'"""
    do = effect["do"]
    if do == "elections":
        return base.say("Elections are held; the winner becomes the Government and keeps this card.")
    if do == "end_game":
        return base.say("The game ends once this Event has been resolved.")
    who = who_words(effect["who"])
    if do == "receive":
        return base.say("{who} receives {amount} Mega-Euro from the Treasury.", who=who, amount=effect["amount"])
    if do == "pay":
        payee = payee_words(effect["to"]) if "to" in effect else base.say("to the Treasury")
        return base.say("{who} pays {amount} Mega-Euro {payee}.", who=who, amount=effect["amount"], payee=payee)
    if do == "discard":
        return discard_words(who, effect["count"], effect["from"])
    if do == "draw":
        return base.say("{who} draws 1 Group card or takes 2 Mega-Euro.", who=who)
    # (``who`` names every tied player: the sentence says that a tie makes no one interim Government)
    return base.say(
        "{who} becomes the interim Government and keeps this card, if that is one player only (a tie: no one).", who=who
    )


def event_message(event: dict[str, Any]) -> base.Message:
    """All of an Event's effects as one message, with the points it is worth when kept."""
    said = [effect_message(effect) for effect in event["effects"]]
    if event["points"]:
        said.append(base.say("Worth {points} Victory Points to the player who keeps it.", points=event["points"]))
    return base.one_after_another(said)


def describe_effect(effect: dict[str, Any]) -> str:
    """One effect in plain English."""
    return base.spoken(effect_message(effect))


def describe_event(event: dict[str, Any]) -> str:
    """All of an Event's effects in plain English, with the points it is worth when kept."""
    return base.spoken(event_message(event))


# --- resolving ------------------------------------------------------------------------------


def select(state: State, selector: Any) -> list[int]:
    """The seats a selector names, in round order."""
    order = table.round_order(state)
    if selector == "all":
        return order
    if selector == "government":
        return [] if state["government"] is None else [state["government"]]
    ((how, what),) = selector.items()
    figures = {seat: table.metric(state, seat, what) for seat in order}
    best = max(figures.values()) if how == "most" else min(figures.values())
    if how == "most" and best == 0:
        return []
    return [seat for seat in order if figures[seat] == best]


def resolve(state: State, effect: dict[str, Any], event_id: int) -> None:
    """Carry out one effect on the working copy; choices it needs become prompts."""
    do = effect["do"]
    if do == "end_game":
        state["game_ending"] = True
        log(state, base.say("The game will end once this Event is resolved."))
        return
    if do == "elections":
        state["stage"] = "campaign"
        order = ", ".join(name(seat) for seat in table.campaign_order(state))
        log(state, base.say("Elections! The campaigns are committed face down, in this order: {order}.", order=order))
        if table.advanced(state):
            advanced.start_precampaign(state)
        return
    seats = select(state, effect["who"])
    if not seats:
        log(state, base.say("No player qualifies: this effect does nothing."))
        return
    if do == "receive":
        for seat in seats:
            paid = table.receive(state, seat, effect["amount"])
            log(
                state, base.say("{player} receives {money} Mega-Euro from the Treasury.", player=name(seat), money=paid)
            )
    elif do == "pay":
        payees = select(state, effect["to"]) if "to" in effect else None
        for seat in seats:
            pay(state, seat, effect["amount"], payees)
    elif do == "discard":
        for seat in seats:
            state["prompts"].append({"kind": "discard", "seat": seat, "count": effect["count"], "from": effect["from"]})
    elif do == "draw":
        for seat in seats:
            state["prompts"].append({"kind": "draw", "seat": seat, "reason": "event"})
    elif len(seats) == 1:
        install_government(state, seats[0], event_id)
        log(state, base.say("{player} forms an interim Government.", player=name(seats[0])))
    else:
        log(state, base.say("Several players tie: nobody forms an interim Government."))


def pay(state: State, seat: int, amount: int, payees: list[int] | None) -> None:
    """``seat`` pays ``amount`` to the Treasury (payees None) or to each other payee."""
    targets = None if payees is None else [t for t in payees if t != seat]
    if targets == []:
        return
    total = amount * (1 if targets is None else len(targets))
    if table.player(state, seat)["money"] >= total:
        table.pay_to_treasury(state, seat, total)
        for target in targets or []:
            table.receive(state, target, amount)
        if targets is None:  # (its own message: Portuguese says "ao Tesouro", not "a o Tesouro")
            said = base.say("{player} pays {money} Mega-Euro to the Treasury.", player=name(seat), money=total)
        else:
            whom = ", ".join(name(t) for t in targets)
            said = base.say("{player} pays {money} Mega-Euro to {whom}.", player=name(seat), money=total, whom=whom)
        log(state, said)
        return
    log(
        state,
        base.say(
            "{player} cannot pay {money} Mega-Euro and must discard Group cards with at least {money} Power instead.",
            player=name(seat),
            money=total,
        ),
    )
    state["prompts"].append({"kind": "cover", "seat": seat, "amount": total})
    for target in targets or []:
        paid = table.receive(state, target, amount)
        log(
            state,
            base.say(
                "{player} takes {money} Mega-Euro owed to them from the Treasury.", player=name(target), money=paid
            ),
        )


def install_government(state: State, seat: int, event_id: int | None) -> None:
    """``seat`` becomes the Government; the card it wins (if any) is its face-up Government card."""
    state["government"] = seat
    state["government_card"] = event_id
    if event_id is not None:
        table.player(state, seat)["kept"].append(event_id)
