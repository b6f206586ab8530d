"""The bot levels as people are offered them: each level's name and its Elo rating per game.

The ratings are the ladder's (``troika-arena ladder``, :mod:`app.sim.ladder`): a round robin
at 2 players with ``random`` at 0, published with their intervals and the command that made
them in docs/bots.md; ``tests/bots/test_ladder.py`` checks that this table and that one agree.
The waiting room shows a level's rating beside its button, and ``GET /api/games`` lists the
levels of each game with theirs.
"""

from __future__ import annotations

from app.games.base import N_
from app.games.registry import ENTRIES

NAMES = {"random": N_("random bot"), "strong": N_("strong bot"), "expert": N_("expert bot")}

# each rated game entry's, from docs/bots.md, "The ladder" (tests/bots/test_ladder.py compares them)
RATINGS: dict[str, dict[str, int]] = {slug: dict(entry.ratings) for slug, entry in ENTRIES.items() if entry.ratings}


def levels(slug: str) -> list[dict[str, object]]:
    """The levels a room of the game ``slug`` can seat, weakest first by their rating in that
    game, with their ratings. A game not on the ladder offers them in their own order, each at
    ``random``'s 0: no level is rated above another."""
    rated = RATINGS.get(slug, dict.fromkeys(NAMES, 0))
    return [{"level": level, "elo": rated[level]} for level in sorted(NAMES, key=rated.__getitem__)]
