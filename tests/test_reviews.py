"""Post-game reviews (issue 29, point 4): after the end a seat asks for the review of its own
moves; it is made in the background, with its progress, and kept; it marks the 3 to 5 moves that
cost the most against the expert bot's preferred move; it never uses what the seat could not
see at the time; the replay page shows it as that seat's, in the reader's language."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import re

import pytest

from app.api.answers import Review as ReviewAnswer
from app.bots.coach import review_decision
from app.db.models import Review
from app.games.base import same_json
from app.games.registry import GAMES
from app.rooms.replays import Replay
from app.rooms.reviews import decisions, marked
from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.databases import BACKENDS
from tests.support.registered import seated

HTML = {"accept": "text/html"}
TINY = {"review_rollouts": 8}  # a decision's budget in these tests: a world or two


async def finished_game(client, slug="triatri"):
    room_id, tokens = await create_started_room(client, slug, 2)
    assert (await play_random_moves(client, room_id, tokens, 600))["status"] == "finished"
    return room_id, tokens


async def ready(client, room_id, seat, seconds=120):
    for _ in range(seconds * 10):
        review = (await client.get(f"/api/rooms/{room_id}/review?seat={seat}")).json()
        if review["status"] not in ("queued", "running"):
            return review
        await asyncio.sleep(0.1)
    raise AssertionError("the review took too long")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_seat_asks_after_the_end_and_gets_its_costliest_moves(request, backend, sqlite_url):
    url = sqlite_url if backend == "sqlite" else request.getfixturevalue("fresh_postgres_url")
    async with running_app(url, **TINY) as client:
        playing, players = await create_started_room(client, "triatri", 2)
        r = await client.post(f"/api/rooms/{playing}/review", headers=auth(players[0]))
        assert (r.status_code, r.json()["error"]) == (409, "conflict")  # not before the end
        assert (await client.get(f"/api/rooms/{playing}/review?seat=0")).status_code == 409
        room_id, tokens = await finished_game(client)
        untouched = (await client.get(f"/api/rooms/{room_id}/review?seat=0")).json()
        assert (untouched["status"], untouched["moves"]) == ("none", [])
        assert (await client.post(f"/api/rooms/{room_id}/review")).status_code == 401
        assert (await client.post(f"/api/rooms/{room_id}/review", headers=auth(players[1]))).status_code == 403
        asked = await client.post(f"/api/rooms/{room_id}/review", headers=auth(tokens[0]))
        assert asked.status_code == 202 and asked.json()["status"] in ("queued", "running")
        again = await client.post(f"/api/rooms/{room_id}/review", headers=auth(tokens[0]))
        assert again.status_code == 200  # asked for before: its status, nothing queued twice
        review = await ready(client, room_id, 0)
        ReviewAnswer.model_validate(review)  # the published shape, nothing more
        record = (await client.get(f"/api/rooms/{room_id}/record")).json()
        choices = list(decisions(Replay.of(record), 0))
        assert review["status"] == "ready" and review["done"] == review["total"] == len(choices) > 5
        assert 3 <= len(review["moves"]) <= 5
        assert [m["step"] for m in review["moves"]] == sorted({m["step"] for m in review["moves"]})
        for move in review["moves"]:
            logged = record["actions"][move["step"] - 1]
            assert logged["seat"] == 0 and same_json(move["played"]["action"], logged["action"])
            assert not same_json(move["preferred"]["action"], move["played"]["action"])
            assert move["gain"] == pytest.approx(move["preferred_value"] - move["played_value"], abs=1e-3)
            assert move["gain"] > 0 and move["played"]["label"] and move["preferred"]["label"]
        assert (await client.get(f"/api/rooms/{room_id}/review?seat=1")).json()["status"] == "none"
        # one that failed is asked for again; inside on purpose: no request makes a review fail, so its row is written
        async with client.app.state.reviews.db.write() as session:
            session.add(Review(room_id=room_id, seat=1, status="failed"))
            await session.commit()
        assert (await client.get(f"/api/rooms/{room_id}/review?seat=1")).json()["status"] == "failed"
        assert (await client.post(f"/api/rooms/{room_id}/review", headers=auth(tokens[1]))).status_code == 202
        assert (await ready(client, room_id, 1))["status"] == "ready"
        for wrong in ("-1", "x", "1.0"):
            assert (await client.get(f"/api/rooms/{room_id}/review?seat={wrong}")).status_code == 400, wrong
        assert (await client.get(f"/api/rooms/{room_id}/review?seat=2")).status_code == 404, "no such seat"
        assert (await client.get("/api/rooms/nope/review?seat=0")).status_code == 404
    async with running_app(url, **TINY) as client:  # kept: a restarted server has it
        assert (await client.get(f"/api/rooms/{room_id}/review?seat=0")).json() == review


def test_the_marked_moves_are_the_costliest_five_and_beyond_three_only_notable_ones():
    def moves(*gains):
        return [{"step": step, "gain": gain} for step, gain in enumerate(gains, start=1)]

    steps = [m["step"] for m in marked(moves(0.5, 0.0, 0.01, 0.3, 0.019, 0.02, 0.005))]
    assert steps == [1, 4, 6]  # 0.5, 0.3, 0.02; the fourth (0.019) is under 2 points
    assert [m["step"] for m in marked(moves(*[0.1] * 7))] == [1, 2, 3, 4, 5]  # at most 5, the earliest of ties
    assert [m["step"] for m in marked(moves(0.001, 0.0, 0.002))] == [1, 3]  # what cost anything, if little
    assert marked(moves(0.0, 0.0)) == []


@pytest.mark.parametrize("slug, seats", seated(3))
def test_a_review_never_uses_what_the_seat_could_not_see(slug, seats):
    """Each decision is assessed again in a world the seat could not tell from the true one at
    that step (the other hands, the piles and the seed dealt again by ``randomize_hidden``, as
    if the others had held other cards), and the assessment is the same, to the digit: the move
    preferred, both values and both labels. A reviewer that read the true state (another seat's
    hand, the deck's order) or looked past the step would tell the two apart."""
    game = GAMES[slug]
    rng = random.Random(3)
    state, actions = game.setup(seats, {}, "review-seed"), []
    while game.outcome(state) is None and len(actions) < 150:
        mover = min(game.to_act(state))
        legal = game.legal_actions(state, mover)
        action = rng.choice([a for a in legal if a["type"] != "troika"] or legal)  # a random call ends a round
        actions.append((mover, action))
        state = game.apply(state, mover, action)
    replay = Replay(None, slug, seats, {}, "review-seed", "", {}, actions)
    compared = 0
    every = list(decisions(replay, 0))
    for decision in every[:: max(1, min(4, len(every) // 3))]:  # every fourth, or more of a short game
        game.accept(decision.state, 0, decision.played)  # the state the seat chose in: before its move
        other = game.randomize_hidden(decision.state, 0, random.Random(decision.step))
        assert game.view(other, 0) == game.view(decision.state, 0) and other != decision.state
        seed = f"review:test:0:{decision.step}"
        assert review_decision(slug, 0, other, decision.played, seed, 24) == review_decision(
            slug, 0, decision.state, decision.played, seed, 24
        )
        compared += 1
    assert compared >= 3


async def test_the_replay_shows_the_review_its_progress_and_its_marks_in_the_readers_language(sqlite_url):
    async with running_app(sqlite_url, **TINY) as client:
        room_id, tokens = await finished_game(client)
        base = f"/rooms/{room_id}/replay"
        spectator = (await client.get(f"{base}?step=3", headers=HTML)).text
        assert 'id="replay-review"' not in spectator  # a spectator's replay, and nobody asked
        # a review half made; inside on purpose: a running review cannot be held at 3 of 10 through the API
        async with client.app.state.reviews.db.write() as session:
            session.add(Review(room_id=room_id, seat=1, status="running", done=3, total=10))
            await session.commit()
        running = (await client.get(f"{base}?step=3&as=1", headers=HTML)).text
        assert re.search(r'<progress max="10" value="3"', running)
        assert "3 of 10 decisions" in running and f'hx-get="{base}/review?as=1&amp;step=3"' in running
        section = await client.get(f"{base}/review?as=1&step=3", headers=HTML)
        assert section.status_code == 200 and "HX-Refresh" not in section.headers
        assert 'id="replay-review"' in section.text and "<html" not in section.text
        assert (await client.get(f"{base}/review?as=spectator", headers=HTML)).status_code == 400
        r = await client.post(
            f"/rooms/{room_id}/seat/{tokens[0]}/review", headers={**HTML, "origin": "http://arena.test"}
        )
        assert (r.status_code, r.headers["location"]) == (303, f"{base}?step=0&as=0")
        review = await ready(client, room_id, 0)
        first = review["moves"][0]
        assert (await client.get(f"{base}/review?as=0&step=0", headers=HTML)).headers["HX-Refresh"] == "true"
        shown = (await client.get(f"{base}?step={first['step']}&as=0", headers=HTML)).text
        assert shown.count('<li class="current" aria-current="step"><a href') == 1
        assert (
            f"Ana played “{first['played']['label']}”; the expert bot preferred “{first['preferred']['label']}”"
            in shown
        )
        assert 'id="review-here"' in shown and 'list="review-marks"' in shown
        ticks = re.findall(
            r'<option value="(\d+)"></option>', shown.split('id="review-marks"')[1].split("</datalist>")[0]
        )
        assert ticks == [str(m["step"]) for m in review["moves"]]
        elsewhere = (await client.get(f"{base}?step=0&as=0", headers=HTML)).text
        assert 'id="review-moves"' in elsewhere and 'id="review-here"' not in elsewhere
        portuguese = (
            await client.get(f"{base}?step={first['step']}&as=0", headers={**HTML, "accept-language": "pt-PT"})
        ).text
        assert "Revisão das jogadas de Ana" in portuguese and "o bot especialista preferia" in portuguese


async def test_moves_a_bot_chose_for_the_seat_are_not_reviewed_as_its_players(sqlite_url):
    """A player who hands their seat to a bot (their autopilot, or a stand-in) did not choose
    the bot's moves: the record marks each move a bot chose, and the review goes through the
    player's own decisions only (it judged the autopilot's moves as theirs: "Ana played...")."""
    async with running_app(sqlite_url, bot_delay_seconds=0.0, **TINY) as client:
        made = (await client.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"})).json()
        room_id, token = made["room"]["id"], made["token"]
        seated = await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(token))
        assert seated.status_code == 201
        assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth(token))).status_code == 200
        own = 0
        while own < 4:  # Ana's own moves, then her autopilot's
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(token))).json()
            if not legal["legal_actions"]:
                await asyncio.sleep(0.02)
                continue
            move = {"version": legal["version"], "action": legal["legal_actions"][-1]["action"]}
            assert (
                await client.post(f"/api/rooms/{room_id}/actions", headers=auth(token), json=move)
            ).status_code == 200
            own += 1
        handed = await client.put(
            f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": "random"}, headers=auth(token)
        )
        assert handed.status_code == 200
        for _ in range(600):
            if (await client.get(f"/api/rooms/{room_id}")).json()["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        record = (await client.get(f"/api/rooms/{room_id}/record")).json()
        anas = [a for a in record["actions"] if a["seat"] == 0]
        assert [a["bot"] for a in anas] == [False] * 4 + [True] * (len(anas) - 4) and len(anas) > 8
        assert all(a["bot"] for a in record["actions"] if a["seat"] == 1)
        steps = {a["seq"] for a in anas if not a["bot"]}
        choices = list(decisions(Replay.of(record), 0))
        assert choices and {d.step for d in choices} <= steps
        assert (await client.post(f"/api/rooms/{room_id}/review", headers=auth(token))).status_code == 202
        review = await ready(client, room_id, 0)
        assert review["total"] == len(choices) and all(m["step"] in steps for m in review["moves"])
        # a record file of moves logged before bots were marked (no "bot") still verifies
        unmarked = {**record, "actions": [{k: v for k, v in a.items() if k != "bot"} for a in record["actions"]]}
        upload = await client.post("/replay", files={"record": ("r.json", json.dumps(unmarked).encode())}, headers=HTML)
        assert upload.status_code == 303
        record["actions"][0]["bot"] = "yes"
        upload = await client.post("/replay", files={"record": ("r.json", json.dumps(record).encode())}, headers=HTML)
        assert upload.status_code == 400 and "action 1&#39;s bot must be true or false" in upload.text


async def test_a_review_the_server_stopped_making_is_made_at_once_after_a_restart(sqlite_url):
    """A restart (SIGTERM, a deploy) in the middle of a review: the restarted server takes it
    up at its start. It stood "running", its progress frozen, until it went stale (2 minutes).
    The stop ends the review's worker process as well, which outlived the server before."""
    async with running_app(sqlite_url) as client:  # (the full budget: still running when stopped)
        room_id, tokens = await finished_game(client)
        assert (await client.post(f"/api/rooms/{room_id}/review", headers=auth(tokens[0]))).status_code == 202
        for _ in range(600):
            review = (await client.get(f"/api/rooms/{room_id}/review?seat=0")).json()
            if review["status"] == "running" and review["done"] >= 1:
                break
            await asyncio.sleep(0.05)
        assert review["status"] == "running" and review["done"] < review["total"]
        workers = {child.pid for child in multiprocessing.active_children()}
        assert workers  # (the review's worker process, at work)
    # The stop ended the worker too: left running, it outlived the server for good.
    assert not workers & {child.pid for child in multiprocessing.active_children()}
    async with running_app(sqlite_url, **TINY) as client:
        assert (await ready(client, room_id, 0, seconds=30))["status"] == "ready"
