"""Hints for learners (issue 29, point 5): a room option chosen at creation, shown in the room's
facts and the lobby; on its turn a seat is suggested one of its legal moves with a one-line
reason, worked out from its information set only; refused without the option, to a spectator
or a stranger, off turn, before the start and after the end."""

from __future__ import annotations

import asyncio
import random
import re
import threading
from types import SimpleNamespace

import pytest

from app.api.answers import Hint
from app.games.base import same_json
from app.games.registry import GAMES
from app.rooms.errors import TooMany
from app.rooms.hints import HINTS_WAITING, Hints
from app.rooms.model import RoomInfo
from app.rooms.throttle import Throttle
from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.registered import seated

HTML = {"accept": "text/html"}
TINY = {"hint_rollouts": 24}  # a hint's budget in these tests: a few worlds, milliseconds


async def refusal(client, room_id, token=None):
    r = await client.get(f"/api/rooms/{room_id}/hint", headers=auth(token) if token else {})
    return r.status_code, r.json()["error"]


async def awaited_seat(client, room_id):
    return (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]


async def test_a_room_without_the_option_refuses_hints(sqlite_url):
    async with running_app(sqlite_url, **TINY) as client:
        room_id, tokens = await create_started_room(client, "troika", 2)
        assert (await client.get(f"/api/rooms/{room_id}")).json()["hints"] is False
        seat = await awaited_seat(client, room_id)
        assert await refusal(client, room_id, tokens[seat]) == (409, "hints_off")
        assert await refusal(client, room_id, tokens[1 - seat]) == (409, "hints_off")


@pytest.mark.parametrize("slug", list(GAMES))
async def test_on_its_turn_a_seat_is_suggested_one_of_its_legal_moves_with_a_reason(sqlite_url, slug):
    async with running_app(sqlite_url, **TINY) as client:
        room_id, tokens = await create_started_room(client, slug, 2, options={}, hints=True)
        await play_random_moves(client, room_id, tokens, 3)
        seat = await awaited_seat(client, room_id)
        mine = auth(tokens[seat])
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=mine)).json()
        r = await client.get(f"/api/rooms/{room_id}/hint", headers=mine)
        assert r.status_code == 200, r.text
        hint = r.json()
        Hint.model_validate(hint)  # the published shape, nothing more
        assert (hint["version"], hint["seat"], hint["level"]) == (legal["version"], seat, "strong")
        listed = [item for item in legal["legal_actions"] if same_json(item, hint["suggestion"])]
        assert len(listed) == 1  # the action and its label, exactly as legal-actions lists them
        assert hint["reason"]["text"] and "\n" not in hint["reason"]["text"]
        assert (await client.get(f"/api/rooms/{room_id}/hint", headers=mine)).json() == hint  # kept
        move = {"version": hint["version"], "action": hint["suggestion"]["action"]}
        assert (await client.post(f"/api/rooms/{room_id}/actions", headers=mine, json=move)).status_code == 200


async def create_hinted_room(client, seats=2):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": seats, "name": "Ana", "hints": True})
    assert r.status_code == 201, r.text
    return r.json()["room"]["id"], r.json()["token"]


async def test_hints_are_refused_before_the_start_off_turn_to_strangers_and_after_the_end(sqlite_url):
    async with running_app(sqlite_url, **TINY) as client:
        room_id, host = await create_hinted_room(client)
        assert await refusal(client, room_id, host) == (409, "conflict")  # before the start
        guest = (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bruno"})).json()["token"]
        assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))).status_code == 200
        tokens = [host, guest]
        seat = await awaited_seat(client, room_id)
        assert await refusal(client, room_id, tokens[1 - seat]) == (409, "conflict")  # not its turn
        assert await refusal(client, room_id) == (401, "unauthorized")  # a spectator
        _, stranger = await create_hinted_room(client)
        assert await refusal(client, room_id, stranger) == (403, "forbidden")
        assert await refusal(client, "no-such-room", tokens[seat]) == (404, "not_found")
        assert (await client.get(f"/api/rooms/{room_id}/hint", headers=auth(tokens[seat]))).status_code == 200
        assert (await client.post(f"/api/rooms/{room_id}/close", headers=auth(host))).status_code == 200
        assert await refusal(client, room_id, tokens[seat]) == (409, "conflict")  # the game is over


async def test_a_finished_game_gives_no_more_hints_and_its_next_game_has_them_too(sqlite_url):
    async with running_app(sqlite_url, **TINY) as client:
        room_id, tokens = await create_started_room(client, "triatri", 2, hints=True)
        view = await play_random_moves(client, room_id, tokens, 400)
        assert view["status"] == "finished"
        for token in tokens:
            assert await refusal(client, room_id, token) == (409, "conflict")
        again = (await client.post(f"/api/rooms/{room_id}/again", headers=auth(tokens[0]))).json()
        assert (await client.get(f"/api/rooms/{again['room']}")).json()["hints"] is True  # played again with hints


async def test_the_option_is_chosen_at_creation_only_and_shown_in_the_lobby(sqlite_url):
    async with running_app(sqlite_url, **TINY) as client:
        hinted, host = await create_hinted_room(client)
        plain = (await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})).json()["room"]
        listed = {room["id"]: room["hints"] for room in (await client.get("/api/rooms")).json()}
        assert listed[hinted] is True and listed[plain["id"]] is False
        page = (await client.get("/lobby/rooms", headers=HTML)).text
        badges = {
            re.search(r'href="/rooms/([^"]+)"', item).group(1): 'class="badge hints"' in item
            for item in re.findall(r"<li>(.*?)</li>", page, re.S)
        }
        assert badges == {hinted: True, plain["id"]: False}
        for wrong in ("true", 1, None, [], 0.0):  # a JSON boolean, nothing else
            body = {"game": "troika", "seats": 2, "name": "Ana", "hints": wrong}
            assert (await client.post("/api/rooms", json=body)).status_code == 400, wrong
        # no call changes it afterwards: not the start's body, not a room's own path
        start = await client.post(f"/api/rooms/{plain['id']}/start", headers=auth("x"), json={"hints": True})
        assert (start.status_code, start.json()["error"]) == (422, "unknown_field")
        for method in ("PATCH", "PUT", "POST"):
            assert (await client.request(method, f"/api/rooms/{plain['id']}", json={"hints": True})).status_code == 405
        guest = (await client.post(f"/api/rooms/{hinted}/seats", json={"name": "Bruno"})).json()["token"]
        assert (await client.post(f"/api/rooms/{hinted}/start", headers=auth(host))).status_code == 200
        assert (await client.get(f"/api/rooms/{hinted}")).json()["hints"] is True
        assert (await client.get(f"/api/rooms/{plain['id']}")).json()["hints"] is False
        assert (await client.post(f"/api/rooms/{hinted}/close", headers=auth(guest))).status_code == 403


async def test_the_lobby_form_creates_a_room_with_hints(sqlite_url):
    async with running_app(sqlite_url, **TINY) as client:
        data = {"game": "troika", "seats": "2", "name": "Ana"}
        for extra, expected in (({"hints": "on"}, True), ({}, False)):
            r = await client.post("/rooms", data={**data, **extra}, headers=HTML)
            assert r.status_code == 303, r.text
            room_id = r.headers["location"].split("/")[2]
            assert (await client.get(f"/api/rooms/{room_id}")).json()["hints"] is expected
        assert 'name="hints"' in (await client.get("/", headers=HTML)).text


async def test_new_hints_are_rate_limited_per_seat_at_six_a_minute():
    throttle = Throttle()
    for _ in range(6):
        await throttle.hinting("room", 0)
    with pytest.raises(TooMany):
        await throttle.hinting("room", 0)
    await throttle.hinting("room", 1)  # another seat has its own


@pytest.mark.parametrize("slug, seats", seated(3))
def test_a_hint_depends_on_nothing_the_seat_cannot_see(slug, seats):
    """The same seat's hint in another world it cannot tell from the true one (the other hands,
    the piles and the seed dealt again by ``randomize_hidden``) is the same hint: the move, its
    label and the reason, word for word. A hint that read the true state would differ."""
    game = GAMES[slug]
    hints = Hints(None, Throttle(), rollouts=48)  # type: ignore[arg-type]  (no room service needed)
    rng = random.Random(5)
    state = game.setup(seats, {}, "hint-seed")
    compared = 0
    for step in range(60):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if step % 6 == 0 and len(legal) > 1:
            names = {s: f"P{s}" for s in range(seats)}
            info = RoomInfo("r", slug, game.title, {}, seats, 0, "playing", step, "", names)
            other = game.randomize_hidden(state, seat, random.Random(step))
            assert game.view(other, seat) == game.view(state, seat)
            assert other != state  # something hidden did change
            # (private: the hint's own computation, on a state no room can be given)
            assert hints._work_out(info, game, other, seat, step) == hints._work_out(info, game, state, seat, step)
            compared += 1
        state = game.apply(state, seat, rng.choice(legal))
    assert compared >= 3


class OneGame:
    """The room service's one call a hint makes, answering the same game for every room."""

    def __init__(self, info, state):
        self.info, self.live = info, SimpleNamespace(state=state, version=0)

    async def game_state(self, room_id):
        return self.info, self.live


async def test_at_most_eight_hints_wait_behind_the_one_being_worked_out():
    """One hint is worked out at a time; eight more may wait, the ninth is told to ask again in
    a second (the queue had no end), and once the queue moves, a hint is taken again."""
    game = GAMES["troika"]
    state = game.setup(2, {}, "seed")
    seat = min(game.to_act(state))
    info = RoomInfo("r", "troika", game.title, {}, 2, 0, "playing", 0, "", {0: "A", 1: "B"}, hints=True)
    hints = Hints(OneGame(info, state), Throttle(), rollouts=1)  # type: ignore[arg-type]
    let_go = threading.Event()
    hints._work_out = lambda *args: let_go.wait(10) and {"hint": args[0].id}  # type: ignore[method-assign]
    asked = [asyncio.create_task(hints.hint(f"room{n}", seat)) for n in range(1 + HINTS_WAITING)]
    await asyncio.sleep(0.1)
    assert hints._waiting == HINTS_WAITING and not any(task.done() for task in asked)
    with pytest.raises(TooMany) as refused:
        await hints.hint("one-more", seat)
    assert refused.value.headers["Retry-After"] == "1" and "other hints" in refused.value.message
    let_go.set()
    assert await asyncio.gather(*asked) == [{"hint": "r"}] * (1 + HINTS_WAITING)
    assert await hints.hint("one-more", seat) == {"hint": "r"}
