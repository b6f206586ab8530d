"""A page left scrolled away from the table is brought back to what the player needs
(static/js/inview.js), in Chromium at 1366x768 and 390x844: kept at the bottom of the page while
the game is played, the seat's page shows one of its moves on the table each time its turn comes, and the game's
final result when it ends."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.browser_games import PHONE, random_moves, screenshot, started_room, wait_for_version

# Whether one of the seat's moves on the table, outside the sticky status bar, is on screen
# below that bar, if it has any there (the sticky bar's own moves are always on screen).
A_MOVE_IN_VIEW = """() => {
  const top = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--sticky-h")) || 0;
  const moves = [...document.querySelectorAll("#room-main .felt button:not([disabled]), #room-main .felt label.pick")]
    .filter(m => !m.closest(".table-status") && m.checkVisibility());
  const shown = m => { const r = m.getBoundingClientRect(); return r.bottom > top && r.top < innerHeight; };
  return !moves.length || moves.some(shown);
}"""
# Whether the final result's heading is on screen, below the room's sticky bar.
HEADING_IN_VIEW = """() => {
  const heading = document.querySelector("#final-result h2");
  if (!heading) return false;
  const r = heading.getBoundingClientRect(), bar = document.querySelector("#room-bar").getBoundingClientRect();
  return r.top >= bar.bottom - 1 && r.bottom <= innerHeight;
}"""
DESKTOP = {"width": 1366, "height": 768}
TO_THE_BOTTOM = "scrollTo(0, document.documentElement.scrollHeight)"


def followed(browser, live: str, path: str, size: dict) -> Page:
    """The page at ``path``, live, its scrolls instant (reduced motion: no glide to wait for)."""
    page = browser.new_context(base_url=live, viewport=size, reduced_motion="reduce").new_page()
    page.goto(path)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    return page


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", ["troika", "triatri"])
def test_a_page_left_at_its_bottom_is_brought_to_each_turn_and_to_the_result(browser, live, game, size):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, game, 2)
    page = followed(browser, live, f"/rooms/{room}/seat/{tokens[0]}", size)
    turns, mine = 0, page.locator("#table-state").get_attribute("data-your-turn") == "1"
    page.evaluate(TO_THE_BOTTOM)
    for version in random_moves(api, room, tokens, seed=3):
        wait_for_version(page, version)
        state = page.locator("#table-state")
        if state.get_attribute("data-status") != "playing":
            break
        came, mine = (
            not mine and state.get_attribute("data-your-turn") == "1",
            state.get_attribute("data-your-turn") == "1",
        )
        if came:  # (the turn came now: a turn the player scrolled away from in the middle is theirs)
            turns += 1
            page.wait_for_function(A_MOVE_IN_VIEW, timeout=3000)  # (the page scrolls once the push settles)
        page.evaluate(TO_THE_BOTTOM)
    page.wait_for_function(HEADING_IN_VIEW, timeout=3000)
    screenshot(page, f"inview-end-{game}")
    assert turns > 5
