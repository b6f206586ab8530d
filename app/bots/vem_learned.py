"""Vem aí a Troika's learned evaluation, the expert bot's at 2 players: a logistic regression
per stage of the game on what a sampled state shows of the two seats, fitted to who won games
of the rollout policy.

The strong bot's evaluation turns its predicted final margin into a chance of winning. Games of
the policy show it is right about as often as it claims, but knows little early on, and that
other figures of the position say more (docs/bots.md, "Vem aí: a calibrated evaluation, and
shorter rollouts"). Every feature is the seat's figure less its rival's: that margin, the
points if the game ended now, the Votes, Income and Power on the table, money, the hand's
cards, Power and Votes, the Leader's three figures, the Consensus under way and those made,
Titles, Groups on the table, who holds the Government and who plays first in the round. With
no constant term, the two seats' chances add up to one. The weights, one row per stage (by
Events left in the deck), are data (``vem_weights.json``), made by ``troika-arena
fit-evaluation --game vem-ai-a-troika`` (:mod:`app.sim.fit`), which records how they were made.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from app.bots.learned import predicted, read_weights
from app.bots.vem_ai_troika import colour_progress, estimates, points_now
from app.games.base import State
from app.games.vem_ai_troika import table

WEIGHTS = Path(__file__).with_name("vem_weights.json")
STAGES = ((0, 3), (4, 6), (7, 9), (10, 12), (13, 14))  # Events left in the deck (14 at the start)
SAMPLED = 0.1  # of a policy game's positions the fit keeps
FIT_GAMES = 16_000  # the fit's default
NAMES = (
    "predicted margin",
    "points now",
    "Votes on the table",
    "Income",
    "Power on the table",
    "money",
    "cards in hand",
    "Power in hand",
    "Votes in hand",
    "Leader's Power",
    "Leader's Votes",
    "Leader's Income",
    "Consensus under way",
    "Consensuses",
    "Titles",
    "Groups on the table",
    "holds the Government",
    "plays first in the round",
)


def stage(state: State) -> int:
    left = len(state["events"])
    return next(i for i, (low, high) in enumerate(STAGES) if low <= left <= high)


def figures(state: State, seat: int) -> list[float]:
    """``seat``'s own figures, in the order of ``NAMES`` after the margin."""
    p = table.player(state, seat)
    hand = [table.group(state, gid) for gid in p["hand"]]
    return [
        points_now(state, seat),
        table.metric(state, seat, "votes"),
        table.metric(state, seat, "income"),
        table.metric(state, seat, "power"),
        p["money"],
        len(p["hand"]),
        sum(card["power"] for card in hand),
        sum(card["votes"] for card in hand),
        table.leader_value(state, seat, "power"),
        table.leader_value(state, seat, "votes"),
        table.leader_value(state, seat, "income"),
        colour_progress(state, seat),
        table.consensus(state, seat),
        sum(p["titles"]),
        len(p["table"]),
        state["government"] == seat,
        state["first"] == seat,
    ]


def features(state: State, seat: int) -> list[float]:
    """The model's inputs for ``seat`` in a 2-player state that is not over (``NAMES``): each
    the seat's figure less its rival's."""
    rival = 1 - seat
    values = estimates(state)
    own, other = figures(state, seat), figures(state, rival)
    return [float(values[seat] - values[rival])] + [float(a - b) for a, b in zip(own, other, strict=True)]


@cache
def weights() -> tuple[tuple[float, ...], ...]:
    """One row of weights per stage, as ``troika-arena fit-evaluation`` wrote them."""
    return read_weights(WEIGHTS, NAMES, len(STAGES))


def evaluate(state: State, seat: int) -> float:
    """How likely ``seat`` is to win, by the model of the state's stage (2 players)."""
    return predicted(weights()[stage(state)], features(state, seat))
