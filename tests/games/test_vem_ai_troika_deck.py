"""Vem aí a Troika decks: the default deck meets ruling V1, validation names the bad field,
effects are described in plain words, and the rules and card pages render."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from app.games.vem_ai_troika import GAME, card_actions, describe_effect, describe_event
from app.games.vem_ai_troika.deck import DEFAULT_PATH, default_deck, validate_deck
from app.games.vem_ai_troika.table import COLOURS, GROUP_TYPES, colour_word, type_word
from tests.support.pages import render_template


def by_name(cards):
    return {card["name"]: card for card in cards}


def raw_deck():
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def test_default_deck_composition_follows_v1():
    deck = default_deck()
    assert Counter(g["colour"] for g in deck["groups"]) == {"gold": 10, "blue": 10, "red": 10, "grey": 12}
    ordinary = [leader for leader in deck["leaders"] if not leader["bonus"]]
    assert Counter(leader["colour"] for leader in ordinary) == {"blue": 2, "red": 2, "grey": 4}
    assert sum(leader["bonus"] for leader in deck["leaders"]) == 1
    assert len(deck["events"]) == 16
    names = Counter(e["name"] for e in deck["events"])
    assert names["Chegou a Troika"] == 1 and names["Eleições"] == 2 and names["Voto de Confiança"] == 1
    for card in deck["groups"] + deck["leaders"]:
        assert 0 <= card["power"] <= 4 and 0 <= card["votes"] <= 4 and 0 <= card["income"] <= 3
        assert card["gloss"] and card["gloss"] != card["name"]


def test_default_deck_agrees_with_the_worked_examples():
    deck = default_deck()
    groups = by_name(deck["groups"])
    assert {leader["power"] for leader in deck["leaders"]} >= {1, 3}
    assert groups["Revisão"]["power"] == 1
    assert (groups["Expesso"]["colour"], groups["Expesso"]["power"]) == ("blue", 2)
    assert groups["Ambientalistas"]["power"] == 1
    assert groups["Patos Bravos"]["power"] == 2
    procuradoria = groups["Procuradoria"]
    assert (procuradoria["colour"], procuradoria["power"], procuradoria["votes"]) == ("gold", 2, 2)
    assert (groups["Banco de Portugalândia"]["colour"], groups["Banco de Portugalândia"]["power"]) == ("gold", 1)
    assert groups["Meninas Boas"]["power"] == 1
    honest = groups["Bancos + ou - Honestos"]
    assert honest["colour"] == "gold" and honest["income"] >= 2
    average_votes = sum(g["votes"] for g in deck["groups"]) / len(deck["groups"])
    assert groups["Pensionistas"]["votes"] == 4 and groups["TV Irritante"]["votes"] == 3 > average_votes


def test_default_deck_holds_every_card_the_rulebook_names():
    groups = by_name(default_deck()["groups"])
    named = [
        "Pensionistas",
        "TV Irritante",
        "Procuradoria",
        "Banco de Portugalândia",
        "Bancos + ou - Honestos",
        "Expesso",
        "Revisão",
        "Ambientalistas",
        "Patos Bravos",
        "Meninas Boas",
        "Advogados Militantes",
        "(Dis)funcionários Públicos",
        "O Homem do Povo",
        "Comentadores Políticos",
        "Opus Day",
        "Camionistas",
        "Juízes",
    ]
    assert [name for name in named if name not in groups] == []


def test_special_events_use_the_effect_primitives():
    events = default_deck()["events"]
    troika = next(e for e in events if e["name"] == "Chegou a Troika")
    assert (troika["role"], troika["effects"]) == ("troika", [{"do": "end_game"}])
    elections = [e for e in events if e["name"] == "Eleições"]
    assert [(e["role"], e["points"], e["effects"]) for e in elections] == [("elections", 10, [{"do": "elections"}])] * 2
    confidence = next(e for e in events if e["name"] == "Voto de Confiança")
    assert confidence["points"] == 5
    assert confidence["effects"] == [{"do": "interim_government", "who": {"most": "votes"}}]


def test_validation_fills_defaults_and_leaves_the_input_alone():
    data = raw_deck()
    before = copy.deepcopy(data)
    deck = validate_deck(data)
    assert data == before
    assert deck["events"][4]["role"] == "normal" and deck["events"][4]["points"] == 0
    assert deck["leaders"][0]["bonus"] is False
    assert deck["events"][4]["text"] == describe_event(deck["events"][4])
    assert validate_deck(deck) == deck


def broken(change):
    data = raw_deck()
    change(data)
    with pytest.raises(ValueError) as error:
        validate_deck(data)
    return str(error.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["groups"][3].update(power=5), "groups[3].power: must be an integer 0-4"),
        (lambda d: d["groups"][3].update(power=True), "groups[3].power: must be an integer 0-4"),
        (lambda d: d["groups"][0].update(income=-1), "groups[0].income: must be an integer 0-3"),
        (lambda d: d["groups"][7].update(colour="green"), "groups[7].colour: must be one of gold, blue, red, grey"),
        (lambda d: d["groups"][2].pop("name"), "groups[2].name: must be a non-empty string"),
        (lambda d: d["groups"][2].update(kind="x"), "groups[2]: unknown field 'kind'"),
        (lambda d: d["groups"][5].update(type="royal"), "groups[5].type: must be one of"),
        (lambda d: d["groups"][1]["hand_action"].update(when="never"), "groups[1].hand_action.when: must be one of"),
        (lambda d: d["groups"].pop(), "groups: must hold exactly 42 cards, not 41"),
        (lambda d: d["groups"][0].update(colour="blue"), "groups: must hold 10 gold cards, not 9"),
        (lambda d: d["groups"][1].update(name="Procuradoria"), "groups[1].name: 'Procuradoria' appears twice"),
        (lambda d: d["leaders"][0].update(colour="gold"), "leaders[0].colour: must be one of blue, red, grey"),
        (lambda d: d["leaders"][0].update(bonus=True), "leaders: must hold exactly 1 bonus leader, not 2"),
        (lambda d: d["leaders"][0].update(colour="red"), "leaders: must hold 2 blue cards, not 1"),
        (
            lambda d: d["events"][0].update(name="A Troika"),
            "events: must hold the 'Chegou a Troika' event, with role 'troika', exactly this many times: 1",
        ),
        (
            lambda d: d["events"][2].update(role="normal"),
            "events: must hold the 'Eleições' event, with role 'elections', exactly this many times: 2",
        ),
        (lambda d: d["events"][3].update(name="Voto"), "events: must hold the 'Voto de Confiança' event"),
        (
            lambda d: d["events"][0].update(effects=[{"do": "draw", "who": "all"}]),
            "events[0].effects: a 'troika' event must include the 'end_game' effect",
        ),
        (lambda d: d["events"][5].update(effects=[]), "events[5].effects: must be a list of 1-4 effects"),
        (lambda d: d["events"][5]["effects"][0].update(do="explode"), "events[5].effects[0].do: must be one of"),
        (
            lambda d: d["events"][5]["effects"][0].update(amount=0),
            "events[5].effects[0].amount: must be an integer 1-10",
        ),
        (lambda d: d["events"][4]["effects"][0].update(who={"most": "luck"}), "events[4].effects[0].who: must be"),
        (
            lambda d: d["events"][6]["effects"][0].update(**{"from": "pocket"}),
            "events[6].effects[0].from: must be one of",
        ),
        (lambda d: d["events"][4]["effects"][0].update(count=1), "events[4].effects[0]: unknown field 'count'"),
        (lambda d: d["events"][1].update(points=25), "events[1].points: must be an integer 0-20"),
        (lambda d: d.update(extra=1), "deck: unknown field 'extra'"),
        (lambda d: d.update(leaders="none"), "leaders: must be a list"),
    ],
)
def test_validation_errors_name_the_bad_field(change, message):
    assert broken(change).startswith(message)


def test_a_non_object_deck_is_refused():
    with pytest.raises(ValueError, match=r"^deck: must be an object$"):
        validate_deck([1, 2])


def test_effects_are_described_in_plain_words():
    assert describe_effect({"do": "receive", "who": "government", "amount": 3}) == (
        "The Government receives 3 Mega-Euro from the Treasury."
    )
    assert describe_effect({"do": "pay", "who": {"most": "power"}, "amount": 2}) == (
        "The player with the most Power on the table (every tied player) pays 2 Mega-Euro to the Treasury."
    )
    assert describe_effect({"do": "pay", "who": "government", "amount": 2, "to": {"fewest": "votes"}}) == (
        "The Government pays 2 Mega-Euro to the player with the fewest Votes on the table (every tied player)."
    )
    assert describe_effect({"do": "discard", "who": "all", "count": 2, "from": "table"}) == (
        "Every player discards 2 Group cards from their table."
    )
    assert describe_effect({"do": "draw", "who": "all"}) == "Every player draws 1 Group card or takes 2 Mega-Euro."
    assert describe_effect({"do": "end_game"}) == "The game ends once this Event has been resolved."
    elections = next(e for e in default_deck()["events"] if e["role"] == "elections")
    assert describe_event(elections) == (
        "Elections are held; the winner becomes the Government and keeps this card. "
        "Worth 10 Victory Points to the player who keeps it."
    )


def test_each_group_type_and_colour_is_said_by_its_own_word():
    assert [type_word(kind)["msg"] for kind in GROUP_TYPES] == list(GROUP_TYPES)
    assert [colour_word(colour)["msg"] for colour in COLOURS] == list(COLOURS)


def test_every_default_event_has_a_description():
    for event in default_deck()["events"]:
        text = describe_event(event)
        assert text.endswith(".") and "{" not in text


def test_rules_page_explains_every_ruling_and_the_reconstruction():
    html = render_template("rules/vem-ai-a-troika.html", game=GAME)
    for ruling in [f"V{i}" for i in range(1, 11)]:
        assert f'id="{ruling.lower()}"' in html
    assert "reconstruction" in html
    assert "/rules/vem-ai-a-troika/cards" in html


def test_card_page_lists_every_card_with_its_values_and_effects():
    deck = default_deck()
    html = render_template("rules/vem-ai-a-troika-cards.html", deck=deck)
    for card in deck["groups"] + deck["leaders"] + deck["events"]:
        assert str(render_text(card["name"])) in html
    assert render_text(describe_event(deck["events"][4])) in html
    assert html.count('<tr class="group">') == 42
    assert html.count('<tr class="leader">') == 9
    assert html.count('<tr class="event">') == 16


def render_text(text):
    from markupsafe import escape

    return str(escape(text))


def test_a_card_actions_votes_are_said_in_the_singular_for_one():
    assert card_actions.describe([{"do": "votes", "amount": 1}]) == "Gain 1 Vote in this Election."
    assert card_actions.describe([{"do": "votes", "amount": 2}]) == "Gain 2 Votes in this Election."
