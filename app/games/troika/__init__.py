"""Troika: collect tiles into trios on a doomed planet (2-5 players, three rounds).

Rules in short
--------------
There are 49 tiles: three of each value 1-15, except 7, which has seven. A round starts with
every tile face down and shuffled; each player draws one tile into their hidden hand and one
table tile is turned face up. With two players, 10 face-down tiles are set aside unseen for
the round. The round's first player starts; turns go clockwise (seat order).

A turn: first turn one face-down table tile face up, then do exactly one of
  A. move a face-up table tile into your Container (face up, no size limit);
  B. take a face-down table tile into your hand (at most 3 tiles in hand);
  C. discard one tile: from your hand it goes back face down (a "marked" tile that only you
     know), from your Container it goes face up.
When turning up (step 1) or taking (B) a face-down tile you pick either an unknown tile (the
server draws one at random among the unmarked ones) or a specific marked tile.

"Troika!" (3-5 players): at the start of your turn, instead of playing, you may call it. You
leave the planet if your Container holds at least 5 tiles and your hand plus Container split
exactly into trios with at least one fuel-set. A successful caller skips the rest of the round
and keeps their hand hidden until it ends; the first one in the round earns +5 points. A
caller who does not qualify is out of the round as well, and has failed to leave. Whether a
call succeeded stays hidden from everyone else until the round ends (ruling T7): until then
every caller is shown only as having called, and the success, the -1 token and the +5 are
settled at round end from the caller's tiles (which cannot change once they have called).
Before calling, the view tells the caller alone whether the call would succeed.

The round ends right after a turn that leaves no face-down tile on the table, or as soon as
at most one player has not called. Every player's tiles are then split automatically into
trios, choosing the best-scoring split that holds at least one fuel-set (three equal values,
0 points). A gem (three consecutive values, no wrap past 15) scores the last digit of its
highest value (1-2-3 -> 3, 8-9-10 -> 0, 12-13-14 -> 4). Each tile outside a trio is -1. With
no possible fuel-set a player fails to leave. Among players who left, the best round score
takes a +2 token and the second a +1 token (ties: the player farther clockwise from the
round's first player wins). Each player who failed takes exactly one -1 token. The next round
is started by the player with the fewest round points (ties: nearest clockwise from the
previous first player, that player included). After round 3 the highest token total wins;
ties go to the higher round-3 score, then the win is shared.

Decisions where the rulings (T1-T10 in docs/rulings.md) are silent
------------------------------------------------------------------
- A player who failed (failed call, or no fuel-set) has no round score: they do not compete
  for the +2/+1 tokens, they count as having the fewest points when choosing the next first
  player, and as lower than any score in the final tie-break. Their breakdown shows their
  tiles with no trios.
- A caller's tiles stay in their hand and Container, the hand hidden like everyone's, until the
  round ends. All tokens (including a failed caller's -1) are handed out at round end.
- A successful caller is scored like everyone else at round end (best split with a fuel-set)
  plus the +5 bonus if they were the round's first successful caller.
- The "round-3 tile score" used for the final tie-break is the round-3 score, Troika bonus
  included (the bonus counts as points of that round).
- Among splits with equal score the engine prefers fuel-sets, then gems, then trash, taking
  the lowest tiles first; this only changes which equal-score split is displayed.
- "pass" is offered only when none of A, B, C is possible. Step 1 always turns a tile face
  up, so option A is always possible afterwards and passing cannot occur in normal play.

The actions and the view below are typed in ``app.games.troika.types`` (the API publishes them).

Actions
-------
{"type": "troika"} | {"type": "reveal", "tile": "unknown" | <marked id>}
| {"type": "take_up", "value": v} | {"type": "take_down", "tile": "unknown" | <marked id>}
| {"type": "discard", "from": "hand" | "container", "value": v} | {"type": "pass"}

View keys
---------
phase ("turn_start" | "act" | "over"), round (1-3), current (seat or None), first_player,
num_players, you (viewer seat or None), hand (viewer's sorted hand, [] for spectators),
call_would_succeed (only in the view of the seat whose turn starts, when it may call: whether
its call would succeed; else None), call_problems (for that seat alone: why its call would
fail, each reason as {text, msg, args}, [] if it would succeed; else None),
players: [{seat, hand_count, container (sorted), status ("playing" | "called" while the round
runs; "left" | "failed" once the game is over),
tokens, token_total, hand (sorted; only the viewer's own, or everyone's once over; else None)}],
table_up (sorted face-up values), down_unmarked (count), down_marked: [{id, by, value (only
for the discarder, or once over; else None)}], set_aside (count), rounds (finished round
breakdowns, see ``score.score_seat``, each with the round's ranking and places: ``score.ranked``),
result (None, or the outcome's JSON once over), and once over also seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from app.games import base
from app.games.base import Action, Outcome, State
from app.games.entry import GameEntry
from app.games.troika import score, view
from app.games.troika.rules import (
    ACT_TYPES,
    HAND_LIMIT,
    HANDLERS,
    TURN_START_TYPES,
    distinct,
    face_down_choices,
    start_round,
)
from app.games.troika.types import TroikaAction, TroikaView


class Troika(base.Game):
    slug = "troika"
    title = "Troika"
    min_players = 2
    max_players = 5
    fixed_keys = ()
    action_type = TroikaAction
    view_type = TroikaView
    options = (base.first_player_option(5),)
    handlers: ClassVar[Mapping[str, base.Handler]] = HANDLERS

    def _setup(self, num_players: int, options: dict[str, Any], seed: str) -> State:
        resolved = base.resolve_options(self.options, options)
        base.check_first_player(resolved["first_player"], num_players)
        state: State = {
            "seed": seed,
            "rng_draws": 0,
            "num_players": num_players,
            "options": resolved,
            "tokens": [[] for _ in range(num_players)],
            "rounds": [],
            "next_mark_id": 1,
            "log": [],
        }
        start_round(state, 1, base.first_player(state, resolved["first_player"], num_players))
        return state

    def to_act(self, state: State) -> set[int]:
        return set() if state["phase"] == "over" else {state["current"]}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "turn_start":
            reveals = [{"type": "reveal", "tile": t} for t in face_down_choices(state)]
            call = [{"type": "troika"}] if state["num_players"] >= 3 else []
            return reveals + call
        hand, container = state["hands"][seat], state["containers"][seat]
        actions = [{"type": "take_up", "value": v} for v in distinct(state["table_up"])]
        if len(hand) < HAND_LIMIT:
            actions += [{"type": "take_down", "tile": t} for t in face_down_choices(state)]
        actions += [{"type": "discard", "from": "hand", "value": v} for v in distinct(hand)]
        actions += [{"type": "discard", "from": "container", "value": v} for v in distinct(container)]
        return actions or [{"type": "pass"}]

    def explain(self, state: State, seat: int, action: Action) -> None:
        """Why an action of the seat to act is not listed, when the phase or hand says why."""
        kind = action["type"]
        if state["phase"] == "turn_start":
            base.require(kind not in ACT_TYPES, 'first turn a face-down tile face up (or call "Troika!")')
        else:
            base.require(kind not in TURN_START_TYPES, "you already turned a tile up: now take, discard or pass")
        base.require(kind != "troika" or state["num_players"] >= 3, '"Troika!" can only be called with 3 to 5 players')
        base.require(
            kind != "take_down" or len(state["hands"][seat]) < HAND_LIMIT,
            base.say("your hand already holds {count} tiles", count=HAND_LIMIT),
        )

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        may_call = seat is not None and {"type": "troika"} in self.legal_actions(state, seat)
        return view.view(state, seat, may_call, self.outcome(state))

    def outcome(self, state: State) -> Outcome | None:
        return score.outcome(state)

    def label(self, action: Action, state: State | None = None) -> base.Message:
        kind = action["type"]
        tile = action.get("tile")
        which = base.say("an unknown tile") if tile == "unknown" else base.say("marked tile #{mark}", mark=tile)
        if kind == "troika":
            return base.say('Call "Troika!"')
        if kind == "reveal":
            return base.say("Turn up {tile}", tile=which)
        if kind == "take_up":
            return base.say("Take the face-up {value} into your Container", value=action["value"])
        if kind == "take_down":
            return base.say("Take {tile} into your hand", tile=which)
        if kind == "discard" and action["from"] == "hand":
            return base.say("Discard {value} from your hand (face down)", value=action["value"])
        if kind == "discard":
            return base.say("Discard {value} from your container (face up)", value=action["value"])
        return base.say("Pass")

    def randomize_hidden(self, state: State, seat: int | None, r: random.Random) -> State:
        return view.randomize_hidden(state, seat, r)


GAME = Troika()
ENTRY = GameEntry(
    GAME,
    heuristics="app.bots.troika",
    presenter="app.web.tables.troika",
    ratings={"random": 0, "strong": 515, "expert": 617},
    pieces=(".tile", ".token"),
)
