"""What each seat of TriATri sees (the view's keys are in the package docstring), and a state
with what a seat cannot see re-dealt."""

from __future__ import annotations

import random
from typing import Any

from app.games import base
from app.games.base import Action, State
from app.games.triatri.cards import COLOURS, card_view, colour_of
from app.games.triatri.score import result, score


def view(state: State, seat: int | None, legal_actions: list[Action], awaited: set[int]) -> dict[str, Any]:
    """``seat``'s view (None: a spectator's), given its ``legal_actions`` and the ``awaited`` seats."""
    over = state["phase"] == "over"
    legal = {a.get("card") for a in legal_actions}
    own_commit = state["commits"][seat] if seat is not None else None
    view = {
        "phase": state["phase"],
        "round": state["round"],
        "trick_number": state["trick_number"],
        "you": seat,
        "hand": [
            {"id": c, **card_view(c), "playable": c in legal}
            for c in (state["hands"][seat] if seat is not None else [])
        ],
        "commit": None if own_commit is None else card_view(own_commit),
        "players": [player_view(state, s) for s in range(state["num_players"])],
        "supply": dict(state["supply"]),
        "current": sorted(awaited),
        "leader": state["leader"],
        "gem": None if state["gem"] is None else dict(state["gem"]),
        "trick": [position_view(p) for p in state["played"]],
        "last_trick": last_trick_view(state["last_trick"]),
        "last_reveal": last_reveal_view(state["last_reveal"]),
        "result": result(state) if over else None,
    }
    if over:
        view["seed"] = state["seed"]
    return view


def player_view(state: State, seat: int) -> dict[str, Any]:
    reveal = state["last_reveal"]
    this_round = reveal is not None and reveal["round"] == state["round"]
    return {
        "seat": seat,
        "hand_count": len(state["hands"][seat]),
        "gems": dict(state["gems"][seat]),
        "committed": state["phase"] == "reveal" and state["commits"][seat] is not None,
        "revealed": card_view(reveal["cards"][seat]) if this_round else None,
        "known_cards": [card_view(c) for c in sorted(known_cards(state, seat))],
        "void": [c for c in COLOURS if c in state["void"][seat]],
        "score_now": score(state["gems"][seat], state["supply"])["total"],
    }


def position_view(position: dict[str, Any]) -> dict[str, Any]:
    return {
        "seat": position["seat"],
        **card_view(position["card"]),
        "value": position["value"],
        "doubled": position["multiplier"] == 2,
        "quadrupled": position["multiplier"] == 4,
        "swapped": position["swapped"],
    }


def last_trick_view(last: dict[str, Any] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    cards = [position_view(p) for p in last["cards"]]
    return {"cards": cards, "winner": last["winner"], "gem": dict(last["gem"])}


def last_reveal_view(reveal: dict[str, Any] | None) -> dict[str, Any] | None:
    if reveal is None:
        return None
    return {
        "round": reveal["round"],
        "cards": [card_view(c) for c in reveal["cards"]],
        "result": reveal["result"],
        "starter": reveal["starter"],
    }


def holdings(state: State, seat: int) -> list[int]:
    """The cards a seat holds, its secret commitment included."""
    committed = state["commits"][seat]
    return state["hands"][seat] + ([] if committed is None else [committed])


def known_cards(state: State, seat: int) -> list[int]:
    """Cards everyone knows ``seat`` holds: those it took back after a tied reveal."""
    return [c for c in state["taken_back"][seat] if c in holdings(state, seat)]


def sample_hands(
    pool: list[int], slots: list[tuple[int, int, list[str]]], r: random.Random
) -> tuple[dict[int, list[int]], list[int]]:
    """Give each (seat, size, void colours) slot random cards it may hold, and the rest back.

    ``pool`` must be in a canonical order (sorted) so the deal depends only on ``r``. A few
    random tries usually succeed; otherwise a matching of shuffled cards to places finds a
    deal, which always exists since the true one does.
    """
    slots = sorted(slots, key=lambda slot: -len(slot[2]))
    for _ in range(100):
        r.shuffle(pool)
        left, dealt = list(pool), {}
        for seat, size, void in slots:
            fitting = [c for c in left if colour_of(c) not in void][:size]
            if len(fitting) < size:
                break
            dealt[seat] = fitting
            left = [c for c in left if c not in fitting]
        else:
            return dealt, left
    return match_hands(pool, slots)


def match_hands(pool: list[int], slots: list[tuple[int, int, list[str]]]) -> tuple[dict[int, list[int]], list[int]]:
    """A deal of ``pool`` (already shuffled) to the slots respecting voids: bipartite matching
    of places to cards by augmenting paths."""
    places = [(seat, void) for seat, size, void in slots for _ in range(size)]
    holder: dict[int, int] = {}  # card -> place index

    def assign(place: int, seen: set[int]) -> bool:
        for card in pool:
            if card in seen or colour_of(card) in places[place][1]:
                continue
            seen.add(card)
            if card not in holder or assign(holder[card], seen):
                holder[card] = place
                return True
        return False

    for place in range(len(places)):
        if not assign(place, set()):
            raise ValueError("no deal fits the known voids")
    dealt: dict[int, list[int]] = {seat: [] for seat, _, _ in slots}
    for card, place in holder.items():
        dealt[places[place][0]].append(card)
    return dealt, [c for c in pool if c not in holder]


def randomize_hidden(state: State, seat: int | None, r: random.Random) -> State:
    """Re-deal other seats' unknown cards, commitments, the undealt cards and the seed."""
    state = base.moving_copy(state)
    if state["phase"] == "over":
        return state
    state["seed"] = f"resampled-{r.getrandbits(64):016x}"
    state["log"] = [e for e in state["log"] if e["to"] is None or seat in e["to"]]
    others = [s for s in range(state["num_players"]) if s != seat]
    known = {s: known_cards(state, s) for s in others}
    pool = sorted(state["undealt"] + [c for s in others for c in holdings(state, s) if c not in known[s]])
    slots = [(s, len(holdings(state, s)) - len(known[s]), state["void"][s]) for s in others]
    dealt, undealt = sample_hands(pool, slots, r)
    state["undealt"] = sorted(undealt)
    for s in others:
        cards = known[s] + dealt[s]
        if state["commits"][s] is not None:
            eligible = [c for c in cards if c not in state["taken_back"][s]] or cards
            state["commits"][s] = r.choice(sorted(eligible))
            cards.remove(state["commits"][s])
        state["hands"][s] = sorted(cards)
    return state
