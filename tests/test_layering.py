"""Imports follow the layering of docs/architecture.md: a module imports only from its own layer
or the layers below it, read from the source's import statements (``ast``), nothing run.

Bottom to top: foundation (settings, logs, files, runtime, the HTTP protocol, languages) · rules
(``app.games``) · storage and delivery (``app.db``, ``app.realtime``) · the room core
(``app.rooms``) · players (``app.bots``)
· the runners that play, time and coach rooms (bot runner, turn timers, hints, reviews) · the
programs' front door
(``app.api``) · the browsers' front door (``app.web``) · tools (``app.sim``, ``app.bench``) ·
entry points (``app.main``, ``app.cli``). Two narrower rules: the room core's values
(``app.rooms.model``, ``app.rooms.errors``) know the engine contract, not which games exist;
and database rows (``app.db.models``) are read and written only by the room core.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "app"

LAYERS = [
    (
        "foundation",
        ("app.config", "app.logs", "app.files", "app.runtime", "app.http_protocol", "app.i18n", "app.reading"),
    ),
    ("rules", ("app.games",)),
    ("storage and delivery", ("app.db", "app.realtime")),
    ("room core", ("app.rooms",)),
    ("players", ("app.bots",)),
    ("runners", ("app.rooms.bots", "app.rooms.timers", "app.rooms.watchers", "app.rooms.hints", "app.rooms.reviews")),
    ("programs' front door", ("app.api",)),
    ("browsers' front door", ("app.web",)),
    ("tools", ("app.sim", "app.bench")),
    ("entry points", ("app.main", "app.cli")),
]
VALUES = {"app.rooms.model", "app.rooms.errors"}
VALUES_MAY_IMPORT = {"app.games.base", *VALUES}
ROWS = "app.db.models"
ROWS_KEPT_BY = ("app.db", "app.rooms")


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(APP.rglob("*.py"))}


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def layer_of(module: str) -> int:
    """The index of the layer whose most specific prefix names the module."""
    matches = [
        (len(prefix), index)
        for index, (_, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
        if within(module, prefix)
    ]
    assert matches, f"{module} belongs to no layer: add it to LAYERS and to docs/architecture.md"
    return max(matches)[1]


def imports_of(module: str) -> set[str]:
    """The app modules ``module`` imports (``from app.x import y`` counts as app.x.y when y is a
    module, else as app.x)."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if within(alias.name, "app")}
        elif isinstance(node, ast.ImportFrom) and node.module and within(node.module, "app"):
            for alias in node.names:
                named = f"{node.module}.{alias.name}"
                found.add(named if named in MODULES else node.module)
    return found


def crossings(module: str, targets: set[str]) -> list[str]:
    wrong = []
    for target in sorted(targets):
        if layer_of(target) > layer_of(module):
            wrong.append(
                f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} "
                f"({LAYERS[layer_of(target)][0]}), a layer above it"
            )
        if module in VALUES and target not in VALUES_MAY_IMPORT:
            wrong.append(f"{module} holds values: it may import only {sorted(VALUES_MAY_IMPORT)}, not {target}")
        if target == ROWS and not any(within(module, keeper) for keeper in ROWS_KEPT_BY):
            wrong.append(f"{module} uses database rows ({ROWS}): only the room core does")
    return wrong


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_crosses_the_layering_upward(module):
    assert crossings(module, imports_of(module)) == []


def test_the_scan_sees_the_crossings_it_forbids():
    """Each import the room core's split removed breaks one of the rules."""
    removed = {
        "app.api.errors": "app.web.render",
        "app.api.body_limit": "app.web.pages",
        "app.rooms.lobby": "app.bots",
        "app.rooms.model": "app.games.registry",
        "app.bench.footprint": "app.db.models",
        "app.config": "app.rooms.throttle",
    }
    for module, target in removed.items():
        assert len(crossings(module, {target})) == 1, (module, target)
