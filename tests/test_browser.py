"""A real browser (Debian's Chromium driven by Playwright's sync API): two players in two
browser contexts create and join a Troika room through the pages, watch the waiting room fill
live, start, and play several turns by clicking; each sees their own hand and never the other's.
"""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout


def seat_token(page: Page) -> str:
    match = re.search(r"/seat/([^/?#]+)", page.url)
    assert match, page.url
    return match.group(1)


def hand_values(page: Page, seat: int) -> list[str]:
    return page.locator(f"#player-{seat} .hand-tiles .tile:not(.back)").all_inner_texts()


def wait_for_version(page: Page, version: int | str) -> None:
    """Wait until the page shows this version (a DOM wait: quicker than expect's backoff)."""
    page.locator(f'#table-state[data-version="{version}"]').wait_for(state="attached", timeout=10_000)


def click_until(page: Page, button, version: int) -> None:
    """Click ``button`` until the page shows ``version``, clicking once more if the first
    click brought nothing in 10 s. KNOWN BUG, not diagnosed (issue 25's closing note): in this
    3-tab game a click over the socket now and then got no new version and no flash (seen 3
    times in some 10 runs, at versions 231 to 233); the second click landed. The likeliest
    cause, a move form submitted by the browser itself (it had no method: the page reloaded
    with the move in its address), plays the move since 238e091 (tests/test_browser_no_script.py);
    the second click stays until runs show it is never needed. A second miss fails."""
    button().click()
    try:
        wait_for_version(page, version)
    except PlaywrightTimeout:
        button().click()
        wait_for_version(page, version)


def take_turn(page: Page) -> None:
    """Play one whole turn by clicking: turn an unknown tile up, then take a face-up tile."""
    page.bring_to_front()  # as a person switches to that tab (background tabs pause rAF)
    version = int(page.locator("#table-state").get_attribute("data-version"))
    click_until(page, lambda: page.get_by_role("button", name="Turn one up"), version + 1)
    click_until(page, lambda: page.locator("#table-up button.tile-button").first, version + 2)


def test_two_players_create_join_start_and_play_in_the_browser(browser, live):
    host = browser.new_context(base_url=live).new_page()
    guest = browser.new_context(base_url=live).new_page()

    host.goto("/")
    choice = host.locator("details.game-choice").filter(has=host.locator("input[value='troika']"))
    if choice.get_attribute("open") is None:
        choice.locator("summary").click()
    form = host.locator("form[action='/rooms']").filter(has=host.locator("input[value='troika']"))
    form.get_by_label("Your name").fill("Ana")
    form.get_by_label("Seats").select_option("2")
    form.get_by_role("button", name="Create Troika room").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "open")
    expect(host.locator("#connection")).to_have_attribute("data-state", "live")
    invite = host.locator("#invite-link").input_value()
    assert invite.startswith(live) and "/seat/" not in invite

    guest.goto(invite)
    guest.get_by_label("Your name").fill("Bruno")
    guest.get_by_role("button", name="Take a seat").click()
    expect(guest.locator(".seat-list")).to_contain_text("Bruno")
    # The host's waiting room fills live over the websocket, without a reload.
    expect(host.locator(".seat-list")).to_contain_text("Bruno")
    host.get_by_role("button", name="Start the game").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "playing")
    expect(guest.locator("#table-state")).to_have_attribute("data-status", "playing")

    pages = {0: host, 1: guest}
    for _ in range(6):
        current = next(s for s, pg in pages.items() if pg.locator(".status-line", has_text="Your turn").count())
        take_turn(pages[current])
        wait_for_version(pages[1 - current], pages[current].locator("#table-state").get_attribute("data-version"))

    api = httpx.Client(base_url=live)
    for seat, page in pages.items():
        page.reload()
        truth = api.get(
            re.sub(r"/rooms/([^/]+)/seat/.*", r"/api/rooms/\1/view", page.url.replace(live, "")),
            headers={"Authorization": f"Bearer {seat_token(page)}"},
        ).json()["view"]
        own = sorted(int(v) for v in hand_values(page, seat))
        assert own == truth["hand"] and own, "a player sees their own hand tiles"
        assert page.locator("#your-hand .tile").count() == len(truth["hand"])
        other = 1 - seat
        assert hand_values(page, other) == [], "the other player's hand shows only tile backs"
        assert page.locator(f"#player-{other} .hand-tiles .tile.back").count() == truth["players"][other]["hand_count"]


def test_a_full_three_player_game_in_three_tabs_reaches_the_final_result(browser, live):
    """Done-when of the foundation: three tabs of one browser, one seat each, play a whole
    Troika game to the final result by clicking, every tab following live; at the end each tab
    is still connected (the room's stream stays open for the chat and a new game)."""
    context = browser.new_context(base_url=live)
    host = context.new_page()
    host.goto("/")
    form = host.locator("form[action='/rooms']").filter(has=host.locator("input[value='troika']"))
    form.get_by_label("Your name").fill("Ana")
    form.get_by_label("Seats").select_option("3")
    form.get_by_role("button", name="Create Troika room").click()
    invite = host.locator("#invite-link").input_value()
    tabs = [host]
    for name in ("Bruno", "Carla"):
        tab = context.new_page()
        tab.goto(invite)
        tab.get_by_label("Your name").fill(name)
        tab.get_by_role("button", name="Take a seat").click()
        expect(tab.locator(".seat-list")).to_contain_text(name)
        tabs.append(tab)
    expect(host.locator(".seat-list")).to_contain_text("Carla")
    host.get_by_role("button", name="Start the game").click()
    for tab in tabs:
        expect(tab.locator("#table-state")).to_have_attribute("data-status", "playing")

    for _ in range(400):
        if host.locator("#table-state").get_attribute("data-status") == "finished":
            break
        mover = next(t for t in tabs if t.locator(".status-line", has_text="Your turn").count())
        take_turn(mover)
        version = mover.locator("#table-state").get_attribute("data-version")
        for tab in tabs:
            wait_for_version(tab, version)
    for tab in tabs:
        expect(tab.locator("#table-state")).to_have_attribute("data-status", "finished")
        expect(tab.locator("#final-result .winner-banner")).to_contain_text(re.compile("wins|Shared win"))
        assert tab.locator("#round-results h3").count() == 3
        expect(tab.locator("#connection")).to_have_attribute("data-state", "live")


def invite_page(browser, live) -> tuple[httpx.Client, str, Page]:
    """A 3-seat Troika room Ana made, and a guest's page on its invite link, live."""
    api = httpx.Client(base_url=live)
    room = api.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"}).json()["room"]["id"]
    guest = browser.new_context(base_url=live).new_page()
    guest.goto(f"/rooms/{room}")
    expect(guest.locator("#connection")).to_have_attribute("data-state", "live")
    return api, room, guest


def test_a_name_typed_to_take_a_seat_survives_the_live_updates(browser, live):
    """A guest on the invite page types a name while the table is redrawn live (another player
    takes a seat meanwhile, or the page's socket opens late and sends the whole table): the name
    is still in the field, and "Take a seat" seats them under it."""
    api, room, guest = invite_page(browser, live)
    guest.get_by_label("Your name").fill("Bruno")
    form_before = guest.locator("#room-main form[action$='/join']").element_handle()
    api.post(f"/api/rooms/{room}/seats", json={"name": "Carla"})
    expect(guest.locator(".seat-list")).to_contain_text("Carla")
    assert not form_before.evaluate("form => form.isConnected"), "the form was not redrawn: this proves nothing"
    expect(guest.get_by_label("Your name")).to_have_value("Bruno")
    guest.get_by_role("button", name="Take a seat").click()
    guest.wait_for_url(f"**/rooms/{room}/seat/**")  # (a push shows Bruno seated before the page moves on)
    expect(guest.locator(".seat-list")).to_contain_text("Bruno")


def test_a_name_refused_on_the_invite_page_is_said_there_and_kept_for_mending(browser, live):
    """On the room's page a taken name is refused in the page's message, the typed name left in
    its field (it was a whole error page, the name gone), and a name of spaces alone is refused
    by the browser before it is sent; a good name then takes the seat."""
    api, room, friend = invite_page(browser, live)
    name = friend.get_by_label("Your name")
    name.fill("   ")
    friend.get_by_role("button", name="Take a seat").click()
    assert name.evaluate("e => e.validity.patternMismatch")
    name.fill("ana")
    friend.get_by_role("button", name="Take a seat").click()
    expect(friend.locator("#flash")).to_contain_text("Someone in this room is already called ana")
    expect(name).to_have_value("ana")
    assert friend.url.endswith(f"/rooms/{room}")
    assert [s["name"] for s in api.get(f"/api/rooms/{room}").json()["seats"] if s["name"]] == ["Ana"]
    name.fill("Bruno")
    friend.get_by_role("button", name="Take a seat").click()
    friend.wait_for_url(f"**/rooms/{room}/seat/**")
    expect(friend.locator(".seat-list")).to_contain_text("Bruno")
