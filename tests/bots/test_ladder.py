"""The ladder (app/sim/ladder.py): the Elo fit, its reproducibility, the command's refusals,
the expert bot's moves, and the ratings the rooms show against the table docs/bots.md publishes."""

from __future__ import annotations

import random
import re
from pathlib import Path

from app.bots import choose
from app.bots.ratings import RATINGS
from app.cli import main
from app.games.registry import GAMES
from app.sim import Config, sampler
from app.sim.ladder import Pairing, fit, ladder

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def test_the_fit_turns_a_win_rate_into_its_elo_difference():
    # 3 wins in 4 is 400 * log10(3) = 191 Elo; the prior of one drawn game pulls it in a little
    shares = (1.0, 1.0, 1.0, 0.0) * 100
    ratings = fit(["random", "strong"], [Pairing("strong", "random", shares)])
    assert ratings["random"] == 0
    assert 185 < ratings["strong"] < 191
    # a chain: A beats B 3 to 1, B beats C 3 to 1, so A is about twice 191 above C
    chain = fit(["c", "b", "a"], [Pairing("a", "b", shares), Pairing("b", "c", shares)])
    assert chain["c"] == 0 and 185 < chain["b"] < 191 and 370 < chain["a"] < 382


def test_a_clean_sweep_stays_finite():
    ratings = fit(["random", "strong"], [Pairing("strong", "random", (1.0,) * 20)])
    assert 400 < ratings["strong"] < 800


def test_the_ladder_is_reproducible_to_the_digit_with_an_iteration_cap():
    config = Config(game="triatri", players=2, games=2, bots=(), seed="t", iterations=2)
    first = ladder(config, ["random", "strong", "expert"])
    assert first == ladder(config, ["random", "strong", "expert"])
    assert {r["bot"] for r in first["ratings"]} == {"random", "strong", "expert"}
    assert [(p["first"], p["second"], p["games"]) for p in first["pairs"]] == [
        ("random", "strong", 2),
        ("random", "expert", 2),
        ("strong", "expert", 2),
    ]
    random_row = next(r for r in first["ratings"] if r["bot"] == "random")
    assert random_row["elo"] == 0 and random_row["ci95"] == [0, 0]


def test_the_ladder_command_prints_ratings_and_refuses_bad_entrants(capsys):
    args = ["ladder", "--game", "triatri", "--games", "1", "--iterations", "1"]
    assert main([*args, "--bots", "random,strong"]) == 0
    assert "Elo" in capsys.readouterr().out
    assert main([*args, "--bots", "random,genius"]) == 2
    assert main([*args, "--bots", "strong,strong"]) == 2
    assert main([*args, "--bots", "strong"]) == 2


def test_the_expert_bot_plays_a_legal_move_the_same_way_each_time():
    for slug, game in sorted(GAMES.items()):
        state, r = game.setup(2, {}, f"expert-{slug}"), random.Random(1)
        for _ in range(30):  # a position with a choice
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            if len(legal) > 2:
                break
            state = game.apply(state, seat, r.choice(legal))
        view = game.view(state, seat)
        moves = [
            choose("expert", game, seat, view, legal, sampler(game, state, seat), random.Random(7), 1.0, 40)
            for _ in range(2)
        ]
        assert moves[0] in legal and moves[0] == moves[1], slug


def test_the_ratings_offered_are_the_ladder_table_of_the_docs():
    text = DOCS.read_text()
    section = text[text.index("## The ladder") :]
    published: dict[str, dict[str, int]] = {}
    for slug, level, elo in re.findall(r"^\| `([a-z-]+)` \| `([a-z]+)` \| (-?\d+) \|", section, re.M):
        published.setdefault(slug, {})[level] = int(elo)
    assert published == RATINGS
