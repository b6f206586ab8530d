"""Scenario tests for TriATri: every rule, every worked case of the rulebook and rulings A1-A10
(docs/rulings.md)."""

from __future__ import annotations

import json
import random

import pytest

from app.games.base import IllegalAction, spoken
from app.games.triatri import GAME
from app.games.triatri.cards import CARDS, deck, label
from app.games.triatri.score import score
from tests.support.triatri_states import build, over_state

FAKE, FAKE_2, FAKE_3 = 21, 22, 23


def red(number: int) -> int:
    return CARDS.index(("red", number))


def blue(number: int) -> int:
    return CARDS.index(("blue", number))


def green(number: int) -> int:
    return CARDS.index(("green", number))


def reveal_state(hands, **fields):
    return build(hands, phase="reveal", gem=None, **fields)


def play_cards(state, *cards):
    """Each card is played by whoever is to act, in turn."""
    for card in cards:
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, {"type": "play", "card": card})
    return state


def commit_cards(state, *cards):
    """Seat i commits cards[i]."""
    for seat, card in enumerate(cards):
        state = GAME.apply(state, seat, {"type": "commit", "card": card})
    return state


def played_cards(hand_view):
    return [c["id"] for c in hand_view if c["playable"]]


def last_trick(state):
    return GAME.view(state, None)["last_trick"]


def values(state):
    return [(c["seat"], c["colour"], c["value"]) for c in last_trick(state)["cards"]]


def public_text(state):
    return " | ".join(spoken(e) for e in state["log"] if e["to"] is None)


# --- setup and decks (A1) --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "highest", "fakes", "undealt"), [(2, 6, 2, 5), (3, 7, 1, 1), (4, 8, 3, 0)])
def test_deck_per_player_count(players, highest, fakes, undealt):
    state = GAME.setup(players, {}, "deck")
    cards = [CARDS[c] for c in deck(players)]
    assert sorted(n for colour, n in cards if colour == "blue") == list(range(2, highest + 1))
    assert sum(colour is None for colour, _ in cards) == fakes
    assert [len(hand) for hand in state["hands"]] == [6] * players
    assert len(state["undealt"]) == undealt
    all_cards = sorted(state["undealt"] + [c for hand in state["hands"] for c in hand])
    assert all_cards == sorted(deck(players))


def test_setup_starts_with_the_reveal_and_the_full_supply():
    state = GAME.setup(3, {}, "start")
    assert state["phase"] == "reveal"
    assert GAME.to_act(state) == {0, 1, 2}
    assert state["supply"] == {"red": 6, "blue": 6, "green": 6}


def test_setup_refuses_bad_player_counts_and_options():
    with pytest.raises(ValueError):
        GAME.setup(5, {}, "x")
    with pytest.raises(ValueError):
        GAME.setup(3, {"no_such_option": True}, "x")
    with pytest.raises(ValueError):
        GAME.setup(3, {"bga_three_player_rule": "yes"}, "x")


def test_undealt_cards_are_hidden_from_every_view():
    state = GAME.setup(2, {}, "undealt")
    swapped = dict(state, undealt=list(reversed(state["undealt"])))
    swapped["undealt"][0], swapped["hands"][1][0] = state["hands"][1][0], state["undealt"][0]
    for seat in (None, 0):
        assert GAME.view(swapped, seat) == GAME.view(state, seat)


# --- the start-player reveal (A2) ------------------------------------------------------------


def test_start_player_example_blue_three_beats_red_three():
    state = reveal_state([[red(3), red(6)], [blue(3), blue(6)], [red(2), green(6)]])
    state = commit_cards(state, red(3), blue(3), red(2))
    assert state["phase"] == "choose_gem"
    assert state["leader"] == 1
    assert GAME.to_act(state) == {1}
    assert state["hands"] == [[red(6)], [blue(6)], [green(6)]]  # the shown cards are discarded
    reveal = GAME.view(state, 0)["last_reveal"]
    assert [(c["colour"], c["number"]) for c in reveal["cards"]] == [
        ("red", 3),
        ("blue", 3),
        ("red", 2),
    ]
    assert (reveal["result"], reveal["starter"]) == ("start", 1)
    assert "Seat 0 red 3, Seat 1 blue 3, Seat 2 red 2" in public_text(state)


def test_reveal_is_simultaneous_and_a_commitment_stays_secret():
    hands = [[red(3), red(6)], [blue(3), blue(6)], [red(2), green(6)]]
    state = GAME.apply(reveal_state(hands), 0, {"type": "commit", "card": red(3)})
    other = GAME.apply(reveal_state(hands), 0, {"type": "commit", "card": red(6)})
    assert GAME.to_act(state) == {1, 2}
    for seat in (None, 1, 2):
        assert GAME.view(state, seat) == GAME.view(other, seat)
    assert GAME.view(state, 1)["players"][0]["committed"] is True
    assert GAME.view(state, 0)["commit"] == {"colour": "red", "number": 3, "fake": False}
    assert "red 3" not in public_text(state)
    assert [spoken(e) for e in state["log"] if e["to"] == [0]] == ["You commit red 3."]
    with pytest.raises(IllegalAction, match=r"^you have committed your start card: the others are choosing theirs$"):
        GAME.apply(state, 0, {"type": "commit", "card": red(6)})
    with pytest.raises(IllegalAction, match=r"^you do not hold that card$"):  # (another seat's: the same)
        GAME.apply(state, 1, {"type": "commit", "card": red(6)})
    with pytest.raises(IllegalAction, match=r"^you do not hold that card$"):
        GAME.apply(state, 1, {"type": "commit", "card": 999})
    with pytest.raises(IllegalAction, match=r"^'play' is not allowed now: your moves now are 'commit'$"):
        GAME.apply(state, 1, {"type": "play", "card": blue(3)})


def test_reveal_ignores_abilities_higher_number_wins():
    # In a trick red 2 after green would count 8; in the reveal it is just a 2.
    state = commit_cards(reveal_state([[green(3)], [red(2)]]), green(3), red(2))
    assert state["leader"] == 0


def test_reveal_a_fake_is_the_weakest_card():
    state = commit_cards(reveal_state([[FAKE], [red(2)]]), FAKE, red(2))
    assert state["leader"] == 1


def test_three_player_three_way_tie_takes_cards_back_and_commits_different_ones():
    hands = [[red(5), red(7)], [blue(5), blue(3)], [green(5), green(2)]]
    state = commit_cards(reveal_state(hands), red(5), blue(5), green(5))
    assert state["phase"] == "reveal"
    assert GAME.to_act(state) == {0, 1, 2}
    assert state["hands"] == [sorted(hand) for hand in hands]
    assert GAME.view(state, 0)["last_reveal"]["result"] == "take_back"
    assert GAME.view(state, 2)["players"][0]["known_cards"] == [{"colour": "red", "number": 5, "fake": False}]
    assert GAME.legal_actions(state, 0) == [{"type": "commit", "card": red(7)}]
    with pytest.raises(IllegalAction, match=r"^you took that card back in this reveal: commit another one$"):
        GAME.apply(state, 0, {"type": "commit", "card": red(5)})
    state = commit_cards(state, red(7), blue(3), green(2))
    assert (state["phase"], state["leader"]) == ("choose_gem", 0)
    assert state["hands"] == [[red(5)], [blue(5)], [green(5)]]


def test_taken_back_card_may_be_committed_when_nothing_else_is_left():
    state = reveal_state([[red(5)], [blue(5)], [green(5)]], taken_back=[[red(5)], [], []])
    assert GAME.legal_actions(state, 0) == [{"type": "commit", "card": red(5)}]


def test_four_player_three_way_tie_is_void_and_the_fourth_player_starts():
    hands = [[red(6), red(2)], [blue(6), blue(2)], [green(6), green(2)], [FAKE, red(3)]]
    state = commit_cards(reveal_state(hands), red(6), blue(6), green(6), FAKE)
    assert (state["phase"], state["leader"]) == ("choose_gem", 3)
    assert GAME.view(state, None)["last_reveal"]["result"] == "void"
    assert state["hands"] == [[red(2)], [blue(2)], [green(2)], [red(3)]]


def test_four_player_higher_fourth_card_wins_without_a_void():
    hands = [[red(5)], [blue(5)], [green(5)], [red(8)]]
    state = commit_cards(reveal_state(hands), red(5), blue(5), green(5), red(8))
    assert GAME.view(state, None)["last_reveal"]["result"] == "start"
    assert state["leader"] == 3


def test_two_player_both_fakes_take_back_and_commit_other_cards():
    state = commit_cards(reveal_state([[FAKE, red(2)], [FAKE_2, blue(3)]]), FAKE, FAKE_2)
    assert state["phase"] == "reveal"
    assert GAME.legal_actions(state, 0) == [{"type": "commit", "card": red(2)}]
    state = commit_cards(state, red(2), blue(3))
    assert state["leader"] == 1


def test_bga_option_redeals_all_hands_after_a_three_player_tie():
    hands = [[red(5), red(7)], [blue(5), blue(3)], [green(5), green(2)]]
    state = reveal_state(hands, options={"bga_three_player_rule": True})
    draws = state["rng_draws"]
    state = commit_cards(state, red(5), blue(5), green(5))
    assert state["phase"] == "reveal"
    assert GAME.view(state, None)["last_reveal"]["result"] == "redeal"
    assert state["rng_draws"] == draws + 1
    assert [len(hand) for hand in state["hands"]] == [6, 6, 6]
    assert sorted(state["undealt"] + [card for hand in state["hands"] for card in hand]) == sorted(deck(3))
    assert state["taken_back"] == [[], [], []]
    assert "reshuffled and dealt again" in public_text(state)


def test_bga_option_leaves_the_two_player_fake_tie_as_a_take_back():
    state = reveal_state([[FAKE, red(2)], [FAKE_2, blue(3)]], options={"bga_three_player_rule": True})
    state = commit_cards(state, FAKE, FAKE_2)
    assert GAME.view(state, None)["last_reveal"]["result"] == "take_back"


# --- the gem (A3) ----------------------------------------------------------------------------


def test_leader_chooses_a_supply_colour_or_an_own_gem_never_another_players():
    gems = [{"red": 0, "blue": 1, "green": 0}, {"red": 2, "blue": 0, "green": 0}]
    state = build([[red(2)], [red(3)]], phase="choose_gem", gems=gems)
    assert GAME.legal_actions(state, 0) == [
        {"type": "choose_gem", "colour": "red", "source": "supply"},
        {"type": "choose_gem", "colour": "blue", "source": "supply"},
        {"type": "choose_gem", "colour": "green", "source": "supply"},
        {"type": "choose_gem", "colour": "blue", "source": "own"},
    ]
    with pytest.raises(IllegalAction, match=r"^you have no red gem of your own$"):
        GAME.apply(state, 0, {"type": "choose_gem", "colour": "red", "source": "own"})
    empty = build([[red(2)], [red(3)]], phase="choose_gem", supply={"red": 0, "blue": 6, "green": 6})
    with pytest.raises(IllegalAction, match=r"^no red gem is left in the supply$"):
        GAME.apply(empty, 0, {"type": "choose_gem", "colour": "red", "source": "supply"})
    state = GAME.apply(state, 0, {"type": "choose_gem", "colour": "red", "source": "supply"})
    assert state["supply"]["red"] == 5
    assert GAME.view(state, 1)["gem"] == {"colour": "red", "source": "supply"}


def test_leaders_own_gem_moves_to_the_trick_winner():
    gems = [{"red": 0, "blue": 1, "green": 0}, {"red": 0, "blue": 0, "green": 0}]
    state = build([[blue(2), red(2)], [blue(6), red(3)]], phase="choose_gem", gems=gems)
    state = GAME.apply(state, 0, {"type": "choose_gem", "colour": "blue", "source": "own"})
    state = play_cards(state, blue(2), blue(6))
    assert state["gems"] == [
        {"red": 0, "blue": 0, "green": 0},
        {"red": 0, "blue": 1, "green": 0},
    ]
    assert state["supply"] == {"red": 6, "blue": 6, "green": 6}


def test_qa_leader_may_place_a_gem_colour_they_hold_no_card_of():
    state = build([[blue(2), green(4)], [red(3), blue(5)]], phase="choose_gem")
    state = GAME.apply(state, 0, {"type": "choose_gem", "colour": "red", "source": "supply"})
    assert played_cards(GAME.view(state, 0)["hand"]) == [blue(2), green(4)]


# --- following (A4) --------------------------------------------------------------------------


def test_basic_rule_must_follow_and_water_seven_wins():
    hands = [[blue(4), red(6)], [blue(7), green(3)], [blue(5), FAKE]]
    state = build(hands, gem=("blue", "supply"))
    assert GAME.legal_actions(state, 0) == [{"type": "play", "card": blue(4)}]
    with pytest.raises(
        IllegalAction, match=r"^the gem in the centre is a blue gem: play a card of its colour or a fake$"
    ):
        GAME.apply(state, 0, {"type": "play", "card": red(6)})
    with pytest.raises(IllegalAction, match=r"^you do not hold that card$"):
        GAME.apply(state, 0, {"type": "play", "card": blue(7)})
    state = play_cards(state, blue(4), blue(7), blue(5))
    assert last_trick(state)["winner"] == 1
    assert state["gems"][1]["blue"] == 1


def test_exception_one_no_card_of_the_gem_colour_allows_any_card():
    state = build([[red(6), green(3), FAKE], [blue(7)]], gem=("blue", "supply"))
    assert played_cards(GAME.view(state, 0)["hand"]) == [red(6), green(3), FAKE]


def test_exception_two_a_fake_may_be_played_while_holding_the_gem_colour():
    state = build([[blue(4), red(6), FAKE], [blue(7)]], gem=("blue", "supply"))
    assert played_cards(GAME.view(state, 0)["hand"]) == [blue(4), FAKE]


def test_supplement_must_follow_the_gem_even_after_an_off_colour_card():
    state = build([[red(6)], [blue(3), red(4)], [green(2)]], gem=("blue", "supply"))
    state = play_cards(state, red(6))
    assert GAME.legal_actions(state, 1) == [{"type": "play", "card": blue(3)}]


# --- values and the swap (A5, A6) ------------------------------------------------------------


def test_doubling_wood_after_water_counts_twelve_and_wins():
    state = build([[blue(7)], [green(6)], [blue(5)]], gem=("blue", "supply"))
    state = play_cards(state, blue(7), green(6), blue(5))
    assert values(state) == [(0, "blue", 7), (1, "green", 12), (2, "blue", 5)]
    cards = last_trick(state)["cards"]
    assert [c["doubled"] for c in cards] == [False, True, False]
    assert last_trick(state)["winner"] == 1


def test_a_two_is_quadrupled_to_eight():
    state = build([[blue(3)], [green(2)]], gem=("blue", "supply"))
    state = play_cards(state, blue(3), green(2))
    cards = last_trick(state)["cards"]
    assert (cards[1]["value"], cards[1]["quadrupled"], cards[1]["doubled"]) == (8, True, False)
    assert "Seat 1 plays green 2 (quadrupled to 8)." in public_text(state)


def test_swap_fake_takes_fire_seven_and_its_player_wins():
    state = build([[red(7)], [red(5)], [FAKE]], gem=("red", "supply"))
    state = play_cards(state, red(7), red(5), FAKE)
    assert values(state) == [(0, None, 0), (1, "red", 5), (2, "red", 7)]
    assert [c["swapped"] for c in last_trick(state)["cards"]] == [True, False, True]
    assert last_trick(state)["winner"] == 2


def test_swap_moves_values_without_re_evaluating_any_card():
    # blue 3 doubled against red 7 keeps its 6 after the red 7 is swapped away.
    state = build([[red(7)], [blue(3)], [FAKE]], gem=("red", "supply"))
    state = play_cards(state, red(7), blue(3), FAKE)
    assert values(state) == [(0, None, 0), (1, "blue", 6), (2, "red", 7)]
    assert last_trick(state)["winner"] == 2


def test_a_fake_swapping_mid_trick_is_visible_in_the_view():
    state = build([[red(7)], [FAKE], [blue(2)]], gem=("red", "supply"))
    state = play_cards(state, red(7), FAKE)
    trick = GAME.view(state, 2)["trick"]
    assert [(c["seat"], c["colour"], c["value"], c["swapped"]) for c in trick] == [
        (0, None, 0, True),
        (1, "red", 7, True),
    ]


# --- strongest card (A7) and the practice patterns --------------------------------------------


def test_pattern_1_doubled_green_three_loses_to_water_seven():
    state = build([[blue(7)], [green(3)], [blue(2)]], gem=("blue", "supply"))
    state = play_cards(state, blue(7), green(3), blue(2))
    assert values(state) == [(0, "blue", 7), (1, "green", 6), (2, "blue", 2)]
    assert last_trick(state)["winner"] == 0


def test_pattern_2_fire_doubles_then_water_doubles_and_wins():
    state = build([[green(5)], [red(3)], [blue(4)]], gem=("green", "supply"))
    state = play_cards(state, green(5), red(3), blue(4))
    assert values(state) == [(0, "green", 5), (1, "red", 6), (2, "blue", 8)]
    assert last_trick(state)["winner"] == 2


def test_pattern_3_blue_two_quadruples_against_the_swapped_fire_seven():
    state = build([[red(7)], [FAKE], [blue(2)]], gem=("red", "supply"))
    state = play_cards(state, red(7), FAKE, blue(2))
    assert values(state) == [(0, None, 0), (1, "red", 7), (2, "blue", 8)]
    assert last_trick(state)["winner"] == 2


def test_pattern_4_blue_six_doubles_then_green_seven_doubles_and_wins():
    state = build([[red(4)], [FAKE], [blue(6)], [green(7)]], gem=("red", "supply"))
    state = play_cards(state, red(4), FAKE, blue(6), green(7))
    assert values(state) == [(0, None, 0), (1, "red", 4), (2, "blue", 12), (3, "green", 14)]
    assert last_trick(state)["winner"] == 3


def test_supplementary_note_three_colours_on_eight_the_later_card_wins():
    state = build([[green(7)], [red(2)], [blue(2)], [green(2)]], gem=("green", "supply"))
    state = play_cards(state, green(7), red(2), blue(2), green(2))
    assert values(state) == [(0, "green", 7), (1, "red", 8), (2, "blue", 8), (3, "green", 8)]
    assert last_trick(state)["winner"] == 3


def test_two_colours_tied_the_beating_colour_wins_even_when_earlier():
    state = build([[green(4)], [red(4)], [green(8)]], gem=("green", "supply"))
    state = play_cards(state, green(4), red(4), green(8))
    assert values(state) == [(0, "green", 4), (1, "red", 8), (2, "green", 8)]
    assert last_trick(state)["winner"] == 1


def test_errata_1_same_colour_and_value_the_later_card_wins():
    hands = [[red(8)], [green(3)], [red(2)], [red(4)]]
    state = play_cards(build(hands, gem=("red", "supply")), red(8), green(3), red(2), red(4))
    assert values(state) == [(0, "red", 8), (1, "green", 3), (2, "red", 8), (3, "red", 4)]
    assert last_trick(state)["winner"] == 2


def test_errata_2_only_fakes_the_later_player_wins():
    state = play_cards(build([[FAKE], [FAKE_2]]), FAKE, FAKE_2)
    assert last_trick(state)["winner"] == 1
    assert state["gems"][1]["red"] == 1


# --- Q&A -------------------------------------------------------------------------------------


def test_qa_a_lead_fake_counts_zero_with_no_colour():
    state = play_cards(build([[FAKE], [blue(2)]]), FAKE, blue(2))
    assert values(state) == [(0, None, 0), (1, "blue", 2)]  # blue 2 is not boosted
    assert last_trick(state)["winner"] == 1


def test_qa_abilities_apply_automatically():
    state = build([[red(5)], [blue(3), blue(5)]], gem=("red", "supply"))
    state = play_cards(state, red(5))
    assert {a["type"] for a in GAME.legal_actions(state, 1)} == {"play"}
    state = play_cards(state, blue(3))
    assert values(state) == [(0, "red", 5), (1, "blue", 6)]


def test_qa_the_trick_winner_always_takes_the_gem():
    state = play_cards(build([[red(5), red(2)], [red(6), red(3)]]), red(5), red(6))
    assert state["gems"][1] == {"red": 1, "blue": 0, "green": 0}
    assert state["phase"] == "choose_gem"
    assert all(a["type"] == "choose_gem" for a in GAME.legal_actions(state, 1))


# --- tricks, rounds and the end (A8) ---------------------------------------------------------


def test_trick_winner_leads_the_next_trick():
    state = play_cards(build([[red(5), red(2)], [red(6), red(3)]], trick_number=2), red(5), red(6))
    assert (state["leader"], state["trick_number"], GAME.to_act(state)) == (1, 3, {1})


def test_round_ends_after_five_tricks_and_the_next_starts_with_a_reveal():
    state = build([[red(5)], [red(6)]], trick_number=5)
    state = play_cards(state, red(5), red(6))
    assert (state["round"], state["trick_number"], state["phase"]) == (2, 1, "reveal")
    assert [len(hand) for hand in state["hands"]] == [6, 6]
    assert GAME.to_act(state) == {0, 1}
    assert state["gems"][1]["red"] == 1  # gems are kept
    assert GAME.view(state, 0)["players"][0]["revealed"] is None


def test_game_ends_after_the_third_round():
    state = play_cards(build([[red(5)], [red(6)]], round=3, trick_number=5), red(5), red(6))
    assert state["phase"] == "over"
    assert GAME.outcome(state) is not None
    assert GAME.to_act(state) == set()
    assert GAME.legal_actions(state, 0) == []


def test_game_ends_when_a_supply_colour_runs_out():
    supply = {"red": 0, "blue": 4, "green": 5}
    state = play_cards(build([[red(5), red(2)], [red(6), red(3)]], supply=supply), red(5), red(6))
    assert state["phase"] == "over"
    assert "The supply has no red gem left" in public_text(state)


def test_instant_win_with_two_gems_of_every_colour_beats_a_higher_score():
    gems = [{"red": 2, "blue": 2, "green": 1}, {"red": 0, "blue": 0, "green": 1}]
    supply = {"red": 6, "blue": 6, "green": 5}
    hands = [[green(6), red(2)], [green(2), red(3)]]
    state = build(hands, gem=("green", "supply"), gems=gems, supply=supply)
    state = play_cards(state, green(6), green(2))
    outcome = GAME.outcome(state)
    assert outcome.winners == [0]
    assert outcome.ranking == [0, 1]
    assert outcome.scores == [2, 5]  # the single green is worth the 5 greens left
    assert outcome.details["instant_winner"] == 0
    assert outcome.details["players"][0]["instant_win"] is True


def test_instant_win_takes_precedence_over_an_empty_supply():
    gems = [{"red": 2, "blue": 2, "green": 1}, {"red": 0, "blue": 0, "green": 0}]
    supply = {"red": 2, "blue": 2, "green": 0}
    state = build([[green(6)], [green(2)]], gem=("green", "supply"), gems=gems, supply=supply)
    state = play_cards(state, green(6), green(2))
    assert state["instant_winner"] == 0
    assert "wins at once" in public_text(state)


def test_others_are_ranked_by_score_after_an_instant_win():
    gems = [
        {"red": 2, "blue": 2, "green": 1},
        {"red": 0, "blue": 0, "green": 0},
        {"red": 1, "blue": 1, "green": 1},
    ]
    state = build([[green(6)], [green(2)], [green(3)]], gem=("green", "supply"), gems=gems)
    state = play_cards(state, green(6), green(2), green(3))
    assert GAME.outcome(state).ranking == [0, 2, 1]


# --- scoring (A9) ----------------------------------------------------------------------------


def test_scoring_example_player_a_scores_1():
    breakdown = score({"red": 1, "blue": 3, "green": 2}, {"red": 1, "blue": 2, "green": 0})
    assert breakdown == {
        "gems": {"red": 1, "blue": 3, "green": 2},
        "held": 6,
        "sets": 1,
        "pairs": 1,
        "singles": 1,
        "single_points": 2,
        "total": 1,
    }


def test_scoring_example_in_the_final_view():
    supply = {"red": 1, "blue": 2, "green": 0}
    gems = [{"red": 1, "blue": 3, "green": 2}, {"red": 0, "blue": 0, "green": 0}]
    view = GAME.view(over_state(gems, supply), 1)
    assert view["result"]["players"][0]["total"] == 1
    assert view["result"]["winners"] == [0]
    assert view["seed"] == "scenario"


def test_score_tie_goes_to_more_gems_held():
    gems = [{"red": 1, "blue": 0, "green": 0}, {"red": 1, "blue": 1, "green": 1}]
    outcome = GAME.outcome(over_state(gems, {"red": 1, "blue": 5, "green": 5}))
    assert outcome.scores == [1, 1]
    assert (outcome.winners, outcome.ranking, outcome.places) == ([1], [1, 0], [2, 1])


def test_full_tie_is_a_draw():
    gems = [{"red": 1, "blue": 1, "green": 1}, {"red": 1, "blue": 1, "green": 1}]
    outcome = GAME.outcome(over_state(gems, {"red": 4, "blue": 4, "green": 4}))
    assert outcome.winners == [0, 1]
    assert outcome.places == [1, 1]


def test_tied_players_share_a_place_below_the_winner_too():
    gems = [{"red": 1, "blue": 1, "green": 1}, {"red": 0, "blue": 0, "green": 0}, {"red": 0, "blue": 0, "green": 0}]
    outcome = GAME.outcome(over_state(gems, {"red": 4, "blue": 4, "green": 4}))
    assert (outcome.winners, outcome.places) == ([0], [1, 2, 2])
    assert GAME.view(over_state(gems, {"red": 4, "blue": 4, "green": 4}), None)["result"]["places"] == [1, 2, 2]


# --- log and hidden information (A10) --------------------------------------------------------


def test_log_shows_every_played_card_to_everyone():
    state = build([[red(7)], [FAKE], [blue(2)]], gem=("red", "supply"))
    state = play_cards(state, red(7), FAKE, blue(2))
    text = public_text(state)
    assert "Seat 0 plays red 7." in text
    assert "Seat 1 plays a fake; it swaps places with Seat 0's red 7 (7)" in text
    assert "Seat 2 plays blue 2 (quadrupled to 8)." in text
    assert "Seat 2 wins the trick with blue 2 (8) and takes the red gem." in text


def test_dealt_hands_appear_only_in_private_log_lines():
    state = GAME.setup(3, {}, "log")
    for seat, hand in enumerate(state["hands"]):
        private = [spoken(e) for e in state["log"] if e["to"] == [seat]]
        assert private == ["Your cards: " + ", ".join(label(c) for c in hand) + "."]
    assert public_text(state) == "Round 1: six cards are dealt to each player."


def keys_in(data) -> set[str]:
    if isinstance(data, dict):
        return set(data).union(*(keys_in(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_in(v) for v in data))
    return set()


def test_views_never_show_other_seats_card_ids():
    hands = [[red(5), red(7)], [blue(5), blue(3)], [green(5), green(2)]]
    state = commit_cards(reveal_state(hands), red(5), blue(5), green(5))  # a tie: taken back
    view = GAME.view(state, 1)
    assert [c["id"] for c in view["hand"]] == [blue(3), blue(5)]
    assert view["players"][0]["known_cards"] == [{"colour": "red", "number": 5, "fake": False}]
    assert "id" not in keys_in(view["players"]) | keys_in(view["last_reveal"])
    assert [p["hand_count"] for p in view["players"]] == [2, 2, 2]
    assert GAME.view(state, None)["hand"] == []
    assert "seed" not in view and "scenario" not in json.dumps(view)


def test_randomize_hidden_keeps_known_cards_voids_and_the_viewers_hand():
    hands = [[red(3), red(4)], [red(5), blue(6)], [green(2), green(3)]]
    state = build(hands, taken_back=[[], [red(5)], []], void=[[], [], ["blue", "red"]])
    r = random.Random(5)
    seen_hands = set()
    for _ in range(30):
        other = GAME.randomize_hidden(state, 0, r)
        assert other["hands"][0] == hands[0]
        assert red(5) in other["hands"][1]
        assert all(CARDS[c][0] in ("green", None) for c in other["hands"][2])
        assert [len(h) for h in other["hands"]] == [2, 2, 2]
        assert other["seed"] != state["seed"]
        seen_hands.add(tuple(other["hands"][1]))
        assert GAME.view(other, 0) == GAME.view(state, 0)
    assert len(seen_hands) > 1


def test_randomize_hidden_redeals_commitments_during_the_reveal():
    state = GAME.setup(3, {}, "commit")
    state = GAME.apply(state, 1, {"type": "commit", "card": state["hands"][1][0]})
    r = random.Random(1)
    commits = {GAME.randomize_hidden(state, 0, r)["commits"][1] for _ in range(20)}
    assert len(commits) > 1 and None not in commits


def test_describe_labels_actions():
    assert GAME.describe({"type": "commit", "card": red(5)}) == "Commit red 5"
    assert GAME.describe({"type": "play", "card": FAKE}) == "Play fake"
    assert (
        GAME.describe({"type": "choose_gem", "colour": "blue", "source": "supply"})
        == "Lead with a blue gem from the supply"
    )
    assert GAME.describe({"type": "choose_gem", "colour": "red", "source": "own"}) == "Lead with your own red gem"


def test_apply_takes_only_the_listed_form_of_an_action():
    state = build([[red(2)], [red(3)]])
    for variant in ({"type": "play", "card": red(2), "extra": 1}, {"type": "play", "card": float(red(2))}):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, variant)
    action, after = GAME.play(state, 0, {"type": "play", "card": float(red(2))}, legacy=True)
    assert action == {"type": "play", "card": red(2)} and type(action["card"]) is int
    assert type(after["played"][0]["card"]) is int
