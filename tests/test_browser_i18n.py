"""A real browser plays a turn of Vem aí a Troika in Portuguese: a pt-PT browser (its
Accept-Language) gets the room in Portuguese, chooses its Leader, draws and passes by clicking the
Portuguese buttons, reads the log in Portuguese with the players' names, and the header's switch
turns the page to English and is remembered on the next visit. The other seat plays through the
API, which stays in English. The cards' bands show their Portuguese colour and type whole,
the longest type included. Screenshots at the desktop and phone sizes."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import Page, expect

from app.games.vem_ai_troika.deck import DEFAULT_PATH
from tests.support.browser_games import RULES_PAGES, started_room


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_for_version(page: Page, version: int) -> None:
    page.locator(f'#table-state[data-version="{version}"]').wait_for(state="attached", timeout=10_000)


# A card band's words cut short, on the cards shown (not on the hidden ones, or a word as long as
# the card).
CUT_BANDS = """[...document.querySelectorAll('#room-main .vem-card .band > span')]
    .filter(e => e.offsetParent && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"""


def test_a_portuguese_browser_plays_a_vem_ai_turn_and_switches_to_english(browser, live, screenshots):
    api = httpx.Client(base_url=live)
    deck = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    for card in deck["groups"]:  # the longest type word, "infraestrutura", beside every colour's
        card["type"] = "infrastructure"
    options = {"first_player": 0, "deck": deck}
    created = api.post("/api/rooms", json={"game": "vem-ai-a-troika", "seats": 2, "name": "Ana", "options": options})
    room, tokens = created.json()["room"]["id"], [created.json()["token"]]
    tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"])
    api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))

    context = browser.new_context(base_url=live, locale="pt-PT", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator("html")).to_have_attribute("lang", "pt-PT")
    expect(page.locator("#connection .label")).to_have_text("ligado")
    expect(page.locator(".language-switch button[value=pt-PT]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#prompt")).to_contain_text("Escolha o seu Líder")
    expect(page.locator("#treasury .pile-label")).to_have_text("Tesouro")

    # The Leaders: Ana clicks one of hers, Bruno chooses through the API.
    page.locator("#leader-choice .card-button").first.click()
    wait_for_version(page, 1)
    expect(page.locator(".log-lines")).to_contain_text("Ana escolheu um Líder.")
    bruno = api.get(f"/api/rooms/{room}/legal-actions", headers=auth(tokens[1])).json()
    choice = bruno["legal_actions"][0]["action"]
    api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[1]), json={"version": 1, "action": choice})
    wait_for_version(page, 2)
    expect(page.locator("#prompt")).to_contain_text("A sua vez:")
    expect(page.locator(".log-lines")).to_contain_text("A ronda 1 começa com Ana.")

    # Ana's turn, by clicking the Portuguese buttons: draw a Group card, then pass.
    page.get_by_role("button", name="Comprar uma carta de Grupo", exact=True).click()
    wait_for_version(page, 3)
    log = page.locator(".log-lines")
    expect(log).to_contain_text("Ana compra uma carta de Grupo.")
    expect(log).to_contain_text("Comprou ")  # her own line: the card she drew
    expect(page.locator("#prompt")).to_contain_text("escolha uma ação")
    expect(page.locator("#flash")).to_have_text("")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(page.locator("#your-hand .vem-card .band .type").first).to_have_text("infraestrutura")
    assert page.evaluate(CUT_BANDS) == [], "a card's colour or type is cut short"
    shots = screenshots(page, "vem-portuguese-turn")
    assert all(path.stat().st_size > 10_000 for path in shots)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 1280, "height": 800})

    page.locator("#actions").get_by_role("button", name="Passar", exact=True).click()
    wait_for_version(page, 4)
    expect(log).to_contain_text("Ana passa.")
    expect(page.locator("#prompt")).to_contain_text("Bruno está a comprar.")
    english = api.get(f"/api/rooms/{room}/view", headers={**auth(tokens[0]), "Accept-Language": "pt-PT"}).json()
    assert "Ana passes." in [line["text"] for line in english["log"]]  # the API keeps its English

    # The header's switch: English now, and on the next visit.
    page.locator(".language-switch button[value=en]").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    expect(page.locator(".log-lines")).to_contain_text("Ana passes.")
    expect(page.locator("#prompt")).to_contain_text("Bruno is drawing.")
    page.goto("/")
    expect(page.locator("h2").first).to_have_text("New room")
    context.close()


def test_the_portuguese_pages_fit_a_phone(browser, live, screenshots):
    """Portuguese runs longer than English: the lobby and the rules pages still fit 360 px, and
    the site's bar keeps one line at 360 and 390 px (at 390 its links and language switch went
    under the name)."""
    context = browser.new_context(base_url=live, locale="pt-PT", viewport={"width": 360, "height": 640})
    page = context.new_page()
    for path in ("/", *RULES_PAGES):
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", "pt-PT")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 640})
        page.goto("/")
        bar, nav = page.locator("header.topbar").bounding_box(), page.locator(".topbar nav").bounding_box()
        assert bar["height"] < 45 and nav["height"] < 30, (width, bar, nav)  # one line (35 px; two: 67)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), width
    page.goto("/rules/vem-ai-a-troika")
    shots = screenshots(page, "vem-rules-portuguese")
    assert all(path.stat().st_size > 10_000 for path in shots)
    context.close()


# A player's figure box that sticks out of its figures' column, by its short name.
FIGURES_OUTSIDE = """[...document.querySelectorAll('#room-main .metrics > div')].filter(box =>
    box.getBoundingClientRect().right > box.closest('.figures').getBoundingClientRect().right + 0.5)
    .map(box => box.querySelector('dt').textContent.trim())"""


def test_a_phones_room_bar_shows_the_games_whole_title_in_portuguese(browser, live):
    """On a phone the room bar holds the game's title, the connection and "Histórico e conversa":
    "Vem aí a Troika" was cut to "Vem aí a Troi…". The connection is its dot alone there (its
    word is still read out, and its tooltip): down or disconnected, the note under the bar says
    so in words; only "connecting…", before the first frame, shows its word."""
    api = httpx.Client(base_url=live)
    page = browser.new_context(base_url=live, locale="pt-PT", viewport={"width": 390, "height": 844}).new_page()
    for game in ("vem-ai-a-troika", "troika", "triatri"):
        room, tokens = started_room(api, game, 2)
        page.goto(f"/rooms/{room}/seat/{tokens[0]}")
        connection = page.locator("#room-bar .connection")
        expect(connection).to_have_attribute("data-state", "live")
        title = page.locator(".room-bar-title")
        assert title.evaluate("e => e.scrollWidth <= e.clientWidth"), (game, title.inner_text())
        expect(connection).to_have_attribute("title", "ligado")
        expect(connection.locator(".label")).to_have_text("ligado")
        assert connection.locator(".label").bounding_box()["width"] <= 1  # visually hidden, not removed
        # Vem aí's players' figures fit their panel ("RENDIMENTO" pushed "CONSENSO" off it)
        outside = page.evaluate(FIGURES_OUTSIDE)
        assert outside == [], (game, outside)
    assert page.locator(".vem .metrics dt").count() == 0  # (the last page was Troika's...)
    page.goto(f"/rooms/{started_room(api, 'vem-ai-a-troika', 2)[0]}")  # (...and a spectator's page has figures too)
    expect(page.locator(".metrics dt").first).to_be_visible()
    assert page.evaluate(FIGURES_OUTSIDE) == []
    connection.evaluate("e => e.dataset.state = 'down'")
    assert connection.locator(".label").bounding_box()["width"] <= 1
    connection.evaluate("e => e.dataset.state = 'connecting'")
    assert connection.locator(".label").bounding_box()["width"] > 20
    page.set_viewport_size({"width": 1366, "height": 768})
    connection.evaluate("e => e.dataset.state = 'live'")
    assert connection.locator(".label").bounding_box()["width"] > 20  # a wide screen has room for the word
