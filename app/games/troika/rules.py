"""Troika's rules: the tiles, a round's start and end, a turn's end and each action type's
rule (``HANDLERS``), which change a working copy of the state in place."""

from __future__ import annotations

from bisect import insort
from typing import Any

from app.games import base
from app.games.base import Action, State
from app.games.troika.score import bonus_seat, can_leave, next_first_player, score_seat, token_awards

TILES = tuple(v for v in range(1, 16) for _ in range(7 if v == 7 else 3))
ROUNDS = 3
HAND_LIMIT = 3
SET_ASIDE_TWO_PLAYERS = 10
TURN_START_TYPES = ("troika", "reveal")
ACT_TYPES = ("take_up", "take_down", "discard", "pass")


# ---------------------------------------------------------------- small helpers


def _name(seat: int) -> str:
    return base.seat_label(seat)


def _a(value: int) -> base.Message:
    """The value with its article: "a 5", "an 8", "an 11"."""
    return base.say("an {value}", value=value) if value in (8, 11) else base.say("a {value}", value=value)


def distinct(values: list[int]) -> list[int]:
    return sorted(set(values))


def face_down_choices(state: State) -> list[Any]:
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


def start_round(state: State, number: int, first: int) -> None:
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


def _describe_record(record: dict[str, Any], tokens: str | base.Message) -> base.Message:
    """One seat's line of a round's end: how it left the planet (or failed to) and its token."""
    name = _name(record["seat"])
    if record["status"] == "failed":
        held = sorted(record["hand"] + record["container"])
        tiles = base.say("tiles {tiles}", tiles=", ".join(map(str, held))) if held else base.say("no tiles")
        if record["reason"] == "failed_call":
            return base.say(
                "{player} failed to leave (their Troika! call fails); {tiles}. Token: {tokens}.",
                player=name,
                tiles=tiles,
                tokens=tokens,
            )
        return base.say(
            "{player} failed to leave (no fuel-set); {tiles}. Token: {tokens}.",
            player=name,
            tiles=tiles,
            tokens=tokens,
        )
    trios = [_trio(t) for t in record["trios"]]
    trash = base.say("; trash {tiles}", tiles=", ".join(map(str, record["trash"]))) if record["trash"] else ""
    bonus = base.say("; Troika! bonus +{bonus}", bonus=record["troika_bonus"]) if record["troika_bonus"] else ""
    parts = {"player": name, "trios": trios, "trash": trash, "bonus": bonus, "score": record["score"], "tokens": tokens}
    if record["called_troika"]:
        return base.say(
            "{player} left the planet (their Troika! call succeeds): {trios}{trash}{bonus}; score {score}."
            " Token: {tokens}.",
            **parts,
        )
    return base.say("{player} left the planet: {trios}{trash}{bonus}; score {score}. Token: {tokens}.", **parts)


def _trio(trio: dict[str, Any]) -> base.Message:
    tiles, points = "-".join(map(str, trio["tiles"])), trio["points"]
    if trio["kind"] == "gem":
        return base.say("gem {tiles} ({points})", tiles=tiles, points=points)
    return base.say("fuel {tiles} ({points})", tiles=tiles, points=points)


def _end_round(state: State, ended_by: str) -> None:
    n, first = state["num_players"], state["first_player"]
    bonus = bonus_seat(state)
    records = [score_seat(state, seat, bonus) for seat in range(n)]
    for seat, token in token_awards(records, first, n):
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
        tokens = ", ".join(map(base.signed, record["tokens"])) or base.say("none")
        state["log"].append(base.log_entry(_describe_record(record, tokens)))
    if state["round"] == ROUNDS:
        state.update(phase="over", current=None)
        state["log"].append(base.log_entry(base.say("The game is over.")))
    else:
        start_round(state, state["round"] + 1, next_first_player(records, first, n))


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
