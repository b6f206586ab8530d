"""A seat's hint from its page, in a room created with hints: the same hint as
``GET /api/rooms/{id}/hint`` (``app.rooms.hints``: the strong bot's move for what the seat
knows, and why), answered as the hint's line swapped into the table's coach section, or the
refusal's reason as the flash. A review of the seat's moves is asked for from the page with
``app.web.replays``'s form."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from app.api.deps import Hinting, Rooms, seat_seen
from app.games.base import spoken
from app.i18n import translations
from app.rooms.errors import RoomError
from app.web.render import fragment, language_of
from app.web.security import refuse_cross_site

router = APIRouter(include_in_schema=False)


@router.post(
    "/rooms/{room_id}/seat/{token}/hint", response_class=HTMLResponse, dependencies=[Depends(refuse_cross_site)]
)
async def hint(room_id: str, token: str, request: Request, rooms: Rooms, hints: Hinting) -> HTMLResponse:
    seat = await seat_seen(request, room_id, token)
    lang = language_of(request)
    said = translations(lang).gettext
    try:
        found = await hints.hint(room_id, seat)
    except RoomError as exc:
        flash = fragment(request, lang, "fragments/flash.html", message=spoken(exc.said, said))
        return HTMLResponse(flash, headers={"X-Refused": "1"})
    move, reason = found["suggestion"], found["reason"]
    why = spoken(reason, said)
    answer = {"move": spoken(move, said), "reason": why[:1].upper() + why[1:], "version": found["version"]}
    flash = fragment(request, lang, "fragments/flash.html", message="")
    return HTMLResponse(flash + fragment(request, lang, "fragments/hint.html", hint=answer))
