"""The expert bot's search: single-observer information-set Monte Carlo tree search (IS-MCTS).

One tree is grown from the searching seat's information set. Every iteration draws a fresh
world from the sampler (a deal consistent with what the seat knows), walks down the tree
playing, at each node, the child that the upper confidence bound prefers among those legal in
this world (a child's ``available`` counts the iterations it could have been chosen, the
subset-armed bound of Cowling, Powley and Whitehouse, 2012), adds one new node, rolls out
with the game's cheap policy up to the horizon and backs the result up: each node holds the
value, in [0, 1], of the seat that chose its move, so every seat in the tree plays for itself.
Children are limited to the game's ``candidates`` of the mover (what the heuristics think is
worth trying, best first, tried in that order), ``width`` at the root and ``inner_width``
below, so a hand of a hundred combinations does not dilute the search.

Against :mod:`app.bots.search` (flat: a few moves compared on common worlds) the tree looks
further: the replies of the rivals and the seat's own next moves are searched too, rather
than played by the rollout policy. With an iteration cap one iteration is one rollout, as
there, so the two are compared at the same number of rollouts; without one the search stops
when the time budget is spent.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

import orjson

from app.bots.search import Heuristics, Turn, outcome_value
from app.games.base import Action, Game, State

EXPLORATION = 0.7  # the bound's constant, for values in [0, 1]
WIDTH = 6  # candidates at the root
INNER_WIDTH = 3  # candidates below it


@dataclass
class Node:
    """A move of the tree (the root has none): the seat that chose it, its statistics and its
    children by the move's JSON text."""

    action: Action | None = None
    mover: int = -1
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[bytes, Node] = field(default_factory=dict)

    def bound(self) -> float:
        return self.total / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


def key(action: Action) -> bytes:
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)


def choose(turn: Turn) -> Action:
    """The root move visited most often (ties: the better mean, then the heuristics' order)."""
    game, heuristics, seat, legal, rng = turn.game, turn.heuristics, turn.seat, turn.legal, turn.rng
    if len(legal) == 1:
        return legal[0]
    deadline = turn.deadline()
    root = Node()
    ranked = heuristics.candidates(turn.world(), seat, legal) or legal
    order = {key(action): index for index, action in enumerate(ranked[:WIDTH])}
    iterations = 0
    while turn.max_iterations is None or iterations < max(1, turn.max_iterations):
        iterate(game, heuristics, root, seat, order, turn.world(), rng)
        iterations += 1
        if turn.max_iterations is None and time.perf_counter() >= deadline:
            break
    best = max(
        root.children.items(),
        key=lambda item: (item[1].visits, item[1].total / max(1, item[1].visits), -order.get(item[0], 0)),
    )
    return best[1].action or ranked[0]


def iterate(
    game: Game,
    heuristics: Heuristics,
    root: Node,
    seat: int,
    order: dict[bytes, int],
    state: State,
    rng: random.Random,
) -> None:
    """One iteration in the sampled world ``state``: select, expand one node, roll out, back up."""
    path = [root]
    node = root
    expanded = False
    while not expanded and game.outcome(state) is None:
        actor = min(game.to_act(state))
        legal = game.legal_actions(state, actor)
        if node is root:
            moves = [action for action in legal if key(action) in order]
            moves.sort(key=lambda action: order[key(action)])
            moves = moves or legal[:WIDTH]
        else:
            moves = heuristics.candidates(state, actor, legal)[:INNER_WIDTH] or legal[:INNER_WIDTH]
        keys = [key(action) for action in moves]
        untried = [i for i, k in enumerate(keys) if k not in node.children]
        for k in keys:
            if k in node.children:
                node.children[k].available += 1
        if untried:
            index = untried[0]
            child = node.children[keys[index]] = Node(moves[index], actor, available=1)
            expanded = True
        else:
            child = max((node.children[k] for k in keys), key=Node.bound)
        state = game.follow(state, actor, child.action or moves[0])
        node = child
        path.append(node)
    values = rollout(game, heuristics, state, rng)
    for visited in path:
        visited.visits += 1
        if visited.mover >= 0:
            visited.total += values[visited.mover]


def rollout(game: Game, heuristics: Heuristics, state: State, rng: random.Random) -> list[float]:
    """Every seat's value in [0, 1] after the policy plays on for at most the horizon."""
    for _ in range(heuristics.horizon):
        if game.outcome(state) is not None:
            break
        actor = min(game.to_act(state))
        state = game.follow(state, actor, heuristics.policy(state, actor, game.legal_actions(state, actor), rng))
    outcome = game.outcome(state)
    seats = range(heuristics.seats(state))
    if outcome is None:
        return [heuristics.evaluate(state, s) for s in seats]
    return [outcome_value(outcome, s) for s in seats]
