"""Conformance: every registered game passes the same random-playout checks.

Random playouts run to the end; the same seed and actions give the same states; states
round-trip through JSON; terminal states have no legal actions; ``apply`` never mutates its
input (nor does ``follow``, the playouts' unchecked apply of a listed action, which gives the
same state); a seat is awaited exactly when it has a legal action; and no seat's or
spectator's view changes when the hidden information it cannot see is re-dealt (nor contains
the seed before the end); ``views`` of a whole room gives each seat exactly its ``view``; and
an option of the contract's "int" kind takes only a JSON integer.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from app.games.base import IllegalAction, OptionSpec, resolve_options
from app.games.registry import GAMES
from tests.support.dumps import dumped

# every game at every player count with its default options, and each game's other rule sets
RULE_SETS = {"vem-ai-a-troika": [{"advanced": True}]}
CASES = [
    pytest.param(slug, n, options, id=f"{slug}-{n}" + "".join(f"-{k}" for k in options))
    for slug, game in sorted(GAMES.items())
    for options in [{}, *RULE_SETS.get(slug, [])]
    for n in range(game.min_players, game.max_players + 1)
]
MAX_STEPS = 5000


def playout(game, n, seed, r, options):
    state = game.setup(n, options, seed)
    states = [state]
    actions = []
    for _ in range(MAX_STEPS):
        if game.outcome(state) is not None:
            break
        seats = sorted(game.to_act(state))
        assert seats, "a game that is not over must await someone"
        seat = r.choice(seats)
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        action = r.choice(legal)
        before = dumped(state)
        state = game.apply(state, seat, action)
        assert game.follow(states[-1], seat, action) == state, "follow (a playout's apply) differs from apply"
        assert dumped(states[-1]) == before, "apply or follow mutated its input"
        actions.append((seat, action))
        states.append(state)
    else:
        pytest.fail("playout did not end")
    return states, actions


@pytest.mark.parametrize(("slug", "n", "options"), CASES)
def test_random_playouts_end_and_replay_identically(slug, n, options):
    game = GAMES[slug]
    for i in range(4):
        seed = f"conformance-{slug}-{n}-{i}"
        states, actions = playout(game, n, seed, random.Random(i), options)
        final = states[-1]
        outcome = game.outcome(final)
        assert outcome is not None
        assert len(outcome.scores) == n and outcome.winners
        assert sorted(outcome.ranking) == list(range(n))
        for seat in range(n):
            assert game.legal_actions(final, seat) == []
        assert game.to_act(final) == set()
        rebuilt = game.setup(n, options, seed)
        for seat, action in actions:
            rebuilt = game.apply(rebuilt, seat, json.loads(json.dumps(action)))
        assert dumped(rebuilt) == dumped(final)
        assert json.loads(json.dumps(final)) == final


@pytest.mark.parametrize(("slug", "n", "options"), CASES)
def test_the_log_only_grows_and_a_logged_line_never_changes(slug, n, options):
    """Each action appends to the log and leaves what was logged as it was: the rooms' views
    make a logged line once and use it again at every later version (``NamedLines``)."""
    game = GAMES[slug]
    states, _ = playout(game, n, f"log-{slug}-{n}", random.Random(3), options)
    for before, after in itertools.pairwise(states):
        assert after["log"][: len(before["log"])] == before["log"]
    assert len(states[-1]["log"]) > len(states[0]["log"])


@pytest.mark.parametrize(("slug", "n", "options"), CASES)
def test_a_seat_is_awaited_exactly_when_it_has_a_legal_action(slug, n, options):
    """In every state of random games: every awaited seat has a legal action and every seat with
    one is awaited, as the engine says it and as the seat itself is shown it (``shown_to_act``,
    a view's ``awaiting``); the list shown to the others may keep a seat that has answered a
    hidden simultaneous prompt (it never leaves out one that is awaited)."""
    game = GAMES[slug]
    for i in range(2):
        states, _ = playout(game, n, f"awaited-{slug}-{n}-{i}", random.Random(i), options)
        for state in states:
            awaited, public = game.to_act(state), game.public_to_act(state)
            assert awaited <= public and public <= game.shown_to_act(state, None) <= public
            views = game.views(state, range(n))
            for seat in range(n):
                may_act = bool(game.legal_actions(state, seat))
                assert (seat in awaited) == may_act, f"seat {seat}: awaited {awaited}, legal actions: {may_act}"
                assert (seat in game.shown_to_act(state, seat)) == may_act
                assert game.shown_to_act(state, seat) - {seat} == public - {seat}  # the others as everyone sees them
                if "awaiting" in views[seat]:
                    assert (seat in views[seat]["awaiting"]) == may_act


@pytest.mark.parametrize(("slug", "n", "options"), CASES)
def test_illegal_actions_are_refused_without_change(slug, n, options):
    game = GAMES[slug]
    state = game.setup(n, options, f"illegal-{slug}-{n}")
    before = dumped(state)
    waiting = [s for s in range(n) if s not in game.to_act(state)]
    for seat in waiting:
        with pytest.raises(IllegalAction):
            game.apply(state, seat, game.legal_actions(state, min(game.to_act(state)))[0])
    for bad in ({"type": "no-such-action"}, {}, {"type": 3}):
        with pytest.raises(IllegalAction):
            game.apply(state, min(game.to_act(state)), bad)
    assert dumped(state) == before


@pytest.mark.parametrize(("slug", "n", "options"), CASES)
def test_views_hide_what_the_seat_cannot_see(slug, n, options):
    game = GAMES[slug]
    seed = f"hidden-{slug}-{n}"
    states, _ = playout(game, n, seed, random.Random(7), options)
    r = random.Random(99)
    resampled_something = False
    for state in states[:: max(1, len(states) // 40)]:
        if game.outcome(state) is not None:
            continue
        for seat in [None, *range(n)]:
            view = game.view(state, seat)
            text = dumped(view)
            assert seed not in text, "a view reveals the seed before the end"
            for _ in range(3):
                other = game.randomize_hidden(state, seat, r)
                resampled_something |= dumped(other) != dumped(state)
                assert dumped(game.view(other, seat)) == text, (
                    f"seat {seat}'s view depends on information it cannot see"
                )
    assert resampled_something, "randomize_hidden never changed anything: the test proves nothing"


@pytest.mark.parametrize(("slug", "n", "options"), CASES)
def test_views_of_a_whole_room_are_each_seats_view(slug, n, options):
    game = GAMES[slug]
    states, _ = playout(game, n, f"views-{slug}-{n}", random.Random(5), options)
    seats = [None, *range(n)]
    for state in states[:: max(1, len(states) // 40)] + [states[-1]]:
        together = game.views(state, seats)
        assert list(together) == seats
        for seat in seats:
            assert dumped(together[seat]) == dumped(game.view(state, seat))
    dealt = game.views(states[0], [0, 1])
    private = [{key: value for key, value in dealt[seat].items() if key != "you"} for seat in (0, 1)]
    assert private[0] != private[1], "two seats were dealt the same view: their own parts are missing"


@pytest.mark.parametrize(("slug", "n", "options"), CASES)
def test_fixed_parts_of_the_state_never_change(slug, n, options):
    """A room holds a game's ``fixed_keys`` once and never freezes them again, so ``apply``
    must hand them on unchanged through a whole game."""
    game = GAMES[slug]
    assert isinstance(game.fixed_keys, tuple)
    states, _ = playout(game, n, f"fixed-{slug}-{n}", random.Random(5), options)
    for key in game.fixed_keys:
        assert all(key in state for state in states)
        assert all(dumped(state[key]) == dumped(states[0][key]) for state in states), key


def test_a_whole_number_option_takes_only_a_json_integer():
    """The contract's "int" option kind (no game declares one yet): the default, or an
    integer given; true, 2.0 and "2" are refused by name."""
    spec = (OptionSpec("rounds", "int", 3, "How many rounds"),)
    assert resolve_options(spec, None) == {"rounds": 3}
    assert resolve_options(spec, {"rounds": 2}) == {"rounds": 2}
    for bad in (True, 2.0, "2"):
        with pytest.raises(ValueError, match="option 'rounds' must be a whole number"):
            resolve_options(spec, {"rounds": bad})
