"""Motion in Chromium (issue 25, point 6): a card that moves travels from where it was to where
it lands, in at most 300 ms, and nothing moves under prefers-reduced-motion. TriATri's card is
played from the hand into the trick, Vem aí's is placed from the hand on
the player's own board, each by clicking it on the page at desktop size.

Every animation a piece (``.tile``, ``.tt-card``, ``.vem-card``) is given is recorded as it is
made (``Element.animate`` wrapped before the page's scripts run); once the move's frame is in,
each recorded glide is paused at its start and its on-screen box measured, then finished and
measured again: the played card's glide must start where the card stood in the hand as the
frame came (within 3 px, its size too), pass between, and end where it now lies. A mid-glide screenshot is kept
(``browser_games.SCREENSHOTS``)."""

from __future__ import annotations

import random

import httpx
import pytest
from playwright.sync_api import Page

from tests.support.browser_games import DESKTOP, auth, screenshot, started_room, wait_for_version

RECORD = """
window.__glides = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  const run = animate.call(this, keyframes, options);
  if (this.matches(".tile, .tt-card, .vem-card")) window.__glides.push({ el: this, run: run });
  return run;
};
// The watched card's box as the move's frame comes in, just before it is swapped in.
document.addEventListener("htmx:wsBeforeMessage", () => {
  const card = window.__watched && document.querySelector(window.__watched);
  if (card && !window.__before) {
    const r = card.getBoundingClientRect();
    window.__before = [r.left, r.top, r.width, r.height];
  }
});
"""

# Each glide of a piece matching `selector` (the played card where it now lies): its box at the
# glide's start, at its middle and at rest, its duration, and what the page still animates.
MEASURED = """(selector) => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  return window.__glides.filter(g => g.el.matches(selector)).map(g => {
    const duration = g.run.effect.getComputedTiming().duration;
    g.run.pause();
    g.run.currentTime = 0;
    const start = box(g.el);
    g.run.currentTime = duration / 2;
    const middle = box(g.el);
    g.run.finish();
    return { start: start, middle: middle, end: box(g.el), duration: duration };
  });
}"""

# The data-key of the hand's card whose button makes the move on card `id`.
OF_MOVE = """(id) => [...document.querySelectorAll("#your-hand form.act")]
  .find(f => JSON.parse(f.querySelector("input[name=action]").value).card === id)
  .querySelector(".tt-card").dataset.key"""

BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }"


def near(a: list[float], b: list[float], tolerance: float = 3) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def page_at(browser, live: str, path: str, motion: str) -> Page:
    """The seat's page at desktop size with ``motion`` preferred, its pieces' animations recorded."""
    context = browser.new_context(base_url=live, viewport=DESKTOP, reduced_motion=motion)
    page = context.new_page()
    page.add_init_script(RECORD)
    page.goto(path)
    page.locator('#connection[data-state="live"]').wait_for()
    return page


def play_until(api: httpx.Client, room: str, tokens: list[str], wanted, seed: int) -> dict:
    """Random legal moves through the API until seat 0 may make a move ``wanted`` accepts; that move."""
    rng = random.Random(seed)
    for _ in range(400):
        view = api.get(f"/api/rooms/{room}/view").json()
        assert view["status"] == "playing"
        if 0 in view["to_act"]:
            legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[0])).json()["legal_actions"]
            found = [item["action"] for item in legal if wanted(item["action"])]
            if found:
                return found[0]
        seat = rng.choice(view["to_act"])
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
        if not legal["legal_actions"]:
            continue
        body = {"version": legal["version"], "action": rng.choice(legal["legal_actions"])["action"]}
        assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body).status_code == 200
    raise AssertionError("seat 0 never came to the move")


def played(page: Page, card: str, button: str, landed: str, name: str) -> list[dict]:
    """Click ``button`` (the move of the hand's ``card``) once the card stands still under the
    pointer; the card's glides where it ``landed``, measured, with its box as the frame came."""
    page.hover(button)
    page.wait_for_timeout(300)  # (a hovered card lifts, in 0.12 s)
    version = int(page.locator("#table-state").get_attribute("data-version"))
    page.evaluate("(card) => { window.__glides = []; window.__watched = card; window.__before = null; }", card)
    page.click(button)
    wait_for_version(page, version + 1)
    page.evaluate(
        """(selector) => window.__glides.filter(g => g.el.matches(selector)).forEach(g => {
             g.run.pause(); g.run.currentTime = g.run.effect.getComputedTiming().duration / 2; })""",
        landed,
    )
    screenshot(page, name, full_page=True)  # (the card half way, if it glides)
    glides = page.evaluate(MEASURED, landed)
    before = page.evaluate("() => window.__before")
    assert before is not None
    return [{**g, "before": before, "after": page.locator(landed).evaluate(BOX)} for g in glides]


def check_glide(glides: list[dict], motion: str, page: Page) -> None:
    if motion == "reduce":
        assert glides == []
        assert page.evaluate("() => window.__glides.length") == 0  # nothing on the table moved
        assert page.evaluate("() => document.querySelectorAll('.moving').length") == 0
        return
    assert len(glides) == 1, glides
    g = glides[0]
    assert 0 < g["duration"] <= 300
    assert near(g["start"], g["before"]), g  # it sets off from the hand, at the hand's size
    assert near(g["end"], g["after"]), g  # and comes to rest where it lies now
    assert not near(g["start"], g["end"], 20), g  # (it did travel)
    assert not near(g["middle"], g["start"], 5) and not near(g["middle"], g["end"], 5), g  # through the way between


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_triatri_card_played_from_the_hand_glides_into_the_trick(browser, live, motion):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "triatri", 3)
    action = play_until(api, room, tokens, lambda a: a["type"] == "play", seed=3)
    page = page_at(browser, live, f"/rooms/{room}/seat/{tokens[0]}", motion)
    key = page.evaluate(OF_MOVE, action["card"])
    button = f'#your-hand button.card-button:has(.tt-card[data-key="{key}"])'
    landed = f'#room-main .felt .tt-card[data-key="{key}"]:not(#your-hand *)'
    glides = played(page, f'#your-hand .tt-card[data-key="{key}"]', button, landed, f"motion-triatri-{motion}")
    assert page.locator(landed).count() == 1 and page.locator(f'#your-hand [data-key="{key}"]').count() == 0
    check_glide(glides, motion, page)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_vem_card_placed_from_the_hand_glides_onto_the_own_board(browser, live, motion):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "vem-ai-a-troika", 3)
    action = play_until(api, room, tokens, lambda a: a["type"] == "place" and set(a) == {"type", "card"}, seed=5)
    page = page_at(browser, live, f"/rooms/{room}/seat/{tokens[0]}", motion)
    # by data-key: a Group card and a Leader may have the same data-id (each kind numbers its own)
    key = f"group:{action['card']}"
    card = f'#your-hand .vem-card[data-key="{key}"]'
    button = f'#your-hand .hand-card:has(.vem-card[data-key="{key}"]) .card-moves form:first-child button'
    landed = f'#player-0 .vem-card[data-key="{key}"]'
    glides = played(page, card, button, landed, f"motion-vem-{motion}")
    assert page.locator(landed).count() == 1 and page.locator(card).count() == 0
    check_glide(glides, motion, page)
