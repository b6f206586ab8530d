"""HTML routes: lobby, room pages (spectator and seat), forms for create/join/start/leave/act,
the rules pages and the API's Swagger UI at /docs. A seat page lives at
``/rooms/<id>/seat/<token>``: that private link is the player's identity in the browser (one
per tab, so one person can test several seats).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from app.api.deps import Chat, Limits, Lobbying, Playing, Rooms, seat_reading, seat_seen
from app.api.deps import lobby as lobby_service
from app.api.deps import social as social_service
from app.api.routes import SeatInPath
from app.api.shapes import read_action
from app.games.base import MAX_DECK_BYTES, N_, say
from app.games.registry import ENTRIES, GAMES
from app.i18n import COOKIE, COOKIE_MAX_AGE, LANGUAGES, translations
from app.reading import canonical_json, whole_number
from app.rooms.errors import BadRequest, RoomError, Stale
from app.rooms.live_games import LiveGames
from app.rooms.lobby import Lobby
from app.rooms.model import Move, RoomInfo
from app.rooms.play import Play
from app.web.delivery import Deliver, Delivery
from app.web.render import fragment, has_template, language_of, page, said_to, speaker
from app.web.security import refuse_cross_site

router = APIRouter(include_in_schema=False)
SAME_SITE_ONLY = [Depends(refuse_cross_site)]  # a form refused when another site's page sends it
Operation = Callable[[int, Any], Awaitable[None]]  # a seat form's command: (the seat, the form)


def seat_url(room_id: str, token: str) -> str:
    return f"/rooms/{room_id}/seat/{token}"


def from_htmx(request: Request) -> bool:
    """Whether htmx sent this request (its ``HX-Request: true``), not the browser's own submit."""
    return request.headers.get("hx-request") == "true"


def form_number(text: Any) -> int | None:
    """A form field's whole number (a minus sign allowed, at most 9 digits), else None."""
    return whole_number(text, most_digits=9, signed=True)


async def options_from_form(slug: str, form: Any) -> dict[str, Any]:
    """Read a game's options from ``opt_<name>`` form fields (unchecked boxes mean False; a
    "deck" option is an uploaded JSON file, validated later by the game)."""
    game = GAMES.get(slug)
    if game is None:
        raise BadRequest("choose a game")
    options: dict[str, Any] = {}
    for spec in game.options:
        raw = form.get(f"opt_{spec.name}")
        if spec.kind == "bool":
            options[spec.name] = raw is not None
        elif spec.kind == "deck":
            if isinstance(raw, UploadFile) and raw.filename:
                options[spec.name] = await read_json_upload(raw)
        elif spec.kind in ("choice", "int") and isinstance(raw, str):
            number = form_number(raw) if spec.kind == "int" else None
            options[spec.name] = raw if number is None else number
    return options


def parse_json(data: str | bytes) -> Any:
    """``json.loads``, with nesting too deep for it (a RecursionError) refused as a ValueError,
    as any other text that is not JSON."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("nested too deeply") from None


async def read_json_upload(upload: UploadFile) -> dict[str, Any]:
    data = await upload.read(MAX_DECK_BYTES + 1)
    if len(data) > MAX_DECK_BYTES:
        raise BadRequest(
            say("the file {name} is larger than {size} KB", name=upload.filename, size=MAX_DECK_BYTES // 1024)
        )
    try:
        parsed = parse_json(data)
    except json.JSONDecodeError as exc:  # (where, in the reader's language: not the parser's English)
        where = {"name": upload.filename, "line": exc.lineno, "column": exc.colno}
        raise BadRequest(say("the file {name} is not valid JSON (line {line}, column {column})", **where)) from None
    except ValueError:  # not UTF-8, or nested too deeply
        raise BadRequest(say("the file {name} is not valid JSON", name=upload.filename)) from None
    if not isinstance(parsed, dict):
        raise BadRequest(say("the file {name} must hold a JSON object", name=upload.filename))
    return parsed


async def lobby_lists(rooms: LiveGames) -> dict[str, list[RoomInfo]]:
    """The lobby's listed rooms: those waiting for players (not those whose free seats still
    wait for the players of the game before: play again), and the games in play to watch."""
    waiting = await rooms.list_rooms("open", limit=50, listed_only=True)
    return {
        "open_rooms": [info for info in waiting if not info.held()],
        "playing_rooms": await rooms.list_rooms("playing", limit=50, listed_only=True),
    }


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, rooms: Rooms):
    return page(request, "lobby.html", {**await lobby_lists(rooms), "games": GAMES.values()})


@router.get("/lobby/rooms", response_class=HTMLResponse)
async def lobby_rooms(request: Request, rooms: Rooms):
    return page(request, "fragments/open_rooms.html", await lobby_lists(rooms))


@router.post("/rooms", dependencies=SAME_SITE_ONLY)
async def create_room(request: Request, lobby: Lobbying, throttle: Limits):
    """Create a room from the lobby's form (an uploaded deck's file is closed however it ends)."""
    async with request.form() as form:
        slug = str(form.get("game", ""))
        seats = form_number(form.get("seats"))
        if seats is None:
            raise BadRequest("choose the number of seats")
        timer = str(form.get("turn_timer", "0"))
        options = await options_from_form(slug, form)
        address = request.client and request.client.host
        new_room = await throttle.checking_room(
            address,
            lambda: lobby.check_new_room(
                slug,
                seats,
                options,
                str(form.get("name", "")),
                timer if form_number(timer) is None else form_number(timer),
                form.get("unlisted") is None,
                form.get("hints") is not None,
            ),
        )
    await throttle.creating_room(address)  # (only a room that passes is counted)
    info, token = await lobby.create(new_room)
    return RedirectResponse(seat_url(info.id, token), status_code=303)


async def room_page_for(
    request: Request,
    rooms: LiveGames,
    delivery: Delivery,
    room_id: str,
    seat: int | None,
    token: str | None,
    lobby: Lobby | None = None,
):
    """A room's page; for a seat, ``lobby`` gives the autopilot grace, after which the host may
    hand an absent player's seat to a bot or give it a new link (the page's buttons wait for
    it), and for the host's seat in a room open or in play what is left of it for each player."""
    await rooms.refresh(room_id)
    lang = language_of(request)
    main = await delivery.main(room_id, seat, token, lang)
    chat, _ = await delivery.chat_log(room_id, seat, lang)
    info = await rooms.room(room_id)
    grace, grace_left = 0, {}
    if lobby is not None:
        grace = round(lobby.autopilot_grace.total_seconds())
        if seat == info.host_seat and info.status in ("open", "playing"):
            grace_left = await lobby.grace_left(room_id)
    whole = {kind: {s: math.ceil(left) for s, left in seats.items()} for kind, seats in grace_left.items()}
    shown = {"info": info, "seat": seat, "token": token, "main": main, "chat": chat, "grace": grace}
    return page(request, "room.html", shown | {"grace_left": whole})


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
async def room_page(room_id: str, request: Request, rooms: Rooms, delivery: Deliver):
    return await room_page_for(request, rooms, delivery, room_id, None, None)


LOG_PAGE = 100  # lines per page of the whole log
LogPageNumber = Annotated[str | None, Query(alias="page", max_length=12)]  # read strictly by form_number


async def log_page_for(
    request: Request, rooms: LiveGames, room_id: str, seat: int | None, token: str | None, number: str | None
):
    """The whole log the viewer may read, a page of LOG_PAGE lines at a time, numbered from the
    first line of the game (by default the last page, the newest lines)."""
    await rooms.refresh(room_id)
    info = await rooms.room(room_id)
    lines = await rooms.log(room_id, seat)
    pages = max(1, -(-len(lines) // LOG_PAGE))
    chosen = pages if number is None else form_number(number)
    if chosen is None or not 1 <= chosen <= pages:
        raise BadRequest(f"choose a page of the log from 1 to {pages}")
    first = (chosen - 1) * LOG_PAGE
    room = seat_url(room_id, token) if token else f"/rooms/{room_id}"
    return page(
        request,
        "log.html",
        {
            "info": info,
            "said": speaker(language_of(request)),
            "lines": lines[first : first + LOG_PAGE],
            "start": first + 1,
            "number": chosen,
            "pages": pages,
            "room_url": room,
        },
    )


@router.get("/rooms/{room_id}/log", response_class=HTMLResponse)
async def log_page(room_id: str, request: Request, rooms: Rooms, number: LogPageNumber = None):
    return await log_page_for(request, rooms, room_id, None, None, number)


@router.get("/rooms/{room_id}/seat/{token}/log", response_class=HTMLResponse)
async def seat_log_page(room_id: str, token: str, request: Request, rooms: Rooms, number: LogPageNumber = None):
    seat = await seat_seen(request, room_id, token)
    return await log_page_for(request, rooms, room_id, seat, token, number)


@router.post("/rooms/{room_id}/join", dependencies=SAME_SITE_ONLY)
async def join_room(room_id: str, request: Request, lobby: Lobbying):
    """Take a seat from the room's page. Sent by htmx, a refusal (a name taken, say) is the
    page's flash message, the typed name left in its field, and a seat taken sends the page to
    the seat's own (``HX-Redirect``); the browser's own post is redirected, or refused with an
    error page."""
    form = await request.form()
    try:
        _, token, _ = await lobby.join(room_id, form.get("name", ""))
    except RoomError as exc:
        if not from_htmx(request):
            raise
        lang = language_of(request)
        flash = fragment(request, lang, "fragments/flash.html", message=said_to(request, exc.said))
        return HTMLResponse(flash, headers={"X-Refused": "1"})
    if from_htmx(request):
        return Response(status_code=204, headers={"HX-Redirect": seat_url(room_id, token)})
    return RedirectResponse(seat_url(room_id, token), status_code=303)


@router.get("/rooms/{room_id}/seat/{token}", response_class=HTMLResponse)
async def seat_page(
    room_id: str, token: str, request: Request, rooms: Rooms, delivery: Deliver, lobby: Lobbying, social: Chat
):
    seat = await rooms.seat_of(room_id, token)
    await social.polled(room_id, seat)  # (a sign of life; the socket it opens takes a stand-in's seat back, saying so)
    return await room_page_for(request, rooms, delivery, room_id, seat, token, lobby)


async def seat_form(
    request: Request,
    rooms: LiveGames,
    delivery: Delivery,
    room_id: str,
    token: str,
    operation: Operation,
    room: bool = True,
    back_unless_htmx: bool = False,
) -> Response:
    """Run one seat's form action and answer HTMX with the flash message (the refusal's reason,
    or empty) and, if ``room``, the fresh room, each swapped in by id. The room is the very text
    the seat's sockets are pushed (rendered once: ``app.web.delivery``); the chat is not sent,
    as its new line reaches the page through the socket. A refusal is also flagged by the
    ``X-Refused`` header, so the page keeps what was typed (a chat line). With
    ``back_unless_htmx``, a post htmx did not send (the browser's own submit of the form) is
    answered, done or refused alike, with a 303 to the seat's page."""
    seat = await rooms.seat_of(room_id, token)
    form = await request.form()
    lang = language_of(request)
    message, refused = "", False
    try:
        # (a sign of life; a stand-in bot gives the seat back)
        if await seat_reading(await social_service(request), await lobby_service(request), room_id, seat):
            message = said_to(request, say(BACK))
        await operation(seat, form)
    except RoomError as exc:
        message, refused = said_to(request, exc.said), True
    if back_unless_htmx and not from_htmx(request):
        return RedirectResponse(seat_url(room_id, token), status_code=303)
    flash = fragment(request, lang, "fragments/flash.html", message=message, good=bool(message) and not refused)
    main = await delivery.main(room_id, seat, token, lang) if room else ""
    return HTMLResponse(flash + main, headers={"X-Refused": "1"} if refused else None)


@router.post("/rooms/{room_id}/seat/{token}/start", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY)
async def start_room(room_id: str, token: str, request: Request, rooms: Rooms, lobby: Lobbying, delivery: Deliver):
    async def start(seat: int, form: Any) -> None:
        await lobby.start(room_id, seat)

    return await seat_form(request, rooms, delivery, room_id, token, start)


@router.post("/rooms/{room_id}/seat/{token}/close", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY)
async def close_room(room_id: str, token: str, request: Request, rooms: Rooms, lobby: Lobbying, delivery: Deliver):
    """The host closes the room (``Lobby.close``); every page on it is pushed the reason."""

    async def close(seat: int, form: Any) -> None:
        await lobby.close(room_id, seat)

    return await seat_form(request, rooms, delivery, room_id, token, close)


@router.post("/rooms/{room_id}/seat/{token}/bots", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY)
async def add_bot(room_id: str, token: str, request: Request, rooms: Rooms, lobby: Lobbying, delivery: Deliver):
    async def add(seat: int, form: Any) -> None:
        target = str(form.get("seat", ""))
        if target and form_number(target) is None:
            raise BadRequest("choose a seat")
        words = translations(language_of(request)).gettext
        await lobby.add_bot(room_id, seat, form.get("level"), form_number(target), words)

    return await seat_form(request, rooms, delivery, room_id, token, add)


@router.post(
    "/rooms/{room_id}/seat/{token}/bots/{bot_seat}/remove", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY
)
async def remove_bot(
    room_id: str, token: str, bot_seat: SeatInPath, request: Request, rooms: Rooms, lobby: Lobbying, delivery: Deliver
):
    async def remove(seat: int, form: Any) -> None:
        await lobby.remove_bot(room_id, seat, bot_seat)

    return await seat_form(request, rooms, delivery, room_id, token, remove)


@router.post("/rooms/{room_id}/seat/{token}/autopilot", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY)
async def autopilot(room_id: str, token: str, request: Request, rooms: Rooms, lobby: Lobbying, delivery: Deliver):
    async def toggle(seat: int, form: Any) -> None:
        await lobby.set_autopilot(room_id, seat, seat, form.get("level") or None)

    return await seat_form(request, rooms, delivery, room_id, token, toggle)


@router.post("/rooms/{room_id}/seat/{token}/replace/{target}", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY)
async def replace_by_bot(
    room_id: str, token: str, target: SeatInPath, request: Request, rooms: Rooms, lobby: Lobbying, delivery: Deliver
):
    async def replace(seat: int, form: Any) -> None:
        await lobby.set_autopilot(room_id, seat, target, "strong")

    return await seat_form(request, rooms, delivery, room_id, token, replace)


@router.post("/rooms/{room_id}/seat/{token}/reissue/{target}", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY)
async def reissue_link(
    room_id: str, token: str, target: SeatInPath, request: Request, rooms: Rooms, lobby: Lobbying, delivery: Deliver
):
    """The host gives an absent player's seat a new private link (``Lobby.reissue``), shown in
    the host's answer alone."""
    seat = await seat_seen(request, room_id, token)
    await request.form()
    lang = language_of(request)
    link = None
    try:
        link = str(request.base_url).rstrip("/") + seat_url(room_id, await lobby.reissue(room_id, seat, target))
        player = (await rooms.room(room_id)).seats.get(target, "")
        said = say(
            "A new private link for {player}'s seat (the old one no longer works); give it to them:", player=player
        )
    except RoomError as exc:
        said = exc.said
    flash = fragment(request, lang, "fragments/flash.html", message=said_to(request, said), link=link)
    return HTMLResponse(flash + await delivery.main(room_id, seat, token, lang))


@router.post("/rooms/{room_id}/seat/{token}/chat", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY)
async def chat(room_id: str, token: str, request: Request, rooms: Rooms, social: Chat, delivery: Deliver):
    async def post(seat: int, form: Any) -> None:
        await social.post(room_id, seat, form.get("text"))

    return await seat_form(request, rooms, delivery, room_id, token, post, room=False)


@router.post("/rooms/{room_id}/seat/{token}/again", dependencies=SAME_SITE_ONLY)
async def play_again(room_id: str, token: str, request: Request, lobby: Lobbying):
    """Play again: to the player's own seat in the next room (their page only, never pushed)."""
    seat = await seat_seen(request, room_id, token)
    next_room, next_token, _ = await lobby.play_again(room_id, seat, token)
    return RedirectResponse(seat_url(next_room, next_token), status_code=303)


@router.post("/rooms/{room_id}/seat/{token}/leave", dependencies=SAME_SITE_ONLY)
async def leave_room(room_id: str, token: str, request: Request, lobby: Lobbying):
    seat = await seat_seen(request, room_id, token)
    await lobby.leave(room_id, seat)
    return RedirectResponse("/", status_code=303)


BACK = N_("You are back: a bot played your seat while your time was out, and now it is yours again.")
SUPERSEDED = N_(
    "Another move was made just before your click, so yours was not played. The table is up to date now: choose again."
)


def resend_key(version: int, action: Any) -> str:
    """A browser click's idempotency key: one seat never makes the same move twice at one
    version, so a click resent after a dropped connection is recognised and applied once."""
    digest = hashlib.sha256(canonical_json(action).encode()).hexdigest()[:24]
    return f"web-{version}-{digest}"


async def play_click(play: Play, room_id: str, seat: int, form: Any) -> None:
    """Play the move of one click's fields, from the form post or the page's socket
    (``app.web.live``): ``action``, its JSON, and ``version``, the version the page showed. A
    RoomError says why not; a stale click is told the table is up to date (the socket's table
    is, and the form post's answer brings it)."""
    try:
        action = parse_json(str(form.get("action", "")))
    except ValueError:
        raise BadRequest("that request was malformed") from None
    version = form_number(form.get("version"))
    if version is None:
        raise BadRequest("that request was malformed")
    move = Move.read(action, version)  # (read before the resend key writes its action as JSON)
    read_action((await play.rooms.room(room_id)).game, move.action)  # its shape, as a program's move
    try:
        await play.act(room_id, seat, replace(move, key=resend_key(version, action)))
    except Stale:
        raise Stale(SUPERSEDED) from None


@router.post("/rooms/{room_id}/seat/{token}/act", response_class=HTMLResponse, dependencies=SAME_SITE_ONLY)
async def act(room_id: str, token: str, request: Request, rooms: Rooms, play: Playing, delivery: Deliver):
    """A click on a move from a page without a live socket (with one, the click travels over
    the socket: ``app.web.live``): played, and htmx's post is answered with the flash and the
    fresh table. A plain post, the browser's own submit of the move form (htmx not yet bound
    to a form just swapped in, or no script at all), is played alike and answered with a 303
    to the seat's page, whether the move was played or refused. The app has no way to carry a
    flash message through a redirect (no session), so a refusal's reason is not said: the seat
    page simply shows the table as it is."""

    async def move(seat: int, form: Any) -> None:
        await play_click(play, room_id, seat, form)

    return await seat_form(request, rooms, delivery, room_id, token, move, back_unless_htmx=True)


@router.post("/language", dependencies=SAME_SITE_ONLY)
async def choose_language(request: Request):
    """The header's language switch: remember the choice in a cookie for a year and go back to
    the page it was made on (a path of this site only)."""
    form = await request.form()
    lang, back = str(form.get("lang", "")), str(form.get("next", "/"))
    if lang not in LANGUAGES:
        raise BadRequest("choose a language")
    if not back.startswith("/") or back.startswith("//") or "\\" in back:
        back = "/"
    answer = RedirectResponse(back, status_code=303)
    secure = request.url.scheme == "https"  # (behind a proxy, as its X-Forwarded-Proto says)
    answer.set_cookie(COOKIE, lang, max_age=COOKIE_MAX_AGE, samesite="lax", httponly=True, secure=secure)
    return answer


SWAGGER = "swagger-ui-5.35.0"


@router.get("/docs", response_class=HTMLResponse)
async def api_docs(request: Request):
    """Swagger UI from the vendored copy in static/ (no CDN), started by a static script."""
    return page(request, "docs.html", {"swagger": SWAGGER})


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request):
    return page(request, "rules/index.html", {"games": GAMES.values()})


def rules_template(name: str, request: Request) -> str:
    """A rules page in the reader's language: ``rules/<lang>/<name>`` where that translation of
    the whole page exists (a rules page is prose, written in each language as a whole), else
    ``rules/<name>``, the English."""
    translated = f"rules/{language_of(request)}/{name}"
    return translated if has_template(translated) else f"rules/{name}"


@router.get("/rules/{slug}", response_class=HTMLResponse)
async def rules_page(slug: str, request: Request):
    if slug not in GAMES:
        raise HTTPException(404, "no such game")
    return page(request, rules_template(f"{slug}.html", request), {"game": GAMES[slug]})


@router.get("/rules/{slug}/{part}", response_class=HTMLResponse)
async def rules_extra_page(slug: str, part: str, request: Request):
    """A game's extra rules page, such as the card list of Vem aí a Troika."""
    template = f"rules/{slug}-{part}.html"
    if slug not in GAMES or not part.isalnum() or not has_template(template):
        raise HTTPException(404, "no such page")
    data = ENTRIES[slug].rules_context
    extra = data() if data else {}
    return page(request, rules_template(f"{slug}-{part}.html", request), {"game": GAMES[slug], **extra})
