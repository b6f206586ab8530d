"""The payloads the live sockets and the API send: built once per change of a room for every
connected seat together, each seat's text exactly its own ``seat_view``, and rebuilt when the
room's facts, its game or its presence change."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import app.rooms.views as views
from app.games.base import visible_log
from app.games.registry import GAMES
from app.rooms.model import LiveGame, RoomInfo, apply_recorded, with_names
from app.rooms.model import named_args as real_named_args
from app.rooms.views import JSON, LINES_KEPT, LOG_TAIL, Made, Payloads, encode, legal_actions, seat_view, seat_views
from tests.support.registered import seated
from tests.support.tables import room

SLUG = "vem-ai-a-troika"


def move(info: RoomInfo, live: LiveGame) -> RoomInfo:
    """One random legal move, as the service makes it: the game advances, the facts are replaced."""
    game = GAMES[SLUG]
    seat = min(game.to_act(live.state))
    apply_recorded(game, live, [(seat, random.Random(live.version).choice(game.legal_actions(live.state, seat)))])
    return replace(info, version=live.version)


def encoded(
    payloads: Payloads, info: RoomInfo, live: LiveGame | None, seat: int | None, connected: frozenset[int]
) -> str:
    """The seat's JSON payload as ``Payloads.text`` makes it, of the room as given."""
    return payloads.made_of(info, live, connected, Made(JSON, seat), lambda built: built.json(seat))


class CountingViews:
    """Counts the engine's ``views`` calls and the seats they were asked for."""

    def __init__(self, monkeypatch):
        self.calls: list[list] = []
        game = GAMES[SLUG]
        original = game.views

        def views(state, seats):
            seats = list(seats)
            self.calls.append(seats)
            return original(state, seats)

        monkeypatch.setattr(game, "views", views)


def test_a_change_is_built_once_for_every_connected_seat(monkeypatch):
    counting = CountingViews(monkeypatch)
    payloads = Payloads(rooms=None, social=None)
    info, live = room()
    connected = frozenset({0, 1, 2, 3})
    texts = {seat: encoded(payloads, info, live, seat, connected) for seat in (2, 0, 1, 3, 2)}
    assert counting.calls == [[2, 0, 1, 3]], "the first reader builds every connected seat's payload"
    for seat, text in texts.items():
        assert json.loads(text) == json.loads(json.dumps(seat_view(info, live, seat, connected)))
    hands = {seat: json.loads(text)["view"]["hand"] for seat, text in texts.items()}
    assert hands[0] != hands[1], "each seat's text carries its own hand"
    encoded(payloads, info, live, None, connected)
    assert counting.calls[-1] == [None], "a spectator's payload is built on its own"


def test_a_move_a_lobby_change_or_a_presence_change_rebuilds(monkeypatch):
    counting = CountingViews(monkeypatch)
    payloads = Payloads(rooms=None, social=None)
    info, live = room()
    before = encoded(payloads, info, live, 0, frozenset({0}))
    info = move(info, live)
    after_move = encoded(payloads, info, live, 0, frozenset({0}))
    assert json.loads(after_move)["version"] == json.loads(before)["version"] + 1
    renamed = replace(info, seats={**info.seats, 0: "Ana"})
    assert '"Ana"' in encoded(payloads, renamed, live, 0, frozenset({0}))
    assert json.loads(encoded(payloads, renamed, live, 0, frozenset({0, 1})))["connected"] == [0, 1]
    assert len(counting.calls) == 4


def test_only_the_latest_rooms_are_held(monkeypatch):
    counting = CountingViews(monkeypatch)
    payloads = Payloads(rooms=None, social=None, held=2)
    rooms = [room(f"r{n}") for n in range(3)]
    for info, live in rooms:
        encoded(payloads, info, live, 0, frozenset())
    encoded(payloads, *rooms[2], 0, frozenset())
    encoded(payloads, *rooms[1], 0, frozenset())
    assert len(counting.calls) == 3, "the two latest rooms were served as built"
    encoded(payloads, *rooms[0], 0, frozenset())
    assert len(counting.calls) == 4, "the oldest room was let go and is built again"


def test_a_game_is_held_frozen_without_its_fixed_parts_and_thaws_whole():
    info, live = room()
    game = GAMES[SLUG]
    setup = game.setup(4, {}, "seed-r1")
    assert live.state == setup
    assert b'"deck"' not in live.frozen and live.fixed == {"deck": setup["deck"]}
    copy = live.state
    copy["players"].clear()
    assert live.state == setup, "each read is a copy of its own"
    move(info, live)
    assert live.version == 1 and b'"deck"' not in live.frozen and live.state["deck"] == setup["deck"]


def test_legal_actions_answer_as_the_seats_whole_payload_does():
    info, live = room()
    for _ in range(6):
        for seat in range(4):
            whole = seat_view(info, live, seat)
            assert legal_actions(info, live, seat) == {
                "version": whole["version"],
                "seat": seat,
                "legal_actions": whole["legal_actions"],
            }
        assert any(legal_actions(info, live, seat)["legal_actions"] for seat in range(4))
        info = move(info, live)
    lobby = replace(info, status="open")
    assert legal_actions(lobby, None, 1) == {"version": lobby.version, "seat": 1, "legal_actions": []}


def test_each_seat_is_shown_the_log_as_it_may_read_it_each_line_made_once():
    """The payload's log is ``visible_log`` then ``with_names`` for every seat and a spectator,
    numbered by the lines that seat may read; a line two seats may read is one object."""
    info, live = room()
    info = replace(info, seats={s: f"P{s}" for s in range(4)})
    game, private_seen = GAMES[SLUG], False
    for _ in range(120):
        if not game.to_act(live.state):
            break
        info = move(info, live)
        log = live.state["log"]
        shown = seat_views(info, live, [0, 1, 2, 3, None])
        for seat, payload in shown.items():
            assert payload["log"] == with_names(visible_log(log, seat, LOG_TAIL), info.seats)
            assert payload["log_total"] == len(readable_tail(log, seat, None))
        private_seen |= len({payload["log_total"] for payload in shown.values()}) > 1
        ids = {id(line) for payload in shown.values() for line in payload["log"]}
        lines = {i for seat in shown for i in readable_tail(log, seat)}
        assert len(ids) == len(lines), "each line is made once for all the seats"
    assert private_seen, "the game logged lines that only some seats may read"


def test_a_build_after_a_move_makes_only_the_new_log_lines_and_other_names_make_them_all(monkeypatch):
    """A room's next build uses the log lines its last build made (``NamedLines``: a log only
    grows), each only while its entry is the same, and a change of a player's name makes every
    line afresh; the payloads are what a build from nothing gives."""
    made: list[dict] = []
    monkeypatch.setattr(views, "named_args", lambda args, names: made.append(args) or real_named_args(args, names))
    payloads = Payloads(rooms=None, social=None)
    info, live = room()
    info = replace(info, seats={s: f"P{s}" for s in range(4)})
    for _ in range(12):
        info = move(info, live)
    encoded(payloads, info, live, None, frozenset())
    first = len(made)
    assert first > 0
    info = move(info, live)
    logged = len(live.state["log"]) - len(GAMES[SLUG].setup(4, {}, "x")["log"])
    text = encoded(payloads, info, live, None, frozenset())
    new_lines = len(made) - first
    assert 0 < new_lines < first, (new_lines, first)  # the move's own lines, not the whole tail again
    assert text == encode(seat_view(info, live, None)), "as built from nothing"
    renamed = replace(info, seats={**info.seats, 1: "Renamed"})
    text = encoded(payloads, renamed, live, None, frozenset())
    assert text == encode(seat_view(renamed, live, None))
    assert len(made) - first - new_lines >= min(LOG_TAIL, logged), "other names: every line of the tail made again"
    for _ in range(60):
        info = move(info, live)
        encoded(payloads, info, live, None, frozenset())
    kept = payloads._built[info.id].named  # (inside: what is checked is what the build holds)
    assert kept and min(kept) >= len(live.state["log"]) - LINES_KEPT, "only the latest lines are kept"


def test_a_build_serves_a_room_alike_by_value_whatever_objects_hold_it(monkeypatch):
    """A build is matched by what the room is (its facts, game version and presence), not by
    which objects hold it: the same room read again (a cache reloaded, a game rebuilt from its
    log) is served as built, and a change of any part of it is built anew."""
    counting = CountingViews(monkeypatch)
    payloads = Payloads(rooms=None, social=None)
    info, live = room()
    first = encoded(payloads, info, live, 0, frozenset({0}))
    reloaded, rebuilt = replace(info, seats=dict(info.seats)), replace(live, awaited=list(live.awaited))
    assert encoded(payloads, reloaded, rebuilt, 0, frozenset({0})) == first
    assert len(counting.calls) == 1, "an equal room is not built again"
    reissued = replace(info, token_hashes={**info.token_hashes, "new link": 0})
    encoded(payloads, reissued, live, 0, frozenset({0}))
    assert len(counting.calls) == 2, "a seat's new link is a change (the table's move links carry it)"
    encoded(payloads, reissued, live, 0, frozenset({0, 1}))
    assert len(counting.calls) == 3, "so is a seat connecting"


def readable_tail(log: list[dict], seat: int | None, last: int | None = LOG_TAIL) -> list[int]:
    """The indices of the last ``last`` lines (all: None) that ``seat`` may read."""
    readable = [i for i, e in enumerate(log) if e["to"] is None or (seat is not None and seat in e["to"])]
    return readable[-last:] if last else readable


def test_a_build_keeps_its_payloads_as_text_and_hands_out_fresh_copies():
    """A held build is texts only (no tree of containers for the garbage collector to walk at
    every young collection); each ``payload`` is a new object, equal to the seat's view."""
    payloads = Payloads(rooms=None, social=None)
    info, live = room()
    connected = frozenset({0, 1})
    encoded(payloads, info, live, 0, connected)
    built = payloads._built[info.id]  # inside on purpose: what is checked is the form the build is held in
    first = built.payload(1)
    assert first == json.loads(json.dumps(seat_view(info, live, 1, connected)))
    first["view"]["hand"].clear()
    assert built.payload(1)["view"]["hand"], "a caller's change to its copy is not seen by the next"
    assert set(vars(built)) == {"snapshot", "info", "live", "named", "texts"}
    assert built.named and all(type(line) is bytes for line in built.named.values())
    assert built.texts and all(isinstance(text, str) for text in built.texts.values())


GAMES_PLAYED = [(slug, players, {}) for slug, players in seated(2) + seated(5)]  # each game, fewest and most
GAMES_PLAYED += [("vem-ai-a-troika", 3, {"advanced": True})]


def test_every_view_is_exactly_what_its_json_text_parses_back_to():
    """What lets a build keep only the text: no view holds a tuple, a non-text key or a float
    that JSON would give back changed (whole games of random moves, every seat and a spectator).
    On the way, each seat's payload lists the seat itself in to_act exactly when it may move."""
    checked = 0
    for slug, players, options in GAMES_PLAYED:
        game, rng = GAMES[slug], random.Random(slug)
        info, live = room(slug, players, slug, options)
        for _ in range(300):
            built_views = seat_views(info, live, [*range(players), None], frozenset(range(players)))
            for view in built_views.values():
                assert json.loads(encode(view)) == view
                checked += 1
            for seat in range(players):
                mine = built_views[seat]
                assert (seat in mine["to_act"]) == mine["your_turn"] == bool(mine["legal_actions"])
            state = live.state
            awaited = sorted(game.to_act(state))
            if not awaited:
                break
            seat = rng.choice(awaited)
            apply_recorded(game, live, [(seat, rng.choice(game.legal_actions(state, seat)))])
    assert checked > 1000
