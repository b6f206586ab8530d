"""TriATri heuristics for the strong bot: the score margin over the best rival, what a gem in
the centre is worth to win, and cheap card play.

The *margin* of a seat is its score (sets, pairs and singles valued by the supply, as at the
end) minus the best rival's. A trick's *stake* is the margin if the seat takes the gem minus
the margin if the rival does. With a positive stake the policy plays the cheapest card that
is winning the trick so far (exactly winning when it plays last), else it sheds its cheapest
card; a leader picks the gem whose expected margin is best given how strong its hand is in
that colour. Only the mover's own cards and public information are read.
"""

from __future__ import annotations

import math
import random
from typing import Any

from app.bots.learned import expert_at_two
from app.bots.search import Heuristics, logistic
from app.games.base import Action, State
from app.games.triatri.cards import CARDS, ROUNDS, TRICKS_PER_ROUND, colour_of, fixed_value, strongest
from app.games.triatri.score import score

FAKE_WORTH = 9  # a fake kept for a late seat takes the best card of a trick
HORIZON = 12
EXPERT_HORIZON = 6  # the expert's at 2 players, with the learned evaluation (docs/bots.md)


def worth(card: int) -> int:
    """How much a card is worth keeping: its number, a fake most of all."""
    return FAKE_WORTH if colour_of(card) is None else CARDS[card][1]


def totals(gems: list[dict[str, int]], supply: dict[str, int]) -> list[int]:
    return [score(g, supply)["total"] for g in gems]


def margin(gems: list[dict[str, int]], supply: dict[str, int], seat: int) -> float:
    """``seat``'s score minus the best rival's, with a small edge for holding more gems."""
    points = totals(gems, supply)
    held = [sum(g.values()) for g in gems]
    mine = points[seat] + 0.1 * held[seat]
    return mine - max(points[s] + 0.1 * held[s] for s in range(len(gems)) if s != seat)


def rival(state: State, seat: int) -> int:
    points = totals(state["gems"], state["supply"])
    return max((s for s in range(len(points)) if s != seat), key=lambda s: (points[s], -s))


def with_gem(gems: list[dict[str, int]], seat: int, colour: str, change: int = 1) -> list[dict[str, int]]:
    changed = [dict(g) for g in gems]
    changed[seat][colour] += change
    return changed


def stake(state: State, seat: int) -> float:
    """How much better taking the gem in the centre is than letting the best rival take it."""
    colour, gems, supply = state["gem"]["colour"], state["gems"], state["supply"]
    other = rival(state, seat)
    return margin(with_gem(gems, seat, colour), supply, seat) - margin(with_gem(gems, other, colour), supply, seat)


def after_play(played: list[dict[str, Any]], seat: int, card: int) -> list[dict[str, Any]]:
    """The trick's positions once ``seat`` plays ``card`` (fixed values and the fake's swap)."""
    played = [dict(p) for p in played]
    if colour_of(card) is None and played:
        i = strongest(played)
        played.append({**played[i], "seat": seat})
        played[i] = {"seat": played[i]["seat"], "card": card, "value": 0}
        return played
    value, _ = fixed_value(card, played[-1]["card"] if played else None)
    return played + [{"seat": seat, "card": card, "value": value}]


def wins_so_far(state: State, seat: int, card: int) -> bool:
    positions = after_play(state["played"], seat, card)
    return positions[strongest(positions)]["seat"] == seat


def play_scores(state: State, seat: int, cards: list[int]) -> list[float]:
    want = stake(state, seat)
    last = len(state["played"]) == state["num_players"] - 1
    result = []
    for card in cards:
        winning = wins_so_far(state, seat, card)
        sure = 1.0 if last else 0.6
        gain = want * (sure if winning else 0.0)
        result.append(gain - 0.15 * worth(card))
    return result


def lead_chance(hand: list[int], colour: str) -> float:
    """A rough chance of taking a trick led in ``colour``, from the leader's cards."""
    own = [CARDS[c][1] for c in hand if colour_of(c) == colour]
    fakes = sum(colour_of(c) is None for c in hand)
    chance = 0.15 + 0.12 * sum(n >= 5 for n in own) + 0.05 * len(own) + 0.1 * fakes
    return max(0.05, min(0.9, chance))


def gem_scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    gems, hand = state["gems"], state["hands"][seat]
    other = rival(state, seat)
    result = []
    for action in legal:
        colour = action["colour"]
        p = lead_chance(hand, colour)
        if action["source"] == "supply":
            supply = {**state["supply"], colour: state["supply"][colour] - 1}
            start = gems
        else:
            supply = state["supply"]
            start = with_gem(gems, seat, colour, -1)
        win = margin(with_gem(start, seat, colour), supply, seat)
        lose = margin(with_gem(start, other, colour), supply, seat)
        result.append(p * win + (1 - p) * lose)
    return result


def scores(state: State, seat: int, legal: list[Action]) -> list[float]:
    """A heuristic score per legal action, from ``seat``'s own cards and public information."""
    kind = legal[0]["type"]
    if kind == "choose_gem":
        return gem_scores(state, seat, legal)
    if kind == "play":
        return play_scores(state, seat, [a["card"] for a in legal])
    return [-float(worth(a["card"])) for a in legal]  # start reveal: give up the weakest card


def candidates(state: State, seat: int, legal: list[Action]) -> list[Action]:
    values = scores(state, seat, legal)
    return [legal[i] for i in sorted(range(len(legal)), key=lambda i: (-values[i], i))]


def greedy(state: State, seat: int, legal: list[Action]) -> Action:
    values = scores(state, seat, legal)
    return legal[max(range(len(legal)), key=lambda i: values[i])]


def policy(state: State, seat: int, legal: list[Action], rng: random.Random) -> Action:
    return greedy(state, seat, legal) if rng.random() > 0.1 else rng.choice(legal)


def evaluate(state: State, seat: int) -> float:
    """The score margin, made less certain by the tricks still to play."""
    tricks_left = (ROUNDS - state["round"]) * TRICKS_PER_ROUND + TRICKS_PER_ROUND - state["trick_number"] + 1
    spread = math.sqrt(1 + tricks_left / 2)
    return logistic(margin(state["gems"], state["supply"], seat) / spread)


# The expert's at 2 players: rollouts cut after ``EXPERT_HORIZON`` actions and scored by the
# learned evaluation, cheaper and truer than the margin, so the budget pays for more of them
# (docs/bots.md, "TriATri's learned evaluation, adopted"); at more seats, the strong bot's.
expert = expert_at_two(lambda: HEURISTICS, "triatri", EXPERT_HORIZON)


HEURISTICS: Heuristics = Heuristics(
    candidates=candidates, policy=policy, evaluate=evaluate, horizon=HORIZON, expert=expert
)
