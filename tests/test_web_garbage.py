"""A table's render leaves (almost) nothing for the garbage collector: Jinja's macros and their
context refer to each other, and before ``app.web.render.ReleasingTemplate`` each render of a
table left a cycle of 126 to 201 objects (the seat's whole payload among them) that only
a collection could free. Whole random games of each game are rendered for every seat and a
spectator, with the collector off, and what a collection then finds is counted. The finished
table is rendered twice: the module its banner is imported from (cached by Jinja, made once)
must still work after a render let go of its contexts. The tables' sections now come from
Jinja's cached modules of macros and leave nothing even without ``ReleasingTemplate``; the last
test pins it on its own, with an import "with context", a shape that makes such a cycle."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable

import pytest

from app.games.registry import GAMES
from app.i18n import LANGUAGES
from app.rooms.model import LiveGame, RoomInfo, advance
from app.rooms.views import seat_views
from tests.support.registered import seated
from tests.support.rendering import fresh_renderer, main_fragment
from tests.support.tables import room

GAMES_PLAYED = [(slug, players, {}) for slug, players in seated(3)]  # every game, then Vem aí's advanced
GAMES_PLAYED += [("vem-ai-a-troika", 3, {"advanced": True})]
LEFT_PER_RENDER = 40  # objects a collection may find per render (measured: 25 at most)
EVERY = 3  # versions between two renders


def garbage_left_by(work: Callable[[], None]) -> int:
    """What a collection finds of what ``work`` made, run with the collector off. What the
    process held before is frozen: out of the count, and not walked again (a collection of a
    test worker's whole heap took a second or more)."""
    gc.freeze()
    gc.disable()
    try:
        work()
        return gc.collect()
    finally:
        gc.enable()
        gc.unfreeze()


def render_all(info: RoomInfo, live: LiveGame, players: int, lang: str) -> list[str]:
    seats = [*range(players), None]
    payloads = seat_views(info, live, seats, frozenset(range(players)))
    return [main_fragment(payloads[seat], seat, f"token-{seat}", lang) for seat in seats]


@pytest.mark.parametrize(("slug", "players", "options"), GAMES_PLAYED)
def test_a_render_leaves_no_cycle_holding_its_payload(slug, players, options):
    game = GAMES[slug]
    rng = random.Random(f"garbage-{slug}-{players}")
    info, live = room("garbage", players, slug, options)
    render_all(info, live, players, "en")  # templates compiled, caches warm
    renders = 0
    languages = set()

    def play_and_render() -> None:
        nonlocal renders
        for step in range(5000):
            if step % EVERY == 0:  # in each language in turn
                lang = [*LANGUAGES][step // EVERY % len(LANGUAGES)]
                renders += len(render_all(info, live, players, lang))
                languages.add(lang)
            awaited = sorted(game.to_act(live.state))
            if not awaited:
                break
            seat = rng.choice(awaited)
            advance(game, live, seat, game.apply(live.state, seat, rng.choice(game.legal_actions(live.state, seat))))

    found = garbage_left_by(play_and_render)
    assert not game.to_act(live.state), "the game was played to its end"
    assert renders >= 5 * (players + 1) and languages == set(LANGUAGES)
    assert found <= LEFT_PER_RENDER * renders, f"{found / renders:.0f} objects left per render"
    finished = render_all(info, live, players, "en")
    assert finished == render_all(info, live, players, "en")
    assert all('class="winner-banner"' in html for html in finished)


def test_a_template_importing_macros_with_context_lets_go_of_it():
    """Importing macros "with context" (or including a template that defines one) is a cycle in
    Jinja: the macros hold the context, the context the module of macros. The renderer's
    templates (``ReleasingTemplate``) empty the contexts a render made when it ends, so the
    collector finds less than an object a render (none, measured), where an ordinary template
    leaves 27."""
    template = fresh_renderer().env("en").from_string('{% import "games/macros.html" as m with context %}{{ n }}')
    assert template.render(n=3) == "3"

    def render_100() -> None:
        for n in range(100):
            template.render(n=n)

    found = garbage_left_by(render_100)
    assert found < 100, f"{found} objects left by 100 renders"
