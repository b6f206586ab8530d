"""TriATri's learned evaluation (the expert's at 2 players): the table in the project predicts
who wins games of the policy it never saw better than the strong bot's margin, better than a
coin once few tricks are left; its fit is made by a command that repeats itself and refuses
what it cannot fit; a table of other features is refused, not misread (docs/bots.md,
"TriATri's learned evaluation, adopted")."""

from __future__ import annotations

import json
import math

import pytest

from app import cli
from app.bots import triatri_learned
from app.games.registry import GAMES
from app.sim import fit

FRESH_GAMES = range(300)  # seed "unseen": none of the fit's games


@pytest.fixture(scope="module")
def fresh_positions():
    return list(fit.positions(FRESH_GAMES, "unseen"))


def test_the_table_predicts_unseen_games_better_than_the_margin_and_late_better_than_a_coin(fresh_positions):
    rows = fresh_positions
    assert len(rows) > 5_000
    table = triatri_learned.weights()
    learned = [triatri_learned.predicted(table[stage], row) for _, stage, row, _, _ in rows]
    won = [r[4] for r in rows]
    own = fit.log_loss([r[3] for r in rows], won)
    mine = fit.log_loss(learned, won)
    assert mine < own - 0.25, (mine, own)  # (about 0.69 against 1.04)
    assert mine < math.log(2) + 0.01
    for stage in range(len(triatri_learned.STAGES)):  # (the margin scores 0.80 to 1.27 a stage, the table 0.68 to 0.70)
        picked = [i for i, r in enumerate(rows) if r[1] == stage]
        assert len(picked) > 1_000
        won_here = [won[i] for i in picked]
        here = fit.log_loss([learned[i] for i in picked], won_here)
        assert here < fit.log_loss([rows[i][3] for i in picked], won_here) - 0.1, stage
        if stage == 0:  # 1 to 3 tricks left: 0.675; earlier, close to a coin
            assert here < math.log(2) - 0.01


def test_the_evaluation_reads_the_features_of_the_states_stage():
    game = GAMES["triatri"]
    state = game.setup(2, {}, "learned-stage")
    assert triatri_learned.tricks_left(state) == 15 and triatri_learned.stage(state) == 4
    row = triatri_learned.features(state, 0)
    assert len(row) == len(triatri_learned.NAMES)
    assert triatri_learned.evaluate(state, 0) == triatri_learned.predicted(triatri_learned.weights()[4], row)
    last = {**state, "round": 3, "trick_number": 5}
    assert triatri_learned.tricks_left(last) == 1 and triatri_learned.stage(last) == 0
    for stage, (low, high) in enumerate(triatri_learned.STAGES):
        for left in (low, high):  # (each stage's bounds)
            at = {**state, "round": 3 - (left - 1) // 5, "trick_number": 5 - (left - 1) % 5}
            assert triatri_learned.tricks_left(at) == left and triatri_learned.stage(at) == stage


def test_the_table_says_how_it_was_made_and_by_the_commands_defaults():
    table = json.loads(triatri_learned.WEIGHTS.read_text())
    parser = cli.build_parser()
    defaults = parser.parse_args(["fit-evaluation"])
    assert table["made"]["command"] == f"troika-arena fit-evaluation --games {defaults.games} --seed {defaults.seed}"
    assert table["made"]["log_loss_learned"] < table["made"]["log_loss_strong"]
    assert table["stages"] == [list(s) for s in triatri_learned.STAGES]


def test_a_table_of_other_features_is_refused(tmp_path, monkeypatch):
    table = json.loads(triatri_learned.WEIGHTS.read_text())
    table["features"] = table["features"][:-1]
    stale = tmp_path / "weights.json"
    stale.write_text(json.dumps(table))
    monkeypatch.setattr(triatri_learned, "WEIGHTS", stale)
    triatri_learned.weights.cache_clear()
    try:
        with pytest.raises(ValueError, match="fit-evaluation"):
            triatri_learned.weights()
    finally:
        triatri_learned.weights.cache_clear()


def test_the_fit_repeats_itself_and_beats_the_margin_on_its_held_out_games(tmp_path, capsys):
    pytest.importorskip("numpy")  # (the test extra installs it, as the fit extra does)
    out = tmp_path / "weights.json"
    assert cli.main(["fit-evaluation", "--games", "240", "--seed", "t", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    table = json.loads(out.read_text())
    assert table["features"] == list(triatri_learned.NAMES)
    assert [len(row) for row in table["weights"]] == [len(triatri_learned.NAMES)] * len(triatri_learned.STAGES)
    made = table["made"]
    assert (made["games"], made["held_out_games"]) == (240, 60)
    assert made["log_loss_learned"] < made["log_loss_strong"]
    assert f"log-loss {made['log_loss_learned']} against {made['log_loss_strong']}" in printed
    again = tmp_path / "again.json"
    assert cli.main(["fit-evaluation", "--games", "240", "--seed", "t", "--out", str(again)]) == 0
    assert again.read_text() == out.read_text()


@pytest.mark.parametrize("games", ["7", "0", "-3"])
def test_the_fit_refuses_too_few_games_and_writes_nothing(games, tmp_path, capsys):
    pytest.importorskip("numpy")
    out = tmp_path / "weights.json"
    assert cli.main(["fit-evaluation", "--games", games, "--out", str(out)]) == 2
    assert "at least 8" in capsys.readouterr().err
    assert not out.exists()


def test_without_numpy_the_fit_says_which_extra_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fit, "np", None)
    out = tmp_path / "weights.json"
    assert cli.main(["fit-evaluation", "--games", "40", "--out", str(out)]) == 2
    assert "numpy is not installed: pip install -e '.[fit]'" in capsys.readouterr().err
    assert not out.exists()


def test_the_fit_refuses_a_table_it_could_not_write_before_it_plays(tmp_path, capsys):
    assert cli.main(["fit-evaluation", "--games", "40", "--out", str(tmp_path / "no" / "weights.json")]) == 2
    assert "--out: no folder" in capsys.readouterr().err
