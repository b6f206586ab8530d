"""Noticing what others did, in a real browser: what changed since the player last looked is
highlighted in every game (a tile turned up, then taken; TriATri's cards played and gems
taken; Vem aí's cards moved), and stays so after a reload, with a transition that
prefers-reduced-motion turns off; the tab
title says "Your turn"; the sound and the browser notification are off by default and, once
turned on, come when the turn does."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.browser_games import (
    DESKTOP,
    PHONE,
    auth,
    random_moves,
    screenshot,
    seat_page,
    started_room,
    wait_for_version,
)

# Record notifications and sounds instead of making them, and let the test hide the tab.
FAKES = """
window.__notified = []; window.__beeps = 0; window.__hidden = false;
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
window.Notification = function (title, options) { window.__notified.push([title, options.body]); };
window.Notification.permission = "granted";
window.Notification.requestPermission = () => Promise.resolve("granted");
window.AudioContext = function () {
  const node = () => ({ connect: n => n, start() { window.__beeps += 1; }, stop() {}, frequency: {},
    gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } });
  return { currentTime: 0, destination: {}, createOscillator: node, createGain: node };
};
"""


def fresh(page: Page, area: str) -> list[str]:
    return page.locator(f"{area} .fresh").all_inner_texts()


def move(api: httpx.Client, room: str, token: str, action: dict) -> int:
    version = api.get(f"/api/rooms/{room}/view").json()["version"]
    answer = api.post(f"/api/rooms/{room}/actions", headers=auth(token), json={"version": version, "action": action})
    assert answer.status_code == 200, answer.text
    return answer.json()["version"]


@pytest.mark.parametrize("size, motion", [(DESKTOP, "no-preference"), (PHONE, "reduce")])
def test_troika_highlights_a_tile_turned_up_then_taken_and_says_your_turn(browser, live, size, motion):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    mover = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    other = 1 - mover
    context = browser.new_context(base_url=live, viewport=size, reduced_motion=motion)
    context.add_init_script(FAKES)
    page = context.new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[other]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    assert "Your turn" not in page.title()
    # Sound and notification: off by default, then turned on (kept on this device).
    boxes = page.locator("[data-alert]")
    assert [boxes.nth(i).is_checked() for i in range(2)] == [False, False]
    page.locator("[data-alert=sound]").check()
    page.locator("[data-alert=notify]").check()
    page.reload()
    expect(page.locator("[data-alert=notify]")).to_be_checked()
    before = page.locator("#table-up .tile").all_inner_texts()
    version = move(api, room, tokens[mover], {"type": "reveal", "tile": "unknown"})
    wait_for_version(page, version)
    up = page.locator("#table-up .tile").all_inner_texts()
    assert len(fresh(page, "#table-up")) == 1 and sorted(before + fresh(page, "#table-up")) == sorted(up)
    turned = fresh(page, "#table-up")[0]
    animation = page.locator("#table-up .fresh").evaluate("e => getComputedStyle(e).animationName")
    assert animation == ("none" if motion == "reduce" else "arena-fresh")
    if motion == "reduce":  # nothing on the page moves at all (no pop, pulse or transition)
        assert page.evaluate("document.getAnimations().length") == 0
    screenshot(page, f"noticing-turned-up-{motion}")
    page.evaluate("window.__hidden = true")  # the player looks away; the turn comes
    version = move(api, room, tokens[mover], {"type": "take_up", "value": int(turned)})
    wait_for_version(page, version)
    assert turned in fresh(page, f"#player-{mover}"), "the tile taken shows where it went"
    assert fresh(page, "#table-up") == []
    expect(page).to_have_title(f"Your turn · {page.title().split(' · ', 1)[1]}")
    assert page.evaluate("window.__beeps") == 1
    notified = page.evaluate("window.__notified")
    assert len(notified) == 1 and notified[0][0] == "Your turn" and "Your turn" in notified[0][1]
    screenshot(page, f"noticing-your-turn-{motion}")


@pytest.mark.parametrize("game, area", [("triatri", "#room-main .felt"), ("vem-ai-a-troika", "#room-main .felt")])
def test_every_game_highlights_what_each_move_changed(browser, live, game, area):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, game, 2)
    page = browser.new_context(base_url=live, viewport=DESKTOP).new_page()
    page.goto(f"/rooms/{room}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    moves = highlighted = 0
    for version in random_moves(api, room, tokens, seed=4, limit=40):
        wait_for_version(page, version)
        moves += 1
        highlighted += page.locator(f"{area} .fresh").count() > 0
    # a random deal can end the game sooner (a 2-player TriATri: 13 games in 300 under 40 moves)
    ended = api.get(f"/api/rooms/{room}/view").json()["status"] != "playing"
    assert (moves == 40 or ended) and moves >= 20 and highlighted >= moves - 4, (moves, highlighted)
    screenshot(page, f"noticing-{game}")


@pytest.mark.parametrize("size", [DESKTOP, PHONE])
def test_a_reload_keeps_the_highlights_of_the_last_change(browser, live, size, screenshots):
    """What the last move changed stays highlighted after the player reloads the page (the
    reference is kept for the tab), and the socket's first push after the reload keeps it."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "troika", 2)
    mover = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    page = seat_page(browser, live, f"/rooms/{room}/seat/{tokens[1 - mover]}", size)
    version = move(api, room, tokens[mover], {"type": "reveal", "tile": "unknown"})
    wait_for_version(page, version)
    turned = fresh(page, "#table-up")
    assert len(turned) == 1
    page.reload()
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    wait_for_version(page, version)
    assert fresh(page, "#table-up") == turned, "the tile turned up is still highlighted"
    shots = screenshots(page, "noticing-after-reload")
    version = move(api, room, tokens[mover], {"type": "take_up", "value": int(turned[0])})
    wait_for_version(page, version)
    assert fresh(page, "#table-up") == [] and turned[0] in fresh(page, f"#player-{mover}")
    assert all(path.exists() for path in shots)
