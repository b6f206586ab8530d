"""The strong bot's search: determinized Monte Carlo with UCB1 over a few candidate moves.

Each iteration draws a full state from the sampler (a deal consistent with what the seat
knows), picks a root candidate by UCB1, applies it, lets every seat play on with the game's
cheap policy for at most ``horizon`` actions, and scores the result for the searching seat in
[0, 1]: the share of the win at the end of the game, else the game's evaluation. The move
played is the most visited candidate. Everything game-specific sits in a :class:`Heuristics`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.games.base import Action, Game, IllegalAction, Outcome, State

EXPLORATION = 0.7
TIME_SHARE = 0.8  # of the budget spent searching: sampling and answering need the rest
TIME_MODE_CAP = 1_000_000


@dataclass(frozen=True)
class Heuristics:
    """What the search needs to know about one game.

    candidates(state, seat, legal): the moves worth searching, best first (elements of
        ``legal``); reads only what ``seat`` knows, so any sampled state gives the same list.
    policy(state, seat, legal, rng): a quick move for rollouts (may use the sampled state).
    evaluate(state, seat): how good a state that is not over looks for ``seat``, in [0, 1].
    horizon: rollout length in actions before ``evaluate`` takes over.
    trim(state): drop, in place, bulky parts of a sampled state that rollouts never read.
    """

    candidates: Callable[[State, int, list[Action]], list[Action]]
    policy: Callable[[State, int, list[Action], random.Random], Action]
    evaluate: Callable[[State, int], float]
    horizon: int
    trim: Callable[[State], None] = lambda state: None


def choose(
    game: Game,
    heuristics: Heuristics,
    seat: int,
    legal: list[Action],
    sampler: Callable[[random.Random], State],
    rng: random.Random,
    budget_s: float,
    max_iterations: int | None,
) -> Action:
    """The most visited candidate after the iterations (or the time) allowed."""
    if len(legal) == 1:
        return legal[0]
    start = time.perf_counter()
    first = prepared(heuristics, sampler(rng))
    ranked = heuristics.candidates(first, seat, legal) or legal
    if len(ranked) == 1 or max_iterations == 0:
        return ranked[0]
    visits, totals = [0] * len(ranked), [0.0] * len(ranked)
    cap = TIME_MODE_CAP if max_iterations is None else max_iterations
    deadline = start + budget_s * TIME_SHARE
    for i in range(cap):
        if max_iterations is None and i and time.perf_counter() >= deadline:
            break
        state = first if i == 0 else prepared(heuristics, sampler(rng))
        j = select(visits, totals, i)
        visits[j] += 1
        totals[j] += simulate(game, heuristics, state, seat, ranked[j], rng)
    best = max(range(len(ranked)), key=lambda j: (visits[j], totals[j] / max(visits[j], 1), -j))
    return ranked[best]


def prepared(heuristics: Heuristics, state: State) -> State:
    """A sampled state made cheaper to copy: rollouts never read the log (nor what ``trim``
    drops), and every ``apply`` copies the whole state."""
    state["log"] = []
    heuristics.trim(state)
    return state


def select(visits: list[int], totals: list[float], done: int) -> int:
    """UCB1: every candidate once in rank order, then the best mean plus exploration."""
    if 0 in visits:
        return visits.index(0)
    log_n = math.log(done)
    return max(
        range(len(visits)),
        key=lambda j: (totals[j] / visits[j] + EXPLORATION * math.sqrt(log_n / visits[j]), -j),
    )


def simulate(game: Game, heuristics: Heuristics, state: State, seat: int, action: Action,
             rng: random.Random) -> float:
    """Play ``action`` in a sampled state, roll out with the policy, and score for ``seat``."""
    try:
        state = game.apply(state, seat, action)
    except IllegalAction:
        return 0.0  # cannot happen when the sample agrees with the seat's view
    for _ in range(heuristics.horizon):
        if game.outcome(state) is not None:
            break
        actor = min(game.to_act(state))
        move = heuristics.policy(state, actor, game.legal_actions(state, actor), rng)
        state = game.apply(state, actor, move)
    outcome = game.outcome(state)
    if outcome is None:
        return heuristics.evaluate(state, seat)
    return outcome_value(outcome, seat)


def outcome_value(outcome: Outcome, seat: int) -> float:
    """The seat's share of the win, with a little credit for a better place among losers."""
    share = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    places = len(outcome.ranking) - 1
    place = 1 - outcome.ranking.index(seat) / places if places else 1.0
    return 0.9 * share + 0.1 * place


def logistic(x: float) -> float:
    """A smooth 0-1 value for an advantage ``x`` (0 -> 0.5), for evaluations."""
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))
