"""Helpers for browser tests that look at games in every phase: start a room through the REST
API and play it with seeded random legal moves, yielding after each one so a page following
the room can be checked at that version; and screenshots, kept in SCREENSHOT_DIR (by default
troika-screenshots in the temporary folder) for a person to look at."""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def started_room(
    api: httpx.Client, game: str, seats: int, names: tuple[str, ...] = (), options: dict | None = None
) -> tuple[str, list[str]]:
    """A started room of ``game`` with ``seats`` players (and ``options``); its id and every
    seat's token."""
    names = names or ("Ana", "Bruno", "Carla", "Duarte")[:seats]
    created = api.post("/api/rooms", json={"game": game, "seats": seats, "name": names[0], "options": options or {}})
    assert created.status_code == 201, created.text
    room, tokens = created.json()["room"]["id"], [created.json()["token"]]
    for name in names[1:]:
        tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": name}).json()["token"])
    assert api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0])).status_code == 200
    return room, tokens


def random_moves(api: httpx.Client, room: str, tokens: list[str], seed: int, limit: int = 600) -> Iterator[int]:
    """Play the room to its end with random legal moves (seeded), yielding the version after
    each move; stops after ``limit`` moves."""
    rng = random.Random(seed)
    for _ in range(limit):
        view = api.get(f"/api/rooms/{room}/view").json()
        if view["status"] != "playing":
            return
        # (a Vem aí reaction window shows its seats awaited to the others, answered or not: the
        # mover is one that may still act)
        for seat in rng.sample(view["to_act"], len(view["to_act"])):
            legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
            if legal["legal_actions"]:
                break
        action = rng.choice(legal["legal_actions"])["action"]
        answer = api.post(
            f"/api/rooms/{room}/actions",
            headers=auth(tokens[seat]),
            json={"version": legal["version"], "action": action},
        )
        assert answer.status_code == 200, answer.text
        yield answer.json()["version"]


def seat_page(browser, live: str, path: str, size: dict) -> Page:
    """A new browser context's page at ``path``, once its socket is live."""
    page = browser.new_context(base_url=live, viewport=size).new_page()
    page.goto(path)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    return page


def wait_for_version(page: Page, version: int) -> None:
    """A DOM wait for the page to show this version (quicker than expect's polling backoff)."""
    page.locator(f'#table-state[data-version="{version}"]').wait_for(state="attached", timeout=10_000)


DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR") or Path(tempfile.gettempdir()) / "troika-screenshots")


def screenshot(page: Page, name: str, full_page: bool = False) -> Path:
    """Save the page (its viewport, or all of it) as ``<name>-<width>.png``; the path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}-{page.viewport_size['width']}.png"
    page.screenshot(path=path, full_page=full_page)
    return path


RULES_PAGES = ["/rules", "/rules/troika", "/rules/triatri", "/rules/vem-ai-a-troika", "/rules/vem-ai-a-troika/cards"]


def every_page(room_id: str, token: str) -> list[str]:
    """The paths of every kind of page outside a game's phases: the lobby, the rules pages, a
    room's invite and seat pages, a missing room's page and a room's log."""
    room = f"/rooms/{room_id}"
    return ["/", *RULES_PAGES, room, f"{room}/seat/{token}", "/rooms/no-such-room", f"{room}/log"]


# Jumps every animation that ends (a gliding card, a highlight) to its end, so what is measured
# or checked is the page at rest. Waiting on their promises instead once hung a CI run for 600 s:
# an animation that is never advanced (a paused one, a page Chromium stops painting) never
# settles. TriATri's pulse of the awaited slot loops, and is left as it is.
FINITE_ANIMATIONS_ENDED = """() => {
  document.getAnimations()
    .filter(a => a.effect && a.effect.getTiming().iterations !== Infinity)
    .forEach(a => { try { a.finish(); } catch (e) { /* an animation with no end */ } });
  // Their finish events are sent at the next frame; a page that paints none is waited 0.5 s.
  return new Promise(done => { requestAnimationFrame(() => done(true)); setTimeout(() => done(true), 500); });
}"""
