"""A Postgres cluster of a test's own: initialised in a temporary folder, listening on a free
loopback port (and a socket in that folder), restarted or stopped when the test says, removed
afterwards. Tests that restart or stop Postgres use it, so the machine's own cluster is never
touched. Its programs (initdb, pg_ctl) come from Debian's /usr/lib/postgresql/<version>/bin;
as root they run as the ``postgres`` user, which Postgres requires."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.servers import free_port


def bin_dir() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parent.parent.name))
    assert found, "no Postgres server programs under /usr/lib/postgresql/*/bin"
    return found[-1].parent


class Cluster:
    """A running cluster: ``url`` is its ``postgres`` database, ``restart()`` and ``stop()``
    do what they say (fast shutdown), each waiting until done."""

    def __init__(self, folder: Path, port: int, user: str | None):
        self.folder, self.port, self.user = folder, port, user
        self.data, self.bin = folder / "data", bin_dir()
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def run(self, program: str, *args: str) -> None:
        result = subprocess.run(
            [str(self.bin / program), *args], user=self.user, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, f"{program} {' '.join(args)}: {result.stdout}{result.stderr}"

    def init(self) -> None:
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def pg_ctl(self, action: str) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.folder / "log")
        self.run("pg_ctl", "-D", str(self.data), "-l", log, "-w", "-m", "fast", "-o", options, action)

    def start(self) -> None:
        self.pg_ctl("start")

    def restart(self) -> None:
        self.pg_ctl("restart")

    def stop(self) -> None:
        self.pg_ctl("stop")


@contextmanager
def own_cluster() -> Iterator[Cluster]:
    """A fresh cluster, started; stopped and its folder removed when the block ends."""
    folder = Path(tempfile.mkdtemp(prefix="troika-pg-"))
    user = "postgres" if os.geteuid() == 0 else None
    if user:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    cluster = Cluster(folder, free_port(), user)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        if (cluster.data / "postmaster.pid").exists():
            subprocess.run(
                [str(cluster.bin / "pg_ctl"), "-D", str(cluster.data), "-m", "immediate", "-w", "stop"],
                user=user,
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(folder, ignore_errors=True)
