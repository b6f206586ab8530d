"""The event bus's subscriptions: a subscriber sees the newest version since it last looked,
and a closed subscription wakes its waiter with None (how a live socket learns its viewer left)."""

from __future__ import annotations

import asyncio
import contextlib

from app.realtime.bus import CHAT, PRESENCE, Change, EventBus


async def test_a_subscriber_behind_gets_only_the_newest_version():
    bus = EventBus()
    with bus.subscribe("r1") as sub, bus.subscribe("r2") as other:
        for version in (3, 5, 4):
            await bus.publish("r1", version)
        assert await asyncio.wait_for(sub.next(), 1) == Change(5)
        waiting = sub.next()
        await asyncio.sleep(0.01)
        assert not waiting.done(), "nothing new was published"
        bus.resync()
        assert await asyncio.wait_for(waiting, 1) == Change(None, True, True, True)
        assert (await asyncio.wait_for(other.next(), 1)).everything  # resync wakes every room
    assert not bus.watched("r1") and not bus.watched("r2")  # both subscriptions let go of their rooms


async def test_closing_a_subscription_wakes_its_waiter_with_none_for_good():
    bus = EventBus()
    with bus.subscribe("r1") as sub:
        waiting = sub.next()
        await asyncio.sleep(0.01)
        sub.close()
        assert await asyncio.wait_for(waiting, 1) is None
        await bus.publish("r1", 6)
        assert await asyncio.wait_for(sub.next(), 1) is None


async def test_a_waiter_that_gave_up_loses_no_event():
    bus = EventBus()
    with bus.subscribe("r1") as sub:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(sub.next(), 0.01)
        await bus.publish("r1", 2)
        assert await asyncio.wait_for(sub.next(), 1) == Change(2)


async def test_a_subscriber_behind_learns_whether_presence_or_chat_changed_too():
    bus = EventBus()
    with bus.subscribe("r1") as sub:
        await bus.publish("r1", PRESENCE)
        assert await asyncio.wait_for(sub.next(), 1) == Change(None, presence=True)
        for event in (CHAT, 7, PRESENCE, 6):
            await bus.publish("r1", event)
        assert await asyncio.wait_for(sub.next(), 1) == Change(7, presence=True, chat=True)
