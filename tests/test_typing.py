"""The engine contract is checked by a type checker: the registry holds every engine as a
``Game`` (``app.games.registry``), so mypy checks each against the protocol in
``app.games.base``, and the games package type-checks clean."""

from __future__ import annotations

import subprocess
import sys

import pytest

from app.files import project_file

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses


def test_mypy_checks_every_engine_against_the_game_contract():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "app/games"], cwd=project_file("."), capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues found" in result.stdout
