"""The server tunes the garbage collector once it is ready (app/runtime.py)."""

from __future__ import annotations

import gc

from tests.conftest import running_app


async def test_a_ready_server_freezes_its_start_up_objects_and_collects_less_often(sqlite_url):
    gc.set_threshold(700, 10, 10)
    gc.unfreeze()
    async with running_app(sqlite_url):
        assert gc.get_threshold() == (10_000, 5, 80)
        assert gc.get_freeze_count() > 10_000
