"""``troika-arena bench server``: its options and what it runs."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from app.bench.plot import plot
from app.bench.sweep import Config, run, table


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def numbers(text: str) -> tuple[int, ...]:
    return tuple(positive(n) for n in text.split(","))


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--targets",
        default="sqlite,postgres,baseline",
        help="comma-separated among sqlite, postgres, baseline (default: all three); "
        "kind:clients (postgres:json) runs that target with those clients only",
    )
    p.add_argument(
        "--clients",
        default="json",
        help="json (programs' sockets), html (browsers' sockets, read as htmx reads them, each "
        "click sent over the page's socket), html-post (the same, each click a form post, as a "
        "page without a live socket) or several, comma-separated: each target with each, side "
        "by side (default json)",
    )
    p.add_argument(
        "--spectators",
        type=int,
        default=Config.spectators,
        help="spectators of the spectator case (CPU per move in one room, against none; 0: skip)",
    )
    p.add_argument(
        "--spectator-seconds",
        type=float,
        default=Config.spectator_seconds,
        help="measured seconds of each half of the spectator case",
    )
    p.add_argument(
        "--rooms",
        type=numbers,
        default=Config.rooms,
        help="room counts to sweep, comma-separated (default 50,...,1000)",
    )
    p.add_argument("--step-seconds", type=float, default=Config.seconds, help="measured seconds per step")
    p.add_argument("--warmup", type=float, default=Config.warmup, help="unmeasured seconds per step")
    p.add_argument("--period", type=float, default=Config.period, help="seconds between a room's moves")
    p.add_argument(
        "--saturation-rooms",
        type=positive,
        default=Config.saturation_rooms,
        help="rooms in the closed-loop capacity run",
    )
    p.add_argument(
        "--saturation-seconds",
        type=float,
        default=Config.saturation_seconds,
        help="measured seconds of the closed-loop capacity run",
    )
    p.add_argument("--url", help="drive an arena already running at this URL instead")
    p.add_argument("--out", type=Path, default=Path("bench-results"), help="folder for JSON and PNG")


def server_bench(args: argparse.Namespace) -> int:
    if not set(args.clients.split(",")) <= {"json", "html", "html-post"}:
        print("--clients: json, html, html-post, or several of them, comma-separated")
        return 2
    config = Config(
        targets=tuple(args.targets.split(",")),
        rooms=args.rooms,
        seconds=args.step_seconds,
        warmup=args.warmup,
        period=args.period,
        saturation_rooms=args.saturation_rooms,
        saturation_seconds=args.saturation_seconds,
        url=args.url,
        clients=tuple(args.clients.split(",")),
        spectators=args.spectators,
        spectator_seconds=args.spectator_seconds,
    )
    report = run(config)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "server.json").write_text(json.dumps(report, indent=2))
    drawn = plot(report, args.out / "server.png")
    print(table(report))
    print(f"results: {args.out / 'server.json'}" + (f", plot: {args.out / 'server.png'}" if drawn else ""))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="troika-arena bench server")
    add_options(parser)
    return server_bench(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
