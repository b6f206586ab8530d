"""Replays (issue 16, point 2): a finished game's replay page steps through every version, each
the table as a spectator (or one seat) saw it then, with that step's log lines highlighted; it
is built from the stored record, so it works after a restart, and never opens before the end
(the seed and the hands stay hidden). An exported record file is verified, then replayed."""

from __future__ import annotations

import html
import json
import random
import re

import app.rooms.replays as replays
from app.games.registry import GAMES
from app.rooms.replays import Replay
from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.pages import files_closed

HTML = {"accept": "text/html"}


async def finished(client, game="troika", seats=3, seed=2):
    room, tokens = await create_started_room(client, game, seats)
    await play_random_moves(client, room, tokens, 3000, random.Random(seed), avoid=())
    assert (await client.get(f"/api/rooms/{room}")).json()["status"] == "finished"
    return room, tokens


def current_lines(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", line) for line in re.findall(r'<li class="current"[^>]*>(.*?)</li>', html, re.S)]


async def test_no_replay_before_the_end_and_no_seed_or_hand_leaks(client):
    room, tokens = await create_started_room(client, "troika", 3)
    await play_random_moves(client, room, tokens, 6, random.Random(1))
    # inside on purpose: the seed and the hands are the secrets this test looks for, which no API shows before the end
    info, live = await client.app.state.rooms.game_state(room)
    hands = [str(h) for h in live.state["hands"]]
    for query in ("", "?step=0", "?step=3&as=1", "?step=999&as=spectator"):
        r = await client.get(f"/rooms/{room}/replay{query}", headers=HTML)
        assert r.status_code == 409, (query, r.text[:200])
        assert "the replay opens once the game has ended" in r.text and "Not possible now" in r.text
        assert f'href="/rooms/{room}">Back to the room' in r.text
        assert info.seed not in r.text and "hand" not in r.text.lower()
    assert info.seed not in str(hands)  # the check above could fail: the seed is a long hex text
    missing = await client.get("/rooms/nosuchroom/replay", headers=HTML)
    assert missing.status_code == 404 and "Back to the room" not in missing.text
    assert (await client.get(f"/replay/{'0' * 64}", headers=HTML)).status_code == 404


async def test_every_step_shows_the_table_as_it_was_with_its_log_lines_highlighted(client):
    room, _ = await finished(client)
    # inside on purpose: each step is checked against the game the rooms service rebuilds at that version
    rooms = client.app.state.rooms
    replay = Replay.of((await client.get(f"/api/rooms/{room}/record")).json())
    game = GAMES["troika"]
    assert replay.last == (await client.get(f"/api/rooms/{room}")).json()["version"] > 5
    for version in range(replay.last + 1):
        step = replay.step(version)
        _, then = await rooms.game_at(room, version)
        for seat in (None, 0, 2):
            assert game.view(step.state, seat) == game.view(then.state, seat)
        r = await client.get(f"/rooms/{room}/replay?step={version}&as=spectator", headers=HTML)
        assert r.status_code == 200 and f'data-version="{version}"' in r.text
        log, earlier = step.log(None)
        assert current_lines(r.text) == ([entry["text"] for entry in log[earlier:]] if version else [])
    last = (await client.get(f"/rooms/{room}/replay", headers=HTML)).text
    assert 'id="final-result"' in last and f"Step {replay.last} of {replay.last}" in last
    assert (
        'id="replay-next" role="link" aria-disabled="true"' in last
        and f'href="/rooms/{room}/replay?step=0&amp;as=spectator"' in last
    )
    first = (await client.get(f"/rooms/{room}/replay?step=0", headers=HTML)).text
    assert (
        'id="replay-previous" role="link" aria-disabled="true"' in first and "The deal, before the first move." in first
    )
    assert '<form class="act"' not in first  # no move is offered in a replay
    # The controls are a bar at the bottom of the screen: last in the page, so Tab reaches them after the table.
    assert first.index('id="room-main"') < first.index('id="replay-log"') < first.index('class="replay-controls"')


async def test_a_seats_view_shows_its_hand_and_private_lines(client):
    room, _ = await finished(client)
    spectator = (await client.get(f"/rooms/{room}/replay?step=1", headers=HTML)).text
    seat1 = (await client.get(f"/rooms/{room}/replay?step=1&as=1", headers=HTML)).text
    assert "You draw" not in spectator and "You draw" in seat1
    assert 'id="your-hand"' in seat1 and 'id="your-hand"' not in spectator
    everyone = (await client.get(f"/rooms/{room}/replay?step=4&as=everyone", headers=HTML)).text
    state = Replay.of((await client.get(f"/api/rooms/{room}/record")).json()).step(4).state
    hands = re.findall(r'id="your-hand".*?<div class="tiles">(.*?)</div>', everyone, re.S)
    assert [[int(v) for v in re.findall(r">(\d+)</span>", hand)] for hand in hands] == state["hands"]
    assert "You draw" not in everyone  # the public log: no line says whose "you" it was
    for bad in ("as=3", "as=-1", "as=x", "as=Everyone", "step=1.0", "step=%C2%B2", "step=" + "9" * 12):
        assert (await client.get(f"/rooms/{room}/replay?{bad}", headers=HTML)).status_code == 400, bad


async def test_the_replay_is_built_from_the_stored_record_after_a_restart(sqlite_url):
    async with running_app(sqlite_url) as client:
        room, _ = await finished(client)
        before = (await client.get(f"/rooms/{room}/replay?step=7&as=0", headers=HTML)).text
    async with running_app(sqlite_url) as client:
        after = (await client.get(f"/rooms/{room}/replay?step=7&as=0", headers=HTML)).text
    assert after == before and 'data-version="7"' in after


async def test_an_exported_record_file_is_verified_then_replayed(client):
    room, _ = await finished(client, "triatri", 2, seed=5)
    record = (await client.get(f"/api/rooms/{room}/record")).json()
    upload = await client.post(
        "/replay", files={"record": ("game.json", json.dumps(record).encode(), "application/json")}, headers=HTML
    )
    assert upload.status_code == 303 and upload.headers["location"].startswith("/replay/")
    opened = await client.get(upload.headers["location"], headers=HTML)
    assert opened.status_code == 200 and "verified" in opened.text and 'data-version="0"' in opened.text
    key = upload.headers["location"].split("/")[2].split("?")[0]
    stored = (await client.get(f"/rooms/{room}/replay?step=9", headers=HTML)).text
    from_file = (await client.get(f"/replay/{key}?step=9", headers=HTML)).text
    table = re.compile(r'<div class="room replay-table".*?</section>\s*</div>', re.S)
    assert table.search(from_file).group(0) == table.search(stored).group(0)
    # inside on purpose: the stored replay's whole state (every hand), where its pages and API show views only
    assert Replay.of(record).step(9).state == (await client.app.state.replays.of_room(room)).step(9).state


async def test_a_record_that_does_not_verify_is_refused_with_the_reason(client):
    room, _ = await finished(client, "triatri", 2, seed=5)
    record = (await client.get(f"/api/rooms/{room}/record")).json()
    record["outcome"]["winners"] = [1 - record["outcome"]["winners"][0]]
    cases = [
        (json.dumps(record).encode(), 400, "the replayed result differs from the recorded outcome"),
        (json.dumps({**record, "seed": "0" * 32}).encode(), 400, "commitment"),
        (b"{not json", 400, "not a JSON record"),
        (b"[" * 100 + b"]" * 100, 400, "nested more than"),
        (b"[" * 100_000 + b"]" * 100_000, 400, "not a JSON record"),  # past the parser's own depth
        (b"\xff\xfe", 400, "not a JSON record"),
        (json.dumps([1, 2]).encode(), 400, "not a troika-arena-record/1"),
        (b"5", 400, "not a troika-arena-record/1"),  # a scalar, not a container: no 500
        (b"null", 400, "not a troika-arena-record/1"),
    ]
    for text, status, words in cases:
        with files_closed():
            r = await client.post("/replay", files={"record": ("x.json", text, "application/json")}, headers=HTML)
        assert r.status_code == status and words in r.text, (words, r.text[:300])
        assert 'id="record-problem"' in r.text
    r = await client.post("/replay", files={"record": ("x.json", b" " * (1024 * 1024 + 1))}, headers=HTML)
    assert r.status_code == 400 and "at most 1024 KB" in r.text
    r = await client.post("/replay", files={"record": ("x.json", b" " * (2 * 1024 * 1024))}, headers=HTML)
    assert r.status_code == 413  # refused before it is read
    r = await client.post("/replay", data={"record": "text"}, headers=HTML)
    assert r.status_code == 400
    page = await client.get("/replay", headers=HTML)
    assert page.status_code == 200 and 'name="record"' in page.text


async def test_the_finished_room_links_to_its_replay(client):
    """A spectator's link shows the spectator's view; a seat's its own (it showed a seat's player
    the spectator's, without their hand)."""
    room, tokens = await finished(client)
    assert f'href="/rooms/{room}/replay?step=0"' in (await client.get(f"/rooms/{room}", headers=HTML)).text
    for seat, token in enumerate(tokens):
        page = (await client.get(f"/rooms/{room}/seat/{token}", headers=HTML)).text
        assert f'href="/rooms/{room}/replay?step=0&amp;as={seat}"' in page
        replay = (await client.get(f"/rooms/{room}/replay?step=0&as={seat}", headers=HTML)).text
        assert 'id="your-hand"' in replay
    room2, tokens2 = await create_started_room(client, "troika", 3)
    assert "/replay" not in (await client.get(f"/rooms/{room2}/seat/{tokens2[0]}", headers=HTML)).text
    assert (await client.get(f"/api/rooms/{room2}/view", headers=auth(tokens2[0]))).status_code == 200


async def test_a_refused_record_is_said_in_the_readers_language(client):
    """The reason a record file is refused is said in the reader's language, an engine's reason
    for an illegal action included; without a Portuguese reader it stays English."""
    room, _ = await finished(client, "triatri", 2, seed=5)
    record = (await client.get(f"/api/rooms/{room}/record")).json()
    missing = {**record, "actions": record["actions"][:2] + record["actions"][3:]}
    illegal = json.loads(json.dumps(record))
    illegal["actions"][0]["seat"] = 7  # no such seat: the engine refuses it
    portuguese = {**HTML, "Accept-Language": "pt-PT"}
    expected = {
        json.dumps(missing): ("a ação 3 falta ou está fora de ordem", "action 3 is missing or out of order"),
        "{not json": ("o ficheiro não é um registo JSON", "the file is not a JSON record"),
        json.dumps(illegal): ("a ação 1 do lugar 7 é ilegal: ", "action 1 by seat 7 is illegal: "),
    }
    for text, (said_pt, said_en) in expected.items():
        upload = {"record": ("x.json", text.encode(), "application/json")}
        pt = await client.post("/replay", files=upload, headers=portuguese)
        assert pt.status_code == 400 and said_pt in html.unescape(pt.text), pt.text[-600:]
        en = await client.post("/replay", files=upload, headers=HTML)
        assert en.status_code == 400 and said_en in html.unescape(en.text)
    engine_reason = html.unescape(pt.text).split("a ação 1 do lugar 7 é ilegal: ")[1].split("<")[0]
    assert engine_reason and engine_reason not in html.unescape(en.text), "the engine's reason is translated"


async def test_the_api_answers_a_replays_step_as_the_page_shows_it(client):
    """GET /api/rooms/{id}/replay: nothing before the end (409); after it, any version as a
    spectator or any seat saw it, with no move offered, and the log up to it; typed strictly."""
    room, tokens = await create_started_room(client, "troika", 3)
    early = await client.get(f"/api/rooms/{room}/replay")
    assert early.status_code == 409 and "seed" not in early.text
    await play_random_moves(client, room, tokens, 3000, random.Random(2), avoid=())
    end = await client.get(f"/api/rooms/{room}/view", headers=auth(tokens[0]))
    last = end.json()["version"]
    answer = (await client.get(f"/api/rooms/{room}/replay", params={"seat": 0})).json()
    assert (answer["step"], answer["last"], answer["seat"]) == (last, last, 0)
    assert answer["payload"]["view"] == end.json()["view"] and answer["payload"]["legal_actions"] == []
    # The replay's room is the room's own (its seed, its people and bots), at the step shown.
    assert answer["payload"]["room"] == (await client.get(f"/api/rooms/{room}")).json() == end.json()["room"]
    logged = (await client.get(f"/api/rooms/{room}/log", headers=auth(tokens[0]))).json()["log"]
    assert answer["log"] == logged
    record = (await client.get(f"/api/rooms/{room}/record")).json()
    for step, seat in ((0, None), (7, 1), (last + 50, 2)):
        params = {"step": step} | ({} if seat is None else {"seat": seat})
        got = (await client.get(f"/api/rooms/{room}/replay", params=params)).json()
        shown = Replay.of(record).step(step)
        assert got["step"] == min(step, last) and {**got["payload"], "room": None} == {
            **shown.payload(seat),
            "room": None,
        }
        assert got["payload"]["room"]["seats"] == end.json()["room"]["seats"]
        assert got["payload"]["room"]["seed"] == (end.json()["room"]["seed"] if step >= last else None)
        assert (got["log"], got["new_lines_from"]) == tuple(shown.log(seat))
    spectator, seat_1 = [
        (await client.get(f"/api/rooms/{room}/replay", params={"step": 7, **who})).json()["payload"]["view"]
        for who in ({}, {"seat": 1})
    ]
    assert spectator != seat_1  # a seat's view shows its own hand
    assert (await client.get(f"/api/rooms/{room}/replay", params={"seat": 3})).status_code == 404, "no such seat"
    for bad in ({"seat": -1}, {"seat": "1.0"}, {"step": "x"}, {"step": 10**30}, {"seat": " 1"}):
        r = await client.get(f"/api/rooms/{room}/replay", params=bad)
        assert r.status_code == 400 and r.json()["error"] in ("bad_request", "invalid_request"), (bad, r.text)
    assert (await client.get("/api/rooms/nosuchroom/replay")).status_code == 404


def test_steps_taken_in_any_order_are_the_game_replayed_from_its_start(monkeypatch):
    """A replay keeps the game every ``CHECKPOINT_EVERY`` versions: each step, asked in any order,
    is exactly the game replayed from its seed (state, the state before, whom each version
    awaited), and once the game was walked to its end a step replays at most
    ``CHECKPOINT_EVERY`` actions."""
    applied: list[int] = []  # the actions each apply_recorded call applied
    original = replays.apply_recorded

    def counting(game, live, actions):
        applied.append(len(actions))
        original(game, live, actions)

    monkeypatch.setattr(replays, "apply_recorded", counting)  # inside on purpose: counts the actions a step replays
    for slug, players, options in (("vem-ai-a-troika", 4, {"advanced": True}), ("triatri", 3, {})):
        game, r = GAMES[slug], random.Random(slug)
        state, actions = game.setup(players, options, "checkpoints"), []
        while game.outcome(state) is None:
            seat = r.choice(sorted(game.to_act(state)))
            action = r.choice(game.legal_actions(state, seat))
            actions.append((seat, action))
            state = game.apply(state, seat, action)
        record = {"game": slug, "num_players": players, "options": options, "seed": "checkpoints"}
        record |= {"seed_hash": "h", "players": [], "actions": [{"seat": s, "action": a} for s, a in actions]}
        kept = Replay.of(record)
        assert kept.last > 2 * replays.CHECKPOINT_EVERY
        kept.step(kept.last)  # the first walk to the end keeps every checkpoint on the way
        versions = list(range(kept.last + 1))
        r.shuffle(versions)
        for version in versions:
            applied.clear()
            step = kept.step(version)
            assert sum(applied) <= replays.CHECKPOINT_EVERY, (version, applied)
            with monkeypatch.context() as afresh:
                # inside on purpose: no checkpoint but version 0, so the step is the game replayed from its start
                afresh.setattr(replays, "CHECKPOINT_EVERY", 10**9)
                whole = Replay.of(record).step(version)
            assert (step.state, step.before) == (whole.state, whole.before), version
            assert step.live.awaited == whole.live.awaited and step.live.version == version
        assert sorted(kept.checkpoints) == list(range(0, kept.last + 1, replays.CHECKPOINT_EVERY))


async def test_a_replay_says_whose_turn_it_was_never_your_turn(client):
    """A replay offers no move, so its status line names the player to act even on the table
    shown as that player's: "Your turn" (and a game's other calls to act) belong to the live
    table, where the same seat is told them."""
    calls = ("Your turn", "Choose your Leader", "React?", "Elections!")
    for game in ("troika", "triatri", "vem-ai-a-troika"):
        room, tokens = await create_started_room(client, game, 2)
        live = [(await client.get(f"/rooms/{room}/seat/{token}", headers=HTML)).text for token in tokens]
        said = [html.unescape(page.split('id="table-status"')[1][:2000]) for page in live]
        assert any(call in status for status in said for call in calls), game
        await play_random_moves(client, room, tokens, 12, random.Random(3))  # (no Troika! call: a game goes on)
        assert (await client.post(f"/api/rooms/{room}/close", headers=auth(tokens[0]))).status_code == 200
        for step in range(8):
            for seat in (0, 1):
                shown = await client.get(f"/rooms/{room}/replay?step={step}&as={seat}", headers=HTML)
                page = html.unescape(shown.text)
                assert 'id="table-status"' in page and not any(call in page for call in calls), (game, step, seat)
