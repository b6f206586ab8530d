"""The one reader of a whole number written as text, and the one canonical JSON text.

Paths, queries, cursors, form fields and text options write whole numbers; each place that
reads one reads it here, in the ASCII digits 0-9 alone: ``int`` would also read "1_0", " 1",
"+1" and other scripts' digits, and ``str.isdigit`` lets "²" through, so "1.0", "+1", " 1",
"1_0" and "true" are never numbers (a place that also refuses leading zeros, "01", says so
itself). The canonical JSON text of a value, its keys sorted and compact, tells two values
apart exactly as JSON does (1, 1.0 and true differ, the order of keys does not): how a
button carries its action, how a resent move is compared with the logged one and how a
browser click's idempotency key is made. And the words of pydantic's errors, read once here for
the API's messages and the settings' (``validation_words``), without the prefix pydantic gives a
validator's own.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeGuard

import orjson

DIGITS = re.compile(r"[0-9]+")


def written_whole(text: object, *, most_digits: int | None = 18, signed: bool = False) -> TypeGuard[str]:
    """Whether ``text`` is a whole number in the digits 0-9 alone (after a minus sign if
    ``signed``), at most ``most_digits`` of them (None: any number)."""
    if not isinstance(text, str):
        return False
    digits = text[1:] if signed and text.startswith("-") else text
    return DIGITS.fullmatch(digits) is not None and (most_digits is None or len(digits) <= most_digits)


def whole_number(text: object, *, most_digits: int | None = 18, signed: bool = False) -> int | None:
    """``text``'s whole number if :func:`written_whole` says it is one, else None."""
    return int(text) if written_whole(text, most_digits=most_digits, signed=signed) else None


def canonical_json(value: Any) -> str:
    """``value`` as compact JSON text with its keys sorted: equal texts are equal values, JSON
    types and all. orjson writes it (a table asks a few hundred times per page); Python's
    json writes what orjson cannot tell apart or write: NaN and the infinities (orjson writes
    them as null) and integers beyond 64 bits."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # (orjson.JSONEncodeError) an integer beyond 64 bits
        text = b"null"
    if b"null" not in text:
        return text.decode()
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# the words pydantic puts before the message of an error a validator raised, which say nothing
# to a reader ("Value error, give a name...")
PYDANTIC_PREFIXES = ("Value error, ", "Assertion failed, ")


def validation_words(error: Any) -> str:
    """The message of one of pydantic's errors (``ValidationError.errors()``), without the
    prefix it gives a validator's own words."""
    words = str(error.get("msg", "invalid"))
    for prefix in PYDANTIC_PREFIXES:
        words = words.removeprefix(prefix)
    return words
