"""The games' actions and views as the API publishes and reads them.

Each engine defines its actions and its view as typed definitions (``Game.action_type``,
``Game.view_type``). Here they become the contract's types: a game's actions are one union
discriminated by ``type``, read strictly (JSON integers only, no field more or fewer); the
answers name every game's views and actions. A move's action is read by its room's game at the
edge (:func:`read_action`): an action no type of the game fits is a malformed request (400),
one that fits a type but for fields the type does not name is refused with them named (422),
while whether a well-formed action is legal now stays the engine's call (``Game.play``, 422).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import ConfigDict, Discriminator, Field, TypeAdapter, ValidationError

from app.api.errors import unknown_fields
from app.games.registry import GAMES
from app.rooms.errors import InvalidRequest, UnknownField


def one_games_actions(slug: str) -> Any:
    game = GAMES[slug]
    return Annotated[game.action_type, Discriminator("type"), Field(title=f"{game.title} action")]


if TYPE_CHECKING:
    AnyAction = Any
    AnyView = Any
else:
    AnyAction = Annotated[
        Union[tuple(one_games_actions(slug) for slug in GAMES)],  # noqa: UP007 (a union built from a tuple)
        Field(description="an action of the room's game: one of its action types, by 'type'"),
    ]
    AnyView = Annotated[
        Union[tuple(game.view_type for game in GAMES.values())],  # noqa: UP007
        Field(description="the room's game's view for this seat"),
    ]

STRICT = ConfigDict(strict=True, extra="forbid")
READERS = {slug: TypeAdapter(one_games_actions(slug), config=STRICT) for slug in GAMES}


def read_action(slug: str, action: Any) -> None:
    """400 unless ``action`` is one of the game's action types, 422 if it is but has a field
    more (named)."""
    try:
        READERS[slug].validate_python(action)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        unknown = unknown_fields([{**err, "loc": err["loc"][1:]} for err in errors])  # (the type's tag left out)
        if unknown is not None:
            raise UnknownField([f"action.{field}" for field in unknown]) from None
        raise InvalidRequest(f"action: {describe(exc)}") from None


def describe(exc: ValidationError) -> str:
    """The first problem, named by its field (the action type the tag chose is left out)."""
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(step) for step in error["loc"][1:])
    return f"{where}: {error['msg']}" if where else error["msg"]
