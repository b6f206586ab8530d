"""Actions are strict and stored canonically (issue 12, point 3), through the real API.

A move is accepted only as a listed legal action with the same JSON types (5.0 is not 5, true
is not 1, "5" is not 5), or, for the actions an engine takes without listing them (Vem aí
attacks and campaigns), as its strict schema allows; whatever the request's spelling, the log
keeps the engine's form. An action that fits none of the game's published action types is a
malformed request (400, issue 17); one that fits but is not allowed now is an illegal move
(422). Request fields (``version``, seat numbers) are strict integers, on the
move front door and on the FastAPI route alike. Logs stored before this (with 5.0 or true for a
listed 5 or 1) still replay, on both databases, and the room plays on.
"""

from __future__ import annotations

import copy
import json
import random
import sqlite3
from datetime import UTC, datetime

import psycopg
import pytest

from app.api.moves import MoveFrontDoor
from app.api.shapes import read_action
from app.games.base import IllegalAction, same_json
from app.games.registry import GAMES
from app.rooms.errors import InvalidRequest, UnknownField
from app.rooms.records import verify_record
from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.databases import BACKENDS
from tests.support.rooms import straight_to_the_route

CASES = [(slug, n) for slug, game in GAMES.items() for n in range(game.min_players, game.max_players + 1)]
JUNK = {"nested": [1, {"deeper": None}], "n": 1.5}


@pytest.fixture(params=BACKENDS)
def database_url(request, sqlite_url):
    return sqlite_url if request.param == "sqlite" else request.getfixturevalue("postgres_url")


# ---- type-confused variants of an action --------------------------------------------------


def int_paths(value, path=()):
    """The paths to every integer inside a JSON value."""
    if type(value) is int:
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from int_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from int_paths(item, (*path, index))


def replaced(action, path, new):
    changed = copy.deepcopy(action)
    holder = changed
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return changed


def confused(action):
    """Variants of a legal action that no strict reader may accept: each integer as a float, a
    bool and a string; an extra key; each field missing; each field wrapped in nested junk."""
    variants = []
    for path in int_paths(action):
        number = get(action, path)
        variants += [replaced(action, path, new) for new in (float(number), bool(number), str(number))]
    variants.append({**action, "extra": 1})
    variants.append({**action, "junk": JUNK})
    for key in action:
        variants.append({k: v for k, v in action.items() if k != key})
        if key != "type":
            variants.append({**action, key: {"junk": [action[key]], **JUNK}})
            variants.append({**action, key: [action[key]]})
    variants.append({**action, "type": [action["type"]]})
    return variants


def get(value, path):
    for step in path:
        value = value[step]
    return value


def refusal(slug, action):
    """How a move of ``action`` is refused if the rules refuse every move offered: 400 if it
    fits none of the game's published action types (app.api.shapes), 422 naming the fields if
    it fits one but for fields the type does not name, else 422 as an illegal move."""
    try:
        read_action(slug, action)
    except (InvalidRequest, UnknownField) as exc:
        return exc.status, exc.code
    return 422, "illegal_action"


def refusable(variants, listed):
    """The variants that are not, by chance, exactly another listed action (a place without its
    'take' is a plain place)."""
    return [v for v in variants if not any(same_json(v, a) for a in listed)]


# ---- driving a room through the API -------------------------------------------------------


async def legal_of(client, room_id, token):
    answer = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(token))).json()
    return answer["version"], [entry["action"] for entry in answer["legal_actions"]]


async def post_move(client, room_id, token, version, action):
    return await client.post(
        f"/api/rooms/{room_id}/actions", headers=auth(token), json={"version": version, "action": action}
    )


async def probe(client, slug, room_id, tokens, seat, rng, most=10):
    """Send type-confused variants of the seat's legal actions: every one is refused, with 400
    if it fits none of the game's action types (a float for a whole number, a field fewer),
    422 ``unknown_field`` if it does but for a field more, and 422 as an illegal move if it
    fits, and the room's version does not move."""
    version, listed = await legal_of(client, room_id, tokens[seat])
    by_type = {}
    for action in listed:
        by_type.setdefault(action["type"], []).append(action)
    chosen = [rng.choice(actions) for actions in by_type.values()]
    variants = refusable([v for action in chosen for v in confused(action)], listed)
    sent = rng.sample(variants, min(most, len(variants)))
    for variant in sent:
        r = await post_move(client, room_id, tokens[seat], version, variant)
        assert (r.status_code, r.json()["error"]) == refusal(slug, variant), (variant, r.text)
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == version
    return [action["type"] for action in chosen]


async def every_seat_moves(client, room_id, tokens, awaited, rng):
    """Each awaited seat's next legal move lands (in a simultaneous phase, one after another)."""
    view = None
    for seat in awaited:
        version, listed = await legal_of(client, room_id, tokens[seat])
        if not listed:  # the phase moved on without this seat (it was never its choice)
            continue
        preferred = [a for a in listed if a["type"] != "troika"] or listed  # a random call ends games early
        r = await post_move(client, room_id, tokens[seat], version, rng.choice(preferred))
        assert r.status_code == 200, r.text
        view = r.json()
    return view


@pytest.mark.parametrize(("slug", "n"), CASES)
async def test_type_confused_actions_are_refused_and_the_room_plays_on(client, slug, n):
    rng = random.Random(f"strict-{slug}-{n}")
    room_id, tokens = await create_started_room(client, slug, n)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    probed, probed_types = 0, set()
    for step in range(100):
        if view["status"] != "playing":
            break
        awaited = list(view["to_act"])
        if step < 5 or step % 5 == 0:  # five probes even in a short game, then one every five moves
            probed_types.update(await probe(client, slug, room_id, tokens, rng.choice(awaited), rng))
            probed += 1
        view = await every_seat_moves(client, room_id, tokens, awaited, rng) or view
    assert probed >= 5 and len(probed_types) >= 2, (probed, probed_types)


def stored_action(sqlite_url, room_id, seq):
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as db:
        (text,) = db.execute("SELECT action FROM actions WHERE room_id = ? AND seq = ?", (room_id, seq)).fetchone()
    return json.loads(text)


async def test_vem_ai_attacks_and_campaigns_pass_their_schema_and_are_stored_canonically(client, sqlite_url):
    """The two Vem aí actions taken without listing: type confusion is refused at such states,
    and a well-formed one with its cards in another order and its keys shuffled lands in the
    engine's form (cards in order)."""
    rng = random.Random(5)
    seen: set[str] = set()
    reordered = 0
    for _ in range(4):  # (the deal is the room's own, unseeded: a game may end before they came)
        reordered += await play_sending_attacks_and_campaigns(client, sqlite_url, rng, seen, reordered)
        if seen == {"attack", "campaign"} and reordered:
            break
    assert seen == {"attack", "campaign"} and reordered


async def play_sending_attacks_and_campaigns(client, sqlite_url, rng, seen, reordered):
    """A new game played at random, each kind of action not yet ``seen`` probed and sent
    reshuffled, and one of several cards sent reordered until one was; how many were."""
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 3)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    sent_reordered = 0
    while view["status"] == "playing" and (seen != {"attack", "campaign"} or not reordered + sent_reordered):
        seat = view["to_act"][0]
        version, listed = await legal_of(client, room_id, tokens[seat])
        fresh = {a["type"] for a in listed} & {"attack", "campaign"} - seen
        # (play on until one of several cards can be sent reordered)
        several = {a["type"] for a in listed if a["type"] in ("attack", "campaign") and len(a["cards"]) >= 2}
        move = rng.choice(listed)
        if fresh or (several and not reordered + sent_reordered):
            if fresh:
                await probe(client, "vem-ai-a-troika", room_id, tokens, seat, rng, most=40)
            kind = min(fresh or several)
            seen.add(kind)
            move = max((a for a in listed if a["type"] == kind), key=lambda a: len(a["cards"]))
            sent_reordered += len(move["cards"]) >= 2
            spelled = {key: value[::-1] if key == "cards" else value for key, value in reversed(move.items())}
            body = {"version": version, "action": spelled, "idempotency_key": f"{kind}-{version}"}
            url, headers = f"/api/rooms/{room_id}/actions", auth(tokens[seat])
            r = await client.post(url, headers=headers, json=body)
            assert r.status_code == 200, r.text
            assert json.dumps(stored_action(sqlite_url, room_id, r.json()["version"])) == json.dumps(move)
            again = await client.post(url, headers=headers, json=body)
            assert again.status_code == 200 and again.json()["duplicate"] is True, "the same move, resent"
        else:
            r = await post_move(client, room_id, tokens[seat], version, move)
            assert r.status_code == 200, r.text
        view = r.json()
    return sent_reordered


# ---- the reported cases -------------------------------------------------------------------


async def test_a_float_leader_is_refused_and_the_other_seat_still_chooses(client):
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 2)
    version, offered = await legal_of(client, room_id, tokens[0])
    leader = offered[0]["leader"]
    for bad in (float(leader), True, str(leader)):
        r = await post_move(client, room_id, tokens[0], version, {"type": "choose_leader", "leader": bad})
        assert r.status_code == 400 and r.json()["error"] == "invalid_request", r.text
    r = await post_move(client, room_id, tokens[1], version, (await legal_of(client, room_id, tokens[1]))[1][0])
    assert r.status_code == 200, r.text
    r = await post_move(client, room_id, tokens[0], version, offered[0])
    assert r.status_code == 200, r.text
    view = r.json()["view"]
    assert view["players"][0]["leader"]["id"] == leader and view["phase"] == "turn"


async def test_float_place_and_income_are_refused_not_a_server_error(client):
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 2)
    rng = random.Random(2)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    while True:  # to the first action step of a turn (after the draw)
        seat = view["to_act"][0]
        version, listed = await legal_of(client, room_id, tokens[seat])
        if any(a["type"] == "income" for a in listed):
            break
        view = await every_seat_moves(client, room_id, tokens, view["to_act"], rng)
    place = next(a for a in listed if a["type"] == "place")
    income = next(a for a in listed if a["type"] == "income")
    bad = [
        {"type": "place", "card": float(place["card"])},
        {"type": "income", "titles": float(income["titles"]), "offshore": float(income["offshore"])},
        {"type": "income", "titles": income["titles"], "offshore": False},
    ]
    for action in bad:
        r = await post_move(client, room_id, tokens[seat], version, action)
        assert r.status_code == 400 and r.json()["error"] == "invalid_request", (action, r.text)
    r = await post_move(client, room_id, tokens[seat], version, income)
    assert r.status_code == 200, r.text


def campaign_awaited():
    """A 2-seat Vem aí game whose Elections await seat 0's campaign."""
    game = GAMES["vem-ai-a-troika"]
    state = game.setup(2, {}, "order")
    for seat in (0, 1):
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    state["stage"], state["players"][0]["campaign"] = "campaign", None
    return game, state


def test_a_campaign_is_read_by_its_schema():
    game, state = campaign_awaited()
    hand = state["players"][0]["hand"]
    action, _ = game.play(state, 0, {"money": 0, "cards": sorted(hand, reverse=True), "type": "campaign"})
    assert json.dumps(action) == json.dumps({"type": "campaign", "cards": sorted(hand), "money": 0})
    for bad in (
        {"type": "campaign", "cards": [hand[0], hand[0]], "money": 0},
        {"type": "campaign", "cards": list(range(43)), "money": 0},
        {"type": "campaign", "cards": hand, "money": -1},
        {"type": "campaign", "cards": hand, "money": 10**30},
    ):
        with pytest.raises(IllegalAction, match="must be"):
            game.play(state, 0, bad)


@pytest.mark.parametrize(
    ("field", "action"),
    [
        ("money", {"type": "campaign", "cards": [], "money": True}),
        ("cards", {"type": "campaign", "cards": [True], "money": 0}),
        ("target", {"type": "attack", "target": True, "mode": "control", "cards": [2]}),
        ("cards", {"type": "attack", "target": 3, "mode": "control", "cards": [True]}),
    ],
)
def test_true_is_not_a_whole_number_in_a_schema_checked_action(field, action):
    """The engine's own schema refuses true where a whole number goes (campaign money, an
    attack's target, card ids), naming the field, and takes the same action with 1."""
    game, state = campaign_awaited()
    with pytest.raises(IllegalAction, match=f"'{field}' must be"):
        game.accept(state, 0, action)
    with_one = json.loads(json.dumps(action).replace("true", "1"))
    assert json.dumps(game.accept(state, 0, with_one)) == json.dumps(with_one)


# ---- strict request fields ----------------------------------------------------------------


@pytest.mark.parametrize("front_door", [True, False])
async def test_version_must_be_a_json_integer(client, monkeypatch, front_door):
    if not front_door:
        monkeypatch.setattr(MoveFrontDoor, "__call__", straight_to_the_route)
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    _, listed = await legal_of(client, room_id, tokens[seat])
    for bad in ("0", True, 0.0, None, [0]):
        r = await client.post(
            f"/api/rooms/{room_id}/actions", headers=auth(tokens[seat]), json={"version": bad, "action": listed[0]}
        )
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["error"] == "invalid_request" and "version" in r.json()["message"], r.text
    r = await client.post(
        f"/api/rooms/{room_id}/actions",
        headers=auth(tokens[seat]),
        json={"version": 0, "action": listed[0], "idempotency_key": 5},
    )
    assert r.status_code == 400 and "idempotency_key" in r.json()["message"], r.text
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


@pytest.mark.parametrize("front_door", [True, False])
async def test_a_malformed_move_is_told_every_problem_in_plain_words(client, monkeypatch, front_door):
    """A misspelt field inside the action is named beside the one missing; the whole entry of
    legal-actions sent as the action, and a body that is not JSON, say so (pydantic's words were
    "Unable to extract tag using discriminator 'type'" and "0: JSON decode error")."""
    if not front_door:
        monkeypatch.setattr(MoveFrontDoor, "__call__", straight_to_the_route)
    room_id, tokens = await create_started_room(client, "troika", 2)
    seat = (await client.get(f"/api/rooms/{room_id}/view")).json()["to_act"][0]
    _, listed = await legal_of(client, room_id, tokens[seat])
    url, headers = f"/api/rooms/{room_id}/actions", auth(tokens[seat])
    said = {
        json.dumps({"version": 0, "action": {"type": "reveal", "tiel": "unknown"}}): (
            "action: tile: Field required; tiel: unknown field"
        ),
        json.dumps({"version": 0, "action": {"action": listed[0], "label": "x"}}): (
            'action: needs a "type" naming one of the game\'s actions '
            '(send a legal action\'s "action", not the whole entry)'
        ),
        json.dumps({"versoin": 0, "action": listed[0]}): "version: Field required; versoin: unknown field",
        "{not json": "body: not valid JSON",
    }
    for body, message in said.items():
        answer = await client.post(url, headers={**headers, "content-type": "application/json"}, content=body)
        assert (answer.status_code, answer.json()) == (400, {"error": "invalid_request", "message": message}), body
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


async def test_seat_numbers_and_counts_in_bodies_are_json_integers(client):
    r = await client.post("/api/rooms", json={"game": "troika", "seats": "3", "name": "Ana"})
    assert r.status_code == 400 and "seats" in r.json()["message"], r.text
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3.0, "name": "Ana"})
    assert r.status_code == 400, r.text
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana", "turn_timer": "30"})
    assert r.status_code == 400 and "turn_timer" in r.json()["message"], r.text
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    for bad in ("1", True, 1.0):
        r = await client.post(f"/api/rooms/{room_id}/seats", headers=auth(host), json={"bot": "random", "seat": bad})
        assert r.status_code == 400 and "seat" in r.json()["message"], (bad, r.text)
    r = await client.post(f"/api/rooms/{room_id}/seats", headers=auth(host), json={"bot": "random", "seat": 2})
    assert r.status_code == 201 and r.json()["seat"] == 2
    seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert [s["name"] for s in seats] == ["Ana", None, "Random bot 3"]


# ---- legacy logs --------------------------------------------------------------------------


def write_legacy_move(database_url, room_id, seq, seat, action):
    """Append a move as the server stored it before actions were strict: the request's own
    text (5.0, true), written straight into the database behind the server's back."""
    text, now = json.dumps(action), datetime.now(UTC).replace(tzinfo=None)
    if database_url.startswith("sqlite:///"):
        with sqlite3.connect(database_url.removeprefix("sqlite:///")) as db:
            db.execute(
                "INSERT INTO actions (room_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (room_id, seq, seat, text, now.isoformat(sep=" ")),
            )
            db.execute("UPDATE rooms SET version = ? WHERE id = ?", (seq, room_id))
        return
    with psycopg.connect(database_url) as db:
        db.execute(
            "INSERT INTO actions (room_id, seq, seat, action, at) VALUES (%s, %s, %s, %s::json, %s)",
            (room_id, seq, seat, text, now),
        )
        db.execute("UPDATE rooms SET version = %s WHERE id = %s", (seq, room_id))


def loosely(action):
    """The form an old server stored for a loosely equal request: each integer as a float
    (true for a 1 of a ``choose_leader``, as the report's variants did)."""
    for path in int_paths(action):
        action = replaced(action, path, float(get(action, path)))
    return action


async def legacy_room(database_url, slug, rng):
    """A started 2-seat room whose log ends with a move stored as an old server stored it;
    returns (room id, tokens, its seq, its seat, the listed move it stood for)."""
    async with running_app(database_url) as client:
        room_id, tokens = await create_started_room(client, slug, 2)
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        while True:  # to a state where the seat to act has a move with a number in it
            seat = view["to_act"][0]
            version, listed = await legal_of(client, room_id, tokens[seat])
            numbered = [a for a in listed if any(True for _ in int_paths(a))]
            if numbered:
                break
            view = await every_seat_moves(client, room_id, tokens, view["to_act"], rng)
    move = rng.choice(numbered)
    write_legacy_move(database_url, room_id, version + 1, seat, loosely(move))
    return room_id, tokens, version + 1, seat, move


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_a_legacy_log_replays_canonically_after_a_restart(database_url, slug):
    rng = random.Random(slug)
    room_id, tokens, seq, seat, _ = await legacy_room(database_url, slug, rng)
    async with running_app(database_url) as client:  # a restart: the log is replayed
        after = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(tokens[seat]))).json()
        assert (after["status"], after["version"]) == ("playing", seq)
        await every_seat_moves(client, room_id, tokens, after["to_act"], rng)
        view = await play_random_moves(client, room_id, tokens, 12, rng)
        assert view["version"] == seq + len(after["to_act"]) + 12, "every seat plays on"


async def test_the_report_case_stored_by_an_old_server_plays_to_the_end(sqlite_url):
    """Vem aí, 2 seats: seat 0's Leader stored as a float. Seat 1 chooses, the game goes on
    to its end, and the record holds the engine's form of that first move."""
    rng = random.Random(12)
    room_id, tokens, seq, seat, move = await legacy_room(sqlite_url, "vem-ai-a-troika", rng)
    assert (seq, seat, move["type"]) == (1, 0, "choose_leader")
    async with running_app(sqlite_url) as client:
        version, listed = await legal_of(client, room_id, tokens[1])
        r = await post_move(client, room_id, tokens[1], version, listed[0])
        assert r.status_code == 200, r.text
        assert r.json()["view"]["players"][0]["leader"]["id"] == move["leader"]
        view = await play_random_moves(client, room_id, tokens, 600, rng)
        assert view["status"] == "finished"
        record = (await client.get(f"/api/rooms/{room_id}/record")).json()
    assert json.dumps(record["actions"][0]) == json.dumps({"seq": 1, "seat": 0, "action": move, "bot": False})
    assert verify_record(record).actions == len(record["actions"])


async def test_numbers_in_browser_forms_are_plain_digits_never_a_server_error(client):
    """Form fields are text: a seat count, a turn timer, a bot's seat or a version that is not
    written in plain digits ("²" passes ``str.isdigit`` and then fails ``int``) is refused with
    a message."""
    page = {"accept": "text/html"}
    for field, value in (("seats", "²"), ("seats", "1_0"), ("turn_timer", "³")):
        data = {"game": "troika", "seats": "3", "name": "Ana", field: value}
        r = await client.post("/rooms", data=data, headers=page)
        assert r.status_code == 400, (field, value, r.status_code)
    r = await client.post("/rooms", data={"game": "troika", "seats": "3", "name": "Ana"}, headers=page)
    host_url = r.headers["location"]
    r = await client.post(host_url + "/bots", data={"seat": "²", "level": "random"}, headers=page)
    assert r.status_code == 200 and "Choose a seat" in r.text
    room_id = host_url.split("/")[2]
    assert [s["bot"] for s in (await client.get(f"/api/rooms/{room_id}")).json()["seats"]] == [None] * 3
