"""The ladder: a round robin between bot levels and Elo ratings fitted to it, per game.

Every pair of entrants plays ``games`` two-player games with the seats rotated (the simulator
of :mod:`app.sim`, seed ``"<seed>-<a>-<b>"`` for the pair ``a``-``b``). The ratings are the
Bradley-Terry fit of all the results (a shared win counts as half a win to each), by the
minorization-maximization iteration of Hunter (2004), written in Elo points (400 times the
base-10 logarithm of a strength) with ``random`` at 0. Each rating's 95% interval comes from
a seeded bootstrap: the games of every pair are drawn again with replacement
``BOOTSTRAP`` times and the fit repeated; the interval is the 2.5th and 97.5th percentile.
With an iteration cap every figure is the same on any machine, to the digit.

A pair that one side won every game of would push the fit to infinity; every pair's results
are therefore counted with one extra half-won game (a prior of one draw), which keeps ratings
finite and changes them little when the pair played many games.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, TextIO

from app.sim import Config, check, records, win_share

BOOTSTRAP = 200
FIT_ROUNDS = 500
ANCHOR = "random"


@dataclass(frozen=True)
class Pairing:
    """The two entrants of a pair and each game's win share of the first (1, 0.5 or 0)."""

    first: str
    second: str
    shares: tuple[float, ...]


def fit(names: list[str], pairings: list[Pairing]) -> dict[str, float]:
    """Elo ratings (``ANCHOR``, or the first name, at 0) that best explain the pairings."""
    index = {name: i for i, name in enumerate(names)}
    wins = [[0.0] * len(names) for _ in names]
    for pairing in pairings:
        a, b = index[pairing.first], index[pairing.second]
        won = sum(pairing.shares) + 0.5
        wins[a][b] += won
        wins[b][a] += len(pairing.shares) + 1 - won
    strength = [1.0] * len(names)
    for _ in range(FIT_ROUNDS):
        for i in range(len(names)):
            played = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in range(len(names)) if j != i)
            if played:
                strength[i] = sum(wins[i]) / played
        scale = strength[index.get(ANCHOR, 0)]
        strength = [s / scale for s in strength]
    return {name: 400 * math.log10(max(strength[index[name]], 1e-12)) for name in names}


def bootstrap(names: list[str], pairings: list[Pairing], seed: str) -> dict[str, tuple[float, float]]:
    """Each rating's 95% interval by resampling every pair's games (seeded)."""
    r = random.Random(f"{seed}-bootstrap")
    samples: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(BOOTSTRAP):
        drawn = [
            Pairing(p.first, p.second, tuple(r.choice(p.shares) for _ in p.shares)) if p.shares else p for p in pairings
        ]
        for name, rating in fit(names, drawn).items():
            samples[name].append(rating)
    intervals = {}
    for name, values in samples.items():
        values.sort()
        intervals[name] = (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])
    return intervals


def play_pair(base: Config, first: str, second: str) -> Pairing:
    """``base.games`` games of ``first`` against ``second``, seats rotated."""
    config = replace(base, players=2, bots=(first, second), seed=f"{base.seed}-{first}-{second}", rotate=True)
    check(config)
    done = records(config, None)
    return Pairing(first, second, tuple(win_share(record, record["entrants"].index(0)) for record in done))


def ladder(base: Config, entrants: list[str], progress: TextIO | None = None) -> dict[str, Any]:
    """Play the round robin of ``entrants`` (configured by ``base``: game, games per pair,
    iterations, seed, workers) and fit the ratings."""
    if len(set(entrants)) != len(entrants) or len(entrants) < 2:
        raise ValueError("--bots names at least two different bots")
    pairings = []
    for first, second in combinations(entrants, 2):
        if progress is not None:
            progress.write(f"{first} against {second}\n")
        pairings.append(play_pair(base, first, second))
    ratings = fit(entrants, pairings)
    intervals = bootstrap(entrants, pairings, base.seed)
    return {
        "game": base.game,
        "players": 2,
        "games_per_pair": base.games,
        "iterations": base.iterations,
        "budget": base.budget,
        "seed": base.seed,
        "ratings": [
            {"bot": name, "elo": round(ratings[name]), "ci95": [round(v) for v in intervals[name]]}
            for name in sorted(entrants, key=lambda n: -ratings[n])
        ],
        "pairs": [
            {
                "first": p.first,
                "second": p.second,
                "games": len(p.shares),
                "first_wins": round(sum(p.shares) / len(p.shares), 3),
            }
            for p in pairings
        ],
    }


def render(report: dict[str, Any]) -> str:
    cap = report["iterations"] if report["iterations"] is not None else f"none (budget {report['budget']} s)"
    lines = [
        f"{report['game']}: 2 players, {report['games_per_pair']} games a pair (seats rotated), "
        f"seed '{report['seed']}', iteration cap {cap}",
        "",
        f"{'bot':<16}{'Elo':>6}   95% interval",
        *(f"{r['bot']:<16}{r['elo']:>6}   [{r['ci95'][0]}, {r['ci95'][1]}]" for r in report["ratings"]),
        "",
        *(
            f"{p['first']} against {p['second']}: {p['first']} wins {p['first_wins']:.3f} of {p['games']}"
            for p in report["pairs"]
        ),
    ]
    return "\n".join(lines)
