"""The advanced game of Vem aí a Troika: every card the rulebook explains behaves as it says,
advanced Organization, attacks with Hand Actions and supports, Table Actions, the hidden
Pre-Campaign, the reaction window that leaks nothing, and decks without the advanced fields."""

from __future__ import annotations

import json
import random

import pytest

from app.games.base import IllegalAction, spoken, visible_log
from app.games.vem_ai_troika import GAME
from app.games.vem_ai_troika.deck import DEFAULT_PATH
from tests.support.dumps import dumped
from tests.support.vem_scenarios import ELECTIONS, E, G, act, adv, arrange, end_round, listed

PASS = {"type": "pass"}


def said(state, seat):
    """The log's lines that ``seat`` (None: everyone) is shown, as text."""
    return [spoken(entry) for entry in visible_log(state["log"], seat)]


NO = {"type": "no_reaction", "round": False}
CAMPAIGN = {"type": "campaign", "cards": [], "money": 0}


# --- decks ------------------------------------------------------------------------------------


def raw_deck():
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def test_a_deck_without_advanced_fields_plays_basic_and_is_refused_for_advanced_naming_the_field():
    deck = raw_deck()
    for card in deck["groups"]:
        for key in ("type", "variable", "hand_action"):
            card.pop(key, None)
    for card in deck["leaders"]:
        card.pop("table_action", None)
        card.pop("variable", None)
    state = GAME.setup(2, {"deck": deck}, "basic")
    assert "type" not in state["deck"]["groups"][0]
    assert GAME.view(state, 0)["hand"][0]["type"] is None
    with pytest.raises(ValueError, match=r"^groups\[0\]\.type: the advanced game needs"):
        GAME.setup(2, {"deck": deck, "advanced": True}, "adv")
    for card in deck["groups"]:
        card["type"] = "public"
    with pytest.raises(ValueError, match=r"^groups\[0\]\.hand_action: the advanced game needs"):
        GAME.setup(2, {"deck": deck, "advanced": True}, "adv")
    full = raw_deck()
    deck["groups"] = full["groups"]
    with pytest.raises(ValueError, match=r"^leaders\[0\]\.table_action: the advanced game needs"):
        GAME.setup(2, {"deck": deck, "advanced": True}, "adv")
    text_only = raw_deck()
    text_only["groups"][4]["hand_action"] = {"when": "any", "text": "Something printed."}
    GAME.setup(2, {"deck": text_only}, "basic")
    with pytest.raises(ValueError, match=r"^groups\[4\]\.hand_action\.effects: the advanced game needs"):
        GAME.setup(2, {"deck": text_only, "advanced": True}, "adv")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["groups"][1]["hand_action"].update(effects=[]), r"groups\[1\]\.hand_action\.effects: must be"),
        (
            lambda d: d["groups"][1]["hand_action"].update(effects=[{"do": "explode"}]),
            r"groups\[1\]\.hand_action\.effects\[0\]\.do: must be one of",
        ),
        (
            lambda d: d["groups"][1]["hand_action"].update(effects=[{"do": "votes", "amount": 2}]),
            r"groups\[1\]\.hand_action\.effects\[0\]\.do: 'votes' cannot be used at the 'income' timing",
        ),
        (
            lambda d: d["groups"][1]["hand_action"].update(effects=[{"do": "receive", "amount": 9}]),
            r"groups\[1\]\.hand_action\.effects\[0\]\.amount: must be an integer 1-5",
        ),
        (
            lambda d: d["groups"][0].update(variable=[{"adds": "luck", "amount": 1, "per": "type", "of": "media"}]),
            r"groups\[0\]\.variable\[0\]\.adds: must be one of",
        ),
        (
            lambda d: d["groups"][0].update(variable=[{"adds": "votes", "amount": 1, "per": "type", "of": "gold"}]),
            r"groups\[0\]\.variable\[0\]\.of: must be one of marginal",
        ),
        (
            lambda d: d["groups"][0].update(variable=[{"adds": "votes", "amount": 1, "per": "named", "of": "Nobody"}]),
            r"groups\[0\]\.variable\[0\]\.of: names no Group card: 'Nobody'",
        ),
        (
            lambda d: d["leaders"][0]["table_action"].update(cost=7),
            r"leaders\[0\]\.table_action\.cost: must be an integer 0-3",
        ),
        (
            lambda d: d["leaders"][0]["table_action"].update(when="dawn"),
            r"leaders\[0\]\.table_action\.when: must be one of",
        ),
    ],
)
def test_advanced_fields_are_validated_naming_the_bad_field(change, message):
    deck = raw_deck()
    change(deck)
    with pytest.raises(ValueError, match="^" + message):
        GAME.setup(2, {"deck": deck}, "s")


def test_every_group_has_a_hand_action_and_every_leader_a_table_action_in_the_default_deck():
    deck = GAME.setup(2, {"advanced": True}, "s")["deck"]
    assert all(card["hand_action"]["effects"] and card["type"] for card in deck["groups"])
    assert all(card["table_action"]["effects"] for card in deck["leaders"])
    described = {
        "Advogados Militantes",
        "Bancos + ou - Honestos",
        "O Homem do Povo",
        "Comentadores Políticos",
        "Opus Day",
        "Camionistas",
        "Juízes",
        "Meninas Boas",
        "TV Irritante",
        "Banco de Portugalândia",
    }
    for card in deck["groups"]:
        # (Dis)funcionários Públicos: the book gives only its "first card" rule; its effect is ours
        assert card["hand_action"]["reconstructed"] == (card["name"] not in described)


# --- variable values ----------------------------------------------------------------------------


def test_variable_values_count_the_table_and_a_card_from_hand_counts_only_for_itself():
    # Redes Sociais: +1 Vote per media Group controlled (itself included)
    state = adv(tables={0: ["Redes Sociais", "Expesso"]}, hands={0: ["Tabloides"]})
    view = GAME.view(state, 0)
    social = view["players"][0]["families"]["blue"][0]
    assert social["name"] == "Redes Sociais" and social["now_votes"] == 3 + 2
    # Tabloides: +1 Power if you control Expesso; from hand it uses its own value ...
    assert view["hand"][0]["now_power"] == 2 + 1
    # ... but a media card in hand does not raise Redes Sociais
    assert (
        view["players"][0]["votes"]
        == GAME.view(adv(tables={0: ["Redes Sociais", "Expesso"]}), 0)["players"][0]["votes"]
    )
    # the basic game ignores variable values
    basic = arrange(tables={0: ["Redes Sociais", "Expesso"]})
    assert GAME.view(basic, 0)["players"][0]["votes"] == 2 + 3 + 1


# --- organization -------------------------------------------------------------------------------


def test_advanced_organization_takes_back_alone_and_keeps_several_columns_of_a_colour():
    blues = ["Expesso", "Tabloides", "Redes Sociais", "Influenciadores"]
    state = adv(tables={0: blues}, hands={0: ["Rádio Pirata"]})
    places = [a for a in listed(state, 0, type="place", card=G["Rádio Pirata"]) if "take" not in a]
    assert {a["column"] for a in places} == {1}  # column 0 is full: only a new column (V10)
    state = act(state, 0, {"type": "place", "card": G["Rádio Pirata"], "column": 1})
    assert [len(c) for c in GAME.view(state, 0)["players"][0]["columns"]["blue"]] == [4, 1]
    assert state["stage"] == "organize"
    state = act(state, 0, {"type": "take_back", "card": G["Expesso"]})
    assert G["Expesso"] in state["players"][0]["hand"] and G["Expesso"] not in state["players"][0]["table"]
    assert state["current"] == 1  # two moves: the Organization is over


def test_a_placements_column_is_its_place_on_the_board_even_after_a_column_emptied():
    """A move's column counts the columns the board shows: a column emptied earlier (its card
    taken back, stolen, discarded) leaves no gap between them. (Counted by the raw numbers
    instead, Ana's board showed [Expesso] as column 1 while the move "column 1" joined it to a
    new column, and "column 0" to Expesso's: the table's pointing put cards where she did not
    point.)"""
    state = adv(tables={0: ["Expesso", "Tabloides"]}, hands={0: ["Rádio Pirata"]})
    state["players"][0]["columns"] = {str(G["Expesso"]): 1, str(G["Tabloides"]): 3}  # columns 0 and 2 emptied
    card = G["Rádio Pirata"]
    places = [a for a in listed(state, 0, type="place", card=card) if "take" not in a]
    assert sorted(a["column"] for a in places) == [0, 1, 2]  # the two columns shown, and a new one after them
    for place, expected in (
        (0, [["Expesso", "Rádio Pirata"], ["Tabloides"]]),
        (1, [["Expesso"], ["Tabloides", "Rádio Pirata"]]),
        (2, [["Expesso"], ["Tabloides"], ["Rádio Pirata"]]),
    ):
        after = act(state, 0, {"type": "place", "card": card, "column": place})
        shown = GAME.view(after, 0)["players"][0]["columns"]["blue"]
        assert [[c["name"] for c in col] for col in shown] == expected
    # taking Expesso back in the same move empties its column: the new one is then the second
    swaps = [a["column"] for a in listed(state, 0, type="place", card=card) if a.get("take") == G["Expesso"]]
    assert sorted(swaps) == [0, 1]
    after = act(state, 0, {"type": "place", "card": card, "column": 0, "take": G["Expesso"]})
    assert [[c["name"] for c in col] for col in GAME.view(after, 0)["players"][0]["columns"]["blue"]] == [
        ["Tabloides", "Rádio Pirata"]
    ]
    # its button names the column as the board does, by its Family's colour (it said "column 2" alone)
    label = spoken(GAME.label({"type": "place", "card": card, "column": 1}, state))
    assert label == "Place Rádio Pirata in blue column 2"


def test_every_legal_placement_lands_in_the_column_it_names_in_random_advanced_games():
    """In random advanced games, each legal placement puts its card in the column of that place
    on the board the view shows (the pointing table and an API client both read it so)."""
    checked = 0
    for seed in range(6):
        r = random.Random(seed)
        state = GAME.setup(3, {"advanced": True}, f"columns-{seed}")
        for _ in range(400):
            if GAME.outcome(state) is not None:
                break
            seat = r.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            for action in [a for a in legal if a["type"] == "place" and "column" in a]:
                _, after = GAME.play(state, seat, action)
                colour = GAME.view(after, seat)["players"][seat]["columns"]
                where = [
                    (c, n)
                    for c, cols in colour.items()
                    for n, col in enumerate(cols)
                    if action["card"] in [x["id"] for x in col]
                ]
                assert where and where[0][1] == action["column"], (action, colour)
                checked += 1
            _, state = GAME.play(state, seat, r.choice(legal))
    assert checked > 100


def test_only_the_defended_cards_own_column_counts_in_its_defence():
    state = adv(tables={1: ["Expesso", "Tabloides", "Redes Sociais"]})
    p = state["players"][1]
    p["columns"] = {str(G["Expesso"]): 0, str(G["Tabloides"]): 0, str(G["Redes Sociais"]): 1}
    view = GAME.view(state, 0)["players"][1]["columns"]["blue"]
    defences = {card["name"]: card["defence"] for col in view for card in col}
    # Leader O Tecnocrata is grey: no colour bonus; Expesso 2 Power + 1 other card in its column;
    # Tabloides 2 Power + 1 (its variable value: Expesso is controlled) + 1; Redes Sociais alone
    assert defences == {"Expesso": 3, "Tabloides": 2 + 1 + 1, "Redes Sociais": 0}


# --- Hand Actions on the turn -----------------------------------------------------------------------


def test_bancos_mais_ou_menos_honestos_makes_titles_cost_4_until_the_end_of_the_turn():
    state = adv(hands={0: ["Bancos + ou - Honestos"]}, money={0: 8}, titles=[6, 6, 5])
    state = act(state, 0, {"type": "hand_action", "card": G["Bancos + ou - Honestos"]})
    assert state["stage"] == "income"  # an Income Hand Action opens the Income action
    assert max(a["titles"] for a in listed(state, 0, type="income")) == 2  # (Leader's income 1 + 8) // 4
    state = act(state, 0, {"type": "income", "titles": 2, "offshore": 0})
    assert state["players"][0]["titles"] == [6, 6] and state["players"][0]["money"] == 8 + 1 - 8
    assert state["title_price"] is None and state["current"] == 1


def test_banco_de_portugalandia_draws_money_from_an_opponent():
    state = adv(hands={0: ["Banco de Portugalândia"]}, money={0: 1, 1: 3})
    state = act(state, 0, {"type": "hand_action", "card": G["Banco de Portugalândia"], "opponent": 1})
    assert (state["players"][0]["money"], state["players"][1]["money"]) == (3, 1)
    assert state["stage"] == "income" and G["Banco de Portugalândia"] in state["discards"]


def test_gestores_de_topo_draws_a_group_card_which_only_its_player_is_shown():
    state = adv(hands={0: ["Gestores de Topo"]}, pile=["Expesso", "Claque"])
    state = act(state, 0, {"type": "hand_action", "card": G["Gestores de Topo"]})
    assert state["players"][0]["hand"] == [G["Expesso"]]
    assert said(state, None)[-1:] == ["Seat 0 draws 1 Group card."]
    assert said(state, 0)[-2:] == ["You drew Expesso (blue, 2 Power).", "Seat 0 draws 1 Group card."]


def test_opus_day_swaps_a_controlled_group_with_an_opponents_of_the_same_colour():
    state = adv(hands={0: ["Opus Day"]}, tables={0: ["Pensionistas", "Revisão"], 1: ["Sindicatos", "Expesso"]})
    swaps = listed(state, 0, type="hand_action", card=G["Opus Day"])
    assert {(a["mine"], a["theirs"]) for a in swaps} == {(G["Pensionistas"], G["Sindicatos"])}
    state = act(state, 0, swaps[0])
    assert G["Sindicatos"] in state["players"][0]["table"] and G["Pensionistas"] in state["players"][1]["table"]
    assert state["stage"] == "organize" and state["moves"] == 0  # the Organization action follows


def test_juizes_fine_returns_a_deposit_title_when_the_player_cannot_pay():
    state = adv(hands={0: ["Juízes", "Procuradoria"]}, money={1: 1}, titles=[5, 4])
    state["players"][1]["titles"] = [6, 4]
    state = act(state, 0, {"type": "hand_action", "card": G["Juízes"], "opponent": 1})
    assert state["players"][1]["titles"] == [6] and state["titles"] == [5, 4, 4]
    assert state["players"][1]["money"] == 1 and not state["prompts"]  # no Group cards discarded
    state["players"][1]["money"] = 3
    state = act(state, 0, {"type": "hand_action", "card": G["Procuradoria"], "opponent": 1})
    assert state["players"][1]["money"] == 2


def test_a_fine_or_the_governments_payment_may_take_exactly_all_the_players_money():
    fine = {"type": "hand_action", "card": G["Juízes"], "opponent": 1}  # a fine of 2 Mega-Euro
    fined = act(adv(hands={0: ["Juízes"]}, money={1: 2}), 0, fine)
    assert (fined["players"][1]["money"], fined["players"][1]["titles"], fined["prompts"]) == (0, [], [])
    state = adv(hands={0: ["Camionistas"]}, money={1: 2}, government=1)
    state = act(state, 0, {"type": "hand_action", "card": G["Camionistas"]})
    assert {"type": "choose", "yes": True} in GAME.legal_actions(state, 1)
    paid = act(state, 1, {"type": "choose", "yes": True})
    assert (paid["players"][0]["money"], paid["players"][1]["money"], paid["government"]) == (2, 0, 1)


def test_camionistas_government_pays_or_the_player_brings_it_down_and_elections_follow():
    state = adv(
        hands={0: ["Camionistas"]}, money={0: 3, 1: 5}, government=1, events=[E["Subsídio de Natal"], *ELECTIONS]
    )
    state["players"][1]["kept"], state["government_card"] = [ELECTIONS[0]], ELECTIONS[0]
    paid = act(state, 0, {"type": "hand_action", "card": G["Camionistas"]})
    assert GAME.to_act(paid) == {1} and paid["prompts"][0]["kind"] == "government_pays"
    paid = act(paid, 1, {"type": "choose", "yes": True})
    assert (paid["players"][0]["money"], paid["players"][1]["money"], paid["government"]) == (5, 3, 1)
    refused = act(act(state, 0, {"type": "hand_action", "card": G["Camionistas"]}), 1, {"type": "choose", "yes": False})
    assert GAME.to_act(refused) == {0} and refused["prompts"][0]["kind"] == "bring_down"
    standing = act(refused, 0, {"type": "choose", "yes": False})
    assert standing["government"] == 1 and said(standing, None)[-1] == "Seat 0 leaves the Government standing."
    fallen = act(refused, 0, {"type": "choose", "yes": True})
    assert fallen["government"] is None and fallen["snap_elections"] and fallen["players"][0]["money"] == 1
    fallen = act(fallen, 0, {"type": "income", "titles": 0, "offshore": 0})  # Camionistas went with an action
    fallen = act(act(fallen, 1, {"type": "draw", "what": "group"}), 1, PASS)
    assert fallen["stage"] == "precampaign" and fallen["event"] is None  # Elections before the Event
    assert "End of round 1: the Government has fallen, so Elections are held first." in said(fallen, None)


# --- attacks ------------------------------------------------------------------------------------------


def test_a_hand_action_is_declared_instead_of_power_and_dis_funcionarios_must_open_the_attack():
    state = adv(hands={0: ["(Dis)funcionários Públicos", "Revisão"], 1: ["Estudantes"]}, tables={1: ["Procuradoria"]})
    target = G["Procuradoria"]
    dis = G["(Dis)funcionários Públicos"]
    # Leader 2 Power + bonus 4 instead of its 2 Power
    state = act(state, 0, {"type": "attack", "target": target, "mode": "control", "cards": [dis], "actions": [dis]})
    assert GAME.view(state, 0)["attack"]["attack_total"] == 2  # the bonus waits for the reaction window
    state = act(state, 1, NO)
    assert GAME.view(state, 0)["attack"]["attack_total"] == 2 + 4 and state["attack"]["actions"] == [dis]
    later = adv(hands={0: ["Revisão", "(Dis)funcionários Públicos"], 1: ["Sindicatos"]}, tables={1: ["Procuradoria"]})
    later = act(later, 0, {"type": "attack", "target": target, "mode": "control", "cards": [G["Revisão"]]})
    later = act(later, 1, {"type": "add", "cards": [G["Sindicatos"]]})
    assert GAME.to_act(later) == {0}  # the defence holds: the attacker may add, not for the first card's action
    adds = listed(later, 0, type="add")
    assert {"type": "add", "cards": [dis], "actions": [dis]} not in adds and {"type": "add", "cards": [dis]} in adds


@pytest.mark.parametrize("card", ["Meninas Boas", "TV Irritante"])
def test_meninas_boas_and_tv_irritante_neutralise_the_defending_leader_until_the_end_of_the_round(card):
    state = adv(
        hands={0: [card, "Sindicatos"], 1: ["Revisão"]},
        tables={1: ["Pensionistas"]},
        money={1: 3},
        events=[E["Subsídio de Natal"]],
    )
    gid = G[card]
    state = act(
        state,
        0,
        {
            "type": "attack",
            "target": G["Pensionistas"],
            "mode": "control",
            "cards": [gid, G["Sindicatos"]],
            "actions": [gid],
        },
    )
    state = act(state, 1, NO)
    view = GAME.view(state, 0)["players"][1]
    assert view["neutral"] == "round" and view["leader_value"] == {"power": 0, "votes": 0, "income": 0}
    state = act(state, 1, {"type": "stop"})
    state = act(state, 1, {"type": "draw", "what": "group"})  # for losing the attack
    assert state["current"] == 1
    state = act(state, 1, {"type": "draw", "what": "group"})
    assert listed(state, 1, type="table_action") == []  # no Table Action while neutralised
    state = end_round(state)
    assert state["players"][1]["neutral"] is None


def test_supports_come_before_the_defence_and_the_winning_supporter_draws():
    state = adv(3, hands={0: ["Sindicatos"], 1: ["Tabloides"], 2: ["Claque"]}, tables={1: ["Pensionistas"]})
    state = act(
        state, 0, {"type": "attack", "target": G["Pensionistas"], "mode": "control", "cards": [G["Sindicatos"]]}
    )
    assert GAME.to_act(state) == {2} and GAME.view(state, 1)["attack"]["phase"] == "support"
    assert {"type": "support", "side": "defence", "card": G["Claque"]} in GAME.legal_actions(state, 2)
    state = act(state, 2, {"type": "support", "side": "attack", "card": G["Claque"]})
    assert GAME.to_act(state) == {1}
    attack_total = GAME.view(state, 1)["attack"]["attack_total"]
    assert attack_total == 2 + 3 + 3  # Leader, Sindicatos, Claque's support
    state = act(state, 1, {"type": "stop"})
    assert G["Claque"] in state["discards"]
    reasons = [p["reason"] for p in state["prompts"]]
    assert "supported the winning side" in reasons and [p["seat"] for p in state["prompts"]][-1] == 2


# --- Table Actions -----------------------------------------------------------------------------------


def test_a_table_action_costs_its_price_once_per_round_and_the_leader_straightens_next_round():
    state = adv(money={0: 2}, treasury=5)  # seat 0 leads with O Autarca Eterno: Ribbon Cutting, free
    assert listed(state, 0, type="table_action") == [{"type": "table_action"}]
    state = act(state, 0, {"type": "table_action"})
    assert state["players"][0]["sideways"] and state["players"][0]["money"] == 3
    assert listed(state, 0, type="table_action") == [] and state["stage"] == "action"
    assert GAME.view(state, 1)["players"][0]["sideways"] is True
    state = end_round(state)
    assert state["players"][0]["sideways"] is False


# --- the Pre-Campaign -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "other"), [("O Homem do Povo", "Comentadores Políticos"), ("Comentadores Políticos", "O Homem do Povo")]
)
def test_o_homem_do_povo_and_comentadores_control_a_groups_votes_face_down_until_the_reveal(card, other):
    state = adv(
        hands={0: [card], 1: [other]},
        tables={0: ["Revisão"], 1: ["Pensionistas", "Expesso", "Procuradoria", "Autarcas"]},
        events=[ELECTIONS[0]],
    )
    state = end_round(state)
    assert state["stage"] == "precampaign" and GAME.to_act(state) == {0}
    move = {"type": "precampaign", "card": G[card], "group": G["Pensionistas"], "candidate": 0}
    assert move in GAME.legal_actions(state, 0)
    state = act(state, 0, move)
    seen = json.dumps(GAME.view(state, 1), ensure_ascii=False) + json.dumps(GAME.view(state, None), ensure_ascii=False)
    assert GAME.view(state, 1)["players"][0]["precampaign_count"] == 1
    assert card not in seen and '"candidate"' not in seen
    table_votes = {s: GAME.view(state, 0)["players"][s]["votes"] for s in (0, 1)}
    consensus = GAME.view(state, 0)["players"][1]["consensus"]
    state = act(state, 0, {"type": "precampaign_done"})
    assert [GAME.view(state, 1)["players"][s]["precampaign_done"] for s in (0, 1)] == [True, False]
    state = act(state, 1, {"type": "precampaign_done"})
    # revealed: seat 1 (holding Comentadores) may react; it does not
    assert GAME.to_act(state) == {1}
    state = act(state, 1, NO)
    assert state["stage"] == "campaign"
    shown = [GAME.view(state, 1)["players"][s]["election_votes"] for s in (0, 1)]
    assert shown == [table_votes[0] + 4, table_votes[1] - 4]
    state = act(
        act(state, 0, {"type": "campaign", "cards": [], "money": 0}), 1, {"type": "campaign", "cards": [], "money": 0}
    )
    election = state["election"]
    assert election["table_votes"] == [table_votes[0] + 4, table_votes[1] - 4]
    assert GAME.view(state, 0)["players"][1]["consensus"] == consensus == 1


def test_votes_gained_by_a_hand_action_and_a_table_action_count_in_the_elections():
    """Expesso's Hand Action (2 Votes) placed in the Pre-Campaign and O Pivô da Televisão's
    Prime-time Interview (3 Votes, for 1 Mega-Euro) add to Seat 0's Votes on the table for this
    Election only."""
    state = adv(
        leaders=["O Pivô da Televisão", "A Sindicalista"],
        hands={0: ["Expesso"]},
        tables={0: ["Pensionistas"]},
        money={0: 1},
        events=[ELECTIONS[0]],
    )
    state = end_round(state)
    on_table = [GAME.view(state, None)["players"][s]["votes"] for s in (0, 1)]
    state = act(state, 0, {"type": "precampaign", "card": G["Expesso"]})
    state = act(state, 0, {"type": "table_action"})
    for viewer in (0, 1, None):  # the Table Action counts at once; the face-down card once revealed
        assert GAME.view(state, viewer)["players"][0]["election_votes"] == on_table[0] + 3
    state = act(act(state, 0, {"type": "precampaign_done"}), 1, {"type": "precampaign_done"})
    assert state["stage"] == "campaign"
    # What a campaign adds to: the seat's Votes on the table for this Election, shown to everyone.
    for viewer in (0, 1, None):
        shown = [GAME.view(state, viewer)["players"][s]["election_votes"] for s in (0, 1)]
        assert shown == [on_table[0] + 2 + 3, on_table[1]]
    state = act(act(state, 0, CAMPAIGN), 1, CAMPAIGN)
    election = state["election"]
    assert election["table_votes"] == election["votes"] == [on_table[0] + 2 + 3, on_table[1]]
    assert [p["bonus_votes"] for p in state["players"]] == [0, 0]


# --- reactions ------------------------------------------------------------------------------------


def test_advogados_militantes_cancels_the_card_just_played_on_an_opponents_turn():
    state = adv(hands={0: ["Banco de Portugalândia"], 1: ["Advogados Militantes"]}, money={1: 3})
    state = act(state, 0, {"type": "hand_action", "card": G["Banco de Portugalândia"], "opponent": 1})
    assert GAME.to_act(state) == {1} and state["players"][1]["money"] == 3  # effects wait
    window = GAME.view(state, None)["reaction"]  # everyone sees the window and the card it answers
    assert (window["seats"], [(p["seat"], p["card"]["id"]) for p in window["plays"]]) == (
        [1],
        [(0, G["Banco de Portugalândia"])],
    )
    react = {"type": "react", "card": G["Advogados Militantes"], "cancel": G["Banco de Portugalândia"]}
    assert react in GAME.legal_actions(state, 1)
    state = act(state, 1, react)
    assert state["players"][1]["money"] == 3 and state["players"][0]["money"] == 0
    assert {G["Advogados Militantes"], G["Banco de Portugalândia"]} <= set(state["discards"])
    assert state["stage"] == "income" and GAME.to_act(state) == {0}


def test_the_reaction_window_is_the_same_whether_or_not_a_seat_holds_advogados():
    """Views of the open window do not depend on who holds the card, nor on who has answered."""
    views = []
    for cards in (["Advogados Militantes"], ["Sindicatos"]):
        state = adv(3, hands={0: ["Banco de Portugalândia"], 1: cards, 2: ["Claque"]}, money={1: 3})
        state = act(state, 0, {"type": "hand_action", "card": G["Banco de Portugalândia"], "opponent": 1})
        assert GAME.to_act(state) == {1, 2}
        state = act(state, 2, NO)
        views.append([GAME.view(state, seat) for seat in (None, 0, 2)])
        assert GAME.view(state, 0)["awaiting"] == [1, 2]  # seat 2's answer is not shown
    for a, b in zip(*views, strict=True):
        assert dumped(a) == dumped(b)


def test_opting_out_for_the_round_answers_later_windows_at_once_and_in_secret():
    state = adv(3, hands={0: ["Banco de Portugalândia", "Enfermeiros"], 1: ["Sindicatos"], 2: ["Claque"]}, money={1: 3})
    state = act(state, 0, {"type": "hand_action", "card": G["Enfermeiros"]})
    state = act(state, 1, {"type": "no_reaction", "round": True})
    assert GAME.view(state, 1)["opted_out"] is True and GAME.view(state, 2).get("opted_out") is False
    state = act(state, 2, NO)
    state = act(state, 0, {"type": "hand_action", "card": G["Banco de Portugalândia"], "opponent": 1})
    assert GAME.to_act(state) == {2} and GAME.view(state, 0)["awaiting"] == [1, 2]
    with pytest.raises(IllegalAction):
        act(state, 1, NO)


def test_advanced_hidden_information_holds_through_random_games():
    """Random advanced games: no view depends on what its seat cannot see, windows included."""
    for n in (2, 3, 4):
        r = random.Random(n)
        state = GAME.setup(n, {"advanced": True}, f"hidden-adv-{n}")
        seen_window = False
        for _ in range(3000):
            if GAME.outcome(state) is not None:
                break
            if state["reaction"] is not None or state["stage"] == "precampaign":
                seen_window = True
                for seat in [None, *range(n)]:
                    text = dumped(GAME.view(state, seat))
                    other = GAME.randomize_hidden(state, seat, r)
                    assert dumped(GAME.view(other, seat)) == text
            seat = r.choice(sorted(GAME.to_act(state)))
            state = act(state, seat, r.choice(GAME.legal_actions(state, seat)))
        assert seen_window


# --- pages --------------------------------------------------------------------------------------


def test_card_page_shows_every_cards_type_values_and_action_marking_our_reconstructions():
    from markupsafe import escape

    from tests.support.pages import render_template

    deck = GAME.rules_context()["deck"]
    html = render_template("rules/vem-ai-a-troika-cards.html", deck=deck)
    rows = html.split('<tr class="group">')[1:]
    assert len(rows) == 42
    for card, row in zip(deck["groups"], rows, strict=True):
        assert f"<td>{card['type']}</td>" in row and str(escape(card["hand_action"]["text"])) in row
        assert ("(our reconstruction)" in row) == card["hand_action"]["reconstructed"]
    assert "+1 Vote per media Group you control" in html  # Redes Sociais
    assert "+1 Income if you control Consultoras" in html  # Gestores de Topo
    for leader in deck["leaders"]:
        assert str(escape(leader["table_action"]["name"])) in html


def test_rules_page_has_the_advanced_section_and_the_reaction_decision():
    from tests.support.pages import render_template

    html = render_template("rules/vem-ai-a-troika.html", game=GAME)
    assert 'id="advanced"' in html and 'id="reactions"' in html
    assert "Pre-Campaign" in html and "don't ask me again this round" in html


def test_every_advanced_action_has_a_label():
    for n in (2, 3):
        r = random.Random(n)
        state = GAME.setup(n, {"advanced": True}, f"labels-{n}")
        kinds = set()
        while GAME.outcome(state) is None:
            seat = r.choice(sorted(GAME.to_act(state)))
            legal = GAME.legal_actions(state, seat)
            for action in legal[:200]:
                label = GAME.describe(action, state)
                assert label and "{" not in label
                kinds.add(action["type"])
            state = act(state, seat, r.choice(legal))
        assert {"hand_action", "table_action", "no_reaction", "precampaign_done", "take_back"} <= kinds
