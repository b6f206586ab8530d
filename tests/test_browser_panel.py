"""The room's log-and-chat panel and the table's motion (issue 25, points 4 and 6), in Chromium:
on a phone the chat is a closed drawer whose button counts the other players' unread lines
(kept across a reload), opens it, and its Hide button or Escape closes it; on a desktop the panel is open beside
the table and counts nothing; chat lines show their time. A tile that moves glides from its
old place in at most 300 ms, and nothing glides when the reader prefers reduced motion."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.support.browser_games import DESKTOP, PHONE, auth, screenshot, seat_page, started_room, wait_for_version

# Where the focus is while the phone's drawer is open: in it, on the page itself (the browser's
# own stop between rounds of Tab), or under it.
IN_DRAWER = """() => { const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return "page";
  const what = e.tagName + " " + e.textContent.trim().slice(0, 30);
  return e.closest('#chat, #room-main .log') ? "drawer" : "under: " + what; }"""


def say(api: httpx.Client, room: str, token: str, text: str) -> None:
    assert api.post(f"/api/rooms/{room}/chat", headers=auth(token), json={"text": text}).status_code == 201


def test_the_chat_drawer_counts_unread_lines_and_the_desktop_panel_shows_them(browser, live):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    phone = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", PHONE)
    desk = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", DESKTOP)
    toggle, unread = phone.locator("#side-toggle"), phone.locator("#unread")
    expect(phone.locator("#chat")).to_be_hidden()
    expect(unread).to_be_hidden()
    say(api, room, tokens[1], "hello")
    say(api, room, tokens[1], "your move")
    expect(unread).to_have_text("2")
    expect(unread).to_have_attribute("aria-label", "2 unread messages")
    expect(desk.locator("#chat-log")).to_contain_text("your move")
    expect(desk.locator("#unread")).to_be_hidden()  # the desktop's panel is open: read as they come
    chat, felt = desk.locator("#chat").bounding_box(), desk.locator(".felt").bounding_box()
    assert chat["x"] >= felt["x"] + felt["width"], "the chat sits beside the table"
    phone.reload()
    expect(phone.locator("#unread")).to_have_text("2")  # still unread after a reload
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(phone.locator("#chat")).to_be_in_viewport()
    expect(phone.locator("#room-main .log")).to_be_in_viewport()
    expect(unread).to_be_hidden()
    time = phone.locator("#chat-log li", has_text="hello").locator("time")
    assert re.fullmatch(r"\d\d:\d\d( [AP]M)?", time.inner_text()), time.inner_text()
    screenshot(phone, "panel-drawer-open")
    # The drawer covers the phone's screen: Tab goes round what is in it, never under it.
    places = set()
    for _ in range(12):
        phone.keyboard.press("Tab")
        places.add(phone.evaluate(IN_DRAWER))
    assert places <= {"drawer", "page"} and "drawer" in places, places  # ("page": the browser's own stop)
    phone.keyboard.press("Escape")
    expect(phone.locator("#chat")).to_be_hidden()
    expect(toggle).to_be_focused()
    say(api, room, tokens[1], "again")
    expect(unread).to_have_text("1")
    toggle.click()
    expect(unread).to_be_hidden()
    phone.get_by_role("button", name="Hide the log and chat").click()  # (a phone has no Escape key)
    expect(phone.locator("#chat")).to_be_hidden()
    say(api, room, tokens[0], "mine")  # one's own lines are never unread
    expect(phone.locator("#chat-log")).to_contain_text("mine")
    expect(unread).to_be_hidden()
    screenshot(desk, "panel-desktop")
    # Closed on the desktop, the panel's log and chat sit below the table: no Hide button there.
    hide = desk.get_by_role("button", name="Hide the log and chat")
    hide.click()
    expect(desk.locator("#side-toggle")).to_have_attribute("aria-expanded", "false")
    expect(hide).to_be_hidden()
    expect(desk.locator("#chat")).to_be_visible()
    desk.locator("#side-toggle").click()
    expect(hide).to_be_visible()


def test_before_the_game_the_chat_takes_the_logs_place_in_the_panel(browser, live):
    """A waiting room has no log: its chat starts where the log would, not halfway down."""
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"}).json()
    path = f"/rooms/{created['room']['id']}/seat/{created['token']}"
    for size, highest in (({"width": 1366, "height": 768}, 160), (PHONE, 1)):
        page = seat_page(browser, live, path, size)
        if size == PHONE:
            page.locator("#side-toggle").click()
        expect(page.locator("#chat")).to_be_in_viewport()
        assert page.locator("#room-main .log").count() == 0
        assert page.locator("#chat").bounding_box()["y"] < highest, size
        screenshot(page, "panel-waiting-room")


# Every animation the page starts, with its target's classes and its length.
RECORD = """() => {
  window.glides = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.glides.push({classes: this.className, ms: options.duration, from: frames[0].transform});
    return animate.call(this, frames, options);
  };
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_taken_tile_glides_from_the_table_unless_motion_is_reduced(browser, live, motion):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    mover = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    page = browser.new_context(base_url=live, viewport=DESKTOP, reduced_motion=motion).new_page()
    page.add_init_script(f"({RECORD})()")
    page.goto(f"/rooms/{room}/seat/{tokens[mover]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    page.get_by_role("button", name="Turn one up").click()
    take = page.locator("#table-up .tile-button").first
    expect(take).to_be_visible()
    version = int(page.locator("#table-state").get_attribute("data-version"))
    page.evaluate("window.glides = []")
    take.click()
    wait_for_version(page, version + 1)
    page.wait_for_timeout(100)
    glides = page.evaluate("window.glides")
    if motion == "reduce":
        assert glides == []
    else:
        tiles = [g for g in glides if "tile" in g["classes"]]
        assert tiles, glides
        assert all(0 < g["ms"] <= 300 for g in glides)
        assert any(g["from"] != "translate(0px, 0px) scale(1, 1)" for g in tiles)


def test_a_tap_opens_the_drawer_without_bringing_up_the_phones_keyboard(browser, live):
    """Opened by a tap, the drawer takes the focus on its Hide button, not the chat box, whose
    focus brings a phone's keyboard up over the lines just opened to read; by mouse or keyboard
    the chat box still takes it."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    context = browser.new_context(base_url=live, viewport=PHONE, has_touch=True, is_mobile=True)
    phone = context.new_page()
    phone.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(phone.locator("#connection")).to_have_attribute("data-state", "live")
    phone.locator("#side-toggle").tap()
    expect(phone.locator("#chat")).to_be_visible()
    expect(phone.get_by_role("button", name="Hide the log and chat")).to_be_focused()
    phone.get_by_role("button", name="Hide the log and chat").tap()
    phone.locator("#side-toggle").focus()
    phone.keyboard.press("Enter")
    expect(phone.locator(".chat-form input")).to_be_focused()
    context.close()
