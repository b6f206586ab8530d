"""A real browser: a room created with the lobby form's "Unlisted" box stays out of the lobby
(its invite link still finds it), and the lobby lists the listed games in play to watch,
keeping a keyboard's focus through its refreshes."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect


def test_unlisted_rooms_stay_out_of_the_lobby_and_games_in_play_can_be_watched(browser, live, screenshots):
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Rita"}).json()
    playing = created["room"]["id"]
    api.post(f"/api/rooms/{playing}/seats", json={"name": "Sara"})
    api.post(f"/api/rooms/{playing}/start", headers={"Authorization": f"Bearer {created['token']}"})

    host = browser.new_context(base_url=live).new_page()
    host.goto("/")
    form = host.locator("form[action='/rooms']").filter(has=host.locator("input[value='troika']"))
    form.get_by_label("Your name").fill("Ana")
    form.get_by_label("Unlisted").check()
    form.get_by_role("button", name="Create Troika room").click()
    expect(host.locator("#table-state")).to_have_attribute("data-status", "open")
    expect(host.locator(".room-head")).to_contain_text("unlisted")
    # The page as served is the room before the join, and only the host's socket brings the
    # join. Once in a full CI run the seat list still read "free seat" after 5 s (never alone,
    # not reproduced here): the socket still connecting on a loaded machine, or reconnecting
    # with backoff. So the friend joins only once the socket is live, and the join may take
    # as long as a reconnect to arrive.
    expect(host.locator("#connection")).to_have_attribute("data-state", "live", timeout=15_000)
    invite = host.locator("#invite-link").input_value()
    secret = invite.rstrip("/").rsplit("/", 1)[1]

    stranger = browser.new_context(base_url=live).new_page()
    stranger.goto("/")
    expect(stranger.locator("#playing-rooms")).to_contain_text("Rita, Sara")
    assert secret not in stranger.content()
    screenshots(stranger, "lobby-games-in-play")
    # The list is refreshed every 5 s: a keyboard's focus on a link stays on it, and each link
    # names its room (it was "Watch" alone, and the focus fell to the page's body)
    watch = stranger.locator("#playing-rooms").get_by_role("link", name="Watch TriATri (Rita, Sara)")
    watch.focus()
    refreshed = "() => new Promise(r => document.body.addEventListener('htmx:afterSwap', r, {once: true}))"
    stranger.evaluate(refreshed)
    expect(watch).to_be_focused()
    stranger.keyboard.press("Enter")
    expect(stranger.locator(".notice")).to_contain_text("spectator")

    friend = browser.new_context(base_url=live).new_page()
    friend.goto(invite)
    friend.get_by_label("Your name").fill("Bruno")
    friend.get_by_role("button", name="Take a seat").click()
    expect(host.locator(".seat-list")).to_contain_text("Bruno", timeout=15_000)


def test_opening_one_games_form_closes_the_others(browser, live):
    """Opening Vem aí's form left Troika's open above it: two forms on the screen, and the page
    long on a phone (a player's probe, 2026-12-07). The games' forms are one accordion."""
    page = browser.new_context(base_url=live, viewport={"width": 390, "height": 844}).new_page()
    page.goto("/")
    choices = page.locator("details.game-choice")
    assert choices.count() >= 3
    expect(choices.nth(0)).to_have_attribute("open", "")
    choices.nth(2).locator("summary").click()
    expect(choices.nth(2)).to_have_attribute("open", "")
    expect(page.locator("details.game-choice[open]")).to_have_count(1)
