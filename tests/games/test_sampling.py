"""Sampling hidden information must not leak: ``randomize_hidden(S, seat, r)`` may depend only
on what ``seat`` knows.

For states along random playouts of every game and player count, and for every seat and the
spectator: a sample drawn from the true state equals the sample drawn (with the same generator)
from any other state the seat cannot tell apart from it (we use a first sample as that other
state), the sample looks the same to the seat, and it carries no log line the seat cannot read.
A last test checks that the samplers really re-deal hidden cards.
"""

from __future__ import annotations

import random

import pytest

from app.games.registry import GAMES
from tests.support.dumps import dumped

CASES = [(slug, n) for slug, game in sorted(GAMES.items()) for n in range(game.min_players, game.max_players + 1)]
# the advanced Vem aí a Troika, whose Pre-Campaign cards lie face down (a sample depended on
# them, and so did a hint: a security probe, 2026-12-07)
ADVANCED = [("vem-ai-a-troika", n, {"advanced": True}) for n in (2, 3, 4)]
STATES_PER_PLAYOUT = 12
KS = (2, 3, 17)


def playout_states(game, n, seed, r, options=None):
    """States along one random playout, terminal state included."""
    state = game.setup(n, options or {}, seed)
    states = [state]
    while game.outcome(state) is None:
        seat = r.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, r.choice(game.legal_actions(state, seat)))
        states.append(state)
    step = max(1, len(states) // STATES_PER_PLAYOUT)
    return states[::step] + [states[-1]]


@pytest.mark.parametrize(("slug", "n", "options"), [(slug, n, {}) for slug, n in CASES] + ADVANCED)
def test_a_sample_depends_only_on_what_the_seat_knows(slug, n, options):
    game = GAMES[slug]
    for i in range(2):
        for state in playout_states(game, n, f"sampling-{slug}-{n}-{i}", random.Random(i), options):
            for seat in [None, *range(n)]:
                twin = game.randomize_hidden(state, seat, random.Random(1))
                seen = dumped(game.view(state, seat))
                assert dumped(game.view(twin, seat)) == seen
                for k in KS:
                    sample = game.randomize_hidden(state, seat, random.Random(k))
                    assert dumped(sample) == dumped(game.randomize_hidden(twin, seat, random.Random(k))), (
                        f"seat {seat}'s sample depends on information it cannot see"
                    )
                    assert dumped(game.view(sample, seat)) == seen


@pytest.mark.parametrize(("slug", "n"), CASES)
def test_a_sample_carries_only_log_lines_the_seat_can_read(slug, n):
    game = GAMES[slug]
    for state in playout_states(game, n, f"sampling-log-{slug}-{n}", random.Random(5)):
        if game.outcome(state) is not None:
            continue
        for seat in [None, *range(n)]:
            sample = game.randomize_hidden(state, seat, random.Random(9))
            assert all(e["to"] is None or seat in e["to"] for e in sample["log"])


def hidden_hands(slug: str, state, seat: int):
    """The other seats' hidden cards, as a comparable value."""
    if slug == "vem-ai-a-troika":
        return [sorted(p["hand"]) for s, p in enumerate(state["players"]) if s != seat]
    return [sorted(hand) for s, hand in enumerate(state["hands"]) if s != seat]


@pytest.mark.parametrize(("slug", "n"), CASES)
def test_the_sampler_re_deals_other_hands(slug, n):
    game = GAMES[slug]
    states = playout_states(game, n, f"sampling-redeal-{slug}-{n}", random.Random(3))
    state = max(states[1:-1], key=lambda s: sum(map(len, hidden_hands(slug, s, 0))))
    r = random.Random(4)
    deals = {dumped(hidden_hands(slug, game.randomize_hidden(state, 0, r), 0)) for _ in range(30)}
    assert len(deals) > 5, "the other hands are (nearly) never re-dealt"
    mine = {
        dumped(game.randomize_hidden(state, 0, r)["hands" if slug != "vem-ai-a-troika" else "players"][0])
        for _ in range(5)
    }
    truth = state["hands"][0] if slug != "vem-ai-a-troika" else state["players"][0]
    assert mine == {dumped(truth)}, "the seat's own cards must never change"


def test_triatri_deal_by_matching_respects_every_void():
    from app.games.triatri.cards import CARDS, colour_of
    from app.games.triatri.view import match_hands

    red = [i for i, (colour, n) in enumerate(CARDS) if colour == "red" and n <= 4]
    green = [i for i, (colour, n) in enumerate(CARDS) if colour == "green" and n <= 3]
    pool = red + green + [21]  # three reds, two greens, one fake
    slots = [(1, 3, ["green", "blue"]), (2, 3, ["red", "blue"])]
    dealt, left = match_hands(list(reversed(pool)), slots)
    assert left == [] and sorted(map(len, dealt.values())) == [3, 3]
    assert {colour_of(c) for c in dealt[1]} <= {"red", None}
    assert {colour_of(c) for c in dealt[2]} <= {"green", None}
    assert sorted(dealt[1] + dealt[2]) == sorted(pool)
