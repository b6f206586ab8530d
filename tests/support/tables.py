"""Tables built in process, as the server builds a reader's table, for the tests of sections,
frames, pointing, results and payloads: a started room of any game held in memory (``room_of``,
or ``room`` with its id, seed and seats' names of its own), and a page's ``#room-main`` in a
form two pages can be compared in (``normal``)."""

from __future__ import annotations

import lxml.html

from app.bench.browser import Page
from app.games.registry import GAMES
from app.rooms.model import LiveGame, RoomInfo

NAMES = ["Ana", "Bruno", "Carla", "Duarte", "Eva", "Filipa"]


def normal(page: Page) -> bytes:
    """``#room-main`` as the browser holds it, whitespace between elements aside (htmx does not
    keep a swapped element's surrounding whitespace either)."""
    main = page.find("room-main")
    assert main is not None
    copy = lxml.html.fromstring(lxml.html.tostring(main))
    for element in copy.iter():
        if element.text is not None and not element.text.strip():
            element.text = None
        if element.tail is not None and not element.tail.strip():
            element.tail = None
    return lxml.html.tostring(copy)


def room_of(slug: str, players: int, options: dict) -> tuple[RoomInfo, LiveGame]:
    """A room of ``slug`` in play with ``players`` seated people (named from ``NAMES``), and its
    game just dealt from a fixed seed."""
    game = GAMES[slug]
    live = LiveGame.begin(game, game.setup(players, options, f"frames-{slug}-{players}-{options}"))
    names = {s: NAMES[s] for s in range(players)}
    info = RoomInfo(
        id="frames",
        game=slug,
        title=game.title,
        options=options,
        num_seats=players,
        host_seat=0,
        status="playing",
        version=0,
        seed_hash="cd" * 32,
        seats=names,
        humans=set(names),
    )
    return info, live


def room(
    room_id: str = "r1", seats: int = 4, slug: str = "vem-ai-a-troika", options: dict | None = None
) -> tuple[RoomInfo, LiveGame]:
    """A room of ``slug`` in play with ``seats`` players named P0, P1, ..., dealt from a seed of
    ``room_id``'s own."""
    game = GAMES[slug]
    state = game.setup(seats, options or {}, f"seed-{room_id}")
    info = RoomInfo(
        id=room_id,
        game=slug,
        title=game.title,
        options=options or {},
        num_seats=seats,
        host_seat=0,
        status="playing",
        version=0,
        seed_hash="h",
        seats={s: f"P{s}" for s in range(seats)},
        seed=f"seed-{room_id}",
    )
    return info, LiveGame.begin(game, state)
