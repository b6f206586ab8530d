"""The registered games as the "every game" tests play them: read from the registry
(``app.games.registry``), so that a game added there, or by ``EXTRA_GAMES``, is played by those
tests with no change to them. A test about one game's own rules names that game instead.
"""

from __future__ import annotations

from app.games.registry import GAMES


def seated(players: int) -> list[tuple[str, int]]:
    """Each registered game's slug with ``players`` seats, or the nearest number it seats."""
    return [(slug, min(max(players, game.min_players), game.max_players)) for slug, game in GAMES.items()]


def every_table() -> list[tuple[str, int]]:
    """Each registered game at each number of players it seats."""
    return [(slug, n) for slug, game in GAMES.items() for n in range(game.min_players, game.max_players + 1)]
