"""A real browser: the host gives a player who lost their link a new one with the "New link"
button beside that absent player's name; the link shows in the host's page alone, opens the
seat, and the old link no longer does; once the player is back, the button goes."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_host_reissues_a_lost_link_from_the_room_page(browser, live, screenshots):
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"}).json()
    room, host = created["room"]["id"], created["token"]
    lost = api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"]
    carla = api.post(f"/api/rooms/{room}/seats", json={"name": "Carla"}).json()["token"]
    assert api.post(f"/api/rooms/{room}/start", headers=auth(host)).status_code == 200

    ana = browser.new_context(base_url=live).new_page()
    ana.goto(f"/rooms/{room}/seat/{host}")
    expect(ana.locator("#connection")).to_have_attribute("data-state", "live")
    bruno_row = ana.locator("#presence li", has_text="Bruno")
    expect(bruno_row.get_by_role("button", name="New link")).to_be_visible()
    expect(ana.locator("#presence li", has_text="Ana").get_by_role("button", name="New link")).to_have_count(0)
    screenshots(ana, "reissue-offer")

    bruno_row.get_by_role("button", name="New link").click()
    link = ana.locator("#flash input.new-link")
    expect(link).to_be_visible()
    url = link.input_value()
    assert url.startswith(f"{live}/rooms/{room}/seat/") and lost not in url
    expect(ana.locator("#flash")).to_contain_text("the old one no longer works")
    screenshots(ana, "reissue-link")
    ana.wait_for_timeout(8500)  # longer than a refusal's toast lasts: the link stays to be copied
    expect(link).to_be_visible()
    copy = ana.locator("#flash button[data-copy]")  # (as the invite link has)
    expect(copy).to_have_text("Copy")
    copy.click()
    expect(copy).to_have_text("Copied")
    expect(link).to_be_visible()  # (a click on the button is no click to close the toast)

    # The other players' pages never see it.
    carla_page = browser.new_context(base_url=live).new_page()
    carla_page.goto(f"/rooms/{room}/seat/{carla}")
    expect(carla_page.locator("#connection")).to_have_attribute("data-state", "live")
    assert url.split("/seat/")[1] not in carla_page.content()
    expect(carla_page.get_by_role("button", name="New link")).to_have_count(0)

    bruno = browser.new_context(base_url=live).new_page()
    assert bruno.goto(f"{live}/rooms/{room}/seat/{lost}").status == 403
    bruno.goto(url)
    expect(bruno.locator("#connection")).to_have_attribute("data-state", "live")
    expect(bruno.locator("#presence")).to_contain_text("Bruno")
    # Bruno is back: the host's strip (pushed) no longer offers his seat a new link.
    expect(bruno_row.get_by_role("button", name="New link")).to_have_count(0)
    screenshots(bruno, "reissue-player-back")
