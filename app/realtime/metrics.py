"""Prometheus metrics of one server instance, for GET /metrics (``app.api.metrics``), which is
off unless METRICS_TOKEN is set; then :data:`OFF` is replaced by a :class:`Metrics`.

Counted as things happen: moves applied, by game (``rate()`` of the counter gives moves per
second); each move's latency, from its request's arrival (:data:`REQUEST_STARTED`, set by
:class:`MetricsMiddleware`; a bot's move, from the move itself) to the send of its view by the
last of the room's sockets on this instance (a move nobody watches here ends when it is
applied; one whose socket closed before sending is dropped after a minute, not timed);
answers 503; database failures met (``app.db.faults.OUTAGES``); and bots' thinking time, by
game. Read at each scrape: the rooms by status and game (one grouped query, passed in
by the route), and the websockets and the event streams or waiting polls open. Each app has its
own registry, so the apps of one process (the tests') do not mix. The hooks on the move path
are two calls, :meth:`Metrics.moved` and :meth:`Metrics.sent`, each a few dictionary steps.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from contextvars import ContextVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db.faults import OUTAGES
from app.realtime.caps import SocketCaps

REQUEST_STARTED: ContextVar[float | None] = ContextVar("request_started", default=None)
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINKING_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
PENDING_ROOMS = 4096  # rooms whose moves wait for their sockets' sends (the oldest go first)
STALE_SECONDS = 60.0  # a move still waiting this long lost a socket before its send: not timed


class Off:
    """Metrics switched off: every hook does nothing."""

    def moved(self, game: str, room_id: str, version: int) -> None:
        pass

    def sent(self, room_id: str, version: int | None) -> None:
        pass

    def thought(self, game: str, seconds: float) -> None:
        pass


OFF = Off()


class Metrics(Off):
    def __init__(self, sockets: SocketCaps, streams: SocketCaps):
        self.registry = registry = CollectorRegistry()
        self.sockets = sockets
        self.moves = Counter("troika_moves", "Moves applied on this instance, by game", ["game"], registry=registry)
        self.latency = Histogram(
            "troika_move_latency_seconds",
            "From a move's request to the last of its room's sockets here sending its view",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.unavailable = Counter(
            "troika_unavailable_responses", "Answers 503: the database unavailable", registry=registry
        )
        self.thinking = Histogram(
            "troika_bot_thinking_seconds",
            "A bot's time to choose a move",
            ["game"],
            buckets=THINKING_BUCKETS,
            registry=registry,
        )
        self.rooms = Gauge("troika_rooms", "Rooms stored, by status and game", ["status", "game"], registry=registry)
        Gauge("troika_sockets", "Live websockets open on this instance", registry=registry).set_function(sockets.total)
        Gauge(
            "troika_streams", "Event streams and waiting polls open on this instance", registry=registry
        ).set_function(streams.total)
        registry.register(DatabaseErrors())
        self._pending: dict[str, dict[int, list[float]]] = {}  # room -> version -> [started, sockets left]

    def moved(self, game: str, room_id: str, version: int) -> None:
        """A move was applied on this instance: count it, and time it until the room's sockets
        here have sent its view (at once if none watches)."""
        self.moves.labels(game).inc()
        now = time.perf_counter()
        started = REQUEST_STARTED.get() or now
        watching = self.sockets.in_room(room_id)
        if not watching:
            self.latency.observe(now - started)
            return
        room = {v: w for v, w in (self._pending.pop(room_id, None) or {}).items() if now - w[0] < STALE_SECONDS}
        room[version] = [started, watching]
        self._pending[room_id] = room  # at the end: the most recently moved room
        if len(self._pending) > PENDING_ROOMS:
            del self._pending[next(iter(self._pending))]

    def sent(self, room_id: str, version: int | None) -> None:
        """A socket of the room sent the view of ``version``: it has every move up to it."""
        room = self._pending.get(room_id)
        if room is None or version is None:
            return
        for moved in [v for v in room if v <= version]:
            waiting = room[moved]
            waiting[1] -= 1
            if waiting[1] <= 0:
                self.latency.observe(time.perf_counter() - waiting[0])
                del room[moved]
        if not room:
            del self._pending[room_id]

    def thought(self, game: str, seconds: float) -> None:
        self.thinking.labels(game).observe(seconds)

    def count_rooms(self, census: Iterable[tuple[str, str, int]]) -> None:
        """Set the rooms gauge from (status, game, count) rows (a pair no longer stored goes)."""
        self.rooms.clear()
        for status, game, count in census:
            self.rooms.labels(status, game).set(count)


class DatabaseErrors:
    """``troika_database_errors_total``: database failures this process has met (each logged
    once as one line, ``app.db.faults``)."""

    def collect(self):
        yield CounterMetricFamily("troika_database_errors", "Database failures met", value=OUTAGES.count)


class MetricsMiddleware:
    """ASGI middleware, installed only with metrics on: notes when each request arrived (for a
    move's latency) and counts the answers 503."""

    def __init__(self, app: ASGIApp, metrics: Metrics):
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        REQUEST_STARTED.set(time.perf_counter())
        unavailable = self.metrics.unavailable

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 503:
                unavailable.inc()
            await send(message)

        await self.app(scope, receive, counted)
