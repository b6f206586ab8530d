"""Server processes for the benchmark, and what they cost (CPU seconds, resident memory).

``arena(database)`` runs the server as users do, ``troika-arena serve`` (so with its uvicorn
settings: frame size limit, request-head deadline, no compression), on a free loopback port
against a fresh SQLite file or a throwaway Postgres database (created and dropped here);
``baseline(bytes)`` runs the bare fan-out with uvicorn. Both are read from /proc while they run
(Linux).
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_ADMIN = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
TICKS = os.sysconf("SC_CLK_TCK")
ARENA = "app.main:app"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running server process: its base URL and its resource use."""

    def __init__(self, proc: subprocess.Popen, base: str, started_in: float, output: Callable[[], str]):
        self.proc, self.base, self.started_in = proc, base, started_in
        self.output = output  # everything the process has printed so far

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss_bytes(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0


@contextmanager
def process(module: str, env: dict[str, str], port: int | None = None, access_log: bool = False) -> Iterator[Server]:
    """Run ``module`` until the block ends; fail if it does not answer /healthz. The arena
    (``app.main:app``) runs through ``troika-arena serve``, anything else with plain uvicorn;
    ``access_log`` sets the log level to info, which prints the access log.

    Its output goes to a temporary file (a pipe nobody reads could fill up and stall it); when
    the block fails, the tail of that output is printed with the failure."""
    port = port or free_port()
    with tempfile.TemporaryFile() as output:
        began = time.monotonic()
        level = "info" if access_log else "warning"
        if module == ARENA:
            command = ["-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
        else:
            command = ["-m", "uvicorn", module, "--host", "127.0.0.1", "--port", str(port), "--log-level", level]
        proc = subprocess.Popen(
            [sys.executable, *command],
            cwd=ROOT,
            env={**os.environ, "LOG_LEVEL": level, **env},
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"

        def printed() -> str:
            output.seek(0)
            return output.read().decode(errors="replace")

        def tail() -> str:
            return printed()[-6000:]

        try:
            while True:
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None or time.monotonic() - began > 60:
                    raise RuntimeError(f"{module} did not start: {tail()}")
                time.sleep(0.05)
            yield Server(proc, base, time.monotonic() - began, printed)
        except BaseException:
            print(f"--- output of {module} on port {port} ---\n{tail()}")
            raise
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()


@contextmanager
def database(kind: str) -> Iterator[str]:
    """A fresh, empty database URL of ``kind`` (sqlite or postgres), removed afterwards."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="bench-") as folder:
            yield f"sqlite:///{folder}/arena.db"
        return
    import psycopg

    name = f"bench_{secrets.token_hex(4)}"
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield POSTGRES_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def arena(database_url: str) -> AbstractContextManager[Server]:
    # the benchmark creates hundreds of rooms from one address: lift the per-address limit
    return process(ARENA, {"DATABASE_URL": database_url, "ROOM_CREATION_LIMIT": "1000000/minute"})


def baseline(payload_bytes: int) -> AbstractContextManager[Server]:
    return process("app.bench.baseline:app", {"BENCH_PAYLOAD_BYTES": str(payload_bytes)})
