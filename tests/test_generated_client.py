"""The contract as client tools take it: the document a live server serves passes
openapi-spec-validator, openapi-python-client generates a client from it with no warning but
the event stream's (NDJSON, which it cannot type) and a model for every schema, and that
generated client plays a whole game against the server: create, join, start, views, moves."""

from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
import types
from pathlib import Path

import httpx
import pytest
from openapi_python_client.strings import snake_case
from openapi_spec_validator import validate

from tests.support.servers import free_port, server_process

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
STREAM_WARNING = "WARNING parsing GET /api/rooms/{room_id}/stream"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A live server, its document, and the client generated from it (imported as ``arena``)."""
    folder = tmp_path_factory.mktemp("generated")
    url = f"sqlite:///{folder}/arena.db"
    with server_process(url, free_port()) as (_, base):
        document = httpx.get(f"{base}/openapi.json").json()
        path = folder / "openapi.json"
        path.write_bytes(httpx.get(f"{base}/openapi.json").content)
        generated = subprocess.run(
            [str(GENERATOR), "generate", "--path", str(path), "--meta", "none", "--output-path", str(folder / "arena")],
            capture_output=True,
            text=True,
            cwd=folder,
            check=False,
        )
        sys.path.insert(0, str(folder))
        try:
            yield base, document, generated, folder / "arena"
        finally:
            sys.path.remove(str(folder))
            for name in [name for name in sys.modules if name == "arena" or name.startswith("arena.")]:
                del sys.modules[name]


def test_the_served_document_passes_the_validator_and_is_version_1_0(served):
    _, document, _, _ = served
    validate(document)  # raises on any fault
    assert document["info"]["version"] == "1.0"
    names = document["components"]["schemas"]
    assert not [name for name in names if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", name)], "module paths or suffixes"
    titles = [schema.get("title", name) for name, schema in names.items()]
    assert len(titles) == len(set(titles)), "two schemas share a title"


def test_the_generator_warns_of_the_stream_alone_and_drops_no_schema(served):
    _, document, generated, package = served
    assert generated.returncode == 0, generated.stdout + generated.stderr
    said = generated.stdout + generated.stderr
    warnings = [line for line in said.splitlines() if line.startswith("WARNING")]
    assert warnings == [STREAM_WARNING + " within play."], said
    assert "Unable to" not in said and "Could not" not in said, said
    made = {path.stem for path in (package / "models").glob("*.py")}
    # every schema is a model but the union of the stream's events (Push), which the client
    # types where it is used (GET /events: list[ChatEvent | EndEvent | PresenceEvent | ViewEvent])
    missing = [name for name in document["components"]["schemas"] if snake_case(name) not in made]
    assert missing == ["Push"], missing
    assert "ViewEvent" in (package / "models" / "event_batch.py").read_text()
    operations = {op["operationId"] for path in document["paths"].values() for op in path.values()}
    assert {"createRoom", "joinRoom", "startRoom", "getView", "submitAction", "getLegalActions"} <= operations


GAMES = [("troika", {}), ("triatri", {}), ("vem-ai-a-troika", {}), ("vem-ai-a-troika", {"advanced": True})]


@pytest.mark.parametrize("game, options", GAMES, ids=["troika", "triatri", "vem-ai-a-troika", "vem-advanced"])
def test_the_generated_client_plays_a_whole_game_of_each_and_reads_its_record(served, game, options):
    """Every view, list of legal actions and move of a whole game parses in the typed client,
    and so do the record and a replay step after the end. (A Troika game has marked tiles:
    a client generated from a ``const`` in a union raised on the first one.)"""
    base = served[0]
    arena = importlib.import_module("arena")
    api: types.SimpleNamespace = types.SimpleNamespace(
        **{
            name: importlib.import_module(f"arena.api.{tag}.{name}")
            for tag, name in [
                ("rooms", "create_room"),
                ("rooms", "join_room"),
                ("rooms", "start_room"),
                ("play", "get_view"),
                ("play", "get_legal_actions"),
                ("play", "submit_action"),
                ("play", "get_record"),
                ("play", "get_replay_step"),
            ]
        }
    )
    models = importlib.import_module("arena.models")
    anyone = arena.Client(base_url=base, raise_on_unexpected_status=True)
    body = models.CreateRoom(game=game, seats=2, name="Ana", options=models.CreateRoomOptions.from_dict(options))
    created = api.create_room.sync(client=anyone, body=body)
    assert isinstance(created, models.Created), created
    room_id = created.room.id
    joined = api.join_room.sync(room_id, client=anyone, body=models.JoinRoom(name="Bo"))
    assert isinstance(joined, models.Joined), joined
    seats = [
        arena.AuthenticatedClient(base_url=base, token=token, raise_on_unexpected_status=True)
        for token in (created.token, joined.token)
    ]
    assert isinstance(api.start_room.sync(room_id, client=seats[0]), models.MoveReply)
    rng, moves = random.Random(2), 0
    view = api.get_view.sync(room_id, client=anyone)
    while view.status == "playing" and moves < 1500:
        for seat in view.to_act:
            legal = api.get_legal_actions.sync(room_id, client=seats[seat])
            assert isinstance(legal, models.LegalActions), legal
            if not legal.legal_actions:  # (a Vem aí seat that has answered a reaction window)
                continue
            mine = api.get_view.sync(room_id, client=seats[seat])
            assert isinstance(mine, models.Payload) and mine.your_turn, mine
            choice = rng.choice(mine.legal_actions)
            body = models.SubmitAction(version=mine.version, action=choice.action)
            reply = api.submit_action.sync(room_id, client=seats[seat], body=body)
            assert isinstance(reply, models.MoveReply), reply
            moves += 1
            break
        view = api.get_view.sync(room_id, client=anyone)
    assert view.status == "finished" and view.outcome is not None and moves > 10
    record = api.get_record.sync(room_id, client=anyone)
    assert isinstance(record, models.Record) and len(record.actions) == moves, record
    if game == "troika":  # (what the typed client failed on: a marked tile named by its id)
        named = [entry.action.to_dict().get("tile") for entry in record.actions]
        assert any(isinstance(tile, int) for tile in named), "no marked tile was turned up or taken"
    step = api.get_replay_step.sync(room_id, client=anyone, step=moves // 2, seat=0)
    assert isinstance(step, models.ReplayStep), step
