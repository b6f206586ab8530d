"""Logging hygiene: seat tokens travel in seat links, so access-log lines are redacted.

A seat link is ``/rooms/<id>/seat/<token>`` and a socket ``/ws/rooms/<id>?token=<token>``;
the filter rewrites both before uvicorn's access logger formats the line.
"""

from __future__ import annotations

import logging
import re

TOKEN_PATTERNS = (
    re.compile(r"(/seat/)[A-Za-z0-9_\-]+"),
    re.compile(r"(token=)[A-Za-z0-9_\-]+"),
)


def redact(text: str) -> str:
    for pattern in TOKEN_PATTERNS:
        text = pattern.sub(r"\1[redacted]", text)
    return text


class TokenRedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        record.msg = redact(str(record.msg))
        return True


def install_token_redaction() -> None:
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenRedactingFilter) for f in logger.filters):
            logger.addFilter(TokenRedactingFilter())
