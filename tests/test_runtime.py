"""The server process tunes the garbage collector once it is ready (app/runtime.py); an app
that ``create_app`` makes (a test's, one of several in a process) leaves the process alone."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from tests.conftest import running_app

pytestmark = pytest.mark.server  # a process of its own

# What `uvicorn app.main:app` and `troika-arena serve` run: the module's app, its lifespan entered.
SERVED_APP = """
import asyncio, gc, os
gc.set_threshold(700, 10, 10)
from app.main import app
async def main():
    async with app.router.lifespan_context(app):
        print(gc.get_threshold(), gc.get_freeze_count() > 10_000)
asyncio.run(main())
"""


def test_the_served_app_freezes_its_start_up_objects_and_collects_less_often(tmp_path):
    env = {"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", SERVED_APP], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "(10000, 5, 80) True"


async def test_an_app_made_by_create_app_leaves_the_collector_as_it_was(sqlite_url):
    gc.set_threshold(700, 10, 10)
    try:
        async with running_app(sqlite_url):
            assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(700, 10, 10)
