"""A browser socket's frames build the page the server would serve: over random games of every
registered game and seat count (and Vem aí's advanced game), for every seat and a spectator,
the first page with each frame applied in order, as htmx's ws extension swaps them
(``app.bench.browser.Page``), is the page served fresh at that version, also after presence
changes and across a reconnect at any point (the socket's first frame, the whole table, swapped
into the page the reader already had). The frames are made as ``app.web.delivery`` makes them:
the sections that changed (``app.web.sections.delta``), or the whole table when its shape
changed, in ASCII (``ascii_html``)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from app.bench.browser import Page
from app.games.registry import GAMES
from app.rooms.model import advance
from app.rooms.views import seat_views
from app.web.delivery import ascii_html
from app.web.sections import delta
from tests.support.rendering import laid_out, table
from tests.support.tables import normal, room_of

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

PLAYED = [
    (slug, players, {}) for slug, game in GAMES.items() for players in range(game.min_players, game.max_players + 1)
] + [("vem-ai-a-troika", players, {"advanced": True}) for players in (2, 4)]
MOVES = 150


@pytest.mark.parametrize(("slug", "players", "options"), PLAYED)
def test_frames_applied_in_order_give_the_page_served_fresh(slug, players, options):
    game = GAMES[slug]
    rng = random.Random(f"{slug}-{players}-{options}")
    info, live = room_of(slug, players, options)
    seats = [*range(players), None]
    lang = {seat: rng.choice(["en", "pt-PT"]) for seat in seats}
    connected = frozenset(range(players))
    payloads = seat_views(info, live, seats, connected)
    sent = {seat: table(payloads[seat], seat, f"tok-{seat}", lang[seat]) for seat in seats}
    pages = {seat: Page(laid_out(sent[seat], lang[seat])) for seat in seats}
    sizes, whole_sizes, wholes, reconnects = [], [], 0, 0
    for _ in range(MOVES):
        awaited = sorted(game.to_act(live.state))
        if not awaited and info.status == "finished":
            break
        if not awaited:  # the game is over: the room is too (play again, the seed: a new shape)
            info = dataclasses.replace(info, status="finished")
        elif rng.random() < 0.1:  # a presence change alone
            connected = frozenset(s for s in range(players) if rng.random() < 0.7)
        else:
            seat = rng.choice(awaited)
            advance(game, live, seat, game.apply(live.state, seat, rng.choice(game.legal_actions(live.state, seat))))
        payloads = seat_views(info, live, seats, connected)
        for seat in seats:
            now = table(payloads[seat], seat, f"tok-{seat}", lang[seat])
            fresh = laid_out(now, lang[seat])
            whole_sizes.append(len(ascii_html(fresh)))
            if rng.random() < 0.05:  # the socket reconnects: its first frame is the whole table
                frame = ascii_html(fresh)
                reconnects += 1
            else:
                changed = delta(sent[seat], now)
                frame = ascii_html(fresh if changed is None else changed)
                if changed is None:  # the whole table only where the list of sections or the status changed
                    before = sent[seat]
                    listed = [(s.id, s.place) for s in before.sections] != [(s.id, s.place) for s in now.sections]
                    assert listed or before.shape[:-3] != now.shape[:-3], f"seat {seat} at version {live.version}"
                    wholes += 1
                sizes.append(len(frame))
            pages[seat].apply(frame)
            sent[seat] = now
            assert normal(pages[seat]) == normal(Page(fresh)), f"seat {seat} at version {live.version}"
    assert len(sizes) > 10 * len(seats) and reconnects > 0
    median, whole = sorted(sizes)[len(sizes) // 2], sorted(whole_sizes)[len(whole_sizes) // 2]
    assert median < whole / 2, f"the median frame ({median} B) is a few sections, not the table ({whole} B)"
    assert wholes < len(sizes) / 2  # most changes keep the table's sections (Vem aí's phases change them often)


def test_a_frame_that_misses_a_change_is_caught():
    """The comparison can fail: a frame left out leaves the page behind the one served fresh."""
    info, live = room_of("troika", 3, {})
    game = GAMES["troika"]
    payloads = seat_views(info, live, [0])
    first = table(payloads[0], 0, "tok-0")
    page = Page(laid_out(first, "en"))
    seat = sorted(game.to_act(live.state))[0]
    advance(game, live, seat, game.apply(live.state, seat, game.legal_actions(live.state, seat)[0]))
    now = table(seat_views(info, live, [0])[0], 0, "tok-0")
    assert delta(first, now)
    assert normal(page) != normal(Page(laid_out(now, "en")))
    page.apply(delta(first, now) or "")
    assert normal(page) == normal(Page(laid_out(now, "en")))
