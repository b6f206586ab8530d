"""Each engine as an OpenSpiel game, and matches of our bots against OpenSpiel's IS-MCTS.

OpenSpiel (``pip install -e '.[openspiel]'``, never part of the runtime install) is the outside
anchor of the bots' strength. :func:`register` declares every registered engine to pyspiel
as a Python game, ``troika_arena_<slug>`` (the slug's dashes as underscores), with the
parameters ``players`` and ``seed``:

- the deal is fixed by the seed (the engine draws everything from it), so the game has no
  chance nodes: it is deterministic, with imperfect information;
- a seat's information-state string is what that seat has seen: its view and the log lines
  it may read, as JSON (so two states differ in it exactly when the seat can tell them apart);
- an action's integer is stable: 31 bits of the SHA-256 of its canonical JSON (two legal
  actions that shared one would be refused, loudly; no game of ours has such a pair);
- simultaneous choices (several seats to act at once) are asked one seat at a time, lowest seat first, as
  the server's bots are; each seat's view already hides what the others chose;
- returns are the win shares, centred: with two players +1 for a win, -1 for a loss, 0 each
  for a shared win (zero-sum).

``randomize_hidden`` becomes IS-MCTS's resampler (:func:`resampler`), as OpenSpiel's own
``resample_from_infostate`` would be. :func:`match` plays one of our levels against
``ISMCTSBot`` (its random-rollout evaluator, as shipped) at equal wall time per move: before
each of its moves IS-MCTS gets the number of simulations that its rate so far fits into the
same budget as ours.
"""

from __future__ import annotations

import functools
import hashlib
import random
import time
from typing import Any

import orjson

from app.bots import choose
from app.games.base import Action, Game, State, visible_log
from app.games.registry import GAMES

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError:  # the openspiel extra
    pyspiel = None

MAX_LENGTH = 5000  # no game of ours comes near it
CLASSES: dict[str, type] = {}  # the pyspiel game class of each engine, once registered
ACTIONS = 2**31 - 1  # the action integers are below it (pyspiel counts them in a C int)


def installed() -> bool:
    return pyspiel is not None


def action_id(action: Action) -> int:
    """The stable integer of an action (31 bits of its canonical JSON's SHA-256)."""
    digest = hashlib.sha256(orjson.dumps(action, option=orjson.OPT_SORT_KEYS)).digest()
    return (int.from_bytes(digest[:4], "big") & ACTIONS) % ACTIONS


def short_name(slug: str) -> str:
    return "troika_arena_" + slug.replace("-", "_")


def register() -> None:
    """Declare every engine to pyspiel (once; later calls do nothing)."""
    if pyspiel is None:
        raise RuntimeError("OpenSpiel is not installed: pip install -e '.[openspiel]'")
    known = set(pyspiel.registered_names())
    for slug, game in GAMES.items():
        if short_name(slug) not in known:
            # a class per engine, as pyspiel's own Python games register (a closure made the
            # interpreter abort at exit)
            CLASSES[slug] = type(f"Spiel_{slug.replace('-', '_')}", (SpielGame,), {"engine": game})
            pyspiel.register_game(declared(game)[0], CLASSES[slug])


def declared(game: Game) -> tuple[Any, Any]:
    game_type = pyspiel.GameType(
        short_name=short_name(game.slug),
        long_name=f"Troika Arena: {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"players": game.min_players, "seed": "openspiel"},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=ACTIONS,
        max_chance_outcomes=0,
        num_players=game.min_players,
        min_utility=-1.0,
        max_utility=1.0,
        max_game_length=MAX_LENGTH,
    )
    return game_type, info


GameBase: Any = pyspiel.Game if pyspiel else object
StateBase: Any = pyspiel.State if pyspiel else object


class SpielGame(GameBase):
    """One engine with a player count and a seed, as a pyspiel game."""

    engine: Game

    def __init__(self, params: dict[str, Any] | None = None):
        game = self.engine
        game_type, info = declared(game)
        params = {"players": game.min_players, "seed": "openspiel", **(params or {})}
        players = int(params["players"])
        info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_LENGTH,
        )
        super().__init__(game_type, info, params)
        self.players, self.seed = players, str(params["seed"])

    def new_initial_state(self) -> SpielState:
        return SpielState(self, self.engine.setup(self.players, {}, self.seed))


class SpielState(StateBase):
    """An engine state as a pyspiel state (a new state object for every action: the engine's
    states are never changed in place)."""

    def __init__(self, game: SpielGame, state: State):
        super().__init__(game)
        self.spiel, self.engine, self.state = game, game.engine, state
        self.legal: list[Action] | None = None

    def current_player(self) -> int:
        if self.engine.outcome(self.state) is not None:
            return pyspiel.PlayerId.TERMINAL
        return min(self.engine.to_act(self.state))

    def listed(self) -> list[Action]:
        if self.legal is None:
            self.legal = self.engine.legal_actions(self.state, self.current_player())
        return self.legal

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        ids = sorted({action_id(a) for a in self.listed()})
        if len(ids) != len(self.listed()):
            raise RuntimeError("two legal actions share an action integer")
        return ids

    def _apply_action(self, action: int) -> None:
        chosen = next(a for a in self.listed() if action_id(a) == action)
        self.state = self.engine.follow(self.state, self.current_player(), chosen)
        self.legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        chosen = next((a for a in self.listed() if action_id(a) == action), None)
        return orjson.dumps(chosen).decode() if chosen else str(action)

    def is_terminal(self) -> bool:
        return self.engine.outcome(self.state) is not None

    def returns(self) -> list[float]:
        outcome = self.engine.outcome(self.state)
        if outcome is None:
            return [0.0] * self.spiel.players
        shares = [1 / len(outcome.winners) if s in outcome.winners else 0.0 for s in range(self.spiel.players)]
        mean = sum(shares) / len(shares)
        return [2 * (share - mean) for share in shares]

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        seen = {"view": self.engine.view(self.state, seat), "log": visible_log(self.state["log"], seat)}
        return orjson.dumps(seen, option=orjson.OPT_SORT_KEYS).decode()

    def clone(self) -> SpielState:
        return SpielState(self.spiel, self.state)

    def __str__(self) -> str:
        return orjson.dumps(self.state).decode()


def resampler(seed: int):
    """IS-MCTS's resampler: ``randomize_hidden`` for the player to move, from a seeded stream."""
    r = random.Random(seed)

    def resample(state: SpielState, player: int) -> SpielState:
        return SpielState(state.spiel, state.engine.randomize_hidden(state.state, player, r))

    return resample


def resample_for(engine: Game, state: State, seat: int, r: random.Random) -> State:
    return engine.randomize_hidden(state, seat, r)


def ismcts_bot(game: SpielGame, seed: int) -> Any:
    """OpenSpiel's IS-MCTS bot as shipped (UCT constant 2, one random rollout per leaf,
    the most visited move), with our resampler."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=2, random_state=rng)
    bot.set_resampler(resampler(seed))
    return bot


def match(slug: str, level: str, games: int, budget_s: float, seed: str, progress: Any = None) -> dict[str, Any]:
    """``games`` 2-player games of ``level`` against IS-MCTS, seats alternating, each side
    thinking ``budget_s`` of wall time per move; our level's win share and its 95% interval."""
    from app.sim.stats import Tally

    register()
    tally, lengths = Tally(), []
    for index in range(games):
        game_seed = f"{seed}-{index}"
        spiel = pyspiel.load_game(short_name(slug), {"players": 2, "seed": game_seed})
        ours = index % 2  # seats rotated
        bot = ismcts_bot(spiel, index)
        rng = random.Random(f"{game_seed}-ours")
        state, rate, moves = spiel.new_initial_state(), 20.0, 0
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.listed()
            if seat == ours:
                sample = state.state
                action = choose(
                    level,
                    spiel.engine,
                    seat,
                    spiel.engine.view(sample, seat),
                    legal,
                    functools.partial(resample_for, spiel.engine, sample, seat),
                    rng,
                    budget_s,
                )
                state.apply_action(action_id(action))
            else:
                # its rate so far fits the budget; at most twice as many simulations as last time
                # (its first one only expands the root, so two is the least that searches)
                simulations = max(2, min(2 * bot._max_simulations, int(rate * budget_s)))
                bot._max_simulations = simulations
                start = time.perf_counter()
                state.apply_action(int(bot.step(state)))
                rate = simulations / max(1e-6, time.perf_counter() - start)
            moves += 1
        outcome = spiel.engine.outcome(state.state)
        tally.add(1 / len(outcome.winners) if ours in outcome.winners else 0.0, outcome.scores[ours])
        lengths.append(moves)
        if progress is not None:
            progress.write(f"game {index + 1}/{games}: {level} {'won' if ours in outcome.winners else 'lost'}\n")
    return {"game": slug, "level": level, "games": games, "budget": budget_s, "seed": seed, **tally.to_json()}
