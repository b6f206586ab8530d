"""TriATri's learned evaluation, the expert bot's at 2 players: a logistic regression per stage
of the game on features of a sampled state, fitted to who won games of the rollout policy.

The strong bot's evaluation, the score margin, names the final winner of the policy's games
little better than a coin (docs/bots.md, "A learned evaluation for TriATri"): one gem swings
the score by up to about 8, and who leads and who holds the fakes decide the tricks to come.
The features read a whole sampled world (both hands, as a rollout does): the margin and its
parts, how near each seat is to the instant win, the smallest supply pile, each hand's fakes,
high cards and sum, who leads and who is winning the trick in play, and what the gem in the
centre is worth. The weights, one row per stage (by tricks left), are data
(``triatri_weights.json``), made by ``troika-arena fit-evaluation`` (:mod:`app.sim.fit`), which
also records how they were made. Only 2-player states are read; the expert keeps the strong
bot's evaluation at more seats.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

from app.bots.learned import predicted, read_weights
from app.bots.triatri import margin, stake, totals
from app.games.base import State
from app.games.triatri.cards import CARDS, COLOURS, ROUNDS, TRICKS_PER_ROUND, colour_of, strongest
from app.games.triatri.score import score

WEIGHTS = Path(__file__).with_name("triatri_weights.json")
STAGES = ((1, 3), (4, 6), (7, 9), (10, 12), (13, 15))  # tricks left, the current one counted
SAMPLED = 0.3  # of a policy game's positions the fit keeps
FIT_GAMES = 40_000  # the fit's default
HIGH = 5  # a card numbered this or more is a high card
NAMES = (
    "constant",
    "margin",
    "margin squared, signed",
    "margin squashed",
    "own total",
    "rival total",
    "own sets",
    "rival sets",
    "own pairs",
    "rival pairs",
    "own single points",
    "rival single points",
    "own gems",
    "rival gems",
    "own colours at two",
    "rival colours at two",
    "own gems short of the instant win",
    "rival gems short of the instant win",
    "smallest supply pile",
    "supply left",
    "own fakes",
    "rival fakes",
    "own high cards",
    "rival high cards",
    "own hand sum",
    "rival hand sum",
    "own cards",
    "rival cards",
    "own lead",
    "rival lead",
    "own trick so far",
    "rival trick so far",
    "gem in the centre",
    "stake",
    "stake by who is winning the trick",
    "tricks left in the round",
)


def tricks_left(state: State) -> int:
    """The tricks still to play, the current one counted (15 at the start, 1 in the last)."""
    return (ROUNDS - state["round"]) * TRICKS_PER_ROUND + TRICKS_PER_ROUND - state["trick_number"] + 1


def stage(state: State) -> int:
    left = tricks_left(state)
    return next(i for i, (low, high) in enumerate(STAGES) if low <= left <= high)


def features(state: State, seat: int) -> list[float]:
    """The model's inputs for ``seat`` in a 2-player state that is not over (``NAMES``)."""
    rival = 1 - seat
    gems, supply, hands = state["gems"], state["supply"], state["hands"]
    lead = margin(gems, supply, seat)
    points = totals(gems, supply)
    parts = [score(gems[s], supply) for s in (seat, rival)]
    played = state["played"]
    winning = played[strongest(played)]["seat"] if played else None
    centre = state["gem"] is not None
    at_stake = stake(state, seat) if centre else 0.0
    ahead = (winning == seat) - (winning == rival)
    row = [1.0, lead, math.copysign(lead * lead, lead) / 10, math.tanh(lead / 3), points[seat], points[rival]]
    for key in ("sets", "pairs", "single_points"):
        row += [parts[0][key], parts[1][key]]
    row += [sum(gems[s].values()) for s in (seat, rival)]
    row += [sum(gems[s][c] >= 2 for c in COLOURS) for s in (seat, rival)]
    row += [sum(max(0, 2 - gems[s][c]) for c in COLOURS) for s in (seat, rival)]
    row += [min(supply.values()), sum(supply.values())]
    row += [sum(colour_of(c) is None for c in hands[s]) for s in (seat, rival)]
    row += [sum(CARDS[c][1] >= HIGH for c in hands[s]) for s in (seat, rival)]
    row += [sum(CARDS[c][1] for c in hands[s]) / 10 for s in (seat, rival)]
    row += [len(hands[s]) for s in (seat, rival)]
    row += [state["leader"] == seat, state["leader"] == rival, winning == seat, winning == rival]
    row += [centre, at_stake, at_stake * ahead, TRICKS_PER_ROUND - state["trick_number"] + 1]
    return [float(x) for x in row]


@cache
def weights() -> tuple[tuple[float, ...], ...]:
    """One row of weights per stage, as ``troika-arena fit-evaluation`` wrote them."""
    return read_weights(WEIGHTS, NAMES, len(STAGES))


def evaluate(state: State, seat: int) -> float:
    """How likely ``seat`` is to win, by the model of the state's stage (2 players)."""
    return predicted(weights()[stage(state)], features(state, seat))
