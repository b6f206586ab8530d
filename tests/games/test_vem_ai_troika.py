"""Scenario tests for the Vem aí a Troika engine (basic rules): setup, the turn, Organization,
Income, attacks and the rulebook's worked examples, built from exact states."""

from __future__ import annotations

import json
import random

import pytest

from app.games.base import IllegalAction, spoken, visible_log
from app.games.vem_ai_troika import GAME
from app.games.vem_ai_troika.deck import DEFAULT_PATH, default_deck
from app.i18n import translations
from tests.support.dumps import dumped
from tests.support.vem_scenarios import DECK, ELECTIONS, E, G, L, arrange, end_round


def play(state, *steps):
    for seat, action in steps:
        state = GAME.apply(state, seat, action)
    return state


def names(ids):
    return [DECK["groups"][gid]["name"] for gid in ids]


def public_text(state):
    return " ".join(spoken(entry) for entry in state["log"] if entry["to"] is None)


def attack(target, *cards, mode="control"):
    return {"type": "attack", "target": G[target], "mode": mode, "cards": sorted(G[c] for c in cards)}


def add(*cards):
    return {"type": "add", "cards": sorted(G[c] for c in cards)}


DRAW_GROUP = {"type": "draw", "what": "group"}
STOP = {"type": "stop"}
PASS = {"type": "pass"}


# --- setup and options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "treasury", "titles", "gap"),
    [
        (2, 12, [6, 6, 5, 5, 5, 5, 4, 4], 4),
        (3, 18, [6, 6, 6, 5, 5, 5, 5, 4, 4, 4], 3),
        (4, 24, [6, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4], 2),
    ],
)
def test_setup_follows_v3(n, treasury, titles, gap):
    state = GAME.setup(n, {}, f"setup-{n}")
    assert state["treasury"] == treasury - 2 * n
    assert state["titles"] == titles
    for p in state["players"]:
        assert (len(p["hand"]), p["money"], len(p["offer"]), p["leader"], p["table"]) == (3, 2, 2, None, [])
    roles = [DECK["events"][eid]["role"] for eid in state["events"]]
    assert roles == ["normal"] * gap + ["elections"] + ["normal"] * gap + ["elections"] + roles[-4:]
    assert sorted(roles[-4:]) == ["normal", "normal", "normal", "troika"]
    assert len(state["events_out"]) == 13 - 3 - 2 * gap
    assert sorted(state["events"] + state["events_out"]) == list(range(16))
    dealt = [gid for p in state["players"] for gid in p["hand"]]
    assert sorted(dealt + state["draw_pile"]) == list(range(42))
    offered = [lid for p in state["players"] for lid in p["offer"]]
    assert sorted(offered + state["leaders_out"]) == list(range(9))
    assert state["stage"] == "leaders" and GAME.to_act(state) == set(range(n))


def test_setup_is_deterministic_and_depends_on_the_seed():
    assert GAME.setup(3, {}, "a") == GAME.setup(3, {}, "a")
    assert GAME.setup(3, {}, "a")["draw_pile"] != GAME.setup(3, {}, "b")["draw_pile"]


def test_options_are_checked():
    assert GAME.setup(2, {"advanced": True}, "s")["options"]["advanced"] is True
    with pytest.raises(ValueError, match="unknown option 'speed'"):
        GAME.setup(2, {"speed": 1}, "s")
    with pytest.raises(ValueError, match="2-4 players"):
        GAME.setup(5, {}, "s")
    bad = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    bad["groups"][3]["power"] = 9
    with pytest.raises(ValueError, match=r"^groups\[3\]\.power: must be an integer 0-4$"):
        GAME.setup(2, {"deck": bad}, "s")


def choose_leaders(state):
    for seat, p in enumerate(state["players"]):
        state = GAME.apply(state, seat, {"type": "choose_leader", "leader": p["offer"][0]})
    return state


def test_the_room_chooses_round_ones_first_player_v11():
    state = GAME.setup(3, {"first_player": "2"}, "first")
    assert (state["first"], GAME.view(state, None)["first"]) == (2, 2)
    state = choose_leaders(state)
    assert (state["stage"], state["current"], GAME.to_act(state)) == ("draw", 2, {2})
    assert public_text(state).endswith("Round 1 begins with Seat 2.")
    for seat in (2, 0):
        state = play(state, (seat, DRAW_GROUP), (seat, PASS))
        assert state["round"] == 1
    state = play(state, (1, DRAW_GROUP), (1, PASS))  # the round ends after the seat before the first
    assert "End of round 1" in public_text(state)


def test_round_ones_first_player_is_drawn_from_the_seed_by_default():
    firsts = [GAME.setup(4, {}, f"first-{i}")["first"] for i in range(24)]
    assert set(firsts) == {0, 1, 2, 3}
    assert firsts == [GAME.setup(4, {"first_player": "random"}, f"first-{i}")["first"] for i in range(24)]
    assert [o["name"] for o in (spec.to_json() for spec in GAME.options)] == ["advanced", "deck", "first_player"]
    with pytest.raises(ValueError, match=r"^option 'first_player': there is no seat 2$"):
        GAME.setup(2, {"first_player": "2"}, "s")
    with pytest.raises(ValueError, match="option 'first_player' must be one of"):
        GAME.setup(4, {"first_player": "4"}, "s")


def test_a_loaded_deck_is_validated_stored_and_used():
    custom = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    for card in custom["groups"]:
        card["name"] = "Grupo " + card["name"]
        for bonus in card.get("variable", []):  # a variable value for a named Group names it anew
            if bonus["per"] == "named":
                bonus["of"] = "Grupo " + bonus["of"]
    state = GAME.setup(2, {"deck": custom}, "custom")
    assert state["deck"]["groups"][0]["name"] == "Grupo Procuradoria"
    hand = GAME.view(state, 0)["hand"]
    assert all(card["name"].startswith("Grupo ") for card in hand)
    assert GAME.setup(2, {"deck": None}, "custom")["deck"] == default_deck()


def test_leaders_are_chosen_in_secret_and_revealed_together():
    state = GAME.setup(3, {}, "leaders")
    offers = [p["offer"] for p in state["players"]]
    state = GAME.apply(state, 1, {"type": "choose_leader", "leader": offers[1][1]})
    assert GAME.to_act(state) == {0, 2}
    seen_by_0 = GAME.view(state, 0)
    assert seen_by_0["players"][1]["leader"] is None and seen_by_0["players"][1]["leader_chosen"] is True
    assert [leader["id"] for leader in seen_by_0["leader_offer"]] == offers[0]
    assert GAME.view(state, 1)["leader_choice"] == offers[1][1]
    assert str(offers[1][1]) not in json.dumps(seen_by_0["players"])
    with pytest.raises(IllegalAction, match=r"^that Leader is not one of the two you were dealt$"):
        GAME.apply(state, 0, {"type": "choose_leader", "leader": offers[1][0]})
    with pytest.raises(IllegalAction, match=r"^you have chosen your Leader: the others are choosing theirs$"):
        GAME.apply(state, 1, {"type": "choose_leader", "leader": offers[1][0]})
    state = play(state, (0, {"type": "choose_leader", "leader": offers[0][0]}))
    every_leader = [card["name"] for card in DECK["leaders"]]
    assert not any(name in public_text(state) for name in every_leader)
    state = play(state, (2, {"type": "choose_leader", "leader": offers[2][1]}))
    assert [p["leader"] for p in state["players"]] == [offers[0][0], offers[1][1], offers[2][1]]
    assert [p["leader"]["id"] for p in GAME.view(state, None)["players"]] == [offers[0][0], offers[1][1], offers[2][1]]
    assert (state["stage"], state["current"], GAME.to_act(state)) == ("draw", 0, {0})


# --- the turn -------------------------------------------------------------------------------


def test_drawing_a_group_card_is_private_and_money_is_public():
    state = arrange(2, stage="draw", pile=["Juízes"], treasury=5)
    drawn = GAME.apply(state, 0, DRAW_GROUP)
    assert drawn["players"][0]["hand"] == [G["Juízes"]] and drawn["stage"] == "action"
    assert "Juízes" not in public_text(drawn)
    assert [spoken(e) for e in drawn["log"] if e["to"] == [0]] == ["You drew Juízes (gold, 3 Power)."]
    paid = GAME.apply(state, 0, {"type": "draw", "what": "money"})
    assert (paid["players"][0]["money"], paid["treasury"]) == (2, 3)
    assert GAME.view(paid, 1)["players"][0]["money"] == 2


def test_an_empty_group_pile_is_refilled_from_the_discards():
    state = arrange(2, stage="draw")
    state["discards"], state["draw_pile"] = state["draw_pile"], []
    drawn = GAME.apply(state, 0, DRAW_GROUP)
    assert len(drawn["players"][0]["hand"]) == 1
    assert (len(drawn["draw_pile"]), drawn["discards"]) == (41, [])


def test_with_nothing_to_draw_the_draw_is_skipped():
    state = arrange(2, treasury=0)
    state["draw_pile"] = []
    state = GAME.apply(state, 0, PASS)
    assert (state["current"], state["stage"]) == (1, "action")
    assert not any(a["type"] == "draw" for a in GAME.legal_actions(state, 1))


def test_only_the_current_player_acts():
    state = arrange(3)
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, 1, PASS)


def test_each_seat_alone_is_told_its_hand_and_its_two_leaders():
    state = GAME.setup(2, {}, "told")
    for seat, p in enumerate(state["players"]):
        first, second = (state["deck"]["leaders"][lid]["name"] for lid in p["offer"])
        (told,) = [spoken(entry) for entry in state["log"] if entry["to"] == [seat]]
        assert told.startswith("You were dealt ") and told.endswith(f"; choose your Leader: {first} or {second}.")


def test_the_two_draws_are_labelled_apart():
    state = arrange(2, stage="draw")
    labels = [GAME.label(action, state)["msg"] for action in GAME.legal_actions(state, 0)]
    assert labels == ["Draw a Group card", "Take 2 Mega-Euro"]


def test_hand_limit_counts_group_cards_and_money():
    state = arrange(2, hands={0: ["Juízes", "Claque", "Tabloides", "Pensionistas"]}, money={0: 3})
    state = GAME.apply(state, 0, PASS)
    assert (state["stage"], state["prompts"]) == ("end_turn", [{"kind": "hand_limit", "seat": 0}])
    legal = GAME.legal_actions(state, 0)
    assert {"type": "discard_money"} in legal and {"type": "discard", "card": G["Claque"]} in legal
    state = GAME.apply(state, 0, {"type": "discard_money"})
    assert (state["players"][0]["money"], state["treasury"], state["current"]) == (2, 11, 1)
    assert state["stage"] == "draw"


def test_hand_limit_discards_until_six():
    state = arrange(2, hands={0: ["Juízes", "Claque", "Tabloides", "Pensionistas", "Revisão"]}, money={0: 3})
    state = play(state, (0, PASS), (0, {"type": "discard", "card": G["Claque"]}))
    assert GAME.to_act(state) == {0} and state["prompts"][0]["kind"] == "hand_limit"
    state = GAME.apply(state, 0, {"type": "discard", "card": G["Revisão"]})
    assert names(state["discards"]) == ["Claque", "Revisão"]
    assert state["current"] == 1 and "Claque" in public_text(state)


# --- Organization ---------------------------------------------------------------------------


def test_organization_example_1_joana_places_two_vote_cards():
    state = arrange(3, hands={0: ["Pensionistas", "TV Irritante", "Sindicatos"]})
    state = GAME.apply(state, 0, {"type": "place", "card": G["Pensionistas"]})
    assert (state["stage"], state["moves"]) == ("organize", 1)
    state = GAME.apply(state, 0, {"type": "place", "card": G["TV Irritante"]})
    assert names(state["players"][0]["table"]) == ["Pensionistas", "TV Irritante"]
    assert GAME.view(state, 1)["players"][0]["votes"] == 2 + 4 + 3
    assert (state["current"], state["stage"]) == (1, "draw")


def test_organization_example_2_antonio_replaces_then_places():
    state = arrange(
        2, hands={0: ["Procuradoria", "Bancos + ou - Honestos", "Pensionistas"]}, pile=["Banco de Portugalândia"]
    )
    income_before = GAME.view(state, 0)["players"][0]["income"]
    state = GAME.apply(state, 0, {"type": "replace", "card": G["Procuradoria"]})
    assert names(state["players"][0]["hand"]) == ["Bancos + ou - Honestos", "Pensionistas", "Banco de Portugalândia"]
    assert names(state["discards"]) == ["Procuradoria"]
    assert "Banco de Portugalândia" not in public_text(state)
    state = GAME.apply(state, 0, {"type": "place", "card": G["Bancos + ou - Honestos"]})
    assert names(state["players"][0]["table"]) == ["Bancos + ou - Honestos"]
    assert GAME.view(state, 0)["players"][0]["income"] == income_before + 2
    assert state["current"] == 1


def test_a_family_holds_at_most_four_cards():
    gold = ["Procuradoria", "Juízes", "Opus Day", "Fundos Abutre"]
    state = arrange(2, hands={0: ["Consultoras"], 1: ["Revisão"]}, tables={0: gold + ["Expesso"]})
    legal = GAME.legal_actions(state, 0)
    assert {"type": "place", "card": G["Consultoras"]} not in legal
    assert {"type": "place", "card": G["Consultoras"], "take": G["Juízes"]} in legal
    assert {"type": "place", "card": G["Consultoras"], "take": G["Expesso"]} not in legal
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "place", "card": G["Consultoras"]})
    # a card not the seat's, in hand or taken back (another seat's, or none at all): told so
    for move in ({"type": "place", "card": G["Revisão"]}, {"type": "place", "card": G["Consultoras"], "take": 999}):
        with pytest.raises(IllegalAction, match=r"^that card is neither in your hand nor on your table$"):
            GAME.apply(state, 0, move)
    state = GAME.apply(state, 0, {"type": "place", "card": G["Consultoras"], "take": G["Juízes"]})
    assert names(state["players"][0]["hand"]) == ["Juízes"]
    families = GAME.view(state, 0)["players"][0]["families"]
    assert [card["name"] for card in families["gold"]] == ["Procuradoria", "Opus Day", "Fundos Abutre", "Consultoras"]


def test_organization_may_stop_after_one_move():
    state = arrange(2, hands={0: ["Expesso"]}, tables={0: ["Tabloides"]})
    state = GAME.apply(state, 0, {"type": "place", "card": G["Expesso"], "take": G["Tabloides"]})
    assert names(state["players"][0]["hand"]) == ["Tabloides"]
    assert {"type": "stop"} in GAME.legal_actions(state, 0)
    state = GAME.apply(state, 0, STOP)
    assert (state["current"], names(state["players"][0]["table"])) == (1, ["Expesso"])


# --- Income ---------------------------------------------------------------------------------


def income(titles, offshore=0):
    return {"type": "income", "titles": titles, "offshore": offshore}


def income_state(**kwargs):
    kwargs.setdefault("tables", {0: ["Banco de Portugalândia", "Bancos + ou - Honestos"]})
    return arrange(2, leaders=["O Tecnocrata", "O Autarca Eterno"], **kwargs)


def test_income_example_joao_buys_a_title_and_keeps_two():
    state = income_state(treasury=10)
    assert [a for a in GAME.legal_actions(state, 0) if a["type"] == "income"] == [income(0), income(1)]
    state = GAME.apply(state, 0, income(1))
    p = state["players"][0]
    assert (p["titles"], p["money"], state["treasury"]) == ([6], 2, 8)
    assert state["titles"] == [6, 5, 5, 5, 5, 4, 4]
    assert "Seat 0 takes Income (8 Mega-Euro), buys Deposit Title 6 and receives 2 Mega-Euro from the Treasury." in (
        public_text(state)
    )
    plain = GAME.apply(income_state(treasury=10), 0, income(0))  # the income said once, not twice
    assert "Seat 0 takes Income: 8 Mega-Euro from the Treasury." in public_text(plain)


def test_titles_can_be_bought_with_money_already_in_hand():
    state = GAME.apply(income_state(money={0: 4}, treasury=10), 0, income(2))
    p = state["players"][0]
    assert (p["titles"], p["money"], state["treasury"]) == ([6, 6], 0, 14)
    # (nothing comes from the Treasury: the log does not say "receives 0")
    assert "Seat 0 takes Income (8 Mega-Euro), buys Deposit Titles 6, 6 paying 4 Mega-Euro from hand." in (
        public_text(state)
    )


def test_income_the_treasury_cannot_pay_is_lost():
    state = GAME.apply(income_state(treasury=3), 0, income(0))
    assert (state["players"][0]["money"], state["treasury"]) == (3, 0)
    assert "Seat 0 takes Income (8 Mega-Euro) and receives 3 Mega-Euro from the Treasury." in public_text(state)
    state = GAME.apply(income_state(treasury=0), 0, income(1))
    assert (state["players"][0]["titles"], state["players"][0]["money"], state["treasury"]) == ([6], 0, 0)


def test_after_the_last_title_money_may_go_to_the_offshore():
    state = income_state(treasury=10, titles=[4])
    legal = [a for a in GAME.legal_actions(state, 0) if a["type"] == "income"]
    assert legal == [income(0), income(1), income(1, 1), income(1, 2)]
    state = GAME.apply(state, 0, income(1, 2))
    p = state["players"][0]
    assert (p["titles"], p["money"], p["offshore_money"], state["titles"]) == ([4], 0, 2, [])
    none_left = income_state(treasury=10, titles=[], money={0: 1})
    offshore = [a["offshore"] for a in GAME.legal_actions(none_left, 0) if a["type"] == "income"]
    assert offshore == list(range(10))


# --- Attacks --------------------------------------------------------------------------------


def test_attack_example_1_miguel_takes_expesso_and_both_draw():
    state = arrange(
        3,
        leaders=["A Sindicalista", "O Autarca Eterno", "O Tecnocrata"],
        hands={0: ["Revisão"], 1: ["Ambientalistas"]},
        tables={0: ["Tabloides"], 1: ["Expesso", "Pensionistas"]},
        pile=["Sindicatos", "Estudantes"],
    )
    state = GAME.apply(state, 0, attack("Expesso", "Revisão"))
    fight = GAME.view(state, 2)["attack"]
    assert (fight["attack_total"], fight["defence_total"], fight["awaiting"]) == (4, 2, 1)
    assert GAME.legal_actions(state, 1) == [add("Ambientalistas"), STOP]
    state = GAME.apply(state, 1, STOP)
    assert names(state["players"][0]["table"]) == ["Tabloides", "Expesso"]
    assert names(state["players"][1]["table"]) == ["Pensionistas"]
    assert names(state["discards"]) == ["Revisão"]
    assert [(p["kind"], p["seat"]) for p in state["prompts"]] == [("draw", 1), ("draw", 0)]
    state = play(state, (1, DRAW_GROUP), (0, DRAW_GROUP))
    assert names(state["players"][1]["hand"]) == ["Ambientalistas", "Sindicatos"]
    assert names(state["players"][0]["hand"]) == ["Estudantes"]
    assert (state["current"], state["attack"]) == (1, None)


def test_attack_example_2_sofia_wins_four_to_three_and_breaks_a_consensus():
    state = arrange(
        2,
        leaders=["O Pivô da Televisão", "A Sindicalista"],
        hands={0: ["Patos Bravos", "Banco de Portugalândia"], 1: ["Meninas Boas"]},
        tables={0: ["Fundos Abutre"], 1: ["Procuradoria", "Expesso", "Pensionistas", "Autarcas"]},
    )
    maria = GAME.view(state, 1)["players"][1]
    assert (maria["consensus"], maria["votes"]) == (1, 13)
    state = GAME.apply(state, 0, attack("Procuradoria", "Patos Bravos"))
    assert GAME.view(state, None)["attack"]["attack_total"] == 3
    state = GAME.apply(state, 1, add("Meninas Boas"))
    fight = GAME.view(state, None)["attack"]
    assert (fight["attack_total"], fight["defence_total"], fight["awaiting"]) == (3, 3, 0)
    state = GAME.apply(state, 0, add("Banco de Portugalândia"))
    assert state["attack"] is None, "Maria has no card left: she loses without being asked"
    assert names(state["players"][0]["table"]) == ["Fundos Abutre", "Procuradoria"]
    assert sorted(names(state["discards"])) == ["Banco de Portugalândia", "Meninas Boas", "Patos Bravos"]
    maria = GAME.view(state, 1)["players"][1]
    assert (maria["consensus"], maria["votes"]) == (0, 9)
    assert [(p["kind"], p["seat"]) for p in state["prompts"]] == [("draw", 1)], "2 players: Sofia does not draw"


def test_a_tie_goes_to_the_defender():
    state = arrange(2, hands={0: ["Revisão"], 1: ["Ambientalistas"]}, tables={1: ["Expesso"]})
    state = play(state, (0, attack("Expesso", "Revisão")), (1, add("Ambientalistas")))
    assert state["attack"] is None, "at 4 to 4 the attacker, out of cards, has lost"
    assert names(state["players"][1]["table"]) == ["Expesso"]
    assert state["prompts"] == [] and state["current"] == 1


def test_the_attacker_stopping_at_a_tie_loses_and_still_draws_with_three_players():
    state = arrange(3, hands={0: ["Revisão", "Peregrinos"], 1: ["Ambientalistas"]}, tables={1: ["Expesso"]})
    state = play(state, (0, attack("Expesso", "Revisão")), (1, add("Ambientalistas")))
    assert GAME.legal_actions(state, 0) == [add("Peregrinos"), STOP]
    state = GAME.apply(state, 0, STOP)
    assert names(state["players"][1]["table"]) == ["Expesso"]
    assert [(p["kind"], p["seat"]) for p in state["prompts"]] == [("draw", 0)]


def test_the_opening_must_beat_the_defence():
    state = arrange(2, hands={0: ["Revisão"]}, tables={1: ["Juízes"]})
    with pytest.raises(IllegalAction, match="opening attack must be stronger"):
        GAME.apply(state, 0, attack("Juízes", "Revisão"))
    assert [a for a in GAME.legal_actions(state, 0) if a["type"] == "attack"] == [
        attack("Juízes", "Revisão", mode="discard")
    ]
    with pytest.raises(IllegalAction, match="opponent's Group"):
        GAME.apply(
            state, 0, {"type": "attack", "target": G["Procuradoria"], "mode": "control", "cards": [G["Revisão"]]}
        )
    with pytest.raises(IllegalAction, match="at least one"):
        GAME.apply(state, 0, {"type": "attack", "target": G["Juízes"], "mode": "control", "cards": []})


def test_an_attack_on_ones_own_table_is_refused_however_strong():
    """Only an opponent's Group may be attacked: Revisão beats Expesso's defence on Seat 1's
    table, and the same attack on Seat 0's own Expesso is neither listed nor taken."""
    state = arrange(2, hands={0: ["Revisão"]}, tables={0: ["Expesso"], 1: ["Pensionistas"]})
    before = dumped(state)
    assert [a for a in GAME.legal_actions(state, 0) if a["type"] == "attack" and a["target"] == G["Expesso"]] == []
    with pytest.raises(IllegalAction, match="you can only attack an opponent's Group on the table"):
        GAME.apply(state, 0, attack("Expesso", "Revisão"))
    assert dumped(state) == before
    state["players"][0]["table"], state["players"][1]["table"] = [G["Pensionistas"]], [G["Expesso"]]
    taken = GAME.apply(state, 0, attack("Expesso", "Revisão"))
    assert names(taken["players"][0]["table"]) == ["Pensionistas", "Expesso"]


def test_defence_counts_the_column_the_leader_colour_and_the_government_on_gold():
    tables = {1: ["Sindicatos", "Professores", "Procuradoria"]}
    state = arrange(
        2,
        leaders=["O Autarca Eterno", "A Sindicalista"],
        hands={0: ["Revisão", "Claque"], 1: ["Peregrinos"]},
        tables=tables,
        government=1,
    )
    opening = GAME.apply(state, 0, attack("Sindicatos", "Revisão", "Claque"))
    assert GAME.view(opening, None)["attack"]["defence_total"] == 3 + 1 + 1
    opening = GAME.apply(state, 0, attack("Procuradoria", "Claque"))
    assert GAME.view(opening, None)["attack"]["defence_total"] == 2 + 1
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, attack("Procuradoria", "Revisão"))
    state["government"] = None
    assert GAME.view(GAME.apply(state, 0, attack("Procuradoria", "Revisão")), None)["attack"]["defence_total"] == 2


def test_an_attack_to_discard_uses_four_leader_power_and_discards_the_target():
    state = arrange(
        2,
        leaders=["O Tecnocrata", "O Autarca Eterno"],
        hands={0: ["Revisão"], 1: ["Peregrinos"]},
        tables={1: ["Expesso", "Pensionistas"]},
    )
    legal = GAME.legal_actions(state, 0)
    assert attack("Expesso", "Revisão", mode="discard") in legal
    assert attack("Expesso", "Revisão") not in legal
    state = GAME.apply(state, 0, attack("Expesso", "Revisão", mode="discard"))
    assert GAME.view(state, None)["attack"]["attack_total"] == 5
    state = GAME.apply(state, 1, STOP)
    assert names(state["players"][1]["table"]) == ["Pensionistas"]
    assert state["players"][0]["table"] == []
    assert sorted(names(state["discards"])) == ["Expesso", "Revisão"]
    assert [(p["kind"], p["seat"]) for p in state["prompts"]] == [("draw", 1)]


def test_the_defenders_first_answer_may_be_several_cards():
    state = arrange(
        2,
        leaders=["A Baronesa do Partido", "O Autarca Eterno"],
        hands={0: ["Claque", "Revisão"], 1: ["Sindicatos", "Camionistas"]},
        tables={1: ["Expesso"]},
    )
    state = GAME.apply(state, 0, attack("Expesso", "Claque"))
    assert add("Sindicatos", "Camionistas") in GAME.legal_actions(state, 1)
    state = GAME.apply(state, 1, add("Sindicatos", "Camionistas"))
    fight = GAME.view(state, None)["attack"]
    assert (fight["attack_total"], fight["defence_total"], fight["awaiting"]) == (6, 8, 0)
    assert GAME.legal_actions(state, 0) == [add("Revisão"), STOP]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "add", "cards": []})


def test_a_defence_of_several_cards_is_taken_in_the_order_they_were_ticked():
    """The page sent a defence's cards in the hand's order, and the engine matched the listed
    answer, cards in increasing order, exactly: a defence of two cards was refused (a player's
    probe, 2026-12-07). Its cards are a set: any order is taken, and played in the listed form.
    A list that is no list of ids is still refused, and so is a card given twice."""
    state = arrange(
        2,
        leaders=["A Baronesa do Partido", "O Autarca Eterno"],
        hands={0: ["Claque", "Revisão"], 1: ["Sindicatos", "Camionistas"]},
        tables={1: ["Expesso"]},
    )
    state = GAME.apply(state, 0, attack("Expesso", "Claque"))
    listed = add("Sindicatos", "Camionistas")
    ticked = {"type": "add", "cards": listed["cards"][::-1]}
    assert ticked != listed
    assert GAME.play(state, 1, ticked)[0] == listed
    assert GAME.stored_form(ticked) == listed  # (a resent move matches the logged one)
    for bad in ([float(c) for c in ticked["cards"]], [True, *ticked["cards"][1:]], ticked["cards"][:1] * 2):
        with pytest.raises(IllegalAction):
            GAME.play(state, 1, {"type": "add", "cards": bad})


def test_a_defender_without_group_cards_loses_at_once():
    state = arrange(2, hands={0: ["Claque"]}, tables={1: ["Expesso"]}, money={1: 3})
    state = GAME.apply(state, 0, attack("Expesso", "Claque"))
    assert state["attack"] is None and names(state["players"][0]["table"]) == ["Expesso"]
    assert "does not defend" in public_text(state)


def test_a_fifth_card_of_a_family_sends_one_back_to_hand():
    blue = ["Tabloides", "Redes Sociais", "Clube de Futebol", "Rádio Pirata"]
    state = arrange(2, hands={0: ["Claque"]}, tables={0: blue, 1: ["Expesso"]})
    state = GAME.apply(state, 0, attack("Expesso", "Claque"))
    assert state["prompts"][0] == {"kind": "overflow", "seat": 0, "colour": "blue", "keep": G["Expesso"]}
    assert GAME.legal_actions(state, 0) == [{"type": "take", "card": G[name]} for name in blue]
    state = GAME.apply(state, 0, {"type": "take", "card": G["Redes Sociais"]})
    assert names(state["players"][0]["table"]) == ["Tabloides", "Clube de Futebol", "Rádio Pirata", "Expesso"]
    assert names(state["players"][0]["hand"]) == ["Redes Sociais"]
    assert [(p["kind"], p["seat"]) for p in state["prompts"]] == [("draw", 1)]


# --- views, log and labels ------------------------------------------------------------------


def test_views_show_counts_of_other_hands_only():
    state = arrange(2, hands={0: ["Juízes", "Claque"], 1: ["Pensionistas"]}, money={0: 1})
    seen = GAME.view(state, 1)
    assert [card["name"] for card in seen["hand"]] == ["Pensionistas"]
    assert (seen["players"][0]["hand_count"], seen["players"][0]["money"]) == (3, 1)
    text = json.dumps(seen, ensure_ascii=False)
    assert "Juízes" not in text and "Claque" not in text
    assert "Juízes" not in json.dumps(GAME.view(state, None), ensure_ascii=False)
    assert "seed" not in seen and "scenario" not in json.dumps(seen)


def test_randomize_hidden_redeals_only_what_the_seat_cannot_see():
    state = GAME.setup(3, {}, "redeal")
    state = GAME.apply(state, 1, {"type": "choose_leader", "leader": state["players"][1]["offer"][0]})
    other = GAME.randomize_hidden(state, 0, random.Random(5))
    assert other["players"][0]["hand"] == state["players"][0]["hand"]
    assert other["players"][0]["offer"] == state["players"][0]["offer"]
    assert other["seed"] != state["seed"]
    assert other["players"][1]["choice"] in other["players"][1]["offer"]
    assert sorted([g for p in other["players"] for g in p["hand"]] + other["draw_pile"]) == list(range(42))
    roles = [DECK["events"][eid]["role"] for eid in other["events"]]
    assert roles[3] == roles[7] == "elections" and "troika" in roles[-4:]
    assert sorted(other["events"] + other["events_out"]) == list(range(16))
    assert GAME.view(other, 0) == GAME.view(state, 0)


def test_public_log_hides_dealt_cards_and_offers():
    state = GAME.setup(4, {}, "log")
    text = public_text(state)
    hidden = [DECK["groups"][gid]["name"] for p in state["players"] for gid in p["hand"]]
    hidden += [DECK["leaders"][lid]["name"] for p in state["players"] for lid in p["offer"]]
    assert hidden and not any(name in text for name in hidden)
    private = [entry for entry in state["log"] if entry["to"] is not None]
    assert [entry["to"] for entry in private] == [[0], [1], [2], [3]]


def test_actions_have_readable_labels():
    assert GAME.describe(attack("Expesso", "Revisão")) == "Attack Expesso to control with Revisão"
    assert GAME.describe(income(1, 2)) == "Take Income and buy 1 Deposit Title, 2 Mega-Euro to the Offshore"
    assert GAME.describe(income(2)) == "Take Income and buy 2 Deposit Titles"  # (one or many: no "(s)")
    assert GAME.describe(income(0)) == "Take Income"
    assert GAME.describe({"type": "place", "card": G["Expesso"], "take": G["Tabloides"]}) == (
        "Place Expesso and take Tabloides back"
    )
    assert GAME.describe({"type": "campaign", "cards": [], "money": 2}) == "Campaign with no cards and 2 Mega-Euro"
    assert GAME.describe({"type": "choose_leader", "leader": L["O Tecnocrata"]}) == "Choose O Tecnocrata as Leader"
    assert GAME.describe(DRAW_GROUP) == "Draw a Group card"
    state = arrange(2)
    state["deck"] = json.loads(json.dumps(state["deck"]))
    state["deck"]["groups"][G["Expesso"]]["name"] = "Semanário"
    assert GAME.describe({"type": "discard", "card": G["Expesso"]}, state) == "Discard Semanário"


# --- Events ---------------------------------------------------------------------------------


def money_of(state):
    return [p["money"] for p in state["players"]]


def test_receipts_go_in_round_order_until_the_treasury_is_empty():
    state = end_round(arrange(3, first=1, treasury=2, events=[E["Subsídio de Natal"]]))
    assert (money_of(state), state["treasury"]) == ([0, 1, 1], 0)
    assert GAME.view(state, None)["last_event"]["name"] == "Subsídio de Natal"
    said = GAME.view(state, None)["last_event"]["said"]  # the Event's text as a message, for the reader's language
    assert (said["msg"], said["args"]["amount"]) == ("{who} receives {amount} Mega-Euro from the Treasury.", 1)
    assert (state["round"], state["current"], state["stage"]) == (2, 1, "draw")


def test_a_player_who_cannot_pay_discards_power_instead():
    state = arrange(
        2, money={0: 3}, hands={1: ["Peregrinos", "Claque"]}, tables={1: ["Expesso"]}, events=[E["Aumento de Impostos"]]
    )
    state = end_round(state)
    assert (money_of(state), state["treasury"]) == ([2, 0], 11)
    assert state["prompts"] == [{"kind": "cover", "seat": 1, "amount": 1}]
    assert GAME.legal_actions(state, 1) == [
        {"type": "discard", "card": G["Claque"]},
        {"type": "discard", "card": G["Expesso"]},
    ]
    state = GAME.apply(state, 1, {"type": "discard", "card": G["Expesso"]})
    assert names(state["discards"]) == ["Expesso"] and state["players"][1]["table"] == []
    assert (state["prompts"], state["round"], state["stage"]) == ([], 2, "draw")


def test_a_short_payer_keeps_money_and_discards_the_whole_amount_in_power():
    state = arrange(
        2, money={0: 1}, tables={0: ["Revisão", "Ambientalistas"], 1: ["Peregrinos"]}, events=[E["Greve Geral"]]
    )
    state = end_round(state)
    assert state["prompts"] == [{"kind": "cover", "seat": 0, "amount": 2}]
    state = GAME.apply(state, 0, {"type": "discard", "card": G["Revisão"]})
    assert state["prompts"] == [{"kind": "cover", "seat": 0, "amount": 1}]
    state = GAME.apply(state, 0, {"type": "discard", "card": G["Ambientalistas"]})
    assert (state["prompts"], money_of(state), state["treasury"]) == ([], [1, 0], 10)


def test_a_payer_without_enough_power_discards_all_it_has():
    state = end_round(arrange(2, tables={0: ["Revisão", "Peregrinos"]}, events=[E["Greve Geral"]]))
    state = GAME.apply(state, 0, {"type": "discard", "card": G["Revisão"]})
    assert state["prompts"] == [] and names(state["players"][0]["table"]) == ["Peregrinos"]
    assert "Seat 0 has nothing left to discard." in public_text(state)


def test_a_payment_to_another_player():
    state = arrange(
        2, government=0, money={0: 3}, tables={1: ["Claque"]}, treasury=5, events=[E["Tráfico de Influências"]]
    )
    state = end_round(state)
    assert (money_of(state), state["treasury"]) == ([1, 2], 5)


def test_a_player_may_pay_with_exactly_all_their_money():
    state = end_round(arrange(2, money={0: 2}, tables={0: ["Revisão"]}, events=[E["Greve Geral"]]))
    assert (money_of(state), state["treasury"], state["prompts"]) == ([0, 0], 12, [])
    assert "Seat 0 pays 2 Mega-Euro to the Treasury." in public_text(state)
    portuguese = translations("pt-PT").gettext  # (its own message: "ao Tesouro", never "a o Tesouro")
    assert "Seat 0 paga 2 Mega-Euro ao Tesouro." in [spoken(e, portuguese) for e in visible_log(state["log"], None)]


def test_a_payment_to_every_player_pays_each_other_player_and_not_the_payer():
    """An Event that pays "every player" (``"to": "all"``) pays each of the others: the
    Government's 2 Mega-Euro are exactly what 1 each to two players costs."""
    deck = json.loads(json.dumps(DECK))
    deck["events"][E["Aumento de Impostos"]]["effects"] = [{"do": "pay", "who": "government", "amount": 1, "to": "all"}]
    state = arrange(3, government=0, money={0: 2}, treasury=5, events=[E["Aumento de Impostos"]], deck=deck)
    state = end_round(state)
    assert (money_of(state), state["treasury"], state["prompts"]) == ([0, 1, 1], 5, [])
    assert "Seat 0 pays 2 Mega-Euro to Seat 1, Seat 2." in public_text(state)


def test_a_draw_with_no_group_card_and_no_mega_euro_left_is_skipped_and_said():
    state = arrange(2, treasury=0, tables={0: ["Expesso"]}, events=[E["Sondagem"]])
    state["draw_pile"] = []
    state = end_round(state)
    assert state["prompts"] == [] and "Seat 0 has nothing left to draw." in public_text(state)


def test_an_unpaid_player_takes_what_is_owed_from_the_treasury():
    state = arrange(
        2, government=0, tables={0: ["Revisão"], 1: ["Claque"]}, treasury=5, events=[E["Tráfico de Influências"]]
    )
    state = end_round(state)
    assert (money_of(state), state["treasury"]) == ([0, 2], 3)
    assert state["prompts"] == [{"kind": "cover", "seat": 0, "amount": 2}]


def test_an_event_about_the_government_does_nothing_without_one():
    state = arrange(2, tables={0: ["Claque"], 1: ["Expesso"]}, events=[E["Escândalo no Governo"]])
    state = end_round(state)
    assert (state["prompts"], state["discards"], state["stage"]) == ([], [], "draw")
    assert "No player qualifies" in public_text(state)


def test_a_table_discard_is_chosen_by_the_player_from_the_table():
    state = arrange(
        2, government=1, hands={1: ["Juízes"]}, tables={1: ["Claque", "Expesso"]}, events=[E["Escândalo no Governo"]]
    )
    state = end_round(state)
    assert GAME.legal_actions(state, 1) == [
        {"type": "discard", "card": G["Claque"]},
        {"type": "discard", "card": G["Expesso"]},
    ]
    state = GAME.apply(state, 1, {"type": "discard", "card": G["Expesso"]})
    assert names(state["players"][1]["table"]) == ["Claque"] and names(state["discards"]) == ["Expesso"]


def test_every_player_discards_in_round_order_and_a_player_without_cards_is_skipped():
    state = arrange(
        3, first=1, hands={1: ["Juízes"], 2: ["Claque"]}, tables={1: ["Expesso"]}, events=[E["Crise Financeira"]]
    )
    state = end_round(state)
    prompts = [(p["seat"], p["count"], p["from"]) for p in state["prompts"]]
    assert prompts == [(1, 1, "any"), (2, 1, "any"), (0, 1, "any")]
    assert GAME.to_act(state) == {1}
    assert GAME.legal_actions(state, 1) == [
        {"type": "discard", "card": G["Juízes"]},
        {"type": "discard", "card": G["Expesso"]},
    ]
    state = play(state, (1, {"type": "discard", "card": G["Expesso"]}), (2, {"type": "discard", "card": G["Claque"]}))
    assert (state["prompts"], state["round"], state["current"]) == ([], 2, 1)
    assert names(state["discards"]) == ["Expesso", "Claque"]


def test_tied_players_are_all_affected():
    state = arrange(
        3,
        leaders=["O Tecnocrata", "O Autarca Eterno", "O Comentador de Domingo"],
        tables={1: ["Patos Bravos"]},
        events=[E["Resgate aos Bancos"]],
    )
    assert money_of(end_round(state)) == [2, 2, 0]
    state = arrange(
        3, leaders=["O Tecnocrata", "O Autarca Eterno", "A Baronesa do Partido"], events=[E["Fundos Europeus"]]
    )
    assert money_of(end_round(state)) == [0, 2, 2]


def test_the_most_of_something_needs_more_than_zero():
    state = end_round(arrange(2, tables={0: ["Claque"]}, events=[E["Comissão de Inquérito"]]))
    assert state["prompts"] == [] and "No player qualifies" in public_text(state)
    four = ["Procuradoria", "Expesso", "Pensionistas", "Revisão"]
    state = end_round(arrange(2, tables={1: four}, events=[E["Comissão de Inquérito"]]))
    assert state["prompts"] == [{"kind": "discard", "seat": 1, "count": 1, "from": "table"}]


def test_a_draw_event_lets_the_player_choose():
    state = end_round(arrange(2, tables={1: ["Pensionistas"]}, events=[E["Sondagem"]]))
    assert state["prompts"] == [{"kind": "draw", "seat": 1, "reason": "event"}]
    assert GAME.legal_actions(state, 1) == [DRAW_GROUP, {"type": "draw", "what": "money"}]
    state = GAME.apply(state, 1, {"type": "draw", "what": "money"})
    assert money_of(state) == [0, 2]


def test_vote_of_confidence_makes_an_interim_government():
    state = end_round(arrange(3, tables={2: ["Pensionistas"]}, events=[E["Voto de Confiança"]]))
    assert (state["government"], state["government_card"]) == (2, E["Voto de Confiança"])
    assert (state["first"], state["current"], state["round"]) == (2, 2, 2)
    cards = GAME.view(state, 0)["players"][2]["government_cards"]
    assert [(card["name"], card["points"], card["face_up"]) for card in cards] == [("Voto de Confiança", 5, True)]


def test_vote_of_confidence_on_a_tie_does_nothing():
    state = end_round(arrange(3, events=[E["Voto de Confiança"]]))
    assert (state["government"], state["first"]) == (None, 0)
    assert all(p["kept"] == [] for p in state["players"])


# --- Elections ------------------------------------------------------------------------------


def campaign(*cards, money=0):
    return {"type": "campaign", "cards": sorted(G[c] for c in cards), "money": money}


def test_elections_campaign_in_round_order_government_and_runner_up():
    """V5: the seats commit one after another from the first player; each commitment's size is
    public at once and leaves the hand, its Group cards stay hidden until all are counted."""
    state = arrange(
        3,
        hands={2: ["Pensionistas", "Claque"], 1: ["Estudantes"]},
        tables={2: ["TV Irritante"]},
        money={2: 1, 1: 2},
        treasury=5,
        events=[ELECTIONS[0]],
        pile=["Juízes"],
    )
    state = end_round(state)
    assert (state["stage"], GAME.to_act(state), GAME.view(state, 0)["phase"]) == ("campaign", {0}, "elections")
    assert GAME.view(state, None)["campaign_order"] == [0, 1, 2]
    assert [p["votes"] for p in GAME.view(state, None)["players"]] == [2, 1, 5]
    for early in (1, 2):
        with pytest.raises(IllegalAction, match="not your turn"):
            GAME.apply(state, early, campaign())
    state = GAME.apply(state, 0, campaign())
    assert GAME.to_act(state) == {1}
    with pytest.raises(IllegalAction, match="at most the Mega-Euro"):
        GAME.apply(state, 1, campaign(money=3))
    with pytest.raises(IllegalAction, match="from your hand"):
        GAME.apply(state, 1, campaign("Juízes"))
    state = GAME.apply(state, 1, campaign("Estudantes", money=2))
    seen = GAME.view(state, 2)["players"][1]
    assert (seen["committed"], seen["campaign_size"], seen["hand_count"], seen["money"]) == (
        True,
        {"cards": 1, "money": 2},
        0,
        0,
    )
    assert "Estudantes" not in json.dumps(GAME.view(state, 2), ensure_ascii=False)
    assert "Estudantes" not in public_text(state)
    assert "Seat 1 commits 1 Group card face down and 2 Mega-Euro to the campaign." in public_text(state)
    assert [c["name"] for c in GAME.view(state, 1)["campaign"]["cards"]] == ["Estudantes"]
    assert GAME.view(state, 1)["hand"] == []
    assert GAME.to_act(state) == {2}
    state = GAME.apply(state, 2, campaign("Pensionistas", money=1))
    election = state["election"]
    assert (election["votes"], election["table_votes"]) == ([2, 6, 10], [2, 1, 5])
    assert (election["winner"], election["second"], election["tied"]) == (2, 1, [])
    assert (state["government"], state["players"][2]["kept"]) == (2, [ELECTIONS[0]])
    assert sorted(names(state["discards"])) == ["Estudantes", "Pensionistas"]
    assert (money_of(state), state["treasury"]) == ([0, 0, 0], 8)
    assert state["prompts"] == [{"kind": "draw", "seat": 1, "reason": "second in the Elections"}]
    state = GAME.apply(state, 1, DRAW_GROUP)
    assert names(state["players"][1]["hand"]) == ["Juízes"]
    assert (state["round"], state["first"], state["current"]) == (2, 2, 2)
    assert "Pensionistas" in public_text(state), "campaigns are public once revealed"
    assert "Seat 0 campaigns with no cards and 0 Mega-Euro: 2 Votes in all (2 on the table)." in public_text(state)
    assert "Seat 1 campaigns with Estudantes" in public_text(state)


def test_a_new_government_turns_the_old_card_face_down():
    state = arrange(2, government=1, tables={0: ["Pensionistas"]}, events=[ELECTIONS[1]])
    state["players"][1]["kept"], state["government_card"] = [ELECTIONS[0]], ELECTIONS[0]
    state = end_round(state)
    assert GAME.to_act(state) == {1}, "the Government commits first"
    state = play(state, (1, campaign()), (0, campaign()))
    players = GAME.view(state, None)["players"]
    assert [c["face_up"] for c in players[0]["government_cards"]] == [True]
    assert [c["face_up"] for c in players[1]["government_cards"]] == [False]
    assert (players[0]["government"], players[1]["government"]) == (True, False)


def test_a_tie_for_first_removes_the_government_and_the_tied_draw():
    state = arrange(3, government=2, first=2, events=[ELECTIONS[0]])
    state["players"][2]["kept"], state["government_card"] = [ELECTIONS[1]], ELECTIONS[1]
    state = play(end_round(state), (2, campaign()), (0, campaign()), (1, campaign()))
    assert (state["government"], state["government_card"]) == (None, None)
    assert [p["kept"] for p in state["players"]] == [[], [], [ELECTIONS[1]]]
    assert state["election"]["tied"] == [2, 0]
    assert [(p["kind"], p["seat"]) for p in state["prompts"]] == [("draw", 2), ("draw", 0)]
    state = play(state, (2, DRAW_GROUP), (0, DRAW_GROUP))
    assert (state["first"], state["current"]) == (2, 2)


def test_without_a_government_the_campaign_starts_with_the_first_player():
    state = end_round(arrange(3, first=2, events=[ELECTIONS[0]]))
    assert GAME.view(state, 0)["campaign_order"] == [2, 0, 1]
    for seat in (2, 0, 1):
        assert GAME.to_act(state) == {seat}
        state = GAME.apply(state, seat, campaign())
    assert state["election"] is not None and state["stage"] != "campaign"


def test_a_committed_campaigns_cards_are_re_dealt_for_other_seats_but_not_its_size():
    state = arrange(3, hands={0: ["Claque"], 1: ["Estudantes", "Juízes"]}, money={1: 2}, events=[ELECTIONS[0]])
    state = play(end_round(state), (0, campaign()), (1, campaign("Estudantes", money=1)))
    dealt = set()
    for k in range(12):
        sample = GAME.randomize_hidden(state, 2, random.Random(k))
        committed = sample["players"][1]["campaign"]
        assert (len(committed["cards"]), committed["money"], len(sample["players"][1]["hand"])) == (1, 1, 1)
        assert GAME.view(sample, 2) == GAME.view(state, 2)
        dealt.add(committed["cards"][0])
    assert len(dealt) > 3, "the committed card is never re-dealt"
    own = GAME.randomize_hidden(state, 1, random.Random(0))["players"][1]
    assert (own["campaign"], own["hand"]) == ({"cards": [G["Estudantes"]], "money": 1}, [G["Juízes"]])


def test_a_tie_for_second_means_nobody_draws():
    state = arrange(3, tables={1: ["Revisão"], 2: ["Pensionistas"]}, events=[ELECTIONS[0]])
    state = play(end_round(state), (0, campaign()), (1, campaign()), (2, campaign()))
    assert (state["election"]["votes"], state["election"]["second"]) == ([2, 2, 6], None)
    assert (state["government"], state["prompts"]) == (2, [])


# --- End of the game and scoring --------------------------------------------------------------


def test_the_troika_ends_the_game_after_it_is_resolved():
    state = end_round(arrange(2, tables={0: ["Claque"]}, events=[E["Chegou a Troika"], E["Sondagem"]]))
    assert (state["stage"], state["end_reason"]) == ("over", "troika")
    assert GAME.to_act(state) == set() and GAME.legal_actions(state, 0) == []
    outcome = GAME.outcome(state)
    assert (outcome.scores, outcome.winners, outcome.ranking) == ([3, 0], [0], [0, 1])
    seen = GAME.view(state, 1)
    assert seen["seed"] == "scenario" and seen["result"]["winners"] == [0]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, PASS)


def test_an_empty_treasury_and_title_pile_end_the_game_at_the_end_of_the_round():
    state = end_round(arrange(2, treasury=0, titles=[], events=[E["Escândalo no Governo"]]))
    assert (state["stage"], state["end_reason"]) == ("over", "bankruptcy")
    state = end_round(arrange(2, treasury=0, titles=[4], events=[E["Escândalo no Governo"]]))
    assert (state["stage"], state["end_reason"]) == ("draw", None)
    state = arrange(2, treasury=0, titles=[], events=[E["Escândalo no Governo"]])
    assert GAME.apply(state, 0, PASS)["stage"] == "draw", "the game only ends when a round ends"


def test_final_scoring_breakdown():
    three = [
        "Procuradoria",
        "Juízes",
        "Opus Day",
        "Expesso",
        "Tabloides",
        "TV Irritante",
        "Pensionistas",
        "Sindicatos",
        "Estudantes",
        "Revisão",
        "Claque",
        "Autarcas",
    ]
    two = [
        "Banco de Portugalândia",
        "Bancos + ou - Honestos",
        "Redes Sociais",
        "Rádio Pirata",
        "Ambientalistas",
        "Precários",
        "Peregrinos",
        "Meninas Boas",
    ]
    one = ["Fundos Abutre", "Influenciadores", "Professores", "Obras Públicas"]
    state = arrange(3, tables={0: three, 1: two, 2: one}, money={0: 3, 1: 1}, events=[E["Chegou a Troika"]])
    state["players"][0].update(kept=[ELECTIONS[0], E["Voto de Confiança"]], titles=[6, 5], offshore_money=2)
    state["players"][2]["titles"] = [4]
    outcome = GAME.outcome(end_round(state))
    parts = [
        {k: p[k] for k in ("consensuses", "power", "consensus", "governments", "titles", "money", "total")}
        for p in outcome.details["players"]
    ]
    assert parts == [
        {"consensuses": 3, "power": 23, "consensus": 18, "governments": 15, "titles": 11, "money": 2, "total": 69},
        {"consensuses": 2, "power": 6, "consensus": 10, "governments": 0, "titles": 0, "money": 0, "total": 16},
        {"consensuses": 1, "power": 8, "consensus": 4, "governments": 0, "titles": 4, "money": 0, "total": 16},
    ]
    assert (outcome.scores, outcome.winners, outcome.ranking) == ([69, 16, 16], [0], [0, 1, 2])
    assert outcome.places == [1, 2, 2]


def test_players_tied_for_first_all_win():
    state = end_round(arrange(3, tables={1: ["Claque"], 2: ["Juízes"]}, events=[E["Chegou a Troika"]]))
    outcome = GAME.outcome(state)
    assert (outcome.scores, outcome.winners, outcome.ranking) == ([0, 3, 3], [1, 2], [1, 2, 0])
    assert outcome.places == [3, 1, 1]
    assert GAME.view(state, None)["result"]["places"] == [3, 1, 1]
