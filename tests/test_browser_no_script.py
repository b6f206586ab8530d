"""A move form submitted by the browser itself plays its move (issue 25 and 28's lost click):
with JavaScript disabled, and with a script whose htmx has not bound the form (a form swapped
in by hand, as one htmx has not processed yet), a click on a move posts the form to its action,
the move is played and the browser lands on the seat's page showing the new version. With the
page's socket live, the same click still travels over the socket alone, once."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.support.browser_games import started_room, wait_for_version

TURN_UP_TEXT = "Turn one up"
TURN_UP = f"#room-main form.act button:has-text('{TURN_UP_TEXT}')"


def mover_page(api: httpx.Client) -> tuple[str, str]:
    """A started Troika room's id and the path of the seat page of the seat to act first."""
    room, tokens = started_room(api, "troika", 2)
    seat = api.get(f"/api/rooms/{room}/view").json()["to_act"][0]
    return room, f"/rooms/{room}/seat/{tokens[seat]}"


def test_without_javascript_a_click_on_a_move_plays_it_and_lands_on_the_seat_page(browser, live):
    api = httpx.Client(base_url=live)
    room, path = mover_page(api)
    page = browser.new_context(base_url=live, java_script_enabled=False).new_page()
    page.goto(path)
    expect(page.locator("#table-state")).to_have_attribute("data-version", "0")
    with page.expect_navigation():
        page.locator(TURN_UP).click()
    assert page.url == live + path, "back on the seat's page, no move in the address"
    expect(page.locator("#table-state")).to_have_attribute("data-version", "1")
    assert api.get(f"/api/rooms/{room}/view").json()["version"] == 1


def test_a_form_htmx_has_not_bound_is_posted_by_the_browser_and_played(browser, live):
    api = httpx.Client(base_url=live)
    room, path = mover_page(api)
    page = browser.new_context(base_url=live).new_page()
    page.goto(path)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    # a copy of the form, put in its place: htmx has not processed it, as a form just swapped in.
    # The button is found, its form copied and the copy clicked in one task of the page: a live
    # redraw in between would put back a form htmx has bound, or leave a handle found earlier
    # outside the page (its copy then not connected, so the browser cancels its submission).
    with page.expect_navigation():
        copied = page.evaluate(
            """text => {
                const b = [...document.querySelectorAll("#room-main form.act button")]
                    .find(c => c.textContent.includes(text));
                const f = b.form, parent = f.parentNode, at = [...parent.children].indexOf(f);
                f.outerHTML = f.outerHTML;
                const copy = [...parent.children[at].querySelectorAll("button")]
                    .find(c => c.textContent === b.textContent);
                copy.click();
                return copy.isConnected && copy !== b;
            }""",
            TURN_UP_TEXT,
        )
    assert copied, "the button clicked was a copy htmx had not bound, in the page"
    assert page.url == live + path
    wait_for_version(page, 1)
    assert api.get(f"/api/rooms/{room}/view").json()["version"] == 1


def test_with_the_socket_live_one_click_is_one_move_over_the_socket(browser, live):
    api = httpx.Client(base_url=live)
    room, path = mover_page(api)
    page = browser.new_context(base_url=live).new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" or "?action=" in r.url else None)
    page.goto(path)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    page.locator(TURN_UP).click()
    wait_for_version(page, 1)
    page.wait_for_timeout(500)  # anything the click sent besides reaches the server
    assert posts == [], "no form post, native or htmx's"
    assert len([f for f in sent if '"action"' in f]) == 1, sent
    assert page.url == live + path
    assert api.get(f"/api/rooms/{room}/view").json()["version"] == 1
