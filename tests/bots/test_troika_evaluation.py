"""Troika's two evaluations against the games of the rollout policy: the calibrated one (the
expert's) predicts who wins better than the strong bot's, which is too sure of itself, the
more so early in the game (docs/bots.md, "A calibrated evaluation for Troika")."""

from __future__ import annotations

import math
import random

from app.bots import troika
from app.games.registry import GAMES

GAMES_PLAYED = 150


def log_loss(predicted: float, won: float) -> float:
    p = min(max(predicted, 1e-9), 1 - 1e-9)
    return -(won * math.log(p) + (1 - won) * math.log(1 - p))


def sampled_positions() -> list[tuple[int, float, float, float]]:
    """(round, evaluate, calibrated, the seat's share of the win) for positions of 2-player games
    of the policy, one in twenty, from both seats."""
    game, rows = GAMES["troika"], []
    for index in range(GAMES_PLAYED):
        state, rng, seen = game.setup(2, {}, f"calibration-{index}"), random.Random(index), []
        while game.outcome(state) is None:
            if rng.random() < 0.05:
                seen += [(state["round"], troika.evaluate(state, s), troika.calibrated(state, s), s) for s in (0, 1)]
            actor = min(game.to_act(state))
            state = game.follow(state, actor, troika.policy(state, actor, game.legal_actions(state, actor), rng))
            state["log"] = []
        winners = game.outcome(state).winners
        rows += [(r, own, cal, 1 / len(winners) if s in winners else 0.0) for r, own, cal, s in seen]
    return rows


def test_the_calibrated_evaluation_predicts_the_winner_better_in_every_round():
    rows = sampled_positions()
    for round_ in (1, 2, 3):
        picked = [r for r in rows if r[0] == round_]
        assert len(picked) > 300
        own = sum(log_loss(r[1], r[3]) for r in picked) / len(picked)
        calibrated = sum(log_loss(r[2], r[3]) for r in picked) / len(picked)
        assert calibrated < own - 0.01, (round_, own, calibrated)
    # the strong bot's is worse than a coin in the first round; the calibrated one is not
    first = [r for r in rows if r[0] == 1]
    assert sum(log_loss(r[1], r[3]) for r in first) / len(first) > math.log(2)
    assert sum(log_loss(r[2], r[3]) for r in first) / len(first) < math.log(2)


def test_both_evaluations_agree_on_who_is_ahead_and_are_even_when_no_one_is():
    game, rng = GAMES["troika"], random.Random(5)
    state = game.setup(2, {}, "calibration-even")
    assert troika.advantage(state, 0) == troika.advantage(state, 1) == 0
    assert troika.calibrated(state, 0) == troika.evaluate(state, 0) == 0.5
    checked = 0
    while game.outcome(state) is None:
        actor = min(game.to_act(state))
        state = game.follow(state, actor, troika.policy(state, actor, game.legal_actions(state, actor), rng))
        for seat in (0, 1):
            own, calibrated = troika.evaluate(state, seat), troika.calibrated(state, seat)
            assert (own > 0.5) == (calibrated > 0.5) and (own < 0.5) == (calibrated < 0.5)
            assert abs(calibrated - 0.5) <= abs(own - 0.5) + 1e-12  # (less sure, in every round)
            checked += 1
    assert checked > 100
