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

The actions and the view below are typed in ``app.games.troika_types`` (the API publishes them).

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
breakdowns, see ``_score_seat``, each with the round's ranking and places: ``_ranked``),
result (None, or the outcome's JSON once over), and once over also seed.
"""

from __future__ import annotations

import functools
import random
from bisect import insort
from collections.abc import Mapping
from typing import Any, ClassVar

from app.games import base
from app.games.base import Action, Outcome, State
from app.games.troika_types import TroikaAction, TroikaView

TILES = tuple(v for v in range(1, 16) for _ in range(7 if v == 7 else 3))
ROUNDS = 3
HAND_LIMIT = 3
CALL_MIN_CONTAINER = 5
FIRST_CALL_BONUS = 5
SET_ASIDE_TWO_PLAYERS = 10
TURN_START_TYPES = ("troika", "reveal")
ACT_TYPES = ("take_up", "take_down", "discard", "pass")


# ---------------------------------------------------------------- trios and scores


# A split's subproblems repeat within one search and across a game's calls, so they are kept;
# 4,096 of them (~1.3 MB) hold what a game needs. The 65,536 kept before took ~20 MB to fill, a
# few thousand games in: the one slow rise left in the soak's memory (docs/benchmarks.md).
@functools.lru_cache(maxsize=4096)
def _search(counts: tuple[int, ...], has_fuel: bool, allow_trash: bool) -> tuple | None:
    """Best (points, trios, trash) for the tiles counted by value-1; None without a fuel-set.

    The lowest remaining tile is either in a fuel-set, starts a gem, or is trash; trying the
    three covers every split.
    """
    low = next((i for i, count in enumerate(counts) if count), None)
    if low is None:
        return (0, (), ()) if has_fuel else None
    value = low + 1
    choices: list[tuple[tuple[int, ...], tuple[str, tuple[int, ...], int] | None, int | None]] = []
    if counts[low] >= 3:
        choices.append(((low,) * 3, ("fuel", (value,) * 3, 0), None))
    if low + 2 < len(counts) and counts[low + 1] and counts[low + 2]:
        gem = (value, value + 1, value + 2)
        choices.append(((low, low + 1, low + 2), ("gem", gem, (value + 2) % 10), None))
    if allow_trash:
        choices.append(((low,), None, value))
    best = None
    for used, trio, trash in choices:
        rest_counts = list(counts)
        for i in used:
            rest_counts[i] -= 1
        rest = _search(tuple(rest_counts), has_fuel or (trio is not None and trio[0] == "fuel"), allow_trash)
        if rest is None:
            continue
        if trio is not None:
            candidate = (rest[0] + trio[2], (trio, *rest[1]), rest[2])
        else:
            candidate = (rest[0] - 1, rest[1], (trash, *rest[2]))
        if best is None or candidate[0] > best[0]:
            best = candidate
    return best


def _counts(tiles: list[int]) -> tuple[int, ...]:
    return tuple(tiles.count(v) for v in range(1, 16))


def best_split(tiles: list[int]) -> tuple | None:
    """The highest-scoring split of ``tiles`` that holds a fuel-set: (points, trios, trash)."""
    return _search(_counts(tiles), False, True)


def can_leave(hand: list[int], container: list[int]) -> bool:
    """Whether a "Troika!" call succeeds: Container >= 5 and an exact split with a fuel-set."""
    return len(container) >= CALL_MIN_CONTAINER and (_search(_counts(hand + container), False, False) is not None)


def call_problems(hand: list[int], container: list[int]) -> list[base.Message]:
    """Why a "Troika!" call with these tiles would fail, as messages to the caller (ruling T7);
    empty when it would succeed. It reads only the caller's own tiles."""
    problems = []
    if len(container) == 1:
        problems.append(base.say("your Container has 1 tile; a call needs {needed}", needed=CALL_MIN_CONTAINER))
    elif len(container) < CALL_MIN_CONTAINER:
        problems.append(
            base.say(
                "your Container has {count} tiles; a call needs {needed}",
                count=len(container),
                needed=CALL_MIN_CONTAINER,
            )
        )
    tiles = hand + container
    if _search(_counts(tiles), True, False) is None:  # no exact split, fuel-set or not
        problems.append(base.say("your tiles do not all fit into trios: some would be trash"))
    elif _search(_counts(tiles), False, False) is None:
        problems.append(base.say("none of your trios would be a fuel-set (three equal tiles)"))
    return problems


# ---------------------------------------------------------------- small helpers


def _name(seat: int) -> str:
    return base.seat_label(seat)


def _a(value: int) -> base.Message:
    """The value with its article: "a 5", "an 8", "an 11"."""
    return base.say("an {value}", value=value) if value in (8, 11) else base.say("a {value}", value=value)


def _distinct(values: list[int]) -> list[int]:
    return sorted(set(values))


def _clockwise(seat: int, origin: int, n: int) -> int:
    """How many steps clockwise ``seat`` sits from ``origin`` (0 for the origin itself)."""
    return (seat - origin) % n


def _face_down_choices(state: State) -> list[Any]:
    unknown = ["unknown"] if state["down_unmarked"] else []
    return unknown + [mark["id"] for mark in state["down_marked"]]


def _face_down_count(state: State) -> int:
    return len(state["down_unmarked"]) + len(state["down_marked"])


def _playing(state: State) -> list[int]:
    return [s for s, status in enumerate(state["status"]) if status == "playing"]


def _next_playing(state: State, seat: int) -> int:
    n = state["num_players"]
    return next(s % n for s in range(seat + 1, seat + n + 1) if state["status"][s % n] == "playing")


def _pick_face_down(state: State, choice: Any) -> tuple[int, dict[str, Any] | None]:
    """Remove the chosen face-down tile: (its value, its mark or None for an unknown tile)."""
    if choice == "unknown":
        index = base.rng(state).randrange(len(state["down_unmarked"]))
        return state["down_unmarked"].pop(index), None
    mark = next(m for m in state["down_marked"] if m["id"] == choice)
    state["down_marked"].remove(mark)
    return mark["value"], mark


def _mark_label(mark: dict[str, Any]) -> base.Message:
    return base.say("marked tile #{mark} (discarded by {player})", mark=mark["id"], player=_name(mark["by"]))


# ---------------------------------------------------------------- rounds


def _start_round(state: State, number: int, first: int) -> None:
    n = state["num_players"]
    tiles = list(TILES)
    base.rng(state).shuffle(tiles)
    hands = [[tiles.pop()] for _ in range(n)]
    face_up = tiles.pop()
    set_aside = [tiles.pop() for _ in range(SET_ASIDE_TWO_PLAYERS if n == 2 else 0)]
    state.update(
        round=number,
        first_player=first,
        current=first,
        phase="turn_start",
        hands=hands,
        containers=[[] for _ in range(n)],
        status=["playing"] * n,
        table_up=[face_up],
        down_unmarked=sorted(tiles),
        down_marked=[],
        set_aside=sorted(set_aside),
        callers=[],  # seats that called "Troika!" this round, in call order
    )
    facts = {"round": number, "player": _name(first), "tile": _a(face_up)}
    if set_aside:
        begins = base.say(
            "Round {round} begins: {player} starts; {tile} is turned face up. {aside} tiles are set aside unseen.",
            aside=SET_ASIDE_TWO_PLAYERS,
            **facts,
        )
    else:
        begins = base.say("Round {round} begins: {player} starts; {tile} is turned face up.", **facts)
    state["log"].append(base.log_entry(begins))
    for seat, hand in enumerate(hands):
        state["log"].append(base.log_entry(base.say("You draw {tile}.", tile=_a(hand[0])), to=[seat]))


def _bonus_seat(state: State) -> int | None:
    """The round's first caller whose call succeeded (settled at round end, ruling T7)."""
    return next((s for s in state["callers"] if can_leave(state["hands"][s], state["containers"][s])), None)


def _score_seat(state: State, seat: int, bonus_seat: int | None) -> dict[str, Any]:
    """One seat's round breakdown.

    Keys: seat, hand, container, called_troika, status ("left" | "failed"), reason (None |
    "failed_call" | "no_fuel_set"), trios ([{kind, tiles, points}]), trash, troika_bonus,
    score (None when failed), tokens.
    """
    hand, container = state["hands"][seat], state["containers"][seat]
    called = seat in state["callers"]
    record = {
        "seat": seat,
        "hand": sorted(hand),
        "container": sorted(container),
        "called_troika": called,
        "status": "failed",
        "reason": "failed_call",
        "trios": [],
        "trash": [],
        "troika_bonus": 0,
        "score": None,
        "tokens": [],
    }
    if called and not can_leave(hand, container):
        return record
    split = best_split(hand + container)
    if split is None:
        return {**record, "reason": "no_fuel_set"}
    points, trios, trash = split
    bonus = FIRST_CALL_BONUS if bonus_seat == seat else 0
    return {
        **record,
        "status": "left",
        "reason": None,
        "trios": [{"kind": kind, "tiles": list(tiles), "points": pts} for kind, tiles, pts in trios],
        "trash": list(trash),
        "troika_bonus": bonus,
        "score": points + bonus,
    }


def _token_awards(records: list[dict[str, Any]], first: int, n: int) -> list[tuple[int, int]]:
    """(seat, token) pairs: +2 and +1 to the best who left, -1 to each who failed."""
    left = sorted(
        (r for r in records if r["status"] == "left"),
        key=lambda r: (r["score"], _clockwise(r["seat"], first, n)),
        reverse=True,
    )
    awards = [(r["seat"], token) for r, token in zip(left, (2, 1), strict=False)]  # the best two
    return awards + [(r["seat"], -1) for r in records if r["status"] == "failed"]


def _ranked(record: dict[str, Any]) -> dict[str, Any]:
    """A finished round's record as the view shows it, with the round's ranking (best first:
    who left the planet, by points, then who failed) and each seat's place (equal points share
    one), for the summary the table shows when the round ends."""
    shown = base.working_copy(record)

    def standing(seat: int) -> tuple[bool, int]:
        score = shown["players"][seat]["score"]
        return score is not None, score or 0

    shown["ranking"] = sorted(range(len(shown["players"])), key=standing, reverse=True)
    shown["places"] = base.places(shown["ranking"], standing)
    return shown


def _next_first_player(records: list[dict[str, Any]], previous_first: int, n: int) -> int:
    """Fewest round points starts (failed players count lowest); ties nearest clockwise."""
    return min(
        records,
        key=lambda r: (r["score"] is not None, r["score"] or 0, _clockwise(r["seat"], previous_first, n)),
    )["seat"]


def _describe_record(record: dict[str, Any], tokens: str | base.Message) -> base.Message:
    """One seat's line of a round's end: how it left the planet (or failed to) and its token."""
    name = _name(record["seat"])
    if record["status"] == "failed":
        tiles = str(sorted(record["hand"] + record["container"]))
        if record["reason"] == "failed_call":
            return base.say(
                "{player} failed to leave (their Troika! call fails); tiles {tiles}. Token: {tokens}.",
                player=name,
                tiles=tiles,
                tokens=tokens,
            )
        return base.say(
            "{player} failed to leave (no fuel-set); tiles {tiles}. Token: {tokens}.",
            player=name,
            tiles=tiles,
            tokens=tokens,
        )
    trios = [_trio(t) for t in record["trios"]]
    trash = base.say("; trash {tiles}", tiles=str(record["trash"])) if record["trash"] else ""
    bonus = base.say("; Troika! bonus +{bonus}", bonus=record["troika_bonus"]) if record["troika_bonus"] else ""
    parts = {"player": name, "trios": trios, "trash": trash, "bonus": bonus, "score": record["score"], "tokens": tokens}
    if record["called_troika"]:
        return base.say(
            "{player} left the planet (their Troika! call succeeds): {trios}{trash}{bonus} = {score} points."
            " Token: {tokens}.",
            **parts,
        )
    return base.say("{player} left the planet: {trios}{trash}{bonus} = {score} points. Token: {tokens}.", **parts)


def _trio(trio: dict[str, Any]) -> base.Message:
    tiles, points = "-".join(map(str, trio["tiles"])), trio["points"]
    if trio["kind"] == "gem":
        return base.say("gem {tiles} ({points})", tiles=tiles, points=points)
    return base.say("fuel {tiles} ({points})", tiles=tiles, points=points)


def _end_round(state: State, ended_by: str) -> None:
    n, first = state["num_players"], state["first_player"]
    bonus_seat = _bonus_seat(state)
    records = [_score_seat(state, seat, bonus_seat) for seat in range(n)]
    for seat, token in _token_awards(records, first, n):
        records[seat]["tokens"].append(token)
        state["tokens"][seat].append(token)
    for record in records:
        state["status"][record["seat"]] = record["status"]
    state["rounds"].append({"round": state["round"], "first_player": first, "ended_by": ended_by, "players": records})
    if ended_by == "table_empty":
        ends = base.say("Round {round} ends: the table has no face-down tile left.", round=state["round"])
    else:
        ends = base.say("Round {round} ends: at most one player has not called Troika.", round=state["round"])
    state["log"].append(base.log_entry(ends))
    for record in records:
        tokens = ", ".join(f"{t:+d}" for t in record["tokens"]) or base.say("none")
        state["log"].append(base.log_entry(_describe_record(record, tokens)))
    if state["round"] == ROUNDS:
        state.update(phase="over", current=None)
        state["log"].append(base.log_entry(base.say("The game is over.")))
    else:
        _start_round(state, state["round"] + 1, _next_first_player(records, first, n))


def _end_turn(state: State, seat: int) -> None:
    if _face_down_count(state) == 0:
        _end_round(state, "table_empty")
    else:
        state.update(current=_next_playing(state, seat), phase="turn_start")


# ---------------------------------------------------------------- action handlers


def _apply_troika(state: State, seat: int, action: Action) -> None:
    """The caller is out of the round; whether the call succeeds is settled and shown at round
    end (ruling T7), so the public log says the same either way."""
    state["status"][seat] = "called"
    state["callers"].append(seat)
    state["log"].append(
        base.log_entry(
            base.say(
                "{player} calls Troika! and is out of the round; the call is settled when the round ends.",
                player=_name(seat),
            )
        )
    )
    if can_leave(state["hands"][seat], state["containers"][seat]):
        told = base.say("Your call succeeds: everyone learns it when the round ends.")
    else:
        told = base.say("Your call fails: everyone learns it when the round ends.")
    state["log"].append(base.log_entry(told, to=[seat]))
    if len(_playing(state)) <= 1:
        _end_round(state, "troika")
    else:
        state["current"] = _next_playing(state, seat)


def _apply_reveal(state: State, seat: int, action: Action) -> None:
    value, mark = _pick_face_down(state, action["tile"])
    insort(state["table_up"], value)
    which = _mark_label(mark) if mark else base.say("an unknown tile")
    state["log"].append(
        base.log_entry(base.say("{player} turns up {tile}: {value}.", player=_name(seat), tile=which, value=_a(value)))
    )
    state["phase"] = "act"


def _apply_take_up(state: State, seat: int, action: Action) -> None:
    state["table_up"].remove(action["value"])
    insort(state["containers"][seat], action["value"])
    state["log"].append(
        base.log_entry(
            base.say(
                "{player} moves the face-up {value} into their Container.", player=_name(seat), value=action["value"]
            )
        )
    )
    _end_turn(state, seat)


def _apply_take_down(state: State, seat: int, action: Action) -> None:
    value, mark = _pick_face_down(state, action["tile"])
    insort(state["hands"][seat], value)
    which = _mark_label(mark) if mark else base.say("an unknown face-down tile")
    state["log"].append(
        base.log_entry(base.say("{player} takes {tile} into their hand.", player=_name(seat), tile=which))
    )
    state["log"].append(base.log_entry(base.say("You take {tile}.", tile=_a(value)), to=[seat]))
    _end_turn(state, seat)


def _apply_discard(state: State, seat: int, action: Action) -> None:
    value = action["value"]
    if action["from"] == "hand":
        state["hands"][seat].remove(value)
        mark_id = state["next_mark_id"]
        state["next_mark_id"] += 1
        state["down_marked"].append({"id": mark_id, "by": seat, "value": value})
        state["log"].append(
            base.log_entry(
                base.say(
                    "{player} discards a tile from their hand face down: marked tile #{mark}.",
                    player=_name(seat),
                    mark=mark_id,
                )
            )
        )
        state["log"].append(
            base.log_entry(base.say("Marked tile #{mark} is your {value}.", mark=mark_id, value=value), to=[seat])
        )
    else:
        state["containers"][seat].remove(value)
        insort(state["table_up"], value)
        state["log"].append(
            base.log_entry(
                base.say("{player} discards the {value} from their Container face up.", player=_name(seat), value=value)
            )
        )
    _end_turn(state, seat)


def _apply_pass(state: State, seat: int, action: Action) -> None:
    state["log"].append(
        base.log_entry(base.say("{player} cannot take or discard anything and passes.", player=_name(seat)))
    )
    _end_turn(state, seat)


HANDLERS = {
    "troika": _apply_troika,
    "reveal": _apply_reveal,
    "take_up": _apply_take_up,
    "take_down": _apply_take_down,
    "discard": _apply_discard,
    "pass": _apply_pass,
}


# ---------------------------------------------------------------- the game


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
        _start_round(state, 1, base.first_player(state, resolved["first_player"], num_players))
        return state

    def to_act(self, state: State) -> set[int]:
        return set() if state["phase"] == "over" else {state["current"]}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "turn_start":
            reveals = [{"type": "reveal", "tile": t} for t in _face_down_choices(state)]
            call = [{"type": "troika"}] if state["num_players"] >= 3 else []
            return reveals + call
        hand, container = state["hands"][seat], state["containers"][seat]
        actions = [{"type": "take_up", "value": v} for v in _distinct(state["table_up"])]
        if len(hand) < HAND_LIMIT:
            actions += [{"type": "take_down", "tile": t} for t in _face_down_choices(state)]
        actions += [{"type": "discard", "from": "hand", "value": v} for v in _distinct(hand)]
        actions += [{"type": "discard", "from": "container", "value": v} for v in _distinct(container)]
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
        over = state["phase"] == "over"
        outcome = self.outcome(state)
        view = {
            "phase": state["phase"],
            "round": state["round"],
            "current": state["current"],
            "first_player": state["first_player"],
            "num_players": state["num_players"],
            "you": seat,
            "hand": sorted(state["hands"][seat]) if seat is not None else [],
            "call_would_succeed": self._call_check(state, seat),
            "call_problems": self._call_problems(state, seat),
            "players": [self._player_view(state, s, over or s == seat) for s in range(state["num_players"])],
            "table_up": sorted(state["table_up"]),
            "down_unmarked": len(state["down_unmarked"]),
            "down_marked": [
                {"id": m["id"], "by": m["by"], "value": m["value"] if over or m["by"] == seat else None}
                for m in state["down_marked"]
            ],
            "set_aside": len(state["set_aside"]),
            "rounds": [_ranked(record) for record in state["rounds"]],
            "result": outcome.to_json() if outcome else None,
        }
        if over:
            view["seed"] = state["seed"]
        return view

    def _call_check(self, state: State, seat: int | None) -> bool | None:
        """For the seat that may call now, whether its call would succeed (its own tiles only)."""
        problems = self._call_problems(state, seat)
        return None if problems is None else not problems

    def _call_problems(self, state: State, seat: int | None) -> list[dict[str, Any]] | None:
        """For the seat that may call now, why its call would fail (its own tiles only): each
        reason's English text and its message."""
        if seat is None or {"type": "troika"} not in self.legal_actions(state, seat):
            return None
        problems = call_problems(state["hands"][seat], state["containers"][seat])
        return [{"text": base.spoken(problem), **problem} for problem in problems]

    @staticmethod
    def _player_view(state: State, seat: int, show_hand: bool) -> dict[str, Any]:
        tokens = state["tokens"][seat]
        return {
            "seat": seat,
            "hand_count": len(state["hands"][seat]),
            "container": sorted(state["containers"][seat]),
            "status": state["status"][seat],
            "tokens": list(tokens),
            "token_total": sum(tokens),
            "hand": sorted(state["hands"][seat]) if show_hand else None,
        }

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        n = state["num_players"]
        totals = [sum(tokens) for tokens in state["tokens"]]
        last = [record["score"] for record in state["rounds"][-1]["players"]]

        def rank_key(seat: int) -> tuple:
            return (totals[seat], last[seat] is not None, last[seat] or 0)

        ranking = sorted(range(n), key=rank_key, reverse=True)
        winners = [s for s in ranking if rank_key(s) == rank_key(ranking[0])]
        return Outcome(
            scores=totals,
            winners=winners,
            ranking=ranking,
            places=base.places(ranking, rank_key),
            details={"round3_scores": last, "tokens": base.working_copy(state["tokens"])},
        )

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
        """Re-deal what ``seat`` cannot see: other hands, unmarked and set-aside tiles, others'
        marked values and the seed; counts and everything ``seat`` sees stay as they are."""
        state = base.moving_copy(state)
        if state["phase"] == "over":
            return state
        others = [s for s in range(state["num_players"]) if s != seat]
        foreign_marks = [m for m in state["down_marked"] if m["by"] != seat]
        pool = [v for s in others for v in state["hands"][s]]
        pool += state["down_unmarked"] + state["set_aside"] + [m["value"] for m in foreign_marks]
        pool.sort()  # a canonical order: the sample depends on ``r`` and what ``seat`` knows only
        r.shuffle(pool)
        tiles = iter(pool)
        for s in others:
            state["hands"][s] = sorted(next(tiles) for _ in state["hands"][s])
        state["down_unmarked"] = sorted(next(tiles) for _ in state["down_unmarked"])
        state["set_aside"] = sorted(next(tiles) for _ in state["set_aside"])
        for mark in foreign_marks:
            mark["value"] = next(tiles)
        state["seed"] = f"resampled-{r.getrandbits(64):016x}"
        state["log"] = [e for e in state["log"] if e["to"] is None or seat in e["to"]]
        return state


GAME = Troika()
