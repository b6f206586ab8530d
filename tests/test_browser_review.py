"""A real browser opens a finished game's review on its replay (issue 29, point 4): at a laptop's
1366x768 and a phone's 390x844, the marked moves, the step's sentence and the slider's ticks are
shown and fit; a review being made shows its progress, and the page reloads with the result
once it is ready."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.support.accessibility import serious_violations
from tests.support.browser_games import auth
from tests.support.servers import free_port, server_process

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}


@pytest.fixture
def reviewing(sqlite_url):
    """A live server whose reviews spend 8 rollouts a decision; yields its URL and database file."""
    with server_process(sqlite_url, free_port(), REVIEW_ROLLOUTS="8") as (_, base):
        yield base, sqlite_url.removeprefix("sqlite:///")


def finished_triatri(api: httpx.Client) -> tuple[str, list[str]]:
    """A finished 2-player TriATri game, each seat playing its first legal action."""
    created = api.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"}).json()
    room, tokens = created["room"]["id"], [created["token"]]
    tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"])
    assert api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0])).status_code == 200
    for turn in range(400):
        view = api.get(f"/api/rooms/{room}/view").json()
        if view["status"] == "finished":
            return room, tokens
        seat = view["to_act"][0]
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
        moves = legal["legal_actions"]
        action = moves[turn % len(moves)]["action"]
        api.post(
            f"/api/rooms/{room}/actions",
            headers=auth(tokens[seat]),
            json={"version": legal["version"], "action": action},
        )
    raise AssertionError("the game did not finish")


def shoot(page: Page, name: str) -> list[Path]:
    """Full-page screenshots at both sizes, each checked: nothing to scroll sideways, the review
    inside the page, and no serious or critical accessibility violation (axe-core)."""
    folder = Path(os.environ.get("SCREENSHOT_DIR") or "/tmp")
    paths = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => done(true)))")
        path = folder / f"{name}-{size}.png"
        page.screenshot(path=str(path), full_page=True, caret="initial")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (size, "scrolls sideways")
        # read in one script run: a review in progress replaces its section every 2 s, and a
        # locator's box read between finding it and measuring it found none (CI, once)
        review = page.evaluate(
            "() => { const box = document.querySelector('#replay-review')?.getBoundingClientRect();"
            " return box ? {x: box.left, width: box.width} : null; }"
        )
        assert review is not None and review["x"] >= 0 and review["x"] + review["width"] <= width, size
        assert serious_violations(page) == [], size
        paths.append(path)
    return paths


def test_a_finished_games_review_on_its_replay_at_laptop_and_phone_sizes(browser, reviewing):
    base, database = reviewing
    api = httpx.Client(base_url=base)
    room, tokens = finished_triatri(api)
    page = browser.new_context(base_url=base).new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))

    # a review being made: its progress, then the page reloads with the result
    with sqlite3.connect(database) as db:
        db.execute(
            "INSERT INTO reviews (room_id, seat, status, done, total, moves, requested_at, updated_at) "
            "VALUES (?, 1, 'running', 3, 10, '[]', datetime('now'), datetime('now'))",
            (room,),
        )
    page.goto(f"/rooms/{room}/replay?step=4&as=1")
    expect(page.locator("#review-progress progress")).to_have_attribute("value", "3")
    expect(page.locator("#review-progress")).to_contain_text("3 of 10 decisions")
    shoot(page, "review-progress")
    with sqlite3.connect(database) as db:
        db.execute("UPDATE reviews SET status = 'ready', done = 10 WHERE room_id = ?", (room,))
    expect(page.locator("#replay-review")).to_contain_text("None of Bruno's moves cost anything", timeout=10_000)
    expect(page.locator("#review-progress")).to_have_count(0)

    # the seat's own review, asked for through the API and made by the expert bot
    assert api.post(f"/api/rooms/{room}/review", headers=auth(tokens[0])).status_code == 202
    for _ in range(600):
        review = api.get(f"/api/rooms/{room}/review?seat=0").json()
        if review["status"] == "ready":
            break
        page.wait_for_timeout(100)
    assert review["status"] == "ready" and review["moves"], json.dumps(review)
    first = review["moves"][0]
    page.goto(f"/rooms/{room}/replay?step={first['step']}&as=0")
    expect(page.locator("#review-here")).to_contain_text(f"Ana played “{first['played']['label']}”")
    expect(page.locator("#review-moves li")).to_have_count(len(review["moves"]))
    expect(page.locator("#review-moves li.current")).to_have_count(1)
    expect(page.locator("#review-marks option")).to_have_count(len(review["moves"]))
    shoot(page, "review-ready")
    page.locator("#review-moves li a").last.click()
    expect(page.locator("#room-main")).to_have_attribute("data-version", str(review["moves"][-1]["step"]))
    expect(page.locator("#review-here")).to_contain_text(review["moves"][-1]["preferred"]["label"])
    assert problems == []
