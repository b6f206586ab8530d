"""A real browser under the pages' Content-Security-Policy: while players click moves, chat and
follow pushed updates in every game (and while Swagger UI draws /docs), Chromium reports no
CSP violation and no script error, and the pages are styled by their stylesheets."""

from __future__ import annotations

import httpx
from playwright.sync_api import BrowserContext, Page, expect

from app.games.registry import GAMES

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", e =>
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline")));
"""


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def watched_page(context: BrowserContext, problems: list[str]) -> Page:
    """A page that records CSP violations (DOM events and console reports) and script errors."""
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" or "Security Policy" in m.text else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__violations")


def started_room(api: httpx.Client, game: str) -> tuple[str, list[str]]:
    created = api.post("/api/rooms", json={"game": game, "seats": 2, "name": "Ana"}).json()
    room, tokens = created["room"]["id"], [created["token"]]
    tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"])
    assert api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0])).status_code == 200
    return room, tokens


def test_playing_chatting_and_following_pushes_report_no_csp_violation(browser, live):
    api = httpx.Client(base_url=live)
    problems: list[str] = []
    page = watched_page(browser.new_context(base_url=live), problems)

    # Troika: a move played by clicking, answered and pushed as fragments swapped in by htmx.
    room, tokens = started_room(api, "troika")
    mover = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    response = page.goto(f"/rooms/{room}/seat/{tokens[mover]}")
    assert "script-src 'self'; style-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    page.get_by_role("button", name="Turn one up").click()
    expect(page.locator("#table-state")).to_have_attribute("data-version", "1")
    # The chat box is cleared by arena.js (it was an inline hx-on handler) once the line is sent.
    page.get_by_label("Chat message").fill("good luck")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#chat-log")).to_contain_text("good luck")
    expect(page.get_by_label("Chat message")).to_have_value("")
    # An element the page's scripts styled (motion.js and the pointing do, through the CSSOM,
    # which the policy allows) is swapped by a push: htmx must not copy its style attribute over
    # (its default settle does, by setAttribute: a violation, seen on a new player's console).
    page.locator("#table-status").evaluate("e => { e.style.opacity = '0.99'; }")
    seat = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
    body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
    assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body).status_code == 200
    expect(page.locator("#table-state")).to_have_attribute("data-version", "2")
    assert violations(page) == []
    # The stylesheet applies: the top bar is laid out as a flex row.
    assert page.locator("header.topbar").evaluate("e => getComputedStyle(e).display") == "flex"
    assert violations(page) == []

    # Every other game: the seat page, then a move made elsewhere arrives as a push.
    for game in [slug for slug in GAMES if slug != "troika"]:
        room, tokens = started_room(api, game)
        page.goto(f"/rooms/{room}/seat/{tokens[0]}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        seat = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
        legal = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[seat])).json()
        body = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
        assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body).status_code == 200
        expect(page.locator("#table-state")).to_have_attribute("data-version", "1")
        assert violations(page) == [], game

    page.goto("/docs")
    # (Swagger UI builds its page from a 1 MB script and the whole document: slow on a busy machine)
    expect(page.locator("#swagger-ui .info .title")).to_contain_text("Troika Arena", timeout=30_000)
    assert violations(page) == []
    assert problems == []
