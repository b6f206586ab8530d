"""The Docker image, built from the Dockerfile and run as a host runs it, on a machine that
reaches PyPI and Debian's mirror but not Docker Hub (this project's sessions).

Where Docker Hub answers, the Dockerfile is built as it is. Where it does not, its pinned
``python:3.11-slim`` cannot be pulled, so a stand-in base is made: Debian bookworm with its
python3 (3.11) and pip, by debootstrap, with this machine's CA certificates (for its PyPI), and
the Dockerfile is built with only its ``FROM`` line changed (and pip allowed to install beside
Debian's packages, as the official image's own Python is not Debian's). Every other step, the
hashed lock, the wheel, ``pip check``, the user, the healthcheck and the command, is the
Dockerfile's own. Then:

- on SQLite, in a named volume: /healthz answers, the server runs as uid 10001, Docker's
  healthcheck turns ``healthy``, and a started room is still there, at its version, after
  ``docker restart``;
- on Postgres (a private cluster of this check's own, never the machine's): the reference bot
  (examples/arena_bot.py) joins by the invite link and plays a game to its end against a bot,
  and the finished game's record is served.

It needs root, Docker's daemon (started here if only installed: ``apt-get install docker.io
debootstrap``) and a client that builds with BuildKit (Debian's docker.io has one; a newer
client without buildx does not). Not part of ``.ci/run``: a fresh CI machine has no daemon.
Run from the repository, in the test environment: ``python .ci/image_check.py``. Exits
non-zero at the first failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.postgres_cluster import own_cluster  # noqa: E402
from tests.support.servers import free_port  # noqa: E402

DOCKER = "/usr/bin/docker" if Path("/usr/bin/docker").exists() else "docker"
IMAGE = "troika-arena:check"
STAND_IN = "troika-arena-check/bookworm-python:3.11"
CACHE = Path(os.environ.get("IMAGE_CHECK_CACHE", Path(tempfile.gettempdir()) / "troika-image-check"))


def docker(*args: str, check: bool = True) -> str:
    done = subprocess.run([DOCKER, *args], capture_output=True, text=True)
    if check and done.returncode:
        raise SystemExit(f"docker {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout.strip()


def daemon_up() -> None:
    if subprocess.run([DOCKER, "info"], capture_output=True).returncode == 0:
        return
    if not shutil.which("dockerd"):
        raise SystemExit("no Docker daemon: apt-get install -y docker.io debootstrap")
    subprocess.Popen(["dockerd"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    for _ in range(60):
        if subprocess.run([DOCKER, "info"], capture_output=True).returncode == 0:
            return
        time.sleep(0.5)
    raise SystemExit("dockerd did not start")


def dockerfile() -> Path:
    """The Dockerfile to build: the project's own, or a copy from the stand-in base."""
    base = next(line.split()[1] for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("FROM"))
    if subprocess.run([DOCKER, "pull", base], capture_output=True).returncode == 0:
        return ROOT / "Dockerfile"
    print(f"{base} cannot be pulled: building from Debian bookworm's python3 instead")
    if not docker("images", "-q", STAND_IN):
        root = CACHE / "root"
        if not (root / "usr/bin/python3").exists():
            shutil.rmtree(root, ignore_errors=True)
            subprocess.run(
                ["debootstrap", "--variant=minbase", "--include=python3,python3-pip,ca-certificates", "bookworm", root],
                check=True,
                capture_output=True,
            )
        shutil.copy("/etc/ssl/certs/ca-certificates.crt", root / "etc/ssl/certs/ca-certificates.crt")
        tar = subprocess.Popen(["tar", "-C", root, "-c", "."], stdout=subprocess.PIPE)
        subprocess.run([DOCKER, "import", "-", STAND_IN], stdin=tar.stdout, check=True, capture_output=True)
        tar.wait()
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    copy = [f"FROM {STAND_IN}\nENV PIP_BREAK_SYSTEM_PACKAGES=1" if line.startswith("FROM") else line for line in lines]
    path = CACHE / "Dockerfile"
    path.write_text("\n".join(copy) + "\n")
    return path


def healthy(base: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"{base}/healthz never answered")


def check(ok: bool, what: str) -> None:
    if not ok:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}")


def on_sqlite() -> None:
    port, volume, name = free_port(), "troika-arena-check-data", "troika-arena-check-sqlite"
    docker("run", "-d", "--name", name, "-p", f"{port}:8000", "-v", f"{volume}:/data", IMAGE)
    try:
        base = f"http://127.0.0.1:{port}"
        healthy(base)
        check(docker("exec", name, "id", "-u") == "10001", "the server runs as uid 10001")
        api = httpx.Client(base_url=base, timeout=10)
        created = api.post("/api/rooms", json={"game": "triatri", "name": "Ana", "seats": 2}).json()
        room, host = created["room"]["id"], {"Authorization": f"Bearer {created['token']}"}
        api.post(f"/api/rooms/{room}/seats", json={"bot": "random"}, headers=host).raise_for_status()
        api.post(f"/api/rooms/{room}/start", json={}, headers=host).raise_for_status()
        view = api.get(f"/api/rooms/{room}/view", headers=host).json()
        docker("restart", name)
        healthy(base)
        again = api.get(f"/api/rooms/{room}/view", headers=host).json()
        check(
            (again["status"], again["version"]) == ("playing", view["version"]),
            "a started room survives docker restart",
        )
        deadline = time.monotonic() + 90
        while (status := docker("inspect", "--format", "{{.State.Health.Status}}", name)) != "healthy":
            if time.monotonic() > deadline:
                break
            time.sleep(2)
        check(status == "healthy", "Docker's healthcheck turns healthy")
    finally:
        docker("rm", "-f", name, check=False)
        docker("volume", "rm", volume, check=False)


def on_postgres() -> None:
    with own_cluster() as cluster:
        database = cluster.url.rsplit("/", 1)[0] + "/arena"
        subprocess.run(["psql", cluster.url, "-qc", "create database arena"], check=True, capture_output=True)
        port, name = free_port(), "troika-arena-check-postgres"
        settings = ["-e", f"PORT={port}", "-e", f"DATABASE_URL={database}"]
        docker("run", "-d", "--name", name, "--network", "host", *settings, IMAGE)
        try:
            base = f"http://127.0.0.1:{port}"
            healthy(base)
            api = httpx.Client(base_url=base, timeout=10)
            created = api.post("/api/rooms", json={"game": "troika", "name": "Ana", "seats": 2}).json()
            room, host = created["room"]["id"], {"Authorization": f"Bearer {created['token']}"}
            api.put(f"/api/rooms/{room}/seats/me/autopilot", json={"bot": "random"}, headers=host).raise_for_status()
            bot = subprocess.Popen(
                [sys.executable, str(ROOT / "examples/arena_bot.py"), f"{base}/rooms/{room}", "--name", "Robo"],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            while not (joined := api.get(f"/api/rooms/{room}").json()["seats"][1]["name"]) and bot.poll() is None:
                time.sleep(0.2)
            check(joined == "Robo", "the reference bot joins by the invite link")
            api.post(f"/api/rooms/{room}/start", json={}, headers=host).raise_for_status()
            bot.communicate(timeout=600)
            check(api.get(f"/api/rooms/{room}").json()["status"] == "finished", "a game on Postgres plays to its end")
            record = api.get(f"/api/rooms/{room}/record")
            check(record.status_code == 200 and "actions" in json.loads(record.text), "its record is served")
        finally:
            docker("rm", "-f", name, check=False)


def main() -> None:
    if os.geteuid() != 0:
        raise SystemExit("run as root (debootstrap, dockerd)")
    CACHE.mkdir(parents=True, exist_ok=True)
    daemon_up()
    built = subprocess.run(
        [DOCKER, "build", "-q", "-t", IMAGE, "-f", str(dockerfile()), str(ROOT)],
        env={**os.environ, "DOCKER_BUILDKIT": "1"},
        capture_output=True,
        text=True,
    )
    check(built.returncode == 0, f"the image builds{'' if built.returncode == 0 else ': ' + built.stderr[-2000:]}")
    on_sqlite()
    on_postgres()
    print("the image serves as a host runs it")


if __name__ == "__main__":
    main()
