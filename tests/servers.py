"""Real server processes for tests: ``uvicorn app.main:app`` on a free loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

import httpx
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server_process(database_url: str, port: int, **settings: str):
    """Run ``uvicorn app.main:app`` as a child process until the block ends (or it is killed).

    Its output goes to a temporary file (a pipe nobody reads could fill up and stall it); when
    the block fails, the tail of that output is printed, so pytest shows it with the failure."""
    env = dict(os.environ, DATABASE_URL=database_url, LOG_LEVEL="warning", **settings)
    output = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            output.seek(0)
            pytest.fail(f"server did not start: {output.read().decode()[-2000:]}")
        time.sleep(0.1)
    try:
        yield proc, base
    except BaseException:
        output.seek(0)
        print(f"--- output of the server on port {port} ---\n{output.read().decode(errors='replace')[-6000:]}")
        raise
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        output.close()
