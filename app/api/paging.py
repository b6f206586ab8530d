"""Cursor pagination for the listings: ``GET /api/rooms``, ``/log`` and ``/chat``.

A listing answers at most ``limit`` items (each listing has its default and its maximum) and,
when there are more, a ``Link: <...>; rel="next"`` header (RFC 8288, as GitHub's API pages):
the same call with ``cursor`` set to where the next page starts. The answer's body keeps its
shape. A cursor is opaque to a client: URL-safe base64 of the listing's name and its place
(``rooms``: the last room's creation time and id; ``log``: the number of lines read; ``chat``:
the id of the oldest line sent), so a cursor of another listing, or text this server never
gave, is refused (400 ``invalid_request``), as a ``limit`` outside 1 to the maximum is.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Query, Request
from pydantic import BeforeValidator, Field

from app.api.quotas import with_headers
from app.api.streams import ascii_whole
from app.reading import whole_number
from app.rooms.errors import InvalidRequest

CURSOR_CHARACTERS = 200  # far more than any cursor this server gives
NEXT_LINK = with_headers(200, {"Link": 'with more to read: `<the next page>; rel="next"`'})

Cursor = Annotated[
    str | None,
    Query(max_length=CURSOR_CHARACTERS, description="where to go on: from the `next` link of the page before"),
]


# each listing's page: the default limit (and, below, the most a page may have)
ROOMS_PAGE, LOG_PAGE, CHAT_PAGE = 50, 500, 50


def limit(default: int, most: int) -> Any:
    """A listing's ``limit`` parameter: a whole number from 1 to ``most`` (bounds written before
    the validator, so that they are published as ``minimum`` and ``maximum``)."""
    return Annotated[
        int,
        Field(ge=1, le=most),
        BeforeValidator(ascii_whole),
        Query(description=f"at most this many (1 to {most}; {default} if not given)"),
    ]


if TYPE_CHECKING:
    RoomsLimit = int
    LogLimit = int
    ChatLimit = int
else:
    RoomsLimit, LogLimit, ChatLimit = limit(ROOMS_PAGE, 100), limit(LOG_PAGE, 1000), limit(CHAT_PAGE, 100)


def cursor_for(listing: str, place: str) -> str:
    return base64.urlsafe_b64encode(f"{listing}:{place}".encode()).decode().rstrip("=")


def place_of(listing: str, cursor: str | None) -> str | None:
    """The place a cursor of ``listing`` names (None without a cursor); 400 for any other text."""
    if cursor is None:
        return None
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        text = ""
    name, _, place = text.partition(":")
    if name != listing or not place:
        raise foreign(listing)
    return place


def whole_place(listing: str, cursor: str | None) -> int | None:
    """A cursor's place that is a whole number (``log``, ``chat``); 400 for any other."""
    place = place_of(listing, cursor)
    if place is None:
        return None
    number = whole_number(place, most_digits=18)
    if number is None:
        raise foreign(listing)
    return number


def foreign(listing: str) -> InvalidRequest:
    return InvalidRequest(f"cursor: not one of this listing's ({listing}): pass the one its next link gave")


def next_link(request: Request, listing: str, place: str | int | None) -> dict[str, str] | None:
    """The ``Link`` header to the page from ``place`` on (None: this was the last page)."""
    if place is None:
        return None
    url = request.url.include_query_params(cursor=cursor_for(listing, str(place)))
    return {"Link": f'<{url.path}?{url.query}>; rel="next"'}
