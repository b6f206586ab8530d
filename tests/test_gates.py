"""The gates CI runs before the tests: the commands the README names (lint, format, types) are the
ones ``.ci/run`` runs, after installing the test environment and before pytest; their tools are
pinned in the ``test`` extra; and the repository passes ruff as it stands (a second or less, so
the suite checks it too: a landing that skipped the gates fails here as well as in CI)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

ROOT = Path(__file__).resolve().parents[1]


def readme_gates() -> list[str]:
    """The commands of the README's gate block (the ``sh`` block after "**Gates.**")."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"\*\*Gates\.\*\*.*?```sh\n(.*?)```", readme, re.S)
    assert block, "the README's test section has no **Gates.** paragraph with its commands"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.split("#")[0].strip()]


def test_ci_runs_the_readme_gates_after_the_install_and_before_the_tests():
    gates = readme_gates()
    assert {"ruff check .", "ruff format --check .", "mypy app"} <= set(gates), gates
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    install = next(i for i, line in enumerate(lines) if "-e '.[test]'" in line)
    tests = lines.index("python -m pytest")
    for gate in gates:
        assert gate in lines, f".ci/run does not run {gate!r}"
        assert install < lines.index(gate) < tests, f"{gate!r} must run between the install and pytest"
    assert "set -euo pipefail" in lines, "a failing gate must fail the run"


def test_the_gate_tools_are_pinned_in_the_test_extra():
    test_extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    pinned = {req.split("==")[0] for req in test_extra if "==" in req}
    assert {"ruff", "mypy"} <= pinned, test_extra


def test_the_repository_passes_the_lint_and_format_gates():
    for gate in (["check", "."], ["format", "--check", "."]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *gate], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, f"ruff {' '.join(gate)}:\n{result.stdout}{result.stderr}"


def readme_command(section: str) -> str:
    """The one command of the README section ``section`` (its first ``sh`` block)."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(rf"## {re.escape(section)}\n.*?```sh\n(.*?)```", readme, re.S)
    assert block, f"the README's {section!r} section has no command"
    (command,) = [line for line in block.group(1).splitlines() if line.strip()]
    return command


def test_the_readme_commands_make_a_venv_and_ci_runs_them_as_written():
    """Both commands work on Debian's python3 as copied: a venv first (a bare `pip install`
    there is refused, externally-managed-environment), activated, so `troika-arena` is on
    PATH. .ci/run runs the test command's steps in order, as its lines; .ci/smoke.py runs the
    "Run it" command itself, word for word, in a copy of the repository."""
    venv = "python3 -m venv .venv && . .venv/bin/activate && python -m pip install --constraint .ci/constraints.txt"
    serve, tests = readme_command("Run it"), readme_command("Run the tests")
    assert serve == f"{venv} -e . && troika-arena serve", serve
    assert tests == f"{venv} -e '.[test]' && python -m pytest", tests
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    steps = [step.strip() for step in tests.split("&&")]
    places = [lines.index(step) for step in steps]  # ValueError: a step .ci/run does not run
    assert places == sorted(places), steps
    assert 'README_RUN_IT = "Run it"' in (ROOT / ".ci" / "smoke.py").read_text()
