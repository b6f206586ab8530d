"""The registered games, by slug: the only place the platform learns which games exist.

Each game's module declares its :class:`~app.games.entry.GameEntry` as ``ENTRY``; ``BUILT_IN``
names the shipped ones, one line each, and the setting ``EXTRA_GAMES`` (module names, comma
separated) adds others, such as the toy game the test run registers (tests/toy/). ``ENTRIES``
keeps them in that order; ``GAMES`` is their engines.
"""

from __future__ import annotations

import importlib

from app.config import get_settings
from app.games.base import Game
from app.games.entry import GameEntry, GameModuleError

BUILT_IN = (
    "app.games.troika",
    "app.games.triatri",
    "app.games.vem_ai_troika",
)


def entry_of(name: str) -> GameEntry:
    """The entry module ``name`` declares; a module that fails to import (its own error, whatever
    it is) or declares no ``ENTRY`` is a :class:`GameModuleError`, so a host's typo in a game of
    their own stops the command with one line, not a traceback."""
    try:
        entry = importlib.import_module(name).ENTRY
    except Exception as exc:
        raise GameModuleError(f"the module {name} does not load as a game: {type(exc).__name__}: {exc}") from exc
    if not isinstance(entry, GameEntry):
        raise GameModuleError(f"the module {name} does not load as a game: its ENTRY is not a GameEntry")
    return entry


def load(modules: tuple[str, ...]) -> dict[str, GameEntry]:
    """The entries the modules declare, by slug, in the modules' order."""
    entries = [entry_of(name) for name in modules]
    return {entry.slug: entry for entry in entries}


EXTRA = tuple(name.strip() for name in get_settings().extra_games.split(",") if name.strip())
ENTRIES: dict[str, GameEntry] = load(BUILT_IN + EXTRA)
GAMES: dict[str, Game] = {slug: entry.game for slug, entry in ENTRIES.items()}


def titles() -> str:
    """The games' titles as a sentence names them: "A, B and C"."""
    names = [game.title for game in GAMES.values()]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
