"""The registered games, by slug: the only place the platform learns which games exist."""

from __future__ import annotations

from app.games import triatri, troika, vem_ai_troika
from app.games.base import Game

GAMES: dict[str, Game] = {game.slug: game for game in (troika.GAME, triatri.GAME, vem_ai_troika.GAME)}


def get_game(slug: str) -> Game:
    """The game for ``slug``; KeyError if no such game is registered."""
    return GAMES[slug]
