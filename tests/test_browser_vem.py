"""A real browser plays Vem aí a Troika: two players in two browser contexts choose their
Leaders, play turns, fight an attack (the defender answers on their own page), see the Event
of every round end and commit their campaigns in turn in the first Elections, all by clicking. The
moves are picked from the seat's legal actions (steered towards an attack) and made through
the page: buttons for single actions, ticked cards and fields for attacks, answers, campaigns
and Income. After every move each page shows exactly its own hand and none of the other's cards.
"""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from tests.support.browser_games import auth, wait_for_version
from tests.support.browser_vem import check_page, legal_of, pick_card

ELECTIONS_AT = 10  # with 2 players the fifth Event is the first Elections: clicks resume with 10 left


def fill_campaign(page: Page, action: dict) -> None:
    for gid in action["cards"]:
        pick_card(page, gid)
    page.locator("#vem-campaign input[name=money]").fill(str(action["money"]))


def click_action(page: Page, action: dict, label: str) -> None:
    """Make ``action`` on the page as a player would: a button, or a form filled by clicking."""
    kind = action["type"]
    if kind == "attack":
        page.locator(f'label.target:has(input[value="{action["target"]}"])').click()
        page.locator(f"#vem-attack input[name=mode][value={action['mode']}]").check()
        for gid in action["cards"]:
            pick_card(page, gid)
        page.locator("#vem-attack button[type=submit]").click()
    elif kind == "add":
        for gid in action["cards"]:
            pick_card(page, gid)
        page.locator("#vem-add button[type=submit]").click()
    elif kind == "campaign":
        fill_campaign(page, action)
        page.locator("#vem-campaign button[type=submit]").click()
    elif kind == "income" and page.locator("#vem-income select, #vem-income input[type=number]").count():
        if page.locator("#vem-income select[name=titles]").count():
            page.locator("#vem-income select[name=titles]").select_option(str(action["titles"]))
        if page.locator("#vem-income input[name=offshore]").count():
            page.locator("#vem-income input[name=offshore]").fill(str(action["offshore"]))
        page.locator("#vem-income button[type=submit]").click()
    elif kind == "income":
        page.locator("#vem-income button[type=submit]").click()
    elif kind == "place" and "take" in action:
        page.locator("#vem-swap select[name=card]").select_option(str(action["card"]))
        page.locator("#vem-swap select[name=take]").select_option(str(action["take"]))
        page.locator("#vem-swap button[type=submit]").click()
    else:
        page.locator(f'#room-main button[title="{label}"]').click()


def choose(view: dict, legal: list[dict], attacks_done: int) -> dict:
    """A quick, steerable player: build a table in round 1, then attack once as soon as possible,
    defend with one card, and otherwise take the shortest way to the end of the round."""
    by_type: dict[str, list[dict]] = {}
    for item in legal:
        by_type.setdefault(item["action"]["type"], []).append(item)
    step, attack = view["step"], view["attack"]
    if "attack" in by_type and not attacks_done:
        control = [i for i in by_type["attack"] if i["action"]["mode"] == "control"] or by_type["attack"]
        return min(control, key=lambda i: len(i["action"]["cards"]))
    if step == "attack" and "add" in by_type and view["you"] == attack["defender"] and not attack["answered"]:
        return min(by_type["add"], key=lambda i: len(i["action"]["cards"]))
    if step == "campaign":
        money = min(1, view["players"][view["you"]]["money"])
        return next(
            i
            for i in by_type["campaign"]
            if len(i["action"]["cards"]) == min(1, len(view["hand"])) and i["action"]["money"] == money
        )
    if "draw" in by_type:
        return by_type["draw"][0]
    places = [i for i in by_type.get("place", []) if "take" not in i["action"]]
    if places and view["round"] == 1:
        return places[0]
    for kind in ("stop", "pass"):
        if kind in by_type:
            return by_type[kind][0]
    return legal[0]


def test_two_players_choose_leaders_attack_and_campaign_by_clicking(browser, live):
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "vem-ai-a-troika", "seats": 2, "name": "Ana"}).json()
    room, tokens = created["room"]["id"], [created["token"]]
    tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"])
    api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))

    pages = []
    for token in tokens:
        page = browser.new_context(base_url=live, viewport={"width": 1280, "height": 900}).new_page()
        page.goto(f"/rooms/{room}/seat/{token}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        pages.append(page)

    clicked: dict[str, int] = {}
    defended_on_own_page = events_seen = attacks_done = 0
    for _ in range(150):
        views = [api.get(f"/api/rooms/{room}/view", headers=auth(t)).json() for t in tokens]
        seat = views[0]["to_act"][0]
        view = views[seat]["view"]
        item = choose(view, legal_of(api, room, tokens[seat]), attacks_done)
        action = item["action"]
        if attacks_done and events_seen and view["events_left"] > ELECTIONS_AT:
            # Attack and Event seen: the quiet rounds before the Elections go through the API.
            r = api.post(
                f"/api/rooms/{room}/actions",
                headers=auth(tokens[seat]),
                json={"version": views[0]["version"], "action": action},
            )
            assert r.status_code == 200, r.text
            continue
        for s, page in enumerate(pages):
            wait_for_version(page, views[s]["version"])
            assert page.locator("#flash").inner_text() == ""
            check_page(page, views[s]["view"], views[1 - s]["view"]["hand"])
        if clicked.get("campaign") == 2:
            break
        if view["step"] == "attack" and seat == view["attack"]["defender"] and not view["attack"]["answered"]:
            expect(pages[seat].locator("#prompt")).to_contain_text("attacks your")
            expect(pages[seat].locator("#vem-add")).to_be_visible()
            expect(pages[1 - seat].locator("#vem-add")).to_have_count(0)
            defended_on_own_page += 1
        if view["step"] == "campaign":  # campaigns are committed in turn: no form for the other seat yet
            expect(pages[1 - seat].locator("#vem-campaign")).to_have_count(0)
        pages[seat].bring_to_front()
        click_action(pages[seat], action, item["label"])
        clicked[action["type"]] = clicked.get(action["type"], 0) + 1
        for page in pages:
            wait_for_version(page, views[0]["version"] + 1)
        after = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[seat])).json()["view"]
        if action["type"] == "campaign" and after["step"] == "campaign":  # the next seat sees its size
            size = after["players"][seat]["campaign_size"]
            expect(pages[1 - seat].locator(f"#campaign-{seat} figcaption")).to_contain_text(
                f"committed {size['cards']} card"
            )
        attacks_done += view["attack"] is not None and after["attack"] is None
        if after["election"] and not view["election"]:
            for page in pages:
                for s, votes in enumerate(after["election"]["votes"]):
                    expect(page.locator(f"#election-{s} .votes b")).to_have_text(str(votes))
        if after["events_left"] < view["events_left"]:
            events_seen += 1
            for page in pages:
                expect(page.locator("#event .vem-card.event .name")).to_have_text(
                    (after["event"] or after["last_event"])["name"]
                )
                expect(page.locator("#event-pile .count")).to_have_text(str(after["events_left"]))

    assert clicked["choose_leader"] == 2
    assert clicked["attack"] == 1 and attacks_done == 1 and defended_on_own_page == 1
    assert events_seen >= 2 and clicked["campaign"] == 2
