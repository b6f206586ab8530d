"""The advanced game's card play (ruling V10): Hand Actions on a player's turn, Table Actions,
the Pre-Campaign, and the reaction window in which Advogados Militantes cancels a card.

A Hand Action is played by discarding its card at its timing (``when``): on the player's turn
before choosing the action ("any"), or committing to it ("income" opens the Income action,
"organization" the Organization action); in an attack (``attack.py``); or face down in the
Pre-Campaign ("elections"). Its effects wait in ``state["pending"]`` while the other players
may react, then resolve in order (``card_actions.py``).

Reaction window (the decision and its reasons are on the rules page and in docs/rulings.md)
-------------------------------------------------------------------------------------------
After every play of Hand Action cards a window opens, at once and for the same seats whatever
their hands hold: every seat other than the player that has at least one Group card in hand
(the hand sizes are public). Each answers, simultaneously and unseen by the others, "no" or
``react`` with a card whose effect is ``cancel``. The table shows only that the window is open
and for whom, never who has answered; the answers are revealed when the last one is in. A
seat may answer "no, and don't ask me again this round": its later windows that round are
answered for it the moment they open; that choice is its own secret (it does not change which
seats a window lists). With a turn timer, a seat that lets its time run out is played by the
server's bot, as everywhere. Reactions apply in round order; a second one against a card
already cancelled does nothing and its card stays in hand. A cancelling card cannot itself be
cancelled.

``state["reaction"]``: ``{"seats": [...], "answers": {seat: None | "no" | {"card", "cancel"}}}``
``state["pending"]``: ``{"context": "turn"|"attack"|"precampaign", "plays": [{"seat", "card",
"picks"}]}``
"""

from __future__ import annotations

from typing import Any

from app.games import base
from app.games.base import Action, State, require
from app.games.vem_ai_troika import card_actions, table
from app.games.vem_ai_troika.table import group, group_label, log, name, player

TURN_TIMINGS = {
    "action": ("income", "organization", "any"),
    "organize": ("organization", "any"),
    "income": ("income", "any"),
}
NEXT_STAGE = {"income": "income", "organization": "organize", "any": None}


def hand_action(state: State, gid: int) -> dict[str, Any] | None:
    return group(state, gid).get("hand_action")


def played_action(state: State, gid: int) -> dict[str, Any]:
    """The Hand Action of a card that was played for it (it has one)."""
    action: dict[str, Any] = group(state, gid)["hand_action"]
    return action


def is_cancel(state: State, gid: int) -> bool:
    action = hand_action(state, gid)
    return action is not None and any(e["do"] == "cancel" for e in action.get("effects", []))


# --- Hand Actions on the player's turn ---------------------------------------------------------


def turn_hand_actions(state: State, seat: int) -> list[Action]:
    """The Hand Actions ``seat`` may play now, one listed action per legal choice of targets."""
    if not table.advanced(state):
        return []
    timings = TURN_TIMINGS.get(state["stage"], ())
    actions: list[Action] = []
    for gid in player(state, seat)["hand"]:
        card_action = hand_action(state, gid)
        if card_action is None or card_action["when"] not in timings or is_cancel(state, gid):
            continue
        for picks in card_actions.choices(state, seat, card_action["effects"]):
            actions.append({"type": "hand_action", "card": gid, **picks})
    return actions


def play_hand_action(state: State, seat: int, action: Action) -> None:
    gid = action["card"]
    player(state, seat)["hand"].remove(gid)
    state["hand_played"] = True
    when = played_action(state, gid)["when"]
    if NEXT_STAGE[when] is not None and state["stage"] == "action":
        state["stage"] = NEXT_STAGE[when]
    log(state, base.say("{player} plays {card} for its Hand Action.", player=name(seat), card=group_label(state, gid)))
    play(state, "turn", [{"seat": seat, "card": gid, "picks": card_actions.pick_fields(action)}])


# --- Table Actions -------------------------------------------------------------------------------


def table_action_of(state: State, seat: int) -> dict[str, Any] | None:
    card = table.leader(state, seat)
    return None if card is None else card.get("table_action")


def table_actions(state: State, seat: int, when: str) -> list[Action]:
    """The Table Action ``seat``'s Leader may use now (once per round, if it can pay)."""
    action = table_action_of(state, seat)
    p = player(state, seat)
    if not table.advanced(state) or action is None or action["when"] != when:
        return []
    if p["sideways"] or p["neutral"] or p["money"] < action["cost"]:
        return []
    return [{"type": "table_action", **picks} for picks in card_actions.choices(state, seat, action["effects"])]


def use_table_action(state: State, seat: int, action: Action) -> None:
    card_action = table_action_of(state, seat)
    assert card_action is not None  # listed only when the Leader has one
    p = player(state, seat)
    p["sideways"] = True
    table.pay_to_treasury(state, seat, card_action["cost"])
    log(
        state,
        base.say(
            "{player} turns their Leader sideways: {name} (cost {cost}).",
            player=name(seat),
            name=card_action["name"],
            cost=card_action["cost"],
        ),
    )
    card_actions.resolve(state, seat, card_action["effects"], card_actions.pick_fields(action))


# --- the reaction window and the pending play ----------------------------------------------------


def play(state: State, context: str, plays: list[dict[str, Any]]) -> None:
    """Hold ``plays`` pending and open a reaction window, or resolve them at once when no other
    seat could answer."""
    state["pending"] = {"context": context, "plays": plays}
    players_of = {p["seat"] for p in plays}
    seats = [
        s for s in table.round_order(state) if player(state, s)["hand"] and any(other != s for other in players_of)
    ]
    if not seats:
        settle(state)
        return
    answers: dict[str, Any] = {str(s): None for s in seats}
    for s in seats:
        if player(state, s)["opt_out"] == state["round"]:
            answers[str(s)] = "no"
    state["reaction"] = {"seats": seats, "answers": answers}
    names = ", ".join(name(s) for s in seats)
    log(state, base.say("Reactions? {players} may answer what was just played.", players=names))
    if all(answer is not None for answer in answers.values()):
        close_window(state)


def awaited(state: State) -> set[int]:
    reaction = state["reaction"]
    return {int(s) for s, answer in reaction["answers"].items() if answer is None}


def reaction_actions(state: State, seat: int) -> list[Action]:
    pending = state["pending"]["plays"]
    actions: list[Action] = [
        {"type": "react", "card": gid, "cancel": play_["card"]}
        for gid in sorted(player(state, seat)["hand"])
        if is_cancel(state, gid)
        for play_ in pending
        if play_["seat"] != seat
    ]
    return actions + [{"type": "no_reaction", "round": False}, {"type": "no_reaction", "round": True}]


def answer(state: State, seat: int, action: Action) -> None:
    answers = state["reaction"]["answers"]
    require(answers.get(str(seat), "no") is None, "you have answered already")
    if action["type"] == "react":
        answers[str(seat)] = {"card": action["card"], "cancel": action["cancel"]}
    else:
        answers[str(seat)] = "no"
        if action["round"]:
            player(state, seat)["opt_out"] = state["round"]
            log(state, base.say("You will not be asked to react again this round."), to=[seat])
    if all(a is not None for a in answers.values()):
        close_window(state)


def close_window(state: State) -> None:
    reaction, state["reaction"] = state["reaction"], None
    cancelled: set[int] = set()
    for seat in reaction["seats"]:
        reply = reaction["answers"][str(seat)]
        if (
            not isinstance(reply, dict)
            or reply["cancel"] in cancelled
            or reply["card"] not in player(state, seat)["hand"]
        ):
            continue
        table.discard_from_hand(state, seat, reply["card"])
        cancelled.add(reply["cancel"])
        cancelling, target = group_label(state, reply["card"]), group_label(state, reply["cancel"])
        log(
            state,
            base.say(
                "{player} plays {card}: {target} is cancelled.", player=name(seat), card=cancelling, target=target
            ),
        )
    if not cancelled:
        log(state, base.say("Nobody reacts."))
    for play_ in state["pending"]["plays"]:
        play_["cancelled"] = play_["card"] in cancelled
    settle(state)


def settle(state: State) -> None:
    """Resolve the pending plays that were not cancelled (an attack's cards stay with the attack,
    which goes on from ``rules.advance``)."""
    pending, state["pending"] = state["pending"], None
    context = pending["context"]
    for play_ in pending["plays"]:
        if context != "attack":
            state["discards"].append(play_["card"])
        if play_.get("cancelled"):
            if context == "attack":  # the attack area marks it, where it was played
                state["attack"].setdefault("cancelled", []).append(play_["card"])
            continue
        effects = played_action(state, play_["card"])["effects"]
        picks = dict(play_["picks"])
        if context == "attack":
            picks["opponent"] = state["attack"]["defender"]
        card_actions.resolve(state, play_["seat"], effects, picks)
    if context == "precampaign":
        state["stage"] = "campaign"


# --- the Pre-Campaign (advanced Elections) ------------------------------------------------------


def precampaign_next(state: State) -> int | None:
    return next((s for s in table.campaign_order(state) if not player(state, s)["precampaign_done"]), None)


def precampaign_actions(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    for gid in player(state, seat)["hand"]:
        card_action = hand_action(state, gid)
        if card_action is not None and card_action["when"] == "elections":
            actions += [
                {"type": "precampaign", "card": gid, **picks}
                for picks in card_actions.choices(state, seat, card_action["effects"])
            ]
    return actions + table_actions(state, seat, "elections") + [{"type": "precampaign_done"}]


def precampaign_card(state: State, seat: int, action: Action) -> None:
    p = player(state, seat)
    p["hand"].remove(action["card"])
    p["precampaign"].append({"card": action["card"], "picks": card_actions.pick_fields(action)})
    log(state, base.say("{player} places a card face down for the Pre-Campaign.", player=name(seat)))
    log(state, base.say("You placed {card} face down.", card=group_label(state, action["card"])), to=[seat])


def precampaign_done(state: State, seat: int, action: Action) -> None:
    player(state, seat)["precampaign_done"] = True
    log(state, base.say("{player} is ready for the Campaign.", player=name(seat)))
    if precampaign_next(state) is None:
        reveal(state)


def reveal(state: State) -> None:
    plays = []
    for seat in table.campaign_order(state):
        p = player(state, seat)
        plays += [{"seat": seat, **entry} for entry in p["precampaign"]]
        shown = [group_label(state, entry["card"]) for entry in p["precampaign"]] or base.say("nothing")
        log(state, base.say("{player}'s Pre-Campaign: {cards}.", player=name(seat), cards=shown))
        p["precampaign"] = []
    if plays:
        play(state, "precampaign", plays)
    else:
        state["stage"] = "campaign"


def start_precampaign(state: State) -> None:
    for p in state["players"]:
        p["precampaign_done"] = False
    state["stage"] = "precampaign"
    votes = ", ".join(f"{name(s)} {table.metric(state, s, 'votes')}" for s in table.campaign_order(state))
    log(
        state,
        base.say(
            "Votes on the table: {votes}. Pre-Campaign: cards are placed face down in campaign order.", votes=votes
        ),
    )
