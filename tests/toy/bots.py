"""Climb's heuristics for the strong and expert bots: play the lowest card that still climbs
(else the lowest); a state is as good as the seat's share of the scores."""

from __future__ import annotations

import random
from typing import Any

from app.bots.search import Heuristics
from app.games.base import Action, State


def candidates(state: State, seat: int, legal: list[Action]) -> list[Action]:
    last = state["last"] or 0
    return sorted(legal, key=lambda a: (a["card"] <= last, a["card"]))


def greedy(state: State, seat: int, legal: list[Action]) -> Action:
    return candidates(state, seat, legal)[0]


def policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    return greedy(state, seat, legal)


def evaluate(state: State, seat: int) -> float:
    scores: list[Any] = state["scores"]
    return (scores[seat] + 1) / (sum(scores) + len(scores))


HEURISTICS = Heuristics(candidates=candidates, policy=policy, evaluate=evaluate, horizon=12)
