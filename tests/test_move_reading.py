"""A move is read once, where it comes in (``app.rooms.model.Move.read``): a program's body and a
click's fields alike; what it refuses, at exactly its limits."""

from __future__ import annotations

import pytest

from app.rooms.errors import BadRequest
from app.rooms.model import MAX_ACTION_DEPTH, MAX_KEY_LENGTH, Move


def nested(depth: int) -> dict:
    """An action nesting objects and lists ``depth`` levels deep, itself the first."""
    inner: object = [1]
    for level in range(depth - 2):
        inner = {"type": "x", "inner": inner} if level % 2 else [inner]
    return {"type": "x", "cards": inner} if depth > 1 else {"type": "x"}


def test_a_move_keeps_what_it_read():
    move = Move.read({"type": "pass"}, 0, "k")
    assert (move.action, move.version, move.key) == ({"type": "pass"}, 0, "k")


@pytest.mark.parametrize("version", [True, False, 1.0, "1", None])
def test_the_version_is_a_whole_number_and_nothing_else(version):
    with pytest.raises(BadRequest, match="version must be the whole number"):
        Move.read({"type": "pass"}, version)


def test_an_action_is_an_object_nested_at_most_as_deep_as_an_action_needs():
    assert Move.read(nested(MAX_ACTION_DEPTH), 3).version == 3
    with pytest.raises(BadRequest, match=f"not be nested more than {MAX_ACTION_DEPTH} levels"):
        Move.read(nested(MAX_ACTION_DEPTH + 1), 3)
    for not_an_object in ([{"type": "pass"}], "pass", None):
        with pytest.raises(BadRequest, match="action must be an object"):
            Move.read(not_an_object, 3)


def test_a_key_is_1_to_64_printable_characters_or_none():
    assert Move.read({"type": "pass"}, 0, "k" * MAX_KEY_LENGTH).key == "k" * MAX_KEY_LENGTH
    assert Move.read({"type": "pass"}, 0, None).key is None
    for refused in ("", "k" * (MAX_KEY_LENGTH + 1), "a\x00b", 7):
        with pytest.raises(BadRequest, match="idempotency_key must be text"):
            Move.read({"type": "pass"}, 0, refused)
