"""Building an attack in Vem aí a Troika leaves the table room to pick from, in Chromium at
1366x768 and 390x844. The seat's moves stick at the top of the screen and its hand is docked at
the bottom; with an Organization, an Income, an Attack and a Pass on offer, the table between
them was a strip of 164 px on the desktop and 184 px on the phone. Once a target is picked or a
card ticked, the other moves fold away (static/js/vem.js): the strip is at least 280 px, the
attack's summary keeps one line (a long target name is cut short on a phone), the picked target
and the Attack button are both in view, and the attack's Cancel unticks it all and brings every
move back (pressed by keyboard, it leaves the focus on the first of them). Before anything is
picked the attack's modes are folded too, and its greyed-out button, pressed, says why beside
it. By keyboard alone an attack is built and sent: the greyed-out button stays in the tab order
saying why, and a link after the hand leads back to it."""

from __future__ import annotations

import itertools
import json
import random

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.games.vem_ai_troika.deck import default_deck
from tests.support.browser_games import auth, screenshot, seat_page, started_room
from tests.support.browser_vem import legal_of

LONGEST = max((card["name"] for card in default_deck()["groups"]), key=len)  # (Dis)funcionários Públicos
SIZES = [{"width": 1366, "height": 768}, {"width": 390, "height": 844}]

# The table's strip: from the bottom of the sticky status to the top of the docked hand.
STRIP = """() => document.querySelector('#your-hand').getBoundingClientRect().top
  - document.querySelector('#table-status').getBoundingClientRect().bottom"""

IN_VIEW_UNCOVERED = """e => { const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.top >= 0 && r.bottom <= innerHeight && (hit === e || e.contains(hit)); }"""


def quiet_games(api: httpx.Client, seed: int, games: int):
    """2-player basic games played with random moves other than attacks: each game's room, its
    tokens and its public view before each move (a game that ends is left for a new one)."""
    rng = random.Random(seed)
    for _ in range(games):
        room, tokens = started_room(api, "vem-ai-a-troika", 2)
        for _ in range(300):
            view = api.get(f"/api/rooms/{room}/view").json()
            if view["status"] != "playing":
                break
            yield room, tokens, view
            seat = rng.choice(view["to_act"])
            legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
            quiet = [i["action"] for i in legal["legal_actions"] if i["action"]["type"] != "attack"]
            if quiet:
                body = {"version": legal["version"], "action": rng.choice(quiet)}
                assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body).status_code == 200


@pytest.fixture
def attack_room(live):
    """A game of :func:`quiet_games` at the first point where seat 0 may attack as well as
    organize, take its Income or pass: the room and seat 0's token."""
    api = httpx.Client(base_url=live)
    for room, tokens, view in quiet_games(api, 3, 5):
        offered = {item["action"]["type"] for item in legal_of(api, room, tokens[0])} if 0 in view["to_act"] else set()
        if {"attack", "income", "pass"} <= offered:
            return room, tokens[0]
    pytest.fail("seat 0 was never offered an attack")


def tap_in_place(page: Page, target) -> None:
    """A tap on ``target`` as a finger makes it (scrolled into view first, as a player would),
    after which it is where it was on the screen: picking it folds the moves above the table."""
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("#actions")).to_have_attribute("data-attack", "building")
    page.wait_for_timeout(100)
    moved = abs(target.bounding_box()["y"] - box["y"])
    assert moved < 60, f"the picked target moved {moved} px under the finger"  # (it moved 180 to 250)


def boxes(page: Page) -> list[bool]:
    return [box.is_visible() for box in page.locator("#actions > .action-box").all()]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_picking_a_target_folds_the_other_moves_away_and_cancel_brings_them_back(browser, live, attack_room, size):
    room, token = attack_room
    page = seat_page(browser, live, f"/rooms/{room}/seat/{token}", size)
    attack = page.locator("#vem-attack")
    cancel = attack.locator("[data-cancel]")
    expect(page.locator("#actions")).to_have_attribute("data-attack", "idle")
    assert all(boxes(page)) and len(boxes(page)) >= 3
    expect(attack.locator(".modes")).to_be_hidden()
    expect(cancel).to_be_hidden()
    # The greyed-out Attack, pressed before anything is picked, sends nothing and says why where
    # a phone shows it (it was a title only, and a tap seemed to do nothing).
    why = attack.locator(".why")
    expect(why).to_be_hidden()
    version = page.locator("#table-state").get_attribute("data-version")
    attack.locator("button[type=submit]").scroll_into_view_if_needed()  # (a phone's moves scroll in their box)
    button = attack.locator("button[type=submit]").bounding_box()
    page.mouse.click(button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
    expect(why).to_be_visible()
    expect(why).to_have_text("Pick a target on an opponent's table first")
    assert why.evaluate(IN_VIEW_UNCOVERED), "the reason is out of view or covered"
    page.wait_for_timeout(300)
    expect(page.locator("#table-state")).to_have_attribute("data-version", version)
    expect(page.locator("#actions")).to_have_attribute("data-attack", "idle")

    target = page.locator("label.target").first
    # The deck's longest card name, as the target's (the deal's targets may all be short).
    target.locator("input").evaluate(f"e => e.dataset.name = {json.dumps(LONGEST)}")
    tap_in_place(page, target)
    expect(page.locator("#actions")).to_have_attribute("data-attack", "building")
    assert [page.locator(".attack-box").first.is_visible()] == [v for v in boxes(page) if v]  # only the attack shows
    expect(attack.locator(".modes")).to_be_visible()
    expect(cancel).to_be_visible()
    # The box names what is attacked, and why its button is greyed out, in words a phone shows.
    name = target.locator("input").get_attribute("data-name")
    expect(attack.locator("[data-out=target]")).to_have_text(f"({name})")
    expect(attack.locator(".why")).to_have_text("Tick at least one card from your hand")
    # The summary keeps one line (under two of its text), the name cut short if need be.
    page.wait_for_function(
        "s => s.getBoundingClientRect().height < 2 * 1.2 * parseFloat(getComputedStyle(s).fontSize)",
        arg=attack.locator(".summary").element_handle(),
        timeout=3000,
    )
    target.scroll_into_view_if_needed()
    strip = page.evaluate(STRIP)
    assert strip >= 280, f"the table's strip is {strip} px"
    assert target.evaluate(IN_VIEW_UNCOVERED), "the picked target is out of view or covered"
    assert attack.locator("button[type=submit]").evaluate(IN_VIEW_UNCOVERED), "the Attack button is out of view"
    screenshot(page, f"vem-attack-building-{size['width']}")

    cancel.focus()
    page.keyboard.press("Enter")  # (by keyboard: the focus goes to the first move it brings back)
    expect(page.locator("#actions")).to_have_attribute("data-attack", "idle")
    expect(page.locator("#actions").locator("button:not([disabled]), select").first).to_be_focused()
    assert all(boxes(page))
    assert page.locator("input[form=vem-attack]:checked").count() == 0
    expect(cancel).to_be_hidden()

    # A card ticked to attack with folds the other moves away too, and the page stays where it
    # is (the ticked box took the focus, and the page scrolled under the finger to keep it clear
    # of the dock: 230 px).
    target.scroll_into_view_if_needed()
    before = target.bounding_box()["y"]
    card = page.locator("#your-hand label.pick:has(input[form=vem-attack])").first.bounding_box()
    page.mouse.click(card["x"] + card["width"] / 2, card["y"] + 20)  # (where it is: no scrolling to it first)
    expect(page.locator("#your-hand input[form=vem-attack]:checked")).to_have_count(1)
    page.wait_for_timeout(100)  # (two frames: the scroll that keeps the table in place)
    moved = abs(target.bounding_box()["y"] - before)
    assert moved < 60, f"the table moved {moved} px under the finger"
    expect(page.locator("#actions")).to_have_attribute("data-attack", "building")
    expect(page.locator("#actions > .action-box:not(.attack-box)").first).to_be_hidden()


FOCUSED = """() => { const e = document.activeElement, form = e.closest("form");
  return {name: e.name || "", value: e.value || "", text: e.textContent.trim(), id: form ? form.id : ""}; }"""


def tab_to(page: Page, wanted, most: int = 40) -> dict:
    """Press Tab until the focused element is the one ``wanted`` (a test of FOCUSED's answer)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if wanted(focused):
            return focused
    raise AssertionError(f"Tab never reached it in {most} presses (last: {focused})")


def test_the_keyboard_builds_an_attack_from_the_hand_and_finds_its_button_again(browser, live, attack_room):
    """The Attack button comes before the targets and the hand in the keyboard's order: it is
    reached while it cannot be legal yet (saying why, and a press sends nothing), and a link at the
    end of the hand, shown when it has the focus, leads back to it."""
    room, token = attack_room
    api = httpx.Client(base_url=live)
    chosen = min(
        (i["action"] for i in legal_of(api, room, token) if i["action"]["type"] == "attack"),
        key=lambda a: (a["mode"] != "control", len(a["cards"]), a.get("actions", [])),
    )
    page = seat_page(browser, live, f"/rooms/{room}/seat/{token}", SIZES[0])
    attack = page.locator("#vem-attack button[type=submit]")
    version = page.locator("#table-state").get_attribute("data-version")
    tab_to(page, lambda f: f["id"] == "vem-attack" and f["text"] == "Attack")  # (not skipped while greyed out)
    expect(attack).to_have_accessible_description("Pick a target on an opponent's table first")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    expect(page.locator("#table-state")).to_have_attribute("data-version", version)  # (nothing was sent)

    page.locator(f'input[name=target][value="{chosen["target"]}"]').focus()
    page.keyboard.press("Space")
    expect(attack).to_have_accessible_description("Tick at least one card from your hand")
    # (the mode too: with no control to take, the legal attack is a discard, whose Leader counts 4;
    # the default, control, with the Leader's own Power, left its cards too weak)
    mode = page.locator(f'#vem-attack input[name=mode][value="{chosen["mode"]}"]')
    mode.focus()
    page.keyboard.press("Space")
    expect(mode).to_be_checked()
    for gid in chosen["cards"]:
        tab_to(page, lambda f, gid=gid: f["name"] == "cards" and f["value"] == str(gid))
        page.keyboard.press("Space")
    back = page.get_by_role("link", name="Back to your move's button")
    tab_to(page, lambda f: f["text"] == "Back to your move's button")
    assert back.bounding_box()["width"] > 20, "the link back is not shown while it has the focus"
    page.keyboard.press("Enter")
    # the link gives the focus to the button itself (it went to the page's body: a form takes no
    # focus, and one more Tab was needed, a keyboard player's probe)
    expect(attack).to_be_focused()
    expect(attack).to_have_attribute("aria-disabled", "false")
    page.wait_for_timeout(700)  # (an Enter at once on a control the focus was moved to is ignored)
    page.keyboard.press("Enter")
    expect(page.locator("#table-state")).not_to_have_attribute("data-version", version)


def descending_pair(hand: list[dict]) -> tuple[int, int] | None:
    """Two neighbouring cards of a hand, as it is shown, whose ids decrease, if any."""
    ids = [card["id"] for card in hand]
    return next(((a, b) for a, b in itertools.pairwise(ids) if a > b), None)


def test_a_defence_of_two_cards_ticked_on_the_page_is_played(browser, live):
    """The page sends a defence's cards in the hand's order, and a defence of two cards shown in
    decreasing order was refused as "'add' is not allowed now" (a player's probe, 2026-12-07).
    Here the defender ticks two such cards on a phone and defends with both."""
    api = httpx.Client(base_url=live)
    for room, tokens, view in quiet_games(api, 8, 8):
        pair = descending_pair(api.get(f"/api/rooms/{room}/view", headers=auth(tokens[1])).json()["view"]["hand"])
        offered = legal_of(api, room, tokens[0]) if 0 in view["to_act"] else []
        attacks = [i["action"] for i in offered if i["action"]["type"] == "attack"]
        if pair and attacks:
            body = {"version": view["version"], "action": attacks[0]}
            assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[0]), json=body).status_code == 200
            defend_with_both(browser, live, api, room, tokens[1], pair)
            return
    pytest.fail("no attack came on a hand shown out of order")


def defend_with_both(browser, live: str, api: httpx.Client, room: str, token: str, pair: tuple[int, int]) -> None:
    before = api.get(f"/api/rooms/{room}/view", headers=auth(token)).json()
    assert {"type": "add", "cards": sorted(pair)} in [i["action"] for i in legal_of(api, room, token)]
    page = seat_page(browser, live, f"/rooms/{room}/seat/{token}", SIZES[1])
    for gid in pair:
        page.locator(f'#your-hand label.pick:has(input[value="{gid}"])').click()
    page.locator("#vem-add button[type=submit]").click()
    page.locator(f'#table-state[data-version="{before["version"] + 1}"]').wait_for(state="attached")
    expect(page.locator("#flash")).to_have_text("")
    hand = api.get(f"/api/rooms/{room}/view", headers=auth(token)).json()["view"]["hand"]
    assert not {card["id"] for card in hand} & set(pair), "both cards left the hand for the defence"
    screenshot(page, "vem-defend-two")
