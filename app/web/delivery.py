"""The delivery pipeline: what every viewer of a room is sent, built once per change.

For each change of a room, each (seat, format) is built once (``app.rooms.views.Payloads``)
and the same text goes to every socket of that seat, to the reply of its move and to its page
(the sockets get it in ASCII, made once too: ``ascii_html``); all spectators share one build.
The HTML table (``app.web.tables``: its sections) is built from the same cached payload as the
JSON, once per change, seat and language (``app.i18n``): each reader gets their own.

A browser socket is sent the whole table when it opens, and after that, for each change, only
the sections whose HTML changed since the table it was last sent (``app.web.sections.delta``:
each an element that htmx's ws extension swaps in by its id), all in one frame; the whole
table again only when the table's shape changed (a new phase: sections come or go) or events
were missed. A presence change is a change of the presence section. A chat line goes out as
that line appended to the chat log. Each :class:`Viewer` remembers the table and the last chat
line it was sent. The JSON format speaks the typed events of ``app.api.events`` (``view``,
``presence``, ``chat``, ``end``), as the event stream does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.api.events import Events, Follower, after, last_id
from app.i18n import ENGLISH
from app.realtime.bus import Change
from app.rooms.social import Social
from app.rooms.views import Built, Made, Payloads
from app.web.render import Renderer
from app.web.sections import Table, delta
from app.web.tables import laid_out, table

HTML, JSON = "html", "json"  # the formats a socket reads
# the texts made of a build (``Made.kind``): the table, laid out as HTML, that in ASCII as sockets
# are sent it, a delta from the table a socket holds, the chat log and new lines of it
TABLE, LAID_OUT, PUSHED, DELTA = "table", "html", "pushed", "delta"
CHAT_LOG, CHAT_LINES = "chat log", "chat lines"


def ascii_html(text: str) -> str:
    """``text`` with every character outside ASCII written as a character reference: the same
    document to a browser (a fragment has no script or style element, where references are not
    read), and a string that uvicorn encodes for each socket by a plain copy. A 23 KB table
    with one accented letter took 18 to 24 µs to encode against 0.6 µs in ASCII, once per
    socket: a fifth of a spectator's cost (issue 14's profile)."""
    return text if text.isascii() else text.encode("ascii", "xmlcharrefreplace").decode("ascii")


@dataclass
class Viewer(Follower):
    """One socket's reader (``app.api.events.Follower``), the format it reads and the language
    of its HTML."""

    format: str = field(default=HTML, kw_only=True)
    lang: str = field(default=ENGLISH, kw_only=True)
    table: Table | None = field(default=None, kw_only=True)  # the table it was last sent (HTML)


class Delivery:
    def __init__(self, payloads: Payloads, social: Social, events: Events, renderer: Renderer):
        self.payloads, self.social, self.events, self.renderer = payloads, social, events, renderer

    async def main(self, room_id: str, seat: int | None, token: str | None, lang: str = ENGLISH) -> str:
        """The seat's ``#room-main`` as the room is now (a page, a form's reply)."""
        make, renderer = self.table_maker(seat, token, lang), self.renderer
        return await self.payloads.made(
            room_id,
            Made(LAID_OUT, seat, lang),
            lambda built: laid_out(renderer, built.made(Made(TABLE, seat, lang), make), lang),
        )

    async def pushed_main(self, viewer: Viewer) -> str:
        """:meth:`main` as a socket is sent it: the same text in ASCII (``ascii_html``), made
        once per change for all the sockets of the seat; the viewer remembers its table."""
        seat, lang = viewer.seat, viewer.lang
        make = self.table_maker(seat, viewer.token, lang)

        def pushed(built: Built) -> tuple[Table, str]:
            t = built.made(Made(TABLE, seat, lang), make)
            return t, ascii_html(built.made(Made(LAID_OUT, seat, lang), lambda _: laid_out(self.renderer, t, lang)))

        viewer.table, text = await self.payloads.made(viewer.room_id, Made(PUSHED, seat, lang), pushed)
        return text

    async def changed(self, viewer: Viewer) -> str | None:
        """What changed of the viewer's table since the one it was sent (the sections whose
        HTML changed, in ASCII, or the whole ``#room-main`` if its shape changed), or None if
        nothing did; made once per change for all the sockets of a seat that were sent the
        same table."""
        before, seat, lang = viewer.table, viewer.seat, viewer.lang
        if before is None:
            return await self.pushed_main(viewer)
        make = self.table_maker(seat, viewer.token, lang)

        def change_of(built: Built) -> tuple[Table, str | None]:
            # the new table and its delta from one build: made apart, a change landing between
            # them kept a delta that stopped short of the table it was filed under, and another
            # socket of the seat was sent it and took itself to be up to date
            now = built.made(Made(TABLE, seat, lang), make)
            return now, ascii_html(delta(before, now) or "") if now.shape == before.shape else None

        now, text = await self.payloads.made(viewer.room_id, Made(DELTA, seat, lang, before), change_of)
        if text is None:  # a new shape: the whole table
            return await self.pushed_main(viewer)
        viewer.table = now
        return text or None

    async def chat_log(self, room_id: str, seat: int | None, lang: str = ENGLISH) -> tuple[str, int]:
        """The whole ``#chat-log`` as the seat sees it, and the id of its last line."""
        messages = await self.social.messages(room_id)
        text = self.payloads.chat_made_of(
            room_id, messages, Made(CHAT_LOG, seat, lang), lambda m: self.renderer.chat_log(m, seat, lang)
        )
        return text, last_id(messages)

    async def first(self, viewer: Viewer) -> list[str]:
        """What a socket is sent when it opens: its view (JSON: numbered events, as a stream
        starts; HTML: and the chat log)."""
        if viewer.format == JSON:
            return await self.events.start(viewer, None)
        view = await self.pushed_main(viewer)
        chat, viewer.chat_seen = await self.chat_log(viewer.room_id, viewer.seat, viewer.lang)
        return [view + chat]

    async def frames(self, viewer: Viewer, change: Change) -> list[str]:
        """What a socket is sent for a change (JSON: ``app.api.events.Events.since``; HTML:
        the sections that changed if the room, its game or presence did, the whole table if
        events were missed; new chat lines, all in one frame). Raises ``Revoked`` if the
        viewer's token lost its seat."""
        if viewer.format == JSON:
            return await self.events.since(viewer)
        frames = []
        if change.everything:
            await self.events.check_seated(viewer)
            frames.append(await self.pushed_main(viewer))
        elif change.version is not None or change.presence:
            if change.version is not None:
                await self.events.check_seated(viewer)
            sections = await self.changed(viewer)
            if sections:
                frames.append(sections)
        if change.everything:
            chat, viewer.chat_seen = await self.chat_log(viewer.room_id, viewer.seat, viewer.lang)
            frames.append(chat)
        elif change.chat:
            lines = await self.chat_lines(viewer)
            if lines:
                frames.append(lines)
        return ["".join(frames)] if frames else []

    async def chat_lines(self, viewer: Viewer) -> str | None:
        """The chat lines after the last one the viewer was sent (the whole log if it had none,
        replacing "no messages yet"), or None if there are none."""
        messages = await self.social.messages(viewer.room_id)
        seen, seat, lang, renderer = viewer.chat_seen, viewer.seat, viewer.lang, self.renderer
        viewer.chat_seen = last_id(messages)
        if viewer.chat_seen <= seen:
            return None
        make: Callable[[list[dict[str, Any]]], str]
        if seen == 0:
            key, make = Made(CHAT_LOG, seat, lang), lambda m: renderer.chat_log(m, seat, lang)
        else:
            key, make = (
                Made(CHAT_LINES, seat, lang, seen),
                lambda m: renderer.chat_lines(after(m, seen), seat, lang),
            )
        return self.payloads.chat_made_of(viewer.room_id, messages, key, make)

    def table_maker(self, seat: int | None, token: str | None, lang: str) -> Callable[[Built], Table]:
        return lambda built: table(self.renderer, built.payload(seat), seat, token, lang)


async def delivery(request: HTTPConnection) -> Delivery:
    return request.app.state.delivery


Deliver = Annotated[Delivery, Depends(delivery)]
