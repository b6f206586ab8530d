"""The Vem aí a Troika engine: setup, the flow of a round, turn actions and prompts.

State layout (plain JSON data)
------------------------------
``seed``, ``rng_draws``; ``options`` ({"advanced": false, "first_player": "random" or a seat});
``deck`` (the validated deck in use, so a replay is self-contained); ``stage`` ("leaders",
"draw", "action", "organize", "attack", "end_turn", "event", "effects", "campaign" or "over");
``round``; ``first`` (first player of the round); ``current`` (whose turn); ``moves``
(Organization moves made this turn); ``treasury``; ``titles`` (Deposit Title values, top
first); ``events`` (Event ids, top first);
``events_out`` (Events not used this game); ``events_revealed``; ``event`` (the Event being
resolved) and ``effects`` (its effects still to resolve); ``draw_pile`` (Group ids, top
first); ``discards``; ``leaders_out``; ``government`` / ``government_card``; ``attack`` (see
``attack.py``); ``prompts`` (choices owed before the flow goes on, first one first);
``election`` (the last count); ``game_ending``; ``end_reason``; ``log``; and ``players``, one
per seat: ``offer`` (the 2 Leaders dealt), ``choice`` (secret choice), ``leader``, ``hand``
(Group ids), ``money``, ``table`` (controlled Group ids), ``titles`` (Offshore Title values),
``offshore_money``, ``kept`` (Government Event cards won) and ``campaign``. The advanced game
adds, among others, ``hand_played`` (a Hand Action was played this turn: the turn has an action
to take, no pass).

Prompts: ``{"kind": "draw"|"discard"|"cover"|"hand_limit"|"overflow", "seat": s, ...}`` (a
draw with ``"optional": true`` may be declined: the winning supporter's, V10).
"""

from __future__ import annotations

from typing import Any

from app.games import base
from app.games.base import Action, State
from app.games.vem_ai_troika import advanced, attack, effects, elections, table
from app.games.vem_ai_troika.deck import check_advanced, shared_default_deck, validate_deck
from app.games.vem_ai_troika.table import colour_word, group, group_label, log, name, player

TREASURY = {2: 12, 3: 18, 4: 24}
TITLE_COUNTS = {2: (2, 4, 2), 3: (3, 4, 3), 4: (4, 4, 4)}  # titles worth 6, 5 and 4
EVENTS_BETWEEN_ELECTIONS = {2: 4, 3: 3, 4: 2}
START_MONEY = 2
START_GROUPS = 3
LEADERS_DEALT = 2
FIXED_KEYS = ("deck",)  # the card definitions: large, shared, never changed by an action


# --- setup ----------------------------------------------------------------------------------


def new_state(num_players: int, options: dict[str, Any], seed: str) -> State:
    base.check_first_player(options["first_player"], num_players)
    deck = shared_default_deck() if options["deck"] is None else validate_deck(options["deck"])
    if options["advanced"]:
        check_advanced(deck)
    state: State = {
        "seed": seed,
        "rng_draws": 0,
        "options": {"advanced": options["advanced"], "first_player": options["first_player"]},
        "deck": deck,
        "stage": "leaders",
        "round": 1,
        "first": 0,
        "current": 0,
        "moves": 0,
        "treasury": TREASURY[num_players],
        "titles": [
            value for value, count in zip((6, 5, 4), TITLE_COUNTS[num_players], strict=True) for _ in range(count)
        ],
        "events": [],
        "events_out": [],
        "events_revealed": [],
        "event": None,
        "effects": [],
        "draw_pile": [],
        "discards": [],
        "leaders_out": [],
        "government": None,
        "government_card": None,
        "attack": None,
        "prompts": [],
        "election": None,
        "pending": None,
        "reaction": None,
        "title_price": None,
        "hand_played": False,
        "vote_control": [],
        "snap_elections": False,
        "game_ending": False,
        "end_reason": None,
        "log": [],
        "players": [
            {
                "offer": [],
                "choice": None,
                "leader": None,
                "hand": [],
                "money": 0,
                "table": [],
                "titles": [],
                "offshore_money": 0,
                "kept": [],
                "campaign": None,
                "columns": {},
                "neutral": None,
                "sideways": False,
                "opt_out": None,
                "bonus_votes": 0,
                "precampaign": [],
                "precampaign_done": False,
            }
            for _ in range(num_players)
        ],
    }
    build_event_pile(state)
    deal(state)
    state["first"] = state["current"] = base.first_player(state, options["first_player"], num_players)
    return state


def build_event_pile(state: State) -> None:
    """Troika among the bottom four, Elections after every 4/3/2 Events (V3); the rest out."""
    events = state["deck"]["events"]
    troika = next(i for i, e in enumerate(events) if e["role"] == "troika")
    first_elections, second_elections = [i for i, e in enumerate(events) if e["role"] == "elections"]
    others = [i for i, e in enumerate(events) if e["role"] == "normal"]
    base.rng(state).shuffle(others)
    bottom = [troika, *others[:3]]
    base.rng(state).shuffle(bottom)
    k = EVENTS_BETWEEN_ELECTIONS[len(state["players"])]
    state["events"] = others[3 + k : 3 + 2 * k] + [second_elections] + others[3 : 3 + k] + [first_elections] + bottom
    state["events_out"] = others[3 + 2 * k :]


def deal(state: State) -> None:
    groups = list(range(len(state["deck"]["groups"])))
    base.rng(state).shuffle(groups)
    leaders = list(range(len(state["deck"]["leaders"])))
    base.rng(state).shuffle(leaders)
    for p in state["players"]:
        p["hand"] = [groups.pop(0) for _ in range(START_GROUPS)]
        p["money"] = START_MONEY
        state["treasury"] -= START_MONEY
        p["offer"] = [leaders.pop(0) for _ in range(LEADERS_DEALT)]
    state["draw_pile"] = groups
    state["leaders_out"] = leaders
    log(state, base.say("Each player receives 2 Mega-Euro, 3 Group cards and 2 Leaders to choose from."))
    for seat, p in enumerate(state["players"]):
        first, second = (state["deck"]["leaders"][lid]["name"] for lid in p["offer"])  # LEADERS_DEALT
        dealt = [group_label(state, gid) for gid in p["hand"]]
        offered = base.say("{first} or {second}", first=first, second=second)
        log(
            state,
            base.say("You were dealt {cards}; choose your Leader: {leaders}.", cards=dealt, leaders=offered),
            [seat],
        )


# --- the flow -------------------------------------------------------------------------------


def advance(state: State) -> None:
    """Run every automatic step until some seat's input is awaited or the game is over."""
    while state["stage"] != "over":
        if state["prompts"]:
            if prompt_possible(state, state["prompts"][0]):
                return
            skipped = state["prompts"].pop(0)
            if skipped["kind"] == "draw":
                log(state, base.say("{player} has nothing left to draw.", player=name(skipped["seat"])))
            else:
                log(state, base.say("{player} has nothing left to discard.", player=name(skipped["seat"])))
            continue
        stage = state["stage"]
        if state["reaction"] is not None:
            return
        if stage == "draw" and not table.draw_choices(state):
            state["stage"] = "action"
        elif stage == "attack" and state["attack"]["phase"] == "actions" and state["pending"] is None:
            attack.after_hand_actions(state)
        elif stage == "attack" and attack.auto_stop(state):
            continue
        elif stage == "end_turn":
            end_turn(state)
        elif stage == "event":
            reveal_event(state)
        elif stage == "effects":
            next_effect(state)
        else:
            return


def end_turn(state: State) -> None:
    seat = state["current"]
    if table.hand_size(state, seat) > table.HAND_LIMIT:
        state["prompts"].append({"kind": "hand_limit", "seat": seat})
        return
    state["current"] = (seat + 1) % len(state["players"])
    state["moves"] = 0
    state["title_price"] = None
    state["hand_played"] = False
    for p in state["players"]:
        if p["neutral"] == "turn":
            p["neutral"] = None
    state["stage"] = "event" if state["current"] == state["first"] else "draw"


def reveal_event(state: State) -> None:
    if state["snap_elections"]:  # the Government fell this round (advanced game): Elections first
        state["snap_elections"] = False
        state["event"] = None
        state["effects"] = [{"do": "elections"}]
        state["stage"] = "effects"
        log(
            state,
            base.say(
                "End of round {round}: the Government has fallen, so Elections are held first.", round=state["round"]
            ),
        )
        return
    eid = state["events"].pop(0)
    event = state["deck"]["events"][eid]
    state["event"] = eid
    state["effects"] = [dict(effect) for effect in event["effects"]]
    state["stage"] = "effects"
    log(
        state,
        base.say(
            "End of round {round}: the Event {name} ({gloss}) is revealed.",
            round=state["round"],
            name=event["name"],
            gloss=event["gloss"],
        ),
    )


def next_effect(state: State) -> None:
    if state["effects"]:
        effects.resolve(state, state["effects"].pop(0), state["event"])
        return
    if state["event"] is None:  # the snap Elections are over: now the round's Event
        state["stage"] = "event"
        return
    state["events_revealed"].append(state["event"])
    state["event"] = None
    if state["game_ending"]:
        end_game(state, "troika")
    elif state["treasury"] == 0 and not state["titles"]:
        end_game(state, "bankruptcy")
    else:
        start_round(state)


def start_round(state: State) -> None:
    state["round"] += 1
    if state["government"] is not None:
        state["first"] = state["government"]
    state["current"] = state["first"]
    state["stage"] = "draw"
    for p in state["players"]:
        p["neutral"] = None
        p["sideways"] = False
    log(state, base.say("Round {round} begins with {player}.", round=state["round"], player=name(state["first"])))


def end_game(state: State, reason: str) -> None:
    state["stage"] = "over"
    state["end_reason"] = reason
    if reason == "troika":
        log(state, base.say("The game is over: the Troika has arrived."))
    else:
        log(state, base.say("The game is over: the Treasury and the Title pile are empty."))


# --- prompts --------------------------------------------------------------------------------


def prompt_cards(state: State, prompt: dict[str, Any]) -> list[int]:
    """The Group cards a discard-type prompt lets its seat discard."""
    p = player(state, prompt["seat"])
    kind = prompt["kind"]
    if kind == "hand_limit":
        return list(p["hand"])
    if kind == "cover":
        return [gid for gid in p["hand"] + p["table"] if group(state, gid)["power"] > 0]
    if kind == "overflow":
        return [gid for gid in table.family(state, prompt["seat"], prompt["colour"]) if gid != prompt["keep"]]
    return {"any": p["hand"] + p["table"], "hand": list(p["hand"]), "table": list(p["table"])}[prompt["from"]]


def prompt_possible(state: State, prompt: dict[str, Any]) -> bool:
    if prompt["kind"] == "draw":
        return bool(table.draw_choices(state))
    if prompt["kind"] in ("hand_limit", "government_pays", "bring_down"):
        return True
    return bool(prompt_cards(state, prompt))


def prompt_actions(state: State, prompt: dict[str, Any]) -> list[Action]:
    kind = prompt["kind"]
    if kind == "draw":  # a supporter of the winning side may also decline (V10)
        return [{"type": "draw", "what": what} for what in table.draw_choices(state)] + [{"type": "decline"}] * bool(
            prompt.get("optional")
        )
    if kind in ("government_pays", "bring_down"):
        can_pay = player(state, prompt["seat"])["money"] >= prompt["amount"]
        return [{"type": "choose", "yes": True}] * can_pay + [{"type": "choose", "yes": False}]
    cards = prompt_cards(state, prompt)
    if kind == "overflow":
        return [{"type": "take", "card": gid} for gid in cards]
    actions = [{"type": "discard", "card": gid} for gid in cards]
    if kind == "hand_limit" and player(state, prompt["seat"])["money"]:
        actions.append({"type": "discard_money"})
    return actions


def answer_prompt(state: State, seat: int, action: Action) -> None:
    prompt = state["prompts"][0]
    kind = prompt["kind"]
    done = True
    if action["type"] == "decline":
        log(state, base.say("{player} draws nothing.", player=name(seat)))
    elif kind == "draw":
        table.take_draw(state, seat, action["what"])
    elif kind in ("government_pays", "bring_down"):
        state["prompts"].pop(0)
        pressure(state, prompt, action["yes"])
        return
    elif kind == "overflow":
        player(state, seat)["table"].remove(action["card"])
        player(state, seat)["hand"].append(action["card"])
        log(
            state,
            base.say(
                "{player} takes {card} back into hand (4 per Family).",
                player=name(seat),
                card=group_label(state, action["card"]),
            ),
        )
    elif action["type"] == "discard_money":
        table.pay_to_treasury(state, seat, 1)
        log(state, base.say("{player} returns 1 Mega-Euro to the Treasury (hand limit).", player=name(seat)))
    else:
        table.discard_anywhere(state, seat, action["card"])
        if kind == "discard":
            prompt["count"] -= 1
            done = prompt["count"] == 0
        elif kind == "cover":
            prompt["amount"] -= group(state, action["card"])["power"]
            done = prompt["amount"] <= 0
    if done:
        state["prompts"].pop(0)


def pressure(state: State, prompt: dict[str, Any], yes: bool) -> None:
    """The two choices of a pay-or-fall effect: the Government pays, else the player may bring
    it down (advanced game)."""
    seat, amount = prompt["seat"], prompt["amount"]
    if prompt["kind"] == "government_pays":
        if yes:
            table.pay_to_treasury(state, seat, amount)
            table.receive(state, prompt["player"], amount)
            log(
                state,
                base.say(
                    "The Government ({player}) pays {amount} Mega-Euro to {other}.",
                    player=name(seat),
                    amount=amount,
                    other=name(prompt["player"]),
                ),
            )
        else:
            log(state, base.say("The Government ({player}) refuses to pay.", player=name(seat)))
            state["prompts"].insert(0, {"kind": "bring_down", "seat": prompt["player"], "amount": amount})
    elif yes:
        table.pay_to_treasury(state, seat, amount)
        state["government"] = state["government_card"] = None
        state["snap_elections"] = True
        log(
            state,
            base.say(
                "{player} pays {amount} Mega-Euro: the Government falls; Elections at the end of the round.",
                player=name(seat),
                amount=amount,
            ),
        )
    else:
        log(state, base.say("{player} leaves the Government standing.", player=name(seat)))


# --- turn actions ---------------------------------------------------------------------------


def choose_leader(state: State, seat: int, action: Action) -> None:
    player(state, seat)["choice"] = action["leader"]
    log(state, base.say("{player} has chosen a Leader.", player=name(seat)))
    if all(p["choice"] is not None for p in state["players"]):
        for other, p in enumerate(state["players"]):
            p["leader"] = p["choice"]
            card = state["deck"]["leaders"][p["leader"]]
            log(
                state,
                base.say(
                    "{player} leads with {name} ({colour}, {power} Power, {votes} Votes, {income} Income).",
                    player=name(other),
                    name=card["name"],
                    colour=colour_word(card["colour"]),
                    power=card["power"],
                    votes=card["votes"],
                    income=card["income"],
                ),
            )
        state["stage"] = "draw"
        log(state, base.say("Round 1 begins with {player}.", player=name(state["first"])))


def draw(state: State, seat: int, action: Action) -> None:
    table.take_draw(state, seat, action["what"])
    state["stage"] = "action"


def organize_actions(state: State, seat: int) -> list[Action]:
    if table.advanced(state):
        return advanced_organize_actions(state, seat)
    p = player(state, seat)
    actions: list[Action] = []
    for gid in p["hand"]:
        colour = group(state, gid)["colour"]
        size = len(table.family(state, seat, colour))
        if size < table.FAMILY_LIMIT:
            actions.append({"type": "place", "card": gid})
        actions += [
            {"type": "place", "card": gid, "take": take}
            for take in p["table"]
            if size - (group(state, take)["colour"] == colour) < table.FAMILY_LIMIT
        ]
        actions.append({"type": "replace", "card": gid})
    return actions


def advanced_organize_actions(state: State, seat: int) -> list[Action]:
    """Advanced Organization: place into any column with room or a new one (possibly taking a
    card back), take a card back alone, or replace a card."""
    p = player(state, seat)
    actions: list[Action] = []
    for gid in p["hand"]:
        colour = group(state, gid)["colour"]
        actions += [{"type": "place", "card": gid, "column": n} for n in table.open_columns(state, seat, colour)]
        actions += [  # the card taken back frees its place first (V10)
            {"type": "place", "card": gid, "column": n, "take": take}
            for take in p["table"]
            for n in table.open_columns(state, seat, colour, without=take)
        ]
        actions.append({"type": "replace", "card": gid})
    return actions + [{"type": "take_back", "card": gid} for gid in p["table"]]


def place(state: State, seat: int, action: Action) -> None:
    p = player(state, seat)
    gid = action["card"]
    p["hand"].remove(gid)
    if "take" in action:
        p["table"].remove(action["take"])
        p["hand"].append(action["take"])
        said = base.say(
            "{player} places {card} on the table and takes {other} back into hand.",
            player=name(seat),
            card=group_label(state, gid),
            other=group_label(state, action["take"]),
        )
    else:
        said = base.say("{player} places {card} on the table.", player=name(seat), card=group_label(state, gid))
    table.put_on_table(state, seat, gid, action.get("column"))
    log(state, said)
    organized(state)


def take_back(state: State, seat: int, action: Action) -> None:
    player(state, seat)["table"].remove(action["card"])
    player(state, seat)["hand"].append(action["card"])
    log(
        state,
        base.say("{player} takes {card} back into hand.", player=name(seat), card=group_label(state, action["card"])),
    )
    organized(state)


def replace(state: State, seat: int, action: Action) -> None:
    table.discard_from_hand(state, seat, action["card"])
    log(
        state,
        base.say(
            "{player} discards {card} and draws a new Group card.",
            player=name(seat),
            card=group_label(state, action["card"]),
        ),
    )
    gid = table.draw_group(state, seat)
    assert gid is not None  # the card just discarded can always be drawn again
    log(state, base.say("You drew {card}.", card=group_label(state, gid)), to=[seat])
    organized(state)


def organized(state: State) -> None:
    state["moves"] += 1
    state["stage"] = "organize" if state["moves"] < 2 else "end_turn"


def income_plan(state: State, seat: int, titles: int) -> tuple[int, int]:
    """(Mega-Euro taken from the Treasury, Mega-Euro paid from hand) when buying ``titles`` (V7)."""
    income = table.metric(state, seat, "income")
    cost = titles * table.title_price(state)
    if cost <= income:
        return table.payable(state, income - cost), 0
    return 0, cost - income


def income_actions(state: State, seat: int) -> list[Action]:
    income, money = table.metric(state, seat, "income"), player(state, seat)["money"]
    most = min(len(state["titles"]), (income + money) // table.title_price(state))
    actions = []
    for titles in range(most + 1):
        gained, spent = income_plan(state, seat, titles)
        room = money + gained - spent if titles == len(state["titles"]) else 0
        actions += [{"type": "income", "titles": titles, "offshore": m} for m in range(room + 1)]
    return actions


def take_income(state: State, seat: int, action: Action) -> None:
    p = player(state, seat)
    gained, spent = income_plan(state, seat, action["titles"])
    bought = state["titles"][: action["titles"]]
    del state["titles"][: action["titles"]]
    p["titles"] += bought
    state["treasury"] -= gained
    p["money"] += gained
    table.pay_to_treasury(state, seat, spent)
    p["money"] -= action["offshore"]
    p["offshore_money"] += action["offshore"]
    paying = base.say(" paying {money} Mega-Euro from hand", money=spent) if spent else ""
    titles = ", ".join(map(str, bought))
    buys = base.say(", buys Deposit Title {titles}{paying}", titles=titles, paying=paying) if len(bought) == 1 else ""
    if len(bought) > 1:
        buys = base.say(", buys Deposit Titles {titles}{paying}", titles=titles, paying=paying)
    offshore = (
        base.say("; puts {money} Mega-Euro in the Offshore", money=action["offshore"]) if action["offshore"] else ""
    )
    income = table.metric(state, seat, "income")
    if not bought and gained == income:  # (no title, a full Treasury: the income once, not twice)
        said = base.say(
            "{player} takes Income: {gained} Mega-Euro from the Treasury{offshore}.",
            player=name(seat),
            gained=gained,
            offshore=offshore,
        )
    elif gained == 0:  # (the income went into titles: nothing more comes from the Treasury)
        said = base.say(
            "{player} takes Income ({income} Mega-Euro){buys}{offshore}.",
            player=name(seat),
            income=income,
            buys=buys,
            offshore=offshore,
        )
    else:
        said = base.say(
            "{player} takes Income ({income} Mega-Euro){buys} and receives {gained} Mega-Euro "
            "from the Treasury{offshore}.",
            player=name(seat),
            income=income,
            buys=buys,
            gained=gained,
            offshore=offshore,
        )
    log(state, said)
    state["stage"] = "end_turn"


def pass_turn(state: State, seat: int, action: Action) -> None:
    log(state, base.say("{player} passes.", player=name(seat)))
    state["stage"] = "end_turn"


def stop(state: State, seat: int, action: Action) -> None:
    if state["stage"] == "attack":
        attack.stop(state, seat)
    else:
        state["stage"] = "end_turn"


def turn_actions(state: State, seat: int) -> list[Action]:
    stage = state["stage"]
    if stage == "draw":
        return [{"type": "draw", "what": what} for what in table.draw_choices(state)]
    if stage == "organize":
        return organize_actions(state, seat) + advanced.turn_hand_actions(state, seat) + [{"type": "stop"}]
    if stage == "attack":
        return attack.answer_actions(state, seat)
    if stage == "income":  # advanced: an Income Hand Action was played
        return income_actions(state, seat) + advanced.turn_hand_actions(state, seat)
    return (
        organize_actions(state, seat)
        + income_actions(state, seat)
        + attack.start_actions(state, seat)
        + advanced.turn_hand_actions(state, seat)
        + advanced.table_actions(state, seat, "turn")
        + [{"type": "pass"}] * (not state.get("hand_played"))  # a Hand Action goes with an action (V10)
    )


UNLISTED = {"attack": attack.FIELDS, "campaign": elections.FIELDS}  # chosen by ticking cards

HANDLERS = {
    "attack": attack.start,
    "campaign": elections.commit,
    "choose_leader": choose_leader,
    "draw": draw,
    "place": place,
    "replace": replace,
    "income": take_income,
    "pass": pass_turn,
    "stop": stop,
    "add": attack.add,
    "take_back": take_back,
    "hand_action": advanced.play_hand_action,
    "table_action": advanced.use_table_action,
    "support": attack.support,
    "no_support": attack.support,
    "react": advanced.answer,
    "no_reaction": advanced.answer,
    "precampaign": advanced.precampaign_card,
    "precampaign_done": advanced.precampaign_done,
}


def legal_actions(state: State, seat: int, awaited: set[int]) -> list[Action]:
    if seat not in awaited:
        return []
    if state["reaction"] is not None:
        return advanced.reaction_actions(state, seat)
    if state["prompts"]:
        return prompt_actions(state, state["prompts"][0])
    if state["stage"] == "leaders":
        return [{"type": "choose_leader", "leader": lid} for lid in player(state, seat)["offer"]]
    if state["stage"] == "campaign":
        return elections.commit_actions(state, seat)
    if state["stage"] == "precampaign":
        return advanced.precampaign_actions(state, seat)
    return turn_actions(state, seat)


def handle(work: State, seat: int, action: Action) -> None:
    """Change ``work`` by ``action``, which ``Game.play`` found listed, or (an attack or a
    campaign) well formed: whether those two are allowed now is checked by their rules. Any
    other action answers the first prompt owed, if there is one, else is its type's rule; the
    flow then goes on to the next choice."""
    if action["type"] not in UNLISTED and work["reaction"] is None and work["prompts"]:
        answer_prompt(work, seat, action)
    else:
        HANDLERS[action["type"]](work, seat, action)
    advance(work)
