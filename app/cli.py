"""The ``troika-arena`` command: ``serve`` runs the server, ``health`` checks a running one (the
image's HEALTHCHECK), ``migrate`` upgrades the database, ``backup`` and ``restore`` copy it,
``simulate`` plays bots against each other, ``ladder`` rates the bot levels, ``anchor`` plays
one against OpenSpiel, ``bench engines`` measures the rule engines and ``bench server`` the
server under load, ``bench clicks`` click to update in Chromium, ``bench footprint`` idle rooms
and restarts, ``bench soak`` memory over a long run of bot games.

Settings come from the environment (see README); the flags of ``serve`` and ``health`` override
host and port.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from app.config import get_settings, problems
from app.games.entry import GameModuleError

DESCRIPTION = (
    "Troika Arena, a self-hosted server for Troika, TriATri and Vem aí a Troika: run the server, check its health, "
    "migrate, back up and restore its database, play bots against each other, run benchmarks and verify game "
    "records. "
    "Settings come from the environment (see the README)."
)


def end_streams() -> None:
    """End the followed streams of the app the server runs (as "app.main:app" loads it)."""
    from app.main import app

    bus = getattr(app.state, "bus", None)  # (none before the app has started)
    if bus is not None:
        bus.end_streams()


def unusable_database(command: str) -> bool:
    """Say in one line why the database of DATABASE_URL cannot be used, if it cannot (before a
    server starts on it, or a migration runs)."""
    from app.db.engine import unusable

    problem = unusable(get_settings().sync_database_url())
    if problem:
        print(f"troika-arena {command}: DATABASE_URL cannot be used: {problem}", file=sys.stderr)
    return problem is not None


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.db.backup import served
    from app.http_protocol import DenyingWebSocketProtocol, StreamEndingServer, with_deadlines
    from app.logs import log_config

    if args.host:  # the bind address is also a host name the app answers to (ALLOWED_HOSTS)
        os.environ["HOST"] = args.host
        get_settings.cache_clear()
    settings = get_settings()
    if unusable_database("serve"):
        return 2
    if (path := served(settings.sync_database_url())) is not None:
        print(
            f"troika-arena serve: a server is already running on {path}: a SQLite file serves one "
            "process (several need Postgres; see the README)",
            file=sys.stderr,
        )
        return 2

    config = uvicorn.Config(
        "app.main:app",
        host=args.host or settings.host,
        port=args.port or settings.port,
        log_level=settings.log_level,
        log_config=log_config(settings.log_level),  # the app's own lines too, tokens redacted
        proxy_headers=True,
        # A request head must arrive within HEAD_TIMEOUT_SECONDS, its body within BODY_TIMEOUT_SECONDS
        # more (slowloris; app/http_protocol.py).
        http=with_deadlines(settings.head_timeout_seconds, settings.body_timeout_seconds),
        # A larger frame is refused from its header, before its payload is read (the app's own
        # check alone saw it only once buffered whole).
        ws_max_size=settings.max_ws_message_bytes,
        ws=DenyingWebSocketProtocol,  # (a refused handshake answers its reason: app/web/live.py)
        # Views are a few KB: compressing them cost a tenth of the server's CPU under load and
        # a deflate context per socket (several hundred KB each); see docs/benchmarks.md.
        ws_per_message_deflate=False,
    )
    server = StreamEndingServer(config, end_streams)
    with contextlib.suppress(KeyboardInterrupt):  # (Ctrl-C, raised again once the server stopped)
        server.run()
    return 0 if server.started else 3  # (uvicorn's exit status for a server that did not start)


def health(args: argparse.Namespace) -> int:
    """Exit 0 if the server of these settings answers /healthz with 200, else 1 (the Docker
    image's HEALTHCHECK): on --port or PORT, at 127.0.0.1 when the address (--host or HOST)
    binds every address, else at that address."""
    import urllib.request

    settings = get_settings()
    bound = args.host or settings.host
    host = "127.0.0.1" if bound in ("", "0.0.0.0", "::") else bound
    url = f"http://{f'[{host}]' if ':' in host else host}:{args.port or settings.port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=args.timeout) as response:
            status = response.status
    except (OSError, ValueError) as exc:  # refused, timed out, or an error status (HTTPError)
        print(f"unhealthy: {url}: {exc}", file=sys.stderr)
        return 1
    print(f"healthy: {url} answered {status}")
    return 0 if status == 200 else 1


def backup(args: argparse.Namespace) -> int:
    from app.db.backup import BackupError
    from app.db.backup import backup as copy

    try:
        rooms = copy(get_settings().sync_database_url(), Path(args.file))
    except BackupError as exc:
        print(f"troika-arena backup: {exc}", file=sys.stderr)
        return 2
    print(f"backed up {rooms} rooms to {args.file}")
    return 0


def restore(args: argparse.Namespace) -> int:
    from app.db.backup import BackupError, sqlite_path
    from app.db.backup import restore as put_back
    from app.db.engine import migrate as run_migrations

    url = get_settings().sync_database_url()
    try:
        rooms = put_back(Path(args.file), url)
    except BackupError as exc:
        print(f"troika-arena restore: {exc}", file=sys.stderr)
        return 2
    run_migrations(url)
    where = sqlite_path(url).resolve()
    print(f"restored {rooms} rooms from {args.file} into {where}; the database is at the newest schema")
    return 0


def migrate(_args: argparse.Namespace) -> int:
    from app.db.engine import migrate as run_migrations

    if unusable_database("migrate"):
        return 2
    run_migrations(get_settings().sync_database_url())
    print("database is at the newest schema")
    return 0


def port_number(text: str) -> int:
    port = int(text) if text.isascii() and text.isdigit() else 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, not {text!r}")
    return port


def option_pair(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError("an option is written key=value")
    return key, value


def option_values(game, pairs: list[tuple[str, str]]) -> dict[str, object]:
    """``--option`` texts as the game's option types: a listed choice as written, otherwise
    JSON when it parses (true, 3, {...}), else the text itself."""
    specs = {spec.name: spec for spec in game.options}
    options: dict[str, object] = {}
    for key, text in pairs:
        spec = specs.get(key)
        choices = {str(choice): choice for choice in spec.choices} if spec else {}
        if text in choices:
            options[key] = choices[text]
            continue
        try:
            options[key] = json.loads(text)
        except json.JSONDecodeError:
            options[key] = text
    return options


def simulate(args: argparse.Namespace) -> int:
    from app.games.registry import GAMES
    from app.sim import Config, render
    from app.sim import simulate as run

    game = GAMES[args.game]
    players = args.players or game.min_players
    bots = tuple(args.bots.split(","))
    config = Config(
        game=args.game,
        players=players,
        games=args.games,
        bots=bots * players if len(bots) == 1 else bots,
        seed=args.seed,
        workers=args.workers,
        budget=args.budget,
        iterations=args.iterations,
        rotate=args.rotate,
        options=option_values(game, args.option),
        breakdown=args.breakdown,
        random_actions=tuple(args.random_action),
    )
    return printed("simulate", lambda: run(config, progress=sys.stderr), render, args.json)


def printed(command: str, produce: Callable[[], Any], render: Callable[[Any], str], as_json: bool) -> int:
    """Print what ``produce`` makes, as JSON or by ``render``: 0; or its ValueError: 2."""
    try:
        report = produce()
    except ValueError as exc:
        print(f"troika-arena {command}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2, ensure_ascii=False) if as_json else render(report))
    return 0


def ladder(args: argparse.Namespace) -> int:
    from app.sim import Config
    from app.sim.ladder import ladder as run
    from app.sim.ladder import render

    entrants = args.bots.split(",")
    config = Config(
        game=args.game,
        players=2,
        games=args.games,
        bots=(),
        seed=args.seed,
        workers=args.workers,
        budget=args.budget,
        iterations=args.iterations,
    )
    return printed("ladder", lambda: run(config, entrants, progress=sys.stderr), render, args.json)


def anchor(args: argparse.Namespace) -> int:
    from app.sim import openspiel

    if not openspiel.installed():
        print("troika-arena anchor: OpenSpiel is not installed: pip install -e '.[openspiel]'", file=sys.stderr)
        return 2
    report = openspiel.match(args.game, args.bot, args.games, args.budget, args.seed, progress=sys.stderr)
    low, high = report["ci95"]
    print(
        json.dumps(report, indent=2)
        if args.json
        else f"{args.game}: {args.bot} against OpenSpiel's IS-MCTS, 2 players, {report['games']} games "
        f"(seats alternating), {args.budget} s a move each: {args.bot} wins {report['win_rate']:.3f} "
        f"[{low:.3f}, {high:.3f}] (95% interval)"
    )
    return 0


def fit_evaluation(args: argparse.Namespace) -> int:
    from app.bots import learned
    from app.sim import fit

    model = learned.model(args.game)
    games = model.FIT_GAMES if args.games is None else args.games

    def made() -> dict[str, Any]:
        out = Path(args.out) if args.out else model.WEIGHTS
        if not out.parent.is_dir():
            raise ValueError(f"--out: no folder {out.parent}")
        table = fit.fit(args.game, games, args.seed)
        try:
            fit.write(table, out)
        except OSError as exc:
            raise ValueError(f"--out: {exc}") from exc
        return table

    return printed("fit-evaluation", made, fit.render, False)


def bench_engines(args: argparse.Namespace) -> int:
    from app.sim.bench import bench_engines as run
    from app.sim.bench import render

    rows = run(args.seconds)
    print(json.dumps(rows, indent=2) if args.json else render(rows))
    return 0


def bench_server(args: argparse.Namespace) -> int:
    from app.bench.command import main as run

    return run(args.args)


def bench_footprint(args: argparse.Namespace) -> int:
    from app.bench.footprint import run

    report = run(args.database, args.rooms, args.finished, args.repeats)
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


def bench_clicks(args: argparse.Namespace) -> int:
    from app.bench.clicks import missing, render, run

    if (lacking := missing()) is not None:
        print(f"troika-arena bench clicks: {lacking}", file=sys.stderr)
        return 2
    result = run(args.clicks, args.post, args.seed)
    print(render(result))
    if args.json:
        print(json.dumps(result))
    return 0


def bench_soak(args: argparse.Namespace) -> int:
    from app.bench.soak import run

    report = run(args.database, args.minutes, args.rooms, args.spectators, args.interval, args.idle, args.bot_delay)
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


def add_simulate(commands) -> None:
    from app.bots import LEVELS
    from app.games.registry import GAMES

    p = add_command(commands, "simulate", help="play bots against each other and report win rates")
    p.add_argument("--game", required=True, choices=sorted(GAMES))
    p.add_argument("--players", type=int, help="seats (default: the game's minimum)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument(
        "--bots",
        default="strong,random",
        help=f"bot per seat, comma-separated: a level among {', '.join(LEVELS)}, "
        "optionally with its own iteration cap (strong:50); "
        "one bot fills every seat (default strong,random)",
    )
    p.add_argument("--seed", default="sim", help="run seed; game i uses '<seed>-<i>' (default sim)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--budget", type=float, default=1.0, help="seconds per bot move (default 1.0)")
    p.add_argument(
        "--iterations", type=int, help="search iterations per move; makes the run reproducible (0: policy only)"
    )
    p.add_argument("--rotate", action="store_true", help="rotate the bots round the seats from game to game")
    p.add_argument(
        "--option", type=option_pair, action="append", default=[], help="a game option, key=value (repeatable)"
    )
    p.add_argument(
        "--random-action",
        action="append",
        default=[],
        metavar="TYPE",
        help="an action type every bot picks at random, e.g. choose_leader (repeatable)",
    )
    p.add_argument(
        "--breakdown",
        action="store_true",
        help="also win rates by Leader, Leaders offered and Groups held (Vem aí a Troika)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=simulate)


def add_ladder(commands) -> None:
    from app.bots import LEVELS
    from app.games.registry import GAMES

    p = add_command(commands, "ladder", help="a round robin of bot levels at 2 players and their Elo ratings")
    p.add_argument("--game", required=True, choices=sorted(GAMES))
    p.add_argument("--games", type=int, default=100, help="games per pair, seats rotated (default 100)")
    p.add_argument(
        "--bots",
        default=",".join(LEVELS),
        help=f"the entrants, comma-separated, each a level among {', '.join(LEVELS)} optionally with its own "
        f"iteration cap (strong:50) (default {','.join(LEVELS)})",
    )
    p.add_argument("--seed", default="ladder", help="run seed (default ladder)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--budget", type=float, default=1.0, help="seconds per bot move (default 1.0)")
    p.add_argument("--iterations", type=int, help="search iterations per move; makes the ratings reproducible")
    p.add_argument("--json", action="store_true", help="print the ratings as JSON")
    p.set_defaults(func=ladder)


def add_anchor(commands) -> None:
    from app.bots import LEVELS
    from app.games.registry import GAMES

    p = add_command(commands, "anchor", help="a bot level against OpenSpiel's IS-MCTS (the openspiel extra)")
    p.add_argument("--game", required=True, choices=sorted(GAMES))
    p.add_argument("--bot", default="strong", choices=LEVELS, help="our level (default strong)")
    p.add_argument("--games", type=int, default=20, help="games, seats alternating (default 20)")
    p.add_argument("--budget", type=float, default=1.0, help="wall-clock seconds per move, each side (default 1.0)")
    p.add_argument("--seed", default="anchor", help="run seed; game i uses '<seed>-<i>' (default anchor)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=anchor)


def add_fit_evaluation(commands) -> None:
    from app.bots import learned

    p = add_command(
        commands,
        "fit-evaluation",
        help="fit a game's learned evaluation (the expert's, 2 players) to games of the rollout policy (the fit extra)",
        description="Play 2-player games with the bots' rollout policy, fit the expert's evaluation to who won "
        "them (a quarter held out, to report how well it predicts) and write its weight table.",
    )
    p.add_argument("--game", default="triatri", choices=sorted(learned.MODELS), help="default triatri")
    defaults = ", ".join(f"{learned.model(slug).FIT_GAMES} {slug}" for slug in sorted(learned.MODELS))
    p.add_argument("--games", type=int, help=f"games to play, the last quarter held out (default: {defaults})")
    p.add_argument("--seed", default="fit", help="run seed; game i uses '<seed>-<i>' (default fit)")
    p.add_argument("--out", help="the table to write (default: the one the bots read)")
    p.set_defaults(func=fit_evaluation)


def add_bench(commands) -> None:
    p = add_command(commands, "bench", help="benchmarks that print figures")
    kinds = p.add_subparsers(dest="bench", required=True)
    engines = kinds.add_parser("engines", help="random playouts per second of every game and player count")
    engines.add_argument("--seconds", type=float, default=1.0, help="time per game and player count")
    engines.add_argument("--json", action="store_true", help="print the figures as JSON")
    engines.set_defaults(func=bench_engines)
    server = kinds.add_parser(
        "server",
        add_help=False,
        prefix_chars="+",  # pass every flag on
        help="server load benchmark (its options: bench server --help)",
    )
    server.add_argument("args", nargs=argparse.REMAINDER)
    server.set_defaults(func=bench_server)
    footprint = kinds.add_parser("footprint", help="memory per idle room; restart time against finished games")
    footprint.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    footprint.add_argument("--rooms", type=int, default=500, help="idle rooms to open (default 500)")
    footprint.add_argument(
        "--finished",
        type=lambda t: tuple(int(n) for n in t.split(",")),
        default=(0, 1000, 10000),
        help="finished-game counts (default 0,1000,10000)",
    )
    footprint.add_argument("--repeats", type=int, default=3, help="restarts timed per count (default 3)")
    footprint.add_argument("--json", action="store_true", help="also print the figures as JSON")
    footprint.set_defaults(func=bench_footprint)
    clicks = kinds.add_parser("clicks", help="click to update in Chromium, on the clicker's page and a spectator's")
    clicks.add_argument("--clicks", type=int, default=200, help="clicks to time (default 200)")
    clicks.add_argument("--post", action="store_true", help="post every click as a form (no live socket)")
    clicks.add_argument("--seed", type=int, default=1, help="seed of the moves clicked (default 1)")
    clicks.add_argument("--json", action="store_true", help="also print the figures as JSON")
    clicks.set_defaults(func=bench_clicks)
    soak = kinds.add_parser("soak", help="RSS per minute while bot games are played and replaced for N minutes")
    soak.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    soak.add_argument("--minutes", type=float, default=10.0, help="length of the run (default 10)")
    soak.add_argument("--rooms", type=int, default=40, help="bot rooms kept in play (default 40)")
    soak.add_argument("--spectators", type=int, default=10, help="spectator sockets, one per room (default 10)")
    soak.add_argument("--interval", type=float, default=60.0, help="seconds between RSS samples (default 60)")
    soak.add_argument(
        "--idle", type=float, default=60.0, help="seconds without clients before the last RSS sample (default 60)"
    )
    soak.add_argument("--bot-delay", type=float, default=0.1, help="the server's BOT_DELAY_SECONDS (default 0.1)")
    soak.add_argument("--json", action="store_true", help="also print the figures as JSON")
    soak.set_defaults(func=bench_soak)


def verify(args: argparse.Namespace) -> int:
    from app.rooms.records import RecordError, verify_record

    try:
        with open(args.record, encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError) as exc:  # (no such file, not UTF-8, not JSON: nothing to verify)
        print(f"troika-arena verify: cannot read {args.record} as a JSON record: {exc}", file=sys.stderr)
        return 2
    try:
        result = verify_record(record)
    except RecordError as exc:
        print(f"NOT VERIFIED: {exc}", file=sys.stderr)
        return 1
    replayed = (
        f"verified: {result.game}, {result.players} players, {result.actions} actions replayed from the committed seed"
    )
    if result.outcome is None:
        print(f"{replayed}; the game was abandoned before its end")
        return 0
    winners = ", ".join(str(w) for w in result.outcome["winners"])
    print(f"{replayed}; scores {result.outcome['scores']}, winning seat(s) {winners}")
    return 0


def add_verify(commands) -> None:
    p = add_command(
        commands,
        "verify",
        help="replay an exported game record and check every deal and move",
        description="Replay an exported game record: check its seed against the commitment published at the "
        "start, then every deal, move and the result. Exit 0 if it verifies, 1 if it does not (the reason is "
        "printed), 2 if the file cannot be read as JSON.",
    )
    p.add_argument("record", help="a record file from GET /api/rooms/<id>/record")
    p.set_defaults(func=verify)


def add_command(commands: Any, name: str, help: str, description: str = "", **options: Any) -> Any:
    """A subcommand whose ``--help`` says what it does: ``description``, else its one-line
    ``help`` as a sentence (a command without one printed its usage alone)."""
    said = description or help[0].upper() + help[1:] + "."
    return commands.add_parser(name, help=help, description=said, **options)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="troika-arena", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)
    p_serve = add_command(
        commands,
        "serve",
        help="run the web server",
        description="Run the web server. Every other setting (DATABASE_URL, ALLOWED_HOSTS, the limits, the bots' "
        "pace) comes from the environment: see the README, Configuration.",
    )
    p_serve.add_argument("--host", help="address to bind (default: HOST or 127.0.0.1)")
    p_serve.add_argument("--port", type=port_number, help="port, 1 to 65535 (default: PORT or 8000)")
    p_serve.set_defaults(func=serve)
    p_health = add_command(
        commands,
        "health",
        help="exit 0 if the server on HOST and PORT answers /healthz",
        description="Ask the server of these settings for /healthz (the Docker image's health check): exit 0 if "
        "it answers 200, else 1 with the reason.",
    )
    p_health.add_argument("--host", help="the address the server binds, as serve's --host (default: HOST)")
    p_health.add_argument("--port", type=port_number, help="its port, as serve's --port (default: PORT or 8000)")
    p_health.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for the answer (default 2)")
    p_health.set_defaults(func=health)
    p_migrate = add_command(
        commands,
        "migrate",
        help="apply database migrations",
        description="Bring the database of DATABASE_URL to the newest schema (serve does this at start too).",
    )
    p_migrate.set_defaults(func=migrate)
    p_backup = add_command(
        commands,
        "backup",
        help="copy the SQLite database to FILE while the server runs",
        description="Copy the SQLite database of DATABASE_URL to FILE: one consistent moment, taken while the "
        "server runs (FILE is written whole or not at all). On Postgres, it says how to use pg_dump.",
    )
    p_backup.add_argument("file", help="the backup file to write (replaced whole, or left as it was)")
    p_backup.set_defaults(func=backup)
    p_restore = add_command(
        commands,
        "restore",
        help="put a backup FILE in place of the database (server stopped)",
        description="Check that FILE is a sound backup of this server, put it in place of the SQLite database of "
        "DATABASE_URL and migrate it; refused while a server runs on that database. On Postgres, it says how "
        "to use pg_restore.",
    )
    p_restore.add_argument("file", help="a file written by troika-arena backup")
    p_restore.set_defaults(func=restore)
    add_simulate(commands)
    add_ladder(commands)
    add_anchor(commands)
    add_fit_evaluation(commands)
    add_bench(commands)
    add_verify(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        settings = get_settings()  # (before the parser, whose game choices read EXTRA_GAMES)
        from app.games import registry  # noqa: F401  (loads EXTRA_GAMES: a module of a host's own may fail)
    except ValidationError as exc:
        lines = "\n".join(f"  {line}" for line in problems(exc))
        print(f"troika-arena: a setting in the environment cannot be used (see the README):\n{lines}", file=sys.stderr)
        return 2
    except GameModuleError as exc:
        print(f"troika-arena: EXTRA_GAMES={settings.extra_games!r}: {exc}", file=sys.stderr)
        return 2
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
