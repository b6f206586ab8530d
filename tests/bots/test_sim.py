"""The simulator's statistics and reports, and the engine benchmark."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from app.games.registry import GAMES
from app.games.vem_ai_troika.deck import DEFAULT_PATH
from app.sim import Config, seating, simulate, summarize
from app.sim.bench import bench_engines, render
from app.sim.stats import Tally, wilson
from tests.support.registered import every_table


def test_wilson_interval_on_known_counts():
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(160, 200) == pytest.approx((0.7391, 0.8495), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_tally_counts_shared_wins_as_fractions():
    tally = Tally()
    for share, score in ((1.0, 10), (0.5, 8), (0.0, 3), (1 / 3, 5)):
        tally.add(share, score)
    row = tally.to_json()
    assert row["games"] == 4 and row["wins"] == pytest.approx(1.8333, abs=1e-4)
    assert row["win_rate"] == pytest.approx(0.4583, abs=1e-4) and row["mean_score"] == 6.5
    assert row["ci95"] == [round(v, 4) for v in wilson(11 / 6, 4)]


def test_rotation_moves_every_entrant_round_the_table():
    config = Config(game="troika", players=3, games=3, bots=("strong", "random", "random"), rotate=True)
    assert [seating(config, i) for i in range(4)] == [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 1, 2]]
    fixed = Config(game="troika", players=3, games=3, bots=("strong", "random", "random"))
    assert seating(fixed, 1) == [0, 1, 2]


def test_summary_splits_a_shared_win_and_follows_entrants_across_seats():
    config = Config(game="troika", players=2, games=2, bots=("strong", "random"), rotate=True)
    records = [
        {"index": 0, "entrants": [0, 1], "scores": [3, 3], "winners": [0, 1], "actions": 10, "tags": None},
        {"index": 1, "entrants": [1, 0], "scores": [1, 2], "winners": [1], "actions": 30, "tags": None},
    ]
    report = summarize(config, records, 2.0)
    assert [e["wins"] for e in report["entrants"]] == [1.5, 0.5]
    assert [s["wins"] for s in report["seats"]] == [0.5, 1.5]
    assert [e["mean_score"] for e in report["entrants"]] == [2.5, 2.0]
    assert report["mean_actions"] == 20 and report["games_per_s"] == 1 and report["actions_per_s"] == 20


def strip_timing(report):
    return {k: v for k, v in report.items() if k not in ("seconds", "games_per_s", "actions_per_s", "workers")}


def test_a_run_is_the_same_with_one_or_two_workers():
    config = Config(
        game="triatri", players=2, games=4, bots=("strong", "random"), seed="same", iterations=3, rotate=True
    )
    one = simulate(config, progress=None)
    two = simulate(Config(**{**config.__dict__, "workers": 2}), progress=None)
    assert strip_timing(one) == strip_timing(two)
    assert sum(e["wins"] for e in one["entrants"]) == pytest.approx(4)


def test_simulate_command_prints_json_and_a_progress_bar(capsys):
    code = main(
        [
            "simulate",
            "--game",
            "vem-ai-a-troika",
            "--games",
            "2",
            "--bots",
            "strong:1,random",
            "--seed",
            "cli",
            "--rotate",
            "--breakdown",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and "2/2 games" in err
    report = json.loads(out)
    assert set(report) >= {
        "game",
        "players",
        "games",
        "bots",
        "entrants",
        "seats",
        "mean_actions",
        "games_per_s",
        "actions_per_s",
        "breakdown",
    }
    assert report["games"] == 2 and report["bots"] == ["strong:1", "random"]
    entrant = report["entrants"][0]
    assert set(entrant) == {"entrant", "bot", "games", "wins", "win_rate", "ci95", "mean_score"}
    assert len(report["seats"]) == 2 and report["seats"][1]["seat"] == 1
    assert any(row["tag"].startswith("leader: ") for row in report["breakdown"])


def test_simulate_command_text_report_and_bad_bots(capsys):
    assert main(["simulate", "--game", "triatri", "--games", "1", "--iterations", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "entrant 0 (strong)" in out and "95% interval" in out and "throughput:" in out
    assert main(["simulate", "--game", "triatri", "--games", "1", "--bots", "strong,genius"]) == 2
    assert main(["simulate", "--game", "triatri", "--games", "1", "--bots", "strong,random,random"]) == 2


def test_bench_engines_puts_each_row_beside_the_yardstick_measured_around_it():
    calls = []

    def yardstick(index):  # a stand-in for python-chess's playout: 100 actions a playout
        calls.append(index)
        return 100

    rows = bench_engines(seconds=0.0, yardstick=yardstick)
    assert len(calls) == 2 * len(rows)  # once before each row and once after
    for row in rows:
        assert row["chess_actions_per_s"] > 0
        assert abs(row["against_chess"] - row["actions_per_s"] / row["chess_actions_per_s"]) < 0.01
    text = render(rows)
    assert "x chess" in text.splitlines()[0] and "not installed" not in text


def test_bench_engines_covers_every_game_and_player_count(capsys):
    rows = bench_engines(seconds=0.0)
    cases = {(r["game"], r["players"]) for r in rows}
    assert cases == set(every_table()) and all(r["playouts"] >= 1 and r["actions_per_s"] > 0 for r in rows)
    assert main(["bench", "engines", "--seconds", "0", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert {r["game"] for r in printed} == set(GAMES)


def test_options_are_read_as_the_game_declares_them():
    from app.cli import option_values

    assert option_values(GAMES["troika"], [("first_player", "0")]) == {"first_player": 0}  # a seat is a whole number
    assert option_values(GAMES["triatri"], [("bga_three_player_rule", "true")]) == {"bga_three_player_rule": True}
    assert option_values(GAMES["triatri"], [("other", "text")]) == {"other": "text"}


def test_bad_options_are_refused_before_any_game(capsys):
    assert main(["simulate", "--game", "troika", "--games", "1", "--option", "first_player=4"]) == 2
    assert "first_player" in capsys.readouterr().err


def test_action_types_named_random_are_left_to_the_random_bot(monkeypatch):
    import app.sim

    levels = []

    def recording_choose(level, game, seat, view, legal, *rest):
        levels.append((legal[0]["type"], level))
        return legal[0]

    monkeypatch.setattr(app.sim, "choose", recording_choose)
    config = Config(
        game="vem-ai-a-troika", players=2, games=1, bots=("strong", "strong"), random_actions=("choose_leader",)
    )
    simulate(config)
    assert [level for kind, level in levels if kind == "choose_leader"] == ["random", "random"]
    assert {level for kind, level in levels if kind != "choose_leader"} == {"strong"}


def test_bench_server_hands_every_flag_to_the_server_benchmark(monkeypatch):
    import app.bench.command

    seen = []
    monkeypatch.setattr(app.bench.command, "main", lambda argv: seen.append(argv) or 0)
    assert main(["bench", "server", "--rooms", "25,50", "--help"]) == 0
    assert seen == [["--rooms", "25,50", "--help"]]


def test_a_custom_deck_is_named_in_the_report_not_printed_whole(capsys, tmp_path):
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({**json.loads(DEFAULT_PATH.read_text(encoding="utf-8")), "name": "Mesa do café"}))
    assert (
        main(
            [
                "simulate",
                "--game",
                "vem-ai-a-troika",
                "--games",
                "1",
                "--iterations",
                "0",
                "--option",
                f"deck={deck.read_text(encoding='utf-8')}",
            ]
        )
        == 0
    )
    header = capsys.readouterr().out.splitlines()[1]
    assert header == "options {'deck': 'Mesa do café'}"
