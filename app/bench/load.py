"""The load generator: rooms of real websocket clients playing legal moves at a fixed rate.

Every seat of a room holds a websocket and keeps the newest view it received: a JSON one
(``?format=json&token=...`` with an ``Origin`` header), or with ``clients="html"`` a browser's
(:mod:`app.bench.browser`: the page's own URL and headers, every frame swapped into the page by
id, as htmx's websocket extension does, each click sent over that socket as the page sends it;
``html-post``: each click posted as the form of a page without a live socket).
Each room moves on its own clock, one move every ``period`` seconds from a random phase: an
open model, the schedule never waits for the server. At its time a move is chosen among the
legal actions of a seat that is to act, and posted; it is done when every seat of the room
has received a view at the new version.
Latency is measured from the scheduled time (so a backlog counts, no coordinated omission)
and, separately, from the submission. A room whose game ends is replaced by a fresh one
(setting it up is not measured). ``period`` 0 is the closed loop used to measure capacity:
each room moves again as soon as its last move has reached every seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from app.bench import browser
from app.bench.poster import Poster, PosterError
from app.web.live import FLOOD_FRAMES, FLOOD_SECONDS

DELIVERY_TIMEOUT = 10.0
SETUP_CONCURRENCY = 16
SETUP_ATTEMPTS = 3
PACING_SECONDS = 2 * FLOOD_SECONDS  # a browser client's window for its clicks (Seat.paced)


@dataclass
class Tally:
    """What one measured window saw."""

    latencies: list[float] = field(default_factory=list)  # scheduled time -> every seat updated
    service: list[float] = field(default_factory=list)  # submission -> every seat updated
    errors: dict[str, int] = field(default_factory=dict)
    message_bytes: int = 0
    messages: int = 0
    message_sizes: list[int] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


HTML_CLIENTS = ("html", "html-post")  # browsers: clicks over the page's socket, or form posts


class Seat:
    def __init__(self, room: Room, seat: int, token: str | None):
        self.room, self.seat, self.token = room, seat, token
        self.view: dict[str, Any] = {}
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task | None = None
        self.refused = False  # a click over the socket was refused (its flash came back)
        self.clicks: deque[float] = deque()  # when its latest clicks were sent (the flood guard's window)

    @property
    def version(self) -> int:
        return self.view.get("version", -1)

    async def paced(self) -> None:
        """Wait, if need be, so that this socket sends no more clicks than the server's flood
        guard takes (``app.web.live``: FLOOD_FRAMES within FLOOD_SECONDS; a person clicks far
        slower, but a closed loop on one seat's turns may not). The window kept here is
        PACING_SECONDS, longer than the guard's: the server times a frame when it reads it, and
        a loaded server reads frames late and then back to back, so frames spaced exactly a
        window apart here arrived closer there (CI: 1008 too many messages)."""
        now = time.monotonic()
        while self.clicks and now - self.clicks[0] > PACING_SECONDS:
            self.clicks.popleft()
        if len(self.clicks) >= FLOOD_FRAMES:
            await asyncio.sleep(PACING_SECONDS - (now - self.clicks[0]))
            self.clicks.popleft()
        self.clicks.append(time.monotonic())

    async def read(self) -> None:
        assert self.ws is not None
        page = browser.Page() if self.room.driver.clients in HTML_CLIENTS else None
        async for text in self.ws:
            self.room.tally.messages += 1
            self.room.tally.message_bytes += len(text)
            self.room.tally.message_sizes.append(len(text))
            if page is not None:
                page.apply(text)
                self.refused = self.refused or browser.refused(text)
            view = page.view() if page is not None else orjson.loads(text)
            if view is not None and view.get("event", "view") == "view" and view.get("version", -1) >= self.version:
                # only what the driver uses: whole views held by thousands of seats made the
                # driver's own garbage collections long enough to show in the latencies
                self.view = {key: view.get(key) for key in ("version", "status", "legal_actions")}
            self.room.changed.set()


class Room:
    """One room of ``seats`` players: its setup, its sockets and its move loop."""

    def __init__(self, driver: Driver, index: int):
        self.driver, self.index = driver, index
        self.id = ""
        self.seats: list[Seat] = []
        self.spectators: list[Seat] = []
        self.changed = asyncio.Event()
        self.tally = driver.tally
        self.random = random.Random(index)
        self.poster = Poster(driver.base)

    async def open(self) -> bool:
        """Set the room up and open its sockets; False if not every socket had its first view
        within ``DELIVERY_TIMEOUT`` (a room without views has no move to make)."""
        seats = self.driver.seats
        body = await self.driver.setup("/api/rooms", json={"game": self.driver.game, "seats": seats, "name": "P0"})
        self.id = body["room"]["id"]
        tokens = [body["token"]]
        for n in range(1, seats):
            tokens.append((await self.driver.setup(f"/api/rooms/{self.id}/seats", json={"name": f"P{n}"}))["token"])
        await self.driver.setup(f"/api/rooms/{self.id}/start", headers=self.auth(tokens[0]))
        self.seats = [Seat(self, n, token) for n, token in enumerate(tokens)]
        self.spectators = [Seat(self, -1, None) for _ in range(self.driver.spectators)]
        for seat in self.seats + self.spectators:
            seat.ws = await self.driver.connect(self.id, seat.token)
            seat.reader = asyncio.create_task(seat.read())
        return await self.settled(0, time.monotonic() + DELIVERY_TIMEOUT)

    async def close(self) -> None:
        await self.poster.close()
        for seat in self.seats + self.spectators:
            if seat.reader:
                seat.reader.cancel()
            if seat.ws:
                await seat.ws.close()

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"authorization": f"Bearer {token}"}

    async def settled(self, version: int, deadline: float) -> bool:
        """Wait until every seat (and spectator) holds a view at ``version`` or later; False on
        timeout."""
        while min(seat.version for seat in self.seats + self.spectators) < version:
            self.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                return False
        return True

    def finished(self) -> bool:
        return any(seat.view.get("status") != "playing" for seat in self.seats)

    def choose(self) -> tuple[Seat, dict[str, Any], int] | None:
        """A seat to act, one of its legal actions, and the version it was seen at."""
        ready = [s for s in self.seats if s.view.get("legal_actions")]
        if not ready:
            return None
        seat = self.random.choice(ready)
        return seat, self.random.choice(seat.view["legal_actions"])["action"], seat.version

    async def ask_legal_actions(self) -> tuple[Seat, dict[str, Any], int] | None:
        """A browser seat awaited only through the forms the page's script fills (campaigns,
        attacks) reads its options from GET /legal-actions, as that script does."""
        awaited = [s for s in self.seats if "legal_actions" in s.view and s.view["legal_actions"] is None]
        if not awaited:
            return None
        seat = self.random.choice(awaited)
        assert seat.token is not None  # a player's seat (only a spectator's has no token)
        reply = await self.driver.http.get(f"/api/rooms/{self.id}/legal-actions", headers=self.auth(seat.token))
        body = reply.json() if reply.status_code == 200 else {}
        if not body.get("legal_actions"):
            return None
        return seat, self.random.choice(body["legal_actions"])["action"], body["version"]

    async def move(self, scheduled: float) -> None:
        """Make one move and wait for it to reach every seat; record its latency."""
        choice = self.choose() or await self.ask_legal_actions()
        if choice is None:
            self.tally.error("no legal action")
            return
        seat, action, version = choice
        submitted = time.monotonic()
        try:
            status, reached = await self.post(seat, action, version)
        except PosterError as exc:
            self.tally.error(str(exc))
            return
        if status != 200 or reached is None:
            self.tally.error(f"http {status}" if status != 200 else "refused")
            await self.settled(max(s.version for s in self.seats), submitted + DELIVERY_TIMEOUT)
            return
        if not await self.settled(reached, submitted + DELIVERY_TIMEOUT):
            self.tally.error("delivery timeout")
            return
        done = time.monotonic()
        if self.driver.measuring:
            self.tally.latencies.append(done - scheduled)
            self.tally.service.append(done - submitted)

    async def post(self, seat: Seat, action: dict[str, Any], version: int) -> tuple[int, int | None]:
        """Send the move as the client's kind sends it: as JSON to the API, as a browser's click
        over its page's socket (``html``), or as the form post of a page without a live socket
        (``html-post``); the status and the version it reached (None if it was refused: an HTML
        answer says so in its flash, the form post's at the old version)."""
        assert seat.token is not None  # a player's seat (only a spectator's has no token)
        clients = self.driver.clients
        if clients == "html":
            assert seat.ws is not None
            seat.refused = False
            click = {"action": orjson.dumps(action).decode(), "version": str(version)}
            await seat.paced()
            await seat.ws.send(orjson.dumps(click).decode())  # a text frame, as the page's script sends it
            deadline = time.monotonic() + DELIVERY_TIMEOUT
            while seat.version <= version and not seat.refused and time.monotonic() < deadline:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())
            return 200, None if seat.refused or seat.version <= version else seat.version
        if clients == "html-post":
            status, reply = await self.poster.post_form(
                f"/rooms/{self.id}/seat/{seat.token}/act",
                {"action": orjson.dumps(action).decode(), "version": str(version)},
            )
            reached = browser.reply_version(reply) if status == 200 else None
            return status, reached if reached is not None and reached > version else None
        status, reply = await self.poster.post(
            f"/api/rooms/{self.id}/actions", {"version": version, "action": action}, seat.token
        )
        return status, reply["version"] if status == 200 else None

    async def play(self, period: float, until: float) -> None:
        """Move on this room's clock until ``until``, replacing the room when its game ends."""
        next_at = time.monotonic() + self.random.uniform(0, period)
        while next_at < until:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            if self.finished():
                await self.close()
                if not await self.open():
                    self.tally.error("set-up timeout")
            await self.move(next_at)
            next_at = next_at + period if period else time.monotonic()


class Driver:
    """A pool of rooms on one server (the arena or the bare baseline)."""

    def __init__(self, base: str, game: str, seats: int = 4, clients: str = "json", spectators: int = 0):
        """``spectators``: sockets without a seat opened on every room, which every move must
        reach too."""
        self.base, self.game, self.seats, self.clients = base, game, seats, clients
        self.spectators = spectators
        self.ws_base = "ws" + base[len("http") :]
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
        self.http = httpx.AsyncClient(base_url=base, timeout=30.0, limits=limits)
        self.rooms: list[Room] = []
        self.tally = Tally()
        self.measuring = False

    async def setup(self, path: str, **options: Any) -> dict[str, Any]:
        """POST one room set-up call; a kept-alive connection that the server closed just as
        it was reused (a ``TransportError``) is tried again on a fresh one."""
        for attempt in range(SETUP_ATTEMPTS):
            try:
                reply = await self.http.post(path, **options)
                break
            except httpx.TransportError:
                if attempt == SETUP_ATTEMPTS - 1:
                    raise
        reply.raise_for_status()
        return reply.json()

    async def connect(self, room_id: str, token: str | None) -> ClientConnection:
        """A seat's socket (no token: a spectator's), JSON or as the browser opens it."""
        if self.clients in HTML_CLIENTS:
            return await browser.connect(self.ws_base, self.base, room_id, token)
        query = "?format=json" + (f"&token={token}" if token else "")
        url = f"{self.ws_base}/ws/rooms/{room_id}{query}"
        return await connect(url, origin=Origin(self.base), max_size=2**22, ping_interval=None)

    async def grow(self, count: int) -> int:
        """Open rooms until there are ``count``; how many of the new ones had no first view in
        time (they are kept: their views may still come)."""
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one(room: Room) -> bool:
            async with gate:
                return await room.open()

        new = [Room(self, i) for i in range(len(self.rooms), count)]
        settled = await asyncio.gather(*(one(room) for room in new))
        self.rooms.extend(new)
        return settled.count(False)

    async def run(self, period: float, seconds: float, warmup: float) -> Tally:
        """Play every room for ``warmup`` + ``seconds``; the tally of the last ``seconds``.

        The driver's own cyclic garbage collector is off while it plays: with thousands of
        sockets its collections paused it for up to half a second, and every move in flight
        then looked that much slower. What it leaves is collected after the run."""
        start = time.monotonic()
        gc.disable()
        try:
            tasks = [asyncio.create_task(room.play(period, start + warmup + seconds)) for room in self.rooms]
            await asyncio.sleep(warmup)
            self.tally = Tally()
            for room in self.rooms:
                room.tally = self.tally
            self.measuring = True
            await asyncio.gather(*tasks)
        finally:
            self.measuring = False
            gc.enable()
            gc.collect()
        return self.tally

    async def close(self) -> None:
        await asyncio.gather(*(room.close() for room in self.rooms), return_exceptions=True)
        await self.http.aclose()


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(tally: Tally, seconds: float) -> dict[str, Any]:
    """Latency percentiles in milliseconds, moves per second, errors and message sizes."""

    def ms(values: list[float], q: float) -> float | None:
        p = percentile(values, q)
        return None if p is None else round(p * 1000, 1)

    return {
        "moves": len(tally.latencies),
        "moves_per_second": round(len(tally.latencies) / seconds, 1),
        "p50_ms": ms(tally.latencies, 0.50),
        "p95_ms": ms(tally.latencies, 0.95),
        "p99_ms": ms(tally.latencies, 0.99),
        "service_p95_ms": ms(tally.service, 0.95),
        "errors": dict(tally.errors),
        "messages": tally.messages,
        "mean_message_bytes": round(tally.message_bytes / tally.messages) if tally.messages else 0,
        "median_message_bytes": percentile([float(n) for n in tally.message_sizes], 0.5) or 0,
    }
