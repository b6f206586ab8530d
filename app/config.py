"""Server configuration, read from environment variables (prefix-free, documented in the README).

Every setting has a default that serves a single host on SQLite; Postgres is chosen by setting
``DATABASE_URL``. A ``postgresql://`` or ``postgres://`` URL is mapped to the psycopg driver and
a ``sqlite://`` URL to aiosqlite, so hosts can paste the URL their provider gives them.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    database_url: str = "sqlite:///./troika-arena.db"
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_origins: str = ""
    allowed_hosts: str = ""
    max_ws_message_bytes: int = 4096
    head_timeout_seconds: float = 10.0
    max_body_bytes: int = 64 * 1024
    max_sockets_per_seat: int = 8
    max_streams_per_seat: int = 4  # event streams and waiting long-polls (app.api.streams)
    stream_keepalive_seconds: float = 7.0
    max_spectators_per_room: int = 100
    log_level: str = "info"
    bot_delay_seconds: float = 0.8
    bot_budget_seconds: float = 1.0
    hint_rollouts: int = 300  # the strong bot's budget for one hint (app.rooms.hints): about 0.2 s
    review_rollouts: int = 400  # its budget per decision of a post-game review (app.rooms.reviews)
    autopilot_grace_seconds: float = 60.0
    again_hold_seconds: float = 120.0  # a room played again: how long its free seats wait for their players
    room_idle_hours: float = 24.0  # a room with no change this long closes (its game abandoned); 0: never
    room_creation_limit: str = "10/minute;100/hour"  # per client address (app.rooms.throttle)
    extra_games: str = ""  # modules declaring more games' entries, comma separated (app.games.registry)
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
        return {o.strip().rstrip("/") for o in self.allowed_origins.split(",") if o.strip()}

    def hosts(self) -> list[str]:
        """Host header names this server answers to: the bind address, ``localhost`` and
        ``127.0.0.1``, and those listed in ALLOWED_HOSTS (``*.example.org`` or ``*`` for any)."""
        extra = [h.strip().lower() for h in self.allowed_hosts.split(",") if h.strip()]
        return sorted({self.host.lower(), "localhost", "127.0.0.1", *extra})


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
