"""The typed events that programs follow a room by: one language for the event stream, the
long-poll and the websocket's JSON format.

Each event is one JSON object whose ``event`` names its kind: ``view`` (the seat's whole
payload, as GET /api/rooms/<id>/view answers it, with its ``version``), ``presence``
(``connected``: the seats with a connection open), ``chat`` (``messages``: the lines not sent
before) and ``end`` (the game is over or the room closed: ``version``, ``status``,
``outcome``; nothing follows it but chat). A :class:`Follower` is one reader's place in a room:
its seat and token, the last chat line and whether the end was sent. The texts are built once
per change of the room and shared by every reader of the same seat (``app.rooms.views``). A
follower whose token no longer holds its seat (the host reissued the seat's link) is told by
:class:`Revoked` at the next change of the room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.realtime.bus import Change
from app.rooms.live_games import LiveGames
from app.rooms.model import ENDED, hash_token
from app.rooms.social import Social
from app.rooms.views import Built, Payloads, encode


class Revoked(Exception):
    """The follower's token holds its seat no more (the seat's link was reissued)."""


@dataclass
class Follower:
    """One reader of a room's events: its room, seat (None: spectator), token, the id of the
    last chat line it was sent, and whether it was sent the end."""

    room_id: str
    seat: int | None
    token: str | None
    chat_seen: int = 0
    ended: bool = False


def last_id(messages: list[dict[str, Any]]) -> int:
    return messages[-1]["id"] if messages else 0


def after(messages: list[dict[str, Any]], seen: int) -> list[dict[str, Any]]:
    return [m for m in messages if m["id"] > seen]


def view_event(payload_text: str) -> str:
    """A payload's JSON text as a ``view`` event (the payload's own fields, ``event`` first)."""
    return '{"event":"view",' + payload_text[1:]


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
        return await self.payloads.made(room_id, ("view event", seat), lambda built: view_event(built.json(seat)))

    async def presence(self, room_id: str) -> str:
        return await self.payloads.made(room_id, ("presence", "json"), presence_event)

    async def chat(self, follower: Follower) -> str | None:
        """The chat lines after the last one the follower was sent, or None if there are none."""
        messages = await self.social.messages(follower.room_id)
        seen = follower.chat_seen
        follower.chat_seen = last_id(messages)
        if follower.chat_seen <= seen:
            return None
        make = lambda m: encode({"event": "chat", "messages": after(m, seen)})  # noqa: E731
        return self.payloads.chat_made_of(follower.room_id, messages, ("lines", "json", seen), make)

    async def first(self, follower: Follower, after_version: int | None = None) -> list[str]:
        """What a follower is sent when it starts: its view (unless ``after_version`` is given
        and the room is not past it), then the end if the room is over. Chat lines from now on."""
        follower.chat_seen = last_id(await self.social.messages(follower.room_id))
        info = await self.rooms.room(follower.room_id)
        show = after_version is None or info.version > after_version or info.status in ENDED
        return await self.view_and_end(follower) if show else []

    async def frames(self, follower: Follower, change: Change) -> list[str]:
        """What a follower is sent for a change: its view and (once) the end if the room or
        its game changed (or events were missed), else presence if it changed; new chat lines.
        Raises :class:`Revoked` if the follower's token lost its seat."""
        events = []
        if change.version is not None or change.everything:
            await self.check_seated(follower)
            events += await self.view_and_end(follower)
        elif change.presence:
            events.append(await self.presence(follower.room_id))
        if change.chat or change.everything:
            lines = await self.chat(follower)
            if lines:
                events.append(lines)
        return events

    async def view_and_end(self, follower: Follower) -> list[str]:
        # The end is looked at first: a room that is over changes no more, so the view read
        # after it is the final one.
        end = "" if follower.ended else await self.payloads.made(follower.room_id, ("end",), end_event)
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
