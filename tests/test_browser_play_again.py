"""A real browser: at the end of a game, "Play again" takes each player to their own seat in a
new room (same game, seats, names and bots); the others' finished pages learn of the next game
live, with its public link only, and join it with one click."""

from __future__ import annotations

import random
import re
import time

import httpx
import pytest
from playwright.sync_api import expect

from app.i18n import COOKIE
from tests.support.servers import free_port, server_process


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def fast_bots(sqlite_url):
    with server_process(sqlite_url, free_port(), BOT_DELAY_SECONDS="0", BOT_BUDGET_SECONDS="0.02") as (_, base):
        yield base


def finished_troika(api: httpx.Client) -> tuple[str, list[str]]:
    """A finished 3-seat Troika game of Ana (host), Bruno and a random bot, played by the API."""
    created = api.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"}).json()
    room, tokens = created["room"]["id"], [created["token"]]
    tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"])
    api.post(f"/api/rooms/{room}/seats", json={"bot": "random"}, headers=auth(tokens[0]))
    assert api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0])).status_code == 200
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = api.get(f"/api/rooms/{room}/view").json()
        if view["status"] == "finished":
            return room, tokens
        humans = [seat for seat in view["to_act"] if seat < 2]
        if not humans:
            time.sleep(0.02)
            continue
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[humans[0]])).json()
        action = rng.choice([a["action"] for a in legal["legal_actions"]])
        api.post(
            f"/api/rooms/{room}/actions",
            headers=auth(tokens[humans[0]]),
            json={"version": legal["version"], "action": action},
        )
    raise AssertionError("the game did not finish")


def test_players_play_again_each_to_their_own_seat(browser, fast_bots, screenshots):
    api = httpx.Client(base_url=fast_bots)
    room, (ana_token, bruno_token) = finished_troika(api)
    ana = browser.new_context(base_url=fast_bots).new_page()
    bruno = browser.new_context(base_url=fast_bots).new_page()
    ana.goto(f"/rooms/{room}/seat/{ana_token}")
    bruno.goto(f"/rooms/{room}/seat/{bruno_token}")
    expect(bruno.locator("#connection")).to_have_attribute("data-state", "live")
    expect(ana.locator("#play-again")).to_contain_text("same game, options, seats, names and bots")
    screenshots(ana, "play-again-offer")

    ana.get_by_role("button", name="Play again").click()
    expect(ana.locator("#table-state")).to_have_attribute("data-status", "open")
    expect(ana.locator("#held-seats")).to_be_visible()
    # Until when, in the reader's own time (as chat lines are), not the server's UTC; and for whom.
    expect(ana.locator("#held-seats time")).to_have_attribute("data-local", "1")
    expect(ana.locator("#held-seats time")).not_to_contain_text("UTC")
    expect(ana.locator(".seat-list")).to_contain_text("held for Bruno")
    expect(ana.locator(".seat-list")).to_contain_text("Ana")
    expect(ana.locator(".seat-list")).to_contain_text("Random bot")
    next_room = ana.url.split("/rooms/")[1].split("/")[0]
    assert next_room != room and "/seat/" in ana.url
    # A Portuguese page in an American browser says the time as the page's language does: 24 hours
    carla = browser.new_context(base_url=fast_bots, locale="en-US")
    carla.add_cookies([{"name": COOKIE, "value": "pt-PT", "url": fast_bots}])
    spectator = carla.new_page()
    spectator.goto(f"/rooms/{next_room}")
    expect(spectator.locator("#held-seats time")).to_have_attribute("data-local", "1")
    expect(spectator.locator("#held-seats time")).to_have_text(re.compile(r"^\d\d:\d\d$"))
    screenshots(ana, "play-again-next-room")

    # Bruno's finished page learns of the next game live: its public link, never Ana's seat link.
    expect(bruno.locator("#next-room")).to_have_attribute("href", f"/rooms/{next_room}")
    expect(bruno.locator("#play-again p").last).to_have_text(f"The next game: Room {next_room}")  # (not a raw path)
    assert ana.url.split("/seat/")[1] not in bruno.content()
    screenshots(bruno, "play-again-join")
    bruno.get_by_role("button", name="Go to the next game").click()
    expect(bruno.locator(".seat-list li.you")).to_contain_text("Bruno")
    expect(ana.locator(".seat-list")).to_contain_text("Bruno")  # pushed to Ana's waiting room
    ana.get_by_role("button", name="Start the game").click()
    expect(bruno.locator("#table-state")).to_have_attribute("data-status", "playing")
