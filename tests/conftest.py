"""Shared fixtures: an app per test on a fresh SQLite file, a Postgres database per session,
and small helpers to drive rooms through the REST API.

Postgres is not optional: the persistence tests fail (they are never skipped) when the server
at TEST_POSTGRES_URL (default: the machine's 127.0.0.1:5432, trust auth) cannot be reached.
"""

from __future__ import annotations

import os
import random
import uuid
from contextlib import asynccontextmanager, contextmanager

import httpx
import psycopg
import pytest

# The toy game (tests/toy/) is registered for the whole run, before the registry is first imported;
# the servers the tests start inherit it.
os.environ.setdefault("EXTRA_GAMES", "tests.toy.game")
from app.config import Settings
from app.main import create_app
from tests.support.databases import start_migrated
from tests.support.rendering import RENDERER

pytest_plugins = ["tests.support.browsers"]

POSTGRES_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")

# The kinds of test (pyproject.toml registers the markers; README, "Run the tests"): a test is
# `browser` or `postgres` when it uses the fixture that brings Chromium or a Postgres database, or
# `server` when it runs real server processes or sockets (the `live` fixture, or its module's own
# `pytestmark` where it starts them itself); a test that is none of these is `unit`, and
# `pytest -m unit` is the quick run.
NEEDS = {"browser": {"browser"}, "postgres": {"postgres_url", "fresh_postgres_url"}, "server": {"live"}}


def pytest_collection_modifyitems(items):
    for item in items:
        for kind, fixtures in NEEDS.items():
            if fixtures & set(item.fixturenames) and not item.get_closest_marker(kind):
                item.add_marker(kind)
        if not any(item.get_closest_marker(kind) for kind in NEEDS):
            item.add_marker("unit")


@contextmanager
def postgres_database():
    """A fresh, empty Postgres database, dropped when the block ends; yields its URL."""
    name = f"troika_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = POSTGRES_ADMIN_URL.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_url():
    """A fresh, empty Postgres database for this test session, dropped at the end."""
    with postgres_database() as url:
        yield url


@pytest.fixture
def fresh_postgres_url():
    """A fresh, empty Postgres database for one test (never migrated before it)."""
    with postgres_database() as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path}/arena.db"


@asynccontextmanager
async def running_app(database_url: str, **settings):
    """An app with its lifespan entered, and an httpx client talking to it in-process (as host
    ``arena.test``, which these test settings allow)."""
    settings.setdefault("allowed_hosts", "arena.test")
    start_migrated(database_url)
    app = create_app(Settings(database_url=database_url, **settings), renderer=RENDERER)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://arena.test") as client:
            client.app = app
            yield client


@pytest.fixture
async def client(sqlite_url):
    async with running_app(sqlite_url) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create_started_room(client, game="troika", seats=3, options=None, turn_timer=0, hints=False):
    """Create a room, fill every seat through the API, start it; returns (room_id, tokens)."""
    names = ["Ana", "Bruno", "Carla", "Duarte", "Eva"]
    body = {"game": game, "seats": seats, "name": names[0], "options": options or {}, "turn_timer": turn_timer}
    if hints:
        body["hints"] = True
    r = await client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    room_id, tokens = r.json()["room"]["id"], [r.json()["token"]]
    for name in names[1:seats]:
        r = await client.post(f"/api/rooms/{room_id}/seats", json={"name": name})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = await client.post(f"/api/rooms/{room_id}/start", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    return room_id, tokens


async def play_random_moves(client, room_id, tokens, moves, rng=None, avoid=("troika",)):
    """Play up to ``moves`` random legal actions through the API; returns the last view.

    Action types in ``avoid`` are chosen only when nothing else is legal (a random "Troika!"
    call almost always fails and would end games after a few turns)."""
    rng = rng or random.Random(1)
    view = None
    for _ in range(moves):
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        if view["status"] != "playing":
            break
        # (a reaction window shows the seats that answered as awaited to the others: such a
        # seat has no move, so the mover is one of the seats shown awaited that has one)
        chosen = rng.choice(view["to_act"])
        options: list = []
        for seat in [chosen, *(s for s in view["to_act"] if s != chosen)]:
            legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
            options = [a["action"] for a in legal["legal_actions"]]
            if options:
                break
        assert options, f"no seat shown awaited has a move: {view['to_act']}"
        preferred = [a for a in options if a["type"] not in avoid] or options
        choice = rng.choice(preferred)
        r = await client.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[seat]),
            json={"version": legal["version"], "action": choice},
        )
        assert r.status_code == 200, r.text
        view = r.json()
    return view
