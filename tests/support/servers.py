"""Real server processes for tests: ``troika-arena serve`` on a free loopback port (the
benchmark's launcher, with the access log on; a failing test prints the server's output)."""

from __future__ import annotations

from contextlib import contextmanager

from app.bench.servers import free_port, process

__all__ = ["free_port", "server_process"]


@contextmanager
def server_process(database_url: str, port: int, **settings: str):
    """Run the arena on ``database_url`` at ``port`` until the block ends (or it is killed);
    yields the process and its base URL."""
    env = dict(DATABASE_URL=database_url, **settings)
    with process("app.main:app", env, port=port, access_log=True) as server:
        yield server.proc, server.base
