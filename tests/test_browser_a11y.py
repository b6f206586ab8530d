"""Accessibility, checked by axe-core (bundled by axe-playwright-python, injected by Playwright:
never from a CDN) on every page and in every phase of every game, for a seat and a spectator,
at desktop and phone sizes: no violation of serious or critical impact. Also the skip link,
the status line as a live region, keyboard focus after an update, names without drawn signs,
and headings to the table and each player."""

from __future__ import annotations

import itertools
import json
import random
import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.bots import ratings
from app.games.triatri.cards import card_view
from tests.support.accessibility import serious_violations
from tests.support.browser_games import (
    DESKTOP,
    PHONE,
    auth,
    every_page,
    random_moves,
    screenshot,
    started_room,
    wait_for_version,
)
from tests.support.registered import seated


def phase_of(page: Page) -> str:
    status = page.locator("#table-status")
    if not status.count():
        return page.locator("#table-state").get_attribute("data-status") or "?"
    return f"{status.get_attribute('data-phase')}/{status.get_attribute('data-step') or ''}"


def test_the_pages_have_no_serious_accessibility_violation(browser, live):
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"}).json()
    paths = every_page(created["room"]["id"], created["token"])
    found = {}
    for size in (DESKTOP, PHONE):
        page = browser.new_context(base_url=live, viewport=size).new_page()
        for path in paths:
            page.goto(path)
            if problems := serious_violations(page):
                found[f"{size['width']} {path}"] = problems
    assert found == {}, json.dumps(found, indent=1)


@pytest.mark.parametrize("game, seats, seed", [(slug, n, seed) for seed, (slug, n) in enumerate(seated(3), 1)])
def test_every_phase_of_every_game_has_no_serious_accessibility_violation(browser, live, game, seats, seed):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, game, seats)
    pages = []
    for size, path in ((DESKTOP, f"/rooms/{room}/seat/{tokens[0]}"), (PHONE, f"/rooms/{room}")):
        page = browser.new_context(base_url=live, viewport=size).new_page()
        page.goto(path)
        pages.append(page)
    found, checked = {}, set()
    for version in random_moves(api, room, tokens, seed):
        for page in pages:
            wait_for_version(page, version)
            key = f"{page.viewport_size['width']} {phase_of(page)}"
            key += " (to act)" if page.locator("#table-state").get_attribute("data-your-turn") == "1" else ""
            if key in checked:
                continue
            checked.add(key)
            if problems := serious_violations(page):
                found[key] = problems
    assert found == {}, json.dumps(found, indent=1)
    assert {"1280 over/", "390 over/"} & {k.rsplit("/", 1)[0] + "/" for k in checked}, checked
    assert any(k.endswith("(to act)") for k in checked), checked


ACTIVE = """() => { const e = document.activeElement;
  return {tag: e.tagName.toLowerCase(), cls: e.className, text: e.textContent.trim().slice(0, 80),
          inTable: !!e.closest('#room-main .felt')}; }"""


def test_skip_link_live_status_and_focus_after_each_update(browser, live):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    mover = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[mover]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    # The skip link comes first and takes the keyboard to the content.
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    expect(page.locator(".skip-link")).to_be_visible()
    screenshot(page, "a11y-skip-link")
    page.keyboard.press("Enter")
    expect(page.locator("main#main")).to_be_focused()
    # The status line is announced from a live region that outlives the pushes.
    live_region = page.locator("#status-live")
    assert live_region.get_attribute("aria-live") == "polite"
    expect(live_region).to_contain_text("Your turn")
    # A move made with the keyboard: the focus lands on the next move, then on the status line.
    # The key is held down: its repeats on the move the focus lands on play nothing (a second
    # Enter played the next move too, a keyboard player's probe).
    page.get_by_role("button", name="Turn one up").focus()
    # its focus ring shows on the dark table: white, 3 px (the browser's own was a 1 px line)
    ring = "() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; }"
    assert page.evaluate(ring) == ["solid", "3px"]
    page.keyboard.down("Enter")
    wait_for_version(page, 1)
    page.wait_for_function("() => document.activeElement.matches('#room-main .felt button')")
    page.keyboard.down("Enter")  # (a repeat: the key is still down)
    page.keyboard.up("Enter")
    page.wait_for_timeout(1000)
    assert page.locator("#table-state").get_attribute("data-version") == "1"
    active = page.evaluate(ACTIVE)
    assert active["tag"] == "button" and active["inTable"], active
    if "tile-button" in active["cls"]:  # its focus ring is white, not the gold of what just changed
        ring = "() => getComputedStyle(document.activeElement.querySelector('.tile')).outlineColor"
        assert page.evaluate(ring) == "rgb(255, 255, 255)"
        # with a dark ring inside it (a white ring on a white tile was faint, a probe found) and
        # its caption ("take") marked too
        inner = "() => getComputedStyle(document.activeElement.querySelector('.tile')).boxShadow"
        assert page.evaluate(inner).startswith("rgb(16, 41, 31) 0px 0px 0px 3px"), page.evaluate(inner)
        caption = "() => getComputedStyle(document.activeElement.closest('.tile-with-action').querySelector('.hint'))"
        caption += ".textDecorationLine"
        assert page.evaluate(caption) == "underline"
    page.keyboard.press("Enter")  # that next move (the first tile on offer, or a discard)
    wait_for_version(page, 2)
    active = page.evaluate(ACTIVE)
    assert "status-line" in active["cls"], active
    expect(live_region).to_contain_text("waiting for")
    screenshot(page, "a11y-focus-after-move")
    # What the other seat does is announced, from the log's new lines, before the status.
    other = 1 - mover
    legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[other])).json()
    body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
    assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[other]), json=body).status_code == 200
    wait_for_version(page, legal["version"] + 1)
    line = api.get(f"/api/rooms/{room}/log", headers=auth(tokens[mover])).json()["log"][-1]["text"]
    expect(live_region).to_contain_text(line)
    status = page.locator("#room-main .status-line").inner_text()
    assert live_region.inner_text().endswith(" ".join(status.split())), live_region.inner_text()
    # The log is reachable by keyboard.
    assert page.locator(".log-lines").get_attribute("tabindex") == "0"
    # The whole log: its own page, numbered from the first line, reached from the room.
    href = page.locator(".log a[href$='/log']").get_attribute("href")
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.goto(href)
        expect(page.locator(".log-page")).to_have_attribute("start", "1")
        expect(page.locator(".log-page li").first).to_contain_text("Round 1 begins")
        assert serious_violations(page) == []
        screenshot(page, "a11y-whole-log")


# Where the focus is: a shown control of the table that makes a move, a button where there is
# one (Enter on a choice's dropdown opens it and answers nothing), or what it is instead.
ON_A_MOVE = """() => { const e = document.activeElement;
  const isShown = el => el.getClientRects().length > 0 && !el.closest('details:not([open]) > :not(summary)');
  const control = e.matches('button, input, select, summary') && !e.matches('.hand-fold');
  const buttons = [...document.querySelectorAll('#room-main .felt button:not([disabled]):not(.hand-fold)')]
    .filter(isShown);
  if (control && buttons.length && e.tagName !== 'BUTTON') return 'not a button: ' + e.tagName + '.' + e.className;
  return control && isShown(e) && !!e.closest('#room-main .felt') ? '' : e.tagName + '.' + e.className; }"""
FOCUS_STATUS = "() => { const s = document.querySelector('#room-main .status-line'); s.tabIndex = -1; s.focus(); }"


@pytest.mark.parametrize("game", ["troika", "triatri", "vem-ai-a-troika"])
def test_when_the_turn_comes_the_focus_goes_to_a_shown_move(browser, live, game):
    """A keyboard player waits with the focus on the status line; the others' moves make it
    their turn: the focus goes to a move they can use. It fell to the page's body in Troika (the
    first button was the doomed call's "Call anyway", inside its closed confirmation) and went
    to the docked hand's "Hide" in TriATri. Three turns of each game, and turns within them."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, game, 2)
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    turns, rng = 0, random.Random(game)
    while turns < 3:
        view = api.get(f"/api/rooms/{room}/view").json()
        assert view["status"] == "playing", "the game ended before three turns came"
        waiting = 0 not in view["to_act"]
        if waiting:
            page.evaluate(FOCUS_STATUS)
        mover = 0 if not waiting else view["to_act"][0]
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[mover])).json()
        moves = [m["action"] for m in legal["legal_actions"] if m["action"]["type"] != "troika"]
        body = {"version": legal["version"], "action": rng.choice(moves)}
        assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[mover]), json=body).status_code == 200
        wait_for_version(page, legal["version"] + 1)
        if waiting and page.locator("#table-state").get_attribute("data-your-turn") == "1":
            turns += 1
            assert page.evaluate(ON_A_MOVE) == "", (game, turns)


@pytest.mark.parametrize("game", ["troika", "triatri", "vem-ai-a-troika"])
def test_a_screen_reader_moves_by_headings_to_the_table_and_each_player(browser, live, game):
    """The table and its players have headings (a screen reader's way around a page): the table
    a level 2 under the game's title, each player's name a level 3 under "Players"."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, game, 2)
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(page.get_by_role("heading", level=1)).to_have_count(1)
    expect(page.get_by_role("heading", level=2, name="Table", exact=True)).to_have_count(1)
    expect(page.get_by_role("heading", level=2, name="Players", exact=True)).to_have_count(1)
    for name in ("Ana", "Bruno"):
        expect(page.get_by_role("heading", level=3, name=re.compile(f"^{name}\\b"))).to_have_count(1)
    outline = page.evaluate("""() => [...document.querySelectorAll('h1, h2, h3, [role=heading]')]
        .filter(h => h.closest('#room-main')).map(h => h.getAttribute('aria-level') || h.tagName[1])""")
    assert outline[:2] == ["1", "2"], outline  # the title, then the table
    assert all(int(b) <= int(a) + 1 for a, b in itertools.pairwise(outline)), outline  # no level skipped


def test_a_focused_status_line_keeps_the_focus_through_a_push_in_vem_ai(browser, live):
    """Vem aí's status line has an id (``prompt``): a push that changes it swaps in a new one,
    which the focus follows (it fell to the page's body, and the next Tab went past every move).
    Bruno plays first: Ana is still waiting (a turn that comes takes the focus to a move)."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "vem-ai-a-troika", 2, options={"first_player": 1})
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    for seat in (0, 1):  # both choose their Leaders: the second choice starts the first turn
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
        body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
        assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body).status_code == 200
        wait_for_version(page, legal["version"] + 1)
        if seat == 0:
            focus = "() => { const s = document.querySelector('#room-main .status-line'); s.tabIndex = -1; s.focus(); }"
            page.evaluate(focus)
            before = page.locator("#room-main .status-line").inner_text()
    expect(page.locator("#room-main .status-line")).not_to_have_text(before)
    expect(page.locator("#room-main .status-line")).to_be_focused()
    # Names without the drawn signs: the card list's link (not "Card list ↗"), and a card's
    # checkbox, whose box drawn before its words is not read ("☐ attack with" was)
    expect(page.get_by_role("link", name="Card list", exact=True)).to_have_count(1)
    pick = '<label class="pick" id="probe"><input type="checkbox"><span class="hint tick">attack with</span></label>'
    page.evaluate("html => document.querySelector('.felt.vem').insertAdjacentHTML('beforeend', html)", pick)
    expect(page.get_by_role("checkbox", name="attack with", exact=True)).to_have_count(1)


def focus_settled(page) -> None:
    """Wait until the focused control has stayed in place for 0.7 s: past the keyboard guard's
    0.6 s, which starts again whenever a push moves the focus (a second push of the seats within
    a fixed wait left the next Enter inside it)."""
    for _ in range(20):
        focused = page.evaluate_handle("document.activeElement")
        page.wait_for_timeout(700)
        if focused.evaluate("e => e === document.activeElement && e.isConnected"):
            return
    raise AssertionError("the focus never settled")


def test_seating_bots_by_keyboard_keeps_the_focus_in_the_seats_and_ends_on_start(browser, live):
    """In the waiting room a bot seated with Enter takes its button away: the focus goes to the
    next free seat's first bot, then to Start once every seat is taken (it fell to the page's
    body, and the next Tab skipped Start; then to the seat's new Remove button)."""
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"}).json()
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{created['room']['id']}/seat/{created['token']}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    # each seat's buttons name their seat (they read "+ strong bot Elo 515" for every seat alike)
    expect(page.get_by_role("button", name="seat 2")).to_have_count(len(ratings.levels("troika")))
    expect(page.get_by_role("button", name="seat 3")).to_have_count(len(ratings.levels("troika")))
    # the second seat's first level: its place then holds the seat's new Remove button, which
    # took the focus, and a second Enter removed the bot (a keyboard player's probe)
    page.locator("#seats .bot-adders button").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#seats li.taken")).to_have_count(2)
    focused = page.locator("#seats .bot-adders button").first  # the last free seat's first level
    expect(focused).to_be_focused()
    focus_settled(page)  # (an Enter at once on the control the focus was moved to is ignored)
    page.keyboard.press("Enter")
    expect(page.locator("#seats li.taken")).to_have_count(3)
    expect(page.get_by_role("button", name="Start the game")).to_be_focused()


def test_at_the_games_end_the_focus_goes_to_the_result_in_view(browser, live):
    """A keyboard player reading the status line as the last move lands: the focus goes to the
    final result's heading, which the page brings to its top (it stayed on the status line, at
    the foot of the screen, with its ring out of view: a keyboard player's probe)."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "triatri", 2)
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    for version in random_moves(api, room, tokens, seed=3):
        wait_for_version(page, version)
        if api.get(f"/api/rooms/{room}/view").json()["status"] == "playing":
            page.evaluate(FOCUS_STATUS)
    assert api.get(f"/api/rooms/{room}/view").json()["status"] == "finished"
    heading = page.locator("#final-result > h2")
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport()


def test_a_row_of_tiles_is_one_tab_stop_crossed_by_the_arrow_keys(browser, live):
    """Troika's face-up tiles on offer are a toolbar: Tab enters it once and leaves it with one
    press, the arrow keys (and Home, End) move along it, and Enter takes the tile focused (a
    keyboard player's probe counted 23 Tabs across a long row). The row is arranged afresh
    after a push."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    rng = random.Random(7)
    for _ in range(400):  # random moves until the mover may take from a row of 3 or more tiles
        view = api.get(f"/api/rooms/{room}/view").json()
        assert view["status"] == "playing", "the game ended before a long row came"
        mover = view["to_act"][0]
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[mover])).json()
        moves = [m["action"] for m in legal["legal_actions"]]
        if sum(m["type"] == "take_up" for m in moves) >= 3:
            break
        body = {"version": legal["version"], "action": rng.choice([m for m in moves if m["type"] != "troika"])}
        assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[mover]), json=body).status_code == 200
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[mover]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    row = page.locator("#table-up")
    assert row.get_attribute("role") == "toolbar"
    count = row.locator("button").count()
    assert count >= 3
    tab_stops = "() => [...document.querySelectorAll('#table-up button')].map(b => b.tabIndex)"
    assert page.evaluate(tab_stops) == [0] + [-1] * (count - 1)
    focused = "() => [...document.querySelectorAll('#table-up button')].indexOf(document.activeElement)"
    row.locator("button").first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == 1
    assert page.evaluate(tab_stops) == [-1, 0] + [-1] * (count - 2)
    page.keyboard.press("End")
    assert page.evaluate(focused) == count - 1
    page.keyboard.press("ArrowRight")  # (round to the first)
    assert page.evaluate(focused) == 0
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == count - 1
    page.keyboard.press("Home")
    assert page.evaluate(focused) == 0
    # one Tab leaves the row, and one Shift+Tab comes back to the tile last focused
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == -1
    assert page.evaluate("() => !!document.activeElement.closest('#room-main')")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) == 1
    # Enter takes that tile, into the container
    taken = json.loads(row.locator("input[name=action]").nth(1).get_attribute("value"))["value"]
    before = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[mover])).json()["view"]
    page.keyboard.press("Enter")
    wait_for_version(page, legal["version"] + 1)
    after = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[mover])).json()["view"]
    assert after["table_up"].count(taken) == before["table_up"].count(taken) - 1
    assert sorted(after["players"][mover]["container"]) == sorted(before["players"][mover]["container"] + [taken])
    # a push renders the rows afresh, and they are arranged again: when the turn comes back,
    # each row of moves is one Tab stop
    for _ in range(40):
        view = api.get(f"/api/rooms/{room}/view").json()
        seat = view["to_act"][0]
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
        moves = [m["action"] for m in legal["legal_actions"] if m["action"]["type"] != "troika"]
        if seat == mover and sum(m["type"] == "take_up" for m in moves) >= 2:
            break
        body = {"version": legal["version"], "action": rng.choice(moves)}
        assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body).status_code == 200
    wait_for_version(page, legal["version"])
    stops = "() => [...document.querySelectorAll('[data-roving]')]"
    stops += ".map(r => [...r.querySelectorAll('button')].map(b => b.tabIndex))"
    rows = page.evaluate(stops)
    assert rows and all(sorted(r)[-1] == 0 and r.count(0) == 1 for r in rows), rows


def test_triatris_hand_is_one_tab_stop_crossed_by_the_arrow_keys(browser, live):
    """TriATri's hand, when it holds moves (the start reveal: any of its six cards), is a
    toolbar as Troika's rows are: one Tab stop, the arrow keys move along it, and Enter commits
    the card focused."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "triatri", 2)
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    row = page.locator("#your-hand .hand-row")
    assert row.get_attribute("role") == "toolbar"
    cards = row.locator("button")
    assert cards.count() == 6
    tab_stops = "() => [...document.querySelectorAll('#your-hand .hand-row button')].map(b => b.tabIndex)"
    focused = "() => [...document.querySelectorAll('#your-hand .hand-row button')].indexOf(document.activeElement)"
    assert page.evaluate(tab_stops) == [0, -1, -1, -1, -1, -1]
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == 2
    assert page.evaluate(tab_stops) == [-1, -1, 0, -1, -1, -1]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == 1
    page.keyboard.press("Tab")  # (out of the hand in one press)
    assert page.evaluate(focused) == -1
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) == 1
    chosen = json.loads(row.locator("input[name=action]").nth(1).get_attribute("value"))["card"]
    version = api.get(f"/api/rooms/{room}/view").json()["version"]
    page.keyboard.press("Enter")
    wait_for_version(page, version + 1)
    view = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()["view"]
    assert view["commit"] == card_view(chosen)
    assert chosen not in [c["id"] for c in view["hand"]] and len(view["hand"]) == 5


def test_a_second_enter_on_the_move_the_focus_was_moved_to_waits_its_moment(browser, live):
    """For 0.6 s after the page moves the focus to the next move, Enter there does nothing: a
    keyboard player's second Enter, 250 ms after the first, played the next move too. After
    that moment it plays. The page's clock is held still (Playwright's fixed time: its timers
    still run), so the test does not hang on the machine's speed."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    mover = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    context = browser.new_context(base_url=live, viewport=DESKTOP)
    start = datetime(2027, 1, 1, tzinfo=UTC)
    context.clock.set_fixed_time(start)
    page = context.new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[mover]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    page.get_by_role("button", name="Turn one up").focus()
    page.keyboard.press("Enter")
    wait_for_version(page, 1)
    page.wait_for_function("() => document.activeElement.matches('#room-main .felt button')")
    page.keyboard.press("Enter")  # a fresh press, no repeat: at the same instant on the page's clock
    page.wait_for_timeout(1000)
    assert page.locator("#table-state").get_attribute("data-version") == "1"
    context.clock.set_fixed_time(start + timedelta(milliseconds=599))
    page.keyboard.press("Enter")  # (the last instant of the moment)
    page.wait_for_timeout(1000)
    assert page.locator("#table-state").get_attribute("data-version") == "1"
    context.clock.set_fixed_time(start + timedelta(milliseconds=600))
    page.keyboard.press("Enter")
    wait_for_version(page, 2)
