"""The typed events that programs follow a room by: one language for the event stream, the
long-poll and the websocket's JSON format.

Each event is one JSON object whose ``event`` names its kind: ``view`` (the seat's whole
payload, as GET /api/rooms/<id>/view answers it, with its ``version``), ``presence``
(``connected``: the seats with a connection open), ``chat`` (``messages``: the lines not sent
before) and ``end`` (the game is over or the room closed: ``version``, ``status``,
``outcome``; nothing follows it but chat). A :class:`Follower` is one reader's place in a room:
its seat and token, whether the end was sent (and, for a socket's HTML, the last chat line). The texts are built once
per change of the room and shared by every reader of the same seat (``app.rooms.views``). A
follower whose token no longer holds its seat (the host reissued the seat's link) is told by
:class:`Revoked` at the next change of the room.

The event stream, its long-poll (``app.api.streams``) and the socket's JSON frames
(``app.web.delivery``) number their events by the room's change ids (``app.rooms.changes``):
each event carries ``change``, the id of the last change it reflects, and :meth:`Events.since`
gives a follower holding id C every change after C once, oldest first: the view if the view
changed after C, the presence if it changed after C and after the view, and each chat line
posted after C; then, if the room is over and the view was sent, the end, numbered by the last
change. A follower of a room that is over, resumed after its final view, is sent only what came
since, and is done (a stream then closes). The ids are read before the texts are built, so an
event never claims a change it does not show.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import Any

from app.rooms.changes import Changes
from app.rooms.live_games import LiveGames
from app.rooms.model import ENDED, hash_token
from app.rooms.social import Social
from app.rooms.views import Built, Made, Payloads, encode

REBUILDS = 3  # a view built while its room changes is built again, this many times at most
VIEW_EVENT, PRESENCE_EVENT, END_EVENT = "view event", "presence event", "end event"  # texts made (``Made.kind``)


class Revoked(Exception):
    """The follower's token holds its seat no more (the seat's link was reissued)."""


@dataclass
class Follower:
    """One reader of a room's events: its room, seat (None: spectator), token, and whether it
    was sent the end."""

    room_id: str
    seat: int | None
    token: str | None
    chat_seen: int = 0  # a socket's HTML (``app.web.delivery``): the id of the last chat line sent
    ended: bool = False
    change: int = 0  # streams, polls and JSON sockets: the id of the last change it was sent (module doc)


def last_id(messages: list[dict[str, Any]]) -> int:
    return messages[-1]["id"] if messages else 0


def after(messages: list[dict[str, Any]], seen: int) -> list[dict[str, Any]]:
    return [m for m in messages if m["id"] > seen]


def view_event(payload_text: str) -> str:
    """A payload's JSON text as a ``view`` event (the payload's own fields, ``event`` first)."""
    return '{"event":"view",' + payload_text[1:]


def numbered(change: int, event: str) -> str:
    """An event's JSON text with its change id, ``"change"`` first."""
    return f'{{"change":{change},{event[1:]}'


def with_change(payload_text: str, change: int) -> str:
    """A payload's JSON text with ``"change"`` added last: the id of the room's last change it
    reflects (GET /view's answer)."""
    return f'{payload_text[:-1]},"change":{change}}}'


def chat_event(lines: list[dict[str, Any]]) -> str:
    """Chat lines (each numbered by its change) as one ``chat`` event, numbered by the last."""
    return encode({"change": lines[-1]["change"], "event": "chat", "messages": lines})


def presence_event(built: Built) -> str:
    return encode({"event": "presence", "connected": sorted(built.connected)})


def end_event(built: Built) -> str:
    """The ``end`` event of a room that is over, or "" while it is not."""
    if built.info.status not in ENDED:
        return ""
    payload = built.payload(None)
    return encode(
        {
            "event": "end",
            "version": payload["version"],
            "status": payload["status"],
            "closed_reason": built.info.closed_reason,
            "outcome": payload["outcome"],
        }
    )


class Events:
    def __init__(self, rooms: LiveGames, payloads: Payloads, social: Social):
        self.rooms, self.payloads, self.social = rooms, payloads, social

    async def view(self, room_id: str, seat: int | None) -> str:
        return await self.payloads.made(room_id, Made(VIEW_EVENT, seat), lambda built: view_event(built.json(seat)))

    async def presence(self, room_id: str) -> str:
        return await self.payloads.made(room_id, Made(PRESENCE_EVENT), presence_event)

    async def start(self, follower: Follower, after: int | None) -> list[str]:
        """What a stream or poll starts with: with ``after`` (a change id), every change after
        it (:meth:`since`); without, the view and the end if the room is over, numbered by the
        room's last change (chat lines from then on)."""
        if after is not None:
            follower.change = after
            return await self.since(follower)
        ids, shown = await self.view_as_numbered(follower)
        follower.change = ids.last
        return [numbered(ids.last, event) for event in shown]

    async def since(self, follower: Follower) -> list[str]:
        """The events of the room's changes after ``follower.change``, oldest first (module
        doc); the follower then holds the room's last change. Raises :class:`Revoked` if its
        token lost its seat."""
        room_id, seen = follower.room_id, follower.change
        ids = await self.rooms.changes(room_id)
        events: list[tuple[int, Any]] = []  # (change id, event text or chat line)
        end = None
        if ids.view > seen:
            await self.check_seated(follower)
            ids, shown = await self.view_as_numbered(follower, ids)
            events.append((ids.view, shown[0]))
            end = shown[1] if len(shown) > 1 else None
        elif (await self.rooms.room(room_id)).status in ENDED:
            follower.ended = True  # it holds the final view (and was sent the end with it)
        if ids.presence > max(seen, ids.view):
            events.append((ids.presence, await self.presence(room_id)))
        if ids.chat > seen:
            lines = [m for m in await self.social.messages_upto(room_id, ids.chat) if m["change"] > seen]
            events += [(line["change"], line) for line in lines]
        events.sort(key=lambda numbered_event: numbered_event[0])
        follower.change = max(seen, ids.last)
        texts = []
        for is_chat, group in groupby(events, key=lambda item: isinstance(item[1], dict)):
            items = list(group)
            if is_chat:
                texts.append(chat_event([line for _, line in items]))
            else:
                texts += [numbered(change, event) for change, event in items]
        return texts if end is None else [*texts, numbered(follower.change, end)]  # the end comes last

    async def view_as_numbered(self, follower: Follower, ids: Changes | None = None) -> tuple[Changes, list[str]]:
        """The follower's view (and the end, if the room is over and it was not sent it) with
        the change ids it shows exactly: read before and after it was built, and built again
        if the view changed meanwhile (a move landing as it was built would otherwise be shown
        under the id before it, and sent again under its own)."""
        before = ids or await self.rooms.changes(follower.room_id)
        ended = follower.ended
        for attempt in range(REBUILDS):
            follower.ended = ended
            shown = await self.view_and_end(follower)
            again = await self.rooms.changes(follower.room_id)
            if again.view == before.view or attempt == REBUILDS - 1:
                break  # (still changing: shown under the ids read before its last build)
            before = again
        return before, shown

    async def view_and_end(self, follower: Follower) -> list[str]:
        # The end is looked at first: a room that is over changes no more, so the view read
        # after it is the final one.
        end = "" if follower.ended else await self.payloads.made(follower.room_id, Made(END_EVENT), end_event)
        events = [await self.view(follower.room_id, follower.seat)]
        if end:
            events.append(end)
            follower.ended = True
        return events

    async def check_seated(self, follower: Follower) -> None:
        if follower.token is None:
            return
        info = await self.rooms.room(follower.room_id)
        if info.token_hashes.get(hash_token(follower.token)) != follower.seat:
            raise Revoked(follower.room_id)
