"""The expert bot's race: a wider field than the strong bot's, the budget split evenly over the
rounds of sequential halving, an iteration cap never passed, and a clearly better move found
wherever the heuristic ranks it in the field."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from app.bots import HEURISTICS, expert, search, triatri_learned, troika, vem_learned
from app.games.registry import GAMES

MOVES = [{"type": "move", "index": i} for i in range(12)]


def synthetic_turn(cap, best=None, ranked=True, seed=0):
    """A turn over twelve made-up moves that the heuristic ranks in their listed order, with
    candidates the first four (as the strong bot's); ``best`` names the move worth most."""
    heuristics = search.Heuristics(
        candidates=lambda state, seat, legal: legal[:4],
        policy=lambda state, seat, legal, rng: legal[0],
        evaluate=lambda state, seat: 0.5,
        horizon=1,
        ranked=(lambda state, seat, legal: list(legal)) if ranked else None,
    )
    game = GAMES["troika"]  # never played: the tests replace the rollouts
    return search.Turn(game, heuristics, 0, MOVES, lambda r: {"log": []}, random.Random(seed), 1.0, cap)


@pytest.fixture
def rollouts(monkeypatch):
    """Every rollout the search makes, as the index of the move rolled out: a noisy value, 0.3
    more for move ``best`` when the test sets one."""
    made: list[int] = []
    settings = {"best": None}

    def simulate(game, heuristics, state, seat, action, rng):
        made.append(action["index"])
        return rng.random() * 0.6 + (0.3 if action["index"] == settings["best"] else 0.0)

    monkeypatch.setattr(search, "simulate", simulate)
    return made, settings


@pytest.fixture
def fields(monkeypatch):
    """The number of moves the race plays in each world, world after world."""
    sizes: list[int] = []
    race = search.race

    def counted(turn, world, moves, alive, totals, seen):
        sizes.append(len(alive))
        race(turn, world, moves, alive, totals, seen)

    monkeypatch.setattr(search, "race", counted)
    return sizes


def test_the_field_is_eight_moves_wide_where_strong_races_four(rollouts):
    made, _ = rollouts
    expert.choose(synthetic_turn(300))
    assert sorted(set(made)) == list(range(expert.WIDTH)) == list(range(8))
    made.clear()
    search.choose(synthetic_turn(300))
    assert sorted(set(made)) == [0, 1, 2, 3]


def test_without_a_ranking_the_field_is_the_candidates(rollouts):
    made, _ = rollouts
    expert.choose(synthetic_turn(300, ranked=False))
    assert sorted(set(made)) == [0, 1, 2, 3]


@pytest.mark.parametrize("best", [0, 5, 7])
def test_a_clearly_better_move_wins_wherever_it_is_ranked_in_the_field(rollouts, best):
    _, settings = rollouts
    settings["best"] = best
    for seed in range(5):
        assert expert.choose(synthetic_turn(300, seed=seed)) == MOVES[best]
    settings["best"] = 9  # outside the field: the expert cannot find it
    assert expert.choose(synthetic_turn(300)) != MOVES[9]


def test_the_budget_is_split_evenly_over_the_rounds(rollouts, fields):
    made, _ = rollouts
    expert.choose(synthetic_turn(240))
    # three rounds of 80 rollouts: 10 worlds of 8 moves, 20 of 4, 40 of 2
    assert fields == [8] * 10 + [4] * 20 + [2] * 40
    assert len(made) == 240


@pytest.mark.parametrize("cap", [*range(0, 20), 239, 241, 1000])
def test_an_iteration_cap_is_never_passed_and_nearly_spent(rollouts, cap):
    made, _ = rollouts
    move = expert.choose(synthetic_turn(cap))
    assert move in MOVES
    assert len(made) <= cap
    if cap >= expert.least_cost(2):
        assert len(made) > cap - 2, "the last round, of two moves, stops only when a world no longer fits"
    if cap < expert.least_cost(8):
        assert len(set(made)) < 8  # too small a cap for one world in each round of eight moves


def test_least_cost_is_one_world_in_each_round():
    assert [expert.least_cost(n) for n in (1, 2, 3, 4, 5, 8, 9)] == [0, 2, 5, 6, 10, 14, 19]


def test_a_move_the_candidates_name_alone_is_played_without_searching(rollouts):
    made, _ = rollouts
    turn = synthetic_turn(300)
    alone = replace(turn.heuristics, candidates=lambda state, seat, legal: legal[3:4])
    assert expert.choose(replace(turn, heuristics=alone)) == MOVES[3]
    assert made == []


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_expert_plays_a_legal_move_and_is_reproducible_with_a_cap(slug):
    game, rng = GAMES[slug], random.Random(slug)
    state = game.setup(2, {}, f"expert-{slug}")
    checked = 0
    while game.outcome(state) is None and checked < 6:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if len(legal) > 2:
            choices = [
                expert.choose(
                    search.Turn(
                        game,
                        HEURISTICS[slug],
                        seat,
                        legal,
                        lambda r, state=state, seat=seat: game.randomize_hidden(state, seat, r),
                        random.Random(7),
                        1.0,
                        40,
                    )
                )
                for _ in range(2)
            ]
            assert choices[0] in legal and choices[0] == choices[1]
            checked += 1
        state = game.follow(state, seat, rng.choice(legal))
    assert checked == 6


def test_a_kept_move_outside_the_field_meets_every_world_and_is_never_dropped(rollouts):
    made, settings = rollouts
    settings["best"] = 2
    ranked = expert.estimate(synthetic_turn(240), keep=MOVES[10])
    by_move = {e.action["index"]: e for e in ranked}
    assert sorted(by_move) == [*range(8), 10]
    worlds = made.count(2)
    assert ranked[0].action == MOVES[2] and ranked[0].worlds == worlds
    assert by_move[10].worlds == worlds == made.count(10)
    assert ranked[0].value - by_move[10].value > 0.2  # the 0.3 the best is worth, less the noise
    assert min(e.worlds for e in ranked) < worlds  # the others were dropped along the way


def test_the_estimate_lists_the_choice_first_then_the_later_dropped(rollouts):
    _, settings = rollouts
    settings["best"] = 6
    ranked = expert.estimate(synthetic_turn(240))
    assert ranked[0].action == expert.choose(synthetic_turn(240)) == MOVES[6]
    assert [e.worlds for e in ranked] == sorted((e.worlds for e in ranked), reverse=True)
    assert [e.worlds for e in ranked] == [70, 70, 30, 30, 10, 10, 10, 10]  # the worlds a move met, all rounds
    for a, b in itertools.pairwise(ranked[1:]):
        assert a.worlds > b.worlds or a.value >= b.value  # within a round, by mean


def test_without_a_cap_each_round_ends_with_its_share_of_the_time(rollouts, fields, monkeypatch):
    spent = replace(synthetic_turn(None), budget_s=0.0)  # every round's share is over at once
    assert expert.choose(spent) in MOVES
    assert fields == [8, 4, 2]  # one world a round, the least a round plays
    fields.clear()
    clock = iter(range(1000))
    monkeypatch.setattr(expert.time, "perf_counter", lambda: next(clock) * 0.01)  # 10 ms a reading
    expert.choose(replace(synthetic_turn(None), budget_s=1.0))  # 0.8 s of search: 80 readings
    rounds = [fields.count(n) for n in (8, 4, 2)]
    assert rounds == [27, 27, 26]  # a reading after each world: 80 of them, split evenly


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_games_ranking_orders_legal_moves_and_begins_with_its_candidates(slug):
    game, heuristics, rng = GAMES[slug], HEURISTICS[slug], random.Random(slug)
    state, checked = game.setup(2, {}, f"ranked-{slug}"), 0
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        candidates = heuristics.candidates(state, seat, legal)
        ranked = heuristics.ranked(state, seat, legal) if heuristics.ranked else candidates
        assert all(move in legal for move in ranked)  # Vem ai's may name a campaign twice (docs/bots.md)
        if len(candidates) > 1:
            assert ranked[: len(candidates)] == candidates
            checked += len(legal) > len(candidates)
        state = game.follow(state, seat, rng.choice(legal))
    assert checked or heuristics.ranked is None  # a game with a ranking met moves its candidates leave out


def test_the_expert_ends_its_rollouts_with_the_games_expert_evaluation_and_strong_does_not():
    """Troika's rollouts end in an evaluation: the expert's is the calibrated one, the strong
    bot's stays the one its figures were measured with."""
    game, called = GAMES["troika"], []
    heuristics = replace(HEURISTICS["troika"], evaluate=lambda state, seat: called.append("evaluate") or 0.5)
    for_the_expert = replace(heuristics, evaluate=lambda state, seat: called.append("expert") or 0.5)
    heuristics = replace(heuristics, expert=lambda seats: for_the_expert)
    assert HEURISTICS["troika"].expert(2).evaluate is troika.calibrated
    state = game.setup(2, {}, "expert-evaluation")
    seat = min(game.to_act(state))
    for _ in range(3):  # (past the turn's first reveal, to where a move has several answers)
        state = game.follow(state, seat, game.legal_actions(state, seat)[0])
        seat = min(game.to_act(state))
    legal = game.legal_actions(state, seat)
    assert len(legal) > 2

    def turn():
        sampler = lambda r: game.randomize_hidden(state, seat, r)  # noqa: E731
        return search.Turn(game, heuristics, seat, legal, sampler, random.Random(3), 1.0, 60)

    expert.choose(turn())
    assert called and set(called) == {"expert"}
    called.clear()
    search.choose(turn())
    assert called and set(called) == {"evaluate"}


def test_a_game_without_heuristics_for_the_expert_keeps_its_own():
    turn = synthetic_turn(cap=40)
    assert turn.heuristics.expert is None
    assert expert.for_expert(turn, {"num_players": 2}) is turn


@pytest.mark.parametrize(
    ("slug", "model", "horizon"), [("triatri", triatri_learned, 6), ("vem-ai-a-troika", vem_learned, 4)]
)
def test_the_expert_uses_the_learned_evaluation_and_a_shorter_horizon_at_two_players_only(slug, model, horizon):
    """At 2 players the expert's TriATri rollouts stop after 6 actions, Vem aí's after 4, in the
    game's learned evaluation; at more seats, where it was not fitted, the expert keeps the
    strong bot's."""
    strong = HEURISTICS[slug]
    two = strong.expert(2)
    assert (two.horizon, two.evaluate) == (horizon, model.evaluate)
    assert two.horizon < strong.horizon
    assert (two.policy, two.candidates) == (strong.policy, strong.candidates)
    for seats in (3, 4):
        assert strong.expert(seats) is strong
    game = GAMES[slug]
    state = game.setup(2, {}, "expert-heuristics")
    seat = min(game.to_act(state))
    sampler = lambda r: game.randomize_hidden(state, seat, r)  # noqa: E731
    turn = search.Turn(game, strong, seat, game.legal_actions(state, seat), sampler, random.Random(1), 1.0, 30)
    assert expert.for_expert(turn, state).heuristics is two
    assert expert.for_expert(turn, game.setup(3, {}, "expert-heuristics")).heuristics is strong
