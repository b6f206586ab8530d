"""A real browser plays TriATri: two players in two browser contexts go through a whole round
(the secret start reveal, the leader's gem choices and every card of five tricks) by clicking
the table. After every move each page shows exactly its own hand, with only the legal cards
active, and never a card the other player is holding.
"""

from __future__ import annotations

import random

import httpx
from playwright.sync_api import Page, expect

FACE_UP_CARDS = """els => els.map(e => [
    ['red', 'blue', 'green', 'fake'].find(c => e.classList.contains(c)),
    e.querySelector('.corner').textContent.trim()])"""


def card_key(card: dict) -> list[str]:
    return ["fake", "F"] if card["fake"] else [card["colour"], str(card["number"])]


def face_up(page: Page, selector: str) -> list[list[str]]:
    return page.locator(f"{selector} .tt-card:not(.back):not(.empty)").evaluate_all(FACE_UP_CARDS)


def api_view(api: httpx.Client, room: str, token: str) -> dict:
    return api.get(f"/api/rooms/{room}/view", headers={"Authorization": f"Bearer {token}"}).json()


def check_page(page: Page, view: dict, other_hand: list[dict]) -> None:
    """The page shows this seat's hand and legal cards, the table, and none of the other's cards."""
    table = view["view"]
    hand = table["hand"]
    assert face_up(page, "#your-hand") == [card_key(c) for c in hand]
    if view["your_turn"] and table["phase"] != "choose_gem":
        playable = [c for c in hand if c["playable"]]
        assert page.locator("#your-hand button.card-button").count() == len(playable)
        assert page.locator("#your-hand .unplayable").count() == len(hand) - len(playable)
    else:
        assert page.locator("#your-hand button:not(.hand-fold)").count() == 0
    public = [table["commit"]] if table["commit"] else []
    public += table["trick"]
    reveal = table["last_reveal"]
    if reveal and reveal["round"] == table["round"]:
        public += reveal["cards"]
    public += table["last_trick"]["cards"] if table["last_trick"] else []
    public += [c for player in table["players"] for c in player["known_cards"]]
    assert face_up(page, "#room-main") == [card_key(c) for c in public + hand]
    # Cards are reshuffled each round: only last round's last trick may show one the other now holds.
    shown = face_up(page, "#room-main")
    for c in face_up(page, "#last-trick"):
        shown.remove(c)
    hidden = [card_key(c) for c in other_hand if not c["fake"]]
    assert not [c for c in hidden if c in shown], "another player's card is on the page"
    other = 1 - view["seat"]
    count = table["players"][other]["hand_count"]
    assert page.locator(f"#player-{other} .backs .tt-card.back").count() == count
    assert face_up(page, "#trick") == [card_key(c) for c in table["trick"]]
    doubled = [c for c in table["trick"] if c["doubled"]]
    assert page.locator("#trick .position.doubled").count() == len(doubled)
    if reveal and reveal["round"] == table["round"]:
        assert face_up(page, "#last-reveal") == [card_key(c) for c in reveal["cards"]]
    for seat, player in enumerate(table["players"]):
        gems = page.locator(f"#player-{seat} .gem-count b").all_inner_texts()
        assert gems == [str(player["gems"][colour]) for colour in ("red", "blue", "green")]


def test_two_players_play_a_whole_triatri_round_by_clicking(browser, live):
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"}).json()
    room, tokens = created["room"]["id"], [created["token"]]
    tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"])
    api.post(f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {tokens[0]}"})

    pages = []
    for token in tokens:
        page = browser.new_context(base_url=live, viewport={"width": 1280, "height": 900}).new_page()
        page.goto(f"/rooms/{room}/seat/{token}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        pages.append(page)

    rng = random.Random(7)
    clicks = {"commit": 0, "choose_gem": 0, "play": 0}
    tricks_won = 0
    while True:
        views = [api_view(api, room, token) for token in tokens]
        for seat, page in enumerate(pages):
            expect(page.locator("#table-state")).to_have_attribute("data-version", str(views[seat]["version"]))
            check_page(page, views[seat], views[1 - seat]["view"]["hand"])
        if views[0]["view"]["round"] == 2:
            break
        seat = rng.choice(views[0]["to_act"])
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()[
            "legal_actions"
        ]
        choice = rng.choice(legal)
        pages[seat].get_by_role("button", name=choice["label"], exact=True).first.click()
        clicks[choice["action"]["type"]] += 1
        if views[0]["view"]["phase"] == "play" and len(views[0]["view"]["trick"]) == 1:
            tricks_won += 1
        expect(pages[1 - seat].locator("#table-state")).to_have_attribute("data-version", str(views[0]["version"] + 1))

    assert clicks["commit"] >= 2 and clicks["choose_gem"] == 5 and clicks["play"] == 10
    assert tricks_won == 5
    for page in pages:
        expect(page.locator(".status-line")).to_contain_text("Round 2 of 3 · Trick 1 of 5")
        expect(page.locator("#last-trick .position")).to_have_count(2)
        expect(page.locator("#last-trick .win-tag")).to_have_count(1)
