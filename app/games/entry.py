"""A game's entry: everything the platform needs of one game, declared once beside its engine.

The engine (with its action and view types, ``action_type`` and ``view_type``) is the entry's
``game``; the parts that live in the layers above the rules (the bots' heuristics in
``app.bots``, the table presenter in ``app.web.tables``) are named by module, imported by the
layer that uses them (:func:`part`), so the rules import nothing above them. The rest is data:
the bot levels' ladder ratings, the stylesheets and scripts every page loads, the CSS selectors
of the table's pieces (what static/js/noticing.js compares), the
data of its extra rules pages, the simulator's labels per seat, and, for a game kept outside
``app`` (``EXTRA_GAMES``), the folders of its own templates and static files.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from app.games.base import Game, State


@dataclass(frozen=True)
class GameEntry:
    """One game as the platform knows it (see the module's docstring for each part)."""

    game: Game
    heuristics: str  # module with HEURISTICS, the strong and expert bots' per-game policy
    presenter: str  # module with the table's CLASSES and parts (app.web.tables)
    ratings: Mapping[str, int]  # each bot level's Elo (docs/bots.md, "The ladder"); empty: not on it
    styles: tuple[str, ...] = ()  # stylesheet addresses, loaded by every page
    scripts: tuple[str, ...] = ()  # script addresses, loaded (deferred) by every page
    pieces: tuple[str, ...] = ()  # selectors of the table's pieces, for noticing what changed
    rules_context: Callable[[], dict[str, Any]] | None = None  # its extra rules pages' data
    seat_tags: Callable[[State], list[list[str]]] | None = None  # the simulator's labels per seat
    templates: Path | None = None  # a folder of its own templates, for a game outside app/
    static: Path | None = None  # a folder of its own static files, served at /static/games/<slug>/

    @property
    def slug(self) -> str:
        return self.game.slug


class GameModuleError(Exception):
    """A module listed as a game that does not load as one: which, and why, in one line."""


def part(name: str) -> ModuleType:
    """The module an entry names (its heuristics or its presenter)."""
    return importlib.import_module(name)
