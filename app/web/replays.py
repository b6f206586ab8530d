"""Replay pages: a finished game stepped through, version by version, and a record file opened,
verified and replayed.

``/rooms/<id>/replay`` shows a finished game (409 before its end: nothing of it is shown, as
the record refuses) and ``/replay/<digest>`` an uploaded record file (``POST /replay``, verified
as ``troika-arena verify`` does). Each step is the game's own table as a spectator saw it, as
one seat saw it (its hand and its own log lines: the game is over), or as every seat saw it,
one table after another (every hand shown), rendered by the table templates of the room page
with no moves offered, beside the log up to that version with the
step's lines highlighted. First, previous, next and last are links (the keyboard's arrows,
Home and End follow them: static/js/replay.js), the slider a form.

A stored game shown as one seat saw it also shows that seat's review, once its player asked
for one (``app.rooms.reviews``; ``POST /rooms/<id>/seat/<token>/review`` from the seat's page):
its progress while it is made (``/rooms/<id>/replay/review``, which the page asks again until it
is ready, then reloads), then its marked moves as links to their steps, ticks on the slider and,
on a marked step, the sentence that says what the move cost.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import UploadFile

from app.api.deps import Replaying, Reviewing, seat_seen
from app.games.base import say
from app.reading import whole_number
from app.rooms.errors import BadRequest
from app.rooms.records import RecordError
from app.rooms.replays import MAX_RECORD_BYTES, Replay
from app.rooms.reviews import Reviews
from app.web.render import language_of, page, renderer_of, said_to, speaker, uncached
from app.web.security import refuse_cross_site
from app.web.tables import game_table

router = APIRouter(include_in_schema=False)
SPECTATOR, EVERYONE = "spectator", "everyone"


def whole(text: str | None, name: str) -> int | None:
    """A query's whole number in ASCII digits (None if absent), else 400."""
    if text is None or text == "":
        return None
    number = whole_number(text, most_digits=9)
    if number is None and whole_number(text, most_digits=None) is not None:
        raise BadRequest(say("{name} is too large", name=name))
    if number is None:
        raise BadRequest(say("{name} must be a whole number", name=name))
    return number


def viewpoint(text: str | None, players: int) -> int | str | None:
    """Whose table a step shows: None for a spectator's, a seat's, or EVERYONE's (every seat's
    table in turn: every hand shown)."""
    if text in (None, "", SPECTATOR):
        return None
    if text == EVERYONE:
        return EVERYONE
    seat = whole(text, "as")
    if seat is None or seat >= players:
        raise BadRequest(say("as must be spectator, everyone or a seat from 0 to {last}", last=players - 1))
    return seat


def replay_page(
    request: Request, replay: Replay, base: str, source: dict[str, Any], review: dict[str, Any] | None = None
) -> Response:
    """The replay page at the step and viewpoint the query names (a step past the end is the
    end), with the review of the seat it is shown as, if any. Nothing of it is kept by the
    server: its cards are rendered afresh (``uncached``), as its sections are
    (``game_table``), and its log lines are named by no cache (a record may be uploaded)."""
    with uncached():
        return replay_page_of(request, replay, base, source, review)


def replay_page_of(
    request: Request, replay: Replay, base: str, source: dict[str, Any], review: dict[str, Any] | None
) -> Response:
    wanted = whole(request.query_params.get("step"), "step")
    chosen = viewpoint(request.query_params.get("as"), replay.num_players)
    step = replay.step(replay.last if wanted is None else wanted)
    seat = chosen if isinstance(chosen, int) else None
    lang = language_of(request)
    log, earlier = step.log(seat)  # everyone's tables: the public log
    shown_as = SPECTATOR if chosen is None else str(chosen)
    seats = range(replay.num_players) if chosen == EVERYONE else [seat]
    payload = step.payload(seats[0])
    tables = [{"seat": s, "html": game_table(renderer_of(request), step.payload(s), s, lang)} for s in seats]

    def at(version: int) -> str:
        return f"{base}?step={version}&as={shown_as}"

    context = {
        "p": payload,
        "names": [s["name"] for s in payload["room"]["seats"]],
        "said": speaker(lang),
        "tables": tables,
        "replay": replay,
        "step": step.info.version,
        "last": replay.last,
        "at": at,
        "base": base,
        "shown_as": shown_as,
        "log": log,
        "earlier": earlier,
        "source": source,
        "review": review,
    }
    return page(request, "replay.html", context)


async def seat_review(request: Request, room_id: str, replay: Replay, reviews: Reviews) -> dict[str, Any] | None:
    """The review of the seat the page is shown as (None for a spectator's or everyone's)."""
    chosen = viewpoint(request.query_params.get("as"), replay.num_players)
    return await reviews.status(room_id, chosen) if isinstance(chosen, int) else None


@router.get("/rooms/{room_id}/replay")
async def room_replay(room_id: str, request: Request, replays: Replaying, reviews: Reviewing) -> Response:
    replay = await replays.of_room(room_id)
    review = await seat_review(request, room_id, replay, reviews)
    return replay_page(request, replay, f"/rooms/{room_id}/replay", {"room": room_id}, review)


@router.get("/rooms/{room_id}/replay/review")
async def review_section(room_id: str, request: Request, replays: Replaying, reviews: Reviewing) -> Response:
    """The review's section alone, as the replay page asks for it while the review is made;
    once it is ready (or failed) the page is told to reload (``HX-Refresh``), for its marks."""
    replay = await replays.of_room(room_id)
    review = await seat_review(request, room_id, replay, reviews)
    if review is None:
        raise BadRequest("as must be a seat")
    base = f"/rooms/{room_id}/replay"
    shown = whole(request.query_params.get("step"), "step") or 0
    context = {
        "review": review,
        "names": list(replay.names.values()),
        "step": shown,
        "base": base,
        "at": lambda version: f"{base}?step={version}&as={review['seat']}",
        "said": speaker(language_of(request)),
    }
    done = review["status"] not in ("queued", "running")
    return page(request, "replay_review.html", context, headers={"HX-Refresh": "true"} if done else None)


@router.post("/rooms/{room_id}/seat/{token}/review", dependencies=[Depends(refuse_cross_site)])
async def ask_for_review(room_id: str, token: str, request: Request, reviews: Reviewing) -> Response:
    """A player asks, from their seat's page, for the review of their moves: the replay as
    their seat saw it then shows it (its progress first)."""
    seat = await seat_seen(request, room_id, token)
    await reviews.ask(room_id, seat)
    return RedirectResponse(f"/rooms/{room_id}/replay?step=0&as={seat}", status_code=303)


@router.get("/replay")
async def open_record(request: Request) -> Response:
    return page(request, "replay_open.html", {"problem": None})


@router.post("/replay", dependencies=[Depends(refuse_cross_site)])
async def upload_record(request: Request, replays: Replaying) -> Response:
    """Verify an uploaded record file and open its replay (the form again with the reason if
    the file does not verify)."""
    async with request.form() as form:
        upload = form.get("record")
        if not isinstance(upload, UploadFile) or not upload.filename:
            raise BadRequest("choose a record file")
        text = await upload.read(MAX_RECORD_BYTES + 1)
    if len(text) > MAX_RECORD_BYTES:
        raise BadRequest(say("a record file is at most {size} KB", size=MAX_RECORD_BYTES // 1024))
    try:
        key = replays.upload(text)
    except RecordError as exc:
        return page(request, "replay_open.html", {"problem": said_to(request, exc.said)}, status_code=400)
    return RedirectResponse(f"/replay/{key}?step=0", status_code=303)


@router.get("/replay/{key}")
async def uploaded_replay(key: str, request: Request, replays: Replaying) -> Response:
    replay = replays.uploaded(key)
    return replay_page(request, replay, f"/replay/{key}", {"file": key})
