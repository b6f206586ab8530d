"""What rooms cost when nobody plays: ``troika-arena bench footprint``.

Memory per idle room: the arena is started on a fresh database, ``rooms`` games of 4 seats are
created, started and viewed once (so each game is rebuilt and held in memory), with no socket
open, and the server's resident memory growth is divided by the room count.

Restart time against finished games: for each count, a fresh database is filled with that many
finished games (real games played to the end by random players, copied under new room ids,
each with its seats and full action log), and the time from launching the server until it
answers /healthz is taken (median of ``repeats``), together with the first view of one finished
room (which is rebuilt from its log only when someone asks for it).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import httpx

from app.bench import servers
from app.config import Settings
from app.games.registry import GAMES
from app.rooms.records import seed_hash
from app.rooms.storage import add_finished_games
from app.sim.bench import random_game

SAMPLE_GAMES = 10


def played_games(game_slug: str, players: int, count: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """``count`` games played to the end by uniform random players: (seed, [action records])."""
    games = []
    for n in range(count):
        seed = f"footprint-{n}"
        log = random_game(GAMES[game_slug], players, seed, random.Random(n))
        games.append((seed, [{"seq": i, "seat": seat, "action": action} for i, (seat, action) in enumerate(log, 1)]))
    return games


def fill(database_url: str, finished: int, game_slug: str = "vem-ai-a-troika", players: int = 2) -> None:
    """Add ``finished`` finished games to a migrated database, in bulk."""
    samples = played_games(game_slug, players, SAMPLE_GAMES)
    games = []
    for n in range(finished):
        seed, log = samples[n % len(samples)]
        games.append((f"f{n:07d}", game_slug, seed, seed_hash(seed), players, log))
    add_finished_games(Settings(database_url=database_url).sync_database_url(), games)


def restart_times(kind: str, counts: tuple[int, ...], repeats: int) -> list[dict[str, Any]]:
    results = []
    for finished in counts:
        with servers.database(kind) as url:
            with servers.arena(url):
                pass  # the first start applies the migrations
            fill(url, finished)
            starts, first_views = [], []
            for _ in range(repeats):
                with servers.arena(url) as server:
                    starts.append(server.started_in)
                    if finished:
                        began = time.monotonic()
                        httpx.get(f"{server.base}/api/rooms/f{finished - 1:07d}/view").raise_for_status()
                        first_views.append(time.monotonic() - began)
        row = {
            "finished_games": finished,
            "restart_s": round(statistics.median(starts), 2),
            "first_view_of_a_finished_room_ms": round(statistics.median(first_views) * 1000, 1)
            if first_views
            else None,
        }
        print(f"  {finished:6d} finished games: restart {row['restart_s']} s", flush=True)
        results.append(row)
    return results


def idle_memory(kind: str, rooms: int, game_slug: str = "vem-ai-a-troika") -> dict[str, Any]:
    with (
        servers.database(kind) as url,
        servers.arena(url) as server,
        httpx.Client(base_url=server.base, timeout=30) as http,
    ):
        open_room(http, game_slug)  # the first room warms caches and imports
        time.sleep(0.5)
        before = server.rss_bytes()
        for _ in range(rooms):
            open_room(http, game_slug)
        time.sleep(0.5)
        grown = server.rss_bytes() - before
    return {"rooms": rooms, "rss_growth_bytes": grown, "bytes_per_idle_room": round(grown / rooms)}


def open_room(http: httpx.Client, game_slug: str, seats: int = 4) -> None:
    created = http.post("/api/rooms", json={"game": game_slug, "seats": seats, "name": "P0"}).json()
    room_id, token = created["room"]["id"], created["token"]
    for n in range(1, seats):
        http.post(f"/api/rooms/{room_id}/seats", json={"name": f"P{n}"}).raise_for_status()
    http.post(f"/api/rooms/{room_id}/start", headers={"authorization": f"Bearer {token}"}).raise_for_status()
    http.get(f"/api/rooms/{room_id}/view").raise_for_status()


def run(kind: str, rooms: int, counts: tuple[int, ...], repeats: int) -> dict[str, Any]:
    print(f"memory per idle room ({kind}, {rooms} rooms)", flush=True)
    idle = idle_memory(kind, rooms)
    print(f"  {idle['bytes_per_idle_room'] / 1024:.1f} KB per idle room", flush=True)
    print(f"restart time against finished games ({kind})", flush=True)
    return {
        "format": "troika-arena-bench-footprint/1",
        "database": kind,
        "idle": idle,
        "restart": restart_times(kind, counts, repeats),
    }
