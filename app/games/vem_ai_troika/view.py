"""What one seat may see of a Vem aí a Troika state, and re-dealing what it may not see.

The view keys are documented in the package docstring (``__init__.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from app.games.base import State, moving_copy, seen_by
from app.games.vem_ai_troika import attack, card_actions, elections, score, table
from app.games.vem_ai_troika.deck import bonuses_json, describe_bonuses
from app.games.vem_ai_troika.rules import FIXED_KEYS
from app.games.vem_ai_troika.table import COLOURS, group, player

VALUES = ("power", "votes", "income")
PHASES = {"leaders": "leaders", "campaign": "elections", "event": "event", "effects": "event", "over": "over"}


def group_view(state: State, gid: int, seat: int | None = None, from_hand: bool = False) -> dict[str, Any]:
    """A Group card, flat (the table memoises card HTML by its values); in the advanced game
    with its variable values and Hand Action in words and, when ``seat`` controls or holds it,
    its figures as they count now (``now_power``, ``now_votes``, ``now_income``)."""
    card = group(state, gid)
    shown = {key: card[key] for key in ("name", "gloss", "colour", "power", "votes", "income")}
    shown["type"] = card.get("type")
    if table.advanced(state):
        action = card["hand_action"]
        shown["variable"], shown["variable_said"] = describe_bonuses(card), bonuses_json(card)
        keys = ("when", "text", "said", "first", "discard_only", "reconstructed")
        shown.update({f"hand_{key}": action.get(key) for key in keys})
        if seat is not None:
            shown.update({f"now_{key}": table.group_value(state, seat, gid, key, from_hand) for key in VALUES})
    return {"id": gid, **shown}


def leader_view(state: State, lid: int) -> dict[str, Any]:
    card = state["deck"]["leaders"][lid]
    shown = {key: card[key] for key in ("name", "gloss", "colour", "power", "votes", "income", "bonus")}
    if table.advanced(state):
        shown["variable"], shown["variable_said"] = describe_bonuses(card), bonuses_json(card)
        keys = ("name", "when", "cost", "text", "said")
        shown.update({f"table_action_{key}": card["table_action"][key] for key in keys})
    return {"id": lid, **shown}


def event_view(state: State, eid: int) -> dict[str, Any]:
    card = state["deck"]["events"][eid]
    shown = {"id": eid, "name": card["name"], "gloss": card["gloss"], "points": card["points"], "text": card["text"]}
    return {**shown, "said": card["said"]}


def player_view(state: State, seat: int) -> dict[str, Any]:
    p = player(state, seat)

    def on_table(gid: int) -> dict[str, Any]:
        return {**group_view(state, gid, seat), "defence": attack.defence_base(state, seat, gid)}

    shown = {
        "seat": seat,
        "leader": None if p["leader"] is None else leader_view(state, p["leader"]),
        "leader_chosen": p["choice"] is not None,
        "families": {c: [on_table(gid) for gid in table.family(state, seat, c)] for c in COLOURS},
        "columns": {c: [[on_table(gid) for gid in col] for col in table.columns(state, seat, c)] for c in COLOURS},
        "titles": list(p["titles"]),
        "offshore_money": p["offshore_money"],
        "government": state["government"] == seat,
        "government_cards": [
            {**event_view(state, eid), "face_up": state["government"] == seat and state["government_card"] == eid}
            for eid in p["kept"]
        ],
        "hand_count": table.hand_size(state, seat),
        "money": p["money"],
        "committed": p["campaign"] is not None,
        "campaign_size": None
        if p["campaign"] is None
        else {"cards": len(p["campaign"]["cards"]), "money": p["campaign"]["money"]},
        **{key: table.metric(state, seat, key) for key in ("power", "votes", "income", "consensus")},
        "score_now": score.breakdown(state, seat)["total"],  # all of it is public
    }
    if state["stage"] in ("precampaign", "campaign"):  # face-down Pre-Campaign cards count once revealed
        shown["election_votes"] = elections.counted_table_votes(state)[seat]
    if table.advanced(state):
        shown["leader_value"] = {key: table.leader_value(state, seat, key) for key in VALUES}
        shown["sideways"] = p["sideways"]
        shown["neutral"] = p["neutral"]
        shown["precampaign_count"] = len(p["precampaign"])
        shown["precampaign_done"] = p["precampaign_done"]
    return shown


def attack_view(state: State) -> dict[str, Any] | None:
    a = state["attack"]
    if a is None:
        return None
    attack_total, defence_total = attack.totals(state)
    shown = {
        "attacker": a["attacker"],
        "defender": a["defender"],
        "mode": a["mode"],
        "target": group_view(state, a["target"]),
        "attack_cards": [group_view(state, gid) for gid in a["attack_cards"]],
        "defence_cards": [group_view(state, gid) for gid in a["defence_cards"]],
        "attack_total": attack_total,
        "defence_total": defence_total,
        "answered": a["answered"],
        "awaiting": None if state["reaction"] is not None else attack.awaited(state),
    }
    if table.advanced(state):
        shown["actions"] = list(a["actions"])
        shown["cancelled"] = list(a.get("cancelled", []))  # of those, the ones a reaction cancelled
        shown["phase"] = a["phase"]
        shown["supporters"] = list(a["supporters"])
        shown["support"] = [{**s, "card": group_view(state, s["card"])} for s in a["support"]]
    return shown


def reaction_view(state: State) -> dict[str, Any] | None:
    """The open reaction window: its seats and the cards it answers, never who has answered."""
    if state["reaction"] is None:
        return None
    plays = [{"seat": p["seat"], "card": group_view(state, p["card"])} for p in state["pending"]["plays"]]
    return {"seats": list(state["reaction"]["seats"]), "plays": plays}


def election_view(state: State) -> dict[str, Any] | None:
    e = state["election"]
    if e is None:
        return None
    campaigns = [{"cards": [group_view(state, gid) for gid in c["cards"]], "money": c["money"]} for c in e["campaigns"]]
    return {**{key: e[key] for key in ("votes", "table_votes", "winner", "tied", "second")}, "campaigns": campaigns}


def own_view(state: State, seat: int | None) -> dict[str, Any]:
    if seat is None:
        return {"hand": [], "leader_offer": [], "leader_choice": None, "campaign": None, "pays": None}
    p = player(state, seat)
    extra: dict[str, Any] = {}
    if table.advanced(state):
        answers = state["reaction"]["answers"] if state["reaction"] is not None else {}
        extra = {
            "precampaign": [{"card": group_view(state, e["card"]), "picks": e["picks"]} for e in p["precampaign"]],
            "reaction_answered": answers.get(str(seat)) is not None,
            "opted_out": p["opt_out"] == state["round"],
        }
    offer = [leader_view(state, lid) for lid in p["offer"]] if state["stage"] == "leaders" else []
    campaign = (
        None
        if p["campaign"] is None
        else {"cards": [group_view(state, gid) for gid in p["campaign"]["cards"]], "money": p["campaign"]["money"]}
    )
    return {
        "hand": [group_view(state, gid, seat, from_hand=True) for gid in p["hand"]],
        "leader_offer": offer,
        "leader_choice": p["choice"],
        "campaign": campaign,
        "pays": {
            "income": table.payable(state, table.metric(state, seat, "income")),
            "draw": table.payable(state, table.DRAW_MONEY),
        },
        **extra,
    }


def views(state: State, seats: Iterable[int | None], awaiting: set[int]) -> dict[int | None, dict[str, Any]]:
    """Each seat's view: the public table, built once and shared, and the seat's own cards."""
    public = public_view(state, awaiting)
    listed = set(public["awaiting"])
    return {
        seat: {**public, "awaiting": sorted(seen_by(listed, awaiting, seat)), "you": seat, **own_view(state, seat)}
        for seat in seats
    }


def public_view(state: State, awaiting: set[int]) -> dict[str, Any]:
    """Everything every seat sees alike (the seed only once the game is over)."""
    stage = state["stage"]
    prompt = state["prompts"][0] if state["prompts"] else None
    over = stage == "over"
    shown: dict[str, Any] = {
        "phase": PHASES.get(stage, "turn"),
        "step": prompt["kind"] if prompt else stage,
        "round": state["round"],
        "first": state["first"],
        "current": None if stage in ("leaders", "campaign") else state["current"],
        "campaign_order": table.campaign_order(state) if stage == "campaign" else None,
        # a reaction window shows every seat it asks until it closes, never who has answered (but
        # a seat's own view tells it whether it is awaited: ``views``)
        "awaiting": sorted(awaiting if state["reaction"] is None else state["reaction"]["seats"]),
        "prompt": None if prompt is None else dict(prompt),
        "organization_moves": state["moves"],
        "players": [player_view(state, s) for s in range(len(state["players"]))],
        "treasury": state["treasury"],
        "titles": list(state["titles"]),
        "events_left": len(state["events"]),
        "last_event": event_view(state, state["events_revealed"][-1]) if state["events_revealed"] else None,
        "event": None if state["event"] is None else event_view(state, state["event"]),
        "group_pile": len(state["draw_pile"]),
        "discards": [group_view(state, gid) for gid in state["discards"]],
        "government": state["government"],
        "attack": attack_view(state),
        "election": election_view(state),
        "end_reason": state["end_reason"],
        "result": score.result(state) if over else None,
        "advanced": table.advanced(state),
        "reaction": reaction_view(state),
        "vote_control": [
            {"group": group_view(state, c["group"]), "candidate": c["candidate"]} for c in state["vote_control"]
        ],
    }
    if over:
        shown["seed"] = state["seed"]
    return shown


# --- re-dealing hidden information ------------------------------------------------------------


def randomize_hidden(state: State, seat: int | None, r: random.Random) -> State:
    """A copy with everything ``seat`` cannot see re-dealt at random, consistently with its view
    (unchanged once the game is over); pools are sorted before shuffling, so the sample depends
    only on ``r`` and on what ``seat`` knows, and log lines ``seat`` cannot read are dropped."""
    s = moving_copy(state, FIXED_KEYS)
    if s["stage"] == "over":
        return s
    s["seed"] = f"resampled-{r.getrandbits(64):016x}"
    s["log"] = [e for e in s["log"] if e["to"] is None or seat in e["to"]]
    others = [o for o in range(len(s["players"])) if o != seat]
    redeal_groups(s, others, r)
    forget_reactions(s, others)
    redeal_leaders(s, seat, others, r)
    redeal_events(s, r)
    return s


def redeal_groups(s: State, others: list[int], r: random.Random) -> None:
    """Other hands, face-down campaign cards (their numbers are public), face-down Pre-Campaign
    cards (the choices their Hand Action takes are public) and the Group pile, dealt from one
    pool of every hidden card: a sample depends on none of them (the face-down cards were kept
    out of the shuffle, and a sample, and so a hint, depended on which they were)."""
    players = [player(s, o) for o in others]
    hands = [p["hand"] for p in players] + [p["campaign"]["cards"] for p in players if p["campaign"] is not None]
    face_down = [entry for p in players for entry in p["precampaign"]]
    pool = sorted([gid for hand in hands for gid in hand] + s["draw_pile"] + [entry["card"] for entry in face_down])
    r.shuffle(pool)  # every hidden card, sorted first: the same pool wherever each one lies
    for entry in face_down:  # a face-down card has an Elections Hand Action taking the same (public) choices
        entry["card"] = next(gid for gid in pool if same_choices(s, gid, entry["card"]))
        pool.remove(entry["card"])
    for hand in hands:
        size = len(hand)
        hand[:], pool = pool[:size], pool[size:]
    s["draw_pile"] = pool


def same_choices(s: State, gid: int, other: int) -> bool:
    mine, theirs = group(s, gid).get("hand_action"), group(s, other)["hand_action"]
    return (
        mine is not None
        and mine["when"] == "elections"
        and card_actions.needs(mine["effects"], False) == card_actions.needs(theirs["effects"], False)
    )


def forget_reactions(s: State, others: list[int]) -> None:
    """Other seats' unrevealed answers in a reaction window and their opting out are unknown."""
    for o in others:
        player(s, o)["opt_out"] = None
        if s["reaction"] is not None and str(o) in s["reaction"]["answers"]:
            s["reaction"]["answers"][str(o)] = None


def redeal_leaders(s: State, seat: int | None, others: list[int], r: random.Random) -> None:
    revealed = s["stage"] != "leaders"
    known = set(player(s, seat)["offer"]) if seat is not None else set()
    if revealed:
        known |= {player(s, o)["leader"] for o in others}
    pool = [lid for lid in range(len(s["deck"]["leaders"])) if lid not in known]
    r.shuffle(pool)
    for o in others:
        p = player(s, o)
        if revealed:
            p["offer"] = [p["leader"], pool.pop()]
        else:
            p["offer"] = [pool.pop(), pool.pop()]
            if p["choice"] is not None:
                p["choice"] = r.choice(p["offer"])
    s["leaders_out"] = pool


def redeal_events(s: State, r: random.Random) -> None:
    """Shuffle the face-down Events; Elections keep their places and the Troika stays in the bottom four."""
    events = s["deck"]["events"]
    pile = s["events"]
    free = [i for i, eid in enumerate(pile) if events[eid]["role"] != "elections"]
    normal = sorted(eid for eid in pile + s["events_out"] if events[eid]["role"] == "normal")
    r.shuffle(normal)
    troika = [eid for eid in pile if events[eid]["role"] == "troika"]
    if troika:
        spot = r.choice([i for i in free if i >= len(pile) - 4])
        pile[spot] = troika[0]
        free.remove(spot)
    for i in free:
        pile[i] = normal.pop()
    s["events_out"] = normal
