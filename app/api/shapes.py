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

from pydantic import Discriminator, Field, TypeAdapter, ValidationError

from app.api.errors import described, unknown_fields
from app.games.base import Game, IllegalAction
from app.games.registry import GAMES
from app.rooms.errors import InvalidRequest, UnknownField


def actions_of(game: Game) -> Any:
    """The game's actions as one type discriminated by ``type`` (a game with one action type too)."""
    return Annotated[game.action_type, Discriminator("type"), Field(title=f"{game.title} action")]


if TYPE_CHECKING:
    AnyAction = Any
    AnyView = Any
else:
    AnyAction = Annotated[
        Union[tuple(actions_of(game) for game in GAMES.values())],  # noqa: UP007 (a union built from a tuple)
        Field(description="an action of the room's game: one of its action types, by 'type'"),
    ]
    AnyView = Annotated[
        Union[tuple(game.view_type for game in GAMES.values())],  # noqa: UP007
        Field(description="the room's game's view for this seat"),
    ]

# Strictness is asked of each reading, not set as the adapter's config: pydantic refuses a config
# for a game with one action type (a TypedDict, not a union), whose own config it would override.
READERS = {slug: TypeAdapter(actions_of(game)) for slug, game in GAMES.items()}


def read_action(slug: str, action: Any) -> None:
    """400 unless ``action`` is one of the game's action types, 422 if it is but has a field
    more (named); an unlisted type's fields are read by the game's own bounds too (400 past
    them: the contract states them, ``app.api.contract.with_unlisted_bounds``)."""
    read(READERS[slug], action)
    for name, field in GAMES[slug].unlisted.get(action["type"], {}).items():
        if name in action:
            try:
                field.read(name, action[name])
            except IllegalAction as exc:
                raise InvalidRequest(f"action: {exc.reason}") from None


def read(reader: TypeAdapter[Any], action: Any) -> None:
    """``action`` read by a game's reader (:func:`read_action`)."""
    try:
        reader.validate_python(action, strict=True, extra="forbid")
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        unknown = unknown_fields([{**err, "loc": err["loc"][1:]} for err in errors])  # (the type's tag left out)
        if unknown is not None:
            raise UnknownField([f"action.{field}" for field in unknown]) from None
        # (each problem, named by its field: the action type the tag chose is left out)
        raise InvalidRequest(f"action: {described(errors, skip=1)}") from None
