"""A room's table as a fixed list of named sections, each an element with a stable id.

A game's presenter (``app.web.tables``) turns a seat's payload into :class:`Part` s: a section's
id, where the layout puts it, the macro that lays it out and its inputs (JSON, everything the
section shows: the moves it offers are already chosen and labelled in Python). A section may
hold smaller sections of its own (a player's board its columns of cards, the log its lines):
its macro marks where each goes (``slot(id)``) and is rendered without them. Each section's
HTML is rendered once per distinct inputs and language and shared by every seat that sees it
alike (:class:`Kept`: the renderer's, ``app.web.render``).

A :class:`Table` is the sections in order and its ``shape`` (the room's status, whether the
reader is a spectator, the game's classes and each section's id and place): the layout
(``fragments/room_main.html``) depends on the shape alone, so two tables of one shape differ
only in their sections' HTML, and :func:`delta` is what changed, each an element that htmx
swaps in by its id: a section whose own HTML changed whole; else the smaller sections in it
that changed; and for a section that lists smaller ones (``listed``: the log's lines), the
new ones put first in it (``afterbegin``) and the ones gone deleted. The ids are listed in
docs/architecture.md ("The table's sections").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson
from cachetools import LRUCache
from markupsafe import Markup

SECTIONS_HELD = 4096  # distinct section renders kept (the most recently used)

# where the layout puts a section: above the table, first on it, on it, among the players'
# boards, after them on it, below it
HEAD, LEAD, FELT, BOARD, HAND, AFTER = "head", "lead", "felt", "board", "hand", "after"


def slot(id: str) -> Markup:
    """Where the smaller section ``id`` goes in its section's HTML (a template global)."""
    return Markup(f"<!--section:{id}-->")


@dataclass(frozen=True, slots=True)
class Part:
    """One section as a presenter describes it: rendered by ``macro`` of ``template`` from
    ``inputs`` alone, with its ``children`` in the slots it marks; ``listed``: the id of the
    element of the section that holds its children and nothing else, newest first (a list
    that grows at its head and loses its tail: the log)."""

    id: str
    place: str
    template: str
    macro: str
    inputs: Any
    children: tuple[Part, ...] = ()
    listed: str | None = None


class Section(NamedTuple):
    id: str
    place: str
    html: str  # the whole section, its children in their slots
    own: str  # the section with its children's slots
    bare: str  # the section without its children's slots
    children: tuple[Section, ...]
    listed: str | None


class Table(NamedTuple):
    """A reader's table: its sections in order and what its layout depends on."""

    shape: tuple[Any, ...]
    sections: tuple[Section, ...]
    felt: str  # the game's class on the felt (its stylesheet's scope)
    boards: str  # the class of the players' boards' row


@dataclass
class Kept:
    """The sections rendered so far, the most recently used ``held`` of each kind: a section's
    own HTML by its template, macro, inputs (JSON) and language, and a section with its
    children in their slots by that and its children."""

    held: int = SECTIONS_HELD
    own: LRUCache[tuple[Any, ...], str] = field(init=False)
    whole: LRUCache[tuple[Any, ...], Section] = field(init=False)

    def __post_init__(self) -> None:
        self.own, self.whole = LRUCache(self.held), LRUCache(self.held)


def rendered(env: Any, lang: str, part: Part, inputs: bytes, kept: Kept | None) -> str:
    """``part``'s own HTML in ``lang`` (``inputs``: its inputs in JSON), made once per distinct
    inputs and kept in ``kept`` (None: nowhere, for a replay of an uploaded record, whose text
    must not fill, or stay in, what the server keeps)."""
    key = (part.template, part.macro, inputs, lang)
    html = None if kept is None else kept.own.get(key)
    if html is None:
        macro = getattr(env.get_template(part.template).module, part.macro)
        html = str(macro(part.inputs)).strip()
        if kept is not None:
            kept.own[key] = html
    return html


def section(env: Any, lang: str, part: Part, kept: Kept | None) -> Section:
    """``part`` rendered with its children in their slots: made once per distinct inputs and
    children, and kept, so a section every reader sees alike is put together once (a table's
    sections were put together afresh for each reader: most of the HTML's cost)."""
    inputs = orjson.dumps(part.inputs)
    children = tuple(section(env, lang, child, kept) for child in part.children)
    key = (part.template, part.macro, inputs, lang, part.id, part.place, part.listed, children)
    made = None if kept is None else kept.whole.get(key)
    if made is not None:
        return made
    own = rendered(env, lang, part, inputs, kept)
    html = bare = own
    for child in children:
        marked = f"<!--section:{child.id}-->"  # slot(child.id)
        html, bare = html.replace(marked, child.html), bare.replace(marked, "")
    made = Section(part.id, part.place, html, own, bare, children, part.listed)
    if kept is not None:
        kept.whole[key] = made
    return made


def table_of(
    env: Any, lang: str, shape: tuple[Any, ...], classes: tuple[str, str], parts: list[Part], kept: Kept | None
) -> Table:
    """The table of ``parts``; ``shape`` is what the layout shows besides them (the room's
    status, whether the reader is a spectator), ``classes`` the felt's and the boards' row's."""
    sections = tuple(section(env, lang, part, kept) for part in parts)
    return Table((*shape, *classes, tuple((s.id, s.place) for s in sections)), sections, *classes)


def delta(before: Table, now: Table) -> str | None:
    """What changed from ``before`` to ``now``, as elements swapped in by id one after the
    other, or None if the tables differ in shape (the whole table then)."""
    if before.shape != now.shape:
        return None
    changed: list[str] = []
    for old, new in zip(before.sections, now.sections, strict=True):
        changes(old, new, changed)
    return "".join(changed)


def changes(old: Section, new: Section, out: list[str]) -> None:
    if old.html == new.html:
        return
    if old.own == new.own:
        for was, now in zip(old.children, new.children, strict=True):
            changes(was, now, out)
    elif not (new.listed and listed_changes(old, new, out)):
        out.append(new.html)


def listed_changes(old: Section, new: Section, out: list[str]) -> bool:
    """The changes of a list section whose own HTML differs only in which children it holds,
    new ones at its head and old ones gone from its tail (else False, and nothing said)."""
    was, now = [c.id for c in old.children], [c.id for c in new.children]
    if old.bare != new.bare:
        return False
    kept = [c for c in now if c in set(was)]
    added = len(now) - len(kept)
    if now[added:] != kept or was[: len(kept)] != kept:
        return False
    if added:
        out.append(f'<div hx-swap-oob="afterbegin:#{new.listed}">{"".join(c.html for c in new.children[:added])}</div>')
    out.extend(f'<b id="{c.id}" hx-swap-oob="delete"></b>' for c in old.children[len(kept) :])
    for w, n in zip(old.children, new.children[added:], strict=False):
        changes(w, n, out)
    return True
