"""The REST API: room lifecycle, a whole game played through the API alone, the authorisation
matrix, version conflicts, idempotent resends and readable errors."""

from __future__ import annotations

import hashlib
import random
import re

import pytest

from app.bots.ratings import RATINGS
from app.games.registry import BUILT_IN, GAMES, load
from app.rooms.errors import Stale
from app.rooms.model import LiveGame, check_version
from tests.conftest import auth, create_started_room, play_random_moves
from tests.support.document import served_document


async def test_games_are_listed_with_seat_ranges_and_options(client):
    games = {g["slug"]: g for g in (await client.get("/api/games")).json()}
    assert games["troika"]["min_players"] == 2 and games["troika"]["max_players"] == 5
    assert any(o["name"] == "first_player" for o in games["troika"]["options"])
    for slug, game in games.items():  # the bot levels by name, weakest first, with the ladder's ratings
        assert sorted(b["level"] for b in game["bots"]) == ["expert", "random", "strong"]
        rated = RATINGS.get(slug, dict.fromkeys(["random", "strong", "expert"], 0))  # a game off the ladder: all 0
        assert [b["elo"] for b in game["bots"]] == sorted(rated.values())
        assert {b["level"]: b["elo"] for b in game["bots"]} == rated
    assert set(RATINGS) == set(load(BUILT_IN)), "every shipped game is on the ladder"


async def test_healthz_and_openapi(client):
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    spec = (await client.get("/openapi.json")).json()
    assert "/api/rooms/{room_id}/actions" in spec["paths"]
    assert spec == served_document(), "the document the schema tests share is the one served"


async def test_lobby_lists_open_rooms_and_join_fills_seats_in_order(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})
    room = r.json()["room"]
    assert room["status"] == "open" and room["seats"][0]["name"] == "Ana"
    assert room["seed"] is None and len(room["seed_hash"]) == 64
    listed = (await client.get("/api/rooms", params={"status": "open"})).json()
    assert room["id"] in [x["id"] for x in listed]
    joined = (await client.post(f"/api/rooms/{room['id']}/seats", json={"name": "Bruno"})).json()
    assert joined["seat"] == 1 and joined["token"]
    info = (await client.get(f"/api/rooms/{room['id']}")).json()
    assert [s["name"] for s in info["seats"]] == ["Ana", "Bruno", None]


async def test_create_refuses_bad_input_with_readable_messages(client):
    """Out of the bounds the schema states: 400 ``invalid_request``; within them but not for
    this game (or empty once its whitespace is folded, or too long): 400 ``bad_request``."""
    bad, invalid, unknown = (400, "bad_request"), (400, "invalid_request"), (422, "unknown_field")
    cases = [
        ({"game": "chess", "seats": 2, "name": "A"}, bad, "unknown game"),
        ({"game": "troika", "seats": 6, "name": "A"}, invalid, "seats: Input should be less than or equal to 5"),
        ({"game": "troika", "seats": 1, "name": "A"}, invalid, "seats: Input should be greater than or equal to 2"),
        ({"game": "troika", "seats": 10**30, "name": "A"}, invalid, "seats"),
        ({"game": "triatri", "seats": 5, "name": "A"}, bad, "2 to 4 seats"),
        ({"game": "troika", "seats": 3, "name": "   "}, bad, "name must not be empty"),
        ({"game": "troika", "seats": 3, "name": ""}, invalid, "name: must be at least one character"),
        ({"game": "troika", "seats": 3, "name": "\x00x"}, invalid, "with no control character"),
        ({"game": "troika", "seats": 3, "name": "x" * 25}, bad, "at most 24"),
        ({"game": "troika", "seats": 3, "name": "A", "options": {"colour": 1}}, unknown, "options.colour"),
        ({"game": "troika", "seats": 3, "name": "A", "options": {"first_player": "4"}}, bad, "invalid options"),
        ({"game": "troika", "seats": 3}, invalid, "name"),  # malformed: no name
    ]
    before = len((await client.get("/api/rooms")).json())
    for body, (status, code), words in cases:
        r = await client.post("/api/rooms", json=body)
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
        assert words in r.json()["message"], (body, r.text)
    assert len((await client.get("/api/rooms")).json()) == before
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 5, "name": "x" * 24})  # both at the limit
    assert r.status_code == 201, r.text


async def test_a_name_someone_in_the_room_holds_is_refused_in_any_case(client):
    """The log, the chat and the scores name players: a second "Ana" (or " ana ", or a
    full-width one) is 409 and takes no seat; a bot's name is held too."""
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 4, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    url = f"/api/rooms/{room_id}/seats"
    assert (await client.post(url, json={"bot": "strong"}, headers=auth(host))).status_code == 201
    bot_name = (await client.get(f"/api/rooms/{room_id}")).json()["seats"][1]["name"]
    for taken in ("Ana", "  aNA ", "\uff21\uff4e\uff41", bot_name.upper()):  # (full-width letters read alike)
        r = await client.post(url, json={"name": taken})
        assert (r.status_code, r.json()["error"]) == (409, "conflict"), (taken, r.text)
        assert "already called" in r.json()["message"]
    form = await client.post(f"/rooms/{room_id}/join", data={"name": "ANA"}, headers={"accept": "text/html"})
    assert form.status_code == 409 and "already called ANA" in form.text
    assert f'href="/rooms/{room_id}">Back to the room' in form.text  # to choose another name there
    # A Cyrillic A or a (U+0410, U+0430) in a Latin name reads as the Latin letter: a name that mixes them is
    # refused, wherever it is given (a Greek or Cyrillic name of its own is a name like any).
    for mixed in ("\u0410na", "An\u0430", "\U0001d400n\u0430", "Zo\u0435"):
        r = await client.post(url, json={"name": mixed})
        assert (r.status_code, r.json()["error"]) == (400, "bad_request"), (mixed, r.text)
        assert r.json()["message"] == "name must not mix Latin, Greek and Cyrillic letters, which can look alike"
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "\u0410na"})
    assert r.status_code == 400 and "must not mix" in r.json()["message"]
    assert (await client.post(url, json={"name": "Anabela"})).status_code == 201
    assert (await client.post(url, json={"name": "Анна 田中さん 2"})).status_code == 201
    seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert [s["name"] for s in seats] == ["Ana", bot_name, "Anabela", "Анна 田中さん 2"]


async def test_a_name_that_differs_from_anothers_only_by_invisible_characters_is_taken(client):
    """Characters Unicode draws as nothing (a combining grapheme joiner, a Hangul filler, a
    variation selector) are printable to Python: "Bru\u034fno" read as a second "Bruno". They are
    ignored when names are compared, and a name of nothing else is empty."""
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 5, "name": "Bruno"})
    url = f"/api/rooms/{r.json()['room']['id']}/seats"
    for alike in ("Bru\u034fno", "Bruno\u3164", "\ufe0fBRUNO", "Bruno\U000e0100", "Bru\u115fno"):
        r = await client.post(url, json={"name": alike})
        assert (r.status_code, r.json()["error"]) == (409, "conflict"), (alike, r.text)
    for blank in ("\u3164", "\u115f\u1160", "\uffa0 \u034f"):
        r = await client.post(url, json={"name": blank})
        assert r.status_code == 400 and r.json()["message"] == "name must not be empty", (blank, r.text)
    assert (await client.post(url, json={"name": "\u2764\ufe0f"})).status_code == 201  # an emoji keeps its selector


async def test_malformed_json_and_unknown_routes_answer_json(client):
    r = await client.post("/api/rooms", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "invalid_request"
    r = await client.get("/api/rooms/does-not-exist")
    assert r.status_code == 404 and r.json() == {"error": "not_found", "message": "no such room"}
    r = await client.get("/api/nothing-here")
    assert r.status_code == 404 and "message" in r.json()


async def test_start_only_by_host_and_only_when_full(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    r = await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
    # (a count, not a seat's number: "seats still free: 1" read as the seat numbered 1, a probe)
    assert r.status_code == 409
    assert r.json()["message"] == "1 of the 2 seats still free: seat a player or a bot in each first"
    guest = (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})).json()["token"]
    r = await client.post(f"/api/rooms/{room_id}/start", headers=auth(guest))
    assert r.status_code == 403
    r = await client.post(f"/api/rooms/{room_id}/start", headers=auth(host))
    assert r.status_code == 200 and r.json()["status"] == "playing"
    r = await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Late"})
    assert r.status_code == 409
    r = await client.delete(f"/api/rooms/{room_id}/seats/me", headers=auth(guest))
    assert r.status_code == 409


async def test_leave_before_start_frees_the_seat_and_passes_the_host_role(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    bo = (await client.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})).json()["token"]
    assert (await client.delete(f"/api/rooms/{room_id}/seats/me", headers=auth(host))).status_code == 200
    info = (await client.get(f"/api/rooms/{room_id}")).json()
    assert [s["name"] for s in info["seats"]] == [None, "Bo", None]
    assert info["seats"][1]["host"] is True
    assert (await client.delete(f"/api/rooms/{room_id}/seats/me", headers=auth(bo))).status_code == 200
    assert (await client.get(f"/api/rooms/{room_id}")).json()["status"] == "closed"


async def test_a_complete_troika_game_through_the_rest_api_alone(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    assert (await client.get(f"/api/rooms/{room_id}/record")).status_code == 409
    view = await play_random_moves(client, room_id, tokens, 2000, random.Random(5))
    assert view["status"] == "finished"
    assert view["outcome"]["winners"] and len(view["outcome"]["scores"]) == 3
    assert len(view["view"]["rounds"]) == 3
    info = (await client.get(f"/api/rooms/{room_id}")).json()
    assert hashlib.sha256(info["seed"].encode()).hexdigest() == info["seed_hash"]
    record = (await client.get(f"/api/rooms/{room_id}/record")).json()
    assert record["seed"] == info["seed"] and len(record["actions"]) == view["version"]
    assert [a["seq"] for a in record["actions"]] == list(range(1, view["version"] + 1))
    legal = await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[0]))
    assert legal.json()["legal_actions"] == []
    r = await client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(tokens[0]),
        json={"version": view["version"], "action": {"type": "pass"}},
    )
    assert r.status_code == 409 and "over" in r.json()["message"]


async def test_authorisation_matrix_refuses_and_changes_nothing(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    other_room, other_tokens = await create_started_room(client, "troika", 2)
    view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    current = view["to_act"][0]
    idle = next(s for s in range(3) if s != current)
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[current]))).json()
    move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
    attempts = [
        ({}, 401),  # no token
        ({"Authorization": "Basic abc"}, 401),  # wrong scheme
        (auth("not-a-token"), 403),  # unknown token
        (auth(other_tokens[0]), 403),  # a seat of another room
        (auth(tokens[idle]), 422),  # out of turn
    ]
    for headers, status in attempts:
        r = await client.post(f"/api/rooms/{room_id}/actions", headers=headers, json=move)
        assert r.status_code == status, (headers, r.text)
        assert r.json()["message"]
    after = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[0]))).json()
    assert after["version"] == view["version"] and after["view"] == view["view"]
    assert (await client.get(f"/api/rooms/{room_id}/legal-actions")).status_code == 401
    assert (await client.get(f"/api/rooms/{other_room}/view")).status_code == 200


async def test_stale_and_repeated_submissions_get_409_and_change_nothing(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    move = {"version": legal["version"], "action": legal["legal_actions"][0]["action"]}
    first = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
    assert first.status_code == 200 and first.json()["version"] == 1
    again = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
    assert again.status_code == 409 and again.json()["version"] == 1
    ahead = dict(move, version=7)
    r = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=ahead)
    assert r.status_code == 409 and r.json()["version"] == 1
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 1


async def test_an_idempotency_key_makes_a_resend_land_once(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
    move = {"version": 0, "action": legal["legal_actions"][0]["action"], "idempotency_key": "k-1"}
    first = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
    resend = await client.post(f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json=move)
    assert first.status_code == resend.status_code == 200
    assert first.json()["duplicate"] is False and resend.json()["duplicate"] is True
    assert resend.json()["version"] == 1
    record_len = (await client.get(f"/api/rooms/{room_id}/view")).json()["version"]
    assert record_len == 1


async def test_illegal_action_is_422_with_the_engines_reason(client):
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    r = await client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(tokens[seat]),
        json={"version": 0, "action": {"type": "take_up", "value": 99}},
    )
    assert r.status_code == 422, r.text  # well-formed, but the rules refuse it
    assert r.json()["error"] == "illegal_action" and r.json()["version"] == 0
    for action in ({"type": "fly"}, {}, {"type": "take_up"}, {"type": "take_up", "value": "9"}):
        r = await client.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[seat]),
            json={"version": 0, "action": action},
        )
        assert r.status_code == 400, r.text  # no action of the game has that shape
        assert r.json()["error"] == "invalid_request" and r.json()["message"].startswith("action"), r.text
    r = await client.post(
        f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json={"action": {"type": "pass"}}
    )
    assert r.status_code == 400 and "version" in r.json()["message"]  # malformed: no version
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


async def test_simultaneous_commitments_do_not_reject_each_other(client):
    """TriATri's start reveal awaits every seat: two commits made against the same version
    both land (the boardgame.io #828 bug must not happen here)."""
    room_id, tokens = await create_started_room(client, "triatri", 3)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert sorted(view["to_act"]) == [0, 1, 2]
    versions = []
    for seat in (0, 1):
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
        r = await client.post(
            f"/api/rooms/{room_id}/actions",
            headers=auth(tokens[seat]),
            json={"version": 0, "action": legal["legal_actions"][0]["action"]},
        )
        assert r.status_code == 200, r.text
        versions.append(r.json()["version"])
    assert versions == [1, 2]


def record(awaited, movers):
    """A live game's record of whom each version awaited and who moved at each (its state unused)."""
    return LiveGame(len(movers), b"{}", {}, [frozenset(seats) for seats in awaited], list(movers))


@pytest.mark.parametrize(
    ("awaited", "movers", "lands"),
    [
        ([{0, 1, 2}, {0, 2}, {0}], [1, 2], True),  # awaited at versions 0, 1 and 2: lands at 2
        ([{0, 1, 2}, {0, 1, 2}, {0, 1}], [0, 2], False),  # it moved itself since, awaited all along
        ([{1, 2}, {0, 2}, {0}], [1, 2], False),  # not awaited at the version it acted on
        ([{0, 1, 2}, {1, 2}, {0, 2}], [1, 1], False),  # not awaited at version 1, awaited again at 2
        ([{0, 1, 2}, {0, 2}, {2}], [1, 2], False),  # no longer awaited now
    ],
)
def test_a_move_on_an_older_version_lands_only_while_its_seat_was_awaited_at_every_version_since(
    awaited, movers, lands
):
    """The version rule (app.rooms.model): seat 0's move made on version 0, with the game now at
    version 2, lands only if every action since was another seat's and seat 0 was awaited at
    versions 0, 1 and 2."""
    live = record(awaited, movers)
    if lands:
        check_version(live, 0, 0)
    else:
        with pytest.raises(Stale, match="you acted on version 0, the game is at 2"):
            check_version(live, 0, 0)
    check_version(live, 0, 2)  # the current version always passes this rule
    for beyond in (-1, 3):
        with pytest.raises(Stale, match=f"the game has no version {beyond}: it is at 2"):
            check_version(live, 0, beyond)


async def test_spectators_see_no_hand_and_seats_see_only_their_own(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    spectator = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert spectator["seat"] is None and spectator["view"]["hand"] == []
    assert all(p["hand"] is None for p in spectator["view"]["players"])
    assert spectator["legal_actions"] == []
    for seat, token in enumerate(tokens):
        view = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(token))).json()["view"]
        assert view["you"] == seat and len(view["hand"]) == 1
        hands = [p["hand"] for p in view["players"]]
        assert hands[seat] == view["hand"]
        assert all(h is None for i, h in enumerate(hands) if i != seat)


async def test_api_docs_and_pages_load_no_asset_from_another_host(client):
    docs = await client.get("/docs")
    assert docs.status_code == 200 and "swagger-ui-bundle.js" in docs.text
    for page in (docs.text, (await client.get("/")).text, (await client.get("/rules/troika")).text):
        for url in re.findall(r'(?:src|href)="([^"]+)"', page) + re.findall(r"(?:url|src):\s*'([^']+)'", page):
            assert not url.startswith(("http://", "https://", "//")), url
    for asset in ("/static/vendor/swagger-ui-5.35.0/swagger-ui-bundle.js", "/static/vendor/htmx-2.0.11.min.js"):
        assert (await client.get(asset)).status_code == 200


async def test_rules_pages_render_for_every_game_and_the_vem_card_list(client):
    for slug in GAMES:
        page = await client.get(f"/rules/{slug}", headers={"accept": "text/html"})
        assert page.status_code == 200 and "How this server decides" in page.text, slug
    cards = await client.get("/rules/vem-ai-a-troika/cards", headers={"accept": "text/html"})
    assert cards.status_code == 200
    assert "Chegou a Troika" in cards.text and "Procuradoria" in cards.text
    assert (await client.get("/rules/troika/cards", headers={"accept": "text/html"})).status_code == 404
