"""Scenario tests for the Troika engine: one per rule, ruling (T1-T10) and worked example."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.games.base import IllegalAction, spoken, visible_log
from app.games.troika import GAME
from app.games.troika.rules import ROUNDS, TILES
from app.games.troika.score import best_split, call_problems, can_leave
from tests.support.dumps import dumped
from tests.support.troika_states import REVEAL, TROIKA, discard, final_round, make, play, take_down, take_up
from tests.support.troika_worlds import call_worlds


def all_tiles(state):
    hidden = state["down_unmarked"] + state["set_aside"] + [m["value"] for m in state["down_marked"]]
    held = [v for pile in state["hands"] + state["containers"] for v in pile]
    return sorted(hidden + held + state["table_up"])


def public_texts(state):
    return [spoken(e) for e in state["log"] if e["to"] is None]


# ---------------------------------------------------------------- components and setup (T1, T2)


def test_the_49_tiles_are_three_of_each_value_and_seven_sevens():
    counts = Counter(TILES)
    assert len(TILES) == 49
    assert counts == {v: (7 if v == 7 else 3) for v in range(1, 16)}


@pytest.mark.parametrize(("n", "aside", "down"), [(2, 10, 36), (3, 0, 45), (4, 0, 44), (5, 0, 43)])
def test_setup_deals_one_tile_each_turns_one_up_and_sets_aside_ten_with_two(n, aside, down):
    state = GAME.setup(n, {}, f"setup-{n}")
    assert [len(h) for h in state["hands"]] == [1] * n
    assert state["containers"] == [[] for _ in range(n)]
    assert len(state["table_up"]) == 1
    assert len(state["set_aside"]) == aside
    assert len(state["down_unmarked"]) == down
    assert all_tiles(state) == sorted(TILES)
    assert GAME.view(state, 0)["set_aside"] == aside


def test_two_players_set_aside_ten_again_after_all_tiles_come_back():
    state = make(2, hands=[[5, 5], [9]], containers=[[5, 6, 7], [9, 9]], phase="act", unmarked=(), table_up=(1,))
    state = play(state, (0, take_up(1)))
    assert state["round"] == 2
    assert len(state["set_aside"]) == 10
    assert len(state["down_unmarked"]) == 36
    assert all_tiles(state) == sorted(TILES)


def test_first_player_option_sets_round_one_starter():
    state = GAME.setup(4, {"first_player": "3"}, "s")
    assert (state["first_player"], state["current"]) == (3, 3)
    assert GAME.to_act(state) == {3}


def test_first_player_beyond_player_count_or_unknown_option_is_refused():
    with pytest.raises(ValueError):
        GAME.setup(3, {"first_player": "3"}, "s")
    with pytest.raises(ValueError):
        GAME.setup(3, {"first_player": "7"}, "s")
    with pytest.raises(ValueError):
        GAME.setup(3, {"colour": "red"}, "s")
    with pytest.raises(ValueError):
        GAME.setup(6, {}, "s")


def test_random_first_player_comes_from_the_seed():
    firsts = {GAME.setup(5, {}, f"seed-{i}")["first_player"] for i in range(30)}
    assert firsts == {0, 1, 2, 3, 4}
    assert GAME.setup(5, {}, "same")["first_player"] == GAME.setup(5, {}, "same")["first_player"]


# ---------------------------------------------------------------- a turn (T4, T5)


def test_turn_is_reveal_then_one_option_then_next_player_clockwise():
    state = make(3, hands=[[4], [], []], unmarked=(9, 9), current=2)
    assert GAME.legal_actions(state, 2) == [REVEAL, TROIKA]
    state = play(state, (2, REVEAL))
    assert state["table_up"] == [9] and state["phase"] == "act"
    assert GAME.legal_actions(state, 2) == [take_up(9), take_down()]
    state = play(state, (2, take_up(9)))
    assert state["containers"][2] == [9]
    assert (state["current"], state["phase"]) == (0, "turn_start")


def test_take_up_is_offered_once_per_distinct_face_up_value():
    state = make(3, phase="act", table_up=(3, 3, 8), hands=[[1, 2, 4], [], []])
    ups = [a for a in GAME.legal_actions(state, 0) if a["type"] == "take_up"]
    assert ups == [take_up(3), take_up(8)]


def test_hand_limit_of_three():
    state = make(3, phase="act", table_up=(3,), hands=[[1, 2], [], []], unmarked=(6, 6))
    assert take_down() in GAME.legal_actions(state, 0)
    state = play(state, (0, take_down()))
    assert state["hands"][0] == [1, 2, 6]
    full = make(3, phase="act", table_up=(3,), hands=[[1, 2, 4], [], []])
    assert take_down() not in GAME.legal_actions(full, 0)
    with pytest.raises(IllegalAction, match="already holds 3 tiles"):
        GAME.apply(full, 0, take_down())


def test_container_has_no_limit():
    state = make(3, phase="act", table_up=(3,), containers=[list(range(1, 13)), [], []])
    state = play(state, (0, take_up(3)))
    assert len(state["containers"][0]) == 13


def test_discard_from_container_goes_face_up():
    state = make(3, phase="act", table_up=(3,), containers=[[11, 12], [], []])
    state = play(state, (0, discard("container", 12)))
    assert state["containers"][0] == [11]
    assert state["table_up"] == [3, 12]
    assert public_texts(state)[-1] == "Seat 0 discards the 12 from their Container face up."


def test_marked_tile_is_known_only_to_its_discarder():
    state = make(3, phase="act", table_up=(3,), hands=[[9, 14], [], []], unmarked=(1, 2))
    state = play(state, (0, discard("hand", 9)))
    assert state["hands"][0] == [14]
    marked = {"id": 1, "by": 0}
    assert GAME.view(state, 0)["down_marked"] == [{**marked, "value": 9}]
    assert GAME.view(state, 1)["down_marked"] == [{**marked, "value": None}]
    assert GAME.view(state, None)["down_marked"] == [{**marked, "value": None}]
    assert public_texts(state) == ["Seat 0 discards a tile from their hand face down: marked tile #1."]
    assert [(spoken(e), e["to"]) for e in state["log"] if e["to"]] == [("Marked tile #1 is your 9.", [0])]


def test_marked_tile_can_be_chosen_to_turn_up_or_to_take():
    state = make(3, hands=[[], [4], []], unmarked=(2,), marked=[(1, 0, 9), (2, 2, 13)], current=1)
    assert GAME.legal_actions(state, 1) == [
        REVEAL,
        {"type": "reveal", "tile": 1},
        {"type": "reveal", "tile": 2},
        TROIKA,
    ]
    state = play(state, (1, {"type": "reveal", "tile": 1}))
    assert state["table_up"] == [9]
    assert public_texts(state) == ["Seat 1 turns up marked tile #1 (discarded by Seat 0): a 9."]
    state = play(state, (1, take_down(2)))
    assert state["hands"][1] == [4, 13]
    assert state["down_marked"] == []
    assert public_texts(state)[-1] == "Seat 1 takes marked tile #2 (discarded by Seat 2) into their hand."
    assert (spoken(state["log"][-1]), state["log"][-1]["to"]) == ("You take a 13.", [1])


def test_unknown_is_not_offered_when_only_marked_tiles_are_face_down():
    state = make(3, unmarked=(), marked=[(4, 1, 6)])
    assert GAME.legal_actions(state, 0) == [{"type": "reveal", "tile": 4}, TROIKA]


def test_unknown_tile_is_drawn_at_random_among_unmarked_tiles():
    seen = set()
    for i in range(40):
        state = make(3, unmarked=(1, 2, 3), marked=[(1, 1, 15)])
        state["seed"] = f"pick-{i}"
        seen |= set(play(state, (0, REVEAL))["table_up"])
    assert seen == {1, 2, 3}


def test_public_log_of_taking_an_unknown_tile_hides_its_value():
    state = make(3, phase="act", table_up=(3,), unmarked=(11, 11))
    state = play(state, (0, take_down()))
    assert public_texts(state) == ["Seat 0 takes an unknown face-down tile into their hand."]
    assert (spoken(state["log"][-1]), state["log"][-1]["to"]) == ("You take an 11.", [0])


def test_setup_log_tells_each_drawn_tile_only_to_its_owner():
    state = GAME.setup(3, {"first_player": "1"}, "log-seed")
    private = [e for e in state["log"] if e["to"]]
    assert [(e["to"], spoken(e)) for e in private] == [
        ([s], f"You draw {'an' if h[0] in (8, 11) else 'a'} {h[0]}.") for s, h in enumerate(state["hands"])
    ]
    assert public_texts(state) == [
        f"Round 1 begins: Seat 1 starts; {'an' if state['table_up'][0] in (8, 11) else 'a'} "
        f"{state['table_up'][0]} is turned face up."
    ]


def test_pass_only_when_no_option_is_possible():
    stuck = make(3, phase="act", unmarked=())
    assert GAME.legal_actions(stuck, 0) == [{"type": "pass"}]
    state = make(3, phase="act", table_up=(5,))
    assert {"type": "pass"} not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "pass"})


def test_refusals_give_clear_reasons_and_leave_state_unchanged():
    state = make(3, unmarked=(4,))
    before = dumped(state)
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, 1, REVEAL)
    with pytest.raises(IllegalAction, match="first turn a face-down tile"):
        GAME.apply(state, 0, take_up(4))
    with pytest.raises(IllegalAction, match="not allowed"):
        GAME.apply(state, 0, {"type": "reveal", "tile": 99})
    acted = play(state, (0, REVEAL))
    with pytest.raises(IllegalAction, match="already turned a tile up"):
        GAME.apply(acted, 0, REVEAL)
    assert dumped(state) == before


def test_action_values_are_taken_only_in_their_listed_form():
    state = make(3, phase="act", table_up=(1,))
    with pytest.raises(IllegalAction, match="not allowed now"):
        GAME.apply(state, 0, {"type": "take_up", "value": True})
    action, state = GAME.play(state, 0, {"type": "take_up", "value": True}, legacy=True)
    assert action == {"type": "take_up", "value": 1} and type(action["value"]) is int
    assert state["containers"][0] == [1] and type(state["containers"][0][0]) is int


# ---------------------------------------------------------------- trios and scores (T8)


@pytest.mark.parametrize(
    ("gem", "points"),
    [((1, 2, 3), 3), ((8, 9, 10), 0), ((9, 10, 11), 1), ((12, 13, 14), 4), ((13, 14, 15), 5), ((6, 7, 8), 8)],
)
def test_gem_scores_the_last_digit_of_its_highest_value(gem, points):
    score, trios, trash = best_split([*gem, 5, 5, 5] if 5 not in gem else [*gem, 2, 2, 2])
    assert score == points
    assert ("gem", gem, points) in trios
    assert trash == ()


def test_no_wrap_around_past_fifteen():
    assert best_split([14, 15, 1, 5, 5, 5]) == (-3, (("fuel", (5, 5, 5), 0),), (1, 14, 15))


def test_each_trash_tile_costs_one_point():
    assert best_split([5, 5, 5, 9, 12]) == (-2, (("fuel", (5, 5, 5), 0),), (9, 12))


def test_best_split_must_keep_a_fuel_set():
    # 7-8-9 as a gem would score 9 - 2 = 7 but leaves no fuel-set: the fuel-set must stay.
    assert best_split([7, 7, 7, 8, 9]) == (-2, (("fuel", (7, 7, 7), 0),), (8, 9))
    # three gems 1-2-3 (9 points) lose to three fuel-sets (0) for the same reason
    assert best_split([1, 2, 3] * 3)[0] == 0


def test_best_split_takes_the_highest_score_with_a_fuel_set():
    assert best_split([7, 7, 7, 7, 8, 9, 12, 13, 14]) == (
        13,
        (("fuel", (7, 7, 7), 0), ("gem", (7, 8, 9), 9), ("gem", (12, 13, 14), 4)),
        (),
    )


def test_no_possible_fuel_set_means_failure():
    assert best_split([1, 2, 3, 4, 5, 6]) is None
    assert best_split([]) is None


# ---------------------------------------------------------------- "Troika!" (T7)


def test_troika_conditions():
    assert can_leave([1, 2, 3], [5, 5, 5, 12, 13, 14])
    assert not can_leave([1, 2, 3], [5, 5, 5])  # Container holds fewer than 5
    assert not can_leave([1], [2, 3, 4, 5, 6])  # exact trios but no fuel-set
    assert not can_leave([9, 12], [5, 5, 5, 1, 2, 3])  # trash


def caller_table():
    """Seat 0 and seat 1 can leave; seat 2 has no fuel-set."""
    return make(
        3,
        hands=[[1, 2, 3], [10, 11, 12], [4, 15]],
        containers=[[5, 5, 5, 12, 13, 14], [6, 6, 6, 7, 8, 9], [1]],
        unmarked=(9, 2, 2),
        first=0,
    )


CALLED = "Seat 0 calls Troika! and is out of the round; the call is settled when the round ends."


def test_first_successful_call_scores_five_and_a_later_one_does_not():
    state = play(caller_table(), (0, TROIKA))
    assert state["status"] == ["called", "playing", "playing"]
    assert state["current"] == 1 and state["phase"] == "turn_start"
    assert public_texts(state) == [CALLED]
    state = play(state, (1, TROIKA))
    round_ = state["rounds"][0]
    assert round_["ended_by"] == "troika"
    seat0, seat1, seat2 = round_["players"]
    assert (seat0["troika_bonus"], seat0["score"]) == (5, 3 + 4 + 5)
    assert seat0["trios"] == [
        {"kind": "gem", "tiles": [1, 2, 3], "points": 3},
        {"kind": "fuel", "tiles": [5, 5, 5], "points": 0},
        {"kind": "gem", "tiles": [12, 13, 14], "points": 4},
    ]
    assert (seat1["troika_bonus"], seat1["score"], seat1["called_troika"]) == (0, 9 + 2, True)
    assert (seat2["status"], seat2["reason"], seat2["score"]) == ("failed", "no_fuel_set", None)
    assert [p["tokens"] for p in round_["players"]] == [[2], [1], [-1]]
    assert state["tokens"] == [[2], [1], [-1]]


def test_successful_caller_skips_turns_and_keeps_hand_hidden_until_round_end():
    state = make(
        4, hands=[[1, 2, 3], [4], [5], [6]], containers=[[5, 5, 5, 12, 13, 14], [], [], []], unmarked=(9, 9, 9, 9)
    )
    state = play(
        state, (0, TROIKA), (1, REVEAL), (1, take_up(9)), (2, REVEAL), (2, take_up(9)), (3, REVEAL), (3, take_up(9))
    )
    assert state["current"] == 1
    assert GAME.view(state, 1)["players"][0]["hand"] is None
    assert GAME.view(state, 1)["players"][0]["hand_count"] == 3
    assert GAME.view(state, 0)["players"][0]["hand"] == [1, 2, 3]
    assert 0 not in GAME.to_act(state)


def test_failed_call_puts_the_caller_out_with_one_minus_one_token():
    state = make(3, hands=[[1, 2, 3], [4], [7, 7]], containers=[[5, 5, 5], [], [5, 6, 7, 7]], unmarked=(8, 8), first=0)
    state = play(state, (0, TROIKA))
    assert state["status"] == ["called", "playing", "playing"]
    assert public_texts(state) == [CALLED]
    assert GAME.view(state, 1)["players"][0]["hand"] is None
    assert [p["tokens"] for p in GAME.view(state, 1)["players"]] == [[], [], []]
    state = play(state, (1, REVEAL), (1, take_up(8)), (2, REVEAL), (2, take_up(8)))
    round_ = state["rounds"][0]
    assert round_["ended_by"] == "table_empty"
    seat0 = round_["players"][0]
    assert (seat0["status"], seat0["reason"], seat0["score"], seat0["tokens"]) == ("failed", "failed_call", None, [-1])
    assert round_["players"][2]["score"] == 7  # fuel 7-7-7, gem 6-7-8, trash 5
    assert state["tokens"] == [[-1], [-1], [2]]


def test_a_call_shows_only_as_called_until_the_round_ends():
    """Ruling T7: a failed and a successful call look alike to every other seat and to a
    spectator (views and log) until the round ends; then the breakdown settles both."""
    state = play(caller_table(), (0, TROIKA))  # succeeds
    failing = caller_table()
    failing["hands"][0], failing["hands"][2] = [1, 2, 4], [3, 15]  # a 3 and a 4 swap hands
    failing = play(failing, (0, TROIKA))
    assert failing["status"] == state["status"] == ["called", "playing", "playing"]
    for seat in (1, None):
        assert GAME.view(failing, seat) == GAME.view(state, seat)
        assert visible_log(failing["log"], seat) == visible_log(state["log"], seat)
    assert GAME.view(state, 1)["players"][0]["status"] == "called"
    assert visible_log(state["log"], 0)[-1]["text"] == "Your call succeeds: everyone learns it when the round ends."
    assert visible_log(failing["log"], 0)[-1]["text"] == "Your call fails: everyone learns it when the round ends."
    ended, ended_failing = play(state, (1, TROIKA)), play(failing, (1, TROIKA))
    assert [p["reason"] for p in ended["rounds"][0]["players"]] == [None, None, "no_fuel_set"]
    assert [p["reason"] for p in ended_failing["rounds"][0]["players"]] == ["failed_call", None, "no_fuel_set"]
    assert [p["troika_bonus"] for p in ended_failing["rounds"][0]["players"]] == [0, 5, 0]
    assert "Seat 0 failed to leave (their Troika! call fails)" in " ".join(public_texts(ended_failing))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_callers_hidden_tiles_change_no_other_view_or_log_until_the_round_ends(n):
    """Ruling T7 as a property: re-deal a caller's hidden tiles (a 3 and a 4 change places with
    another seat's hand, turning a successful call into a failed one) and play the same moves on:
    no third seat and no spectator can tell the worlds apart until the round ends."""
    for i in range(3):
        worlds = [GAME.apply(world, 0, TROIKA) for world in call_worlds(n, f"t7-{n}-{i}")]
        r = random.Random(i)
        while worlds[0]["round"] == 1:
            for seat in (None, *range(1, n - 1)):
                assert GAME.view(worlds[0], seat) == GAME.view(worlds[1], seat), f"seat {seat} tells them apart"
                assert visible_log(worlds[0]["log"], seat) == visible_log(worlds[1]["log"], seat)
            seat = worlds[0]["current"]
            both = [a for a in GAME.legal_actions(worlds[0], seat) if a in GAME.legal_actions(worlds[1], seat)]
            calls = [a for a in both if a == TROIKA and r.random() < 0.1]
            action = calls[0] if calls else r.choice([a for a in both if a != TROIKA])
            worlds = [GAME.apply(world, seat, action) for world in worlds]
        settled = [world["rounds"][0]["players"][0] for world in worlds]
        assert [(p["status"], p["troika_bonus"]) for p in settled] == [("left", 5), ("failed", 0)]
        assert GAME.view(worlds[0], None)["rounds"] != GAME.view(worlds[1], None)["rounds"]


def test_after_the_last_round_each_player_shows_how_their_round_ended():
    state = caller_table()
    state["round"] = ROUNDS
    state = play(state, (0, TROIKA), (1, TROIKA))
    assert state["phase"] == "over"
    assert [p["status"] for p in GAME.view(state, None)["players"]] == ["left", "left", "failed"]


def test_the_bonus_goes_to_the_first_caller_whose_call_succeeded():
    state = make(
        4,
        hands=[[1, 2], [10, 11, 12], [1, 2, 3], [4]],
        containers=[[5, 5, 5, 12, 13, 14], [6, 6, 6, 7, 8, 9], [5, 5, 5, 12, 13, 14], []],
        unmarked=(9, 9),
    )
    state = play(state, (0, TROIKA), (1, TROIKA), (2, TROIKA))  # seat 0's call fails
    players = state["rounds"][0]["players"]
    assert [(p["called_troika"], p["status"], p["troika_bonus"]) for p in players] == [
        (True, "failed", 0),
        (True, "left", 5),
        (True, "left", 0),
        (False, "failed", 0),
    ]
    assert [p["tokens"] for p in players] == [[-1], [2], [1], [-1]]


def test_only_the_seat_about_to_call_is_told_whether_its_call_would_succeed():
    state = caller_table()
    assert GAME.view(state, 0)["call_would_succeed"] is True
    assert [GAME.view(state, seat)["call_would_succeed"] for seat in (1, 2, None)] == [None, None, None]
    state["hands"][0] = [1, 2, 4]
    assert GAME.view(state, 0)["call_would_succeed"] is False
    assert GAME.view(play(state, (0, REVEAL)), 0)["call_would_succeed"] is None  # no call after turning up
    two = make(2, hands=[[1, 2, 3], []], containers=[[5, 5, 5, 12, 13, 14], []])
    assert GAME.view(two, 0)["call_would_succeed"] is None


@pytest.mark.parametrize(
    ("hand", "container", "problems"),
    [
        ([1, 2, 3], [5, 5, 5, 12, 13, 14], []),
        (
            [],
            [],
            [
                "your Container has 0 tiles; a call needs 5",
                "none of your trios would be a fuel-set (three equal tiles)",
            ],
        ),
        ([4, 4], [4], ["your Container has 1 tile; a call needs 5"]),
        ([1, 2, 4], [5, 5, 5, 12, 13, 14], ["your tiles do not all fit into trios: some would be trash"]),
        ([1, 2, 3], [4, 5, 6, 12, 13, 14], ["none of your trios would be a fuel-set (three equal tiles)"]),
        (
            [1],
            [5, 5],
            [
                "your Container has 2 tiles; a call needs 5",
                "your tiles do not all fit into trios: some would be trash",
            ],
        ),
    ],
)
def test_a_doomed_call_is_explained_to_the_caller_alone(hand, container, problems):
    state = caller_table()
    state["hands"][0], state["containers"][0] = hand, container
    assert [problem["text"] for problem in GAME.view(state, 0)["call_problems"]] == problems
    assert GAME.view(state, 0)["call_would_succeed"] is (problems == []) is can_leave(hand, container)
    assert [GAME.view(state, seat)["call_problems"] for seat in (1, 2, None)] == [None, None, None]
    assert GAME.view(play(state, (0, REVEAL)), 0)["call_problems"] is None  # no call after turning up


def test_the_call_check_agrees_with_the_settlement_on_random_tiles():
    r = random.Random(16)
    for _ in range(400):
        tiles = r.sample(TILES, r.randrange(0, 13))
        cut = r.randrange(0, min(3, len(tiles)) + 1)
        hand, container = sorted(tiles[:cut]), sorted(tiles[cut:])
        assert (call_problems(hand, container) == []) is can_leave(hand, container)


@pytest.mark.parametrize(
    ("hand", "container", "problems", "status"),
    [
        ([1], [2, 3, 5, 5, 5], [], "left"),
        ([1, 2], [3, 5, 5, 5], ["your Container has 4 tiles; a call needs 5"], "failed"),
    ],
)
def test_a_call_needs_exactly_five_tiles_in_the_container_and_four_are_too_few(hand, container, problems, status):
    """Rule T7's minimum at its edge: the same six tiles (a gem 1-2-3 and a fuel-set of 5s) leave
    the planet with five of them in the Container, and fail with four."""
    state = caller_table()
    state["hands"][0], state["containers"][0] = hand, container
    assert [problem["text"] for problem in GAME.view(state, 0)["call_problems"]] == problems
    assert can_leave(hand, container) is (problems == [])
    settled = play(state, (0, TROIKA), (1, TROIKA))["rounds"][0]["players"][0]
    assert (settled["status"], settled["troika_bonus"]) == (status, 5 if status == "left" else 0)


def test_no_troika_call_with_two_players():
    state = make(2, hands=[[1, 2, 3], []], containers=[[5, 5, 5, 12, 13, 14], []])
    assert TROIKA not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="3 to 5 players"):
        GAME.apply(state, 0, TROIKA)


# ---------------------------------------------------------------- end of round (T6)


def test_round_ends_after_a_turn_that_leaves_no_face_down_tile():
    state = make(3, unmarked=(9,), hands=[[1, 1], [], []], containers=[[9, 9], [], []])
    state = play(state, (0, REVEAL))
    assert state["round"] == 1 and state["phase"] == "act"  # the turn is not over yet
    state = play(state, (0, take_up(9)))
    assert state["round"] == 2
    assert state["rounds"][0]["ended_by"] == "table_empty"
    assert state["rounds"][0]["players"][0]["trios"] == [{"kind": "fuel", "tiles": [9, 9, 9], "points": 0}]


def test_discarding_face_down_after_revealing_the_last_tile_keeps_the_round_going():
    state = make(3, unmarked=(9,), hands=[[1, 1], [], []])
    state = play(state, (0, REVEAL), (0, discard("hand", 1)))
    assert state["round"] == 1 and state["current"] == 1
    assert GAME.legal_actions(state, 1) == [{"type": "reveal", "tile": 1}, TROIKA]


def test_round_ends_as_soon_as_at_most_one_player_has_not_called():
    state = make(3, hands=[[1], [2], [3]], unmarked=(9, 9, 9))
    state = play(state, (0, TROIKA))
    assert state["round"] == 1
    state = play(state, (1, TROIKA))
    assert state["round"] == 2
    assert state["rounds"][0]["ended_by"] == "troika"


# ---------------------------------------------------------------- tokens (T9) and next starter (T3)


def end_round_with(n, first, tiles_by_seat, status=None):
    """Finish a round at once: seat ``first`` takes the last face-up 15 into its Container."""
    containers = [list(tiles) for tiles in tiles_by_seat]
    containers[first].remove(15)
    state = make(
        n, containers=containers, phase="act", unmarked=(), table_up=(15,), first=first, current=first, status=status
    )
    return play(state, (first, take_up(15)))


def test_token_ties_go_to_the_player_farther_clockwise_from_the_first_player():
    same = [5, 5, 5, 1, 2, 3]
    state = end_round_with(3, 1, [same, same + [15], same])
    assert [p["score"] for p in state["rounds"][0]["players"]] == [3, 2, 3]
    # seats 0 and 2 tie on 3: from seat 1, seat 0 sits two steps clockwise and seat 2 one step
    assert state["tokens"] == [[2], [], [1]]


def test_three_way_tie_ranks_by_clockwise_distance_from_first_player():
    same = [5, 5, 5, 1, 2, 3]
    state = end_round_with(4, 2, [same, same, same + [15], same])
    # seat 2 scores 2; seats 1 (3 steps from seat 2), 0 (2 steps) and 3 (1 step) tie on 3
    assert state["tokens"] == [[1], [2], [], []]


def test_tie_for_second_place_only():
    same = [5, 5, 5, 1, 2, 3]
    state = end_round_with(4, 2, [same, same, [*same, 13, 14, 15], same])
    # seat 2 scores 3 + 5 = 8 alone; of the tied seats, seat 1 is the farthest from seat 2
    assert state["tokens"] == [[], [1], [2], []]


def test_only_one_token_each_and_failures_take_minus_one():
    state = end_round_with(4, 0, [[15, 15, 15], [1, 2], [4, 4, 4], [6]])
    assert state["tokens"] == [[1], [-1], [2], [-1]]
    assert [p["status"] for p in state["rounds"][0]["players"]] == ["left", "failed", "left", "failed"]


def test_next_round_starts_with_fewest_points_tie_nearest_clockwise_from_previous_first():
    scores_3 = [5, 5, 5, 1, 2, 3]
    scores_0 = [5, 5, 5]
    state = end_round_with(4, 2, [scores_3, scores_0, [*scores_3, 13, 14, 15], scores_0])
    # seats 1 and 3 tie on 0 points: from seat 2, seat 3 is one step, seat 1 three steps
    assert (state["round"], state["first_player"], state["current"]) == (2, 3, 3)


def test_next_round_tie_includes_the_previous_first_player():
    state = end_round_with(3, 1, [[5, 5, 5, 1, 2, 3], [5, 5, 5, 15], [5, 5, 5, 4]])
    assert [p["score"] for p in state["rounds"][0]["players"]] == [3, -1, -1]
    assert state["first_player"] == 1


def test_a_failed_player_counts_as_fewest_points_for_next_starter():
    state = end_round_with(3, 0, [[5, 5, 5, 9, 10, 15], [1, 2], [5, 5, 5, 14]])
    assert [p["score"] for p in state["rounds"][0]["players"]] == [-3, None, -1]
    assert state["first_player"] == 1


def test_round_breakdown_is_public_and_the_log_summarises_it():
    state = end_round_with(3, 0, [[5, 5, 5, 9, 10, 11, 15], [1, 2], [5, 5, 5, 14]])
    record = state["rounds"][0]["players"][0]
    assert record == {
        "seat": 0,
        "hand": [],
        "container": [5, 5, 5, 9, 10, 11, 15],
        "called_troika": False,
        "status": "left",
        "reason": None,
        "trios": [
            {"kind": "fuel", "tiles": [5, 5, 5], "points": 0},
            {"kind": "gem", "tiles": [9, 10, 11], "points": 1},
        ],
        "trash": [15],
        "troika_bonus": 0,
        "score": 0,
        "tokens": [2],
    }
    shown = GAME.view(state, None)["rounds"]
    assert [{k: v for k, v in rd.items() if k not in ("ranking", "places")} for rd in shown] == state["rounds"]
    assert shown[0]["ranking"][-1] == 1 and shown[0]["places"][1] == 3, "who failed comes last"
    assert "Seat 0 left the planet: fuel 5-5-5 (0), gem 9-10-11 (1); trash 15; score 0. Token: +2." in public_texts(
        state
    )
    assert "Seat 1 failed to leave (no fuel-set); tiles 1, 2. Token: \u22121." in public_texts(state)


def test_a_seat_that_fails_holding_no_tiles_is_said_to_hold_none():
    """It read "tiles . Token: \u22121." (a programmer's probe, 2026-12-07)."""
    state = end_round_with(3, 0, [[5, 5, 5, 9, 10, 11, 15], [], [5, 5, 5, 14]])
    assert state["rounds"][0]["players"][1]["status"] == "failed"
    assert "Seat 1 failed to leave (no fuel-set); no tiles. Token: \u22121." in public_texts(state)


# ---------------------------------------------------------------- end of game (T10)


def test_game_ends_after_round_three_highest_token_total_wins():
    state = final_round([[2, 2], [1, 1], [-1, 2]], [[5, 5, 5, 15], [4, 4, 4], [1, 2, 3, 6, 6, 6]])
    assert state["phase"] == "over" and GAME.to_act(state) == set()
    outcome = GAME.outcome(state)
    # round 3: seat 2 scores 3 (+2), seat 1 scores 0 (+1), seat 0 scores -1 (no token)
    assert outcome.scores == [4, 3, 3]
    assert outcome.winners == [0]
    assert outcome.ranking == [0, 2, 1]  # seats 1 and 2 tie on 3: seat 2 scored more in round 3
    assert outcome.places == [1, 3, 2]
    assert outcome.details["round3_scores"] == [-1, 0, 3]


def test_final_tie_goes_to_higher_round_three_score():
    state = final_round([[2, 2], [2, 1], []], [[5, 5, 5, 15], [1, 2, 3, 4, 4, 4], [6]])
    outcome = GAME.outcome(state)
    assert outcome.scores == [5, 5, -1]
    assert outcome.winners == [1]
    assert outcome.ranking == [1, 0, 2]


def test_final_tie_with_equal_round_three_score_is_shared():
    # round 3: seats 0 and 1 both score -1 (seat 1 takes +2, seat 0 +1), seat 2 fails
    state = final_round([[2, 2], [2, 1], [1]], [[5, 5, 5, 15], [4, 4, 4, 8], [6]])
    outcome = GAME.outcome(state)
    assert outcome.scores == [5, 5, 0]
    assert outcome.winners == [0, 1]
    assert outcome.ranking == [0, 1, 2]
    assert outcome.places == [1, 1, 3]  # a shared first place, then third


def test_view_at_game_over_reveals_hands_marks_and_seed():
    state = final_round([[], [], []], [[5, 5, 5, 15], [4], [6]])
    state["hands"][1] = [8]
    state["down_marked"] = [{"id": 3, "by": 2, "value": 11}]
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["current"] is None
    assert view["seed"] == "scenario-seed"
    assert view["players"][1]["hand"] == [8]
    assert view["down_marked"] == [{"id": 3, "by": 2, "value": 11}]
    assert view["result"]["winners"] == [0]


# ---------------------------------------------------------------- view and hidden information


def test_view_keys_and_counts():
    state = make(
        3,
        hands=[[4, 9], [1], []],
        containers=[[], [2, 2], []],
        table_up=(7, 3),
        unmarked=(1, 5, 6),
        marked=[(2, 1, 12)],
        current=1,
    )
    view = GAME.view(state, 1)
    assert view == {
        "phase": "turn_start",
        "round": 1,
        "current": 1,
        "first_player": 0,
        "num_players": 3,
        "you": 1,
        "hand": [1],
        "call_would_succeed": False,
        "call_problems": [
            {
                "text": "your Container has 2 tiles; a call needs 5",
                "msg": "your Container has {count} tiles; a call needs {needed}",
                "args": {"count": 2, "needed": 5},
            },
            {
                "text": "your tiles do not all fit into trios: some would be trash",
                "msg": "your tiles do not all fit into trios: some would be trash",
                "args": {},
            },
        ],
        "players": [
            {
                "seat": 0,
                "hand_count": 2,
                "container": [],
                "status": "playing",
                "tokens": [],
                "token_total": 0,
                "hand": None,
            },
            {
                "seat": 1,
                "hand_count": 1,
                "container": [2, 2],
                "status": "playing",
                "tokens": [],
                "token_total": 0,
                "hand": [1],
            },
            {
                "seat": 2,
                "hand_count": 0,
                "container": [],
                "status": "playing",
                "tokens": [],
                "token_total": 0,
                "hand": None,
            },
        ],
        "table_up": [3, 7],
        "down_unmarked": 3,
        "down_marked": [{"id": 2, "by": 1, "value": 12}],
        "set_aside": 0,
        "rounds": [],
        "result": None,
    }
    assert GAME.view(state, None)["hand"] == []


def test_randomize_hidden_keeps_what_the_seat_knows():
    state = make(
        3, hands=[[4, 9], [1], [13, 14, 15]], table_up=(7,), unmarked=(1, 5, 6, 8, 10), marked=[(1, 0, 12), (2, 2, 3)]
    )
    r = random.Random(3)
    changed = False
    for _ in range(20):
        other = GAME.randomize_hidden(state, 0, r)
        assert other["hands"][0] == [4, 9]
        assert other["down_marked"][0] == {"id": 1, "by": 0, "value": 12}
        assert [len(h) for h in other["hands"]] == [2, 1, 3]
        assert all_tiles(other) == all_tiles(state)
        assert other["seed"] != state["seed"]
        assert GAME.view(other, 0) == GAME.view(state, 0)
        changed |= other["hands"][2] != [13, 14, 15]
    assert changed


def test_randomize_hidden_drops_log_lines_the_seat_cannot_read():
    state = GAME.setup(3, {}, "log-drop")
    other = GAME.randomize_hidden(state, 1, random.Random(0))
    assert all(e["to"] is None or 1 in e["to"] for e in other["log"])
    assert len(other["log"]) == len(state["log"]) - 2


def test_describe_labels():
    assert GAME.describe(TROIKA) == 'Call "Troika!"'
    assert GAME.describe(REVEAL) == "Turn up an unknown tile"
    assert GAME.describe({"type": "reveal", "tile": 4}) == "Turn up marked tile #4"
    assert GAME.describe(take_up(7)) == "Take the face-up 7 into your Container"
    assert GAME.describe(take_down(2)) == "Take marked tile #2 into your hand"
    assert GAME.describe(discard("hand", 5)) == "Discard 5 from your hand (face down)"
    assert GAME.describe(discard("container", 5)) == "Discard 5 from your container (face up)"
    assert GAME.describe({"type": "pass"}) == "Pass"


def test_tiles_are_conserved_through_a_whole_game():
    r = random.Random(5)
    state = GAME.setup(4, {}, "conserve")
    while GAME.outcome(state) is None:
        assert all_tiles(state) == sorted(TILES)
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, r.choice(GAME.legal_actions(state, seat)))
    assert len(state["rounds"]) == 3
