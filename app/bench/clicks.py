"""Click to update, in Chromium: ``troika-arena bench clicks``.

The arena runs on a fresh SQLite file with bots that move at once. A seat's page in Chromium
(Debian's, as the browser tests use it) plays Troika against a random bot, and a spectator's
page watches the same room. On each of the seat's turns one of its moves is clicked, picked at
random from the buttons the table offers, and two times are taken: until the seat's own page
shows the new version (its DOM updated, and the next frame painted), and until the
spectator's page does. A click travels over the page's live socket (``static/js/moves.js``);
with ``--post`` every click is a form post, as on a page without a live socket (the page cannot
open one, and it is loaded again before each click to see the bot's move). A finished
game is replaced by a new one. Medians and 95th percentiles are printed.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import httpx

from app.bench import servers

try:  # Playwright drives Chromium: the bench and test extras', not the runtime's (``missing``)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright
except ImportError:
    HAS_PLAYWRIGHT = False
else:
    HAS_PLAYWRIGHT = True

CHROMIUM = "/usr/bin/chromium"
# Clicks the chosen move and resolves once the page shows a newer version: the time until its
# DOM did, and until the next frame after that was painted (ms, from the click).
CLICK = """(index) => new Promise(done => {
  const state = () => document.getElementById("table-state");
  const before = +state().dataset.version;
  const watched = new MutationObserver(() => {
    const now = state();
    if (!now || +now.dataset.version <= before) return;
    watched.disconnect();
    const shown = performance.now() - start;
    requestAnimationFrame(() => done([shown, performance.now() - start, Date.now()]));
  });
  // the body, not #room-main: a new phase (a round ends, say) swaps #room-main whole
  watched.observe(document.body, {subtree: true, childList: true, attributes: true});
  const buttons = [...document.querySelectorAll(MOVES)].filter(b => b.offsetParent !== null);
  setTimeout(() => { watched.disconnect(); done([NaN, NaN, 0]); }, 10000);  // no answer: not counted
  const start = performance.now();
  window.clickedAt = Date.now();
  buttons[index % buttons.length].click();
})"""
MOVES = "#room-main form[hx-post$='/act'] button[type=submit]:not([disabled])"
# Notes in window.seenAt the wall-clock time at which the page shows a version after ``before``.
SEEN = """(before) => {
  window.seenAt = null;
  const check = () => {
    const now = document.getElementById("table-state");
    if (now && +now.dataset.version > before) { window.seenAt = Date.now(); return true; }
    return false;
  };
  if (check()) return;
  const watched = new MutationObserver(() => { if (check()) watched.disconnect(); });
  watched.observe(document.body, {subtree: true, childList: true, attributes: true});
}"""
SHOWN = (("own_page", "own page, DOM"), ("own_page_painted", "own page, painted"), ("other_page", "spectator's page"))
TURN = "#table-state[data-your-turn='1']"


def new_room(api: httpx.Client) -> tuple[str, str]:
    created = api.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Clicker"}).json()
    room, token = created["room"]["id"], created["token"]
    api.post(f"/api/rooms/{room}/seats", json={"bot": "random"}, headers={"Authorization": f"Bearer {token}"})
    assert api.post(f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    return room, token


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 1),
    }


def missing() -> str | None:
    """What the command lacks to run, in one line, or None: Playwright (the test and bench
    extras') and Debian's Chromium."""
    if not HAS_PLAYWRIGHT:
        return "Playwright is not installed: pip install -e '.[bench]'"
    if not Path(CHROMIUM).is_file():
        return f"there is no Chromium at {CHROMIUM}: apt-get install chromium"
    return None


def measure(base: str, clicks: int, post: bool, seed: int) -> dict[str, Any]:
    rng, api = random.Random(seed), httpx.Client(base_url=base, timeout=30)
    own: list[float] = []
    painted: list[float] = []
    others: list[float] = []
    lost = missed = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        seat_page = browser.new_context(base_url=base, viewport={"width": 1366, "height": 768}).new_page()
        watcher = browser.new_context(base_url=base, viewport={"width": 1366, "height": 768}).new_page()
        if post:  # a page that cannot open a socket: every click is a form post
            seat_page.add_init_script("window.WebSocket = function () { throw new Error('no sockets here'); };")
        room = ""
        while len(own) < clicks:
            if not room or api.get(f"/api/rooms/{room}").json()["status"] != "playing":
                room, token = new_room(api)
                seat_page.goto(f"/rooms/{room}/seat/{token}")
                watcher.goto(f"/rooms/{room}")
            elif post:  # a page without a live socket sees the bot's move when it is loaded again
                seat_page.reload()
            try:
                seat_page.locator(TURN).wait_for(state="attached", timeout=10_000)
            except Exception:  # the game ended on the bot's move
                room = ""
                continue
            before = int(seat_page.locator("#table-state").get_attribute("data-version") or 0)
            watcher.locator(f'#table-state[data-version="{before}"]').wait_for(state="attached", timeout=10_000)
            watcher.evaluate(SEEN, before)
            shown, frame, _ = seat_page.evaluate(CLICK.replace("MOVES", json.dumps(MOVES)), rng.randrange(1000))
            if shown != shown:  # NaN: the page showed no new version within 10 s
                lost += 1
                room = ""
                continue
            try:
                watcher.wait_for_function("() => window.seenAt !== null", timeout=10_000)
                others.append(watcher.evaluate("() => window.seenAt") - seat_page.evaluate("() => window.clickedAt"))
            except PlaywrightTimeout:  # the spectator's page missed it: counted, and loaded again
                missed += 1
                watcher.reload()
            own.append(shown)
            painted.append(frame)
        browser.close()
    return {
        "clicks": len(own),
        "path": "form post" if post else "socket",
        "unanswered": lost,
        "missed_by_spectator": missed,
        "own_page": quantiles(own),
        "own_page_painted": quantiles(painted),
        "other_page": quantiles(others),
    }


def run(clicks: int, post: bool, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-clicks-") as folder:
        url = f"sqlite:///{Path(folder) / 'arena.db'}"
        env = {"DATABASE_URL": url, "BOT_DELAY_SECONDS": "0", "ROOM_CREATION_LIMIT": "1000000/minute"}
        with servers.process(servers.ARENA, env) as server:
            return measure(server.base, clicks, post, seed)


def render(result: dict[str, Any]) -> str:
    lines = [f"Click to update in Chromium, {result['clicks']} clicks over the {result['path']}:"]
    shown = (
        ("own_page", "own page, DOM"),
        ("own_page_painted", "own page, painted"),
        ("other_page", "spectator's page"),
    )
    for key, title in shown:
        figures = result[key]
        lines.append(f"  {title:<20} median {figures['median_ms']:>7.1f} ms   p95 {figures['p95_ms']:>7.1f} ms")
    return "\n".join(lines)
