"""The sections of a table that ``app.web.render.shared`` keeps (another player's board, the
piles, an attack, the Elections, the log, the room's head) are exactly what rendering them
afresh gives: whole games of random moves are rendered at every few versions for every seat
and a spectator, in both languages, once with the kept sections and once with each section
rendered anew, and the two must be the same bytes. A section whose inputs miss something it
shows would be served stale, to another seat or at a later version, and differ here."""

from __future__ import annotations

import random

import pytest
from jinja2 import pass_context

import app.web.render as web_render
from app.games.registry import GAMES
from app.i18n import LANGUAGES
from app.rooms.model import LiveGame, RoomInfo, advance
from app.rooms.views import seat_views

GAMES_PLAYED = [
    ("vem-ai-a-troika", 4, {}),
    ("vem-ai-a-troika", 2, {}),
    ("vem-ai-a-troika", 3, {"advanced": True}),
    ("vem-ai-a-troika", 4, {"advanced": True}),
    ("troika", 3, {}),
    ("triatri", 2, {}),
]
EVERY = 3  # versions between two renders
MOVES = 240


def rendered(payloads, seats, lang: str) -> list[str]:
    return [web_render.main_fragment(payloads[seat], seat, f"token-{seat}", lang) for seat in seats]


@pytest.mark.parametrize(("slug", "players", "options"), GAMES_PLAYED)
def test_kept_sections_are_what_rendering_afresh_gives(slug, players, options, monkeypatch):
    game = GAMES[slug]
    rng = random.Random(f"{slug}-{players}-{options}")
    state = game.setup(players, options, f"seed-{slug}-{players}")
    live = LiveGame.begin(game, state)
    names = {s: ["Ana", "Bruno", "Carla", "Duarte", "Eva"][s] for s in range(players)}
    info = RoomInfo(
        id="sections",
        game=slug,
        title=game.title,
        options=options,
        num_seats=players,
        host_seat=0,
        status="playing",
        version=0,
        seed_hash="ab" * 32,
        seats=names,
        humans=set(names),
    )
    seats = [*range(players), None]
    afresh = pass_context(lambda context, macro, inputs, *args: macro(*args))
    compared = kept_before = host_buttons = 0
    for step in range(MOVES):
        if step % EVERY == 0:
            away = step // EVERY % players  # the host sees buttons for an absent player
            payloads = seat_views(info, live, seats, frozenset(range(players)) - {away})
            for lang in LANGUAGES:
                kept = rendered(payloads, seats, lang)
                with monkeypatch.context() as plain:
                    for pages in web_render.PAGES.values():
                        plain.setitem(pages.env.globals, "shared", afresh)
                    assert rendered(payloads, seats, lang) == kept, f"version {live.version}, {lang}"
                compared += len(seats)
                host_buttons += "data-away=" in kept[0]
        state = live.state
        awaited = sorted(game.to_act(state))
        if not awaited:
            break
        seat = rng.choice(awaited)
        advance(game, live, seat, game.apply(state, seat, rng.choice(game.legal_actions(state, seat))))
        kept_before = max(kept_before, len(web_render.SECTION_HTML))
    assert compared >= 10 * len(seats) and host_buttons > 0
    assert 0 < kept_before <= web_render.SECTIONS_HELD
