"""Engine benchmark: uniformly random playouts per second for every game and player count.

Figures are printed, never asserted: they depend on the machine. Playout ``i`` of a case
uses the seed ``"bench-<game>-<players>-<i>"`` and ``random.Random(i)`` for its moves.
"""

from __future__ import annotations

import random
import time
from typing import Any

from app.games.base import Action, Game
from app.games.registry import GAMES


def random_game(game: Game, players: int, seed: str, r: random.Random) -> list[tuple[int, Action]]:
    """Play one game of ``seed`` to the end with uniformly random moves; its (seat, action) log."""
    state, log = game.setup(players, {}, seed), []
    while game.outcome(state) is None:
        seat = r.choice(sorted(game.to_act(state)))
        action = r.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        log.append((seat, action))
    return log


def random_playout(game: Game, players: int, index: int) -> int:
    """Play one seeded random game to the end; the number of actions it took."""
    return len(random_game(game, players, f"bench-{game.slug}-{players}-{index}", random.Random(index)))


def bench_case(game: Game, players: int, seconds: float) -> dict[str, Any]:
    """Random playouts of one game and player count for about ``seconds`` (at least one)."""
    start = time.perf_counter()
    playouts = actions = 0
    while playouts == 0 or time.perf_counter() - start < seconds:
        actions += random_playout(game, players, playouts)
        playouts += 1
    elapsed = time.perf_counter() - start
    return {
        "game": game.slug,
        "players": players,
        "playouts": playouts,
        "seconds": round(elapsed, 3),
        "playouts_per_s": round(playouts / elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1),
        "mean_actions": round(actions / playouts, 1),
    }


def bench_engines(seconds: float = 1.0) -> list[dict[str, Any]]:
    """One row per registered game and player count."""
    return [
        bench_case(game, players, seconds)
        for _, game in sorted(GAMES.items())
        for players in range(game.min_players, game.max_players + 1)
    ]


def render(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'game':<18}{'players':>8}{'playouts/s':>12}{'actions/s':>12}{'actions/game':>14}{'playouts':>10}"]
    lines += [
        f"{r['game']:<18}{r['players']:>8}{r['playouts_per_s']:>12.1f}{r['actions_per_s']:>12.0f}"
        f"{r['mean_actions']:>14.1f}{r['playouts']:>10}"
        for r in rows
    ]
    return "\n".join(lines)
