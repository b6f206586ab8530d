"""The renderer the in-process tests share (``RENDERER``: one per test process, as a server
process has one, so that each template is compiled once; ``running_app`` gives it to every app
it makes; ``fresh_renderer`` makes one with caches of its own that shares its compiled templates),
and ``app.web.tables``' functions with it: a reader's table (``table``), laid out
(``laid_out``, ``main_fragment``), and a room's fragment as a seat's socket is sent it
(``room_fragment``), built afresh from the room's facts and game."""

from __future__ import annotations

from typing import Any

from app.i18n import ENGLISH
from app.rooms.model import LiveGame, RoomInfo
from app.rooms.views import seat_view
from app.web import tables
from app.web.render import CompiledTemplates, Renderer
from app.web.sections import Table

COMPILED = CompiledTemplates()
RENDERER = Renderer(compiled=COMPILED)


def fresh_renderer(**settings: Any) -> Renderer:
    """A renderer with nothing rendered kept yet, its templates compiled once per process."""
    return Renderer(compiled=COMPILED, **settings)


def table(payload: dict[str, Any], seat: int | None, token: str | None, lang: str = ENGLISH) -> Table:
    return tables.table(RENDERER, payload, seat, token, lang)


def laid_out(t: Table, lang: str) -> str:
    return tables.laid_out(RENDERER, t, lang)


def main_fragment(payload: dict[str, Any], seat: int | None, token: str | None, lang: str = ENGLISH) -> str:
    return tables.main_fragment(RENDERER, payload, seat, token, lang)


def room_fragment(
    info: RoomInfo,
    live: LiveGame | None,
    seat: int | None,
    token: str | None,
    connected: frozenset[int] = frozenset(),
    lang: str = ENGLISH,
) -> str:
    """:func:`main_fragment` of the seat's view of the room, built afresh."""
    return main_fragment(seat_view(info, live, seat, connected), seat, token, lang)
