"""The final results table of every game as the server renders it: players who tie share a
place, and the place after them is skipped (1, 1, 3), never "1st and 2nd" for a shared win."""

from __future__ import annotations

import random
import re

import lxml.html
import pytest

from app.games.registry import GAMES
from app.rooms.model import advance
from app.rooms.views import seat_views
from app.web.tables.standing import standing
from tests.conftest import create_started_room
from tests.support.rendering import laid_out, room_fragment, table
from tests.support.tables import NAMES, room_of
from tests.support.triatri_states import over_state
from tests.support.troika_states import final_round
from tests.support.vem_scenarios import E, arrange, end_round

PLACE_ROW = re.compile(r'<tr[^>]*id="result-(\d)"[^>]*>\s*<td class="place">(\d)</td>')


def troika_tie():
    # round 3: seats 0 and 1 both score -1 and end on 5 tokens; seat 2 fails and ends on 0
    return final_round([[2, 2], [2, 1], [1]], [[5, 5, 5, 15], [4, 4, 4, 8], [6]])


def triatri_tie():
    gems = [{"red": 1, "blue": 1, "green": 1}, {"red": 0, "blue": 0, "green": 0}, {"red": 0, "blue": 0, "green": 0}]
    return over_state(gems, {"red": 4, "blue": 4, "green": 4})


def vem_tie():
    return end_round(arrange(3, tables={1: ["Claque"], 2: ["Juízes"]}, events=[E["Chegou a Troika"]]))


async def rendered_places(client, slug, state):
    room_id, _ = await create_started_room(client, slug, 3)
    info, live = await client.app.state.rooms.game_state(room_id)
    live.hold(state)
    html = room_fragment(info, live, None, None)
    return {int(seat): int(place) for seat, place in PLACE_ROW.findall(html)}


async def test_troika_shares_first_place_and_skips_second(client):
    assert await rendered_places(client, "troika", troika_tie()) == {0: 1, 1: 1, 2: 3}


@pytest.mark.parametrize(
    ("slug", "state"), [("troika", troika_tie), ("triatri", triatri_tie), ("vem-ai-a-troika", vem_tie)]
)
async def test_the_result_comes_before_the_table_on_the_page_as_on_the_screen(client, slug, state):
    """The final result is shown first (room.css) and comes first in the page too, so that Tab
    and a screen reader meet it before the table, as the eye does."""
    room_id, _ = await create_started_room(client, slug, 3)
    info, live = await client.app.state.rooms.game_state(room_id)
    live.hold(state())
    html = room_fragment(info, live, None, None)
    assert -1 < html.index('id="final-result"') < html.index('class="felt')


async def test_triatri_shares_second_place(client):
    assert await rendered_places(client, "triatri", triatri_tie()) == {0: 1, 1: 2, 2: 2}


async def test_vem_ai_troika_shares_first_place(client):
    assert GAMES["vem-ai-a-troika"].outcome(vem_tie()).places == [3, 1, 1]
    assert await rendered_places(client, "vem-ai-a-troika", vem_tie()) == {0: 3, 1: 1, 2: 1}


def test_standing_shares_places_between_equal_scores():
    players = [
        {"seat": 0, "score_now": 3},
        {"seat": 1, "score_now": 7},
        {"seat": 2, "score_now": 3},
        {"seat": 3, "score_now": 1},
    ]
    rows = standing(2, players, ["Ana", "Bruno", "Carla", "Duarte"])
    assert rows == {
        "round": 2,
        "rows": [
            {"place": 1, "name": "Bruno", "score": 7},
            {"place": 2, "name": "Ana", "score": 3},
            {"place": 2, "name": "Carla", "score": 3},
            {"place": 4, "name": "Duarte", "score": 1},
        ],
    }


SCORE = {"troika": "token_total", "triatri": "score_now", "vem-ai-a-troika": "score_now"}


@pytest.mark.parametrize("slug", SCORE)
def test_every_round_end_is_summed_up_first_and_every_name_carries_its_live_score(slug):
    """Played at random to its end (3 seats): at each round's end the round's summary leads the
    table, its players by place (from the public scores), and every player's board shows that
    player's score beside their name, as the payload has it, all game long."""
    game, rng = GAMES[slug], random.Random(slug)
    info, live = room_of(slug, 3, {})
    summaries = set()
    while awaited := sorted(game.to_act(live.state)):
        payload = seat_views(info, live, [0])[0]
        html = lxml.html.fromstring(laid_out(table(payload, 0, "tok-0", "en"), "en"))
        for pl in payload["view"]["players"]:
            head = html.get_element_by_id(f"player-{pl['seat']}").xpath(".//*[contains(@class, 'live-score')]")
            shown = str(pl[SCORE[slug]]).replace("-", "\u2212")  # (a negative total: a true minus sign)
            assert head and head[0].text_content().split()[0] == shown, (slug, live.version)
            unit = "in tokens" if slug == "troika" else "point"  # (Troika's round table has its own Points)
            assert unit in head[0].text_content(), head[0].text_content()
        summary = html.xpath("//*[@id='round-summary']")
        if summary and (summary[0].tag != "details" or summary[0].get("open") is not None):
            text = " ".join(summary[0].text_content().split())
            number = int(text.split("Round ")[1].split()[0])
            summaries.add(number)
            assert summary[0].getparent().get("id") == "room-main", "a child of the table, which room.css puts first"
            felt = html.xpath("//section[contains(@class, 'felt')]")[0]
            assert summary[0] in felt.itersiblings(preceding=True), "before the table: first for Tab too"
            names = [NAMES[s] for s in range(3)]
            assert sorted(n for n in names if n in text) == sorted(names), text
        seat = rng.choice(awaited)
        advance(game, live, seat, game.apply(live.state, seat, rng.choice(game.legal_actions(live.state, seat))))
    assert summaries >= {1, 2}, (slug, summaries)
