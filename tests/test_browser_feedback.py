"""Feedback where people look, in a real browser: a refusal is a toast inside the viewport (on
a phone too), a click superseded by another move is explained in plain words, a refused chat
line stays in the box, controls are disabled while the live connection is down (with a
visible note) and while a move cannot be legal (Vem aí's Attack and Defend, the host's "Let a
bot play" during the grace period), each saying why in its title and counting down on its face,
which reads whole on a Portuguese phone, as the spectator's way back to a seat does."""

from __future__ import annotations

import json
import random
import re
import time

import httpx
from playwright.sync_api import Page, expect

from tests.support.browser_games import (
    DESKTOP,
    FINITE_ANIMATIONS_ENDED,
    PHONE,
    auth,
    screenshot,
    seat_page,
    started_room,
    wait_for_version,
)
from tests.support.servers import free_port, server_process


def in_viewport(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0


def test_a_superseded_click_is_explained_in_a_toast_inside_the_viewport(browser, live):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    for size in (PHONE, DESKTOP):
        view = api.get(f"/api/rooms/{room}/view").json()
        mover, version = view["to_act"][0], view["version"]
        first, second = (seat_page(browser, live, f"/rooms/{room}/seat/{tokens[mover]}", size) for _ in range(2))
        first.get_by_role("button", name="Turn one up").click()
        wait_for_version(second, version + 1)
        # The second tab's click was chosen from the table before that move (as when it crosses
        # the push): its forms still carry the old version.
        second.evaluate(f"document.querySelectorAll('input[name=version]').forEach(i => i.value = '{version}')")
        second.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        second.locator("#table-up button.tile-button").first.click()
        toast = second.locator("#flash")
        expect(toast).to_contain_text("Another move was made just before your click, so yours was not played.")
        assert "reload" not in toast.inner_text()
        assert in_viewport(second, "#flash"), "the refusal shows where the player is looking"
        assert second.locator("#table-state").get_attribute("data-version") == str(version + 1)
        screenshot(second, "feedback-superseded")
        toast.click()
        expect(toast).to_be_hidden()
        second.locator("#table-up button.tile-button").first.click()  # the fresh table's click lands
        wait_for_version(first, version + 2)


def test_a_refused_chat_line_stays_in_the_input(browser, live):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    page = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", PHONE)
    page.get_by_role("button", name="Log and chat").click()  # (on a phone the chat is a drawer)
    box = page.get_by_label("Chat message")
    flash = page.locator("#flash")
    for i in range(12):  # at most 5 lines every 10 seconds (a window may turn over meanwhile)
        box.fill(f"line {i}")
        page.get_by_role("button", name="Send").click()
        expect(page.locator(f"#chat-log li:has-text('line {i}'), #flash.shown").first).to_be_visible()
        if flash.is_visible():
            break
        expect(box).to_have_value("")
    expect(flash).to_contain_text("Slow down: at most 5 messages every 10 seconds.")
    assert in_viewport(page, "#flash")
    expect(box).to_have_value(f"line {i}")
    assert page.locator(f"#chat-log li:has-text('line {i}')").count() == 0
    screenshot(page, "feedback-chat-refused")


# The page's live socket (htmx's ws extension keeps its wrapper on the ws-connect element).
SOCKET = "document.querySelector('[ws-connect]')['htmx-internal-data'].webSocket"


def test_while_the_connection_is_down_moves_are_disabled_under_a_visible_note(browser, live):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    mover = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    for size in (PHONE, DESKTOP):
        page = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[mover]}", size)
        button = page.get_by_role("button", name="Turn one up")
        expect(page.locator("#offline-note")).to_be_hidden()
        page.evaluate(f"{SOCKET}.socket.close()")  # the connection drops (and is not retried)
        expect(page.locator("#offline-note")).to_be_visible()
        expect(page.locator("#offline-note")).to_contain_text("Not connected")
        expect(button).to_be_disabled()
        expect(page.locator(".chat-form button")).to_be_disabled()  # (on a phone, in the closed drawer)
        screenshot(page, "feedback-offline")
        page.evaluate(f"{SOCKET}.init()")  # and comes back
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        expect(page.locator("#offline-note")).to_be_hidden()
        expect(button).to_be_enabled()
        page.context.close()


def test_the_connection_says_live_only_once_its_first_frame_is_on_the_page(browser, live):
    """The socket's first frame (the whole table, sent as it opens) is held back: until it is on
    the page the indicator does not say "live", since the table shown may be stale (a control
    focused in that moment was swapped under the reader, and the keyboard guard of access.js
    swallowed the Enter pressed on it: a test's flake in CI)."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    held: list = []
    routes: list = []

    def hold_the_servers_frames(ws):
        routes.append(ws)
        ws.connect_to_server().on_message(held.append)  # (nothing reaches the page unless sent on)

    page.route_web_socket(re.compile(r"/ws/rooms/"), hold_the_servers_frames)
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the server sent no first frame"
    page.wait_for_timeout(300)  # (the socket is open: the indicator said "live" at once)
    expect(page.locator("#connection")).to_have_attribute("data-state", "connecting")
    routes[0].send(held[0])
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    page.context.close()


def attack_chance(api: httpx.Client, room: str, tokens: list[str]) -> int:
    """Play Vem aí with random moves (never attacking) until a seat may attack; that seat."""
    rng = random.Random(11)
    for _ in range(400):
        view = api.get(f"/api/rooms/{room}/view").json()
        seat = view["to_act"][0]
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
        actions = [item["action"] for item in legal["legal_actions"]]
        if any(a["type"] == "attack" for a in actions):
            return seat
        quiet = [a for a in actions if a["type"] not in ("pass", "stop")] or actions
        body = {"version": legal["version"], "action": rng.choice(quiet)}
        assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body).status_code == 200
    raise AssertionError("no attack came up")


def test_vem_attack_and_defend_are_disabled_until_they_can_be_legal(browser, live):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "vem-ai-a-troika", 2)
    seat = attack_chance(api, room, tokens)
    page = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[seat]}", PHONE)
    attack = page.locator("#vem-attack button[type=submit]")
    expect(attack).to_be_disabled()
    expect(attack).to_have_attribute("title", "Pick a target on an opponent's table first")
    legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()["legal_actions"]
    chosen = min((i["action"] for i in legal if i["action"]["type"] == "attack"), key=lambda a: len(a["cards"]))
    page.locator(f'label.target:has(input[value="{chosen["target"]}"])').click()
    expect(attack).to_have_attribute("title", "Tick at least one card from your hand")
    page.locator(f"#vem-attack input[name=mode][value={chosen['mode']}]").check()
    for gid in chosen["cards"]:
        page.locator(f'#your-hand label.pick:has(input[value="{gid}"])').click()
    expect(attack).to_be_enabled()
    screenshot(page, "feedback-attack-ready")
    version = int(page.locator("#table-state").get_attribute("data-version"))
    attack.click()
    wait_for_version(page, version + 1)
    defender = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[1 - seat]}", PHONE)
    defend = defender.locator("#vem-add button[type=submit]")
    if defender.locator("#your-hand label.pick").count():
        expect(defend).to_be_disabled()
        expect(defend).to_have_attribute("title", "Tick a card from your hand first")
        defender.locator("#your-hand label.pick").first.click()
        expect(defend).to_be_enabled()
    screenshot(defender, "feedback-defend")


def test_let_a_bot_play_waits_out_the_grace_period_saying_why(browser, sqlite_url):
    with server_process(sqlite_url, free_port(), AUTOPILOT_GRACE_SECONDS="8") as (_, live):
        api = httpx.Client(base_url=live)
        room, tokens = started_room(api, "troika", 2)
        page = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", DESKTOP)
        button = page.locator('#presence button[data-wait="replace"]')
        # the page as served shows its own seat connected, not away with a button of its own
        assert page.locator("#presence li").first.get_attribute("class") == "online"
        expect(button).to_have_count(1)
        expect(button).to_be_disabled()
        expect(button).to_have_attribute("title", re.compile("away for 8 seconds"))
        # the seconds counted down on its face (a phone has no hover to show the title)
        # (from 8: a loaded machine may take a few seconds to show the page)
        expect(button).to_have_text(re.compile(r"^Let a bot play in [3-8] s$"))
        screenshot(page, "feedback-grace")
        expect(button).to_have_text(re.compile(r"^Let a bot play in [12] s$"), timeout=8_000)
        expect(button).to_be_enabled(timeout=12_000)
        expect(button).to_have_text("Let a bot play")
        expect(button).to_have_attribute("title", "A strong bot plays this seat until its player takes it back")
        button.click()
        expect(page.locator("#presence")).to_contain_text("strong bot")
        assert page.locator("#flash").inner_text() == ""


def test_let_a_bot_play_waits_only_for_what_is_left_of_a_players_grace(browser, sqlite_url):
    """The host who opened (or reloaded) the page after a player had been gone for longer than
    the grace waited it out again, from the page's load (a player's probe, 2026-12-07): the page
    counts from the player's last sign of life as the server saw it."""
    with server_process(sqlite_url, free_port(), AUTOPILOT_GRACE_SECONDS="6") as (_, live):
        api = httpx.Client(base_url=live)
        room, tokens = started_room(api, "troika", 2)
        time.sleep(6.5)  # seat 1 joined and never came: gone for longer than the grace
        page = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", DESKTOP)
        assert json.loads(page.locator(".room-shell").get_attribute("data-grace-left"))["replace"]["1"] == 0
        button = page.get_by_role("button", name="Let a bot play", exact=True)
        expect(button).to_have_count(1)  # (seat 1's: the page's own seat is not away)
        expect(button).to_be_enabled(timeout=2_000)  # (not 6 s after the load)
        page.reload()
        expect(button).to_have_count(1)
        expect(button).to_be_enabled(timeout=2_000)


def test_new_link_waits_for_a_player_seen_lately_but_not_for_one_who_only_joined(browser, sqlite_url):
    """The host's "New link" was enabled while the server would refuse it (a player seen within
    the grace: a lifecycle probe, 2026-12-07). It counts down as "Let a bot play" does, from the
    player's last sign of life; a join alone is none for a new link (a player who never came
    may have lost it), so for Carla, who only joined, it is ready at once."""
    with server_process(sqlite_url, free_port(), AUTOPILOT_GRACE_SECONDS="10") as (_, live):
        api = httpx.Client(base_url=live)
        room, tokens = started_room(api, "troika", 3)
        assert api.get(f"/api/rooms/{room}/view", headers=auth(tokens[1])).status_code == 200  # Bruno reads
        page = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", DESKTOP)
        bruno, carla = (page.locator(f'#presence button[data-away="{seat}"]') for seat in (1, 2))
        expect(bruno).to_have_count(2)
        expect(bruno.nth(1)).to_have_text(re.compile(r"^New link in ([2-9]|10) s$"))
        expect(bruno.nth(1)).to_be_disabled()
        expect(bruno.nth(1)).to_have_attribute("title", re.compile("a new link once they have been away for 10"))
        expect(carla.nth(0)).to_have_text(re.compile(r"^Let a bot play in ([2-9]|10) s$"))
        expect(carla.nth(1)).to_have_text("New link")
        expect(carla.nth(1)).to_be_enabled()
        screenshot(page, "feedback-new-link-wait")
        expect(bruno.nth(1)).to_be_enabled(timeout=14_000)
        expect(bruno.nth(1)).to_have_text("New link")
        bruno.nth(1).click()
        flash = page.locator("#flash")
        expect(flash).to_contain_text("A new private link for Bruno's seat")
        page.keyboard.press("Escape")  # (the link stays until the host closes it: a close, by key)
        expect(flash).to_be_hidden()
        carla.nth(1).click()
        expect(flash).to_contain_text("A new private link for Carla's seat")
        flash.get_by_role("button", name="Close").click()  # (and by its button, on a phone)
        expect(flash).to_be_hidden()


def test_a_page_the_server_refuses_for_good_says_so_instead_of_reconnecting(browser, sqlite_url):
    """A socket closed with 1008 (here past the cap of sockets for one seat) is not tried again
    by htmx's extension: the page says it is disconnected and why, not "reconnecting…" for
    ever, and its note asks for a reload instead of promising the connection back; on a phone
    the short word leaves the game's longest title whole in the room's bar. The first page
    stays live."""
    with server_process(sqlite_url, free_port(), MAX_SOCKETS_PER_SEAT="1") as (_, live):
        room, tokens = started_room(httpx.Client(base_url=live), "vem-ai-a-troika", 2)
        first = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", DESKTOP)
        second = browser.new_context(base_url=live, viewport=PHONE).new_page()
        second.goto(f"/rooms/{room}/seat/{tokens[0]}")
        connection = second.locator("#connection")
        expect(connection).to_have_attribute("data-state", "closed")
        expect(connection).to_have_text("disconnected")
        expect(connection).to_have_attribute("title", "too many sockets for this seat (at most 1)")
        note = second.locator("#offline-note")
        expect(note).to_have_text("The server ended this page's connection: reload the page to play on.")
        expect(note).to_be_visible()
        title = second.locator(".room-bar-title")
        expect(title).to_have_text("Vem aí a Troika")
        screenshot(second, "feedback-closed")
        assert title.evaluate("t => t.scrollWidth <= t.clientWidth"), "the room bar's title is cut"
        second.wait_for_timeout(1500)  # (no retry comes: it stays so)
        expect(connection).to_have_attribute("data-state", "closed")
        expect(note).to_have_text("The server ended this page's connection: reload the page to play on.")
        expect(first.locator("#connection")).to_have_attribute("data-state", "live")


def test_on_a_portuguese_phone_the_countdowns_and_the_way_back_to_a_seat_read_whole(browser, sqlite_url):
    """The host's countdowns had been checked in English at desktop width only, and the
    spectator's line on getting a seat back only in the page as served. Here both are on a
    390 px phone in Portuguese, whose labels are the longest: each reads whole inside the
    screen's width, and the page does not scroll sideways."""
    inside = "e => { const b = e.getBoundingClientRect(); return b.left >= 0 && b.right <= innerWidth; }"
    sideways = "() => document.documentElement.scrollWidth > innerWidth"
    with server_process(sqlite_url, free_port(), AUTOPILOT_GRACE_SECONDS="60") as (_, live):
        api = httpx.Client(base_url=live)
        room, tokens = started_room(api, "troika", 3)
        assert api.get(f"/api/rooms/{room}/view", headers=auth(tokens[1])).status_code == 200  # Bruno seen
        host = browser.new_context(base_url=live, viewport=PHONE, locale="pt-PT").new_page()
        host.goto(f"/rooms/{room}/seat/{tokens[0]}")
        expect(host.locator("#connection")).to_have_attribute("data-state", "live")
        bruno = host.locator('#presence button[data-away="1"]')
        expect(bruno.nth(0)).to_have_text(re.compile(r"^Deixar jogar um bot daqui a [1-6]?\d s$"))
        expect(bruno.nth(1)).to_have_text(re.compile(r"^Nova ligação daqui a [1-6]?\d s$"))
        for button in (bruno.nth(0), bruno.nth(1)):
            button.scroll_into_view_if_needed()
            expect(button).to_be_visible()
            assert button.evaluate(inside), "a countdown button runs past the phone's edge"
        host.evaluate(FINITE_ANIMATIONS_ENDED)  # (a card gliding in may stand out of the page for a moment)
        assert not host.evaluate(sideways)
        screenshot(host, "feedback-countdown-pt")

        watcher = browser.new_context(base_url=live, viewport=PHONE, locale="pt-PT").new_page()
        watcher.goto(f"/rooms/{room}")
        expect(watcher.locator("#connection")).to_have_attribute("data-state", "live")
        notice = watcher.locator("#room-main .notice").first
        expect(notice).to_contain_text("Está a assistir como espectador")
        expect(notice).to_contain_text("Abra a ligação privada do seu lugar")
        notice.scroll_into_view_if_needed()
        assert notice.evaluate(inside), "the spectator's line runs past the phone's edge"
        watcher.evaluate(FINITE_ANIMATIONS_ENDED)
        assert not watcher.evaluate(sideways)
        screenshot(watcher, "feedback-way-back-pt")
