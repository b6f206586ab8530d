"""What the tables' summaries and live scores are built from (issue 25, point 5), over random
playouts: TriATri's and Vem aí's ``score_now`` is, at every step, the final scoring applied to
the table as it stands, and the game's result once over; Troika's finished rounds carry their
ranking (who left the planet by points, then who failed) and places (equal points share one)."""

from __future__ import annotations

import random

import pytest

from app.games.registry import GAMES
from app.games.triatri.score import score
from app.games.vem_ai_troika.score import breakdown


def playout(slug: str, n: int, seed: str, options: dict | None = None):
    """Every state of one random game to its end."""
    game, r = GAMES[slug], random.Random(seed)
    state = game.setup(n, options or {}, seed)
    yield state
    while game.outcome(state) is None:
        seat = r.choice(sorted(game.to_act(state)))
        state = game.apply(state, seat, r.choice(game.legal_actions(state, seat)))
        yield state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_triatri_score_now_is_the_scoring_of_the_gems_and_supply_as_they_stand(n):
    game = GAMES["triatri"]
    for state in playout("triatri", n, f"standing-{n}"):
        view = game.view(state, None)
        for seat, shown in enumerate(view["players"]):
            assert shown["score_now"] == score(state["gems"][seat], state["supply"])["total"]
    assert [p["score_now"] for p in view["players"]] == [p["total"] for p in view["result"]["players"]]


@pytest.mark.parametrize("n, options", [(3, {}), (4, {"advanced": True})])
def test_vem_score_now_is_the_final_scoring_if_the_game_ended_now(n, options):
    game = GAMES["vem-ai-a-troika"]
    changed = set()
    for step, state in enumerate(playout("vem-ai-a-troika", n, f"standing-{n}", options)):
        if step % 7:
            continue
        view = game.view(state, 0)
        for seat, shown in enumerate(view["players"]):
            assert shown["score_now"] == breakdown(state, seat)["total"]
            changed.add(shown["score_now"])
    final = game.view(state, None)
    assert [p["score_now"] for p in final["players"]] == [p["total"] for p in final["result"]["players"]]
    assert len(changed) > 3, "the scores move during the game"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_troika_rounds_carry_their_ranking_and_places(n):
    game = GAMES["troika"]
    *_, state = playout("troika", n, f"standing-{n}")
    rounds = game.view(state, None)["rounds"]
    assert [rd["round"] for rd in rounds] == [1, 2, 3]
    for rd in rounds:
        scores = [rd["players"][s]["score"] for s in rd["ranking"]]
        assert sorted(rd["ranking"]) == list(range(n))
        left = [s for s in scores if s is not None]
        assert scores[: len(left)] == sorted(left, reverse=True), "who left first, by points"
        places = [rd["places"][s] for s in rd["ranking"]]
        assert places[0] == 1 and places == sorted(places)
        for a, b in zip(rd["ranking"], rd["ranking"][1:], strict=False):
            tied = rd["players"][a]["score"] == rd["players"][b]["score"]
            assert (rd["places"][a] == rd["places"][b]) == tied
