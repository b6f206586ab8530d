"""The per-room cache in front of the database: one load for concurrent readers, dropped by
every bus delivery for its room that concerns it and by a relay resync, never keeping a load
that a change overtook, and never caching a failure."""

from __future__ import annotations

import asyncio

import pytest

from app.realtime.bus import SOCIAL, EventBus
from app.realtime.cache import RoomCache


class Loader:
    """A load that counts its calls and returns the database's value at the moment it ends."""

    def __init__(self) -> None:
        self.calls = 0
        self.value = "v1"
        self.gate = asyncio.Event()
        self.gate.set()

    async def __call__(self) -> str:
        self.calls += 1
        await self.gate.wait()
        return self.value


async def reader_held_at_the_gate(cache: RoomCache[str], load: Loader) -> asyncio.Task:
    """A reader of room "r" whose load has started and waits at the gate."""
    load.gate.clear()
    reader = asyncio.create_task(cache.get("r", load))
    await asyncio.sleep(0)
    return reader


async def test_concurrent_readers_share_one_load_and_later_reads_hit():
    bus, load = EventBus(), Loader()
    cache: RoomCache[str] = RoomCache(bus, social=False)
    load.gate.clear()
    readers = [asyncio.create_task(cache.get("r", load)) for _ in range(5)]
    await asyncio.sleep(0)
    load.gate.set()
    assert await asyncio.gather(*readers) == ["v1"] * 5
    assert await cache.get("r", load) == "v1"
    assert load.calls == 1


async def test_a_delivery_drops_its_rooms_value_and_a_resync_drops_every_room():
    bus, load = EventBus(), Loader()
    cache: RoomCache[str] = RoomCache(bus, social=False)
    await cache.get("r", load)
    await cache.get("other", load)
    load.value = "v2"
    await bus.publish("r", 1)
    assert [await cache.get("r", load), await cache.get("other", load)] == ["v2", "v1"]
    assert load.calls == 3
    load.value = "v3"
    bus.resync()
    assert [await cache.get("r", load), await cache.get("other", load)] == ["v3", "v3"]


async def test_room_facts_ignore_chat_and_presence_events_and_the_social_side_ignores_moves():
    bus, load = EventBus(), Loader()
    facts: RoomCache[str] = RoomCache(bus, social=False)
    chat: RoomCache[str] = RoomCache(bus, social=True)
    await facts.get("r", load)
    await chat.get("r", load)
    load.value = "v2"
    await bus.publish("r", SOCIAL)
    assert [await facts.get("r", load), await chat.get("r", load)] == ["v1", "v2"]
    load.value = "v3"
    await bus.publish("r", 4)
    assert [await facts.get("r", load), await chat.get("r", load)] == ["v3", "v2"]


async def test_a_load_overtaken_by_a_change_is_returned_but_not_kept():
    bus, load = EventBus(), Loader()
    cache: RoomCache[str] = RoomCache(bus, social=False)
    early = await reader_held_at_the_gate(cache, load)
    bus.deliver("r", 1)  # a write committed while the load was reading the old row
    load.gate.set()
    assert await early == "v1"
    load.value = "v2"
    assert await cache.get("r", load) == "v2"
    assert load.calls == 2


async def test_a_failed_load_reaches_every_waiting_reader_and_is_not_cached():
    bus = EventBus()
    cache: RoomCache[str] = RoomCache(bus, social=False)
    gate = asyncio.Event()

    async def failing() -> str:
        await gate.wait()
        raise LookupError("no such room")

    readers = [asyncio.create_task(cache.get("r", failing)) for _ in range(3)]
    await asyncio.sleep(0)
    gate.set()
    results = await asyncio.gather(*readers, return_exceptions=True)
    assert all(isinstance(r, LookupError) for r in results)
    load = Loader()
    assert await cache.get("r", load) == "v1"


async def test_a_cancelled_load_does_not_cancel_the_readers_waiting_on_it():
    bus, load = EventBus(), Loader()
    cache: RoomCache[str] = RoomCache(bus, social=False)
    first = await reader_held_at_the_gate(cache, load)
    second = asyncio.create_task(cache.get("r", load))
    await asyncio.sleep(0)
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    load.gate.set()
    assert await second == "v1"


async def test_past_its_limit_the_cache_drops_the_least_recently_stored_room():
    bus, load = EventBus(), Loader()
    cache: RoomCache[str] = RoomCache(bus, social=False, limit=2)
    for room in ("a", "b", "c"):
        await cache.get(room, load)
    assert load.calls == 3
    await cache.get("c", load)
    await cache.get("b", load)
    assert load.calls == 3
    await cache.get("a", load)  # dropped when "c" came in: read again
    assert load.calls == 4


async def test_versioned_facts_ignore_events_they_already_reflect_and_their_own_writes_event():
    bus, load = EventBus(), Loader()
    cache: RoomCache[tuple[int, str]] = RoomCache(bus, social=False, version=lambda value: value[0])
    cache.put("r", (3, "written here"))
    await bus.publish("r", 3)  # the writer's own event: the value it put stays
    await bus.publish("r", 2)  # an older change, relayed late: already reflected
    assert cache.peek("r") == (3, "written here")
    await bus.publish("r", 3)  # a change at the same version from elsewhere (a seat taken, say)
    assert cache.peek("r") is None
    load.value = (4, "loaded")
    assert await cache.get("r", load) == (4, "loaded")
    await bus.publish("r", 4)  # a loaded value was put by no write here: its version's event drops it
    assert cache.peek("r") is None
