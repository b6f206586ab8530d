"""CI's first step: what a user runs works on exactly the install a user gets.

Installs the project with no extras into a fresh virtualenv as the Dockerfile does (the hashed
``.ci/image.lock`` with ``--require-hashes --no-deps``, then the server itself with
``--no-deps --no-build-isolation``, then ``pip check``); runs ``--help`` of every
command ``troika-arena`` has (read from its own parser, so a new command is covered), and the
quick ones for real; then starts ``troika-arena serve`` on SQLite and on a throwaway Postgres
database (created and dropped here with psql), checks /healthz and ``troika-arena health``
(the image's healthcheck) on a port that is not 8000, and creates, joins and starts
a room and plays one move through the REST API, reading whose turn it is (``to_act``) first,
as the README's walk-through does. Last, it runs the README's "Run it" command word for word
in a fresh clone (venv, install, serve) and plays a move on that server too. It uses the
standard library only, so no test dependency can stand in for a missing runtime one. Exits
non-zero at the first failure.

Run: ``python3 .ci/smoke.py`` from anywhere (PostgreSQL at 127.0.0.1:5432, trust auth for
``postgres``, or the admin URL in SMOKE_POSTGRES_URL).
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGE_LOCK = ("--requirement", ".ci/image.lock")
README_RUN_IT = "Run it"  # the README section whose command is run here as written
POSTGRES_ADMIN = os.environ.get("SMOKE_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
COMMANDS = """
import argparse, json
from app.cli import build_parser
def walk(parser, path):
    yield path
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, path + [name])
print(json.dumps(list(walk(build_parser(), []))))
"""


def step(text: str) -> None:
    print(f"-- smoke: {text}", flush=True)


def run(*args: str, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAILED: {' '.join(args)} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def call(
    base: str, method: str, path: str, body: dict | None = None, token: str | None = None, expect: int = 200
) -> dict:
    headers = {"content-type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    if status != expect:
        raise AssertionError(f"{method} {path} answered {status}, expected {expect}: {text[:500]}")
    return json.loads(text) if text else {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(bin_dir: Path, database_url: str, workdir: Path):
    """``troika-arena serve`` on a free port until the block ends; yields its base URL."""
    port = free_port()
    log_path = workdir / f"serve-{port}.log"
    env = {**os.environ, "DATABASE_URL": database_url, "HOST": "127.0.0.1", "PORT": str(port)}
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [str(bin_dir / "troika-arena"), "serve"], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while not healthy(base):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("troika-arena serve did not answer /healthz")
            time.sleep(0.2)
        # The image's HEALTHCHECK, `troika-arena health`, finds the server by PORT as serve does.
        run(str(bin_dir / "troika-arena"), "health", cwd=workdir, env={**env, "HOST": "0.0.0.0"})
        yield base
        proc.terminate()
        if proc.wait(timeout=20) not in (0, -15):  # uvicorn re-raises the signal once shut down
            raise AssertionError(f"troika-arena serve exited {proc.returncode} on SIGTERM")
        if "Traceback" in log_path.read_text():
            raise AssertionError("troika-arena serve logged a traceback")
    except BaseException:
        print(f"--- troika-arena serve output ---\n{log_path.read_text()[-8000:]}", flush=True)
        raise
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def readme_command(section: str) -> str:
    """The command line of the README's ``section`` (the first line of its ``sh`` block)."""
    text = (ROOT / "README.md").read_text()
    after = text.split(f"## {section}\n", 1)[1].split("```sh\n", 1)[1]
    return after.split("\n", 1)[0].strip()


def run_it_as_written(work: Path) -> None:
    """The README's "Run it" command word for word (venv, install, serve) in a fresh clone of
    the repository, on a free PORT; then the same REST walk-through as below."""
    clone, port = work / "clone", free_port()
    run("git", "clone", "--quiet", str(ROOT), str(clone))
    log_path = work / "run-it.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            ["bash", "-c", readme_command(README_RUN_IT)],
            cwd=clone,
            env={**os.environ, "PORT": str(port)},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600  # the install comes first
        while not healthy(base):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the README's command did not serve:\n{log_path.read_text()[-4000:]}")
            time.sleep(0.5)
        play_one_move(base)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def play_one_move(base: str) -> None:
    """Health, then a 2-seat Troika room created, joined, started, and one legal move."""
    call(base, "GET", "/healthz")
    for page in ("/", "/static/favicon.svg"):  # templates and static files are installed too
        with urllib.request.urlopen(base + page, timeout=30) as response:
            assert response.status == 200 and response.read(), page
    created = call(base, "POST", "/api/rooms", {"game": "troika", "seats": 2, "name": "Ana"}, expect=201)
    room = created["room"]["id"]
    tokens = [created["token"], call(base, "POST", f"/api/rooms/{room}/seats", {"name": "Bruno"}, expect=201)["token"]]
    call(base, "POST", f"/api/rooms/{room}/start", token=tokens[0])
    view = call(base, "GET", f"/api/rooms/{room}/view")
    seat = view["to_act"][0]
    legal = call(base, "GET", f"/api/rooms/{room}/legal-actions", token=tokens[seat])
    action = legal["legal_actions"][0]["action"]
    moved = call(
        base, "POST", f"/api/rooms/{room}/actions", {"version": legal["version"], "action": action}, token=tokens[seat]
    )
    assert moved["version"] == legal["version"] + 1, moved
    assert call(base, "GET", f"/api/rooms/{room}/view")["version"] == moved["version"]


@contextmanager
def postgres_database():
    """A throwaway Postgres database, dropped afterwards; yields its URL."""
    name = f"smoke_{secrets.token_hex(4)}"
    run("psql", POSTGRES_ADMIN, "-v", "ON_ERROR_STOP=1", "-qc", f"CREATE DATABASE {name}")
    try:
        yield POSTGRES_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        run("psql", POSTGRES_ADMIN, "-v", "ON_ERROR_STOP=1", "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="troika-smoke-") as folder:
        work = Path(folder)
        step("fresh virtualenv, installed as the Dockerfile does: the hashed .ci/image.lock, then the server")
        run(sys.executable, "-m", "venv", str(work / "venv"))
        bin_dir = work / "venv" / "bin"
        python = str(bin_dir / "python")
        # The Dockerfile's two steps: the hashed lock (with the build backend), then the server.
        run(python, "-m", "pip", "install", "--quiet", "--require-hashes", "--no-deps", *IMAGE_LOCK, cwd=ROOT)
        run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", ".", cwd=ROOT)
        run(python, "-m", "pip", "check", cwd=ROOT)
        arena = str(bin_dir / "troika-arena")

        commands = json.loads(run(str(bin_dir / "python"), "-c", COMMANDS, cwd=work).stdout)
        for command in commands:
            step(f"troika-arena {' '.join(command + ['--help'])}")
            assert "usage:" in run(arena, *command, "--help", cwd=work).stdout
        step("troika-arena simulate and bench engines, briefly")
        run(arena, "simulate", "--game", "troika", "--games", "2", "--bots", "random", cwd=work)
        run(arena, "bench", "engines", "--seconds", "0.05", cwd=work)

        sqlite = f"sqlite:///{work}/smoke.db"
        with postgres_database() as postgres:
            for label, url in (("SQLite", sqlite), ("Postgres", postgres)):
                step(
                    f"troika-arena serve on a new {label} database: /healthz, a room created, joined, started, one move"
                )
                with serving(bin_dir, url, work) as base:
                    play_one_move(base)
                step(f"troika-arena migrate on {label}")
                run(arena, "migrate", cwd=work, env={**os.environ, "DATABASE_URL": url})
        step(f"the README's {README_RUN_IT!r} command as written, in a fresh clone: serves, one move")
        run_it_as_written(work)
    step("passed")


if __name__ == "__main__":
    main()
