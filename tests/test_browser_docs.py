"""/docs in a real browser (issue 17, point 1): Swagger UI draws the published contract with an
Authorize button for the seat token, a move's call lists its error statuses in the one error
shape, and the games' views and actions are among the schemas."""

from __future__ import annotations

from playwright.sync_api import expect


def test_docs_offer_the_seat_token_and_show_statuses_and_game_schemas(browser, live, screenshots):
    page = browser.new_context(base_url=live).new_page()
    page.goto("/docs")
    expect(page.locator("#swagger-ui .info .title")).to_contain_text("Troika Arena")

    page.locator("button.authorize").first.click()
    dialog = page.locator(".dialog-ux .modal-ux")
    expect(dialog).to_contain_text("seatToken")
    expect(dialog).to_contain_text("http, Bearer")
    dialog.locator("input").first.fill("a-seat-token")
    dialog.locator("button.authorize").click()
    dialog.locator("button.btn-done").click()
    expect(page.locator("button.authorize.locked").first).to_be_visible()  # the token is held

    move = page.locator("#operations-play-submitAction")
    move.locator(".opblock-summary").click()
    responses = move.locator(".responses-table tr.response")
    for status in ("200", "400", "401", "403", "404", "409", "413", "422", "503"):
        expect(responses.filter(has=page.locator(f"td.response-col_status:text-is('{status}')"))).to_have_count(1)
    refused = responses.filter(has=page.locator("td.response-col_status:text-is('422')"))
    expect(refused).to_contain_text("a move the rules refuse")
    expect(refused).to_contain_text('"message"')  # the one error shape, as its example

    # the schemas list is virtualised (drawn as it scrolls): ask Swagger UI which it holds
    drawn = page.evaluate("Object.keys(window.ui.specSelectors.specJson().toJS().components.schemas)")
    assert {"ErrorAnswer", "TroikaView", "TriATriView", "VemView", "TakeUp", "ChooseGem", "Place"} <= set(drawn)
    page.locator("section.models").scroll_into_view_if_needed()
    expect(page.locator("section.models")).to_contain_text("Schemas")
    screenshots(page, "docs")
