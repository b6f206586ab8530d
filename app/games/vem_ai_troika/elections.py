"""Elections in Vem aí a Troika (ruling V5): a campaign committed in round order, then the count.

The seats commit one after another (``table.campaign_order``: from the Government, if there is
one, else from the round's first player), each ``{"type": "campaign", "cards": [ids], "money":
m}`` (any Group cards from hand, possibly none, and any Mega-Euro). The committed cards leave
the hand for ``player["campaign"]`` face down: how many Group cards and how many Mega-Euro
(money in hand is public on this server) is public at once, which Group cards only at the
reveal, when the last seat has committed and everything is counted together.
"""

from __future__ import annotations

from typing import Any

from app.games import base
from app.games.base import Action, State, require
from app.games.vem_ai_troika import effects, table
from app.games.vem_ai_troika.attack import CARD_IDS, subsets
from app.games.vem_ai_troika.table import log, name, player
from app.games.vem_ai_troika.types import Campaign

# a campaign is chosen by ticking cards, not from the list: the schema its fields must pass,
# read from its one declaration (``types.Campaign``)
FIELDS = base.schema_of(Campaign, CARD_IDS)


def commit_actions(state: State, seat: int) -> list[Action]:
    p = player(state, seat)
    card_sets = [[], *subsets(p["hand"])]
    return [
        {"type": "campaign", "cards": cards, "money": money} for cards in card_sets for money in range(p["money"] + 1)
    ]


def check_commit(state: State, seat: int, action: Action) -> None:
    p = player(state, seat)
    require(
        state["stage"] == "campaign" and not state["prompts"] and p["campaign"] is None,
        "there is no campaign waiting for you",
    )
    require(set(action["cards"]) <= set(p["hand"]), "campaign cards must be Group cards from your hand")
    require(action["money"] <= p["money"], "you can invest at most the Mega-Euro in your hand")


def next_to_commit(state: State) -> int | None:
    """The seat whose campaign is awaited: the first in campaign order that has not committed."""
    return next((seat for seat in table.campaign_order(state) if player(state, seat)["campaign"] is None), None)


def commit(state: State, seat: int, action: Action) -> None:
    check_commit(state, seat, action)
    p = player(state, seat)
    cards, money = sorted(action["cards"]), action["money"]
    for gid in cards:
        p["hand"].remove(gid)
    p["money"] -= money
    p["campaign"] = {"cards": cards, "money": money}
    if len(cards) == 1:
        said = base.say(
            "{player} commits 1 Group card face down and {money} Mega-Euro to the campaign.",
            player=name(seat),
            money=money,
        )
    else:
        said = base.say(
            "{player} commits {count} Group cards face down and {money} Mega-Euro to the campaign.",
            player=name(seat),
            count=len(cards),
            money=money,
        )
    log(state, said)
    if next_to_commit(state) is None:
        reveal(state)


def campaign_votes(state: State, seat: int, campaign: dict[str, Any]) -> int:
    return (
        sum(table.group_value(state, seat, gid, "votes", from_hand=True) for gid in campaign["cards"])
        + campaign["money"]
    )


def spend_campaign(state: State, seat: int) -> dict[str, Any]:
    """Discard the revealed campaign cards and return its Mega-Euro to the Treasury."""
    p = player(state, seat)
    campaign, p["campaign"] = p["campaign"], None
    state["discards"] += campaign["cards"]
    state["treasury"] += campaign["money"]
    return campaign


def counted_table_votes(state: State) -> list[int]:
    """The Votes each seat counts on the table in this Election, as things stand: after the
    advanced game's Pre-Campaign, Votes moved by control_votes (Consensuses unchanged) and the
    Votes gained by Hand and Table Actions. All of it is public."""
    votes = [table.metric(state, seat, "votes") + p["bonus_votes"] for seat, p in enumerate(state["players"])]
    for control in state["vote_control"]:
        holder = table.owner(state, control["group"])
        if holder is not None:
            moved = table.group_value(state, holder, control["group"], "votes")
            votes[holder] -= moved
            votes[control["candidate"]] += moved
    return votes


def table_votes(state: State, order: list[int]) -> dict[int, int]:
    """The Votes on the table per seat (:func:`counted_table_votes`); the Pre-Campaign's effects
    are then spent."""
    counted = counted_table_votes(state)
    votes = {seat: counted[seat] for seat in order}
    state["vote_control"] = []
    for seat in order:
        player(state, seat)["bonus_votes"] = 0
    return votes


def reveal(state: State) -> None:
    """Count the Votes, install the Government, queue the draws, and go back to the Event."""
    order = table.campaign_order(state)
    on_table = table_votes(state, order)
    campaigns = {seat: player(state, seat)["campaign"] for seat in order}
    votes = {seat: on_table[seat] + campaign_votes(state, seat, campaigns[seat]) for seat in order}
    for seat in order:
        spent = spend_campaign(state, seat)
        cards = [table.group_label(state, gid) for gid in spent["cards"]]
        figures = {"player": name(seat), "money": spent["money"], "votes": votes[seat], "table": on_table[seat]}
        log(
            state,
            base.say(
                "{player} campaigns with {cards} and {money} Mega-Euro: {votes} Votes in all ({table} on the table).",
                cards=cards,
                **figures,
            )
            if cards
            else base.say(
                "{player} campaigns with no cards and {money} Mega-Euro: {votes} Votes in all ({table} on the table).",
                **figures,
            ),
        )
    best = max(votes.values())
    leaders = [seat for seat in order if votes[seat] == best]
    second = None
    if len(leaders) == 1:
        effects.install_government(state, leaders[0], state["event"])
        log(state, base.say("{player} wins the Elections and forms the Government.", player=name(leaders[0])))
        second = runner_up(votes, order, leaders[0])
        if second is not None:
            state["prompts"].append({"kind": "draw", "seat": second, "reason": "second in the Elections"})
    else:
        state["government"] = None
        state["government_card"] = None
        log(state, base.say("A tie for first place: there is no Government and the Elections card leaves the game."))
        state["prompts"] += [
            {"kind": "draw", "seat": seat, "reason": "tied first in the Elections"} for seat in leaders
        ]
    state["election"] = {
        "votes": [votes[s] for s in range(len(order))],
        "table_votes": [on_table[s] for s in range(len(order))],
        "campaigns": [campaigns[s] for s in range(len(order))],
        "winner": leaders[0] if len(leaders) == 1 else None,
        "tied": leaders if len(leaders) > 1 else [],
        "second": second,
    }
    state["stage"] = "effects"


def runner_up(votes: dict[int, int], order: list[int], winner: int) -> int | None:
    """The single player in second place, or None when second place is tied."""
    rest = [seat for seat in order if seat != winner]
    best = max(votes[seat] for seat in rest)
    second = [seat for seat in rest if votes[seat] == best]
    return second[0] if len(second) == 1 else None
