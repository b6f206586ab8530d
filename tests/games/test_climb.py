"""Climb's rules as tests (the toy game of tests/toy/game.py, registered for the test run): the
deal, scoring a climb, discards, drawing, turns, the end and its winners, what each seat sees,
and its bot levels, offered though it is not on the ladder."""

from __future__ import annotations

import pytest

from app.bots.ratings import levels
from app.games.base import IllegalAction
from tests.toy.game import GAME


def dealt(hands: list[list[int]], pile: list[int]) -> dict:
    """A game whose hands and pile are these."""
    state = GAME.setup(len(hands), {}, "climb-rules")
    state.update(hands=hands, pile=pile)
    return state


def test_each_player_is_dealt_three_cards_and_the_rest_is_the_pile():
    for players in (2, 3):
        state = GAME.setup(players, {}, f"deal-{players}")
        assert [len(hand) for hand in state["hands"]] == [3] * players
        assert all(hand == sorted(hand) for hand in state["hands"])
        assert len(state["pile"]) == 15 - 3 * players
        assert sorted(state["pile"] + [card for hand in state["hands"] for card in hand]) == list(range(1, 16))
    with pytest.raises(ValueError):
        GAME.setup(4, {}, "four")


def test_a_card_higher_than_the_last_one_scores_its_number_a_lower_one_nothing():
    state = dealt([[5, 9, 12], [2, 7, 8]], [])
    state = GAME.apply(state, 0, {"type": "play", "card": 5})  # the first card climbs from nothing
    state = GAME.apply(state, 1, {"type": "play", "card": 2})
    state = GAME.apply(state, 0, {"type": "play", "card": 9})
    state = GAME.apply(state, 1, {"type": "play", "card": 8})
    assert state["scores"] == [14, 0] and state["last"] == 8


def test_a_discard_scores_nothing_leaves_the_last_card_and_is_seen_by_everyone():
    state = dealt([[5, 9, 12], [2, 7, 8]], [])
    state = GAME.apply(state, 0, {"type": "play", "card": 9})
    state = GAME.apply(state, 1, {"type": "discard", "card": 8})
    assert state["scores"] == [9, 0] and state["last"] == 9
    assert GAME.view(state, 0)["discards"] == GAME.view(state, None)["discards"] == [[], [8]]


def test_after_a_move_the_player_draws_the_top_of_the_pile_while_there_is_one():
    state = dealt([[5, 9, 12], [2, 7, 8]], [1, 15])
    state = GAME.apply(state, 0, {"type": "play", "card": 12})
    assert state["hands"][0] == [1, 5, 9] and state["pile"] == [15]
    state = GAME.apply(state, 1, {"type": "discard", "card": 2})
    state = GAME.apply(state, 0, {"type": "play", "card": 1})
    assert state["hands"] == [[5, 9], [7, 8, 15]] and state["pile"] == []


def test_turns_go_round_and_only_the_player_to_act_moves():
    state = dealt([[1], [2], [3]], [])
    assert GAME.to_act(state) == {0}
    with pytest.raises(IllegalAction):
        GAME.play(state, 1, {"type": "play", "card": 2})
    with pytest.raises(IllegalAction):
        GAME.play(state, 0, {"type": "play", "card": 2})  # not a card of their hand
    state = GAME.apply(state, 0, {"type": "discard", "card": 1})
    assert GAME.to_act(state) == {1}
    assert GAME.legal_actions(state, 1) == [{"type": "play", "card": 2}, {"type": "discard", "card": 2}]


def test_the_game_ends_when_every_hand_is_empty_and_the_highest_score_wins_ties_all_win():
    state = dealt([[3], [4], [9]], [])
    state = GAME.apply(state, 0, {"type": "play", "card": 3})
    assert GAME.outcome(state) is None
    state = GAME.apply(state, 1, {"type": "play", "card": 4})
    state = GAME.apply(state, 2, {"type": "discard", "card": 9})
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == [1] and outcome.scores == [3, 4, 0]
    assert GAME.to_act(state) == set() and GAME.view(state, 0)["to_act"] is None
    even = dealt([[2], [5]], [])
    even.update(scores=[5, 0])
    even = GAME.apply(GAME.apply(even, 0, {"type": "discard", "card": 2}), 1, {"type": "play", "card": 5})
    assert GAME.outcome(even).winners == [0, 1]


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others():
    state = dealt([[5, 9, 12], [2, 7, 8]], [1, 15])
    mine, spectator = GAME.view(state, 0), GAME.view(state, None)
    assert mine["hand"] == [5, 9, 12] and spectator["hand"] is None
    assert mine["hand_sizes"] == [3, 3] and mine["pile"] == 2
    assert not any(card in str(spectator) for card in ("12", "15"))


def test_climb_is_not_on_the_ladder_so_its_levels_are_offered_in_order_at_zero():
    assert levels(GAME.slug) == [{"level": level, "elo": 0} for level in ("random", "strong", "expert")]
