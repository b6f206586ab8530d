"""Hints and reviews from the seat's page: a room with hints says so on every page of it; on
its turn a seat's table offers "Hint", whose answer is one of its moves as its buttons label
it, with the reason; off its turn, in a room without hints, from another site or with no seat,
the hint is refused. A finished game's seat page offers "Review my moves", which queues the
review and opens the replay as that seat."""

from __future__ import annotations

import dataclasses
import re

from app.games.registry import GAMES
from app.rooms.model import advance
from app.rooms.views import seat_views
from app.web.sections import delta
from tests.conftest import auth, create_started_room
from tests.support.pages import between, text
from tests.support.rendering import table
from tests.support.tables import room_of


async def seat_page(client, room_id, token) -> str:
    return (await client.get(f"/rooms/{room_id}/seat/{token}")).text


async def test_a_seat_asks_for_a_hint_on_its_turn_from_its_page(client):
    room_id, tokens = await create_started_room(client, "troika", 2, hints=True)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    mover, waiter = view["to_act"][0], 1 - view["to_act"][0]
    page = await seat_page(client, room_id, tokens[mover])
    assert "hints on" in page and f'hx-post="/rooms/{room_id}/seat/{tokens[mover]}/hint"' in page
    assert "hints on" in (await client.get(f"/rooms/{room_id}")).text  # a spectator is told too
    assert "/hint" not in (waiter_page := await seat_page(client, room_id, tokens[waiter]))
    assert "Hints are on in this room" in waiter_page

    answer = await client.post(f"/rooms/{room_id}/seat/{tokens[mover]}/hint")
    assert answer.status_code == 200 and "X-Refused" not in answer.headers
    api = (await client.get(f"/api/rooms/{room_id}/hint", headers=auth(tokens[mover]))).json()
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[mover]))).json()
    assert api["suggestion"]["label"] in [item["label"] for item in legal["legal_actions"]]
    line = text(between(answer.text, 'id="hint-answer"', "</p>"))
    assert line.startswith(f"Hint: {api['suggestion']['label']}.") and api["reason"]["text"][1:] in line

    refused = await client.post(f"/rooms/{room_id}/seat/{tokens[waiter]}/hint")  # off its turn
    assert refused.headers["X-Refused"] == "1" and "your turn only" in refused.text
    assert "hint-answer" not in refused.text
    portuguese = await client.post(f"/rooms/{room_id}/seat/{tokens[mover]}/hint", headers={"Cookie": "lang=pt-PT"})
    assert "Dica:" in portuguese.text


async def test_hints_from_the_page_are_refused_without_the_option_a_seat_or_this_site(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    mover = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    page = await seat_page(client, room_id, tokens[mover])
    assert "hints on" not in page and "/hint" not in page
    off = await client.post(f"/rooms/{room_id}/seat/{tokens[mover]}/hint")
    assert off.headers["X-Refused"] == "1" and "without hints" in off.text
    hinted, hinted_tokens = await create_started_room(client, "troika", 2, hints=True)
    stranger = await client.post(f"/rooms/{hinted}/seat/not-a-seat-token/hint")
    assert stranger.status_code in (403, 404) and "hint-answer" not in stranger.text
    elsewhere = await client.post(
        f"/rooms/{hinted}/seat/{hinted_tokens[0]}/hint",
        headers={"Origin": "https://elsewhere.example", "Sec-Fetch-Site": "cross-site"},
    )
    assert elsewhere.status_code == 403 and "hint-answer" not in elsewhere.text


async def test_a_finished_game_offers_the_seat_the_review_of_its_moves(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    assert "Review my moves" not in await seat_page(client, room_id, tokens[0])  # in play
    host = auth(tokens[0])
    assert (await client.post(f"/api/rooms/{room_id}/close", headers=host)).status_code == 200
    page = await seat_page(client, room_id, tokens[1])
    assert re.search(rf'<form method="post" action="/rooms/{room_id}/seat/{tokens[1]}/review"', page)
    assert "Review my moves" not in (await client.get(f"/rooms/{room_id}")).text  # a spectator has no moves
    asked = await client.post(f"/rooms/{room_id}/seat/{tokens[1]}/review")
    assert asked.status_code == 303 and asked.headers["location"] == f"/rooms/{room_id}/replay?step=0&as=1"
    review = (await client.get(f"/api/rooms/{room_id}/review", params={"seat": 1})).json()
    assert review["status"] in ("queued", "running", "ready")


def test_a_hint_is_cleared_by_the_next_move_even_on_the_same_seats_turn():
    """A hint stayed on the page after the move it was for when the same seat moved again (a
    Troika tile turned up, then taken or discarded: a player's probe, 2026-12-07). The coach
    section read the same at both versions, so the socket left it, hint and all. It is sent
    again at every version, which replaces the hint with the offer to ask."""
    info, live = room_of("troika", 2, {})
    info = dataclasses.replace(info, hints=True)
    game = GAMES["troika"]
    seat = sorted(game.to_act(live.state))[0]
    before = table(seat_views(info, live, [seat])[seat], seat, "tok")
    after = (game.apply(live.state, seat, action) for action in game.legal_actions(live.state, seat))
    advance(game, live, seat, next(state for state in after if seat in game.to_act(state)))
    now = table(seat_views(info, live, [seat])[seat], seat, "tok")
    assert 'id="coach"' in (delta(before, now) or "")
