"""The engine contract's own defaults (``app.games.base.Game``): the player count is checked
once, by ``setup``, for every game alike; an engine that names none of its moves still has
labels (``label`` and ``describe`` do not call each other forever); ``views`` is each seat's
``view``; an action goes to its type's rule in the engine's ``handlers``; an engine missing a
part of the contract cannot be made; and an unlisted action's schema is read from its one
typed declaration.
"""

from __future__ import annotations

import random
from typing import Any, Literal, NotRequired

import pytest
from typing_extensions import TypedDict

from app.games import base
from app.games.base import Action, Ids, Omittable, OneOf, Outcome, State, Whole
from app.games.registry import GAMES
from app.games.vem_ai_troika import attack, elections


def count(state: State, seat: int, action: Action) -> None:
    state["total"] += action["value"]


class Counting(base.Game):
    """The smallest engine: one seat after another adds a number; it names none of its moves."""

    slug = "counting"
    title = "Counting"
    min_players = 2
    max_players = 3
    options = ()
    action_type = dict
    view_type = dict
    handlers = {"add": count}  # noqa: RUF012 (a test's table, never changed)

    def _setup(self, num_players: int, options: dict[str, Any], seed: str) -> State:
        return {"seed": seed, "num_players": num_players, "total": 0, "log": []}

    def to_act(self, state: State) -> set[int]:
        return set() if state["total"] >= 3 else {state["total"] % state["num_players"]}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return [{"type": "add", "value": 1}, {"type": "add", "value": 2}] if seat in self.to_act(state) else []

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"total": state["total"], "you": seat}

    def outcome(self, state: State) -> Outcome | None:
        return None

    def randomize_hidden(self, state: State, seat: int | None, r: random.Random) -> State:
        return base.working_copy(state)


def test_an_engine_that_names_no_move_labels_it_by_its_type_and_fields():
    game = Counting()
    assert base.spoken(game.label({"type": "add", "value": 2})) == "add value=2"
    assert game.describe({"type": "add", "value": 2}) == "add value=2"
    assert game.describe({"type": "pass"}, game.setup(2, {}, "s")) == "pass"


@pytest.mark.parametrize("game", [Counting(), *GAMES.values()], ids=lambda game: game.slug)
def test_the_player_count_is_checked_once_for_every_game(game):
    for fitting in (game.min_players, game.max_players):
        assert game.takes(fitting)
        game.setup(fitting, {}, "seed")
    for wrong in (game.min_players - 1, game.max_players + 1):
        assert not game.takes(wrong)
        with pytest.raises(ValueError, match=rf"^{game.title} is for {game.min_players}-{game.max_players} players$"):
            game.setup(wrong, {}, "seed")


def test_views_are_each_seats_view_and_actions_go_to_their_types_rule():
    game = Counting()
    state = game.setup(2, {}, "s")
    assert game.views(state, [None, 0, 1]) == {seat: game.view(state, seat) for seat in (None, 0, 1)}
    canonical, after = game.play(state, 0, {"type": "add", "value": 2})
    assert (canonical, after["total"], state["total"]) == ({"type": "add", "value": 2}, 2, 0)


def test_a_refused_move_says_which_moves_of_the_seat_are_open():
    """A move that fits but is not listed, where no ``explain`` says more: a type the seat has no
    move of names the types it has; a listed type, how many moves of it are open (a programmer
    read "'add' is not allowed now" with no clue what was)."""
    game = Counting()
    state = game.setup(2, {}, "s")
    with pytest.raises(base.IllegalAction, match=r"^'pass' is not allowed now: your moves now are 'add'$"):
        game.play(state, 0, {"type": "pass"})
    with pytest.raises(
        base.IllegalAction,
        match=r"^'add' is not allowed now with those values: your legal actions list 2 of that type$",
    ):
        game.play(state, 0, {"type": "add", "value": 3})


def test_an_engine_missing_a_part_of_the_contract_cannot_be_made():
    class Viewless(base.Game):
        slug = title = "viewless"

    with pytest.raises(TypeError, match="abstract"):
        Viewless()  # type: ignore[abstract]


class Shape(TypedDict):
    type: Literal["go"]
    count: int
    way: Literal["up", "down"]
    ids: list[int]
    also: NotRequired[list[int]]


class Odd(TypedDict):
    type: Literal["odd"]
    name: str


def test_an_unlisted_actions_schema_is_read_from_its_typed_declaration():
    ids = Ids(most=3)
    assert base.schema_of(Shape, ids) == {
        "count": Whole(),
        "way": OneOf(("up", "down")),
        "ids": ids,
        "also": Omittable(ids),
    }
    with pytest.raises(TypeError, match=r"^Odd\.name: "):
        base.schema_of(Odd, ids)
    cards = Ids(most=42)  # Vem ai's attack and campaign, as they were written out by hand
    derived = {"attack": attack.FIELDS, "campaign": elections.FIELDS}
    assert derived["attack"] == {
        "target": Whole(),
        "mode": OneOf(("control", "discard")),
        "cards": cards,
        "actions": Omittable(cards),
    }
    assert derived["campaign"] == {"cards": cards, "money": Whole()}
