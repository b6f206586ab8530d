"""The sections of a table that ``app.web.sections`` keeps (each rendered once per distinct
inputs and language, shared by every seat that sees it alike: another player's board, the
piles, an attack, the Elections, the log, the room's head) are exactly what rendering them
afresh gives: whole games of random moves are rendered at every few versions for every seat
and a spectator, in each language in turn, once with the kept sections and once with each section
rendered anew, and the two must be the same bytes. A section whose inputs miss something it
shows would be served stale, to another seat or at a later version, and differ here."""

from __future__ import annotations

import random

import pytest

from app.games.registry import GAMES
from app.i18n import LANGUAGES
from app.rooms.model import advance
from app.rooms.views import seat_views
from app.web import tables
from app.web.render import Renderer
from app.web.sections import SECTIONS_HELD, Kept
from tests.support.registered import seated
from tests.support.rendering import fresh_renderer
from tests.support.tables import room_of

GAMES_PLAYED = [(slug, players, {}) for slug, players in seated(3)]  # every game, then Vem aí's variants
GAMES_PLAYED += [("vem-ai-a-troika", 2, {}), ("vem-ai-a-troika", 4, {}), ("vem-ai-a-troika", 4, {"advanced": True})]
EVERY = 3  # versions between two renders
MOVES = 240


def rendered(renderer: Renderer, payloads, seats, lang: str) -> list[str]:
    return [tables.main_fragment(renderer, payloads[seat], seat, f"token-{seat}", lang) for seat in seats]


def afresh(renderer: Renderer) -> Renderer:
    """``renderer`` with nothing kept (its templates stay compiled)."""
    renderer.sections = Kept()
    renderer.cards.clear()
    return renderer


@pytest.mark.parametrize(("slug", "players", "options"), GAMES_PLAYED)
def test_kept_sections_are_what_rendering_afresh_gives(slug, players, options):
    kept_by, plain = fresh_renderer(), fresh_renderer()
    game = GAMES[slug]
    rng = random.Random(f"{slug}-{players}-{options}")
    info, live = room_of(slug, players, options)
    seats = [*range(players), None]
    compared = kept_before = host_buttons = 0
    languages = set()
    for step in range(MOVES):
        if step % EVERY == 0:
            away = step // EVERY % players  # the host sees buttons for an absent player
            payloads = seat_views(info, live, seats, frozenset(range(players)) - {away})
            lang = [*LANGUAGES][step // EVERY % len(LANGUAGES)]  # each language in turn
            kept = rendered(kept_by, payloads, seats, lang)
            fresh = [rendered(afresh(plain), payloads, [seat], lang)[0] for seat in seats]
            assert fresh == kept, f"version {live.version}, {lang}"
            compared += len(seats)
            languages.add(lang)
            host_buttons += "data-away=" in kept[0]
        state = live.state
        awaited = sorted(game.to_act(state))
        if not awaited:
            break
        seat = rng.choice(awaited)
        advance(game, live, seat, game.apply(state, seat, rng.choice(game.legal_actions(state, seat))))
        kept_before = max(kept_before, len(kept_by.sections.own))
    assert compared >= 5 * len(seats) and host_buttons > 0 and languages == set(LANGUAGES)
    assert 0 < kept_before <= SECTIONS_HELD


def test_no_template_chooses_among_the_legal_actions():
    """The moves a section offers are chosen in Python (``app.web.tables``): no table template
    reads the payload's legal actions or tests an action, it lays out the moves it is given."""
    from app.web.render import TEMPLATES_DIR

    sections = [*TEMPLATES_DIR.glob("games/*/sections.html"), TEMPLATES_DIR / "fragments/sections.html"]
    assert len(sections) == 4
    for path in [*sections, TEMPLATES_DIR / "fragments/room_main.html", TEMPLATES_DIR / "games/macros.html"]:
        text = path.read_text()
        for word in ("legal_actions", "is_legal", "label_of", "action_json", "selectattr", "rejectattr", "| sort"):
            assert word not in text, f"{path.name} uses {word}"


def test_a_section_seen_alike_is_rendered_once_for_every_reader():
    """Each section is rendered once per distinct inputs and shared: the same table again costs
    no render, a second spectator none, and another reader only the sections it sees otherwise
    (its hand, its moves), never the public ones again."""
    info, live = room_of("vem-ai-a-troika", 4, {})
    payloads = seat_views(info, live, [0, 1, None])
    renderer = fresh_renderer()

    def renders(payload: dict, seat: int | None) -> int:
        before = len(renderer.sections.own)
        made = tables.table(renderer, payload, seat, None if seat is None else f"tok-{seat}")
        assert made.sections
        return len(renderer.sections.own) - before

    first = renders(payloads[0], 0)
    whole = sum(1 for _ in walk(tables.table(renderer, payloads[0], 0, "tok-0").sections))
    assert first > 10 and renders(payloads[0], 0) == 0
    assert 0 < renders(payloads[None], None) < whole / 2, "a spectator renders only what it sees otherwise"
    assert renders(payloads[None], None) == 0, "a second spectator renders nothing"
    assert 0 < renders(payloads[1], 1) < whole / 2, "another seat renders its own sections only"


def walk(listed):
    for s in listed:
        yield s
        yield from walk(s.children)
