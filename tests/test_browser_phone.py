"""The pages on a phone: at 360x640 and 390x844 no page scrolls sideways, in any phase of any
game (each played to its end with random moves while a seat's page and a spectator's follow
every version) nor on the lobby, the waiting room and the rules pages; tables scroll inside
their own panel, a seat's hand and moves are docked in view, and the room's details fold in play."""

from __future__ import annotations

import re
from contextlib import suppress

import httpx
import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from app.games.registry import GAMES
from tests.support.browser_games import (
    DESKTOP,
    FINITE_ANIMATIONS_ENDED,
    PHONE,
    every_page,
    random_moves,
    screenshot,
    started_room,
    wait_for_version,
)
from tests.support.registered import seated

PHONES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]

# The widest element sticking out of the viewport, named for the failure message.
WIDTH = """() => {
  const w = document.documentElement.scrollWidth;
  if (w <= innerWidth) return null;
  const out = [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 0.5);
  const name = e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + [...e.classList].map(c => "." + c).join("");
  return {width: w, culprits: out.slice(-4).map(name)};
}"""


def too_wide(page: Page) -> dict | None:
    return page.evaluate(WIDTH)


def phase_of(page: Page) -> str:
    felt = page.locator("#room-main .felt")
    if not felt.count():
        return page.locator("#table-state").get_attribute("data-status") or "?"
    return f"{felt.get_attribute('data-phase')}/{felt.get_attribute('data-step') or ''}"


@pytest.mark.parametrize("game, seats, seed", [(slug, n, seed) for seed, (slug, n) in enumerate(seated(4), 1)])
def test_no_page_of_a_game_scrolls_sideways_on_a_phone_in_any_phase(browser, live, game, seats, seed):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, game, seats)
    pages = []
    for size, path in zip(PHONES, (f"/rooms/{room}/seat/{tokens[0]}", f"/rooms/{room}"), strict=True):
        page = browser.new_context(base_url=live, viewport=size).new_page()
        page.goto(path)
        pages.append(page)
    problems: dict[str, dict] = {}
    seen = set()
    for version in random_moves(api, room, tokens, seed):
        for page in pages:
            wait_for_version(page, version)
            phase = phase_of(page)
            seen.add(phase)
            page.evaluate(FINITE_ANIMATIONS_ENDED)  # what stays: a gliding card may pass the edge for 260 ms
            wide = too_wide(page)
            if wide:
                problems.setdefault(f"{page.viewport_size['width']} {phase}", wide | {"version": version})
    assert api.get(f"/api/rooms/{room}/view").json()["status"] == "finished"
    print(sorted(seen))
    assert problems == {}


# Words that a line break splits: a word whose text spans more than one line box.
SPLIT_WORDS = """sel => [...document.querySelectorAll(sel)].flatMap(el => {
  const text = el.firstChild && el.firstChild.nodeType === 3 ? el.firstChild : null;
  if (!text) return [];
  const split = [];
  const re = /\\S+/g;
  let m;
  while ((m = re.exec(text.data))) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) split.push(m[0]);
  }
  return split;
})"""


def test_no_other_page_scrolls_sideways_on_a_phone_and_card_names_wrap_between_words(browser, live):
    api = httpx.Client(base_url=live)
    created = api.post("/api/rooms", json={"game": "vem-ai-a-troika", "seats": 3, "name": "Ana"}).json()
    paths = every_page(created["room"]["id"], created["token"])
    problems = {}
    for size in PHONES:
        page = browser.new_context(base_url=live, viewport=size).new_page()
        for path in paths:
            page.goto(path)
            if wide := too_wide(page):
                problems[f"{size['width']} {path}"] = wide
            if split := page.evaluate(SPLIT_WORDS, ".vem-card .name"):
                problems[f"{size['width']} {path} split words"] = split
    assert problems == {}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_hand_is_docked_in_view_and_the_room_details_fold_in_play(browser, live, game):
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, game, 3)
    for size in (PHONE, DESKTOP):
        page = browser.new_context(base_url=live, viewport=size).new_page()
        page.goto(f"/rooms/{room}/seat/{tokens[0]}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        details = page.locator("#room-details")
        # (the socket's first push may be swapping the table in: measure once it is shown)
        expect(page.locator("#your-hand")).to_be_visible()
        expect(page.locator("#player-1")).to_be_attached()
        expect(page.locator("#your-hand")).to_be_in_viewport(ratio=1)  # docked, all of it in view
        # in one row, however many cards (TriATri's six wrapped to two): it scrolls sideways
        tops = page.locator("#your-hand .hand-row > *").evaluate_all("cards => cards.map(c => c.offsetTop)")
        assert len(set(tops)) <= 1, (game, size, tops)
        expect(details).not_to_have_attribute("open", "")
        expect(page.locator("#invite-link")).to_be_hidden()
        # Opened by the reader, the details stay open through the next push.
        details.locator("summary").click()
        expect(page.locator("#invite-link")).to_be_visible()
        version = int(page.locator("#table-state").get_attribute("data-version"))
        next(random_moves(api, room, tokens, 5))
        wait_for_version(page, version + 1)
        expect(page.locator("#invite-link")).to_be_visible()
        screenshot(page, f"phone-layout-{game}")


def test_vem_ais_final_table_fits_a_phone_in_portuguese_too(browser, live):
    """Portuguese headings are longer ("Títulos", "Dinheiro"): on a phone the short ones are
    shown, and the final table's Total stays on the screen, not behind a sideways scroll."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "vem-ai-a-troika", 3)
    for _ in random_moves(api, room, tokens, seed=3, limit=3000):
        pass
    assert api.get(f"/api/rooms/{room}/view").json()["status"] == "finished"
    for lang, headings in (("pt-PT", "Tít. Din. Total"), ("en", "Titles Money Total")):
        page = browser.new_context(base_url=live, viewport={"width": 390, "height": 844}, locale=lang).new_page()
        page.goto(f"/rooms/{room}/seat/{tokens[0]}")
        table = page.locator(".vem-final table.results")
        expect(table).to_be_visible()
        # (the socket's first frame swaps the section in again, 150 to 300 ms after the page
        # loads, measured: in CI a read in that window once gave both forms, so the page is given
        # up to 5 s to show the expected ones before they are read)
        expect(table.locator("thead .long").first).to_be_hidden()
        shown = "() => [...document.querySelectorAll('.vem-final table.results thead th')]"
        shown += ".map(t => t.innerText).join(' ')"
        with suppress(PlaywrightTimeoutError):  # (the assertion below names what was shown)
            page.wait_for_function(f"want => ({shown})().endsWith(want)", arg=headings, timeout=5_000)
        assert page.evaluate(shown).endswith(headings), page.evaluate(shown)
        scroll = table.evaluate("t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
        assert scroll[0] <= scroll[1], f"{lang}: the table is {scroll[0]} px wide in a {scroll[1]} px box"


def test_triatris_final_table_gives_each_place_on_a_phone_too(browser, live):
    """On a phone TriATri's final table leaves its Place column out, to fit; the place goes
    before each name instead (two players on 0 points: the tie's order, by gems held, was
    not to be seen). The desktop keeps its column, and no name gets a place twice."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "triatri", 4)
    for _ in random_moves(api, room, tokens, seed=5):
        pass
    final = api.get(f"/api/rooms/{room}/view").json()
    assert final["status"] == "finished"
    result = final["view"]["result"]  # (the deal is the server's: a tie shares a place, 1, 2, 3, 3)
    expected = [f"{result['places'][seat]}." for seat in result["ranking"]]
    assert expected[0] == "1." and len(expected) == 4 and expected == sorted(expected)  # (best first)
    # Each row's place before its name as displayed (None where the rules hide it), read from
    # the computed styles in one go, once the size's rules hold: reading each cell's text in CI
    # once gave a desktop page's 1. to 4., likely while the socket's first frame swapped the
    # section in again (it does, 150 to 300 ms after the page loads).
    inline = "[...document.querySelectorAll('.triatri-final table.results tbody tr .place-inline')]"
    inline += ".map(s => getComputedStyle(s).display === 'none' ? null : s.textContent.trim())"
    for size, column, want in ((PHONE, False, expected), (DESKTOP, True, [None] * len(expected))):
        page = browser.new_context(base_url=live, viewport=size).new_page()
        page.goto(f"/rooms/{room}/seat/{tokens[0]}")
        table = page.locator(".triatri-final table.results")
        expect(table).to_be_visible()
        if column:
            expect(table.locator("th.place")).to_be_visible()
        else:
            expect(table.locator("th.place")).to_be_hidden()
        with suppress(PlaywrightTimeoutError):  # (the assertion below names what was shown)
            same = f"want => JSON.stringify({inline}) === JSON.stringify(want)"
            page.wait_for_function(same, arg=want, timeout=5_000)
        shown = page.evaluate(f"() => {inline}")
        assert shown == want, shown
        scroll = table.evaluate("t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
        assert scroll[0] <= scroll[1], f"the table is {scroll[0]} px wide in a {scroll[1]} px box"
        screenshot(page, "triatri-final")


SIZE_AND_FIT = "e => [parseFloat(getComputedStyle(e).fontSize), e.scrollWidth <= e.clientWidth]"


def test_vem_ais_leaders_are_named_in_large_type_on_a_phone(browser, live):
    """The Leaders offered at the start are the big cards: on a phone a name with a long word
    ("A Sindicalista") was set in the hand's small type (10.6 px) beside its neighbour's 16.8 px.
    Each seat of a four-player game sees its two; every name is at least 12.8 px and fits."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "vem-ai-a-troika", 4)
    page = browser.new_context(base_url=live, viewport=PHONES[0]).new_page()
    seen = {}
    for token in tokens:
        page.goto(f"/rooms/{room}/seat/{token}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        names = page.locator("#room-main .vem-card.big .name")
        expect(names).to_have_count(2)
        # (measured in one go: a live frame that redraws the cards between two calls left a
        # detached name, whose computed size reads NaN)
        for text, size, fits in names.evaluate_all(f"names => names.map(e => [e.innerText, ...({SIZE_AND_FIT})(e)])"):
            seen[text] = (size, fits)
    assert len(seen) == 8, seen
    assert {text: (size, fits) for text, (size, fits) in seen.items() if size < 12.8 or not fits} == {}


# An element's height in its font's size: about 1.2 for one line of text, 4.7 for the four lines
# the link was squeezed to (a count of its text's line boxes read none once, in a CI run under
# load, at some moment between two frames).
# The link's height in its font's size, read once it is in the page and laid out (a push that
# swapped the section in between left a detached link: no font size, and NaN in CI)
EMS_HIGH = """() => { const e = document.querySelector('#room-main .card-list-link');
  const ems = e && e.isConnected ? e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).fontSize) : NaN;
  return Number.isFinite(ems) && ems > 0 ? ems : false; }"""


def test_vem_ais_card_list_link_stays_on_one_line_on_a_phone_in_portuguese(browser, live):
    """The status line and the "Card list" link share a row: on a 390 px phone the status line
    squeezed the link to a column of four lines ("Lista / de / cartas / ↗", a newcomer's
    probe). The link keeps its own width, on one line, in both languages."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "vem-ai-a-troika", 2)
    for lang, label in (("pt-PT", "Lista de cartas"), ("en", "Card list")):
        page = browser.new_context(base_url=live, viewport={"width": 390, "height": 844}, locale=lang).new_page()
        page.goto(f"/rooms/{room}/seat/{tokens[0]}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        link = page.locator("#room-main .card-list-link")
        expect(link).to_contain_text(label)
        ems = page.wait_for_function(EMS_HIGH).json_value()
        assert ems < 2, f"{lang}: {ems} em high, {link.bounding_box()}"


def test_triatris_six_card_hand_fits_a_390_px_phone_without_cutting_the_last_card(browser, live):
    """A round opens with six cards: on a common phone all six show whole, not the sixth cut off
    at the dock's edge behind a sideways scroll of a few pixels."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "triatri", 3)
    page = browser.new_context(base_url=live, viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    row = page.locator("#your-hand .hand-row")
    expect(row.locator("> *")).to_have_count(6)
    scroll = row.evaluate("r => [r.scrollWidth, r.clientWidth]")
    assert scroll[0] <= scroll[1], f"the hand is {scroll[0]} px wide in a {scroll[1]} px row"


def test_a_docked_hand_wider_than_a_phone_fades_where_more_cards_lie(browser, live):
    """A hand of more cards than a phone shows scrolls sideways, and the edge the other cards lie
    past fades out (a sliver of the next card was the only cue, and a probe missed it): TriATri's
    six cards at 360 px, the right edge at first, both while scrolled part way, the left at the
    end; at 390 px the same hand fits, and nothing fades."""
    api = httpx.Client(base_url=live)
    room, tokens = started_room(api, "triatri", 2)
    page = browser.new_context(base_url=live, viewport=PHONES[0]).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    row = page.locator("#your-hand .hand-row")
    expect(row.locator("> *")).to_have_count(6)
    # (the row found afresh at each try: a handle taken once may be of a row the socket's view
    # has since replaced, which measures 0 for ever; this failed twice in clean-clone runs)
    measured = "() => { const r = document.querySelector('#your-hand .hand-row'); return r && r.scrollWidth %s; }"
    page.wait_for_function(measured % "> r.clientWidth + 8", timeout=10_000)
    expect(row).to_have_attribute("data-more", "right")
    assert "linear-gradient" in row.evaluate("r => getComputedStyle(r).maskImage")
    row.evaluate("r => r.scrollTo((r.scrollWidth - r.clientWidth) / 2, 0)")
    expect(row).to_have_attribute("data-more", "both")
    row.evaluate("r => r.scrollTo(r.scrollWidth, 0)")
    expect(row).to_have_attribute("data-more", "left")
    screenshot(page, "phone-hand-faded-left")
    page.set_viewport_size(PHONES[1])
    page.wait_for_function(measured % "<= r.clientWidth")
    expect(row).not_to_have_attribute("data-more", re.compile(".*"))
    assert row.evaluate("r => getComputedStyle(r).maskImage") == "none"


def test_a_rules_table_wider_than_a_phone_fades_where_more_of_it_lies(browser, live):
    """A rules table wider than a phone scrolls inside its box, and with no cue a reader took
    its first columns for all of it (a newcomer's probe): the edge more columns lie past fades
    out, as the docked hand's does, from the right to the left as it is scrolled; a table that
    fits is not faded, on a phone nor on a desktop, where the card list's tables fit whole."""
    page = browser.new_context(base_url=live, viewport=PHONES[1], locale="pt-PT").new_page()
    page.goto("/rules/vem-ai-a-troika/cards")
    box = page.locator(".table-scroll").first
    assert box.evaluate("b => b.scrollWidth - b.clientWidth") > 200
    expect(box).to_have_attribute("data-more", "right")
    assert "linear-gradient" in box.evaluate("b => getComputedStyle(b).maskImage")
    box.evaluate("b => b.scrollTo(b.scrollWidth, 0)")
    expect(box).to_have_attribute("data-more", "left")
    screenshot(page, "phone-rules-table-faded-left")
    page.goto("/rules/troika")  # (its tables fit a phone)
    fitting = page.locator(".table-scroll")
    assert fitting.count() >= 2
    assert (
        fitting.evaluate_all("bs => bs.map(b => [b.scrollWidth <= b.clientWidth, b.dataset.more || ''])")
        == [[True, ""]] * fitting.count()
    )
    page.set_viewport_size(DESKTOP)
    page.goto("/rules/vem-ai-a-troika/cards")
    expect(page.locator(".table-scroll[data-more]")).to_have_count(0)
    assert page.locator(".table-scroll").first.evaluate("b => getComputedStyle(b).maskImage") == "none"
    # (on a desktop the card list takes the page's width: in the rules' 832 px its Hand Actions
    # ran a word a line, in rows 300 px tall)
    assert page.locator("tr.group td:last-child").first.evaluate("c => c.getBoundingClientRect().width") >= 260
