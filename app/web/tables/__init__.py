"""A reader's table, built in Python from its payload (``app.web.sections``).

:func:`table` asks the room's presenter (``app.web.tables.room``) and the game's own (one
module per game, named by its entry (``PRESENTERS``); ``generic`` for a game without one) for the table's
sections, in their fixed order, and renders each once per distinct inputs (with the app's
renderer, ``app.web.render.Renderer``, which keeps them). A presenter reads
the payload through :class:`Seen`: the reader's seat and language, the players' names, and the
moves the reader may make, each looked up as its action (``Seen.move``): the templates are
given the moves already chosen and labelled, and only lay them out. :func:`main_fragment` is
the table laid out as ``#room-main``, what a page holds and a reconnecting socket is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.games.entry import part
from app.games.registry import ENTRIES
from app.i18n import ENGLISH
from app.web.render import Renderer, action_key, speaker
from app.web.sections import Table, table_of
from app.web.tables import generic, room

PRESENTERS = {slug: part(entry.presenter) for slug, entry in ENTRIES.items()}


@dataclass
class Seen:
    """What a presenter reads of one reader's payload."""

    p: dict[str, Any]
    seat: int | None
    token: str | None
    lang: str
    said: Callable[[dict[str, Any]], str] = field(init=False)
    names: list[str] = field(init=False)
    legal: dict[str, str] = field(init=False)  # each legal action (``action_key``) -> its label

    def __post_init__(self) -> None:
        r = self.p["room"]
        self.said = speaker(self.lang)
        self.names = [s["name"] for s in r["seats"]]
        self.legal = {action_key(item["action"]): self.said(item) for item in self.p["legal_actions"]}

    @property
    def view(self) -> Any:
        return self.p["view"]

    @property
    def acting(self) -> int | None:
        """The reader's seat if it has a move to make now, else None (a spectator, a seat
        waiting, or a replay's seat, which is offered no move): whom "your turn" is said to."""
        return self.seat if self.legal else None

    @property
    def at(self) -> dict[str, Any]:
        """Where the reader's moves go: its seat's move URL and the version they are made at."""
        url = f"/rooms/{self.p['room']['id']}/seat/{self.token}/act" if self.token else None
        return {"url": url, "version": self.p["version"]}

    def move(self, action: dict[str, Any]) -> dict[str, str] | None:
        """``action`` as a button shows it (its JSON and its label) if the reader may make it."""
        key = action_key(action)
        label = self.legal.get(key)
        return None if label is None else {"action": key, "label": label}

    def moves(self, actions: list[dict[str, Any]]) -> list[dict[str, str]]:
        return [{"action": action_key(a), "label": self.legal[action_key(a)]} for a in actions]


def table(
    renderer: Renderer, payload: dict[str, Any], seat: int | None, token: str | None, lang: str = ENGLISH
) -> Table:
    """The reader's table: its sections in order, rendered."""
    seen = Seen(payload, seat, token, lang)
    status = payload["status"]
    presenter = PRESENTERS.get(payload["room"]["game"], generic)
    in_play = status in room.SHOWN and payload["view"] is not None
    parts = room.parts(seen, presenter.parts(seen) if in_play else [])
    classes = presenter.CLASSES if in_play else ("", "")
    return table_of(renderer.env(lang), lang, (status, seat is None), classes, parts, renderer.sections)


def laid_out(renderer: Renderer, t: Table, lang: str) -> str:
    """The ``#room-main`` element of a table (its layout around its sections)."""
    status, spectator = t.shape[0], t.shape[1]
    return renderer.fragment(
        lang,
        "fragments/room_main.html",
        sections=t.sections,
        status=status,
        spectator=spectator,
        felt=t.felt,
        boards=t.boards,
    )


def game_table(renderer: Renderer, payload: dict[str, Any], seat: int | None, lang: str = ENGLISH) -> str:
    """The game's sections of a table alone, laid out (a replay's table: no moves, no room),
    none of them kept (a record may be uploaded: its text must not stay in the process)."""
    seen = Seen(payload, seat, None, lang)
    presenter = PRESENTERS.get(payload["room"]["game"], generic)
    t = table_of(renderer.env(lang), lang, (), presenter.CLASSES, presenter.parts(seen), None)
    module = renderer.env(lang).get_template("fragments/game_table.html").module
    return str(module.laid(t.sections, t.felt, t.boards))  # type: ignore[attr-defined]


def main_fragment(
    renderer: Renderer, payload: dict[str, Any], seat: int | None, token: str | None, lang: str = ENGLISH
) -> str:
    """The ``#room-main`` element for this seat's payload, ready to be swapped in by id."""
    return laid_out(renderer, table(renderer, payload, seat, token, lang), lang)
