"""Small statistics for simulation reports: win-rate intervals and tallies."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Z_95 = 1.959963984540054


def wilson(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); shared wins may be fractional.

    With no games the interval is the whole range [0, 1].
    """
    if games <= 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """Wins (a shared win counts 1/k) and scores of one entrant, seat or tag over many games."""

    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)

    def add(self, win_share: float, score: float | None = None) -> None:
        self.games += 1
        self.wins += win_share
        if score is not None:
            self.scores.append(score)

    def to_json(self) -> dict:
        low, high = wilson(self.wins, self.games)
        return {
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.wins / self.games, 4) if self.games else None,
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(sum(self.scores) / len(self.scores), 3) if self.scores else None,
        }
