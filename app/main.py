"""The FastAPI application: wires settings, database, event bus, room service and routes.

``create_app(settings)`` builds an independent app (tests make one per database) and leaves the
process alone; the module level ``app`` is what ``uvicorn app.main:app`` and ``troika-arena
serve`` run, the one app of its process, which also tunes the process's garbage collector once
it is ready (``app.runtime``). Migrations are applied at start, so a fresh database needs no
separate step.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from contextlib import ExitStack, asynccontextmanager

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from app.api.body_limit import BodyLimit
from app.api.coaching import router as coaching_router
from app.api.contract import API_VERSION, install_contract, operation_id
from app.api.cors import install_cors
from app.api.errors import ErrorBoundary, install_error_handlers
from app.api.events import Events
from app.api.head import HeadAsGet
from app.api.json_bodies import UniqueKeys
from app.api.metrics import router as metrics_router
from app.api.moves import MoveFrontDoor
from app.api.routes import router as api_router
from app.api.streams import router as streams_router
from app.config import Settings, get_settings
from app.db.backup import serving
from app.db.database import Database
from app.db.engine import migrate_async
from app.files import project_file
from app.games.registry import ENTRIES, titles
from app.logs import install_token_redaction
from app.realtime.bus import EventBus
from app.realtime.caps import SocketCaps
from app.realtime.metrics import OFF, Metrics, MetricsMiddleware
from app.realtime.pg_relay import PostgresRelay
from app.rooms.bots import BotRunner
from app.rooms.hints import Hints
from app.rooms.idle import IdleRooms
from app.rooms.live_games import LiveGames
from app.rooms.lobby import Lobby
from app.rooms.play import Play
from app.rooms.replays import Replays
from app.rooms.reviews import Reviews
from app.rooms.social import Social
from app.rooms.throttle import Throttle
from app.rooms.timers import TurnTimers
from app.rooms.views import Payloads
from app.runtime import tune_garbage_collector
from app.web.coaching import router as web_coaching_router
from app.web.delivery import Delivery
from app.web.live import router as live_router
from app.web.pages import router as pages_router
from app.web.render import Renderer, error_page
from app.web.replays import router as replays_router
from app.web.security import SecurityHeaders

log = logging.getLogger("troika_arena")


def add_routes(app: FastAPI, *routers: APIRouter) -> None:
    """The routers' routes, added to the app as they are: built once per process, when their
    modules are imported. ``include_router`` would add copies that FastAPI builds again for each
    app on its first request (a pydantic adapter for every parameter and answer: some 60 ms an
    app, a fifth of the unit tests' time, as they make an app a test). The routers name their
    operations as the app does (``operation_id``); none has a prefix, tags or dependencies of its
    own to apply."""
    for router in routers:
        app.router.routes.extend(router.routes)


def create_app(
    settings: Settings | None = None, on_ready: Callable[[], None] | None = None, renderer: Renderer | None = None
) -> FastAPI:
    """The app of ``settings`` (else the environment's); ``on_ready`` is called once it is ready
    to serve (the process's own app: ``tune_garbage_collector``); ``renderer``: its own unless
    given (tests share one, so that each template is compiled once per process)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        install_token_redaction()
        app.state.sockets, app.state.streams = sockets, streams
        await migrate_async(settings.sync_database_url())
        held = ExitStack()
        held.enter_context(serving(settings.sync_database_url()))  # (a restore refuses meanwhile)
        database = Database(settings.async_database_url(), settings.sync_database_url())
        app.state.settings = settings
        app.state.metrics = metrics
        app.state.bus = EventBus()
        relay = PostgresRelay(settings.libpq_url(), app.state.bus) if settings.is_postgres() else None
        if relay is not None:
            await relay.start()
            app.state.bus.relay = relay
        app.state.rooms = LiveGames(database, app.state.bus, metrics or OFF)
        app.state.lobby = Lobby(app.state.rooms, settings.autopilot_grace_seconds, settings.again_hold_seconds)
        app.state.play = Play(app.state.rooms)
        app.state.replays = Replays(database)
        app.state.throttle = Throttle(rooms=settings.room_creation_limit)
        app.state.reviews = Reviews(database, app.state.rooms, app.state.replays, settings.review_rollouts)
        app.state.reviews.start()
        app.state.hints = Hints(app.state.rooms, app.state.throttle, settings.hint_rollouts)
        app.state.social = Social(database, app.state.bus, app.state.throttle)
        app.state.payloads = Payloads(app.state.rooms, app.state.social)
        app.state.events = Events(app.state.rooms, app.state.payloads, app.state.social)
        app.state.delivery = Delivery(app.state.payloads, app.state.social, app.state.events, app.state.renderer)
        heartbeat = asyncio.create_task(app.state.social.heartbeat_forever())
        app.state.idle = IdleRooms(app.state.rooms, settings.room_idle_hours)
        closing_idle = asyncio.create_task(app.state.idle.forever())
        bots = BotRunner(app.state.rooms, app.state.play, settings.bot_delay_seconds, settings.bot_budget_seconds)
        timers = TurnTimers(app.state.rooms, app.state.lobby)
        app.state.bots, app.state.timers = bots, timers
        app.state.bus.add_listener(bots.poke)
        app.state.bus.add_listener(timers.poke)
        await bots.resume_all()
        await timers.resume_all()
        if on_ready is not None:
            on_ready()
        log.info("Troika Arena ready on %s", database.url)
        try:
            yield
        finally:
            heartbeat.cancel()
            closing_idle.cancel()
            await asyncio.gather(heartbeat, closing_idle, return_exceptions=True)
            await bots.stop()
            await app.state.reviews.stop()
            await timers.stop()
            if relay is not None:
                await relay.stop()
            await database.dispose()
            held.close()

    # Caps on live connections (app.realtime.caps), which the metrics read too.
    sockets = SocketCaps(settings.max_sockets_per_seat, settings.max_spectators_per_room)
    # a stream whose client has gone is let go at its next keep-alive line at the latest: a
    # refused one is told to try again then
    streams = SocketCaps(
        settings.max_streams_per_seat,
        settings.max_spectators_per_room,
        "streams",
        retry_after=max(1, math.ceil(settings.stream_keepalive_seconds)),
    )
    metrics = Metrics(sockets, streams) if settings.metrics_token else None

    app = FastAPI(
        title="Troika Arena",
        summary=f"Play {titles()} with friends, in the browser or by API.",
        version=API_VERSION,
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
        separate_input_output_schemas=False,  # one schema per model: no "Play-Input" beside "Play"
        docs_url=None,
        redoc_url=None,
    )

    app.state.renderer = renderer or Renderer()  # before the lifespan: error pages need it from the first request
    install_contract(app)
    install_error_handlers(app, error_page)
    app.add_middleware(HeadAsGet)  # HEAD wherever GET is answered (app.api.head)
    app.add_middleware(MoveFrontDoor)
    app.add_middleware(UniqueKeys)  # a JSON body's key given twice is refused (app.api.json_bodies)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes, page=error_page)  # before any body is read
    app.add_middleware(ErrorBoundary, page=error_page)  # round the routes and the front doors (app.api.errors)
    install_cors(app, settings.origins())  # other sites' browser clients (app.api.cors), a preflight before a route
    # A request or websocket naming a host this server does not serve (DNS rebinding) is refused
    # before anything else reads it ...
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.hosts())
    # ... and outermost, on every answer, error pages and that 400 included (app.web.security).
    app.add_middleware(SecurityHeaders)
    if metrics is not None:  # GET /metrics, only with METRICS_TOKEN set (app.api.metrics)
        app.add_middleware(MetricsMiddleware, metrics=metrics)
        add_routes(app, metrics_router)
    add_routes(
        app, api_router, coaching_router, streams_router, live_router, pages_router, replays_router, web_coaching_router
    )
    for entry in ENTRIES.values():  # a game kept outside the app serves its own files (before /static)
        if entry.static:
            app.mount(f"/static/games/{entry.slug}", StaticFiles(directory=entry.static))
    app.mount("/static", StaticFiles(directory=project_file("static")), name="static")
    return app


app = create_app(on_ready=tune_garbage_collector)
