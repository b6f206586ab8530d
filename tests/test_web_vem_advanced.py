"""The Vem aí a Troika table in the advanced game, as the server renders it for one seat: card
types, variable values as they count now, Hand Actions in hand, Table Actions used or not,
support, Pre-Campaign and reaction prompts, and forms that offer only legal actions."""

from __future__ import annotations

import copy
import html as html_lib
import json
import random
import re

from app.games.base import spoken
from app.games.vem_ai_troika import GAME
from tests.conftest import create_started_room
from tests.support.pages import render, text
from tests.support.rendering import RENDERER, room_fragment
from tests.support.rooms import plant
from tests.support.vem_scenarios import DECK, ELECTIONS, G, adv, end_round
from tests.support.vem_scenarios import arrange as scenario

NO = {"type": "no_reaction", "round": False}


def offered(html: str) -> list[dict]:
    """Every action a form of the page can post as it is: hidden single actions and select
    options (the combo forms, whose action the browser assembles from ticked cards, aside)."""
    html = re.sub(r'<form class="vem-combo".*?</form>', "", html, flags=re.S)
    found = re.findall(r'<input type="hidden" name="action" value="([^"]*)"', html)
    found += re.findall(r'<option value="(\{[^"]*)"', html)
    return [json.loads(html_lib.unescape(v)) for v in found]


async def test_cards_show_types_values_as_they_count_and_hand_actions(client):
    state = adv(tables={0: ["Redes Sociais", "Expesso"]}, hands={0: ["Tabloides", "Banco de Portugalândia"]})
    html = await render(client, state, 0)
    assert '<span class="type">media</span>' in html
    # Redes Sociais counts 5 Votes now (printed 3); Tabloides in hand 3 Power (printed 2)
    assert 'title="Votes 5 (printed 3)"' in html and 'title="Power 3 (printed 2)"' in html
    # and the whole card's tooltip says the same, the printed figures beside them
    card_titles = re.findall(r'class="vem-card group[^"]*"[^>]*title="([^"]*)"', html)
    redes = next(t for t in card_titles if t.startswith("Redes Sociais"))
    assert re.search(r"Power (\d+), Votes 5, Income (\d+) \(printed: Power \1, Votes 3, Income \2\)", redes), redes
    banco = next(t for t in card_titles if t.startswith("Banco de Portugal"))
    assert "printed" not in banco, banco
    assert "Take up to 2 Mega-Euro from an opponent&#39;s hand." in html
    assert "Ribbon Cutting: ready" in text(html) or "ready" in text(html)
    for action in offered(html):
        assert action in GAME.legal_actions(state, 0), action


async def test_a_ticked_hand_cards_power_and_votes_are_what_the_server_counts(client):
    """The attack form's total summed each ticked card's printed Power: Tabloides, 3 from the
    hand (printed 2), made "Attack 4" of an attack the server played as 5 (a player's probe,
    2026-12-07). The boxes carry the figures as they count from the hand."""
    state = adv(tables={0: ["Redes Sociais", "Expesso"], 1: ["Consultoras"]}, hands={0: ["Tabloides"]})
    html = await render(client, state, 0)
    tabloides = next(c for c in GAME.view(state, 0)["hand"] if c["name"] == "Tabloides")
    assert (tabloides["power"], tabloides["now_power"]) == (2, 3)
    box = re.search(rf'<input type="checkbox" name="cards" value="{tabloides["id"]}" form="vem-attack"[^>]*>', html)
    assert 'data-power="3"' in box.group(0) and f'data-votes="{tabloides["now_votes"]}"' in box.group(0)
    attack = {"type": "attack", "target": G["Consultoras"], "mode": "control", "cards": [tabloides["id"]]}
    said = next(e for e in reversed(GAME.apply(state, 0, attack)["log"]) if "attack" in e["args"])
    assert said["args"]["attack"] == DECK["leaders"][state["players"][0]["leader"]]["power"] + 3
    assert spoken(said["args"]["cards"][0]) == "Tabloides (blue, 3 Power)", "the log names the Power counted"


async def test_a_table_action_shows_used_and_only_legal_moves_are_offered(client):
    state = adv(money={0: 2})
    state = GAME.apply(state, 0, {"type": "table_action"})
    html = await render(client, state, 1)
    assert "table-action-state used" in html
    mine = await render(client, state, 0)
    assert {"type": "table_action"} not in offered(mine)
    assert all(a in GAME.legal_actions(state, 0) for a in offered(mine))


async def test_the_reaction_prompt_is_the_same_for_holders_and_others_and_lists_only_legal_answers(client):
    pages = []
    for cards in (["Advogados Militantes"], ["Sindicatos"]):
        state = adv(3, hands={0: ["Banco de Portugalândia"], 1: cards, 2: ["Claque"]}, money={1: 3})
        state = GAME.apply(state, 0, {"type": "hand_action", "card": G["Banco de Portugalândia"], "opponent": 1})
        html = await render(client, state, 2)
        assert "React?" in text(html)
        # what the card's Hand Action does, to decide whether to cancel it
        card = GAME.view(state, 2)["reaction"]["plays"][0]["card"]
        does = spoken(json.loads(card["hand_said"])).rstrip(".")
        assert f"Banco de Portugalândia ({does}): just played for its Hand Action" in html_lib.unescape(text(html))
        page = await render(client, state, 0)
        pages.append(text(page[page.index('<section class="felt vem"') : page.index("</section>")]))
        holder = await render(client, state, 1)
        assert all(a in GAME.legal_actions(state, 1) for a in offered(holder))
        reacts = [a for a in offered(holder) if a["type"] == "react"]
        assert bool(reacts) == (cards == ["Advogados Militantes"])
    assert pages[0] == pages[1]  # the player of the card sees the same window either way


async def test_an_attacker_behind_after_a_support_adds_one_card_and_the_winning_supporter_may_draw_nothing(client):
    state = adv(
        3, hands={0: ["Revisão", "Enfermeiros"], 1: ["Estudantes"], 2: ["Claque"]}, tables={1: ["Pensionistas"]}
    )
    state = GAME.apply(
        state, 0, {"type": "attack", "target": G["Pensionistas"], "mode": "control", "cards": [G["Revisão"]]}
    )
    state = GAME.apply(state, 2, {"type": "support", "side": "defence", "card": G["Claque"]})
    page = text(await render(client, state, 0))  # the attacker is behind: one card or stop (V4)
    assert "Tick one card to add" in page and "Stop (lose the attack)" in page and "Do not defend" not in page
    assert "attacks your" not in page and "may defend with any cards" not in text(await render(client, state, 2))
    state = GAME.apply(state, 0, {"type": "stop"})
    state = GAME.apply(state, 0, {"type": "draw", "what": "money"})
    html = await render(client, state, 2)
    assert "or draw nothing" in text(html) and {"type": "decline"} in offered(html)


async def test_supports_and_the_pre_campaign_are_prompted_and_face_down_cards_stay_hidden(client):
    state = adv(3, hands={0: ["Sindicatos"], 1: ["Tabloides"], 2: ["Claque"]}, tables={1: ["Pensionistas"]})
    state = GAME.apply(
        state, 0, {"type": "attack", "target": G["Pensionistas"], "mode": "control", "cards": [G["Sindicatos"]]}
    )
    html = await render(client, state, 2)
    assert "Support?" in text(html)
    assert {"type": "support", "side": "attack", "card": G["Claque"]} in offered(html)

    state = adv(hands={0: ["O Homem do Povo"], 1: ["Estudantes"]}, tables={1: ["Pensionistas"]}, events=[ELECTIONS[0]])
    state = end_round(state)
    move = {"type": "precampaign", "card": G["O Homem do Povo"], "group": G["Pensionistas"], "candidate": 0}
    assert move in offered(await render(client, state, 0))
    state = GAME.apply(state, 0, move)
    for seat in (1, None):
        html = await render(client, state, seat)
        assert "a face-down Pre-Campaign card" in html and "Homem do Povo" not in html


async def test_every_advanced_page_of_a_random_game_renders_and_offers_only_legal_actions(client):
    r = random.Random(4)
    state = GAME.setup(3, {"advanced": True}, "web-advanced")
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 3)
    info, live = await client.app.state.rooms.game_state(room_id)
    checked = 0
    while GAME.outcome(state) is None:
        seat = r.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        if r.random() < 0.1 or state["reaction"] is not None or state["stage"] == "precampaign":
            live.hold(state)
            html = room_fragment(info, live, seat, tokens[seat])
            assert all(a in legal for a in offered(html)), seat
            checked += 1
        state = GAME.apply(state, seat, r.choice(legal))
    assert checked > 10


async def test_the_api_lists_every_asked_seat_to_the_others_until_the_reaction_window_closes(client):
    """The payload's to_act must not tell who has answered (nor who opted out) either; a seat
    that has answered is told so itself (V10: it is listed exactly when it may act)."""
    state = adv(3, hands={0: ["Banco de Portugalândia"], 1: ["Advogados Militantes"], 2: ["Claque"]}, money={1: 3})
    state = GAME.apply(state, 0, {"type": "hand_action", "card": G["Banco de Portugalândia"], "opponent": 1})
    state = GAME.apply(state, 2, {"type": "no_reaction", "round": True})
    assert GAME.to_act(state) == {1}
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 3)
    _, live = await client.app.state.rooms.game_state(room_id)
    plant(client, room_id, live, state)
    for seat in (0, 1, 2):
        payload = (
            await client.get(f"/api/rooms/{room_id}/view", headers={"Authorization": f"Bearer {tokens[seat]}"})
        ).json()
        assert payload["to_act"] == ([1] if seat == 2 else [1, 2])
        assert payload["your_turn"] == (seat == 1)


async def test_the_attack_form_lets_any_cards_be_played_for_their_hand_actions(client):
    """The engine lists openings with one card played for its Hand Action, and accepts any set
    of them: the attack form offers a "for its Hand Action" box beside each card usable so (Claque
    only when attacking to discard), and the form's action is the one the engine takes."""
    hand = ["Sociedade de Advogados", "Tabloides", "Claque", "Pensionistas"]
    state = adv(hands={0: hand, 1: ["Redes Sociais"]}, tables={1: ["Estudantes"]})
    html = await render(client, state, 0)
    legal = GAME.legal_actions(state, 0)
    usable = {gid for a in legal if a["type"] == "attack" for gid in a.get("actions", [])}
    assert usable == {G["Sociedade de Advogados"], G["Tabloides"], G["Claque"]}
    box = r'<input type="checkbox" name="actions" value="(\d+)" form="vem-attack"( data-discard-only)?>'
    boxes = re.findall(box, html)
    assert {int(gid): bool(only) for gid, only in boxes} == {
        G["Sociedade de Advogados"]: False,
        G["Tabloides"]: False,
        G["Claque"]: True,
    }
    base = re.search(r'<form class="vem-combo" id="vem-attack"[^>]*data-base="([^"]*)"', html).group(1)
    assert json.loads(html_lib.unescape(base)) == {"actions": [], "cards": [], "type": "attack"}
    assert "adv-hand-action-attack" not in html  # the old list of single-card openings is gone
    three = [G[name] for name in hand[:3]]
    attack = {"type": "attack", "target": G["Estudantes"], "mode": "discard", "cards": three, "actions": three}
    assert attack not in legal  # not listed, yet what the form posts when all three are ticked
    after = GAME.apply(state, 0, attack)
    assert sorted(after["attack"]["actions"]) == sorted(three)


async def test_the_basic_attack_form_has_no_hand_action_boxes(client):
    state = scenario(hands={0: ["Sociedade de Advogados", "Tabloides"]}, tables={1: ["Estudantes"]})
    html = await render(client, state, 0)
    assert 'id="vem-attack"' in html and 'name="actions"' not in html
    base = re.search(r'<form class="vem-combo" id="vem-attack"[^>]*data-base="([^"]*)"', html).group(1)
    assert json.loads(html_lib.unescape(base)) == {"cards": [], "type": "attack"}


async def test_a_cancelled_hand_action_is_marked_where_it_was_played_and_adds_nothing(client):
    dis = "(Dis)funcionários Públicos"
    state = adv(
        3, hands={0: [dis], 1: ["Advogados Militantes", "Estudantes"], 2: ["Claque"]}, tables={1: ["Procuradoria"]}
    )
    state = GAME.apply(
        state,
        0,
        {"type": "attack", "target": G["Procuradoria"], "mode": "control", "cards": [G[dis]], "actions": [G[dis]]},
    )
    before = GAME.view(state, 2)["attack"]
    assert before["cancelled"] == []
    state = GAME.apply(state, 1, {"type": "react", "card": G["Advogados Militantes"], "cancel": G[dis]})
    state = GAME.apply(state, 2, NO)
    shown = GAME.view(state, 2)["attack"]
    assert shown["cancelled"] == [G[dis]] and shown["actions"] == [G[dis]]
    assert shown["attack_total"] == before["attack_total"], "a cancelled action adds no Power and no bonus"
    html = await render(client, state, 2)
    played = re.search(r'<div class="played" id="attack-cards">(.*?)</div>\s*</div>', html, flags=re.S).group(1)
    assert 'class="cancelled-card"' in played and "cancelled" in text(played)
    assert f"{dis} (cancelled)" in html_lib.unescape(text(html))


async def test_the_campaign_box_counts_the_votes_the_pre_campaign_gained(client):
    """Expesso's Hand Action (2 Votes) and the Prime-time Interview (3): the campaign box's
    Votes start from the table's count for this Election, as the Election will count them."""
    state = adv(leaders=["O Pivô da Televisão", "A Sindicalista"], hands={0: ["Expesso"]}, money={0: 1})
    state["events"] = [ELECTIONS[0]] + state["events"]
    state = end_round(state)
    state = GAME.apply(state, 0, {"type": "precampaign", "card": G["Expesso"]})
    state = GAME.apply(state, 0, {"type": "table_action"})
    state = GAME.apply(GAME.apply(state, 0, {"type": "precampaign_done"}), 1, {"type": "precampaign_done"})
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 2, options={"advanced": True})
    # Inside on purpose: an exact game state is set, which no public call can do.
    info, live = await client.app.state.rooms.game_state(room_id)
    live.hold(state)
    on_table = GAME.view(live.state, 0)["players"][0]["votes"]  # the cards' Votes (with the room's deck)
    html = room_fragment(info, live, 0, tokens[0])
    assert re.findall(r'data-own="(\d+)"', html) == [str(on_table + 2 + 3)]
    # The campaign panel shows every player's count as the Election counts it, the same number.
    for viewer in (0, 1):
        shown = room_fragment(info, live, viewer, tokens[viewer])
        slot = text(shown[shown.index('id="campaign-0"') : shown.index("</figure>", shown.index('id="campaign-0"'))])
        assert f"{on_table + 2 + 3} Votes on the table" in slot, (viewer, slot)


async def test_the_status_line_offers_passing_only_until_a_hand_action_is_played(client):
    state = adv(hands={0: ["Enfermeiros", "Pensionistas"]})
    before = text(await render(client, state, 0))
    # (Bruno has no card on the table to attack: the instruction does not offer an Attack)
    assert "Organization (place or redraw cards) or Income, or pass." in before and "cannot pass" not in before
    state = GAME.apply(state, 0, {"type": "hand_action", "card": G["Enfermeiros"]})  # any time: still the action step
    assert {"type": "pass"} not in GAME.legal_actions(state, 0)  # V10: the Hand Action goes with an action
    after = text(await render(client, state, 0))
    assert "or Income. The Hand Action you played goes with it, so you cannot pass." in after
    assert "or pass." not in after


async def test_the_pre_campaign_panel_counts_a_table_actions_votes_but_not_a_face_down_card(client):
    """The Prime-time Interview (+3) is public at once; Expesso placed face down (+2) counts only
    once revealed, so no one, its owner included, sees the panel count it before."""
    state = adv(leaders=["O Pivô da Televisão", "A Sindicalista"], hands={0: ["Expesso"]}, money={0: 1})
    state["events"] = [ELECTIONS[0]] + state["events"]
    state = end_round(state)
    state = GAME.apply(state, 0, {"type": "precampaign", "card": G["Expesso"]})
    state = GAME.apply(state, 0, {"type": "table_action"})
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 2, options={"advanced": True})
    # Inside on purpose: an exact game state is set, which no public call can do.
    info, live = await client.app.state.rooms.game_state(room_id)
    live.hold(state)
    seen = GAME.view(live.state, 1)["players"][0]
    assert seen["election_votes"] == seen["votes"] + 3  # with the room's deck
    for viewer in (0, 1):
        html = room_fragment(info, live, viewer, tokens[viewer])
        slot = text(html[html.index('id="precampaign-0"') : html.index("</figure>", html.index('id="precampaign-0"'))])
        assert f"{seen['votes'] + 3} Votes on the table" in slot, (viewer, slot)


async def test_the_campaign_says_its_table_votes_count_the_pre_campaign_and_asks_no_tick_of_an_empty_hand(client):
    """In the advanced game the Votes a campaign adds to count the Pre-Campaign's too, and the
    box and the count say so (a player checking them against the table found 2 more); with no
    Group card in hand there is nothing to tick."""
    state = end_round(adv(2, events=[ELECTIONS[0]]))
    state = GAME.apply(GAME.apply(state, 0, {"type": "precampaign_done"}), 1, {"type": "precampaign_done"})
    assert state["stage"] == "campaign" and state["players"][0]["hand"] == []
    box = text(await render(client, state, 0))
    assert "Your campaign Mega-Euro" in box and "tick cards" not in box
    assert "on the table, the Pre-Campaign's included)" in box
    state = GAME.apply(
        GAME.apply(state, 0, {"type": "campaign", "cards": [], "money": 0}),
        1,
        {"type": "campaign", "cards": [], "money": 0},
    )
    counted = text(await render(client, state, 0))
    assert "on the table (the Pre-Campaign's included) + 0 from cards + 0 Mega-Euro" in counted


async def test_the_default_decks_table_action_names_are_said_in_the_readers_language(client):
    """The Leaders' Table Actions of the default deck have Portuguese names on a Portuguese
    table (a deck of one's own keeps its names as written); every one of them has its words."""
    state = adv(leaders=["O Autarca Eterno", "O Tecnocrata"])
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 2)
    info, live = await client.app.state.rooms.game_state(room_id)
    live.hold(copy.deepcopy(state))
    portuguese = text(room_fragment(info, live, 0, tokens[0], lang="pt-PT"))
    assert "Corte da Fita: pronta" in portuguese and "Excedente Orçamental: pronta" in portuguese
    assert "Ribbon Cutting" not in portuguese
    assert "Ribbon Cutting: ready" in text(room_fragment(info, live, 0, tokens[0]))
    named = RENDERER.env("pt-PT").globals["words"]["vem-ai-a-troika"].action_names
    names = {leader["table_action"]["name"] for leader in DECK["leaders"]}
    assert set(named) == names
    assert [name for name in sorted(names) if named[name] == name] == ["Manifesto"]  # (the same word in both)


async def test_the_elections_breakdown_adds_up_with_a_cards_votes_as_counted_from_the_hand(client):
    """Redes Sociais (3 Votes, +1 a media Group) campaigned beside Expesso on the table counts
    more than printed: the breakdown gives the cards' Votes as counted, so its parts add up to
    the total (it summed the printed values: one short)."""
    state = adv(2, events=[ELECTIONS[0]], tables={0: ["Expesso"]}, hands={0: ["Redes Sociais"]}, money={0: 1})
    state = end_round(state)
    state = GAME.apply(GAME.apply(state, 0, {"type": "precampaign_done"}), 1, {"type": "precampaign_done"})
    card = G["Redes Sociais"]
    state = GAME.apply(
        GAME.apply(state, 0, {"type": "campaign", "cards": [card], "money": 1}),
        1,
        {"type": "campaign", "cards": [], "money": 0},
    )
    el = state["election"]
    from_cards = el["votes"][0] - el["table_votes"][0] - 1
    assert from_cards > DECK["groups"][card]["votes"], "counted from the hand: more than printed"
    row = text(await render(client, state, 1))
    assert (
        f"{el['table_votes'][0]} on the table (the Pre-Campaign's included) + {from_cards} from cards + 1 Mega-Euro"
        in row
    )
