"""The Vem aí a Troika table as the server renders it for one seat, from exact game states: the
Leader choice, the attack exchange with its running totals and the defender's answer form, the
targets with their defence, the secret campaign and the count, prompts as card buttons, the
final scoring breakdown, and never a card of another player's hand."""

from __future__ import annotations

import html as html_lib
import json
import random
import re

from app.games.vem_ai_troika import GAME
from app.games.vem_ai_troika.attack import defence_base
from tests.conftest import create_started_room
from tests.support.pages import arrange, between, render, text
from tests.support.vem_scenarios import DECK, ELECTIONS, PASS, E, G, end_round


def posted_actions(html: str) -> list[dict]:
    """The actions of the single-action buttons (combo forms build theirs in the browser)."""
    found = re.findall(r'<form class="act[^"]*"[^>]*>\s*<input type="hidden" name="action" value="([^"]*)"', html)
    return [json.loads(html_lib.unescape(v)) for v in found]


def card_ids(html: str) -> list[int]:
    return [int(i) for i in re.findall(r'class="vem-card group[^"]*" data-id="(\d+)"', html)]


def picks(html: str, form: str) -> list[tuple[str, int]]:
    """(input type, card id) of the hand cards tied to a combo form."""
    found = re.findall(rf'<input type="(\w+)" name="cards" value="(\d+)" form="{form}"', html)
    return [(kind, int(gid)) for kind, gid in found]


def sofia_attacks():
    """Rulebook attack example 2: a 1-Power Leader opens with Patos Bravos (2) on a lone Procuradoria."""
    state = arrange(
        hands={0: ["Patos Bravos", "Banco de Portugalândia"], 1: ["Meninas Boas", "Revisão"]},
        tables={0: ["Fundos Abutre"], 1: ["Procuradoria", "Expesso"]},
    )
    return GAME.apply(
        state, 0, {"type": "attack", "target": G["Procuradoria"], "mode": "control", "cards": [G["Patos Bravos"]]}
    )


async def test_the_defender_is_prompted_on_their_own_page_with_the_running_totals(client):
    html = await render(client, sofia_attacks(), 1)
    assert text(between(html, 'id="prompt"', "</p>")) == (
        "Round 1 · Ana attacks your Procuradoria! Defend with one or more cards, or do not defend."
    )
    assert text(between(html, 'id="attack-total"', "</b>")) == "3"
    assert text(between(html, 'id="defence-total"', "</b>")) == "2"
    assert card_ids(between(html, 'id="attack-cards"', "</div>")) == [G["Patos Bravos"]]
    assert "no cards yet" in text(between(html, 'id="defence-cards"', "</div>"))
    assert card_ids(between(html, 'class="target-slot"', "</div>")) == [G["Procuradoria"]]
    assert picks(html, "vem-add") == [("checkbox", G["Meninas Boas"]), ("checkbox", G["Revisão"])]
    assert posted_actions(html) == [{"type": "stop"}]
    assert "Do not defend" in text(between(html, 'id="actions"', "</section>"))
    attacker = await render(client, sofia_attacks(), 0)
    assert "waiting for Bruno to answer" in text(between(attacker, 'id="prompt"', "</p>"))
    assert picks(attacker, "vem-add") == [] and posted_actions(attacker) == []


async def test_after_a_tie_the_attacker_adds_one_card_at_a_time(client):
    state = GAME.apply(sofia_attacks(), 1, {"type": "add", "cards": [G["Meninas Boas"]]})
    html = await render(client, state, 0)
    assert [text(between(html, f'id="{side}-total"', "</b>")) for side in ("attack", "defence")] == ["3", "3"]
    assert card_ids(between(html, 'id="defence-cards"', "</div>")) == [G["Meninas Boas"]]
    assert picks(html, "vem-add") == [("radio", G["Banco de Portugalândia"])]
    assert "Attack 3 against defence 3: add one card, or stop and lose." in text(html)
    assert "Stop (lose the attack)" in text(between(html, 'id="actions"', "</section>"))


async def test_no_page_shows_another_players_hand(client):
    state = sofia_attacks()
    for seat, other in ((0, 1), (1, 0)):
        html = await render(client, state, seat)
        others = set(state["players"][other]["hand"])
        assert card_ids(between(html, 'id="your-hand"', "</section>")) == state["players"][seat]["hand"]
        assert not others & set(card_ids(html))
        assert text(between(html, f'id="player-{other}"', 'class="families"')).count("hand") == 1
    spectator = await render(client, state, None)
    assert 'id="your-hand"' not in spectator and posted_actions(spectator) == []
    assert not set(state["players"][0]["hand"] + state["players"][1]["hand"]) & set(card_ids(spectator))


async def test_attack_targets_show_the_defence_the_engine_counts(client):
    state = arrange(
        hands={0: ["Juízes", "Claque", "Sindicatos"]},
        tables={1: ["Procuradoria", "Fundos Abutre", "Autarcas", "Pensionistas"]},
        government=1,
    )
    html = await render(client, state, 0)
    targets = re.findall(
        r'<input type="radio" name="target" value="(\d+)" form="vem-attack" data-defence="(\d+)"', html
    )
    columns = ["Procuradoria", "Fundos Abutre", "Pensionistas", "Autarcas"]  # gold, gold, red, grey
    assert [(int(gid), int(d)) for gid, d in targets] == [(G[c], defence_base(state, 1, G[c])) for c in columns]
    # Power, +1 for the other gold card, +1 for the Government on gold, +1 for the grey Leader on grey.
    assert [int(d) for _, d in targets] == [2 + 1 + 1, 3 + 1 + 1, 1, 2 + 1]
    # A screen reader names each target once, by what choosing it does (not the whole card again).
    named = re.findall(r'<input type="radio" name="target" [^>]*aria-label="([^"]*)"', html)
    assert named == [
        "Attack Procuradoria: defence 4",
        "Attack Fundos Abutre: defence 5",
        "Attack Pensionistas: defence 1",
        "Attack Autarcas: defence 3",
    ]
    assert picks(html, "vem-attack") == [
        ("checkbox", G["Juízes"]),
        ("checkbox", G["Claque"]),
        ("checkbox", G["Sindicatos"]),
    ]
    assert "Attack 1 against defence ?" in text(between(html, 'id="vem-attack"', "</form>"))


async def test_the_leader_choice_offers_only_your_two_leaders(client):
    state = GAME.setup(2, {}, "leaders")
    offers = [p["offer"] for p in state["players"]]
    html = await render(client, state, 0)
    assert posted_actions(html) == [{"type": "choose_leader", "leader": lid} for lid in offers[0]]
    assert not any(DECK["leaders"][lid]["name"] in html for lid in offers[1])
    state = GAME.apply(state, 0, {"type": "choose_leader", "leader": offers[0][1]})
    mine = await render(client, state, 0)
    shown = re.findall(r'<span class="offer (\w+)">\s*<span class="vem-card leader[^"]*" data-id="(\d+)"', mine)
    assert shown == [("passed", str(offers[0][0])), ("chosen", str(offers[0][1]))]
    assert posted_actions(mine) == [] and "your secret choice is made" in text(mine)
    theirs = await render(client, state, 1)
    assert "Leader chosen" in text(between(theirs, 'id="player-0"', 'class="families"'))
    assert not any(DECK["leaders"][lid]["name"] in theirs for lid in offers[0])


async def test_the_campaign_is_committed_in_turn_and_stays_face_down_until_the_count(client):
    state = end_round(
        arrange(
            hands={0: ["Pensionistas", "Claque"], 1: ["Estudantes"]},
            tables={1: ["TV Irritante"]},
            money={0: 1, 1: 2},
            events=[ELECTIONS[0]],
        )
    )
    waiting = await render(client, state, 1)
    assert text(between(waiting, 'id="campaign-1"', "</figure>")) == "2. Bruno 6 Votes on the table commits later"
    assert "waiting for Ana to commit a campaign face down" in text(waiting)
    assert picks(waiting, "vem-campaign") == []
    state = GAME.apply(state, 0, {"type": "campaign", "cards": [G["Pensionistas"]], "money": 1})
    mine = await render(client, state, 0)
    slot = between(mine, 'id="campaign-0"', "</figure>")
    assert card_ids(slot) == [G["Pensionistas"]] and "your campaign, face down" in text(slot)
    assert card_ids(between(mine, 'id="your-hand"', "</section>")) == [G["Claque"]]
    theirs = await render(client, state, 1)
    assert text(between(theirs, 'id="campaign-0"', "</figure>")) == (
        "VT € 1 1. Ana 1 Vote on the table committed 1 card and 1 Mega-Euro"
    )
    assert G["Pensionistas"] not in card_ids(theirs)
    assert picks(theirs, "vem-campaign") == [("checkbox", G["Estudantes"])]
    assert '<input type="number" name="money" min="0" max="2" value="0">' in theirs
    state = GAME.apply(state, 1, {"type": "campaign", "cards": [G["Estudantes"]], "money": 2})
    counted = await render(client, state, 1)
    assert text(between(counted, 'id="election-0"', "</span>\n")) == "Ana"
    rows = [text(between(counted, f'id="election-{s}"', "</div>")) for s in (0, 1)]
    assert rows == [
        "Ana 6 Votes 1 on the table + 4 from cards + 1 Mega-Euro red social Pensionistas Pensioners "
        "1 Power 4 Votes 0 Income € 1 second: draws",
        "Bruno 10 Votes 5 on the table + 3 from cards + 2 Mega-Euro red social Estudantes Students "
        "1 Power 3 Votes 0 Income € 2 Government",
    ]
    assert "Last Elections: Bruno won" in text(between(counted, 'id="election"', "</summary>"))


async def test_a_hand_over_the_limit_is_discarded_by_clicking_cards(client):
    hand = ["Juízes", "Claque", "Sindicatos", "Revisão", "Expesso"]
    state = GAME.apply(arrange(hands={0: hand}, money={0: 2}), 0, PASS)
    html = await render(client, state, 0)
    assert "Too many cards: you hold 7" in text(between(html, 'id="prompt"', "</p>"))
    assert "discard down to 6: choose a card or return a Mega-Euro." in text(html)  # no "click": keys and taps too
    # the status-and-actions bar (Return 1 Mega-Euro) comes before the hand (a click on a card)
    assert posted_actions(html) == [{"type": "discard_money"}] + [{"type": "discard", "card": G[name]} for name in hand]
    other = await render(client, state, 1)
    assert "waiting for Ana to discard down to 6 cards" in text(other) and posted_actions(other) == []


async def test_a_players_figures_say_what_they_count(client):
    state = arrange(tables={0: ["Procuradoria", "Expesso"]})
    html = await render(client, state, 1)
    figures = between(html, 'id="player-0-figures"', "</dl>")
    power = re.search(
        r'<div title="([^"]*)"><dt data-short="Pwr"><span>Power</span></dt><dd class="m-power">(\d+)</dd>', figures
    )
    assert power and power[2] == str(GAME.view(state, 1)["players"][0]["power"])
    assert "the Leader's is not counted" in power[1]  # where Votes and Income count the Leader
    assert "the Leader's, the Group cards' and 2 for each Consensus" in figures


async def test_the_final_scoring_breakdown(client):
    state = arrange(
        tables={0: ["Procuradoria", "Expesso", "Pensionistas", "Revisão", "Juízes"], 1: ["Claque"]},
        money={0: 3, 1: 1},
        events=[E["Chegou a Troika"]],
    )
    state["players"][0].update(kept=[ELECTIONS[0]], titles=[6, 5], offshore_money=2)
    html = await render(client, end_round(state), 1)
    final = between(html, 'id="final-result"', "</section>")
    assert "Ana wins!" in text(final)
    rows = re.findall(r'<tr class="(\w*)" id="result-(\d)">(.*?)</tr>', final, re.S)
    assert [(cls, seat, text(row)) for cls, seat, row in rows] == [
        ("winner", "0", "1 Ana winner 9 4 (1) 10 11 2 36"),
        ("", "1", "2 Bruno 3 0 (0) 0 0 0 3"),
    ]
    assert "Game over: the Troika has arrived." in text(between(html, 'id="prompt"', "</p>"))
    assert 'id="your-hand"' not in html and posted_actions(html) == []


async def test_a_memoised_card_shows_its_current_values_and_the_memo_is_bounded(client):
    """The table's cards are rendered once per distinct card and kept (``Renderer.memo``): a
    card whose values change (a computed Power, say) shows the new values, and the memo stays
    within its bound."""
    from app.rooms.views import seat_view
    from app.web import tables
    from tests.support.rendering import fresh_renderer

    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 2)
    info, live = await client.app.state.rooms.game_state(room_id)
    live.hold(sofia_attacks())
    payload = seat_view(info, live, 1)
    card = payload["view"]["hand"][0]
    renderer = fresh_renderer()

    def power_shown(html: str) -> set[str]:  # the Power on the card's element (its data-id's tag)
        return set(re.findall(rf'data-id="{card["id"]}"[^>]*? data-power="(\d+)"', html))

    assert power_shown(tables.main_fragment(renderer, payload, 1, tokens[1])) == {str(card["power"])}
    stronger = {**card, "power": card["power"] + 7}
    payload["view"] = {**payload["view"], "hand": [stronger, *payload["view"]["hand"][1:]]}
    assert power_shown(tables.main_fragment(renderer, payload, 1, tokens[1])) == {str(card["power"] + 7)}
    tables.main_fragment(renderer, payload, 1, tokens[1], "pt-PT")  # each language keeps its own cards
    assert {key[-1] for key in renderer.cards} >= {"en", "pt-PT"}
    bounded = fresh_renderer(cards_held=3)
    tables.main_fragment(bounded, payload, 1, tokens[1])
    assert len(bounded.cards) == 3, "the memo keeps the last 3 cards, no more"


async def test_a_hand_cards_place_and_redraw_are_named_with_the_card(client):
    """The buttons under each hand card show "Place" and "Redraw"; a screen reader hears the card
    named after the word ("Place" alone, under every card, told them apart by nothing), and the
    name still holds the word shown, for a reader who speaks it to the browser."""
    state = arrange(hands={0: ["Patos Bravos", "Meninas Boas"], 1: ["Revisão"]}, tables={0: [], 1: []})
    html = await render(client, state, 0)
    moves = between(html, 'id="your-hand"', "</section>")
    named = re.findall(r'type="submit" title="[^"]*">(\w+)<span class="sr-only"> ([^<]+)</span></button>', moves)
    assert sorted(named) == [
        ("Place", "Meninas Boas"),
        ("Place", "Patos Bravos"),
        ("Redraw", "Meninas Boas"),
        ("Redraw", "Patos Bravos"),
    ], named


async def test_a_forms_running_total_is_a_polite_live_region(client):
    """The attack's, the defence's and the campaign's running totals change as cards are ticked:
    each is a polite live region, so a screen reader hears the new total (it heard nothing).
    Checked on the attack's and the defence's forms; the campaign's is built alike."""
    attacker = arrange(hands={0: ["Patos Bravos"], 1: ["Revisão"]}, tables={0: [], 1: ["Procuradoria"]})
    html = await render(client, attacker, 0) + await render(client, sofia_attacks(), 1)  # attack, then answer
    assert 'id="vem-attack"' in html and 'id="vem-add"' in html
    summaries = re.findall(r'<span class="summary"([^>]*)>', html)
    assert summaries and all('aria-live="polite" aria-atomic="true"' in attrs for attrs in summaries), summaries


async def test_a_turns_instruction_names_only_the_actions_it_has(client):
    """The action step's instruction names Organization only with a card to place or redraw,
    Attack only with a target, and passing only when it is allowed: one state of each
    combination met in seeded random games, basic and advanced, is rendered for its seat."""
    found = {}
    for advanced in (False, True):
        for seed in range(12):
            rng = random.Random(seed)
            state = GAME.setup(2 + seed % 3, {"advanced": advanced}, f"{seed:032x}")
            for _ in range(1500):
                seat = rng.choice(sorted(GAME.to_act(state) or [None]))
                if seat is None:
                    break
                legal = GAME.legal_actions(state, seat)
                if not legal:
                    continue
                view = GAME.view(state, seat)
                if view["step"] == "action" and view["current"] == seat and not (view["attack"] or view["prompt"]):
                    kinds = {a["type"] for a in legal}
                    found.setdefault(frozenset(kinds & {"place", "replace", "attack", "pass"}), (state, seat))
                state = GAME.apply(state, seat, rng.choice(legal))
    assert {frozenset({"place", "replace", "attack", "pass"}), frozenset({"pass"}), frozenset()} <= set(found)
    for kinds, (state, seat) in found.items():
        prompt = between(await render(client, state, seat), 'id="prompt"', "</p>")
        said = text(prompt)
        assert "Your turn:" in said and "Income" in said, said
        # with a card to place, a link to the seat's own table (after every opponent's: far down)
        assert (f'<a class="jump-board" href="#player-{seat}">' in prompt) == bool(kinds & {"place", "replace"}), said
        assert ("Organization" in said) == ("place" in kinds) and ("Attack" in said) == ("attack" in kinds), said
        assert ("or pass" in said) == ("pass" in kinds) and ("cannot pass" in said) == ("pass" not in kinds), said


async def test_a_room_with_an_uploaded_deck_says_its_card_list_is_the_default_decks(client):
    """The in-game "Card list" is the default deck's: with an uploaded deck it said nothing of
    it, and a newcomer read the wrong cards (a probe, 2026-12-07)."""
    for options, words in (({}, ">Card list <"), ({"deck": DECK}, ">Default deck's card list <")):
        room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 2, options=options)
        page = (await client.get(f"/rooms/{room_id}/seat/{tokens[0]}", headers={"accept": "text/html"})).text
        assert words in page.replace("&#39;", "'"), options.keys()
