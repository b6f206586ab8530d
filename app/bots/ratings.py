"""The bot levels as people are offered them: each level's name and its Elo rating per game.

The ratings are the ladder's (``troika-arena ladder``, :mod:`app.sim.ladder`): a round robin
at 2 players with ``random`` at 0, published with their intervals and the command that made
them in docs/bots.md; ``tests/bots/test_ladder.py`` checks that this table and that one agree.
The waiting room shows a level's rating beside its button, and ``GET /api/games`` lists the
levels of each game with theirs.
"""

from __future__ import annotations

from app.games.base import N_

NAMES = {"random": N_("random bot"), "strong": N_("strong bot"), "expert": N_("expert bot")}

# from docs/bots.md, "The ladder" (the same figures; tests/bots/test_ladder.py compares them)
RATINGS: dict[str, dict[str, int]] = {
    "troika": {"random": 0, "strong": 536, "expert": 586},
    "triatri": {"random": 0, "strong": 333, "expert": 377},
    "vem-ai-a-troika": {"random": 0, "strong": 586, "expert": 536},
}


def levels(slug: str) -> list[dict[str, object]]:
    """The levels a room of the game ``slug`` can seat, weakest first (by their rating in that
    game: ``strong`` and ``expert`` are level, and either may rate higher), with their ratings."""
    rated = RATINGS[slug]
    return [{"level": level, "elo": rated[level]} for level in sorted(NAMES, key=rated.__getitem__)]
