"""A real browser steps through a finished game's replay: the buttons, the keyboard's arrows
and the slider move between versions, a seat's point of view shows its hand, the step's log
lines are highlighted, and a step opens where the reader had scrolled (on a phone, with the
controls at the bottom of the screen); and an exported record file is opened, verified and
replayed."""

from __future__ import annotations

import json
import random

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.browser_games import auth


def finished_troika(api: httpx.Client) -> str:
    """A finished 3-player Troika game played by random moves (calls included: short rounds)."""
    created = api.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"}).json()
    room, tokens = created["room"]["id"], [created["token"]]
    for name in ("Bruno", "Carla"):
        tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": name}).json()["token"])
    assert api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0])).status_code == 200
    rng = random.Random(4)
    for _ in range(2000):
        view = api.get(f"/api/rooms/{room}/view").json()
        if view["status"] == "finished":
            return room
        seat = view["to_act"][0]
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
        action = rng.choice([a["action"] for a in legal["legal_actions"]])
        api.post(
            f"/api/rooms/{room}/actions",
            headers=auth(tokens[seat]),
            json={"version": legal["version"], "action": action},
        )
    raise AssertionError("the game did not finish")


def fits_a_small_phone(page: Page) -> bool:
    """Whether the page, laid out 360 px wide, has nothing to scroll sideways."""
    size = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 640})
    fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size(size)
    return fits


def at_step(page: Page, step: int) -> None:
    expect(page.locator("#room-main")).to_have_attribute("data-version", str(step))


def test_stepping_through_a_replay_with_buttons_keys_and_the_slider(browser, live, screenshots, tmp_path):
    api = httpx.Client(base_url=live)
    room = finished_troika(api)
    last = api.get(f"/api/rooms/{room}").json()["version"]
    page = browser.new_context(base_url=live).new_page()
    problems: list[str] = []  # script errors and CSP reports (the page's script is a static file)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"/rooms/{room}")
    page.locator("#replay-link").click()
    at_step(page, 0)
    expect(page.locator("#replay-step")).to_contain_text("The deal")
    page.locator("#replay-said").evaluate("e => { e.dataset.first = '1'; }")
    page.locator("#replay-next").click()
    at_step(page, 1)
    # the step is announced by the live region the page had before it (one made afresh says nothing)
    said = page.locator("#replay-said")
    expect(said).to_have_attribute("aria-live", "polite")
    expect(said).to_have_attribute("data-first", "1")
    first_line = page.locator("#replay-step").inner_text().strip()
    expect(said).to_have_text(f"Step 1 of {last}. {first_line}")
    expect(page.locator("#replay-log li.current")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    at_step(page, 2)
    page.keyboard.press("ArrowLeft")
    at_step(page, 1)
    page.keyboard.press("End")
    at_step(page, last)
    expect(page.locator("#final-result")).to_be_visible()
    page.keyboard.press("Home")
    at_step(page, 0)
    slider = page.locator("#replay-slider")
    slider.fill(str(last // 2))  # a range input takes its value like this, then fires "change"
    at_step(page, last // 2)
    assert page.url.endswith(f"?as=spectator&step={last // 2}") or f"step={last // 2}" in page.url
    expect(page.locator("#your-hand")).to_have_count(0)
    page.get_by_label("Show the table as").select_option(label="Bruno saw it (their hand)")
    expect(page.locator("#your-hand")).to_be_visible()
    # (no move to make in a replay: the hand stays in the table's flow, not docked over the board)
    assert page.locator("#your-hand").evaluate("e => getComputedStyle(e).position") == "static"
    at_step(page, last // 2)
    expect(page.locator("#replay-log li.current").first).to_be_visible()
    screenshots(page, "replay-step")
    page.get_by_label("Show the table as").select_option("everyone")
    expect(page.locator("#room-main .replay-seat")).to_have_count(3)
    expect(page.locator("#room-main #your-hand")).to_have_count(3)  # every hand shown
    at_step(page, last // 2)
    screenshots(page, "replay-every-hand")
    assert fits_a_small_phone(page)
    assert problems == []

    record = tmp_path / "record.json"
    record.write_text(json.dumps(api.get(f"/api/rooms/{room}/record").json()))
    opener = browser.new_context(base_url=live).new_page()
    opener.goto("/replay")
    assert fits_a_small_phone(opener)
    opener.get_by_label("Record file").set_input_files(str(record))
    opener.get_by_role("button", name="Verify and replay").click()
    at_step(opener, 0)
    expect(opener.locator(".replay-head")).to_contain_text("verified")
    opener.locator("#replay-last").click()
    at_step(opener, last)
    expect(opener.locator("#final-result")).to_be_visible()
    screenshots(opener, "replay-from-file-end")

    broken = json.loads(record.read_text())
    broken["actions"].pop(2)
    record.write_text(json.dumps(broken))
    opener.goto("/replay")
    opener.get_by_label("Record file").set_input_files(str(record))
    opener.get_by_role("button", name="Verify and replay").click()
    expect(opener.locator("#record-problem")).to_contain_text("action 3 is missing or out of order")
    screenshots(opener, "replay-refused-file")

    reader = browser.new_context(base_url=live, locale="pt-PT").new_page()  # the reason in Portuguese
    reader.goto("/replay")
    reader.locator("input[name=record]").set_input_files(str(record))
    reader.locator("form.stack button[type=submit]").click()
    expect(reader.locator("#record-problem")).to_contain_text("a ação 3 falta ou está fora de ordem")
    expect(reader.locator("#record-problem")).to_contain_text("Não verificado")
    screenshots(reader, "replay-refused-file-pt")


@pytest.mark.parametrize(
    "size", [{"width": 390, "height": 844}, {"width": 1366, "height": 768}], ids=["phone", "desktop"]
)
def test_stepping_keeps_the_table_where_the_reader_scrolled_it(browser, live, screenshots, size):
    """The step controls filled the top half of a phone's screen, above the table, and every
    step opened at the top of the page again: each Next meant scrolling down to see it, then up.
    On a phone the controls sit at the bottom of the screen (arrows, named for screen readers),
    and at any size a step opens where the reader was."""
    api = httpx.Client(base_url=live)
    room = finished_troika(api)
    page = browser.new_context(base_url=live, viewport=size).new_page()
    page.goto(f"/rooms/{room}/replay?step=5")
    at_step(page, 5)
    page.locator("#room-main").evaluate("e => window.scrollTo(0, e.getBoundingClientRect().top + scrollY)")
    before = page.evaluate("scrollY")
    assert before > 100
    for step in (6, 7):
        page.get_by_role("link", name="Next").click()
        at_step(page, step)
        assert abs(page.evaluate("scrollY") - before) < 5, "the step opened elsewhere on the page"
    controls = page.locator(".replay-controls").bounding_box()
    assert controls["y"] >= 0 and controls["y"] + controls["height"] <= size["height"], "the controls are in view"
    if size["width"] < 700:
        assert controls["y"] + controls["height"] > size["height"] - 2, "at the bottom of a phone's screen"
        assert controls["height"] < 70, controls
        table = page.locator("#room-main").bounding_box()
        assert table["y"] < 60, "the table starts at the top of the screen"
    screenshots(page, "replay-stepping")


def finished_triatri(api: httpx.Client) -> str:
    """A finished 2-player TriATri game played by random moves."""
    created = api.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"}).json()
    room, tokens = created["room"]["id"], [created["token"]]
    tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"])
    assert api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0])).status_code == 200
    rng = random.Random(1)
    while (view := api.get(f"/api/rooms/{room}/view").json())["status"] != "finished":
        seat = view["to_act"][0]
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
        action = rng.choice([a["action"] for a in legal["legal_actions"]])
        body = {"version": legal["version"], "action": action}
        assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body).status_code == 200
    return room


def test_a_portuguese_replay_fits_a_small_phone_and_keeps_its_controls_on_screen(browser, live):
    """The viewpoint menu, as wide as its longest Portuguese option, and a TriATri player's
    heading ("Bruno 0 pontos", "você", "a comprometer" on one line) made a phone's page wider
    than its screen: the phone then laid the page out wider, and the bar fixed to its bottom
    left the screen."""
    api = httpx.Client(base_url=live)
    rooms = [finished_troika(api), finished_triatri(api)]
    for width in (360, 390):
        context = browser.new_context(
            base_url=live, locale="pt-PT", viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True
        )
        page = context.new_page()
        for room, step, shown in [(rooms[0], 0, "spectator"), (rooms[0], 9, "everyone"), (rooms[1], 0, "1")]:
            page.goto(f"/rooms/{room}/replay?step={step}&as={shown}")
            at_step(page, step)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (width, room, step)
            bar = page.locator(".replay-controls").bounding_box()
            assert bar["y"] + bar["height"] <= 740 + 1, (width, room, step, bar)
        context.close()
