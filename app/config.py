"""Server configuration, read from environment variables (prefix-free, documented in the README).

Every setting has a default that serves a single host on SQLite; Postgres is chosen by setting
``DATABASE_URL``. A ``postgresql://`` or ``postgres://`` URL is mapped to the psycopg driver and
a ``sqlite://`` URL to aiosqlite, so hosts can paste the URL their provider gives them.
"""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from typing import Annotated, Literal

from limits import parse_many
from pydantic import AfterValidator, BeforeValidator, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.reading import validation_words

YEAR_S = 365 * 24 * 3600.0
Count = Annotated[int, Field(ge=1, le=10**9)]
Seconds = Annotated[float, Field(ge=0, le=YEAR_S, allow_inf_nan=False)]  # 0 allowed: at once, or off
Wait = Annotated[float, Field(gt=0, le=YEAR_S, allow_inf_nan=False)]  # a time that must pass
ORIGIN = re.compile(r"[a-z][a-z0-9+.-]*://(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:[1-9][0-9]{0,4})?", re.IGNORECASE)


def database_url_known(url: str) -> str:
    to_driver_url(url, sync=True)  # (raises, saying which URLs are)
    return url


def host_names(listed: str) -> str:
    for name in (h.strip() for h in listed.split(",")):
        bracketed = name.startswith("[") and name.endswith("]")  # an IPv6 address, as a Host header writes it
        if "/" in name or (":" in name and not bracketed):
            raise ValueError(f"list host names as a browser sends them, without a scheme or port: not {name!r}")
    return listed


def origin_list(listed: str) -> str:
    for origin in (o.strip().rstrip("/") for o in listed.split(",") if o.strip()):  # (as Settings.origins)
        if not ORIGIN.fullmatch(origin):
            raise ValueError(f"list origins as a browser sends them, scheme://host[:port] with no path: not {origin!r}")
    return listed


def game_modules(listed: str) -> str:
    for name in (n.strip() for n in listed.split(",") if n.strip()):
        try:
            found = importlib.util.find_spec(name) is not None  # (imports its packages, not the module)
        except ImportError:  # a package on its way that does not exist, a relative name
            found = False
        if not found:
            raise ValueError(f"there is no module {name} to import (list Python modules, each declaring ENTRY)")
    return listed


def rate_limits(notation: str) -> str:
    try:
        limits = parse_many(notation)
    except ValueError:
        limits = []
    if not limits or any(limit.amount < 1 for limit in limits):
        raise ValueError(f"write limits in the limits library's notation, such as 10/minute;100/hour: not {notation!r}")
    return notation


class Settings(BaseSettings):
    """Every setting is checked as it is read: a server never starts on a value it cannot use
    (a port out of range, a time that is not a number, a negative limit)."""

    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    database_url: Annotated[str, AfterValidator(database_url_known)] = "sqlite:///./troika-arena.db"
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=1, le=65535)] = 8000
    allowed_origins: Annotated[str, AfterValidator(origin_list)] = ""
    allowed_hosts: Annotated[str, AfterValidator(host_names)] = ""
    max_ws_message_bytes: Count = 4096
    head_timeout_seconds: Wait = 10.0
    body_timeout_seconds: Wait = 30.0
    max_body_bytes: Count = 64 * 1024
    max_sockets_per_seat: Count = 8
    max_streams_per_seat: Count = 4  # event streams and waiting long-polls (app.api.streams)
    stream_keepalive_seconds: Wait = 7.0
    max_spectators_per_room: Annotated[int, Field(ge=0, le=10**9)] = 100
    log_level: Annotated[
        Literal["critical", "error", "warning", "info", "debug", "trace"], BeforeValidator(str.lower)
    ] = "info"
    bot_delay_seconds: Seconds = 0.8
    bot_budget_seconds: Wait = 1.0
    hint_rollouts: Count = 300  # the strong bot's budget for one hint (app.rooms.hints): about 0.2 s
    review_rollouts: Count = 400  # its budget per decision of a post-game review (app.rooms.reviews)
    autopilot_grace_seconds: Seconds = 60.0
    again_hold_seconds: Seconds = 120.0  # a room played again: how long its free seats wait for their players
    room_idle_hours: Annotated[float, Field(ge=0, le=100 * 365 * 24, allow_inf_nan=False)] = 24.0  # 0: never
    room_creation_limit: Annotated[str, AfterValidator(rate_limits)] = "10/minute;100/hour"  # per client address
    # modules declaring more games' entries, comma separated (app.games.registry)
    extra_games: Annotated[str, AfterValidator(game_modules)] = ""
    metrics_token: str = ""  # GET /metrics answers only with this bearer token; empty: off (404)

    def async_database_url(self) -> str:
        return to_driver_url(self.database_url, sync=False)

    def sync_database_url(self) -> str:
        return to_driver_url(self.database_url, sync=True)

    def is_postgres(self) -> bool:
        return self.async_database_url().startswith("postgresql")

    def libpq_url(self) -> str:
        """The Postgres URL as psycopg itself takes it (for the LISTEN/NOTIFY relay)."""
        return self.async_database_url().replace("postgresql+psycopg://", "postgresql://", 1)

    def origins(self) -> set[str]:
        """The ALLOWED_ORIGINS as a browser's ``Origin`` header writes them: lower case, no slash."""
        return {o.strip().rstrip("/").lower() for o in self.allowed_origins.split(",") if o.strip()}

    def hosts(self) -> list[str]:
        """Host header names this server answers to: the bind address, ``localhost``,
        ``127.0.0.1`` and ``[::1]``, and those listed in ALLOWED_HOSTS (``*.example.org`` or
        ``*`` for any). An IPv6 address is named as a Host header writes it, in brackets."""
        extra = [h.strip().lower() for h in self.allowed_hosts.split(",") if h.strip()]
        bound = f"[{self.host.lower()}]" if ":" in self.host else self.host.lower()
        return sorted({bound, "localhost", "127.0.0.1", "[::1]", *extra})


def to_driver_url(url: str, *, sync: bool) -> str:
    """Map a plain database URL to the driver this server uses (psycopg 3, sqlite/aiosqlite)."""
    for prefix in ("postgres://", "postgresql://", "postgresql+psycopg://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    for prefix in ("sqlite://", "sqlite+aiosqlite://", "sqlite+pysqlite://"):
        if url.startswith(prefix):
            rest = url[len(prefix) :]
            return ("sqlite://" if sync else "sqlite+aiosqlite://") + rest
    raise ValueError(f"DATABASE_URL must be a sqlite:// or postgresql:// URL, not {url.split(':')[0]}")


@lru_cache
def get_settings() -> Settings:
    return Settings()


def problems(error: ValidationError) -> list[str]:
    """What is wrong with the environment's settings, one line each, named as the host set them."""
    return [f"{'_'.join(map(str, e['loc'])).upper()}={e['input']!r}: {validation_words(e)}" for e in error.errors()]
