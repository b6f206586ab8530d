"""A real browser closes a room (issue 28, point 6): the lobby shows a full waiting room as
"full", the host opens the folded "Close this room…" and closes it, and the guest's open page is
told why at once; during play the host closes the game the same way and the guest's table says
the game was closed, awaiting no one, with its replay. Desktop (1366x768) and phone (390x844)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.support.browser_games import seat_page

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("size", SIZES)
def test_the_host_closes_a_room_and_a_game_and_the_guest_is_told_why(browser, live, size, tmp_path):
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}).json()
    room, host = created["room"]["id"], created["token"]
    guest = api.post(f"/api/rooms/{room}/seats", json={"name": "Bo"}).json()["token"]

    lobby = browser.new_context(base_url=live, viewport=SIZES[size]).new_page()
    lobby.goto("/")
    row = lobby.locator("#waiting-rooms li", has_text="Ana")
    expect(row.locator(".badge.full")).to_have_text("full")
    expect(row.get_by_role("link", name="Join")).to_have_count(0)

    host_page = seat_page(browser, live, f"/rooms/{room}/seat/{host}", SIZES[size])
    guest_page = seat_page(browser, live, f"/rooms/{room}/seat/{guest}", SIZES[size])
    expect(guest_page.locator("#close-room")).to_have_count(0)  # the host's alone
    close = host_page.get_by_role("button", name="Close the room")
    expect(close).to_be_hidden()  # folded: one click does not close it
    host_page.locator("#close-room > summary").click()
    close.click()
    expect(guest_page.locator("#closed-note")).to_have_text("The host closed this room.")
    expect(guest_page.locator("#room-main")).to_have_attribute("data-status", "closed")
    guest_page.screenshot(path=str(tmp_path / f"closed-room-{size}.png"), full_page=True)
    lobby.reload()
    expect(lobby.locator("#waiting-rooms li", has_text="Ana")).to_have_count(0)

    created = api.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}).json()
    room, host = created["room"]["id"], created["token"]
    guest = api.post(f"/api/rooms/{room}/seats", json={"name": "Bo"}).json()["token"]
    api.post(f"/api/rooms/{room}/start", headers=auth(host))
    host_page = seat_page(browser, live, f"/rooms/{room}/seat/{host}", SIZES[size])
    guest_page = seat_page(browser, live, f"/rooms/{room}/seat/{guest}", SIZES[size])
    host_page.locator("#close-room > summary").click()
    host_page.get_by_role("button", name="Close the game").click()
    note = guest_page.locator("#closed-note")
    expect(note).to_contain_text("The host closed this game before its end.")
    expect(guest_page.locator("#room-main")).to_have_attribute("data-status", "abandoned")
    expect(guest_page.locator(".status-line")).to_be_hidden()  # no "Your turn" on a closed game
    expect(guest_page.locator("#replay-link")).to_be_visible()
    guest_page.screenshot(path=str(tmp_path / f"abandoned-game-{size}.png"), full_page=True)
