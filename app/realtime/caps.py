"""Caps on the live connections one server instance holds open (websockets, or event streams
and waiting polls, each kind with its own ``SocketCaps``): at most ``per_seat`` for one seat (its
token) and ``spectators`` for one room's spectators. ``admit`` counts a connection for as long as
it is open, or says why it was refused; counts are per instance, like presence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager


class SocketCaps:
    def __init__(self, per_seat: int, spectators: int, what: str = "sockets", retry_after: int = 1):
        self.what = what
        self.retry_after = retry_after  # seconds a refused stream is told to wait (a 429's Retry-After)
        self.per_seat, self.spectators = per_seat, spectators
        self._open: Counter[tuple[str, int | None]] = Counter()
        self._rooms: Counter[str] = Counter()  # connections open per room, seats and spectators

    @contextmanager
    def admit(self, room_id: str, seat: int | None) -> Iterator[str | None]:
        """Yield None and count the socket while the block runs, or yield the refusal's reason
        (the socket is then not counted)."""
        key = (room_id, seat)
        if seat is None and self._open[key] >= self.spectators:
            yield f"too many spectators in this room (at most {self.spectators})"
            return
        if seat is not None and self._open[key] >= self.per_seat:
            yield f"too many {self.what} for this seat (at most {self.per_seat})"
            return
        self._open[key] += 1
        self._rooms[room_id] += 1
        try:
            yield None
        finally:
            self._open[key] -= 1
            if not self._open[key]:
                del self._open[key]
            self._rooms[room_id] -= 1
            if not self._rooms[room_id]:
                del self._rooms[room_id]

    def in_room(self, room_id: str) -> int:
        """Connections open to the room, seats' and spectators'."""
        return self._rooms.get(room_id, 0)

    def total(self) -> int:
        """Connections open on this instance (GET /metrics)."""
        return self._rooms.total()
