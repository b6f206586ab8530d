"""A game with one action type is read and published like a game with several (app/api/shapes.py):
its one type, a TypedDict rather than a union, is read strictly at the edge (400 for a wrong
type, 422 naming a field more) and takes its place in the published union of every game's
actions. The engine here has the one action the shapes need to see.
"""

from __future__ import annotations

from typing import Any, Literal, Union

import pytest
from pydantic import TypeAdapter
from typing_extensions import TypedDict

from app.api.shapes import actions_of, read
from app.games.registry import GAMES
from app.rooms.errors import InvalidRequest, UnknownField


class Ring(TypedDict):
    """Ring the bell some times."""

    type: Literal["ring"]
    times: int


class Bell:
    """A one-action engine as the API's shapes see it: its title and its one action type."""

    slug = "bell"
    title = "Bell"
    action_type = Ring


READER = TypeAdapter(actions_of(Bell()))


def test_a_one_action_games_action_is_read_strictly():
    read(READER, {"type": "ring", "times": 2})
    for malformed in ({"type": "ring", "times": 2.0}, {"type": "ring"}, {"type": "knock", "times": 2}, []):
        with pytest.raises(InvalidRequest):
            read(READER, malformed)
    with pytest.raises(UnknownField) as refused:
        read(READER, {"type": "ring", "times": 2, "loud": True})
    assert "action.loud" in str(refused.value)


def test_a_one_action_game_joins_the_published_union_of_actions():
    games: list[Any] = [Bell(), *GAMES.values()]
    schema = TypeAdapter(Union[tuple(actions_of(game) for game in games)]).json_schema()  # noqa: UP007
    assert "Ring" in schema["$defs"] and {"$ref": "#/$defs/Ring"} in schema["anyOf"][0]["oneOf"]
    assert schema["anyOf"][0]["title"] == "Bell action"
