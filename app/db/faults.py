"""Which failures are the database's trouble, not the server's: an outage to wait out.

``outage(exc)`` tells a database that cannot be reached, has run out of space, has too many
connections or is busy (SQLAlchemy's connection errors and pool timeouts, psycopg's connection
failures and SQLSTATE classes 08, 53 and 57P, SQLite's FULL, BUSY, LOCKED, IOERR, CANTOPEN and
READONLY codes) from everything else, which is a bug. An outage carries words for people, a
``Retry-After`` in seconds and its cause on one line (the driver's own message, never the SQL
statement or its parameters), so that it is answered with 503 and logged as one line.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass

import psycopg
from sqlalchemy import exc as sa_exc

UNREACHABLE = "the database cannot be reached"
FULL = "the database has run out of space"
CROWDED = "the database has too many connections"
BUSY = "the database is busy"
READ_ONLY = "the database is read-only"
BROKEN_FILE = "the database file cannot be read or written"

RETRY_AFTER = {UNREACHABLE: 5, FULL: 60, CROWDED: 5, BUSY: 2, READ_ONLY: 30, BROKEN_FILE: 30}

POSTGRES_STATES = {
    "53100": FULL,
    "53200": BUSY,
    "53300": CROWDED,
    "53400": CROWDED,
    "57P01": UNREACHABLE,
    "57P02": UNREACHABLE,
    "57P03": UNREACHABLE,
    "25006": READ_ONLY,
}
SQLITE_CODES = {
    "SQLITE_FULL": FULL,
    "SQLITE_BUSY": BUSY,
    "SQLITE_LOCKED": BUSY,
    "SQLITE_NOMEM": BUSY,
    "SQLITE_IOERR": BROKEN_FILE,
    "SQLITE_CANTOPEN": BROKEN_FILE,
    "SQLITE_PROTOCOL": BROKEN_FILE,
    "SQLITE_READONLY": READ_ONLY,
}


@dataclass(frozen=True)
class Outage:
    reason: str  # for people: "the database has run out of space"
    cause: str  # for the log: the driver's exception and the first line of its message

    @property
    def retry_after(self) -> int:
        return RETRY_AFTER[self.reason]

    @property
    def message(self) -> str:
        return f"{self.reason}; please try again in {self.retry_after} seconds"


def outage(exc: BaseException) -> Outage | None:
    """The outage ``exc`` reports, or None if it is not the database's trouble."""
    driver = exc.orig if isinstance(exc, sa_exc.DBAPIError) and exc.orig is not None else exc
    reason = None
    if isinstance(exc, sa_exc.TimeoutError):  # no pooled connection came free in time
        reason = BUSY
    elif isinstance(driver, psycopg.Error):
        reason = postgres_reason(driver)
    elif isinstance(driver, sqlite3.Error):
        reason = sqlite_reason(driver)
    elif isinstance(driver, (ConnectionError, TimeoutError)):
        reason = UNREACHABLE
    if reason is None and isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        reason = UNREACHABLE
    return None if reason is None else Outage(reason, one_line(driver))


def postgres_reason(error: psycopg.Error) -> str | None:
    state = error.sqlstate
    if state is None:  # no answer from a server: the connection failed or was lost
        return UNREACHABLE if isinstance(error, (psycopg.OperationalError, psycopg.InterfaceError)) else None
    return UNREACHABLE if state.startswith("08") else POSTGRES_STATES.get(state)


def sqlite_reason(error: sqlite3.Error) -> str | None:
    name = getattr(error, "sqlite_errorname", None) or ""  # e.g. SQLITE_IOERR_WRITE: an IOERR
    return SQLITE_CODES.get("_".join(name.split("_")[:2]))


class Tally:
    """How many database failures this process has met (GET /metrics reads it)."""

    count = 0


OUTAGES = Tally()


def log_failure(log: logging.Logger, what: str, exc: BaseException) -> None:
    """Log that ``what`` failed: an outage as one line with its cause, a bug with its traceback."""
    trouble = outage(exc)
    if trouble is not None:
        OUTAGES.count += 1
        log.warning("%s: %s (%s)", what, trouble.reason, trouble.cause)
    else:
        log.error("%s", what, exc_info=exc)


def one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0].strip() if lines else 'no message'}"
