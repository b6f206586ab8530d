"""Vem aí a Troika: a Portuguese political card game for 2-4 players (basic rules).

Rules in brief (our own summary; the server's rulings are V1-V11 in docs/rulings.md)
------------------------------------------------------------------------------------
Each player leads a faction in Portugalândia with a Leader and gathers Group cards (gold, blue,
red and grey Families, at most 4 per colour on the table). Cards carry Power (attacks and
points), Votes (Elections) and Income (money). The deck is the project's own reconstruction
(``deck.py``; another valid deck may be loaded with the ``deck`` option).

* Setup (V3): a Treasury of 12/18/24 Mega-Euro for 2/3/4 players, 2 of them to each hand;
  Deposit Titles highest on top; the Event pile with the Troika among the bottom four and an
  Elections Event after every 4/3/2 Events; 3 Group cards each; every player is dealt 2 Leaders
  and picks one in secret, all revealed together. Round 1's first player is the room's choice
  (option ``first_player``: a seat, or random from the room seed, the default; V11).
* A turn: draw 1 Group card or take 2 Mega-Euro; then one action - Organization (two moves:
  place a card, possibly taking one of yours back, or discard a card to draw a new one),
  Income (Leader + controlled Groups; Deposit Titles cost 6 and may be bought with the income
  plus money in hand, V7; once the Titles are gone Mega-Euro may go to the Offshore), Attack,
  or pass; then discard down to 6 cards, Mega-Euro counting as cards (V8).
* Attack (V4): Leader Power (4 in an attack to discard) plus cards played against the target's
  Power, +1 per other card in its column, +1 if the defending Leader shares its colour, +1 for
  the Government defending gold. The opening must beat the defence; the defender answers with
  any cards or gives up; then the side not ahead adds one card or stops. Ties go to the
  defender. A winning attacker takes the card (or discards it); the loser draws, and with 3-4
  players the attacker always draws. All played cards are discarded.
* After every round the next Event is revealed and resolved (effects are data, see
  ``effects.py``). Elections (V5): a campaign of Group cards (their Votes) and Mega-Euro (1 Vote
  each), committed face down in round order from the Government (else the first player), each
  commitment's numbers of cards and Mega-Euro public at once, its cards revealed with all the
  others, on top of the Votes on the table (Leader, Groups, 2 per Consensus, V6). The single
  winner becomes the Government, keeps the card and starts the following rounds; a single
  runner-up draws. A tie for first: no Government, the tied draw.
* The game ends after "Chegou a Troika" is resolved, or after a round that leaves the Treasury
  and the Title pile empty (V9). Points: Power of controlled Groups, Consensuses (4/10/18),
  10 per Elections card and 5 for the interim Government card, Deposit Titles, and 1 per 2
  Mega-Euro in hand or Offshore. Tied winners all win.

Advanced game (option ``advanced``, ruling V10; ``advanced.py``, ``card_actions.py``): Group
types and variable values, a Hand Action on every Group and a Table Action on every Leader
(effects are data), several columns per colour, Hand Actions declared in attacks, supports,
a face-down Pre-Campaign, and a reaction window for cancelling cards that leaks nothing.

Options: ``advanced`` (the advanced rules; the deck must carry the advanced fields), ``deck``
(a deck dict checked by :func:`deck.validate_deck`; None is the default deck) and
``first_player`` (round 1's first player: "random", the default, or a seat number).

The actions and the view below are typed in ``app.games.vem_ai_troika.types`` (the API publishes them).

Actions (card ids are indexes into the deck's lists; only their holder sees hand ids)
--------------------------------------------------------------------------------------
``{"type": "choose_leader", "leader": id}``; ``{"type": "draw", "what": "group"|"money"}``
(turn draw and every "draw 1 Group or 2 Mega-Euro" reward); ``{"type": "place", "card": id}``
and ``{"type": "place", "card": id, "take": id}``; ``{"type": "replace", "card": id}``;
``{"type": "stop"}`` (end Organization after one move, or stop in an attack);
``{"type": "income", "titles": n, "offshore": m}``; ``{"type": "pass"}``;
``{"type": "attack", "target": id, "mode": "control"|"discard", "cards": [ids]}``;
``{"type": "add", "cards": [ids]}`` (attack answers); ``{"type": "campaign", "cards": [ids],
"money": m}``; ``{"type": "discard", "card": id}`` and ``{"type": "discard_money"}``
(hand limit, Event discards, payments covered by Power); ``{"type": "take", "card": id}``
(back into hand when a won attack makes a fifth card of a Family).

Advanced game: ``place`` also names its ``column`` (its place in the view's ``columns`` list of
that colour, from 0; the list's length: a new column); ``{"type": "take_back", "card": id}`` (an
Organization move); ``{"type": "hand_action", "card": id, ...choices}`` and ``{"type":
"table_action", ...choices}`` (choices: ``opponent``, ``mine``/``theirs``, ``group``/
``candidate``, see ``card_actions.py``); ``attack`` and ``add`` may carry ``actions`` (the
cards played for their Hand Action instead of their Power); ``{"type": "support", "side":
"attack"|"defence", "card": id}`` and ``{"type": "no_support"}``; ``{"type": "decline"}`` (the
winning side's supporter draws nothing); ``{"type": "react", "card":
id, "cancel": id}`` and ``{"type": "no_reaction", "round": bool}`` (``round``: don't ask again
this round); ``{"type": "precampaign", "card": id, ...choices}`` and ``{"type":
"precampaign_done"}``; ``{"type": "choose", "yes": bool}`` (pay-or-fall prompts).

View keys (``view(state, seat)``; seat None is a spectator)
-----------------------------------------------------------
A *group card* is ``{"id", "name", "gloss", "colour", "type", "power", "votes", "income"}``;
a *leader* is ``{"id", "name", "gloss", "colour", "power", "votes", "income", "bonus"}``; an
*event* is ``{"id", "name", "gloss", "points", "text", "said"}`` (``said``: the text as a
message, ``base.say``, for a reader of another language).

phase               "leaders", "turn", "event", "elections" or "over"
step                the stage ("draw", "action", "organize", "attack", "campaign", ...) or the
                    kind of the prompt awaited ("draw", "discard", "cover", "hand_limit",
                    "overflow")
you                 the viewer's seat or None
round, first        round number; first player of the round
current             whose turn it is (None while choosing Leaders or campaigning)
campaign_order      during the campaign, the seats in the order they commit; else None
awaiting            sorted seats whose input is awaited; while a reaction window is open, all the
                    seats it asks (never who has answered), but the viewer itself only while
                    it has not answered
prompt              the awaited prompt {"kind", "seat", ...} or None
organization_moves  Organization moves made this turn
players             per seat: seat, leader (once revealed, else None), leader_chosen,
                    families {colour: [group cards, each with its current "defence"]},
                    titles (Offshore Title values),
                    offshore_money, government (bool), government_cards [event + face_up],
                    hand_count (Group cards and Mega-Euro), money (Mega-Euro in hand: every
                    money move is public), committed (campaign), campaign_size ({cards,
                    money}: the numbers committed, or None), power, votes (on the
                    table), income, consensus, score_now (the final scoring's total if the
                    game ended now: all of it is public)
hand                the viewer's Group cards; leader_offer / leader_choice: the viewer's two
                    Leaders and secret choice while Leaders are chosen; campaign: the viewer's
                    own commitment (its cards no longer in hand) or None
treasury            Mega-Euro in the Treasury
titles              the Deposit Title pile, top first
events_left         size of the Event pile; last_event: the last Event revealed and resolved;
                    event: the Event being resolved now, or None
group_pile          size of the Group pile; discards: the face-up discarded Group cards
government          the Government's seat or None
attack              None or {attacker, defender, mode, target, attack_cards, defence_cards,
                    attack_total, defence_total, answered (the defender has played), awaiting
                    (the side not ahead); advanced: actions (cards played for their Hand
                    Action) and cancelled (those a reaction cancelled), phase, supporters, support}
election            the last Elections: {votes, table_votes (per seat), campaigns (per seat:
                    cards, money), winner, tied, second}
end_reason          None, "troika" or "bankruptcy"
result              None until over; then {players: [{seat, consensuses, power, consensus,
                    governments, titles, money, total, winner}], winners, ranking, places}
seed                only once the game is over
advanced            whether the advanced rules are on; then also, flat on each card:
                    ``variable`` (its variable values in words), ``hand_when``, ``hand_text``,
                    ``hand_first``, ``hand_discard_only``, ``hand_reconstructed`` and, on the
                    table and in the viewer's hand, ``now_power``/``now_votes``/``now_income``
                    (its figures as they count now); on each Leader ``variable`` and
                    ``table_action_name``/``_when``/``_cost``/``_text``; per
                    player ``columns`` {colour: [[cards]]}, ``leader_value``, ``sideways``,
                    ``neutral``, ``precampaign_count``, ``precampaign_done``; ``attack`` adds
                    actions, phase, supporters, support; ``reaction`` (the open window: seats,
                    plays; never who has answered) and ``vote_control``; the viewer's own
                    ``precampaign`` ([{card, picks}]), ``reaction_answered`` and ``opted_out``
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, ClassVar

from app.games import base
from app.games.base import Action, FieldType, OptionSpec, Outcome, State
from app.games.entry import GameEntry
from app.games.vem_ai_troika import advanced, attack, elections, rules, score, table, view
from app.games.vem_ai_troika.deck import bonuses_json, default_deck, describe_bonuses, validate_deck
from app.games.vem_ai_troika.effects import describe_effect, describe_event
from app.games.vem_ai_troika.types import VemAction, VemView

__all__ = ["ENTRY", "GAME", "VemAiTroika", "default_deck", "describe_effect", "describe_event", "validate_deck"]


@lru_cache(maxsize=1)
def _label_deck() -> dict[str, Any]:
    return default_deck()


class VemAiTroika(base.Game):
    slug = "vem-ai-a-troika"
    title = "Vem aí a Troika"
    min_players = 2
    max_players = 4
    fixed_keys = rules.FIXED_KEYS
    action_type = VemAction
    view_type = VemView
    unlisted: ClassVar[Mapping[str, Mapping[str, FieldType]]] = rules.UNLISTED
    id_sets = frozenset({"cards", "actions"})  # an answer's cards, and those played for their action
    handlers: ClassVar[Mapping[str, base.Handler]] = rules.HANDLERS
    options = (
        OptionSpec(
            "advanced",
            "bool",
            False,
            base.N_("Advanced rules: Hand and Table Actions, supports, Pre-Campaign"),
            label=base.N_("advanced rules"),
        ),
        OptionSpec(
            "deck",
            "deck",
            None,
            base.N_("A deck file following the documented schema (empty: the default deck)"),
            label=base.N_("deck"),
        ),
        base.first_player_option(4),
    )

    def _setup(self, num_players: int, options: dict[str, Any], seed: str) -> State:
        state = rules.new_state(num_players, base.resolve_options(self.options, options), seed)
        rules.advance(state)
        return state

    def to_act(self, state: State) -> set[int]:
        stage = state["stage"]
        if stage == "over":
            return set()
        if state["reaction"] is not None:
            return advanced.awaited(state)
        if state["prompts"]:
            return {state["prompts"][0]["seat"]}
        if stage == "leaders":
            return {s for s, p in enumerate(state["players"]) if p["choice"] is None}
        if stage == "campaign":
            seat = elections.next_to_commit(state)  # None only after the last commit, when the count follows
            return set() if seat is None else {seat}
        if stage == "attack":
            return {attack.awaited(state)}
        if stage == "precampaign":
            seat = advanced.precampaign_next(state)  # None only after the last seat, when the reveal follows
            return set() if seat is None else {seat}
        return {state["current"]}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat, self.to_act(state))

    def public_to_act(self, state: State) -> set[int]:
        """A reaction window shows every seat it asks until it closes, never who has answered."""
        if state["reaction"] is not None:
            return set(state["reaction"]["seats"])
        return self.to_act(state)

    def handle(self, work: State, seat: int, action: Action) -> None:
        rules.handle(work, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self.views(state, [seat])[seat]

    def views(self, state: State, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
        return view.views(state, seats, self.to_act(state))

    def outcome(self, state: State) -> Outcome | None:
        if state["stage"] != "over":
            return None
        result = score.result(state)
        return Outcome(
            scores=[p["total"] for p in result["players"]],
            winners=result["winners"],
            ranking=result["ranking"],
            places=result["places"],
            details={"players": result["players"], "end_reason": state["end_reason"]},
        )

    def randomize_hidden(self, state: State, seat: int | None, r: random.Random) -> State:
        return view.randomize_hidden(state, seat, r)

    def rules_context(self) -> dict[str, Any]:
        """The card list page shows the default deck, each card's variable values in words."""
        deck = default_deck()
        for card in deck["groups"] + deck["leaders"]:
            card["variable_text"], card["variable_said"] = describe_bonuses(card), bonuses_json(card)
        return {"deck": deck}

    def waiting(self, state: State, seat: int) -> base.Message:
        if state["stage"] == "leaders" and state["reaction"] is None and not state["prompts"]:
            return base.say("you have chosen your Leader: the others are choosing theirs")
        return super().waiting(state, seat)

    def explain(self, state: State, seat: int, action: Action) -> None:
        """Why a move naming cards the seat does not have is refused: a Leader not dealt to it,
        a Group card neither in its hand nor on its table (another seat's, hidden or not, is told
        the same as one that does not exist). Other refusals: the generic one."""
        p = table.player(state, seat)
        if action["type"] == "choose_leader":
            base.require(action.get("leader") in p["offer"], "that Leader is not one of the two you were dealt")
        cards = action.get("cards")
        named = [action.get("card"), action.get("take"), *(cards if isinstance(cards, list) else [])]
        yours = set(p["hand"]) | set(p["table"])
        base.require(
            all(card is None or (base.whole(card) and card in yours) for card in named),
            "that card is neither in your hand nor on your table",
        )

    def label(self, action: Action, state: State | None = None) -> base.Message:
        """A button label; card names come from ``state``'s deck, else from the default deck."""
        deck = state["deck"] if state is not None else _label_deck()
        return label_action(deck, action)


def label_action(deck: dict[str, Any], action: Action) -> base.Message:
    def card(gid: int) -> str:
        return deck["groups"][gid]["name"]

    def cards(ids: list[int]) -> str | base.Message:
        return ", ".join(card(gid) for gid in ids) or base.say("no cards")

    kind = action["type"]
    label = advanced_label(deck, action)
    if label is not None:
        return label
    if kind == "choose_leader":
        return base.say("Choose {name} as Leader", name=deck["leaders"][action["leader"]]["name"])
    if kind == "draw":
        return base.say("Draw a Group card") if action["what"] == "group" else base.say("Take 2 Mega-Euro")
    if kind == "place":
        if "column" in action:  # (named as the board names it: the card's Family, then the column's number)
            colour = table.colour_word(deck["groups"][action["card"]]["colour"])
            where: str | base.Message = base.say(
                " in {colour} column {column}", colour=colour, column=action["column"] + 1
            )
        else:
            where = ""
        if "take" in action:
            return base.say(
                "Place {card}{where} and take {other} back",
                card=card(action["card"]),
                where=where,
                other=card(action["take"]),
            )
        return base.say("Place {card}{where}", card=card(action["card"]), where=where)
    if kind == "replace":
        return base.say("Discard {card} and draw a new Group card", card=card(action["card"]))
    if kind == "income":
        count = action["titles"]
        titles = base.say(" and buy 1 Deposit Title") if count == 1 else ""
        if count > 1:
            titles = base.say(" and buy {count} Deposit Titles", count=count)
        offshore = (
            base.say(", {money} Mega-Euro to the Offshore", money=action["offshore"]) if action["offshore"] else ""
        )
        return base.say("Take Income{titles}{offshore}", titles=titles, offshore=offshore)
    if kind == "attack":
        facts = {"card": card(action["target"]), "cards": cards(action["cards"]), "actions": as_actions(deck, action)}
        if action["mode"] == "discard":
            return base.say("Attack {card} to discard with {cards}{actions}", **facts)
        return base.say("Attack {card} to control with {cards}{actions}", **facts)
    if kind == "add":
        return base.say("Play {cards}{actions}", cards=cards(action["cards"]), actions=as_actions(deck, action))
    if kind == "campaign":
        return base.say(
            "Campaign with {cards} and {money} Mega-Euro", cards=cards(action["cards"]), money=action["money"]
        )
    if kind == "discard":
        return base.say("Discard {card}", card=card(action["card"]))
    if kind == "discard_money":
        return base.say("Return 1 Mega-Euro to the Treasury")
    if kind == "take":
        return base.say("Take {card} back into hand", card=card(action["card"]))
    return base.say("Stop") if kind == "stop" else base.say("Pass")


def as_actions(deck: dict[str, Any], action: Action) -> str | base.Message:
    used = action.get("actions") or []
    names = ", ".join(deck["groups"][gid]["name"] for gid in used)
    return base.say(" ({cards} for its Hand Action)", cards=names) if used else ""


def choice_words(deck: dict[str, Any], action: Action) -> list[base.Message]:
    """The targets an advanced action names, as messages (each begins with a space)."""
    groups = deck["groups"]
    parts = []
    if "opponent" in action:
        parts.append(base.say(" on {player}", player=base.seat_label(action["opponent"])))
    if "mine" in action:
        mine, theirs = groups[action["mine"]]["name"], groups[action["theirs"]]["name"]
        parts.append(base.say(" swapping {mine} for {theirs}", mine=mine, theirs=theirs))
    if "group" in action:
        group, candidate = groups[action["group"]]["name"], base.seat_label(action["candidate"])
        parts.append(base.say(" giving {card}'s Votes to {player}", card=group, player=candidate))
    return parts


def chosen(deck: dict[str, Any], action: Action) -> base.Message:
    """:func:`choice_words` as one message (nothing when the action names no target)."""
    parts = choice_words(deck, action)
    return base.say("{a}{b}{c}", **dict(zip("abc", [*parts, "", "", ""], strict=False)))


def advanced_label(deck: dict[str, Any], action: Action) -> base.Message | None:
    """Labels of the advanced game's actions (None for the others)."""
    kind = action["type"]
    groups = deck["groups"]
    if kind == "take_back":
        return base.say("Take {card} back into hand", card=groups[action["card"]]["name"])
    if kind == "hand_action":
        return base.say(
            "Play {card} for its Hand Action{choice}", card=groups[action["card"]]["name"], choice=chosen(deck, action)
        )
    if kind == "table_action":
        return base.say("Use your Leader's Table Action{choice}", choice=chosen(deck, action))
    if kind == "support":
        card = groups[action["card"]]["name"]
        if action["side"] == "attack":
            return base.say("Support the attack with {card}", card=card)
        return base.say("Support the defence with {card}", card=card)
    if kind == "react":
        return base.say(
            "Cancel {target} with {card}", target=groups[action["cancel"]]["name"], card=groups[action["card"]]["name"]
        )
    if kind == "no_reaction":
        return base.say("Don't react (nor ask me again this round)") if action["round"] else base.say("Don't react")
    if kind == "precampaign":
        return base.say(
            "Place {card} face down{choice}", card=groups[action["card"]]["name"], choice=chosen(deck, action)
        )
    if kind == "choose":
        return base.say("Yes") if action["yes"] else base.say("No")
    if kind == "no_support":
        return base.say("Support neither side")
    if kind == "decline":
        return base.say("Draw nothing")
    return base.say("Done with the Pre-Campaign") if kind == "precampaign_done" else None


GAME = VemAiTroika()


def seat_tags(state: State) -> list[list[str]]:
    """Each seat's labels in the simulator's breakdown: its Leader, the Leaders it was offered
    and the Groups it controls."""
    deck = state["deck"]
    tags = []
    for p in state["players"]:
        seat = [f"leader: {deck['leaders'][p['leader']]['name']}"]
        seat += [f"offered: {deck['leaders'][lid]['name']}" for lid in p["offer"]]
        seat += [f"controls: {deck['groups'][gid]['name']}" for gid in p["table"]]
        tags.append(seat)
    return tags


ENTRY = GameEntry(
    GAME,
    heuristics="app.bots.vem_ai_troika",
    presenter="app.web.tables.vem_ai_troika",
    ratings={"random": 0, "strong": 586, "expert": 536},
    styles=("/static/css/vem-ai-a-troika.css",),
    scripts=("/static/js/vem.js", "/static/js/pointing.js"),
    pieces=(".vem-card", ".coins", ".title-chip", ".gov-chip", ".metrics dd", ".slot-cards"),
    rules_context=GAME.rules_context,
    seat_tags=seat_tags,
)
