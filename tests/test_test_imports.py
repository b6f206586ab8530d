"""Tests read as specifications (issue 30, point 6): a helper two test modules share lives in
tests/support/ (or is a fixture in tests/conftest.py), and no test module, support module or
conftest imports from a test module. Read from the source's import statements (``ast``) of every
Python file under tests/ and tests_openspiel/, nothing run."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = [ROOT / "tests", ROOT / "tests_openspiel"]


def is_test_module(name: str) -> bool:
    """Whether a dotted module name names a test module (its last part is ``test_...``)."""
    return name.rpartition(".")[2].startswith("test_")


def imported_test_modules(source: str, package: str) -> list[str]:
    """The test modules ``source`` (a module of ``package``) imports, anywhere in it: ``import
    tests.test_x``, ``from tests.test_x import y``, ``from tests import test_x`` and the relative
    spellings of the same."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            if is_test_module(module):
                found.append(module)
            found += [f"{module}.{alias.name}" for alias in node.names if is_test_module(alias.name)]
    return found


def test_the_check_finds_every_spelling_of_an_import_from_a_test_module():
    source = """
import json
import tests.test_sockets
from tests.support.rooms import make_room
from tests.test_live_server import play
from tests.games import test_troika
from .test_web import HTMX
from . import test_payloads as payloads

def later():
    from tests.bots.test_bots import strongest
"""
    assert imported_test_modules(source, "tests.games") == [
        "tests.test_sockets",
        "tests.test_live_server",
        "tests.games.test_troika",
        "tests.games.test_web",
        "tests.games.test_payloads",
        "tests.bots.test_bots",
    ]


def test_no_test_module_imports_from_another():
    offenders = []
    for tree in TREES:
        for path in sorted(tree.rglob("*.py")):
            package = ".".join(path.relative_to(ROOT).parent.parts)
            for module in imported_test_modules(path.read_text(encoding="utf-8"), package):
                offenders.append(f"{path.relative_to(ROOT)} imports {module}")
    assert offenders == [], "move the shared helper into tests/support/ and import it from there"
