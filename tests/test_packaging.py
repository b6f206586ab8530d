"""What a plain install provides: every package the server's code imports comes from its runtime
dependencies (not from a test extra that happens to be installed too), and ``.ci/constraints.txt``,
the lock CI installs from (and the Docker image's hashed ``.ci/image.lock`` is generated from),
agrees with the pins in ``pyproject.toml``.

The end-to-end proof is CI's smoke run of a fresh no-extras install (``.ci/smoke.py``); these
checks name the culprit without a network."""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, packages_distributions, requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.support.pins import locked, pins

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
OPTIONAL = (ImportError, ModuleNotFoundError)


def closure(requirements: list[str]) -> set[str]:
    """The distributions ``requirements`` install (extras followed), as installed here."""
    seen: set[tuple[str, frozenset[str]]] = set()
    todo = [Requirement(text) for text in requirements]
    while todo:
        req = todo.pop()
        key = (canonicalize_name(req.name), frozenset(req.extras))
        if (req.marker and not req.marker.evaluate({"extra": ""})) or key in seen:
            continue
        seen.add(key)
        try:
            below = [Requirement(text) for text in requires(req.name) or []]
        except PackageNotFoundError:
            continue
        for sub in below:
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in ("", *req.extras)):
                sub.marker = None
                todo.append(sub)
    return {name for name, _ in seen}


def optional(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether an import sits in a ``try`` that handles its absence (an optional extra)."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                if any(isinstance(n, ast.Name) and n.id in {e.__name__ for e in OPTIONAL} for n in names):
                    return True
    return False


def third_party_imports() -> dict[str, set[str]]:
    """Top-level modules imported anywhere in ``app`` outside the standard library, and where."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "app").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "app" or optional(node, parents):
                    continue
                found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_package_the_server_imports_is_a_runtime_dependency():
    runtime = closure(PROJECT["dependencies"])
    providers = packages_distributions()
    missing = {
        module: sorted(where)
        for module, where in third_party_imports().items()
        if not {canonicalize_name(d) for d in providers.get(module, [module])} & runtime
    }
    assert not missing, f"imported by app/ but not installed by `pip install .`: {missing}"


# Runtime dependencies that app/ does not import by name, and why a plain install needs them.
NOT_IMPORTED = {
    "aiosqlite": "SQLAlchemy's async SQLite driver (sqlite+aiosqlite://)",
    "greenlet": "SQLAlchemy's asyncio layer runs on it",
    "python-multipart": "FastAPI parses the browser's forms with it",
    "websockets": "uvicorn serves the live sockets with it",
}


def test_every_runtime_dependency_is_imported_or_needed_for_a_reason():
    providers = packages_distributions()
    imported = {canonicalize_name(d) for module in third_party_imports() for d in providers.get(module, [module])}
    unused = sorted(name for name in pins(PROJECT["dependencies"]) if name not in imported and name not in NOT_IMPORTED)
    assert not unused, f"runtime dependencies nothing imports (drop them, or say why in NOT_IMPORTED): {unused}"


def test_sqlalchemy_asyncio_brings_greenlet_on_the_plain_install():
    assert "greenlet" in closure(PROJECT["dependencies"])


def test_the_lock_has_every_pin_of_pyproject_at_the_same_version():
    lock = locked()
    extras = PROJECT["optional-dependencies"]  # test, and the bench and openspiel extras
    declared = pins(PROJECT["dependencies"] + [pin for extra in extras.values() for pin in extra])
    disagree = {name: (version, lock.get(name)) for name, version in declared.items() if lock.get(name) != version}
    assert not disagree, f"pyproject.toml pin vs constraints.txt (regenerate it, see README): {disagree}"


def test_the_lock_covers_everything_runtime_and_test_install():
    lock = locked()
    wanted = closure(PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"])
    assert not sorted(wanted - set(lock)), "installed by pyproject.toml's requirements but not locked"


def test_the_dockerfile_and_ci_install_from_the_lock():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--mount=type=bind,source=.ci/image.lock,target=/tmp/image.lock" in dockerfile
    assert "pip install --no-cache-dir --require-hashes --no-deps --requirement /tmp/image.lock" in dockerfile
    assert "pip install --no-cache-dir --no-deps --no-build-isolation /tmp/src" in dockerfile
    assert "--constraint .ci/constraints.txt -e '.[test]'" in (ROOT / ".ci" / "run").read_text()
    smoke = (ROOT / ".ci" / "smoke.py").read_text()
    assert 'IMAGE_LOCK = ("--requirement", ".ci/image.lock")' in smoke
    assert '"--require-hashes", "--no-deps", *IMAGE_LOCK' in smoke and '"--no-build-isolation", "."' in smoke
