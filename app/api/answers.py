"""The shapes of the API's answers, as published in /openapi.json.

Each model is closed (``extra="forbid"``): a field the code answers but the contract does not
name fails the conformance test (tests/test_contract.py) instead of going undocumented. The
routes name these models for the contract but send their answers as the code built them
(``app.api.routes.answer``): a drift is a failing test, never a 500 for a caller.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.shapes import AnyAction, AnyView
from app.games.base import OutcomeJSON
from app.games.registry import GAMES

BotLevel = Literal["random", "strong", "expert"]  # app.rooms.model.BOT_LEVELS
RoomStatus = Literal["open", "playing", "finished", "closed", "abandoned"]
ClosedReason = Literal["left", "host", "idle"]
Moment = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
FEWEST_SEATS = min(game.min_players for game in GAMES.values())
MOST_SEATS = max(game.max_players for game in GAMES.values())
SeatNumber = Annotated[int, Field(ge=0, le=MOST_SEATS - 1, description="a seat, numbered from 0")]
SeatCount = Annotated[int, Field(ge=FEWEST_SEATS, le=MOST_SEATS)]


class Closed(BaseModel):
    # (the games' typed views take this config too: a field's docstring is its description)
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Health(Closed):
    status: Literal["ok"]


class GameOption(Closed):
    name: str
    type: Literal["bool", "choice", "int", "deck"] = Field(description="a deck is a JSON data file (Vem aí)")
    default: Any
    description: str
    choices: list[Any] = Field(description="the allowed values, if the option is a choice")


class BotInfo(Closed):
    level: BotLevel = Field(description='the name to seat it by (POST /api/rooms/{id}/seats with {"bot": level})')
    elo: int = Field(description="its Elo rating in this game at 2 players, random at 0 (docs/bots.md, the ladder)")


class GameInfo(Closed):
    slug: str
    title: str
    min_players: int
    max_players: int
    options: list[GameOption]
    bots: list[BotInfo] = Field(description="the bot levels a room can seat, weakest first, with their ratings")
    rules: str = Field(description="the rules page's path")


class SeatInfo(Closed):
    seat: SeatNumber
    name: str | None = Field(description="None while the seat is free")
    host: bool
    bot: BotLevel | None = Field(description="the level of the bot playing this seat, if one does")
    stand_in: bool = Field(
        description="whether that bot stands in only until the player is back (the turn timer seated it: "
        "the player's next socket, stream or move takes the seat back)"
    )
    human: bool = Field(description="whether a person holds the seat (a bot may play it for them)")
    held_for: str | None = Field(
        description="a room played again: the name of the last game's player this free seat waits for, "
        "until the room's held_until (None: it waits for no one)"
    )


class Room(Closed):
    id: str
    game: str
    title: str
    options: dict[str, Any] = Field(description="the room's options; a custom deck shown by its name")
    num_seats: SeatCount
    seats: list[SeatInfo]
    status: RoomStatus
    version: int = Field(description="the number of moves applied")
    seed_hash: str = Field(description="SHA-256 of the seed, published before the deal")
    seed: str | None = Field(description="the seed, once the game is finished")
    turn_seconds: int | None = Field(description="the turn timer, in seconds (None: off)")
    turn_deadline: Moment | None = Field(description="when the seats awaited now run out of time")
    listed: bool = Field(description="whether the lobby lists the room (False: only its invite link finds it)")
    hints: bool = Field(description="whether its seats may ask for a suggested move (GET /api/rooms/{id}/hint)")
    next_room: str | None = Field(description="once its players play again, the id of their next room")
    held_until: Moment | None = Field(
        description="a room played again: until when its free seats wait for the last game's players"
    )
    closed_reason: ClosedReason | None = Field(
        description="why a closed or abandoned room closed: everyone left, its host closed it, or it stood idle "
        "for ROOM_IDLE_HOURS (None while it is open, in play or finished)"
    )


class RoomClosed(Closed):
    status: Literal["closed", "abandoned"] = Field(description="closed before the start, or abandoned in play")
    closed_reason: Literal["host"]


class Created(Closed):
    room: Room
    seat: Literal[0]
    token: str = Field(description="the host's seat token: keep it private")


class Joined(Closed):
    seat: SeatNumber
    token: str = Field(description="your seat token: keep it private")
    duplicate: bool = Field(description="whether this answers a resend with the same idempotency key")


class NextSeat(Closed):
    """Your seat in the room a finished game's players play again in."""

    room: str = Field(description="the next room's id (its public page, /rooms/{room}, is its invite link)")
    seat: SeatNumber = Field(description="your seat there: the same number as in the finished game")
    token: str = Field(description="your seat token there, given only to you (the same each time you ask)")
    duplicate: bool = Field(description="whether you had asked already")


class BotSeated(Closed):
    seat: SeatNumber
    bot: BotLevel


class Left(Closed):
    left: SeatNumber


class Removed(Closed):
    removed: SeatNumber


class Reissued(Closed):
    """A seat's new private link, answered to the host only (the old one no longer works)."""

    seat: SeatNumber
    token: str = Field(description="the seat's new token, for its player")
    url: str = Field(description="the seat's new private page, on this server: /rooms/<id>/seat/<token>")


class AutopilotSet(Closed):
    seat: SeatNumber
    bot: BotLevel | None


MESSAGE_ID = "the message id: the English text with {name} placeholders, for a client that translates"
MESSAGE_ARGS = "the placeholders' values: text, numbers or messages ({msg, args}) in their turn"


class LogLine(Closed):
    text: str = Field(description="the line in English, players named")
    msg: str = Field(description=MESSAGE_ID)
    args: dict[str, Any] = Field(description=MESSAGE_ARGS)


class LabelledAction(Closed):
    action: AnyAction
    label: str = Field(description="a short button label, in English")
    msg: str = Field(description=MESSAGE_ID)
    args: dict[str, Any] = Field(description=MESSAGE_ARGS)


class Payload(Closed):
    """What one seat (or a spectator) is shown of a room: the same JSON its socket receives."""

    room: Room
    version: int
    seat: SeatNumber | None = Field(description="the viewer's seat; None for a spectator")
    status: RoomStatus
    to_act: list[SeatNumber] = Field(
        description="the seats whose move is awaited, as this seat is shown them: it lists the reader exactly "
        "when your_turn is true; while a hidden simultaneous prompt is open it may list other seats that "
        "have already answered"
    )
    your_turn: bool
    view: AnyView | None = Field(description="the game's view for this seat; None before the start")
    legal_actions: list[LabelledAction] = Field(description="the moves this seat may make now")
    log: list[LogLine] = Field(description="the last lines of the log this seat may read")
    log_total: int = Field(description="how many lines of the log this seat may read in all (GET /log has them)")
    outcome: OutcomeJSON | None
    connected: list[SeatNumber] = Field(description="the seats with a live socket open")
    change: int | None = Field(
        default=None,
        description="GET /view, a start's or move's reply, the stream and the socket: the id of the "
        "room's last change this view reflects; resume with after=<change> (a resend's reply whose view "
        "is no longer the room's carries none)",
    )


class MoveReply(Payload):
    duplicate: bool = Field(description="whether this answers a resend with the same idempotency key")


class LegalActions(Closed):
    version: int
    seat: SeatNumber
    legal_actions: list[LabelledAction]


class Log(Closed):
    seat: SeatNumber | None
    log: list[LogLine]


class ChatMessage(Closed):
    id: int = Field(description="unique on the server, increasing: counted across rooms (a room's lines skip some)")
    change: int = Field(description="the id of the room's change that posted the line")
    seat: SeatNumber
    name: str
    text: str
    at: Moment


class Chat(Closed):
    messages: list[ChatMessage]


class RecordedAction(Closed):
    seq: int
    seat: SeatNumber
    action: AnyAction
    bot: bool = Field(
        description="a bot chose this move: a bot's seat, a stand-in for an absent player or a player's "
        "autopilot (false for moves logged before the server kept this)"
    )


class ReplayStep(Closed):
    """One step of a finished game's replay: the table as a spectator or one seat saw it at
    that version (no move offered, as the replay page shows it) and the log up to it."""

    room: str
    step: int = Field(description="the version shown (a step past the end shows the end)")
    last: int = Field(description="the game's last version")
    seat: SeatNumber | None = Field(description="whose view this is; None for a spectator's")
    payload: Payload = Field(description="the viewer's payload at that version (as GET /view answered it then)")
    log: list[LogLine] = Field(description="the whole log up to that version, as the viewer could read it")
    new_lines_from: int = Field(description="the index in ``log`` of the first line this version's move added")


class Record(Closed):
    """A finished or abandoned game's replayable record (``troika-arena verify`` checks one)."""

    format: str
    status: Literal["finished", "abandoned"] = Field(
        description="abandoned: closed before its end (its actions end nowhere, its outcome is None)"
    )
    room: str
    game: str
    num_players: int
    options: dict[str, Any]
    seed: str
    seed_hash: str
    players: list[str | None]
    actions: list[RecordedAction]
    outcome: OutcomeJSON | None


class ViewEvent(Payload):
    """A seat's whole view (the payload GET /view answers), sent for every change of the room
    or its game (``app.api.events``)."""

    event: Literal["view"]


CHANGE = "the id of the room's last change this event reflects (the stream, GET /events, the socket; resume after it)"


class EndEvent(Closed):
    """Sent once the game is over or the room closed, after the final view."""

    change: int | None = Field(default=None, description=CHANGE)
    event: Literal["end"]
    version: int
    status: Literal["finished", "closed", "abandoned"]
    closed_reason: ClosedReason | None = Field(description="why the room closed (None for a finished game)")
    outcome: OutcomeJSON | None


class PresenceEvent(Closed):
    """Sent when only presence changed."""

    change: int | None = Field(default=None, description=CHANGE)
    event: Literal["presence"]
    connected: list[SeatNumber]


class ChatEvent(Closed):
    """Sent with the chat lines new since the last event."""

    change: int | None = Field(default=None, description=CHANGE)
    event: Literal["chat"]
    messages: list[ChatMessage]


Push = Annotated[
    ViewEvent | PresenceEvent | ChatEvent | EndEvent,
    Field(discriminator="event", description="one JSON frame of the live socket, one line of the event stream"),
]


class EventBatch(Closed):
    """GET /events: the stream's events after a change, oldest first (none if ``wait`` ran out)."""

    change: int = Field(description="the id of the room's last change: pass it as after= next")
    events: list[Push]


class Said(Closed):
    """A sentence: its English ``text``, and its message for a client that translates."""

    text: str = Field(description="in English, players named")
    msg: str = Field(description=MESSAGE_ID)
    args: dict[str, Any] = Field(description=MESSAGE_ARGS)


class Hint(Closed):
    """The strong bot's suggested move for your seat now, from what your seat can see."""

    version: int = Field(description="the version it was worked out at: send the move with it")
    seat: SeatNumber
    level: BotLevel = Field(description="the bot whose search suggests it")
    suggestion: LabelledAction = Field(description="one of your legal actions, as legal-actions lists it")
    reason: Said = Field(description="why, in one line")


class ReviewedMove(Closed):
    """A move a review marks: what was played at that step, what the bot preferred, and how
    much expected score the preferred move was worth more, in [0, 1] (1: a whole win)."""

    step: int = Field(description="the version the move made (the replay's step showing it)")
    played: LabelledAction
    preferred: LabelledAction
    played_value: float = Field(description="the move played's expected score, by the bot's estimate")
    preferred_value: float = Field(description="the preferred move's, on the same sampled worlds")
    gain: float = Field(description="preferred_value - played_value")


class Review(Closed):
    """The post-game review of one seat's moves."""

    room: str
    seat: SeatNumber
    status: Literal["none", "queued", "running", "ready", "failed"] = Field(
        description="none: nobody asked for it; queued, then running (done of total decisions "
        "assessed), then ready with its moves; failed: it could not be made (ask again)"
    )
    done: int
    total: int = Field(description="the seat's decisions (moves with a choice); 0 until it runs")
    level: BotLevel = Field(description="the bot whose search assessed the moves")
    moves: list[ReviewedMove] = Field(description="ready: the 3 to 5 costliest moves, in the order played")
