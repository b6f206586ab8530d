"""``troika-arena fit-evaluation``: fit a game's learned evaluation (TriATri's,
:mod:`app.bots.triatri_learned`, or Vem aí's, :mod:`app.bots.vem_learned`) to games of the
rollout policy, and write its weight table.

Game *i* of ``games`` is a 2-player game set up with seed ``"<seed>-<i>"`` and played out by
the strong bot's rollout policy for both seats (its random stream seeded the same way). A
share of its positions that are not over (the model's ``SAMPLED``, drawn from that stream) is
kept, seen from both seats, with the seat's final share of the win as the label. The games
are of the basic rules (Vem aí's advanced game uses the same table, unmeasured there). The
last quarter of the games is held out; each stage's weights are a logistic regression fitted
by Newton's method on the rest, with a small L2 penalty on all but a constant, which keeps the
fit defined where a feature never varies. The table records the command's arguments and both
evaluations' log-loss on the held-out games, so a reader can make it again and see what it is
worth. It needs numpy (the ``fit`` extra); the same arguments give the same table, to the
rounding written.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.bots import HEURISTICS
from app.bots.learned import model as model_of
from app.bots.learned import predicted
from app.games.registry import GAMES

try:
    import numpy as np
except ImportError:  # the fit extra
    np = None  # type: ignore[assignment]  # (fit refuses to run)

HELD_OUT = 0.25  # of the games, the last ones
PENALTY = 1e-3  # L2, per position
DIGITS = 6


def positions(slug: str, games: range, seed: str) -> Iterator[tuple[int, int, list[float], float, float]]:
    """(game index, stage, features, the strong bot's evaluation, the seat's win share) for the
    kept positions of games ``games`` of ``slug``, from both seats."""
    # (strong's heuristics: the rollout policy, and the evaluation the model is compared with)
    game, model, strong = GAMES[slug], model_of(slug), HEURISTICS[slug]
    for index in games:
        state, rng, seen = game.setup(2, {}, f"{seed}-{index}"), random.Random(f"{seed}-{index}"), []
        while game.outcome(state) is None:
            if rng.random() < model.SAMPLED:
                stage = model.stage(state)
                seen += [(s, stage, model.features(state, s), strong.evaluate(state, s)) for s in (0, 1)]
            actor = min(game.to_act(state))
            state = game.follow(state, actor, strong.policy(state, actor, game.legal_actions(state, actor), rng))
            state["log"] = []
        outcome = game.outcome(state)
        assert outcome is not None
        winners = outcome.winners
        for seat, stage, row, own in seen:
            yield index, stage, row, own, (1 / len(winners) if seat in winners else 0.0)


def newton(x: Any, y: Any, constant: bool) -> Any:
    """The weights of a logistic regression of ``y`` on ``x`` (numpy arrays), by Newton's method;
    ``constant``: the first column is a constant, not penalised."""
    n, k = x.shape
    penalty = np.full(k, PENALTY)
    penalty[0] = 0.0 if constant else PENALTY
    w = np.zeros(k)
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) / n + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x / n + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def log_loss(predicted: list[float], won: list[float]) -> float:
    clipped = [min(max(p, 1e-9), 1 - 1e-9) for p in predicted]
    return sum(-(y * math.log(p) + (1 - y) * math.log(1 - p)) for p, y in zip(clipped, won, strict=True)) / len(won)


def fit(slug: str, games: int, seed: str) -> dict[str, Any]:
    """The weight table of ``slug``'s model fitted to ``games`` games of seed ``seed``, with how
    it scored."""
    if np is None:
        raise ValueError("numpy is not installed: pip install -e '.[fit]'")
    if games < 8:
        raise ValueError("--games: at least 8 (a quarter of them is held out)")
    fitted = games - max(1, int(games * HELD_OUT))
    model = model_of(slug)
    rows = list(positions(slug, range(games), seed))
    constant = model.NAMES[0] == "constant"
    table = []
    for stage in range(len(model.STAGES)):
        mine = [r for r in rows if r[1] == stage and r[0] < fitted]
        if not mine:
            raise ValueError(f"no position of stage {stage} in {games} games: play more")
        w = newton(np.array([r[2] for r in mine]), np.array([r[4] for r in mine]), constant)
        table.append([round(float(v), DIGITS) + 0.0 for v in w])  # (no -0.0)
    held = [r for r in rows if r[0] >= fitted]
    learned = [predicted(table[r[1]], r[2]) for r in held]
    won = [r[4] for r in held]
    return {
        "game": slug,
        "features": list(model.NAMES),
        "stages": [list(s) for s in model.STAGES],
        "weights": table,
        "made": {
            "command": f"troika-arena fit-evaluation --game {slug} --games {games} --seed {seed}",
            "games": games,
            "held_out_games": games - fitted,
            "held_out_positions": len(held),
            "log_loss_learned": round(log_loss(learned, won), 4),
            "log_loss_strong": round(log_loss([r[3] for r in held], won), 4),
        },
    }


def write(table: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(table, indent=1) + "\n")


def render(table: dict[str, Any]) -> str:
    made = table["made"]
    name = GAMES[table["game"]].title
    return (
        f"{name}'s learned evaluation from {made['games']} games of the policy, "
        f"{made['held_out_games']} held out ({made['held_out_positions']} positions): log-loss "
        f"{made['log_loss_learned']} against {made['log_loss_strong']} for the strong bot's (a coin: 0.693)"
    )
