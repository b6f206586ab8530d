"""The OpenSpiel wrapper (app/sim/openspiel.py), where the openspiel extra is installed.

Kept out of the default test run (``testpaths`` is ``tests``), because the extra is not part
of the test environment CI builds; run it with
``pip install -e '.[test,openspiel]' && python -m pytest tests_openspiel``. Without OpenSpiel
it fails at the import: it is never skipped.
"""

from __future__ import annotations

import json
import random

import pyspiel

from app.games.registry import GAMES
from app.sim import openspiel


def test_every_engine_plays_to_the_end_through_pyspiel():
    openspiel.register()
    for slug in sorted(GAMES):
        game = pyspiel.load_game(openspiel.short_name(slug), {"players": 2, "seed": f"spiel-{slug}"})
        state, r = game.new_initial_state(), random.Random(1)
        assert not state.is_chance_node()  # the deal is fixed by the seed
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and all(0 <= a < openspiel.ACTIONS for a in legal)
            assert state.legal_actions(1 - player) == []
            state.apply_action(r.choice(legal))
        returns = state.returns()
        assert sum(returns) == 0 and sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_action_integers_are_stable_and_map_back():
    assert openspiel.action_id({"type": "pass"}) == openspiel.action_id({"type": "pass"})
    assert openspiel.action_id({"type": "commit", "card": 3}) != openspiel.action_id({"type": "commit", "card": 4})
    assert openspiel.action_id({"b": 1, "a": 2}) == openspiel.action_id({"a": 2, "b": 1})  # canonical JSON
    openspiel.register()
    game = pyspiel.load_game(openspiel.short_name("troika"), {"players": 2, "seed": "ids"})
    state = game.new_initial_state()
    for action in state.legal_actions():
        assert openspiel.action_id(json.loads(state.action_to_string(action))) == action


def test_the_resampler_keeps_the_information_state_and_changes_the_rest():
    openspiel.register()
    for slug in sorted(GAMES):
        game = pyspiel.load_game(openspiel.short_name(slug), {"players": 2, "seed": f"resample-{slug}"})
        state, r = game.new_initial_state(), random.Random(2)
        for _ in range(6):
            state.apply_action(r.choice(state.legal_actions()))
        player = state.current_player()
        resample = openspiel.resampler(5)
        worlds = [resample(state, player) for _ in range(5)]
        seen = state.information_state_string(player)
        assert all(world.information_state_string(player) == seen for world in worlds)
        assert any(str(world) != str(state) for world in worlds), slug
        other = 1 - player  # what the other seat sees is not what this one sees
        assert state.information_state_string(other) != seen


def test_a_match_against_ismcts_reports_a_win_rate_with_its_interval():
    report = openspiel.match("triatri", "strong", 2, 0.02, "test")
    assert report["games"] == 2 and 0.0 <= report["win_rate"] <= 1.0
    low, high = report["ci95"]
    assert 0.0 <= low <= report["win_rate"] <= high <= 1.0
