"""The final results table of every game as the server renders it: players who tie share a
place, and the place after them is skipped (1, 1, 3), never "1st and 2nd" for a shared win."""

from __future__ import annotations

import re

from app.games.registry import GAMES
from app.web.tables import room_fragment
from tests.conftest import create_started_room
from tests.games.test_triatri import over_state
from tests.games.test_troika import final_round
from tests.vem_scenarios import E, arrange, end_round

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


async def test_triatri_shares_second_place(client):
    assert await rendered_places(client, "triatri", triatri_tie()) == {0: 1, 1: 2, 2: 2}


async def test_vem_ai_troika_shares_first_place(client):
    assert GAMES["vem-ai-a-troika"].outcome(vem_tie()).places == [3, 1, 1]
    assert await rendered_places(client, "vem-ai-a-troika", vem_tie()) == {0: 3, 1: 1, 2: 1}
