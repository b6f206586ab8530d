"""Rooms driven over the REST API, as a program plays them: a started Troika room with its
seats' tokens (``make_room``), random legal moves (``play``), every seat's view and the
spectator's (``every_view``), a room polled until its view passes a test (``wait_until``, with
``FAST`` bots), a turn made to look old (``backdate_turn``), a game set to an exact state
(``plant``), and the move front door stepped around (``straight_to_the_route``). The fuller
builders shared by most tests (``create_started_room``, ``play_random_moves``) are in
tests/conftest.py."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import update

from app.db.models import Room
from tests.conftest import auth

FAST = {"bot_delay_seconds": 0.0, "bot_budget_seconds": 0.02}


async def wait_until(client, room_id, predicate, timeout=60.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        if predicate(view):
            return view
        assert asyncio.get_running_loop().time() < deadline, f"timed out at version {view['version']}"
        await asyncio.sleep(0.05)


async def make_room(client: httpx.AsyncClient, seats: int = 2):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": seats, "name": "Ana"})
    room_id, tokens = r.json()["room"]["id"], [r.json()["token"]]
    for name in ["Bruno", "Carla"][: seats - 1]:
        tokens.append((await client.post(f"/api/rooms/{room_id}/seats", json={"name": name})).json()["token"])
    await client.post(f"/api/rooms/{room_id}/start", headers=auth(tokens[0]))
    return room_id, tokens


async def play(client, room_id, tokens, moves, rng) -> dict:
    """Make ``moves`` random legal moves through the API; the reply to the last one."""
    reply: dict = {}
    for _ in range(moves):
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        seat = rng.choice(view["to_act"])
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
        action = rng.choice([a["action"] for a in legal["legal_actions"] if a["action"]["type"] != "troika"])
        r = await client.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[seat]),
            json={"version": legal["version"], "action": action},
        )
        assert r.status_code == 200, r.text
        reply = r.json()
    return reply


async def every_view(client, room_id, tokens):
    views = [(await client.get(f"/api/rooms/{room_id}/view")).json()]
    for token in tokens:
        views.append((await client.get(f"/api/rooms/{room_id}/view", headers=auth(token))).json())
    return views


async def backdate_turn(client, room_id, seconds):
    """Pretend the current turn began ``seconds`` ago (as if the players had been waiting)."""
    # Inside on purpose: no public call moves a turn's start, and waiting out a real timer takes minutes.
    async with client.app.state.rooms.db.write() as session:
        past = datetime.now(UTC) - timedelta(seconds=seconds)
        await session.exec(update(Room).where(Room.id == room_id).values(turn_started_at=past))
        await session.commit()
    client.app.state.rooms.forget(room_id)  # changed behind the server's back: drop what it holds


def straight_to_the_route(self, scope, receive, send):
    """A front door's ``__call__`` with the front door out of the way."""
    return self.app(scope, receive, send)


def plant(client, room_id: str, live, state) -> None:
    """Set the room's game (``live``, as the rooms service holds it) to ``state`` at its current
    version, as no public call can. Inside on purpose, twice: the state is held, and the views
    the server built of the room are dropped, since they are kept by value (a room's game at a
    version is otherwise always the same state) and would be served as they were."""
    live.hold(state)
    client.app.state.payloads._built.pop(room_id, None)
