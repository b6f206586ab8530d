"""The expert bot: the strong bot's race (:mod:`app.bots.search`), with steady rollouts.

The candidates, the sampled worlds shared by all of them (common random numbers), the
successive halving, the horizon and the evaluation are the strong bot's; only the rollouts
differ. Every seat plays on with the game policy's own first choice (``Heuristics.greedy``)
instead of the policy that explores one time in ten. With the deal of a world fixed, a rollout
then depends on the move being tried and nothing else, so two candidates raced in the same
world differ by what their moves do rather than by which rollout happened to explore. A
rollout costs what the strong bot's costs, so both are compared at the same number of
rollouts; measured so, the two are level in every game (docs/bots.md, "The ladder").
"""

from __future__ import annotations

import random
from dataclasses import replace

from app.bots import search
from app.games.base import Action, State


def choose(turn: search.Turn) -> Action:
    """The strong bot's choice, raced with rollouts that never explore."""
    greedy = turn.heuristics.greedy

    def steady(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
        return greedy(state, seat, legal)

    return search.choose(replace(turn, heuristics=replace(turn.heuristics, policy=steady)))
