"""The social side of a room: chat and presence.

Chat lines are stored with the room, 1 to 300 printable characters, at most 5 per 10 seconds
per seat (per server instance, ``app.rooms.throttle``), and escaped wherever they are shown.
Presence counts the sockets each seat holds open, per server instance, in the database, so
every instance shows the same connected/away state; each instance refreshes its rows on a
heartbeat, and rows not refreshed for ``STALE_AFTER`` are ignored, so a crashed instance never
leaves a seat "connected". Presence is cached per room until a presence event for the room; as
rows going stale make no event, each heartbeat publishes one for every room whose rows went
stale since the one before. ``last_present`` tells when a seat last had a socket open or read
its view (the host may hand only an absent player's seat to a bot), ``seat_connected`` whether
it has a socket or stream open now (the host may reissue only an absent player's link).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from cachetools import TTLCache
from sqlalchemy import update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from app.db.database import Database
from app.db.faults import log_failure
from app.db.models import ChatMessage, Presence, Seat, utcnow
from app.games.base import say
from app.realtime.bus import CHAT, PRESENCE, EventBus
from app.realtime.cache import RoomCache
from app.rooms import changes
from app.rooms.errors import BadRequest, NotFound
from app.rooms.model import aware
from app.rooms.throttle import Throttle

log = logging.getLogger("troika_arena")

MAX_CHAT_LENGTH = 300
CHAT_SHOWN = 50
HEARTBEAT = 10.0
STALE_AFTER = timedelta(seconds=35)
STALE_WINDOW = timedelta(seconds=3 * HEARTBEAT)  # a room is told for up to three beats
POLL_NOTED_EVERY = 10.0  # seconds: a seat's reads and polls are written as a sign of life at most this often


async def last_present(session: AsyncSession, room_id: str, seat: int) -> datetime | None:
    """When the seat last had a socket open on a live instance: now while one is open, else
    when its last socket closed (or its instance last beat), or its last read of its view if
    later (``Social.polled``); None if it never had one."""
    rows = (
        await session.exec(
            select(Presence.sockets, Presence.seen_at).where(Presence.room_id == room_id, Presence.seat == seat)
        )
    ).all()
    now = utcnow()
    if any(sockets > 0 and aware(seen_at) > now - STALE_AFTER for sockets, seen_at in rows):
        return now
    return max((aware(seen_at) for _, seen_at in rows), default=None)


async def seat_connected(session: AsyncSession, room_id: str, seat: int) -> bool:
    """Whether the seat has a socket or stream open on a live instance now."""
    rows = await session.exec(
        select(Presence.seat).where(
            Presence.room_id == room_id,
            Presence.seat == seat,
            Presence.sockets > 0,
            Presence.seen_at > utcnow() - STALE_AFTER,
        )
    )
    return rows.first() is not None


class Social:
    def __init__(self, db: Database, bus: EventBus, throttle: Throttle):
        self.db = db
        self.bus = bus
        self.throttle = throttle
        self.instance = secrets.token_hex(4)
        self._presence_lock = asyncio.Lock()
        self._polled: TTLCache[tuple[str, int], bool] = TTLCache(maxsize=10_000, ttl=POLL_NOTED_EVERY)
        self._present: RoomCache[frozenset[int]] = RoomCache(bus, social=True)
        self._chat: RoomCache[list[dict[str, Any]]] = RoomCache(bus, social=True)

    # ---- chat ----------------------------------------------------------------------------

    async def post(self, room_id: str, seat: int, text: Any) -> None:
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("a chat message needs some text")
        text = " ".join(text.split())
        if len(text) > MAX_CHAT_LENGTH:
            raise BadRequest(say("chat messages are at most {most} characters", most=MAX_CHAT_LENGTH))
        if not text.isprintable():  # a NUL or a lone surrogate, which no database stores
            raise BadRequest("chat messages must contain only printable characters")
        await self.throttle.chatting(room_id, seat)
        async with self.db.write() as session:
            name = (await session.exec(select(Seat.name).where(Seat.room_id == room_id, Seat.seat == seat))).first()
            if name is None:
                raise NotFound("no such seat")
            change_id = await changes.number(session, room_id, "chat")
            session.add(ChatMessage(room_id=room_id, seat=seat, name=name, text=text, change_id=change_id))
            await session.commit()
        await self.bus.publish(room_id, CHAT)

    async def messages(self, room_id: str) -> list[dict[str, Any]]:
        """The room's last CHAT_SHOWN lines, oldest first (``id`` grows with every line, and
        ``change`` is the id of the room's change that posted it: ``app.rooms.changes``)."""
        return await self._chat.get(room_id, lambda: self._load_messages(room_id))

    async def messages_upto(self, room_id: str, chat_change: int) -> list[dict[str, Any]]:
        """:meth:`messages`, read again from the database if the lines held do not reach the
        room's chat change ``chat_change`` yet (a line posted through another instance whose
        event has not arrived)."""
        messages = await self.messages(room_id)
        if not chat_change or (messages and messages[-1]["change"] >= chat_change):
            return messages
        self._chat.invalidate(room_id)
        return await self.messages(room_id)

    async def page(self, room_id: str, limit: int, before: int | None) -> tuple[list[dict[str, Any]], bool]:
        """The room's last ``limit`` lines before the line ``before`` (None: the last lines),
        oldest first, and whether there are older ones."""
        lines = await self._load_messages(room_id, limit + 1, before)
        return lines[-limit:], len(lines) > limit

    async def _load_messages(
        self, room_id: str, most: int = CHAT_SHOWN, before: int | None = None
    ) -> list[dict[str, Any]]:
        query = select(ChatMessage).where(ChatMessage.room_id == room_id)
        if before is not None:
            query = query.where(col(ChatMessage.id) < before)
        async with self.db.read() as session:
            rows = (await session.exec(query.order_by(col(ChatMessage.id).desc()).limit(most))).all()
        return [
            {"id": m.id, "change": m.change_id, "seat": m.seat, "name": m.name, "text": m.text, "at": m.at.isoformat()}
            for m in reversed(rows)
        ]

    # ---- presence ------------------------------------------------------------------------

    async def connected(self, room_id: str, seat: int) -> None:
        await self._adjust(room_id, seat, +1)

    async def disconnected(self, room_id: str, seat: int) -> None:
        await self._adjust(room_id, seat, -1)

    async def _adjust(self, room_id: str, seat: int, delta: int, told: bool = True) -> None:
        """This instance's row of the seat: ``delta`` sockets more, seen now; ``told`` (a socket
        opened or closed): a presence change, numbered and published."""
        async with self._presence_lock, self.db.write() as session:
            row = await session.get(Presence, (room_id, seat, self.instance))
            if row is None:
                session.add(Presence(room_id=room_id, seat=seat, instance=self.instance, sockets=max(delta, 0)))
            else:
                row.sockets = max(row.sockets + delta, 0)
                row.seen_at = utcnow()
            if told:
                await changes.number(session, room_id, "presence")
            await session.commit()
        if told:
            await self.bus.publish(room_id, PRESENCE)

    async def polled(self, room_id: str, seat: int) -> None:
        """The seat read its view or polled for events: a sign of life (``last_present``: the
        host may hand only an absent player's seat to a bot), written at most every
        ``POLL_NOTED_EVERY`` per seat, with no presence event: a poll is not a connection, and
        ``connected`` lists only the seats with a socket or stream open."""
        if (room_id, seat) not in self._polled:
            self._polled[room_id, seat] = True
            await self._adjust(room_id, seat, 0, told=False)

    async def present(self, room_id: str) -> frozenset[int]:
        """The seats with an open socket on some live instance."""
        return await self._present.get(room_id, lambda: self._load_present(room_id))

    async def _load_present(self, room_id: str) -> frozenset[int]:
        async with self.db.read() as session:
            seats = await session.exec(
                select(Presence.seat).where(
                    Presence.room_id == room_id,
                    Presence.sockets > 0,
                    Presence.seen_at > utcnow() - STALE_AFTER,
                )
            )
            return frozenset(seats.all())

    async def heartbeat_forever(self) -> None:
        """Beat every HEARTBEAT seconds while this instance runs (a failed beat, say while the
        database restarts, is logged and the next one tried)."""
        while True:
            try:
                await self.beat()
            except Exception as exc:
                log_failure(log, "presence heartbeat failed", exc)
            await asyncio.sleep(HEARTBEAT)

    async def beat(self) -> None:
        """Refresh this instance's presence rows, and publish a presence event for every room
        whose rows (of an instance that stopped beating) went stale within the last beats."""
        now = utcnow()
        async with self.db.write() as session:
            await session.exec(
                update(Presence)
                .where(col(Presence.instance) == self.instance, col(Presence.sockets) > 0)
                .values(seen_at=now)
            )
            await session.commit()
        async with self.db.read() as session:
            stale = await session.exec(
                select(Presence.room_id)
                .distinct()
                .where(
                    Presence.sockets > 0,
                    Presence.seen_at <= now - STALE_AFTER,
                    Presence.seen_at > now - STALE_AFTER - STALE_WINDOW,
                )
            )
            rooms = stale.all()
        if rooms:  # a change of presence (the seats of a stopped instance), numbered as any
            async with self.db.write() as session:
                for room_id in rooms:
                    await changes.number(session, room_id, "presence")
                await session.commit()
        for room_id in rooms:
            await self.bus.publish(room_id, PRESENCE)
