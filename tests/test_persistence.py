"""Persistence on both databases: a room survives a restart with the same version and the same
views for every seat, play continues after it, and two submissions racing for one sequence
number cannot both land."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.databases import BACKENDS


@pytest.fixture(params=BACKENDS)
def database_url(request, sqlite_url):
    return sqlite_url if request.param == "sqlite" else request.getfixturevalue("postgres_url")


async def all_views(client, room_id, tokens):
    views = [(await client.get(f"/api/rooms/{room_id}/view")).json()]
    for token in tokens:
        views.append((await client.get(f"/api/rooms/{room_id}/view", headers=auth(token))).json())
    return views


@pytest.mark.parametrize("game", ["troika", "triatri"])
async def test_a_room_survives_a_restart_with_identical_views(database_url, game):
    async with running_app(database_url) as client:
        room_id, tokens = await create_started_room(client, game, 3)
        await play_random_moves(client, room_id, tokens, 25, random.Random(3))
        before = await all_views(client, room_id, tokens)
        logs = [(await client.get(f"/api/rooms/{room_id}/log", headers=auth(t))).json() for t in tokens]
    async with running_app(database_url) as client:
        after = await all_views(client, room_id, tokens)
        assert after == before
        assert after[0]["version"] == 25
        again = [(await client.get(f"/api/rooms/{room_id}/log", headers=auth(t))).json() for t in tokens]
        assert again == logs
        view = await play_random_moves(client, room_id, tokens, 5, random.Random(4))
        assert view["version"] == 30


async def test_racing_submissions_for_one_turn_land_once(database_url):
    async with running_app(database_url) as client:
        room_id, tokens = await create_started_room(client, "troika", 2)
        seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
        move = {"version": 0, "action": legal["legal_actions"][0]["action"]}
        url = f"/api/rooms/{room_id}/actions"
        results = await asyncio.gather(*[client.post(url, headers=auth(tokens[seat]), json=move) for _ in range(5)])
        assert sorted(r.status_code for r in results) == [200, 409, 409, 409, 409]
        assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 1


async def play_relayed(mover, listener, room_id, tokens, moves, rng) -> None:
    """Play ``moves`` through the app ``mover`` and wait until the app ``listener`` has been told
    of the last one by the Postgres relay (without reading the room there)."""
    version = (await mover.get(f"/api/rooms/{room_id}/view")).json()["version"] + moves
    with listener.app.state.rooms.bus.subscribe(room_id) as relayed:
        await play_random_moves(mover, room_id, tokens, moves, rng)
        change = await asyncio.wait_for(relayed.next(), 5)
        while change.version is None or change.version < version:
            change = await asyncio.wait_for(relayed.next(), 5)


async def test_a_second_app_on_the_same_database_sees_moves_made_by_the_first(postgres_url):
    """Two instances share one Postgres database: each hears of the other's moves through the
    relay and catches up from the log before it answers. (One SQLite file serves one process:
    two processes on it have no relay between them; see app/realtime/cache.py.)"""
    async with running_app(postgres_url) as first, running_app(postgres_url) as second:
        room_id, tokens = await create_started_room(first, "troika", 2)
        await play_relayed(first, second, room_id, tokens, 6, random.Random(8))
        assert await all_views(second, room_id, tokens) == await all_views(first, room_id, tokens)
        await play_relayed(second, first, room_id, tokens, 3, random.Random(9))
        views = await all_views(first, room_id, tokens)
        assert views[0]["version"] == 9
        assert views == await all_views(second, room_id, tokens)


async def test_readers_catching_up_at_once_all_get_the_latest_view(postgres_url):
    """Several requests find this instance's game behind the log at the same moment (as a push,
    a bot and a timer do after another instance's move): each catches up, none trips on the
    rows another one has already applied."""
    async with running_app(postgres_url) as first, running_app(postgres_url) as second:
        room_id, tokens = await create_started_room(first, "troika", 2)
        await first.get(f"/api/rooms/{room_id}/view")  # the game is now held in memory at version 0
        await play_relayed(second, first, room_id, tokens, 3, random.Random(5))
        answers = await asyncio.gather(
            *[first.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[i % 2])) for i in range(6)]
        )
        assert [r.status_code for r in answers] == [200] * 6
        assert {r.json()["version"] for r in answers} == {3}


async def test_games_dropped_from_memory_are_rebuilt_from_their_log(sqlite_url, monkeypatch):
    monkeypatch.setattr("app.rooms.live_games.MAX_GAMES_HELD", 1)
    async with running_app(sqlite_url) as client:
        rooms = [await create_started_room(client, "troika", 2) for _ in range(3)]
        for n, (room_id, tokens) in enumerate(rooms):
            await play_random_moves(client, room_id, tokens, 4 + n, random.Random(n))
        assert len(client.app.state.rooms._games) == 1  # (inside: which games are held shows nowhere public)
        for n, (room_id, tokens) in enumerate(rooms):
            before = await all_views(client, room_id, tokens)
            assert before[0]["version"] == 4 + n
            view = await play_random_moves(client, room_id, tokens, 2, random.Random(10 + n))
            assert view["version"] == 6 + n


async def test_an_api_read_through_another_instance_sees_a_move_at_once(postgres_url):
    """Pushes wait for the relay; API reads check the database's version of the room first, so
    a program that moves through one instance and reads through another sees its move."""
    async with running_app(postgres_url) as first, running_app(postgres_url) as second:
        room_id, tokens = await create_started_room(first, "troika", 2)
        assert (await first.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0  # now cached
        for moves in range(1, 6):
            await play_random_moves(second, room_id, tokens, 1, random.Random(moves))
            view = (await first.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
            assert view["version"] == moves
