"""The ``troika-arena`` command as an operator reads it: ``--help`` gives the whole description
in plain words (no reStructuredText markup, nothing cut off mid-sentence) and lists every
command."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.cli import build_parser

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
