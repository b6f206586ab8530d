"""Troika heuristics for the strong bot: what a collection of tiles is worth, move scores from
that worth, and a position evaluation from the tokens plus the round in progress.

A collection's *potential* is its best split into groups: complete trios at their points,
unfinished pairs (two equal values, or two values of a gem) at their expected points given the
chance of finding the missing tile before the round ends, and loose tiles at -1; a split
without a complete fuel-set pays the price of failing to leave, softened by the chance of
completing a pair into one. Chances come from the tiles the seat has not seen and the turns
left. Moves are scored by how they change the mover's potential; only the mover's own
knowledge is read, so candidate lists agree across sampled states. Rollouts, which cannot
afford the potential at every move, use a quick count of equal and neighbouring values.

The evaluation adds to each seat's tokens the token its potential would earn if the round
ended now (+2, +1, or -1 for a likely failure), and compares the seat with its best rival.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections import Counter

from app.bots.search import Heuristics, logistic
from app.games.base import Action, State
from app.games.troika.rules import ROUNDS, TILES
from app.games.troika.score import CALL_MIN_CONTAINER, FIRST_CALL_BONUS, best_split, can_leave

FAILED = 8.0  # what failing to leave costs, in round points (a -1 token instead of +1/+2)
CALLER_GUESS = 5.0  # round points presumed for a rival caller whose sampled tiles cannot leave
CANDIDATES = 4
HORIZON = 10
CHANCE_LEVELS = 4  # chances are rounded to quarters, so worths of similar positions are shared
COUNTS = Counter(TILES)


def _chances(state: State, seat: int) -> tuple[int, ...]:
    """Per value 1-15, the chance (in tenths) that ``seat`` still gets one more such tile."""
    seen = Counter(state["hands"][seat])
    for container in state["containers"]:
        seen.update(container)
    seen.update(state["table_up"])
    seen.update(m["value"] for m in state["down_marked"] if m["by"] == seat)
    unseen = {v: COUNTS[v] - seen[v] for v in range(1, 16)}
    unseen_total = max(1, sum(unseen.values()))
    face_down = len(state["down_unmarked"]) + len(state["down_marked"])
    playing = max(1, state["status"].count("playing"))
    my_turns = face_down / 1.5 / playing
    up: Counter[int] = Counter(state["table_up"])
    levels = []
    for v in range(1, 16):
        per_turn = min(0.9, (0.5 if up[v] else 0.0) + 1.2 * unseen[v] / unseen_total)
        chance = 1 - (1 - per_turn) ** my_turns if my_turns > 0 else (0.6 if up[v] else 0.0)
        levels.append(min(CHANCE_LEVELS - 1, round(CHANCE_LEVELS * chance)))
    return tuple(levels)


def _gem_points(top: int) -> int:
    return top % 10


@functools.lru_cache(maxsize=1 << 18)
def _best(counts: tuple[int, ...], chances: tuple[int, ...]) -> tuple[float, float]:
    """(best value with a fuel-set, best value without) for the tiles counted by value-1."""
    low = next((i for i, count in enumerate(counts) if count), None)
    if low is None:
        return (-math.inf, 0.0)
    v = low + 1

    def q(value: int) -> float:
        return chances[value - 1] / CHANCE_LEVELS if 1 <= value <= 15 else 0.0

    def partial(points: float, chance: float) -> float:
        return chance * points - 2 * (1 - chance)

    options: list[tuple[tuple[int, ...], float, bool]] = [((low,), -1.0, False)]
    if counts[low] >= 3:
        options.append(((low,) * 3, 0.0, True))
    if counts[low] >= 2:
        pair = partial(0, q(v))
        options.append(((low,) * 2, pair, False))
        options.append(((low,) * 2, pair - FAILED * (1 - q(v)), True))
    if low + 1 < 15 and counts[low + 1]:
        if low + 2 < 15 and counts[low + 2]:
            options.append(((low, low + 1, low + 2), float(_gem_points(v + 2)), False))
        ends = [
            partial(_gem_points(v + 2), q(v + 2)) if v + 2 <= 15 else -2.0,
            partial(_gem_points(v + 1), q(v - 1)) if v >= 2 else -2.0,
        ]
        options.append(((low, low + 1), max(ends), False))
    if low + 2 < 15 and counts[low + 2]:
        options.append(((low, low + 2), partial(_gem_points(v + 2), q(v + 1)), False))
    with_fuel, without = -math.inf, -math.inf
    for used, value, fuel in options:
        rest = list(counts)
        for i in used:
            rest[i] -= 1
        rest_fuel, rest_without = _best(tuple(rest), chances)
        with_fuel = max(with_fuel, value + rest_fuel, value + rest_without if fuel else -math.inf)
        without = max(without, value + rest_without)
    return with_fuel, without


def potential(tiles: list[int], chances: tuple[int, ...]) -> float:
    """The expected round points of ``tiles`` (see the module docstring)."""
    counts = tuple(tiles.count(v) for v in range(1, 16))
    with_fuel, without = _best(counts, chances)
    return max(with_fuel, without - FAILED)


def _unseen(state: State, seat: int) -> list[int]:
    """Values ``seat`` has not seen, one entry per tile (the face-down ones it could draw)."""
    seen = Counter(state["hands"][seat])
    for container in state["containers"]:
        seen.update(container)
    seen.update(state["table_up"])
    seen.update(m["value"] for m in state["down_marked"] if m["by"] == seat)
    return [v for v in range(1, 16) for _ in range(COUNTS[v] - seen[v])]


def scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    """A heuristic score per legal action, from ``seat``'s knowledge only."""
    hand, container = state["hands"][seat], state["containers"][seat]
    tiles = hand + container
    chances = _chances(state, seat)
    now = potential(tiles, chances)
    own_marks = {m["id"]: m["value"] for m in state["down_marked"] if m["by"] == seat}

    def gain(value: int) -> float:
        return potential(tiles + [value], chances) - now

    def without(value: int) -> float:
        rest = list(tiles)
        rest.remove(value)
        return potential(rest, chances) - now

    unseen = Counter(_unseen(state, seat))
    total = max(1, sum(unseen.values()))
    blind = sum(count * gain(v) for v, count in unseen.items()) / total if unseen else 0.0

    def score(action: Action) -> float:
        kind = action["type"]
        tile = action.get("tile")
        if kind == "troika":
            return 100.0 if can_leave(hand, container) else -100.0
        if kind == "reveal":
            return max(0.0, gain(own_marks[tile])) - 0.3 if tile in own_marks else (0.0 if tile == "unknown" else -0.2)
        if kind == "take_up":
            return gain(action["value"])
        if kind == "take_down":
            return gain(own_marks[tile]) if tile in own_marks else blind - 0.1
        if kind == "discard":
            leak = 0.2 if action["from"] == "hand" else -0.3
            return without(action["value"]) + leak
        return 0.0

    return [score(action) for action in legal]


def candidates(state: State, seat: int, legal: list[Action]) -> list[Action]:
    order = scored(state, seat, legal)
    best, top = order[0]
    if legal[top]["type"] == "troika" and best > 0:
        return [legal[top]]  # leaving the planet safely is never searched away
    return [legal[i] for _, i in order[:CANDIDATES]]


def ranked(state: State, seat: int, legal: list[Action]) -> list[Action]:
    return [legal[i] for _, i in scored(state, seat, legal)]


def scored(state: State, seat: int, legal: list[Action]) -> list[tuple[float, int]]:
    """(score, index in ``legal``) of every move worth weighing, best first (ties: the listed
    order): all but a "Troika!" call that would fail (see :func:`sensible`)."""
    kept = sensible(state, seat, legal)
    order = sorted(zip(scores(state, seat, legal), range(len(legal)), strict=True), key=lambda p: (-p[0], p[1]))
    return [p for p in order if legal[p[1]] in kept]


def sensible(state: State, seat: int, legal: list[Action]) -> list[Action]:
    """``legal`` without a "Troika!" call that would fail, which the caller may know before
    calling (ruling T7): it takes the -1 token for certain, and a search cut at a horizon early
    in a round (when every seat's tiles still look like a failure) finds ending the round so
    as good as playing on. Only a failing call left: that call."""
    hand, container = state["hands"][seat], state["containers"][seat]
    kept = [a for a in legal if a["type"] != "troika" or can_leave(hand, container)]
    return kept or legal


def usefulness(value: int, tiles: list[int]) -> float:
    """A quick guess of how much ``value`` helps ``tiles`` (rollouts cannot afford ``potential``)."""
    near = sum(0.6 for v in (value - 1, value + 1) if v in tiles)
    near += sum(0.3 for v in (value - 2, value + 2) if v in tiles)
    return 1.0 * min(2, tiles.count(value)) + near + 0.05 * (value % 10) - 0.5


def quick_score(state: State, seat: int, action: Action) -> float:
    hand, container = state["hands"][seat], state["containers"][seat]
    tiles = hand + container
    kind, tile = action["type"], action.get("tile")
    mark = next((m["value"] for m in state["down_marked"] if m["id"] == tile and m["by"] == seat), None)
    if kind == "troika":
        return 100.0 if can_leave(hand, container) else -100.0
    if kind == "reveal":
        return usefulness(mark, tiles) - 0.5 if mark is not None else 0.0
    if kind == "take_up":
        return usefulness(action["value"], tiles)
    if kind == "take_down":
        return usefulness(mark, tiles) if mark is not None else 0.1
    if kind == "discard":
        rest = list(tiles)
        rest.remove(action["value"])
        return 0.2 - usefulness(action["value"], rest) - (0.3 if action["from"] == "container" else 0.0)
    return 0.0


def quick_order(state: State, seat: int, legal: list[Action]) -> list[int]:
    """Indices of ``legal``, best first by :func:`quick_score` (ties: the listed order)."""
    values = [quick_score(state, seat, action) for action in legal]
    return sorted(range(len(legal)), key=lambda i: -values[i])


def policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    legal = sensible(state, seat, legal)
    order = quick_order(state, seat, legal)
    if len(order) > 1 and rng.random() < 0.1:
        return legal[order[1]]
    return legal[order[0]]


def trim(state: State) -> None:
    state["rounds"] = []  # finished rounds' breakdowns: only views read them


def _call_succeeds(state: State, caller: int, seat: int) -> bool:
    """Whether ``seat`` counts ``caller``'s "Troika!" as a success. Its own call it knows; a
    rival's stays hidden until the round ends (ruling T7), and a sampled world deals the rival
    tiles at random, so a rival is presumed to have called because the call would succeed,
    unless its Container, which everyone sees, is too small for any call to succeed."""
    if caller != seat:
        return len(state["containers"][caller]) >= CALL_MIN_CONTAINER
    return can_leave(state["hands"][caller], state["containers"][caller])


def round_estimates(state: State, seat: int) -> list[float | None]:
    """Each seat's expected round points as ``seat`` sees them (None: failed to leave)."""
    succeeded = [c for c in state["callers"] if _call_succeeds(state, c, seat)]
    estimates: list[float | None] = []
    for other, status in enumerate(state["status"]):
        tiles = state["hands"][other] + state["containers"][other]
        if status == "playing":
            estimates.append(potential(tiles, _chances(state, other)))
        elif other not in succeeded:
            estimates.append(None)
        else:
            split = best_split(tiles)  # a rival's sampled tiles may hold no fuel-set: a typical leave
            bonus = FIRST_CALL_BONUS if succeeded[0] == other else 0
            estimates.append((split[0] if split else CALLER_GUESS) + bonus)
    return estimates


def advantage(state: State, seat: int) -> float:
    """Token totals plus this round's likely tokens, the seat's against its best rival's."""
    points = [-FAILED if e is None else e for e in round_estimates(state, seat)]  # None: failed
    totals = [float(sum(tokens)) for tokens in state["tokens"]]
    for s, e in enumerate(points):
        if e <= -FAILED / 2:
            totals[s] -= 1
    leaving = sorted((s for s, e in enumerate(points) if e > -FAILED / 2), key=lambda s: -points[s])
    for s, token in zip(leaving, (2, 1), strict=False):  # the two best leavers' tokens
        totals[s] += token
    rivals = [s for s in range(len(totals)) if s != seat]
    best = max(rivals, key=lambda s: totals[s])
    return totals[seat] - totals[best] + 0.05 * (points[seat] - points[best])


def evaluate(state: State, seat: int) -> float:
    """The advantage as a chance to win, less certain with more rounds to play."""
    return logistic(1.5 * advantage(state, seat) / math.sqrt(ROUNDS - state["round"] + 1))


def calibrated(state: State, seat: int) -> float:
    """The advantage as a chance to win, with the certainty the games of the policy show (the
    expert's evaluation): :func:`evaluate` is too sure of itself, the more so the more rounds
    are left. Fitting a scale to the advantage in each round, over 3,000 games of the policy,
    gave about 0.9 divided by the rounds left (docs/bots.md, "A calibrated evaluation for
    Troika")."""
    return logistic(0.9 * advantage(state, seat) / (ROUNDS - state["round"] + 1))


HEURISTICS = Heuristics(
    candidates=candidates,
    policy=policy,
    evaluate=evaluate,
    horizon=HORIZON,
    trim=trim,
    ranked=ranked,
    expert=lambda seats: EXPERT,
)
EXPERT: Heuristics = dataclasses.replace(HEURISTICS, evaluate=calibrated)  # (the expert's rollouts end in this)
