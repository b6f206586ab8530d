"""The ``troika-arena`` command as an operator reads it: ``--help`` gives the whole description
in plain words (no reStructuredText markup, nothing cut off mid-sentence) and lists every
command; ``health`` takes ``serve``'s ``--host`` and ``--port``, so it asks the server that
``serve --port`` started."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.cli import build_parser
from tests.support.servers import free_port, server_process

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


def test_help_prints_a_whole_plain_description_and_every_command():
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "100"},
    )
    text = result.stdout
    description = " ".join(text.split("\n\n")[1].split())
    assert "``" not in text and "`" not in text
    assert description.endswith("(see the README)."), description
    assert "verify game records" in description
    # (argparse's private _actions: it offers no public list of a parser's subcommands)
    commands = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert all(name in text for name in commands)
    for name, command in commands.items():  # (a host's probe: five commands' --help was usage alone)
        assert command.description and command.description.endswith("."), name


def health(*flags: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOST": "0.0.0.0", "PORT": str(free_port())}  # (nothing listens on PORT)
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "health", *flags], capture_output=True, text=True, env=env, timeout=30
    )


def test_health_asks_the_host_and_port_of_its_flags_over_the_settings(sqlite_url):
    port = free_port()
    with server_process(sqlite_url, port):
        assert health().returncode == 1
        for flags in (["--port", str(port)], ["--host", "127.0.0.1", "--port", str(port)]):
            answer = health(*flags)
            assert answer.returncode == 0 and f"127.0.0.1:{port}/healthz answered 200" in answer.stdout, flags
        elsewhere = health("--host", "127.0.0.2", "--port", str(port))
        assert elsewhere.returncode == 1 and "unhealthy: http://127.0.0.2:" in elsewhere.stderr
    refused = health("--port", "70000")
    assert refused.returncode == 2 and "a port is a whole number from 1 to 65535, not '70000'" in refused.stderr
