"""Headless simulation: many seeded games between bots, then win rates and throughput.

Each game ``i`` is set up from the seed ``"<seed>-<i>"`` and every seat's bot draws from its
own generator seeded from the game seed and the seat, so with an iteration cap the whole run
(and its report) is the same whatever the number of worker processes. A bot's move goes
through ``apply`` like a human's: an illegal one stops the run.

Entrants and seats: ``bots`` lists one bot per *entrant*: a level, optionally with its own
iteration cap (``strong:0`` plays the strong bot's policy without searching). Without ``rotate``, entrant
``i`` plays seat ``i`` in every game; with ``rotate``, it plays seat ``(i + game) % players``,
which spreads any first-seat advantage evenly. The report gives win rates per entrant and per
seat, each with a 95% Wilson interval; a shared win counts ``1/k`` to each of the ``k``
winners. ``random_actions`` names action types every bot picks at random (to study, say,
Leaders dealt at random rather than chosen). ``breakdown`` adds win rates by a seat's tags
(for Vem aí a Troika: its Leader, the Leaders it was offered, and the Groups it controls at
the end).
"""

from __future__ import annotations

import multiprocessing
import random
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

from app.bots import LEVELS, choose
from app.games.base import Game, State, public_options
from app.games.registry import ENTRIES, GAMES
from app.reading import whole_number
from app.sim.stats import Tally

MAX_ACTIONS = 20_000
BAR_WIDTH = 30


@dataclass(frozen=True)
class Config:
    game: str
    players: int
    games: int
    bots: tuple[str, ...]
    seed: str = "sim"
    workers: int = 1
    budget: float = 1.0
    iterations: int | None = None
    rotate: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    breakdown: bool = False
    random_actions: tuple[str, ...] = ()


def seating(config: Config, index: int) -> list[int]:
    """The entrant sitting in each seat in game ``index``."""
    n = config.players
    shift = index % n if config.rotate else 0
    return [(seat - shift) % n for seat in range(n)]


def play_game(config: Config, index: int) -> dict[str, Any]:
    """Play game ``index`` to the end; its record (no state, only what the report needs)."""
    game = GAMES[config.game]
    seed = f"{config.seed}-{index}"
    state = game.setup(config.players, config.options, seed)
    entrants = seating(config, index)
    rngs = [random.Random(f"{seed}-seat-{seat}") for seat in range(config.players)]
    actions = 0
    while (outcome := game.outcome(state)) is None:
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"game {index} did not end within {MAX_ACTIONS} actions")
        seat = min(game.to_act(state))
        level, iterations = bot_spec(config.bots[entrants[seat]], config.iterations)
        legal = game.legal_actions(state, seat)
        if legal[0]["type"] in config.random_actions:
            level = "random"
        action = choose(
            level,
            game,
            seat,
            game.view(state, seat),
            legal,
            sampler(game, state, seat),
            rngs[seat],
            config.budget,
            iterations,
        )
        state = game.apply(state, seat, action)
        actions += 1
    return {
        "index": index,
        "entrants": entrants,
        "scores": outcome.scores,
        "winners": outcome.winners,
        "actions": actions,
        "tags": seat_tags(game, state, len(outcome.scores)) if config.breakdown else None,
    }


def bot_spec(entry: str, iterations: int | None) -> tuple[str, int | None]:
    """``"strong"`` or ``"strong:30"`` (this entrant's own iteration cap) -> (level, cap)."""
    level, _, cap = entry.partition(":")
    own = whole_number(cap, most_digits=None)
    if level not in LEVELS or (cap and own is None):
        raise ValueError(f"bot '{entry}': a level among {', '.join(LEVELS)}, optionally ':<iterations>'")
    return level, iterations if own is None else own


def sampler(game: Game, state: State, seat: int):
    return lambda r: game.randomize_hidden(state, seat, r)


def seat_tags(game: Game, state: State, seats: int) -> list[list[str]]:
    """Labels per seat for the breakdown: the game entry's, if it has some."""
    tag = ENTRIES[game.slug].seat_tags
    return tag(state) if tag else [[] for _ in range(seats)]


def records(config: Config, progress: TextIO | None) -> list[dict[str, Any]]:
    """Every game's record, in game order, played by ``config.workers`` processes."""
    play = partial(play_game, config)
    bar = Progress(config.games, progress)
    if config.workers <= 1:
        done = []
        for index in range(config.games):
            done.append(play(index))
            bar.step()
        return done
    with multiprocessing.get_context("fork").Pool(config.workers) as pool:
        done = []
        for record in pool.imap(play, range(config.games)):
            done.append(record)
            bar.step()
        return done


class Progress:
    """A plain-text progress bar on a stream (stderr), redrawn in place."""

    def __init__(self, total: int, stream: TextIO | None):
        self.total, self.stream, self.done, self.start = total, stream, 0, time.perf_counter()

    def step(self) -> None:
        self.done += 1
        if self.stream is None:
            return
        filled = BAR_WIDTH * self.done // max(1, self.total)
        elapsed = time.perf_counter() - self.start
        eta = elapsed / self.done * (self.total - self.done)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.done}/{self.total} "
            f"games  {elapsed:.0f} s elapsed, ~{eta:.0f} s left "
        )
        if self.done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def win_share(record: dict[str, Any], seat: int) -> float:
    winners = record["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def summarize(config: Config, done: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """The report: win rates per entrant, per seat and per tag, lengths and throughput."""
    entrants = [Tally() for _ in config.bots]
    seats = [Tally() for _ in range(config.players)]
    tags: dict[str, Tally] = {}
    for record in done:
        for seat, entrant in enumerate(record["entrants"]):
            share, score = win_share(record, seat), record["scores"][seat]
            entrants[entrant].add(share, score)
            seats[seat].add(share, score)
            for tag in (record["tags"] or [[]] * config.players)[seat]:
                tags.setdefault(tag, Tally()).add(share)
    actions = sum(record["actions"] for record in done)
    report = {
        "game": config.game,
        "players": config.players,
        "games": len(done),
        "bots": list(config.bots),
        "seed": config.seed,
        "rotate": config.rotate,
        "iterations": config.iterations,
        "budget": config.budget,
        "workers": config.workers,
        "options": config.options,
        "random_actions": list(config.random_actions),
        "entrants": [
            {"entrant": i, "bot": bot, **t.to_json()}
            for i, (bot, t) in enumerate(zip(config.bots, entrants, strict=True))
        ],
        "seats": [{"seat": seat, **t.to_json()} for seat, t in enumerate(seats)],
        "mean_actions": round(actions / len(done), 2) if done else None,
        "seconds": round(seconds, 3),
        "games_per_s": round(len(done) / seconds, 4) if seconds else None,
        "actions_per_s": round(actions / seconds, 2) if seconds else None,
    }
    if config.breakdown:
        report["breakdown"] = [{"tag": tag, **t.to_json()} for tag, t in sorted(tags.items())]
    return report


def simulate(config: Config, progress: TextIO | None = None) -> dict[str, Any]:
    """Run the games and return the report (see :func:`summarize`); a progress bar is drawn
    on ``progress`` (e.g. ``sys.stderr``) if given."""
    check(config)
    start = time.perf_counter()
    done = records(config, progress)
    return summarize(config, done, time.perf_counter() - start)


def check(config: Config) -> None:
    """Refuse, with ValueError, a configuration that names an unknown bot, the wrong number
    of bots, a player count the game does not take or bad options."""
    for entry in config.bots:
        bot_spec(entry, None)
    if len(config.bots) != config.players:
        raise ValueError(f"--bots names {len(config.bots)} bots for {config.players} seats")
    GAMES[config.game].setup(config.players, config.options, config.seed)  # refuses bad counts and options up front


def rate_line(label: str, row: dict[str, Any]) -> str:
    low, high = row["ci95"]
    score = "-" if row["mean_score"] is None else f"{row['mean_score']:.2f}"
    return f"{label:<34} {row['win_rate']:>8.3f}   [{low:.3f}, {high:.3f}]   {score:>10}   {row['games']:>5}"


def render(report: dict[str, Any]) -> str:
    """The report as plain text."""
    title = GAMES[report["game"]].title
    cap = report["iterations"] if report["iterations"] is not None else f"none (budget {report['budget']} s)"
    header = f"{'':<34} {'win rate':>8}   {'95% interval':<16} {'mean score':>10}   {'games':>5}"
    lines = [
        f"{title}: {report['players']} players, {report['games']} games, bots "
        f"{','.join(report['bots'])}, seed '{report['seed']}', rotate {'on' if report['rotate'] else 'off'}, "
        f"iteration cap {cap}",
        *([f"options {public_options(report['options'])}"] if report["options"] else []),
        *([f"picked at random: {', '.join(report['random_actions'])}"] if report["random_actions"] else []),
        "",
        header,
        *(rate_line(f"entrant {r['entrant']} ({r['bot']})", r) for r in report["entrants"]),
        "",
        *(rate_line(f"seat {r['seat']}", r) for r in report["seats"]),
        "",
        f"mean game length: {report['mean_actions']} actions",
        f"throughput: {report['games_per_s']} games/s, {report['actions_per_s']} actions/s "
        f"({report['workers']} worker(s), {report['seconds']:.1f} s)",
    ]
    if "breakdown" in report:
        lines += ["", "win rate by tag (best first):", header]
        rows = sorted(report["breakdown"], key=lambda r: (-r["win_rate"], r["tag"]))
        lines += [rate_line(r["tag"], r) for r in rows]
    return "\n".join(lines)
