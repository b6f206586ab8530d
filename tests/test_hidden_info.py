"""Hidden information through the whole server: what a seat (or a spectator) receives from any
endpoint, page or pushed fragment must not change when everything it cannot see is re-dealt
under the server; the seed and seat tokens appear nowhere before the end; logs stay clean."""

from __future__ import annotations

import logging
import random
import re

import pytest

from app.games.registry import GAMES
from app.logs import redact
from tests.conftest import auth, create_started_room, play_random_moves
from tests.support.dumps import dumped
from tests.support.rendering import room_fragment
from tests.support.rooms import plant
from tests.support.troika_worlds import call_worlds

GRACE_LEFT = re.compile(r' data-grace-left="[^"]*"')


async def everything_seen_by(client, room_id, token):
    """Every answer the server gives this viewer (token None: a spectator), as text."""
    headers = auth(token) if token else {}
    paths = [f"/api/rooms/{room_id}/view", f"/api/rooms/{room_id}/log", f"/api/rooms/{room_id}"]
    if token:
        paths.append(f"/api/rooms/{room_id}/legal-actions")
    answers = [(await client.get(path, headers=headers)).text for path in paths]
    page = f"/rooms/{room_id}/seat/{token}" if token else f"/rooms/{room_id}"
    # (the host's page counts each player's grace down in whole seconds: a clock, not a secret)
    answers.append(GRACE_LEFT.sub("", (await client.get(page)).text))
    rooms = client.app.state.rooms  # (inside: the fragment the socket sends, rendered as the server does)
    info, live = await rooms.game_state(room_id)
    seat = None if token is None else await rooms.seat_of(room_id, token)
    answers.append(room_fragment(info, live, seat, token))
    return answers


@pytest.mark.parametrize(
    ("slug", "seats"),
    [(slug, n) for slug, g in sorted(GAMES.items()) for n in range(g.min_players, g.max_players + 1)],
)
async def test_no_answer_depends_on_what_the_viewer_cannot_see(client, slug, seats):
    game = GAMES[slug]
    room_id, tokens = await create_started_room(client, slug, seats)
    rooms = client.app.state.rooms
    rng = random.Random(11)
    changed = 0
    for step in range(4):
        await play_random_moves(client, room_id, tokens, 6, random.Random(step))
        info, live = await rooms.game_state(room_id)
        if info.status != "playing":
            break
        before = live.state
        for seat, token in [(None, None), *enumerate(tokens)]:
            seen = await everything_seen_by(client, room_id, token)
            redealt = game.randomize_hidden(before, seat, rng)
            plant(client, room_id, live, redealt)
            changed += dumped(redealt) != dumped(before)
            try:
                assert await everything_seen_by(client, room_id, token) == seen, (
                    f"seat {seat} sees something it should not"
                )
            finally:
                plant(client, room_id, live, before)
    assert changed, "nothing hidden was ever re-dealt: this test would prove nothing"


async def test_whether_a_troika_call_succeeded_stays_hidden_until_the_round_ends(client):
    """Ruling T7: whatever the server answers a third seat or a spectator after seat 0 calls
    "Troika!" is the same whether the call succeeded or failed (the two worlds differ only in
    the caller's hidden tiles, see tests/support/troika_worlds.py)."""
    room_id, tokens = await create_started_room(client, "troika", 3, options={"first_player": 0})
    game = GAMES["troika"]
    _, live = await client.app.state.rooms.game_state(room_id)
    original = live.state
    seen = []
    try:
        for world in call_worlds(3, "t7-room"):
            plant(client, room_id, live, game.apply(world, 0, {"type": "troika"}))
            seen.append([await everything_seen_by(client, room_id, token) for token in (None, tokens[1])])
    finally:
        plant(client, room_id, live, original)
    assert "calls Troika!" in seen[0][1][0], "the call is not in the log: this test would prove nothing"
    assert seen[0] == seen[1], "a third seat or a spectator can tell whether the call succeeded"


async def test_the_seed_and_tokens_stay_secret_until_the_end(client, caplog):
    caplog.set_level(logging.INFO)  # the level a host runs at; DEBUG SQL echo is the host's own
    caplog.set_level(logging.WARNING, logger="httpx")  # the test client's own request lines
    room_id, tokens = await create_started_room(client, "troika", 2)
    info, _ = await client.app.state.rooms.game_state(room_id)  # (inside: the seed is secret until the end)
    seed = info.seed
    await play_random_moves(client, room_id, tokens, 40, random.Random(2))
    for token in (None, *tokens):
        for text in await everything_seen_by(client, room_id, token):
            assert seed not in text
            for other in tokens:
                if other != token:
                    assert other not in text
    listing = (await client.get("/api/rooms")).text
    assert seed not in listing and all(t not in listing for t in tokens)
    assert (await client.get(f"/api/rooms/{room_id}/record")).status_code == 409
    await play_random_moves(client, room_id, tokens, 3000, random.Random(3))
    final = (await client.get(f"/api/rooms/{room_id}")).json()
    assert final["status"] == "finished" and final["seed"] == seed
    assert seed not in caplog.text and all(t not in caplog.text for t in tokens)


def test_access_log_lines_have_seat_tokens_redacted():
    line = "GET /rooms/abc/seat/SECRET-tok_en/act HTTP/1.1 and /ws/rooms/abc?token=SECRET2&x=1"
    cleaned = redact(line)
    assert "SECRET" not in cleaned and cleaned.count("[redacted]") == 2
    assert "/rooms/abc/seat/[redacted]/act" in cleaned
