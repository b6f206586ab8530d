"""The whole experiment behind ``troika-arena bench server``.

For each target (the arena on SQLite, on Postgres, and the bare fan-out baseline) on this
machine: start the server, measure capacity with a closed loop over a few rooms, then sweep
the room count upwards at one move per room every ``period`` seconds, measuring latency
(p50/p95/p99), moves per second, errors, server CPU and memory per room at each step. The
sweep stops early once p95 passes ``STOP_P95_MS``. The arena is then restarted on the same
database to time a restart. Results: one JSON document (and a PNG plot, if matplotlib is
installed); ``table`` renders the summary for docs/benchmarks.md.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from typing import Any

from app.bench import servers
from app.bench.load import Driver, summary

TARGET_P95_MS = 100.0
STOP_P95_MS = 1000.0
DEFAULT_PAYLOAD = 4000


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


def load_average() -> float:
    return os.getloadavg()[0]


async def sweep(server: servers.Server | None, base: str, config: Config) -> dict[str, Any]:
    """Capacity, then the room-count sweep, against one running server."""
    driver = Driver(base, config.game)
    result: dict[str, Any] = {"steps": []}
    try:
        rss_before = server.rss_bytes() if server else 0
        await driver.grow(config.saturation_rooms)
        await asyncio.sleep(1.0)
        if server:
            result["idle_bytes_per_room"] = round((server.rss_bytes() - rss_before) / config.saturation_rooms)
        result["saturation"] = await measure(driver, server, 0.0, config.saturation_seconds, 2.0)
        for rooms in config.rooms:
            await driver.grow(rooms)
            await asyncio.sleep(1.0)
            step = await measure(driver, server, config.period, config.seconds, config.warmup)
            result["steps"].append(step)
            print(f"  {rooms:5d} rooms: {brief(step)}", flush=True)
            if (step["p95_ms"] or 0) > STOP_P95_MS:
                break
    finally:
        await driver.close()
    held = [s["rooms"] for s in result["steps"] if held_at_target(s)]
    result["max_rooms_at_target"] = max(held, default=0)
    return result


def held_at_target(step: dict[str, Any]) -> bool:
    return step["p95_ms"] is not None and step["p95_ms"] <= TARGET_P95_MS and not step["errors"]


async def measure(driver: Driver, server: servers.Server | None, period: float, seconds: float,
                  warmup: float) -> dict[str, Any]:
    cpu_before = server.cpu_seconds() if server else 0.0
    client_before = time.process_time()
    began = time.monotonic()
    tally = await driver.run(period, seconds, warmup)
    elapsed = time.monotonic() - began
    step = {"rooms": len(driver.rooms), "period_s": period, **summary(tally, seconds)}
    step["client_cpu_percent"] = round((time.process_time() - client_before) / elapsed * 100, 1)
    if server:
        cpu = server.cpu_seconds() - cpu_before
        step["server_cpu_percent"] = round(cpu / elapsed * 100, 1)
        step["server_cpu_ms_per_room_s"] = round(cpu / elapsed / len(driver.rooms) * 1000, 3)
        step["server_rss_mb"] = round(server.rss_bytes() / 2**20, 1)
        step["server_rss_kb_per_room"] = round(server.rss_bytes() / 1024 / len(driver.rooms), 1)
    step["load_average"] = round(load_average(), 2)
    return step


def brief(step: dict[str, Any]) -> str:
    return (f"p50 {step['p50_ms']} ms, p95 {step['p95_ms']} ms, p99 {step['p99_ms']} ms, "
            f"{step['moves_per_second']} moves/s, errors {step['errors'] or 0}, "
            f"server CPU {step.get('server_cpu_percent')}%, client CPU {step['client_cpu_percent']}%")


def run_loop(coroutine):
    try:
        import uvloop

        return uvloop.run(coroutine)
    except ImportError:
        return asyncio.run(coroutine)


def run_arena(kind: str, config: Config) -> dict[str, Any]:
    print(f"arena on {kind}", flush=True)
    with servers.database(kind) as url:
        with servers.arena(url) as server:
            result = run_loop(sweep(server, server.base, config))
            result["first_start_s"] = round(server.started_in, 2)
        with servers.arena(url) as server:
            result["restart_s"] = round(server.started_in, 2)
    return result


def run_baseline(payload_bytes: int, config: Config) -> dict[str, Any]:
    print(f"bare fan-out baseline ({payload_bytes} bytes a message)", flush=True)
    with servers.baseline(payload_bytes) as server:
        result = run_loop(sweep(server, server.base, config))
    result["payload_bytes"] = payload_bytes
    return result


def run(config: Config) -> dict[str, Any]:
    """Every target in turn; returns the JSON document of the run."""
    report: dict[str, Any] = {
        "format": "troika-arena-bench-server/1",
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"cpus": os.cpu_count(), "load_average_before": round(load_average(), 2)},
        "config": dict(vars(config)),
        "targets": {},
    }
    if config.url:
        print(f"arena at {config.url}", flush=True)
        report["targets"]["url"] = run_loop(sweep(None, config.url, config))
        return report
    payload = DEFAULT_PAYLOAD
    for kind in config.targets:
        if kind == "baseline":
            report["targets"]["baseline"] = run_baseline(payload, config)
        else:
            report["targets"][kind] = run_arena(kind, config)
            payload = report["targets"][kind]["saturation"]["mean_message_bytes"] or payload
    report["ratios"] = ratios(report["targets"])
    report["machine"]["load_average_after"] = round(load_average(), 2)
    return report


def ratios(targets: dict[str, Any]) -> dict[str, Any]:
    """Each arena target against the baseline: capacity and rooms held."""
    base = targets.get("baseline")
    if not base:
        return {}
    out = {}
    for kind, result in targets.items():
        if kind == "baseline":
            continue
        out[kind] = {
            "saturation_moves_per_second": ratio(result["saturation"]["moves_per_second"],
                                                 base["saturation"]["moves_per_second"]),
            "max_rooms_at_target": ratio(result["max_rooms_at_target"], base["max_rooms_at_target"]),
        }
    return out


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def table(report: dict[str, Any]) -> str:
    """A Markdown table of the run's headline figures."""
    rows = ["| target | rooms held at p95 <= 100 ms | capacity (moves/s, closed loop) | "
            "ratio to bare fan-out (capacity) | idle memory per room | restart |",
            "| --- | --- | --- | --- | --- | --- |"]
    for kind, result in report["targets"].items():
        r = report.get("ratios", {}).get(kind, {})
        idle = result.get("idle_bytes_per_room")
        rows.append(
            f"| {kind} | {result['max_rooms_at_target']} | {result['saturation']['moves_per_second']} | "
            f"{r.get('saturation_moves_per_second', '-') if kind != 'baseline' else 1} | "
            f"{'-' if idle is None else f'{idle / 1024:.1f} KB'} | "
            f"{result.get('restart_s', '-')} s |"
        )
    return "\n".join(rows)
