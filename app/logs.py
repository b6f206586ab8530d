"""Logging: the server's own lines beside uvicorn's, and seat tokens redacted from all of them.

``serve`` hands uvicorn :func:`log_config`: uvicorn's own configuration, with the app's loggers
(``troika_arena.*`` and the modules' ``app.*``) on the same handler at ``LOG_LEVEL`` (without
it the app's info lines were dropped and its warnings printed bare), and a filter on every
handler that redacts seat tokens. A seat link is ``/rooms/<id>/seat/<token>`` and a socket
``/ws/rooms/<id>?token=<token>``; the filter rewrites both in a line's arguments, whatever their
type (uvicorn's trace lines carry the request's scope, a dict with the path and the query), and
in their percent-encoded forms too (the server decodes ``?tok%65n=%41b…`` into the same token,
and the access log prints the query as sent). The websockets library's debug lines of each
frame are dropped: a frame is what a seat sees.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any


def spelled_any_way(word: str) -> str:
    """A pattern for ``word`` with any of its letters percent-encoded (``tok%65n``, ``%74oken``)."""
    return "".join(f"(?:{letter}|(?i:%{ord(letter):02x}))" for letter in word)


TOKEN_PATTERNS = (
    re.compile(rf"(/{spelled_any_way('seat')}/)[^/?#&\s'\"]+"),
    re.compile(rf"({spelled_any_way('token')}=)[^&#\s'\"]+"),
)
APP_LOGGERS = ("troika_arena", "app")


def redact(text: str) -> str:
    for pattern in TOKEN_PATTERNS:
        text = pattern.sub(r"\1[redacted]", text)
    return text


def redacted_argument(argument: Any) -> Any:
    """A log line's argument with any token redacted: a text as a text; anything else as it is,
    unless its printed form holds a token, then as that form redacted."""
    if isinstance(argument, str):
        return redact(argument)
    if isinstance(argument, (int, float)) or argument is None:
        return argument
    shown = argument.decode("utf-8", "replace") if isinstance(argument, bytes) else str(argument)
    cleaned = redact(shown)
    return argument if cleaned == shown else cleaned


# The websockets library's debug lines of each frame sent or received ("> %s", "< %s"): a frame
# is a seat's view (its hand) or its page's click (a face-down choice). (Printed whole, its
# ``repr``, when it held a token: a probe read every hand of a game in a debug log.)
FRAME_LINES = {"> %s", "< %s"}


class TokenRedactingFilter(logging.Filter):
    """Redacts seat tokens from a line, and drops the websockets library's frame lines (what
    a seat sees is never logged)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in FRAME_LINES and record.name.startswith(("uvicorn", "websockets")):
            return False
        if isinstance(record.args, dict):
            record.args = {key: redacted_argument(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(redacted_argument(a) for a in record.args)
        record.msg = redact(str(record.msg))
        return True


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging configuration with the app's loggers at ``level`` and tokens redacted
    from every handler's lines."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact": {"()": TokenRedactingFilter}}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact"]
    for name in APP_LOGGERS:
        config["loggers"][name] = {"handlers": ["default"], "level": level.upper(), "propagate": False}
    return config


def install_token_redaction() -> None:
    """Tokens redacted from uvicorn's loggers however logging was set up (a server run by
    uvicorn's own command, or tests)."""
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenRedactingFilter) for f in logger.filters):
            logger.addFilter(TokenRedactingFilter())
