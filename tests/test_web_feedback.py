"""Feedback as the server sends it: a click superseded by another move is explained in plain
words (and answered with the table as it is now), a refusal is flagged so the page keeps what
was typed, and Vem aí's money figures say what the Treasury will actually pay."""

from __future__ import annotations

import json

from app.games.vem_ai_troika import GAME
from tests.conftest import auth, create_started_room
from tests.support.pages import arrange, between, render, text


async def seat_post(client, room_id, token, what, **form):
    """A seat's form, posted as htmx posts it."""
    return await client.post(f"/rooms/{room_id}/seat/{token}/{what}", data=form, headers={"HX-Request": "true"})


async def test_a_click_superseded_by_another_move_is_explained_in_plain_words(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    mover = view["to_act"][0]
    reveal = json.dumps({"type": "reveal", "tile": "unknown"})
    first = await seat_post(client, room_id, tokens[mover], "act", action=reveal, version="0")
    assert "X-Refused" not in first.headers and 'data-version="1"' in first.text
    # The same click again (a resend, or a second tab's) is the same move: dropped quietly.
    resent = await seat_post(client, room_id, tokens[mover], "act", action=reveal, version="0")
    assert "X-Refused" not in resent.headers and 'data-version="1"' in resent.text
    # Another click from a second tab of the seat, still at version 0: superseded.
    take = json.dumps({"type": "take_down", "tile": "unknown"})
    again = await seat_post(client, room_id, tokens[mover], "act", action=take, version="0")
    flash = text(between(again.text, 'id="flash"', "</div>"))
    assert flash.startswith("Another move was made just before your click, so yours was not played.")
    assert "reload" not in flash and "version" not in flash
    assert again.headers["X-Refused"] == "1" and 'data-version="1"' in again.text
    # The API keeps its precise answer.
    api = await client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(tokens[mover]),
        json={"version": 0, "action": {"type": "take_down", "tile": "unknown"}},
    )
    assert api.status_code == 409 and "out of date" in api.json()["message"]


async def test_a_refused_chat_line_is_flagged_so_the_page_keeps_it(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    answers = [await seat_post(client, room_id, tokens[0], "chat", text=f"line {i}") for i in range(6)]
    assert ["X-Refused" in a.headers for a in answers] == [False] * 5 + [True]
    assert "Slow down: at most 5 messages every 10 seconds." in text(between(answers[-1].text, 'id="flash"', "</div>"))


async def test_vem_figures_say_what_the_treasury_will_actually_pay(client):
    state = arrange(hands={0: ["Juízes"]}, tables={0: ["Procuradoria"]}, treasury=1)
    income = GAME.view(state, 0)["players"][0]["income"]
    assert income > 1
    html = await render(client, state, 0)
    box = text(between(html, 'id="vem-income"', "</form>"))
    assert box.startswith(f"Income: +1 Mega-Euro (your Income is {income}, but the Treasury holds only 1)")
    full = text(between(await render(client, arrange(tables={0: ["Procuradoria"]}), 0), 'id="vem-income"', "</form>"))
    assert full.startswith(f"Income: +{income} Mega-Euro") and "Treasury holds only" not in full
    drawing = arrange(hands={0: ["Juízes"]}, stage="draw", treasury=1)
    assert "Take 1 Mega-Euro" in text(between(await render(client, drawing, 0), 'id="actions"', "</section>"))
