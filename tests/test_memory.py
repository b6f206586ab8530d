"""Memory is bounded by what is in play: after many finished games whose sockets have closed,
every per-room structure of the server holds the rooms still in play and at most a few finished
ones (games, room facts), or nothing at all (locks, presence and chat, watcher tasks, chat
rate-limit records once their window has passed, bus subscriptions). ``troika-arena bench soak``
shows the same from outside (docs/benchmarks.md); its smoke run is here too."""

from __future__ import annotations

import asyncio
import gc
import random
import time
import tracemalloc

import pytest

from app.bench import soak
from app.games.troika import score
from app.realtime.bus import EventBus
from app.realtime.cache import Held, RoomCache
from app.realtime.locks import RoomLocks
from tests.conftest import auth, create_started_room, running_app

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

FINISHED = 8


async def bot_room(client, game: str = "triatri") -> tuple[str, str]:
    """A started room whose every seat a random bot plays (the host hands its own over)."""
    created = (await client.post("/api/rooms", json={"game": game, "seats": 2, "name": "Host"})).json()
    room_id, token = created["room"]["id"], created["token"]
    assert (await client.post(f"/api/rooms/{room_id}/seats", json={"bot": "random"}, headers=auth(token))).is_success
    assert (
        await client.put(f"/api/rooms/{room_id}/seats/me/autopilot", json={"bot": "random"}, headers=auth(token))
    ).is_success
    assert (await client.post(f"/api/rooms/{room_id}/start", headers=auth(token))).is_success
    return room_id, token


async def watch_to_the_end(app, room_id: str) -> None:
    """What a seat's socket and a spectator's socket hold while a game is played (as
    app.web.live does): a subscription, presence, both seats' payloads and the chat; the host
    also chats once. The sockets close when the game ends."""
    rooms, social, payloads = app.state.rooms, app.state.social, app.state.payloads
    with rooms.bus.subscribe(room_id) as subscription:
        await social.connected(room_id, 0)
        await social.post(room_id, 0, "good luck")
        while (await rooms.room(room_id)).status == "playing":
            await payloads.text(room_id, 0)
            await payloads.text(room_id, None)
            await social.messages(room_id)
            await asyncio.wait_for(subscription.next(), 30)
        await payloads.text(room_id, None)
        await social.disconnected(room_id, 0)


async def test_finished_games_are_let_go_and_the_rooms_in_play_kept(sqlite_url, monkeypatch):
    monkeypatch.setattr("app.rooms.live_games.ENDED_GAMES_HELD", 2)
    monkeypatch.setattr("app.rooms.live_games.ENDED_ROOMS_HELD", 3)
    async with running_app(sqlite_url, bot_delay_seconds=0) as client:
        app = client.app
        rooms, social, bus = app.state.rooms, app.state.social, app.state.bus
        in_play, tokens = await create_started_room(client, seats=2)  # two people, still playing
        await client.get(f"/api/rooms/{in_play}/view", headers=auth(tokens[0]))
        finished = []
        for _ in range(FINISHED):
            room_id, _token = await bot_room(client)
            await watch_to_the_end(app, room_id)
            finished.append(room_id)
        await asyncio.sleep(0.1)  # the bots' and timers' last pokes run out
        assert {(await rooms.room(r)).status for r in finished} == {"finished"}
        # (Inside on purpose: this test bounds each per-room structure itself; no public seam counts them.)
        # Held: the room in play, and at most the few finished ones read last.
        assert in_play in rooms._games and len(rooms._games) <= 1 + 2
        assert in_play in rooms._infos._values and len(rooms._infos._values) <= 1 + 3
        # Nothing is held for a finished room whose sockets have closed.
        assert len(rooms._locks) == 0
        for cache in (social._present, social._chat):  # (the room in play was read once unwatched)
            assert not any(room_id in cache._values for room_id in finished)
        assert not bus._subscribers
        assert app.state.bots._tasks == {} and app.state.timers._tasks == {}
        # Rate-limit records (the limits library's memory storages) expire with their window.
        chats = social.throttle._limiters["chat"].storage  # (moving windows: each call's time)
        creations = social.throttle._limiters["rooms"].storage
        assert len(chats.events) >= FINISHED and creations.events  # each host's chat line, the rooms ...
        later = time.time() + 3 * 3600
        monkeypatch.setattr("limits.aio.storage.memory.time.time", lambda: later)  # (three hours on)
        await social.throttle.chatting("another room", 0)  # a hit runs its storage's expiry
        await social.throttle.creating_room("198.51.100.7")
        for _ in range(50):
            await asyncio.sleep(0.01)
        assert chats.events and all("another room" in key for key in chats.events)  # ... gone
        assert creations.events and all("198.51.100.7" in key for key in creations.events)
        # A finished room let go is rebuilt from its log when asked for.
        view = (await client.get(f"/api/rooms/{finished[0]}/view")).json()
        assert view["status"] == "finished" and view["outcome"] is not None


def test_held_keeps_rooms_in_play_and_only_the_latest_others():
    held: Held[str] = Held(spare=2, limit=100)
    for n in range(5):
        held.put(f"play{n}", "game", in_play=True)
        held.put(f"done{n}", "game", in_play=False)
    rooms = [f"{kind}{n}" for kind in ("play", "done") for n in range(5)]
    assert [r for r in rooms if r in held] == ["play0", "play1", "play2", "play3", "play4", "done3", "done4"]
    held.let_go("play0")  # its game ended: the oldest spare one goes
    assert [r for r in rooms if r in held] == ["play0", "play1", "play2", "play3", "play4", "done4"]
    held.let_go("play1")
    held.let_go("play2")
    assert [r for r in rooms if r in held] == ["play1", "play2", "play3", "play4"]
    assert len(held) == 4


async def test_a_room_cache_lets_a_watched_value_go_when_its_last_socket_closes():
    bus = EventBus()
    presence: RoomCache[str] = RoomCache(bus, social=True, spare=0)

    async def load() -> str:
        return "seats"

    with bus.subscribe("r"), bus.subscribe("r"):
        assert await presence.get("r", load) == "seats"
        assert presence.peek("r") == "seats"  # kept while watched
    assert presence.peek("r") is None  # the last socket closed
    assert await presence.get("unwatched", load) == "seats" and presence.peek("unwatched") is None


async def test_a_rooms_lock_lives_only_while_held_or_awaited():
    locks, order = RoomLocks(), []

    async def change(n: int) -> None:
        async with locks.hold("r"):
            order.append(("in", n))
            await asyncio.sleep(0.01)
            order.append(("out", n))

    await asyncio.gather(*(change(n) for n in range(3)))
    assert order == [("in", 0), ("out", 0), ("in", 1), ("out", 1), ("in", 2), ("out", 2)]  # one at a time
    assert len(locks) == 0
    with pytest.raises(RuntimeError):
        async with locks.hold("r"):
            raise RuntimeError("a failed change")
    assert len(locks) == 0


def test_the_soak_benchmark_runs(capsys):
    report = soak.run("sqlite", minutes=0.1, rooms=2, spectators=1, interval=2, idle=0.5, bot_delay=0.0)
    assert report["format"] == "troika-arena-bench-soak/1"
    assert report["samples"][0]["minute"] == 0 and len(report["samples"]) >= 2
    assert all(row["rss_mb"] > 0 for row in report["samples"]) and report["rss_mb_after_idle"] > 0
    assert report["errors"] == {}
    assert "games finished" in capsys.readouterr().out


def test_the_troika_split_search_keeps_a_small_cache_once_full():
    """The soak's last slow rise (issue 28, point 9): Troika's split search kept up to 65,536
    subproblems, ~20 MB that took a few thousand games to fill (a game adds about 25), so
    memory still rose by a few KB per finished game after half an hour. It keeps 4,096 now:
    full after a few hundred games, at about 1.3 MB."""
    rng = random.Random(28)
    score._search.cache_clear()  # (private: the bound under test is this cache's own size)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(3000):  # players' tiles at the end of a round: a hand and a container
            tiles = rng.sample([v for v in range(1, 16) for _ in range(3)], rng.randint(6, 14))
            score.best_split(tiles)
            score.can_leave(tiles[:3], tiles[3:])
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert score._search.cache_info().currsize == score._search.cache_info().maxsize == 4096
    assert held < 2 * 2**20, held
