"""The whole log, reachable and numbered truly: the room shows the last lines numbered as in the
whole log, and the log page has every line a viewer may read, a page at a time, from line 1;
a seat's private lines are on its own pages only; a page number is read strictly."""

from __future__ import annotations

import re

from app.web.pages import LOG_PAGE
from tests.conftest import auth, create_started_room, play_random_moves


def items(html: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", " ", li).split()) for li in re.findall(r"<li>(.*?)</li>", html, re.S)]


async def test_the_whole_log_is_paged_with_true_numbers_and_private_lines_stay_private(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    await play_random_moves(client, room_id, tokens, 160)
    whole = [(await client.get(f"/api/rooms/{room_id}/log", headers=auth(t))).json()["log"] for t in tokens]
    public = (await client.get(f"/api/rooms/{room_id}/log")).json()["log"]
    assert len(whole[0]) > LOG_PAGE + 30
    # The room page numbers its last lines as in the whole log (newest first).
    payload = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    assert payload["log_total"] == len(whole[0]) and len(payload["log"]) == 30
    room = (await client.get(f"/rooms/{room_id}/seat/{tokens[0]}")).text
    # (each line carries its number: a change adds lines at the top and drops the oldest alone)
    total = len(whole[0])
    assert f'<li id="log-{total}" value="{total}">' in room
    assert f'<li id="log-{total - 29}" value="{total - 29}">' in room
    assert f'id="log-{total - 30}"' not in room
    assert f"/rooms/{room_id}/seat/{tokens[0]}/log" in room
    # Every line, a page at a time, numbered from 1; by default the last page.
    pages = -(-len(whole[0]) // LOG_PAGE)
    seen = []
    for number in range(1, pages + 1):
        html = (await client.get(f"/rooms/{room_id}/seat/{tokens[0]}/log?page={number}")).text
        assert f'<ol class="log-page" start="{(number - 1) * LOG_PAGE + 1}">' in html
        assert f"Page {number} of {pages}" in html
        seen += items(html)
    assert seen == [line["text"] for line in whole[0]]
    last = (await client.get(f"/rooms/{room_id}/seat/{tokens[0]}/log")).text
    assert f"Page {pages} of {pages}" in last
    # Private lines ("You draw a 7.") only on their seat's pages.
    mine = {line["text"] for line in whole[0]} - {line["text"] for line in public}
    assert any(text.startswith("You ") for text in mine)
    spectator = []
    for number in range(1, -(-len(public) // LOG_PAGE) + 1):
        spectator += items((await client.get(f"/rooms/{room_id}/log?page={number}")).text)
    assert spectator == [line["text"] for line in public]
    other = []
    for number in range(1, -(-len(whole[1]) // LOG_PAGE) + 1):
        other += items((await client.get(f"/rooms/{room_id}/seat/{tokens[1]}/log?page={number}")).text)
    assert other == [line["text"] for line in whole[1]]


async def test_a_log_page_number_is_read_strictly(client):
    room_id, _ = await create_started_room(client, "troika", 2)
    for bad in ("0", "-1", "2", "1.0", "+1", " 1", "x", "١", "9" * 12, "9" * 13):
        answer = await client.get(f"/rooms/{room_id}/log", params={"page": bad})
        assert answer.status_code in (400, 422), (bad, answer.status_code)
    assert (await client.get(f"/rooms/{room_id}/log?page=1")).status_code == 200
    assert (await client.get(f"/rooms/{room_id}/seat/not-a-token/log")).status_code in (403, 404)
    assert (await client.get("/rooms/no-such-room/log")).status_code == 404


async def test_a_player_named_like_a_seat_mention_is_named_as_themself_in_every_language(client):
    """The engines say "Seat N" where the server puts a name; a player who calls themself
    "Seat 1" is named once, not taken for seat 1's player in a translated line."""
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana", "options": {}})
    room_id, tokens = r.json()["room"]["id"], [r.json()["token"]]
    for name in ("Bruno", "Seat 1"):
        tokens.append((await client.post(f"/api/rooms/{room_id}/seats", json={"name": name})).json()["token"])
    assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth(tokens[0]))).status_code == 200
    await play_random_moves(client, room_id, tokens, 30)
    names = ("Ana", "Bruno", "Seat 1")

    def mentions(lines: list[str]) -> list[list[int]]:
        return [[line.count(name) for name in names] for line in lines]

    english = items((await client.get(f"/rooms/{room_id}/log")).text)
    portuguese = items((await client.get(f"/rooms/{room_id}/log", headers={"Accept-Language": "pt-PT"})).text)
    assert portuguese != english and len(portuguese) == len(english)
    assert mentions(portuguese) == mentions(english)
    assert sum(m[2] for m in mentions(english)) >= 3  # (their moves are in it, named)
