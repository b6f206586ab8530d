"""The expert bot: the strong bot's rollouts, spent on more moves and by a plan for the budget.

The strong bot races its few candidates and halves them after 3, 6, 12, ... worlds, a
schedule made for a few dozen rollouts: at the room's budget, a thousand or more, it has
settled on two moves after a dozen rollouts and spends the rest telling those two apart. The
expert races a wider field, the game's ``WIDTH`` best moves by its heuristic ranking, and
splits the budget (time, or rollouts with an iteration cap) evenly over ``ceil(log2 n)``
rounds: in each round every move still in the race is played in the same fresh worlds
(common random numbers, as in the strong bot's race), and at the round's end the worse half
is dropped, so the last round compares the best two with a third or more of the budget
(sequential halving: Karnin, Koren and Somekh, 2013). Worlds and the rollouts' policy are the
strong bot's (:mod:`app.bots.search`), and so are the horizon and the evaluation that end a
rollout unless the game has better for the expert (``Heuristics.expert``: Troika's calibrated
evaluation; at 2 players TriATri's and Vem aí's learned ones, with a shorter horizon); a move the
game's candidates play without searching (Troika's safe call) is played so here too. What it
gains, at which budgets, is measured in docs/bots.md ("Expert against strong").
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time

from app.bots import search
from app.games.base import Action, State

WIDTH = 8


def choose(turn: search.Turn) -> Action:
    """The move left when the last round has halved the field."""
    if len(turn.legal) == 1:
        return turn.legal[0]
    return estimate(turn)[0].action


def estimate(turn: search.Turn, keep: Action | None = None) -> list[search.Estimate]:
    """The field raced, best first: the move :func:`choose` plays, then the others by the round
    they were dropped in (later first) and their mean there. ``keep``, a move of the seat (a move
    played, to compare with the best), joins the field if it is not in it and is never dropped,
    so it meets every world the best meets; a cap too small for it may then be passed by one
    world a round."""
    first = turn.world()
    turn = for_expert(turn, first)
    field = contenders(turn, first)
    field, kept = search.joined(field, keep)
    if len(field) == 1:
        return [search.Estimate(field[0], 0.0, 0)]
    totals, seen = [0.0] * len(field), [0] * len(field)
    alive, dropped = list(range(len(field))), list[int]()
    rounds = math.ceil(math.log2(len(field)))
    plan = Plan(turn, rounds)
    worlds = itertools.chain([first], iter(turn.world, None))  # a fresh world each time, never None
    for round_ in range(rounds):
        for world in worlds:
            search.race(turn, world, field, alive, totals, seen)
            plan.spend(len(alive))
            if plan.round_over(round_, len(alive)):
                break
        ordered = sorted(alive, key=lambda j: (-totals[j], j))
        alive = ordered[: (len(alive) + 1) // 2]
        dropped = ordered[len(alive) :] + dropped
        if kept in dropped:
            dropped.remove(kept)
            alive.append(kept)
    order = sorted(alive, key=lambda j: (-totals[j] / seen[j], j)) + dropped
    return [search.Estimate(field[j], totals[j] / seen[j], seen[j]) for j in order]


def for_expert(turn: search.Turn, world: State) -> search.Turn:
    """The turn with the game's heuristics for the expert at the world's seats, where it has its own."""
    heuristics = turn.heuristics
    if heuristics.expert is None:
        return turn
    return dataclasses.replace(turn, heuristics=heuristics.expert(heuristics.seats(world)))


def contenders(turn: search.Turn, world: State) -> list[Action]:
    """The game's ``WIDTH`` best-ranked moves, fewer where an iteration cap cannot pay for one
    world in each round, or the one move its candidates name when they name only one."""
    heuristics = turn.heuristics
    candidates = heuristics.candidates(world, turn.seat, turn.legal) or turn.legal
    if len(candidates) == 1:
        return candidates
    ranked = heuristics.ranked(world, turn.seat, turn.legal) if heuristics.ranked else candidates
    width = min(WIDTH, len(ranked))
    while turn.max_iterations is not None and width > 1 and least_cost(width) > turn.max_iterations:
        width -= 1
    return ranked[:width]


def least_cost(moves: int) -> int:
    """The rollouts of one world in each round of a race of ``moves`` moves (8: 8 + 4 + 2)."""
    cost, alive = 0, moves
    while alive > 1:
        cost, alive = cost + alive, (alive + 1) // 2
    return cost


class Plan:
    """How much of the budget each round may use: with an iteration cap, round ``r`` (from 0)
    ends once ``cap * (r + 1) / rounds`` rollouts are spent or the next world would pass it;
    without one, once the same share of the search's time is gone. Every round plays at least
    one world."""

    def __init__(self, turn: search.Turn, rounds: int) -> None:
        self.cap, self.rounds, self.used = turn.max_iterations, rounds, 0
        self.start, self.seconds = time.perf_counter(), turn.budget_s * search.TIME_SHARE

    def spend(self, rollouts: int) -> None:
        self.used += rollouts

    def round_over(self, round_: int, next_world: int) -> bool:
        share = (round_ + 1) / self.rounds
        if self.cap is not None:
            return self.used + next_world > self.cap * share
        return time.perf_counter() >= self.start + self.seconds * share
