"""The expert bot's steady rollouts: each game's ``greedy`` is its policy's own first choice,
and the expert's race plays it in every rollout, never the exploring policy."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.bots import HEURISTICS, expert, search
from app.games.registry import GAMES


class Steady(random.Random):
    """A stream under which a policy never explores (its draw is never below one in ten)."""

    def random(self) -> float:
        return 0.5


def positions(slug, count=40):
    game, rng = GAMES[slug], random.Random(slug)
    state = game.setup(2, {}, f"expert-{slug}")
    seen = []
    while game.outcome(state) is None and len(seen) < count:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        seen.append((state, seat, legal))
        state = game.follow(state, seat, rng.choice(legal))
    return seen


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_greedy_is_the_policys_choice_when_it_does_not_explore(slug):
    heuristics = HEURISTICS[slug]
    for state, seat, legal in positions(slug):
        move = heuristics.greedy(state, seat, legal)
        assert move in legal
        assert move == heuristics.policy(state, seat, legal, Steady(0))


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_expert_rolls_out_with_greedy_only(slug):
    def exploring(state, seat, legal, rng):
        raise AssertionError("the expert's rollouts called the exploring policy")

    game, heuristics = GAMES[slug], replace(HEURISTICS[slug], policy=exploring)
    state, seat, legal = next(p for p in positions(slug) if len(p[2]) > 1)
    turn = search.Turn(
        game, heuristics, seat, legal, lambda r: game.randomize_hidden(state, seat, r), random.Random(3), 1.0, 24
    )
    assert expert.choose(turn) in legal
    with pytest.raises(AssertionError, match="exploring policy"):
        search.choose(turn)
