"""Provable fairness: the exported record of a finished game verifies from first principles,
and any tampering (seed, an action, the order, the result) is caught and named."""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import random
from pathlib import Path

import pytest

from app import cli
from app.rooms.records import RecordError, seed_hash, verify_record
from tests.conftest import create_started_room, play_random_moves

EXPORTED: list[dict] = []  # one game exported by the server, shared by the tests below


@pytest.fixture
async def record(client):
    if not EXPORTED:
        room_id, tokens = await create_started_room(client, "triatri", 2)
        await play_random_moves(client, room_id, tokens, 3000, random.Random(7))
        EXPORTED.append((await client.get(f"/api/rooms/{room_id}/record")).json())
    return copy.deepcopy(EXPORTED[0])


async def test_a_finished_games_record_verifies(record):
    verified = verify_record(json.loads(json.dumps(record)))
    assert verified.actions == len(record["actions"]) > 10
    assert verified.outcome == record["outcome"]


async def test_a_record_exported_before_outcomes_named_places_still_verifies(record):
    older = copy.deepcopy(record)
    del older["outcome"]["places"]
    assert verify_record(older).outcome["places"] == record["outcome"]["places"]  # the replay's own
    older["outcome"]["scores"][0] += 1
    with pytest.raises(RecordError, match="differs"):
        verify_record(older)


def tampered(record, change):
    copy_ = copy.deepcopy(record)
    change(copy_)
    return copy_


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update(seed="0" * 32), "commitment"),
        (lambda r: r["actions"].pop(3), "missing or out of order"),
        (lambda r: r["actions"].__setitem__(slice(2, 4), r["actions"][3:1:-1]), "out of order"),
        (lambda r: r["outcome"]["winners"].__setitem__(0, 1 - r["outcome"]["winners"][0]), "differs"),
        (lambda r: r["outcome"]["places"].__setitem__(0, 9), "differs"),
        (lambda r: r["actions"][-1].update(seat=1 - r["actions"][-1]["seat"]), "illegal"),
        (lambda r: r.update(game="chess"), "unknown game"),
        (lambda r: r.update(game=["triatri"]), "unknown game"),  # not a name: was a TypeError
        (lambda r: r["actions"].__setitem__(0, [0, "a"]), "missing or out of order"),  # was an AttributeError
        (lambda r: r.update(format="other"), "not a troika-arena-record/1"),
    ],
)
async def test_tampering_is_caught_and_named(record, change, words):
    with pytest.raises(RecordError, match=words):
        verify_record(tampered(record, change))


async def test_the_verify_command_accepts_a_record_and_rejects_a_forged_one(record, tmp_path, capsys):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps(tampered(record, lambda r: r.update(seed="f" * 32))))
    assert cli.main(["verify", str(good)]) == 0
    assert "verified: triatri, 2 players" in capsys.readouterr().out
    assert cli.main(["verify", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "NOT VERIFIED" in err and "commitment" in err
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == 2, "nothing to verify: not a forged record"
    assert capsys.readouterr().err.startswith(f"troika-arena verify: cannot read {tmp_path}/missing.json as a JSON")
    (tmp_path / "text.json").write_text("not json")
    assert cli.main(["verify", str(tmp_path / "text.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_seed_hash_has_one_definition():
    """Rooms commit to their seed, the verifier checks records and the footprint benchmark
    fills rooms with one function (``records.seed_hash``): no other code hashes a seed."""
    root = Path(__file__).resolve().parent.parent / "app"
    hashing = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            digest = (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "hexdigest"
            )
            text = ast.unparse(node) if digest else ""  # (unparsing only these: every call was a second)
            if text.endswith(".hexdigest()") and "sha256" in text and "seed" in text:  # not the engines' rng
                hashing.append(str(path.relative_to(root.parent)))
    assert hashing == ["app/rooms/records.py"]  # the body of seed_hash
    assert seed_hash("abc") == hashlib.sha256(b"abc").hexdigest()


def test_a_record_file_that_is_not_an_object_or_nested_too_deep_is_refused_not_a_crash():
    from app.rooms.records import MAX_RECORD_DEPTH, RecordError, parse_record

    assert parse_record(b"[[1]]") == [[1]]
    deep = "[" * (MAX_RECORD_DEPTH + 1) + "]" * (MAX_RECORD_DEPTH + 1)
    with pytest.raises(RecordError, match="nested"):
        parse_record(deep)
    assert parse_record("[" * MAX_RECORD_DEPTH + "]" * MAX_RECORD_DEPTH) is not None
    for scalar in (b"5", b'"text"', b"null"):
        assert parse_record(scalar) == json.loads(scalar)  # refused later as no record, not a 500
