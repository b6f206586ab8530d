"""Memory over a long run: ``troika-arena bench soak``.

The arena is started on a fresh SQLite file (or Postgres) and kept busy for ``minutes``: a
fixed number of rooms is in play at all times, each seated with random bots only (the host
hands its own seat to a bot too), and each is replaced by a new room as soon as its game ends.
The first ``spectators`` rooms in play are each watched by a spectator socket, which follows its
slot from room to room. The server's resident memory (RSS) is printed every ``interval`` seconds
with the number of games finished so far; after the run, the clients stop, the games still in
play run out, and RSS is taken once more after ``idle`` seconds. If memory is bounded by what
is in play, RSS levels off while the finished-game count keeps growing.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

from app.bench import servers
from app.games.registry import GAMES

GAMES_PLAYED = tuple(GAMES)


class Counts:
    def __init__(self) -> None:
        self.finished = 0
        self.errors: dict[str, int] = {}

    def error(self, exc: BaseException) -> None:
        name = type(exc).__name__
        self.errors[name] = self.errors.get(name, 0) + 1


async def open_bot_room(http: httpx.AsyncClient, slug: str) -> str:
    """A started room of ``slug`` at its minimum seat count, every seat played by a random bot."""
    seats = GAMES[slug].min_players
    created = (await http.post("/api/rooms", json={"game": slug, "seats": seats, "name": "Host"})).raise_for_status()
    room_id, host = created.json()["room"]["id"], {"authorization": f"Bearer {created.json()['token']}"}
    for _ in range(1, seats):
        (await http.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=host)).raise_for_status()
    autopilot = await http.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": "random"}, headers=host)
    autopilot.raise_for_status()
    (await http.post(f"/api/rooms/{room_id}/start", headers=host)).raise_for_status()
    return room_id


async def until_finished(http: httpx.AsyncClient, room_id: str, poll: float) -> None:
    while (await http.get(f"/api/rooms/{room_id}")).raise_for_status().json()["status"] == "playing":
        await asyncio.sleep(poll)


async def watch_until_finished(base: str, room_id: str) -> None:
    """A spectator's socket (JSON events) on the room until its game ends."""
    url = base.replace("http", "ws", 1) + f"/ws/rooms/{room_id}?format=json"
    async with connect(url, additional_headers={"Origin": base}) as ws:
        async for message in ws:
            if orjson.loads(message)["event"] == "end":
                return


async def slot(
    http: httpx.AsyncClient, base: str, games: itertools.cycle, spectated: bool, poll: float, counts: Counts
) -> None:
    """One room in play at a time, replaced when its game ends (or when setting it up failed)."""
    while True:
        try:
            room_id = await open_bot_room(http, next(games))
            if spectated:
                await watch_until_finished(base, room_id)
            await until_finished(http, room_id, poll)
            counts.finished += 1
        except (httpx.HTTPError, OSError, ValueError) as exc:  # counted; the slot carries on
            counts.error(exc)
            await asyncio.sleep(poll)


def rss_mb(server: servers.Server) -> float:
    return round(server.rss_bytes() / 2**20, 1)


async def drive(
    server: servers.Server, rooms: int, spectators: int, seconds: float, interval: float, idle: float, poll: float
) -> dict[str, Any]:
    counts = Counts()
    games = itertools.cycle(GAMES_PLAYED)
    samples = [{"minute": 0.0, "rss_mb": rss_mb(server), "games_finished": 0}]
    print(f"  {0:5.1f} min  RSS {samples[0]['rss_mb']:6.1f} MB  {0:6d} games finished", flush=True)
    # Idle connections are dropped before the server's 5 s keep-alive ends: a connection the
    # server is closing just as the client reuses it would fail the call (counted in errors).
    limits = httpx.Limits(max_connections=rooms + 10, keepalive_expiry=3)
    async with httpx.AsyncClient(base_url=server.base, timeout=30, limits=limits) as http:
        tasks = [
            asyncio.create_task(slot(http, server.base, games, n < spectators, poll, counts)) for n in range(rooms)
        ]
        began = time.monotonic()
        try:
            while (elapsed := time.monotonic() - began) < seconds:
                await asyncio.sleep(min(interval, seconds - elapsed))
                row = {
                    "minute": round((time.monotonic() - began) / 60, 2),
                    "rss_mb": rss_mb(server),
                    "games_finished": counts.finished,
                }
                samples.append(row)
                print(
                    f"  {row['minute']:5.1f} min  RSS {row['rss_mb']:6.1f} MB  "
                    f"{row['games_finished']:6d} games finished",
                    flush=True,
                )
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(idle)  # the games left in play run out; their sockets are closed
    after_idle = rss_mb(server)
    print(
        f"  after {idle:.0f} s with no client: RSS {after_idle:.1f} MB; "
        f"{counts.finished} games finished, client errors: {counts.errors or 'none'}",
        flush=True,
    )
    return {
        "samples": samples,
        "games_finished": counts.finished,
        "errors": counts.errors,
        "rss_mb_after_idle": after_idle,
    }


def run(
    kind: str = "sqlite",
    minutes: float = 10,
    rooms: int = 40,
    spectators: int = 10,
    interval: float = 60,
    idle: float = 60,
    bot_delay: float = 0.1,
    poll: float = 1.0,
) -> dict[str, Any]:
    print(f"soak ({kind}): {rooms} bot rooms in play, {spectators} spectators, {minutes} min", flush=True)
    env = {
        "LOG_LEVEL": "warning",
        "BOT_DELAY_SECONDS": str(bot_delay),
        "BOT_BUDGET_SECONDS": "0.05",
        "ROOM_CREATION_LIMIT": "1000000/minute",
    }  # every room comes from this one address
    with servers.database(kind) as url, servers.process("app.main:app", {**env, "DATABASE_URL": url}) as server:
        result = asyncio.run(drive(server, rooms, min(spectators, rooms), minutes * 60, interval, idle, poll))
        marks = ("ERROR", "Traceback", "unexpected error")
        trouble = [line for line in server.output().splitlines() if any(mark in line for mark in marks)]
    print(f"  server log: {len(trouble)} error lines" + (f", the first: {trouble[0]}" if trouble else ""), flush=True)
    return {
        "format": "troika-arena-bench-soak/1",
        "database": kind,
        "rooms": rooms,
        "spectators": spectators,
        "minutes": minutes,
        "bot_delay_s": bot_delay,
        **result,
        "server_error_lines": len(trouble),
    }
