"""The coach (app/bots/coach.py): the move a hint suggests is the move the strong bot plays, and
a review's assessment is the expert bot's race, with the move played on the same worlds as the
best."""

from __future__ import annotations

import random

import pytest

from app.bots import choose, coach, expert, search
from app.games.base import same_json, spoken
from app.games.registry import GAMES

ROLLOUTS = 60


def positions(slug: str, seats: int, count: int):
    """A few positions of random games where the seat to move has a choice (another game while
    a short one has not given enough, ``count`` games at most)."""
    game, rng = GAMES[slug], random.Random(11)
    found = []
    for played in range(count):
        state = game.setup(seats, {}, f"coach-{slug}{played or ''}")
        while game.outcome(state) is None and len(found) < count:
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            if len(legal) > 2 and rng.random() < 0.3:
                found.append((state, seat, legal))
            state = game.apply(state, seat, rng.choice([a for a in legal if a["type"] != "troika"] or legal))
    return game, found


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_hint_is_the_strong_bots_move_and_an_assessment_the_expert_bots_race(slug):
    game, found = positions(slug, 2, 4)
    assert len(found) == 4
    for state, seat, legal in found:
        sampler = lambda r, state=state, seat=seat: game.randomize_hidden(state, seat, r)  # noqa: E731
        played = choose("strong", game, seat, game.view(state, seat), legal, sampler, random.Random(1), 1.0, ROLLOUTS)
        hinted = coach.hint(game, seat, legal, sampler, random.Random(1), ROLLOUTS, game.label)
        assert same_json(hinted.action, played)  # the same race, the same seed: the same move
        worst = legal[-1]
        for race in (search.estimate, expert.estimate):  # the hints' and the reviews'
            ranked = race(coach.turn(game, seat, legal, sampler, random.Random(2), ROLLOUTS), keep=worst)
            kept = [e for e in ranked if same_json(e.action, worst)]
            assert len(kept) == 1 and kept[0].worlds == ranked[0].worlds > 0  # never dropped by the halving
            assert ranked[0].value >= max(e.value for e in ranked if e.worlds == ranked[0].worlds)
        reviewed = choose("expert", game, seat, game.view(state, seat), legal, sampler, random.Random(1), 1.0, ROLLOUTS)
        own = coach.assess(game, seat, legal, reviewed, sampler, random.Random(1), ROLLOUTS)
        assert own.gain == 0.0 and same_json(own.best, reviewed)  # its own choice, in its own race: nothing lost
        assessed = coach.assess(game, seat, legal, worst, sampler, random.Random(2), ROLLOUTS)
        assert assessed.gain == pytest.approx(max(0.0, assessed.best_value - assessed.played_value))


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ((0.004, 0.0), "it did as well as “take 2” (both 0 out of 100): either will do"),
        ((0.514, 0.506), "it did as well as “take 2” (both 51 out of 100): either will do"),
        ((0.52, 0.51), "it scored 52 out of 100, against 51 for “take 2”"),
    ],
)
def test_a_hint_between_two_moves_that_score_alike_says_either_will_do(monkeypatch, values, said):
    """A hint's reason compares the suggestion with the runner-up in points out of 100: where both
    round to the same points it says so ("0 against 0" read as no reason at all, a probe found)."""
    game = GAMES["troika"]
    first, second = {"type": "take_up", "value": 1}, {"type": "take_up", "value": 2}
    ranked = [search.Estimate(first, values[0], 30), search.Estimate(second, values[1], 30)]
    monkeypatch.setattr(search, "estimate", lambda turn: ranked)
    label = lambda action: f"take {action['value']}"  # noqa: E731
    hinted = coach.hint(game, 0, [first, second], lambda r: {}, random.Random(1), ROLLOUTS, label)
    assert hinted.action == first
    assert spoken(hinted.reason) == f"over 30 deals that match what you can see, {said}"
