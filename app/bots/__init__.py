"""Bots: players the platform seats in a room, who see exactly what a human in that seat sees.

The platform calls :func:`choose` with the seat's view, its legal actions and a *sampler* (a
function of a ``random.Random`` returning a full state consistent with what the seat knows,
built by the engine's ``randomize_hidden``); a bot never receives the true state, and what it
returns is validated like a human's move.

Levels
------
``random``  picks uniformly among the legal actions.
``strong``  searches: determinized Monte Carlo over sampled states, rollouts played by a cheap
            per-game policy and cut at a horizon where a per-game evaluation takes over
            (:mod:`app.bots.search`; heuristics in the module its game's entry names, ``app/bots/<game>.py``).
``expert``  races more of the moves with the strong bot's rollouts, its budget split evenly
            over rounds of sequential halving (:mod:`app.bots.expert`); where its game has
            better for it, its rollouts end in an evaluation of its own (Troika's calibrated
            one; at 2 players TriATri's and Vem aí's learned ones, :mod:`app.bots.learned`,
            sooner).
            Its rating against the others, per game, is the ladder's (:mod:`app.bots.ratings`,
            docs/bots.md).

Time and reproducibility: ``budget_s`` bounds the thinking time of one move. With
``max_iterations`` set, the search runs exactly that many iterations and ignores the clock,
so a fixed ``rng`` seed gives the same choice on any machine (``0`` plays the per-game policy
without searching).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.bots import expert, search
from app.games.base import Action, Game, State
from app.games.entry import part
from app.games.registry import ENTRIES
from app.rooms.model import BOT_LEVELS

LEVELS = BOT_LEVELS
HEURISTICS = {slug: part(entry.heuristics).HEURISTICS for slug, entry in ENTRIES.items()}


def choose(
    level: str,
    game: Game,
    seat: int,
    view: dict[str, Any],
    legal: list[Action],
    sampler: Callable[[random.Random], State],
    rng: random.Random,
    budget_s: float,
    max_iterations: int | None = None,
) -> Action:
    """One element of ``legal`` for ``seat``, chosen by a bot of the given level."""
    if not legal:
        raise ValueError("a bot can only choose among a non-empty list of legal actions")
    if level == "random":
        return rng.choice(legal)
    searches = {"strong": search.choose, "expert": expert.choose}
    if level in searches:
        turn = search.Turn(game, HEURISTICS[game.slug], seat, legal, sampler, rng, budget_s, max_iterations)
        return searches[level](turn)
    raise ValueError(f"unknown bot level '{level}' (choose among {', '.join(LEVELS)})")
