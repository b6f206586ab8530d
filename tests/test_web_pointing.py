"""Advanced Vem aí by pointing, on the page as served: over random advanced games of every seat
count, every thing a move's option names for pointing (``data-points``: a Group card, a
player's name, a side of the attack, a column of the reader's own) is on that reader's table,
so a click or tap on it can pick the move (static/js/pointing.js finds them by these tokens);
and the games name every kind of thing."""

from __future__ import annotations

import random

import lxml.html
import pytest

from app.games.registry import GAMES
from app.rooms.model import advance
from app.rooms.views import seat_views
from tests.support.rendering import laid_out, table
from tests.support.tables import room_of

GAME = GAMES["vem-ai-a-troika"]
MOVES = 160
CLASS = "contains(concat(' ', normalize-space(@class), ' '), ' %s ')"  # an XPath test of one class


def kind(token: str) -> str:
    """What a token names: a card, a player, a side of the attack, or a column."""
    if token.startswith("g:"):
        return "card"
    if token.endswith("-head"):
        return "player"
    if token.endswith("-side"):
        return "side"
    return "column"


def unresolved(html: str) -> tuple[list[str], set[str]]:
    """The tokens on this page that name nothing on its table, and the kinds of those that do."""
    if "data-points" not in html:  # no option names anything: nothing to look for (parsing is most of the time)
        return [], set()
    main = lxml.html.fromstring(html).get_element_by_id("room-main")
    cards = {
        el.get("data-id") for el in main.xpath(f".//*[{CLASS % 'felt'}]//*[{CLASS % 'vem-card'} and {CLASS % 'group'}]")
    }
    ids = {el.get("id") for el in main.iter() if el.get("id")}
    missing, named = [], set()
    for option in main.xpath(".//*[@data-points]"):
        for token in option.get("data-points").split():
            found = token[2:] in cards if token.startswith("g:") else token[1:] in ids
            if found:
                named.add(kind(token))
            else:
                missing.append(token)
    return missing, named


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_thing_a_move_names_is_on_the_table_to_point_at(players):
    rng = random.Random(f"pointing-{players}")
    info, live = room_of("vem-ai-a-troika", players, {"advanced": True})
    seats = list(range(players))
    named: set[str] = set()
    for _ in range(MOVES):
        awaited = sorted(GAME.to_act(live.state))
        if not awaited:
            break
        payloads = seat_views(info, live, seats)
        for seat in seats:
            missing, kinds = unresolved(laid_out(table(payloads[seat], seat, f"tok-{seat}", "en"), "en"))
            assert missing == [], f"seat {seat} at version {live.version}: {missing}"
            named |= kinds
        seat = rng.choice(awaited)
        advance(GAME, live, seat, GAME.apply(live.state, seat, rng.choice(GAME.legal_actions(live.state, seat))))
    assert named >= {"card", "player", "column"}, named
