"""Bots: every choice is one of the legal actions, the strong bot is reproducible with an
iteration cap, and it beats the random bot where one small sample shows it reliably."""

from __future__ import annotations

import json
import random
import time

import pytest

from app.bots import LEVELS, choose
from app.bots import troika as troika_bot
from app.bots import vem_ai_troika as vem_bot
from app.games.registry import GAMES
from app.games.troika.score import can_leave
from app.sim import Config, simulate
from tests.support.troika_worlds import call_worlds
from tests.support.vem_scenarios import ELECTIONS, E, G, arrange, end_round

CASES = [(slug, n) for slug, game in sorted(GAMES.items()) for n in range(game.min_players, game.max_players + 1)]
ADVANCED = [
    pytest.param("vem-ai-a-troika", n, {"advanced": True}, id=f"vem-ai-a-troika-{n}-advanced") for n in (2, 3, 4)
]


def sampler(game, state, seat):
    return lambda r: game.randomize_hidden(state, seat, r)


def play(game, n, seed, levels, iterations, options=None):
    """One game where seat s plays ``levels[s % len(levels)]``; every choice is checked."""
    state = game.setup(n, options or {}, seed)
    rng = random.Random(seed)
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        action = choose(
            levels[seat % len(levels)],
            game,
            seat,
            game.view(state, seat),
            legal,
            sampler(game, state, seat),
            rng,
            1.0,
            iterations,
        )
        assert any(action is a for a in legal), f"{action} is not one of the legal actions"
        state = game.apply(state, seat, action)
    return game.outcome(state)


@pytest.mark.parametrize(("slug", "n", "options"), [(slug, n, {}) for slug, n in CASES] + ADVANCED)
def test_bots_only_ever_choose_legal_actions(slug, n, options):
    game = GAMES[slug]
    play(game, n, f"legal-{slug}-{n}-a", ("strong", "random"), 2, options)
    play(game, n, f"legal-{slug}-{n}-b", ("random", "strong"), 3, options)


def mid_game(game, n, seed, steps):
    state = game.setup(n, {}, seed)
    r = random.Random(1)
    for _ in range(steps):
        seat = min(game.to_act(state))
        state = game.apply(state, seat, r.choice(game.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_strong_bot_is_reproducible_with_an_iteration_cap(slug):
    game = GAMES[slug]
    state = mid_game(game, 2, f"repro-{slug}", 6)
    seat = min(game.to_act(state))
    legal = game.legal_actions(state, seat)

    def decide(seed):
        return choose(
            "strong",
            game,
            seat,
            game.view(state, seat),
            legal,
            sampler(game, state, seat),
            random.Random(seed),
            0.0,
            12,
        )

    assert decide(5) == decide(5) == decide(5)


def test_the_random_bot_picks_uniformly_among_the_legal_actions():
    game = GAMES["troika"]
    state = mid_game(game, 2, "uniform", 1)
    seat = min(game.to_act(state))
    legal = game.legal_actions(state, seat)
    rng = random.Random(3)
    picks = [
        choose("random", game, seat, {}, legal, sampler(game, state, seat), rng, 1.0) for _ in range(60 * len(legal))
    ]
    counts = [sum(p is a for p in picks) for a in legal]
    assert len(legal) > 2 and min(counts) > 30 and max(counts) < 90


def test_unknown_levels_and_empty_lists_are_refused():
    game = GAMES["triatri"]
    state = game.setup(2, {}, "refused")
    legal = game.legal_actions(state, 0)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose("genius", game, 0, {}, legal, sampler(game, state, 0), random.Random(), 1.0)
    with pytest.raises(ValueError, match="non-empty"):
        choose("random", game, 0, {}, [], sampler(game, state, 0), random.Random(), 1.0)
    assert LEVELS == ("random", "strong", "expert")


def test_without_a_cap_the_strong_bot_searches_several_worlds_and_stops_at_its_budget():
    game = GAMES["triatri"]
    state = mid_game(game, 2, "budget", 3)
    seat = min(game.to_act(state))
    legal = game.legal_actions(state, seat)
    calls = []

    def counting_sampler(r):
        calls.append(1)
        return game.randomize_hidden(state, seat, r)

    started = time.perf_counter()
    action = choose("strong", game, seat, {}, legal, counting_sampler, random.Random(1), 0.3)
    elapsed = time.perf_counter() - started
    assert action in legal and len(calls) > 1  # it searched several worlds, not just one
    assert elapsed < 0.3 + 2.0  # it stops at its budget (with a wide margin for a busy machine)


@pytest.mark.parametrize(
    ("slug", "options"), [("troika", {}), ("vem-ai-a-troika", {}), ("vem-ai-a-troika", {"advanced": True})]
)
def test_the_strong_bot_beats_the_random_bot(slug, options):
    config = Config(
        game=slug,
        players=2,
        games=4,
        bots=("strong", "random"),
        seed="beats",
        iterations=4,
        rotate=True,
        options=options,
    )
    report = simulate(config, progress=None)
    assert report["entrants"][0]["wins"] == 4


def test_the_troika_bot_reads_no_calls_result_but_its_own():
    """Ruling T7: a rival's "Troika!" is settled only at round end, so the strong bot presumes
    it succeeded (and the +5 gone), knows whether its own call did, and plays the same move
    whether or not a rival's call succeeded."""
    game = GAMES["troika"]
    succeeding, failing = (game.apply(world, 0, {"type": "troika"}) for world in call_worlds(3, "bot-t7"))
    assert troika_bot.round_estimates(failing, 1)[0] == 1 + 5  # fuel 5-5-5, gem 12-13-14, trash 1, 2, 4
    assert troika_bot.round_estimates(failing, 0)[0] is None
    assert troika_bot.round_estimates(succeeding, 0)[0] == 3 + 4 + 5
    legal = game.legal_actions(failing, 1)
    assert legal == game.legal_actions(succeeding, 1)
    moves = [
        choose("strong", game, 1, game.view(world, 1), legal, sampler(game, world, 1), random.Random(3), 1.0, 12)
        for world in (succeeding, failing)
    ]
    assert moves[0] == moves[1]


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_the_troika_bots_never_call_a_troika_that_would_fail(level):
    """A failing "Troika!" takes the -1 token for certain; early in a round, when every seat's
    few tiles look like a failure to the evaluation, the search found ending the round so worth
    it (in 4 games of 3 strong bots: 16 failing calls, against 3 that succeeded). The caller may
    know before calling (T7): the bots list no such call, search or roll one out."""
    game = GAMES["troika"]
    state = game.setup(3, {"first_player": "0"}, "no-failing-call")
    state = game.apply(state, 0, game.legal_actions(state, 0)[0])  # seat 0 turns a tile up...
    state = game.apply(state, 0, next(a for a in game.legal_actions(state, 0) if a["type"] == "take_up"))
    seat = 1
    legal = game.legal_actions(state, seat)
    call = {"type": "troika"}
    assert call in legal and not can_leave(state["hands"][seat], state["containers"][seat])
    assert call not in troika_bot.candidates(state, seat, legal) + troika_bot.ranked(state, seat, legal)
    rng = random.Random(5)
    assert all(troika_bot.policy(state, seat, legal, rng) != call for _ in range(300))  # nor explored
    picks = {
        json.dumps(choose(level, game, seat, {}, legal, sampler(game, state, seat), random.Random(k), 1.0, 60))
        for k in range(3)
    }
    assert json.dumps(call) not in picks


def test_a_rival_whose_container_cannot_leave_is_known_to_have_failed():
    """A rival's call is presumed to succeed (its hand is hidden) unless its Container, which
    everyone sees, is under the 5 tiles any successful call needs."""
    game = GAMES["troika"]
    succeeding, _ = call_worlds(3, "small-container")
    small = {**succeeding, "containers": [[5, 5, 5, 12], [], []]}  # seat 0's hand: 1-2-3
    assert troika_bot.round_estimates(game.apply(small, 0, {"type": "troika"}), 1)[0] is None
    assert troika_bot.round_estimates(game.apply(succeeding, 0, {"type": "troika"}), 1)[0] is not None


def test_the_vem_bot_reads_a_rivals_campaign_size_but_not_its_cards():
    """Ruling V5: a campaign committed earlier in the round shows how many Group cards and
    Mega-Euro it holds, never which cards: the strong bot reckons with the size and chooses
    the same whatever the face-down cards are."""
    game = GAMES["vem-ai-a-troika"]
    campaign = {"type": "campaign", "money": 1}

    def world(committed):
        state = arrange(
            3,
            hands={1: [committed, "Revisão"], 2: ["Pensionistas", "Claque", "Expesso"]},
            money={1: 2, 2: 2},
            events=[ELECTIONS[0], E["Sondagem"], E["Chegou a Troika"]],
        )
        state = game.apply(end_round(state), 0, {"type": "campaign", "cards": [], "money": 0})
        return game.apply(state, 1, {**campaign, "cards": [G[committed]]})

    worlds = [world("Estudantes"), world("Juízes")]  # 3 Votes or 1 Vote, face down
    assert game.view(worlds[0], 2) == game.view(worlds[1], 2)
    on_table = game.view(worlds[0], 2)["players"][1]["votes"]
    assert vem_bot.likely_votes(worlds[0], 1) == vem_bot.likely_votes(worlds[1], 1) == on_table + 1 + 2.0
    legal = game.legal_actions(worlds[0], 2)
    moves = [
        choose("strong", game, 2, game.view(w, 2), legal, sampler(game, w, 2), random.Random(5), 1.0, 12)
        for w in worlds
    ]
    assert moves[0] == moves[1] and moves[0]["type"] == "campaign"
