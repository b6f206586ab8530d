"""Engine benchmark: uniformly random playouts per second for every game and player count.

Figures are printed, never asserted: they depend on the machine. Playout ``i`` of a case
uses the seed ``"bench-<game>-<players>-<i>"`` and ``random.Random(i)`` for its moves.

Where python-chess is installed (the ``bench`` extra), every row is measured side by side
with python-chess's own random playouts (moves drawn uniformly from ``board.legal_moves``
until ``board.is_game_over()``, the usual yardstick of a Python rules engine): half the
row's time of chess just before the row and half just after, so that a shared machine's
load, which changes from minute to minute, weighs on both alike; the row gives that chess
figure and the ratio of the game's actions per second to it. Seconds are CPU seconds of the
benchmark's process (see :func:`timed`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from app.games.base import Action, Game
from app.games.registry import GAMES


def random_game(game: Game, players: int, seed: str, r: random.Random) -> list[tuple[int, Action]]:
    """Play one game of ``seed`` to the end with uniformly random moves; its (seat, action) log."""
    state, log = game.setup(players, {}, seed), []
    while game.outcome(state) is None:
        seat = r.choice(sorted(game.to_act(state)))
        action = r.choice(game.legal_actions(state, seat))
        state = game.follow(state, seat, action)
        log.append((seat, action))
    return log


def random_playout(game: Game, players: int, index: int) -> int:
    """Play one seeded random game to the end; the number of actions it took."""
    return len(random_game(game, players, f"bench-{game.slug}-{players}-{index}", random.Random(index)))


def chess_playout(index: int) -> int:
    """One random game of chess by python-chess (``random.Random(index)``); its number of moves."""
    try:
        import chess
    except ImportError as missing:  # the bench extra
        raise RuntimeError("python-chess is not installed: pip install -e '.[bench]'") from missing
    board, r, moves = chess.Board(), random.Random(index), 0
    while not board.is_game_over():
        board.push(r.choice(list(board.legal_moves)))
        moves += 1
    return moves


def timed(playout: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    """Playouts of ``playout`` (index 0, 1, ...) for about ``seconds`` of this process's CPU
    time (at least one): their number, their actions and the CPU time they took. CPU time, not
    the clock: on a machine shared with other work the clock also counts the time the process
    waited for a core, which says nothing about the engine."""
    start = time.process_time()
    playouts = actions = 0
    while playouts == 0 or time.process_time() - start < seconds:
        actions += playout(playouts)
        playouts += 1
    return playouts, actions, max(time.process_time() - start, 1e-9)


def chess_installed() -> bool:
    try:
        import chess  # noqa: F401
    except ImportError:
        return False
    return True


def bench_case(
    game: Game, players: int, seconds: float, yardstick: Callable[[int], int] | None = None
) -> dict[str, Any]:
    """Random playouts of one game and player count for about ``seconds`` (at least one), and
    with a ``yardstick`` (python-chess's playout) that one's for as long around them."""
    before = timed(yardstick, seconds / 2) if yardstick else None
    playouts, actions, elapsed = timed(lambda index: random_playout(game, players, index), seconds)
    row: dict[str, Any] = {
        "game": game.slug,
        "players": players,
        "playouts": playouts,
        "seconds": round(elapsed, 3),
        "playouts_per_s": round(playouts / elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1),
        "mean_actions": round(actions / playouts, 1),
    }
    if yardstick and before:
        after = timed(yardstick, seconds / 2)
        chess_rate = (before[1] + after[1]) / (before[2] + after[2])
        row["chess_actions_per_s"] = round(chess_rate, 1)
        row["against_chess"] = round(actions / elapsed / chess_rate, 2)
    return row


def bench_engines(seconds: float = 1.0, yardstick: Callable[[int], int] | None = None) -> list[dict[str, Any]]:
    """One row per registered game and player count, side by side with ``yardstick``'s
    playouts: by default python-chess's where it is installed."""
    if yardstick is None and chess_installed():
        yardstick = chess_playout
    return [
        bench_case(game, players, seconds, yardstick)
        for _, game in sorted(GAMES.items())
        for players in range(game.min_players, game.max_players + 1)
    ]


def render(rows: list[dict[str, Any]]) -> str:
    chess = all("against_chess" in r for r in rows)
    head = f"{'game':<18}{'players':>8}{'playouts/s':>12}{'actions/s':>12}{'actions/game':>14}{'playouts':>10}"
    lines = [head + (f"{'chess actions/s':>17}{'x chess':>9}" if chess else "")]
    for r in rows:
        line = (
            f"{r['game']:<18}{r['players']:>8}{r['playouts_per_s']:>12.1f}{r['actions_per_s']:>12.0f}"
            f"{r['mean_actions']:>14.1f}{r['playouts']:>10}"
        )
        lines.append(line + (f"{r['chess_actions_per_s']:>17.0f}{r['against_chess']:>9.2f}" if chess else ""))
    if not chess:
        lines.append("(python-chess is not installed: pip install -e '.[bench]' adds the side-by-side column)")
    return "\n".join(lines)
