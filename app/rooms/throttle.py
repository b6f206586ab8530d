"""Rate limits, per server instance: chat lines and hints per seat, rooms created per client
address.

Built on the ``limits`` library's moving window, kept in memory: the time of each counted call,
dropped by the library once its window has passed, so the records held are bounded by who sent
something recently, and a limit holds exactly over any stretch of its length, as its refusal
and its ``RateLimit`` field say. (Its sliding-window counter only estimates a stretch that
straddles two of its fixed windows: it let a sixth chat line through in 10 s, and a room
created just before a whole minute was counted as none just after it.) The library sweeps a
storage's records, key by key, as calls come (2,000 keys: 0.2 s of CPU a sweep), so a seat's
limits and the addresses' room creations are kept apart, each swept on its own.

A call is counted only once every other check has passed (a room's values are checked by
``Lobby.check_new_room`` first), so a refused request costs no creation; refused creations have
a looser limit of their own (``REFUSED_ROOMS_LIMIT``, :meth:`Throttle.checking_room`), past
which an address's creations are answered 429 before their values (a deck, say) are read. A
refusal is a 429 whose ``Retry-After`` says how many seconds until one more would pass. Every
answer counted, and every 429, carries the IETF ``RateLimit-Policy`` and ``RateLimit`` fields
(draft-ietf-httpapi-ratelimit-headers, :meth:`Throttle.quota`): each window a policy of its own
(``"chat-10s";q=5;w=10``) and what is left of it (``r``, with ``t`` the seconds until it is
whole again). The client address is the one the server reports: behind a reverse proxy that
is the proxy's, unless uvicorn is told to trust the proxy's ``X-Forwarded-For``
(``FORWARDED_ALLOW_IPS``); a header a client could set itself is never read here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import NoReturn, TypeVar

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

from app.config import Settings
from app.games.base import Message, say
from app.rooms.errors import RoomError, TooMany

T = TypeVar("T")
CHAT_LIMIT = "5/10 seconds"  # per seat; fixed, as its refusal says
HINT_LIMIT = "6/minute"  # hints worked out afresh, per seat (one kept is answered again freely)
ROOM_CREATION_LIMIT = Settings.model_fields["room_creation_limit"].default  # per client address
REFUSED_ROOMS_LIMIT = "60/minute"  # room creations refused for their values, per client address


class Throttle:
    """This instance's counters: ``rooms`` is the room-creation limit in the ``limits``
    notation (``"10/minute;100/hour"``: every window must have room)."""

    def __init__(self, rooms: str = ROOM_CREATION_LIMIT):
        self._limits = {
            "chat": parse_many(CHAT_LIMIT),
            "hints": parse_many(HINT_LIMIT),
            "rooms": parse_many(rooms),
            "refused": parse_many(REFUSED_ROOMS_LIMIT),
        }
        seats = MovingWindowRateLimiter(MemoryStorage())
        self._limiters = {"chat": seats, "hints": seats}
        self._limiters |= {name: MovingWindowRateLimiter(MemoryStorage()) for name in ("rooms", "refused")}

    async def chatting(self, room_id: str, seat: int) -> None:
        await self._hit("chat", say("slow down: at most 5 messages every 10 seconds"), room_id, seat)

    async def hinting(self, room_id: str, seat: int) -> None:
        await self._hit("hints", say("slow down: at most 6 new hints a minute"), room_id, seat)

    async def creating_room(self, address: str | None) -> None:
        await self._hit("rooms", say("too many rooms created from your address; try again later"), address)

    async def checking_room(self, address: str | None, check: Callable[[], T]) -> T:
        """``check()``, the values of a room to create, checked: unless the address has had
        REFUSED_ROOMS_LIMIT refused already, then 429 at once, nothing checked (a deck's check
        costs its reading, and refusals do not count against the creations themselves)."""
        refusal = say("too many refused room creations from your address; try again later")
        await self._room_left("refused", refusal, address)
        try:
            return check()
        except RoomError:
            for item in self._limits["refused"]:
                await self._limiters["refused"].hit(item, "refused", *keyed((address,)))
            raise

    async def quota(self, name: str, *key: str | int | None) -> dict[str, str]:
        """The ``RateLimit-Policy`` and ``RateLimit`` fields of limit ``name`` (``chat``,
        ``hints``, ``rooms``) for ``key`` (a room and seat, or a client address), counting
        nothing."""
        policies, left = [], []
        for item in self._limits[name]:
            stats = await self._limiters[name].get_window_stats(item, name, *keyed(key))
            policy = f'"{name}-{item.get_expiry()}s"'
            policies.append(f"{policy};q={item.amount};w={item.get_expiry()}")
            left.append(f"{policy};r={max(0, stats.remaining)};t={max(0, math.ceil(stats.reset_time - time.time()))}")
        return {"RateLimit-Policy": ", ".join(policies), "RateLimit": ", ".join(left)}

    async def _hit(self, name: str, refusal: Message, *key: str | int | None) -> None:
        """Count one more ``name`` for ``key``, or raise 429 (counting nothing) if that is one
        too many for any of its windows."""
        await self._room_left(name, refusal, *key)
        items, key = self._limits[name], keyed(key)
        for item in items:
            if not await self._limiters[name].hit(item, name, *key):  # another request took the last place
                await self._refuse(item, refusal, name, *key)

    async def _room_left(self, name: str, refusal: Message, *key: str | int | None) -> None:
        """Raise 429 if ``name`` has no room left for ``key`` in any of its windows (counting nothing)."""
        for item in self._limits[name]:
            if not await self._limiters[name].test(item, name, *keyed(key)):
                await self._refuse(item, refusal, name, *keyed(key))

    async def _refuse(self, item: RateLimitItem, refusal: Message, name: str, *key: str) -> NoReturn:
        reset = (await self._limiters[name].get_window_stats(item, name, *key)).reset_time
        raise TooMany(refusal, retry_after=max(1, math.ceil(reset - time.time())), headers=await self.quota(name, *key))


def keyed(key: tuple[str | int | None, ...]) -> tuple[str, ...]:
    """A limit's key as the counters hold it: a seat as text, no client address as "?"."""
    return tuple(str(part) if part not in (None, "") else "?" for part in key)
