"""The whole experiment behind ``troika-arena bench server``.

For each target (the arena on SQLite, on Postgres, and the bare fan-out baseline) and each kind
of client (JSON sockets, or browsers' HTML sockets: ``app.bench.browser``) on this machine:
start the server, measure capacity with a closed loop over a few rooms, then sweep the room
count upwards at one move per room every ``period`` seconds, measuring latency (p50/p95/p99),
moves per second, errors, server CPU and memory per room at each step. The sweep stops early
once p95 passes ``STOP_P95_MS``; the rooms "held" are the largest count up to which every step
met the target p95. The spectator case then measures server CPU per move in one room, closed
loop, with no spectator and with ``spectators`` of them. The arena is then restarted on the
same database to time a restart. Results: one JSON document (and a PNG plot, if matplotlib is
installed); ``table`` renders the summary for docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, replace
from typing import Any

from app.bench import servers
from app.bench.load import Driver, summary

TARGET_P95_MS = 100.0
STOP_P95_MS = 1000.0
DEFAULT_PAYLOAD = 4000
SATURATION_WARMUP_S = 2.0  # unmeasured seconds before the capacity run's measured ones
SETTLE_S = 1.0  # a pause after rooms are set up, before their moves are timed


@dataclass
class Config:
    targets: tuple[str, ...] = ("sqlite", "postgres", "baseline")
    rooms: tuple[int, ...] = (50, 100, 200, 400, 600, 800, 1000)
    seconds: float = 20.0
    warmup: float = 5.0
    period: float = 5.0
    saturation_rooms: int = 50
    saturation_seconds: float = 10.0
    game: str = "vem-ai-a-troika"
    url: str | None = None  # drive an already running arena instead of starting one
    clients: tuple[str, ...] = ("json",)  # json, html (browsers), or both side by side
    spectators: int = 100  # the spectator case's spectators (0: no spectator case)
    spectator_seconds: float = 8.0


async def sweep(server: servers.Server | None, base: str, config: Config, clients: str) -> dict[str, Any]:
    """Capacity, then the room-count sweep, then the spectator case, against one running server."""
    driver = Driver(base, config.game, clients=clients)
    result: dict[str, Any] = {"steps": []}
    try:
        rss_before = server.rss_bytes() if server else 0
        await driver.grow(config.saturation_rooms)
        await asyncio.sleep(SETTLE_S)
        if server:
            result["idle_bytes_per_room"] = round((server.rss_bytes() - rss_before) / config.saturation_rooms)
        result["saturation"] = await measure(driver, server, 0.0, config.saturation_seconds, SATURATION_WARMUP_S)
        print(f"  capacity, {config.saturation_rooms} rooms closed loop: {brief(result['saturation'])}", flush=True)
        for rooms in config.rooms:
            late = await driver.grow(rooms)
            await asyncio.sleep(SETTLE_S)
            step = await measure(driver, server, config.period, config.seconds, config.warmup)
            if late:  # a room set up without its first views fails the step
                step["errors"]["set-up timeout"] = late
            result["steps"].append(step)
            print(f"  {rooms:5d} rooms: {brief(step)}", flush=True)
            if (step["p95_ms"] or 0) > STOP_P95_MS:
                break
    finally:
        await driver.close()
    result["max_rooms_at_target"] = rooms_held(result["steps"])
    if config.spectators:
        result["spectators"] = await spectator_case(server, base, config, clients)
    return result


def held_at_target(step: dict[str, Any]) -> bool:
    return step["p95_ms"] is not None and step["p95_ms"] <= TARGET_P95_MS and not step["errors"]


def rooms_held(steps: list[dict[str, Any]]) -> int:
    """The largest room count up to which every step met the target (0 if the first missed)."""
    held = 0
    for step in steps:
        if not held_at_target(step):
            break
        held = step["rooms"]
    return held


async def spectator_case(server: servers.Server | None, base: str, config: Config, clients: str) -> dict[str, Any]:
    """Server CPU per move in one room of seated sockets, closed loop, without spectators and
    with ``config.spectators`` (of the same kind of client), each move reaching them all."""
    out: dict[str, Any] = {}
    for watching in (0, config.spectators):
        await quiet(server)
        driver = Driver(base, config.game, clients=clients, spectators=watching)
        try:
            if await driver.grow(1):
                raise RuntimeError("the spectator case's room had no first view in time, on a quiet server")
            await asyncio.sleep(SETTLE_S / 2)
            step = await measure(driver, server, 0.0, config.spectator_seconds, 0.0)
        finally:
            await driver.close()
        cpu = step.get("server_cpu_s")
        per_move = None if cpu is None or not step["moves"] else round(cpu / step["moves"] * 1000, 2)
        out[str(watching)] = {
            "moves": step["moves"],
            "moves_per_second": step["moves_per_second"],
            "server_cpu_ms_per_move": per_move,
            "errors": step["errors"],
        }
    none, some = out["0"]["server_cpu_ms_per_move"], out[str(config.spectators)]["server_cpu_ms_per_move"]
    out["ratio"] = ratio(some, none) if none and some else None
    print(f"  spectators: {spectator_cell(out)}", flush=True)
    return out


QUIET_CPU_SHARE = 0.05  # the server is quiet once it uses less than this of a core...
QUIET_WINDOW_S = 1.0  # ...over this long
QUIET_LIMIT_S = 120.0


async def quiet(server: servers.Server | None) -> None:
    """Wait (at most ``QUIET_LIMIT_S``) until the server has worked off what the step before
    left it: after a collapsed sweep step it can take many seconds to answer the thousands of
    moves and socket closes still queued, and a room opened meanwhile got no first view in time."""
    if server is None:
        return
    deadline = time.monotonic() + QUIET_LIMIT_S
    while time.monotonic() < deadline:
        before = server.cpu_seconds()
        await asyncio.sleep(QUIET_WINDOW_S)
        if server.cpu_seconds() - before < QUIET_CPU_SHARE * QUIET_WINDOW_S:
            return
    print(f"  the server was still busy after {QUIET_LIMIT_S:.0f} s; measuring anyway", flush=True)


async def measure(
    driver: Driver, server: servers.Server | None, period: float, seconds: float, warmup: float
) -> dict[str, Any]:
    cpu_before = server.cpu_seconds() if server else 0.0
    client_before = time.process_time()
    began = time.monotonic()
    tally = await driver.run(period, seconds, warmup)
    elapsed = time.monotonic() - began
    step = {"rooms": len(driver.rooms), "period_s": period, **summary(tally, seconds)}
    step["client_cpu_percent"] = round((time.process_time() - client_before) / elapsed * 100, 1)
    if server:
        cpu = server.cpu_seconds() - cpu_before
        step["server_cpu_s"] = round(cpu, 3)
        step["server_cpu_ms_per_move"] = round(cpu / step["moves"] * 1000, 3) if step["moves"] else None
        step["server_cpu_percent"] = round(cpu / elapsed * 100, 1)
        step["server_cpu_ms_per_room_s"] = round(cpu / elapsed / len(driver.rooms) * 1000, 3)
        step["server_rss_mb"] = round(server.rss_bytes() / 2**20, 1)
        step["server_rss_kb_per_room"] = round(server.rss_bytes() / 1024 / len(driver.rooms), 1)
    step["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return step


def brief(step: dict[str, Any]) -> str:
    return (
        f"p50 {step['p50_ms']} ms, p95 {step['p95_ms']} ms, p99 {step['p99_ms']} ms, "
        f"{step['moves_per_second']} moves/s, errors {step['errors'] or 0}, "
        f"server CPU {step.get('server_cpu_percent')}%, client CPU {step['client_cpu_percent']}%"
    )


def run_loop(coroutine):
    try:
        import uvloop

        return uvloop.run(coroutine)
    except ImportError:
        return asyncio.run(coroutine)


def run_arena(kind: str, config: Config, clients: str) -> dict[str, Any]:
    print(f"arena on {kind}, {clients} clients", flush=True)
    with servers.database(kind) as url:
        with servers.arena(url) as server:
            result = run_loop(sweep(server, server.base, config, clients))
            result["first_start_s"] = round(server.started_in, 2)
        with servers.arena(url) as server:
            result["restart_s"] = round(server.started_in, 2)
    return result


def run_baseline(payload_bytes: int, config: Config, clients: str) -> dict[str, Any]:
    print(f"bare fan-out baseline, {clients} clients ({payload_bytes} bytes a message)", flush=True)
    with servers.baseline(payload_bytes) as server:
        result = run_loop(sweep(server, server.base, replace(config, spectators=0), clients))
    result["payload_bytes"] = payload_bytes
    return result


def runs(config: Config) -> list[tuple[str, str]]:
    """(target, clients) pairs in order: a target given as ``kind:clients`` (``postgres:json``)
    runs with those clients only, any other with each of ``config.clients``."""
    out = []
    for target in config.targets:
        kind, _, only = target.partition(":")
        out += [(kind, clients) for clients in ((only,) if only else config.clients)]
    return out


def run(config: Config) -> dict[str, Any]:
    """Every target with every kind of client in turn; returns the JSON document of the run.
    Targets are keyed ``kind/clients`` (``sqlite/html``); the baseline's message has the size
    of the mean message the arena sent the same kind of client before it."""
    report: dict[str, Any] = {
        "format": "troika-arena-bench-server/2",
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"cpus": os.cpu_count(), "load_average_before": list(os.getloadavg())},
        "config": dict(vars(config)),
        "targets": {},
    }
    if config.url:
        print(f"arena at {config.url}", flush=True)
        for clients in config.clients:
            report["targets"][f"url/{clients}"] = run_loop(sweep(None, config.url, config, clients))
        return report
    payload: dict[str, int] = {}
    for kind, clients in runs(config):
        if kind == "baseline":
            result = run_baseline(payload.get(clients, DEFAULT_PAYLOAD), config, clients)
        else:
            result = run_arena(kind, config, clients)
            payload[clients] = result["saturation"]["mean_message_bytes"] or DEFAULT_PAYLOAD
        report["targets"][f"{kind}/{clients}"] = result
    report["ratios"] = ratios(report["targets"])
    report["machine"]["load_average_after"] = list(os.getloadavg())
    return report


def ratios(targets: dict[str, Any]) -> dict[str, Any]:
    """Each arena target against the baseline with the same clients: capacity and rooms held."""
    out = {}
    for key, result in targets.items():
        kind, _, clients = key.partition("/")
        base = targets.get(f"baseline/{clients}")
        if kind == "baseline" or not base:
            continue
        out[key] = {
            "saturation_moves_per_second": ratio(
                result["saturation"]["moves_per_second"], base["saturation"]["moves_per_second"]
            ),
            "max_rooms_at_target": ratio(result["max_rooms_at_target"], base["max_rooms_at_target"]),
        }
    return out


def spectator_cell(case: dict[str, Any] | None) -> str:
    if not case:
        return "-"
    watching = next(k for k in case if k not in ("0", "ratio"))
    return (
        f"{case['0']['server_cpu_ms_per_move']} ms / {case[watching]['server_cpu_ms_per_move']} ms "
        f"with {watching} ({case['ratio']}x)"
    )


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def table(report: dict[str, Any]) -> str:
    """A Markdown table of the run's headline figures."""
    rows = [
        "| target / clients | rooms held at p95 <= 100 ms (every step up to it) | capacity (moves/s, "
        "closed loop) | ratio to bare fan-out (capacity) | spectators: CPU per move, none / "
        "with them (ratio) | idle memory per room | restart |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for key, result in report["targets"].items():
        r = report.get("ratios", {}).get(key, {})
        idle = result.get("idle_bytes_per_room")
        rows.append(
            f"| {key} | {result['max_rooms_at_target']} | {result['saturation']['moves_per_second']} | "
            f"{r.get('saturation_moves_per_second', '-') if not key.startswith('baseline') else 1} | "
            f"{spectator_cell(result.get('spectators'))} | "
            f"{'-' if idle is None else f'{idle / 1024:.1f} KB'} | "
            f"{result.get('restart_s', '-')} s |"
        )
    return "\n".join(rows)
