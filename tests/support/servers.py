"""Real servers for tests on a free loopback port: ``troika-arena serve`` in a process of its
own (the benchmark's launcher, with the access log on; a failing test prints the server's
output), or uvicorn serving a fresh app in the test's own event loop (``in_process_server``, so
the test can inspect the app's tasks and log records)."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager, contextmanager

import uvicorn

from app.bench.servers import free_port, process
from app.config import Settings
from app.http_protocol import DenyingWebSocketProtocol
from app.main import create_app
from tests.support.databases import start_migrated

__all__ = ["free_port", "in_process_server", "server_process"]


@contextmanager
def server_process(database_url: str, port: int, **settings: str):
    """Run the arena on ``database_url`` at ``port`` until the block ends (or it is killed);
    yields the process and its base URL."""
    env = dict(DATABASE_URL=database_url, **settings)
    with process("app.main:app", env, port=port, access_log=True) as server:
        yield server.proc, server.base


@asynccontextmanager
async def in_process_server(database_url: str, **settings):
    """Serve a fresh app with uvicorn in this event loop; yields (base URL, app)."""
    start_migrated(database_url)
    app = create_app(Settings(database_url=database_url, **settings))
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, ws_per_message_deflate=False, ws=DenyingWebSocketProtocol
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), "the server did not start"
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        await task
