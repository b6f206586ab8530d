"""The advanced game of Vem aí a Troika where an independent review found it differed from the
rulebook (issue 26): supports that change who is ahead (V4), the defender's first answer after a
cancelled opening (V4), two controls of one Group's Votes (V10), the pass after an any-action
card (V10), placing and taking back in a full column (V10), the winning supporter's optional
draw (V10), the Government playing Camionistas itself (V10), who is shown awaited (V10), and a
deck's Hand Action paying Mega-Euro per Group of a type or colour on a table (V2, V10)."""

from __future__ import annotations

import json

import pytest

from app.games.base import spoken
from app.games.vem_ai_troika import GAME
from app.games.vem_ai_troika.deck import validate_deck
from tests.support.vem_scenarios import DECK, ELECTIONS, G, act, adv, end_round, listed

NO = {"type": "no_reaction", "round": False}
STOP = {"type": "stop"}


def attack(state, seat, target, cards, actions=None):
    move = {"type": "attack", "target": G[target], "mode": "control", "cards": sorted(G[c] for c in cards)}
    if actions:
        move["actions"] = [G[c] for c in actions]
    return act(state, seat, move)


def log_text(state):
    return [spoken(entry) for entry in state["log"]]


# --- V4: the side that is not ahead answers, supports included -----------------------------------


def defence_supported(defender_hand):
    """Seat 0 attacks seat 1's Pensionistas 3 against 1; seat 2 supports the defence with Claque (+3)."""
    state = adv(
        3,
        hands={0: ["Revisão", "Enfermeiros"], 1: defender_hand, 2: ["Claque"]},
        tables={1: ["Pensionistas"]},
    )
    state = attack(state, 0, "Pensionistas", ["Revisão"])
    assert GAME.to_act(state) == {2}
    state = act(state, 2, {"type": "support", "side": "defence", "card": G["Claque"]})
    view = GAME.view(state, 0)["attack"]
    assert (view["attack_total"], view["defence_total"]) == (2 + 1, 1 + 3)
    return state


def test_a_support_that_puts_the_defence_ahead_makes_the_attacker_answer_not_the_defender():
    state = defence_supported([])
    # the defender, now ahead, is not asked (with an empty hand it used to be stopped and lose)
    assert GAME.to_act(state) == {0} and GAME.view(state, 1)["attack"]["awaiting"] == 0
    assert GAME.legal_actions(state, 1) == []
    legal = GAME.legal_actions(state, 0)  # one card (for its Power or its Hand Action), or stop
    assert STOP in legal and {tuple(a.get("cards", ())) for a in legal} == {(G["Enfermeiros"],), ()}
    held = act(state, 0, STOP)
    assert G["Pensionistas"] in held["players"][1]["table"]
    assert [(p["seat"], p["reason"]) for p in held["prompts"]] == [(0, "attacked"), (2, "supported the winning side")]


def test_after_the_attacker_goes_ahead_again_the_defenders_first_answer_may_be_several_cards():
    state = act(defence_supported(["Estudantes", "Ambientalistas"]), 0, {"type": "add", "cards": [G["Enfermeiros"]]})
    assert GAME.to_act(state) == {1}
    both = {"type": "add", "cards": sorted([G["Estudantes"], G["Ambientalistas"]])}
    assert both in GAME.legal_actions(state, 1)
    given_up = act(defence_supported([]), 0, {"type": "add", "cards": [G["Enfermeiros"]]})
    assert G["Pensionistas"] in given_up["players"][0]["table"]  # no cards: the defender does not defend
    assert "Seat 1 does not defend." in log_text(given_up)


def test_after_a_cancelled_opening_the_defenders_first_answer_may_still_be_several_cards():
    state = adv(
        3,
        hands={
            0: ["(Dis)funcionários Públicos"],
            1: ["Advogados Militantes", "Estudantes", "Ambientalistas"],
            2: ["Claque"],
        },
        tables={1: ["Procuradoria"]},
    )
    dis = "(Dis)funcionários Públicos"
    state = attack(state, 0, "Procuradoria", [dis], actions=[dis])
    assert GAME.to_act(state) == {1, 2}
    state = act(state, 1, {"type": "react", "card": G["Advogados Militantes"], "cancel": G[dis]})
    state = act(state, 2, NO)
    # cancelled: 2 against 2, the opening is too weak; the support puts the attack ahead again
    state = act(state, 2, {"type": "support", "side": "attack", "card": G["Claque"]})
    assert GAME.to_act(state) == {1} and not GAME.view(state, 1)["attack"]["answered"]
    both = {"type": "add", "cards": sorted([G["Estudantes"], G["Ambientalistas"]])}
    assert both in GAME.legal_actions(state, 1)


# --- V10: supports, controls of Votes, the action a Hand Action goes with --------------------------


def test_the_supporter_of_the_winning_side_may_decline_the_draw_the_others_may_not():
    state = adv(3, hands={0: ["Sindicatos"], 1: [], 2: ["Claque"]}, tables={1: ["Pensionistas"]})
    state = attack(state, 0, "Pensionistas", ["Sindicatos"])
    state = act(state, 2, {"type": "support", "side": "attack", "card": G["Claque"]})
    assert [(p["seat"], p["reason"]) for p in state["prompts"]] == [
        (1, "lost an attack"),
        (0, "attacked"),
        (2, "supported the winning side"),
    ]
    assert {"type": "decline"} not in GAME.legal_actions(state, 1)
    state = act(state, 1, {"type": "draw", "what": "money"})
    assert {"type": "decline"} not in GAME.legal_actions(state, 0)
    state = act(state, 0, {"type": "draw", "what": "money"})
    assert GAME.to_act(state) == {2} and {"type": "decline"} in GAME.legal_actions(state, 2)
    assert GAME.describe({"type": "decline"}, state) == "Draw nothing"
    hand, money = list(state["players"][2]["hand"]), state["players"][2]["money"]
    state = act(state, 2, {"type": "decline"})
    assert (state["players"][2]["hand"], state["players"][2]["money"]) == (hand, money)
    assert not state["prompts"] and "Seat 2 draws nothing." in log_text(state)


def test_one_groups_votes_reach_one_candidate_only_the_first_control_revealed():
    state = adv(
        3,
        hands={0: ["O Homem do Povo"], 1: ["Comentadores Políticos"]},
        tables={0: ["Revisão"], 2: ["Pensionistas"]},
        leaders=["O Autarca Eterno", "O Tecnocrata", "O Comentador de Domingo"],
        events=[ELECTIONS[0]],
    )
    state = end_round(state)
    assert [GAME.view(state, 0)["players"][s]["votes"] for s in range(3)] == [3, 1, 6]
    for seat, card in ((0, "O Homem do Povo"), (1, "Comentadores Políticos")):
        state = act(
            state, seat, {"type": "precampaign", "card": G[card], "group": G["Pensionistas"], "candidate": seat}
        )
        state = act(state, seat, {"type": "precampaign_done"})
    state = act(state, 2, {"type": "precampaign_done"})
    for seat in range(3):
        state = act(state, seat, {"type": "campaign", "cards": [], "money": 0})
    # Pensionistas' 4 Votes go to seat 0 (revealed first); seat 1's control finds them taken
    assert state["election"]["table_votes"] == [3 + 4, 1, 6 - 4]
    assert "Pensionistas (red, 1 Power)'s Votes are already controlled: Seat 1's control has no effect." in (
        log_text(state)
    )


def test_a_seat_cannot_aim_two_of_its_own_cards_at_one_groups_votes():
    state = adv(
        2,
        hands={0: ["O Homem do Povo", "Comentadores Políticos"]},
        tables={1: ["Pensionistas", "Expesso"]},
        events=[ELECTIONS[0]],
    )
    state = end_round(state)
    state = act(
        state, 0, {"type": "precampaign", "card": G["O Homem do Povo"], "group": G["Pensionistas"], "candidate": 0}
    )
    groups = {a["group"] for a in listed(state, 0, type="precampaign", card=G["Comentadores Políticos"])}
    assert G["Pensionistas"] not in groups and G["Expesso"] in groups


def test_an_any_action_hand_action_goes_with_an_action_so_no_pass_follows_it():
    state = adv(hands={0: ["Bruxas e Videntes", "Expesso"]})
    assert listed(state, 0, type="pass") == [{"type": "pass"}]
    state = act(state, 0, {"type": "hand_action", "card": G["Bruxas e Videntes"]})
    assert state["stage"] == "action" and listed(state, 0, type="pass") == []
    kinds = {a["type"] for a in GAME.legal_actions(state, 0)}
    assert {"place", "replace", "income"} <= kinds
    state = act(state, 0, {"type": "income", "titles": 0, "offshore": 0})
    assert state["current"] == 1 and listed(state, 1, type="draw")
    state = act(state, 1, {"type": "draw", "what": "money"})
    assert listed(state, 1, type="pass") == [{"type": "pass"}]  # the next turn may pass again


def test_placing_into_a_full_column_while_taking_one_of_its_cards_back_is_offered():
    blues = ["Expesso", "Tabloides", "Redes Sociais", "Influenciadores"]
    state = adv(tables={0: [*blues, "Pensionistas"]}, hands={0: ["Rádio Pirata"]})
    offered = {(a["column"], a.get("take")) for a in listed(state, 0, type="place", card=G["Rádio Pirata"])}
    assert {(0, G[name]) for name in blues} <= offered  # column 0 has room once one of its cards goes
    assert (0, G["Pensionistas"]) not in offered and (0, None) not in offered
    assert (1, G["Pensionistas"]) in offered and (1, G["Expesso"]) in offered
    state = act(state, 0, {"type": "place", "card": G["Rádio Pirata"], "column": 0, "take": G["Expesso"]})
    assert [len(c) for c in GAME.view(state, 0)["players"][0]["columns"]["blue"]] == [4]
    assert G["Expesso"] in state["players"][0]["hand"]


def test_the_government_playing_camionistas_itself_pressures_nobody_and_the_log_says_so():
    state = adv(hands={0: ["Camionistas"]}, money={0: 3}, government=0)
    state = act(state, 0, {"type": "hand_action", "card": G["Camionistas"]})
    lines = log_text(state)
    assert "Seat 0 is the Government: nobody to pressure, nothing happens." in lines
    assert not any("There is no Government" in line for line in lines) and not state["prompts"]
    nobody = act(adv(hands={0: ["Camionistas"]}, money={0: 3}), 0, {"type": "hand_action", "card": G["Camionistas"]})
    assert "There is no Government to pressure: nothing happens." in log_text(nobody)


# --- who is awaited: exactly the seats with a legal action, as each seat is told -------------------


def answered_window():
    """Seat 0 plays a Hand Action; of the two seats its window asks, seat 2 has answered."""
    state = adv(3, hands={0: ["Banco de Portugalândia"], 1: ["Sindicatos"], 2: ["Claque"]}, money={1: 3})
    state = act(state, 0, {"type": "hand_action", "card": G["Banco de Portugalândia"], "opponent": 1})
    return act(state, 2, NO)


def test_a_seat_that_has_answered_a_window_is_not_shown_itself_awaited_while_the_others_still_see_it():
    state = answered_window()
    assert GAME.to_act(state) == {1} and GAME.legal_actions(state, 2) == []
    # the others cannot tell who has answered (V10); the seat itself is told the truth
    assert GAME.public_to_act(state) == {1, 2}
    assert [GAME.shown_to_act(state, seat) for seat in (None, 0, 1, 2)] == [{1, 2}, {1, 2}, {1, 2}, {1}]
    views = GAME.views(state, [None, 0, 1, 2])
    assert [views[seat]["awaiting"] for seat in (None, 0, 1, 2)] == [[1, 2], [1, 2], [1, 2], [1]]


def test_a_rooms_payloads_list_the_seat_itself_exactly_when_it_may_act():
    from app.rooms.model import LiveGame, RoomInfo
    from app.rooms.views import seat_views

    state = answered_window()
    info = RoomInfo(
        id="r",
        game=GAME.slug,
        title=GAME.title,
        options={"advanced": True},
        num_seats=3,
        host_seat=0,
        status="playing",
        version=0,
        seed_hash="h",
        seats={s: f"P{s}" for s in range(3)},
        seed="scenario",
    )
    payloads = seat_views(info, LiveGame.begin(GAME, state), [None, 0, 1, 2])
    for seat in (0, 1, 2):
        mine = payloads[seat]
        assert (seat in mine["to_act"]) == mine["your_turn"] == bool(mine["legal_actions"]), seat
    assert payloads[2]["to_act"] == [1] and payloads[0]["to_act"] == payloads[None]["to_act"] == [1, 2]


# --- a deck may pay Mega-Euro per Group of a type or colour (the layout's "Broadcasting Rights") --


def broadcasting_deck(effect):
    """The scenario deck, Gabinete de Imprensa's Hand Action replaced by ``effect`` (any timing)."""
    deck = json.loads(json.dumps(DECK))
    for card in deck["groups"]:
        card["hand_action"].pop("said", None)
        card["hand_action"].pop("text", None)
    for card in deck["leaders"]:
        card["table_action"].pop("said", None)
        card["table_action"].pop("text", None)
    deck["groups"][G["Gabinete de Imprensa"]]["hand_action"] = {"when": "any", "effects": [effect]}
    return deck


@pytest.mark.parametrize(
    ("effect", "paid"),
    [
        ({"do": "receive_per", "amount": 1, "per": "type", "of": "media", "on": "all"}, 3),
        ({"do": "receive_per", "amount": 2, "per": "type", "of": "media", "on": "yours"}, 2 * 1),
        ({"do": "receive_per", "amount": 1, "per": "colour", "of": "red", "on": "all"}, 2),
        ({"do": "receive_per", "amount": 2, "per": "colour", "of": "gold", "on": "yours"}, 0),
    ],
)
def test_a_custom_deck_can_pay_mega_euro_per_group_of_a_type_or_colour_on_a_table(effect, paid):
    tables = {0: ["Expesso", "Pensionistas"], 1: ["Tabloides", "Redes Sociais", "Estudantes"]}
    state = adv(deck=broadcasting_deck(effect), hands={0: ["Gabinete de Imprensa"]}, tables=tables)
    state = act(state, 0, {"type": "hand_action", "card": G["Gabinete de Imprensa"]})
    assert state["players"][0]["money"] == paid and state["treasury"] == 10 - paid
    assert f"Seat 0 takes {paid} Mega-Euro from the Treasury." in log_text(state)


def test_what_the_treasury_lacks_of_a_per_group_payment_is_lost():
    deck = broadcasting_deck({"do": "receive_per", "amount": 2, "per": "type", "of": "media", "on": "all"})
    state = adv(deck=deck, hands={0: ["Gabinete de Imprensa"]}, tables={1: ["Tabloides", "Redes Sociais"]}, treasury=3)
    state = act(state, 0, {"type": "hand_action", "card": G["Gabinete de Imprensa"]})
    assert (state["players"][0]["money"], state["treasury"]) == (3, 0)


def test_the_per_group_payment_is_described_and_said_in_portuguese():
    from app.i18n import translations

    effect = {"do": "receive_per", "amount": 1, "per": "type", "of": "media", "on": "all"}
    card = validate_deck(broadcasting_deck(effect))["groups"][G["Gabinete de Imprensa"]]
    assert card["hand_action"]["text"] == "Take 1 Mega-Euro from the Treasury per media Group on every table."
    yours = validate_deck(broadcasting_deck({**effect, "per": "colour", "of": "red", "on": "yours", "amount": 2}))
    said = yours["groups"][G["Gabinete de Imprensa"]]["hand_action"]
    assert said["text"] == "Take 2 Mega-Euro from the Treasury per red Group you control."
    portuguese = spoken(json.loads(card["hand_action"]["said"]), translations("pt-PT").gettext)
    assert "Mega-Euro" in portuguese and "media" not in portuguese and "Take" not in portuguese


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"amount": 3}, r"\.effects\[0\]\.amount: must be an integer 1-2"),
        ({"per": "named"}, r"\.effects\[0\]\.per: must be one of type, colour"),
        ({"of": "gold"}, r"\.effects\[0\]\.of: must be one of marginal"),
        ({"per": "colour", "of": "media"}, r"\.effects\[0\]\.of: must be one of gold, blue, red, grey"),
        ({"on": "theirs"}, r"\.effects\[0\]\.on: must be one of yours, all"),
        ({"whose": "all"}, r"\.effects\[0\]: unknown field 'whose' for 'receive_per'"),
    ],
)
def test_a_per_group_payment_is_validated_naming_the_bad_field(change, message):
    effect = {"do": "receive_per", "amount": 1, "per": "type", "of": "media", "on": "all", **change}
    with pytest.raises(ValueError, match=r"^groups\[\d+\]\.hand_action" + message):
        validate_deck(broadcasting_deck(effect))
    missing = {"do": "receive_per", "amount": 1, "per": "type", "on": "all"}
    with pytest.raises(ValueError, match=r"\.effects\[0\]\.of: must be one of marginal"):
        validate_deck(broadcasting_deck(missing))


def test_a_leaders_table_action_may_pay_per_group_and_an_event_may_not_use_it():
    deck = broadcasting_deck({"do": "draw", "count": 1})
    deck["leaders"][0]["table_action"]["effects"] = [
        {"do": "receive_per", "amount": 1, "per": "colour", "of": "blue", "on": "yours"}
    ]
    assert "per blue Group you control" in validate_deck(deck)["leaders"][0]["table_action"]["text"]
    deck["events"][5]["effects"] = [{"do": "receive_per", "amount": 1, "per": "colour", "of": "blue", "on": "yours"}]
    with pytest.raises(ValueError, match=r"^events\[5\]\.effects\[0\]\.do: must be one of"):
        validate_deck(deck)


async def test_a_room_takes_a_deck_with_a_per_group_payment_through_the_api(client):
    effect = {"do": "receive_per", "amount": 1, "per": "type", "of": "media", "on": "all"}
    body = {"game": GAME.slug, "seats": 2, "name": "Ana", "options": {"advanced": True}}
    body["options"]["deck"] = broadcasting_deck(effect)
    assert (await client.post("/api/rooms", json=body)).status_code == 201
    body["options"]["deck"] = broadcasting_deck({**effect, "on": "theirs"})
    refused = await client.post("/api/rooms", json=body)
    assert refused.status_code == 400 and "hand_action.effects[0].on: must be one of" in refused.json()["message"]


def test_a_table_action_that_controls_votes_applies_when_used_before_the_face_down_cards():
    deck = broadcasting_deck({"do": "draw", "count": 1})
    tecnocrata = next(i for i, card in enumerate(deck["leaders"]) if card["name"] == "O Tecnocrata")
    deck["leaders"][tecnocrata]["table_action"] = {
        "name": "Spin",
        "when": "elections",
        "cost": 0,
        "effects": [{"do": "control_votes"}],
    }
    state = adv(
        3,
        deck=deck,
        hands={0: ["O Homem do Povo"]},
        tables={0: ["Revisão"], 2: ["Pensionistas"]},
        leaders=["O Autarca Eterno", "O Tecnocrata", "O Comentador de Domingo"],
        events=[ELECTIONS[0]],
    )
    state = end_round(state)
    pensionistas = {"group": G["Pensionistas"]}
    state = act(state, 0, {"type": "precampaign", "card": G["O Homem do Povo"], **pensionistas, "candidate": 0})
    state = act(state, 0, {"type": "precampaign_done"})
    state = act(state, 1, {"type": "table_action", **pensionistas, "candidate": 1})
    for seat in (1, 2):
        state = act(state, seat, {"type": "precampaign_done"})
    for seat in range(3):
        state = act(state, seat, {"type": "campaign", "cards": [], "money": 0})
    assert state["election"]["table_votes"] == [3, 1 + 4, 6 - 4]  # the Table Action's, used first
