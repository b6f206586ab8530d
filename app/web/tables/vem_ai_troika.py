"""The Vem aí a Troika table's sections: the status and the seat's moves that are not a click on
a card (draw, Income, the attack, answer and campaign forms, the advanced game's choices), the
piles, what is being decided (the Leaders offered, an attack, the campaigns, the last
Elections), each player's board, the seat's hand and the final scoring.

The seat's legal actions are sorted here into what each section offers: a card's own moves
(discard, take back, place, redraw, choose a Leader), the targets of an attack, the cards that
may be played for their Hand Action, and the forms' choices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.web.render import action_key
from app.web.sections import BOARD, FELT, HAND, LEAD, Part
from app.web.tables.standing import standing

if TYPE_CHECKING:
    from app.web.tables import Seen

TEMPLATE = "games/vem-ai-a-troika/sections.html"
CLASSES = ("vem", "vem-players")
COLOURS = ("gold", "blue", "red", "grey")
ADVANCED_KINDS = (
    "react",
    "no_reaction",
    "support",
    "no_support",
    "choose",
    "hand_action",
    "table_action",
    "precampaign",
    "precampaign_done",
    "place",
    "take_back",
)


def unique(values: list[Any]) -> list[Any]:
    return list(dict.fromkeys(values))


class Moves:
    """The seat's legal actions, sorted into what the table offers."""

    def __init__(self, t: Seen):
        self.legal = legal = [item["action"] for item in t.p["legal_actions"]]
        self.kinds = unique([a["type"] for a in legal])
        self.targets = unique([a["target"] for a in legal if a["type"] == "attack"])
        self.incomes = [a for a in legal if a["type"] == "income"]
        self.swaps = [a for a in legal if a["type"] == "place" and "take" in a and "column" not in a]
        self.board = [a for a in legal if a["type"] in ("discard", "take")]
        with_actions = [a for a in legal if "actions" in a]
        self.hand_uses = unique([c for a in with_actions for c in a["actions"]])
        not_only = {c for a in with_actions if a.get("mode") != "discard" for c in a["actions"]}
        self.discard_only = [c for c in self.hand_uses if c not in not_only]
        self.combo = (
            "attack"
            if self.targets
            else ("add" if "add" in self.kinds else ("campaign" if "campaign" in self.kinds else None))
        )


def parts(t: Seen) -> list[Part]:
    v, seat, names = t.view, t.seat, t.names
    over = v["phase"] == "over"
    n = len(v["players"])
    me = v["players"][seat] if seat is not None else None
    a = v["attack"]
    mine = t.acting is not None and t.acting in v["awaiting"]
    mv = Moves(t)
    at = t.at if t.legal else None
    first_defence = bool(a) and not a["answered"] and seat == a["defender"]
    single_add = mv.combo == "add" and not first_defence
    status = {
        "phase": v["phase"],
        "step": v["step"],
        "names": names,
        "st": status_line(v, t.acting, me, mine, mv.kinds),
        "moves": actions(t, v, me, mv, single_add, first_defence) if me and mine else None,
        "at": at if mine else None,
        "uploaded_deck": t.p["room"]["options"].get("deck") is not None,
    }
    listed = [
        Part("table-status", FELT, TEMPLATE, "status_section", status),
        piles(v),
        Part("arena", FELT, TEMPLATE, "arena_section", arena(t, v, n)),
    ]
    winners = v["result"]["winners"] if v["result"] else []
    for k in range(n):
        s = (seat + 1 + k) % n if seat is not None else k
        listed.append(board(t, v, s, mv, at, winners))
    if seat is not None and not over:
        assert me is not None
        hand = [
            {
                "card": c,
                "discard": t.move({"type": "discard", "card": c["id"]}),
                "place": t.move({"type": "place", "card": c["id"]}),
                "redraw": t.move({"type": "replace", "card": c["id"]}),
                "use": c["id"] in mv.hand_uses,
                "discard_only": c["id"] in mv.discard_only,
            }
            for c in v["hand"]
        ]
        hand_inputs = {
            "hand": hand,
            "money": me["money"],
            "combo": mv.combo,
            "single_add": single_add,
            "defending": bool(a) and seat == a["defender"],
            "at": at,
        }
        listed.append(Part("your-hand", HAND, TEMPLATE, "hand_section", hand_inputs))
    if (
        v["round"] > 1
        and v["step"] == "draw"
        and v["current"] == v["first"]
        and not v["organization_moves"]
        and not v["prompt"]
    ):
        summary = standing(v["round"] - 1, v["players"], names)
        listed.append(Part("round-summary", LEAD, TEMPLATE, "standing_section", summary))
    if v["result"]:
        res = v["result"]
        rows = [{**res["players"][s], "seat": s, "place": res["places"][s], "name": names[s]} for s in res["ranking"]]
        final = {"winners": [names[w] for w in res["winners"]], "rows": rows}
        listed.append(Part("final-result", LEAD, TEMPLATE, "final_section", final))
    return listed


def doing(v: dict[str, Any]) -> str:
    """What an awaited player is doing, as its board's turn badge says it."""
    pr = v["prompt"]
    if pr:
        return {"draw": "draw", "overflow": "take_back"}.get(pr["kind"], "discard")
    if v["phase"] == "leaders":
        return "choose"
    return {"campaign": "campaign", "attack": "answer"}.get(v["step"], "play")


# the actions a turn's instruction may name, each with the moves that offer it
ACTIONS = {"place": ("place", "replace"), "income": ("income",), "attack": ("attack",)}


def status_line(
    v: dict[str, Any], acting: int | None, me: dict[str, Any] | None, mine: bool, kinds: list[str]
) -> dict[str, Any]:
    """What the status line depends on, as the reader sees it (``acting``: the reader's seat if
    it has a move now, ``Seen.acting``; ``kinds``: the kinds of its moves). Its turn's
    instruction names only the actions it has: Organization needs a card to place or redraw,
    Attack a target; it may pass unless a Hand Action played this turn rules it out."""
    pr, reaction = v["prompt"], v["reaction"]
    return {
        "over": v["phase"] == "over",
        "round": v["round"],
        "end_reason": v["end_reason"],
        "reaction": reaction,
        "reacting": bool(reaction and acting in reaction["seats"] and not v["reaction_answered"]),
        "pr": pr,
        "mine": mine,
        "a": v["attack"],
        "step": v["step"],
        "phase": v["phase"],
        "choosing": acting is not None and v["leader_choice"] is None,
        "awaiting": v["awaiting"],
        "order": v["campaign_order"],
        "current": v["current"],
        "my_turn": acting is not None and v["current"] == acting,
        "me": acting,
        "may_pass": "pass" in kinds,
        "actions": " ".join(name for name, moves in ACTIONS.items() if any(m in kinds for m in moves)),
        "hand_count": me["hand_count"] if me and mine and pr and pr["kind"] == "hand_limit" else None,
    }


def counted_votes(player: dict[str, Any]) -> int:
    """A player's Votes on the table as this Election counts them, with what the advanced game's
    Pre-Campaign gained or moved (the view says so while campaigns are committed)."""
    return player.get("election_votes", player["votes"])


def actions(
    t: Seen, v: dict[str, Any], me: dict[str, Any], mv: Moves, single_add: bool, first_defence: bool
) -> dict[str, Any]:
    """The moves of the status bar: buttons, and the forms that vem.js fills from ticked cards."""
    a, pr = v["attack"], v["prompt"]
    offered: dict[str, Any] = {}
    if "draw" in mv.kinds:
        offered["draw"] = {
            "group": t.move({"type": "draw", "what": "group"}),
            "money": t.move({"type": "draw", "what": "money"}),
            "decline": t.move({"type": "decline"}),
            "pays": v["pays"]["draw"],
        }
    if mv.swaps:
        placed = {sw["card"] for sw in mv.swaps}
        taken = {sw["take"] for sw in mv.swaps}
        offered["swap"] = {
            "base": action_key({"type": "place"}),
            "cards": [{"id": c["id"], "name": c["name"]} for c in v["hand"] if c["id"] in placed],
            "takes": [
                {"id": c["id"], "name": c["name"]}
                for colour in COLOURS
                for c in me["families"][colour]
                if c["id"] in taken
            ],
        }
    if mv.incomes:
        offered["income"] = {
            "base": action_key({"type": "income"}),
            "paid": v["pays"]["income"],
            "income": me["income"],
            "treasury": v["treasury"],
            "titles": unique([i["titles"] for i in mv.incomes]),
            "offshore_max": max(i["offshore"] for i in mv.incomes),
        }
    uses: dict[str, list[int]] = {"actions": []} if mv.hand_uses else {}
    if mv.combo == "attack":
        lead = me["leader_value"]["power"] if "leader_value" in me else me["leader"]["power"]
        base = action_key({"type": "attack", "cards": [], **uses})
        offered["attack"] = {"base": base, "lead_power": lead, "hand_uses": bool(mv.hand_uses)}
    if mv.combo == "add":
        attacking = t.seat == a["attacker"]
        offered["add"] = {
            "base": action_key({"type": "add", "cards": [], **uses}),
            "single": single_add,
            "first_defence": first_defence,
            "mine": a["attack_total"] if attacking else a["defence_total"],
            "theirs": a["defence_total"] if attacking else a["attack_total"],
            "hand_uses": bool(mv.hand_uses),
            "stop": t.move({"type": "stop"}),
        }
    if mv.combo == "campaign":
        base = action_key({"type": "campaign", "cards": []})
        offered["campaign"] = {
            "base": base,
            "round": v["round"],
            "money": me["money"],
            "votes": counted_votes(me),
            "cards": bool(v["hand"]),  # (none: the campaign is Mega-Euro alone, nothing to tick)
            "precampaign": v["advanced"],  # (the table's Votes then count the Pre-Campaign's)
        }
    # A card of the reader's own table to discard or take back is a button on its board, which
    # follows the others' boards, out of view: the bar offers the same moves (issue 25 point 4).
    on_table = {c["id"] for colour in COLOURS for c in me["families"][colour]}
    chosen = []
    for kind in ("discard", "take"):
        options = [o for o in mv.board if o["type"] == kind and o["card"] in on_table]
        if options:
            pointed = [{**m, "points": ""} for m in t.moves(options)]
            chosen.append({"kind": f"{kind}-table", "options": pointed, "pointing": False})
    offered["boxes"] = chosen
    if v["advanced"]:
        colours = {c["id"]: c["colour"] for c in v["hand"]}
        for kind in ADVANCED_KINDS:
            options = [o for o in mv.legal if o["type"] == kind and (kind != "place" or "column" in o)]
            if options:
                pointed = [
                    {**m, "points": points(o, t.seat, colours)} for m, o in zip(t.moves(options), options, strict=True)
                ]
                chosen.append({"kind": kind, "options": pointed, "pointing": any(o["points"] for o in pointed)})
    if pr and pr["kind"] == "hand_limit":
        offered["discard_money"] = t.move({"type": "discard_money"})
    if v["step"] in ("action", "organize") and not pr:
        offered["stop"], offered["pass"] = t.move({"type": "stop"}), t.move({"type": "pass"})
    return offered


def points(action: dict[str, Any], seat: int | None, colours: dict[int, str]) -> str:
    """The things on the table an advanced move names, as static/js/pointing.js finds them
    (``g:<id>``: a Group card wherever it lies; ``#<id>``: the element with that id: a player's
    name, a side of the attack, a column of the reader's own), so that a player picks the move
    by clicking or tapping them; a move that names none is chosen from its list alone."""
    found = [f"g:{action[key]}" for key in ("card", "cancel", "mine", "theirs", "group") if key in action]
    found += [f"#player-{action[key]}-head" for key in ("opponent", "candidate") if key in action]
    if "side" in action:
        found.append(f"#{action['side']}-side")
    if "column" in action and action.get("card") in colours:
        number = action["column"] + 1
        found.append(f"#player-{seat}-{colours[action['card']]}" + (f"-{number}" if number > 1 else ""))
    return " ".join(found)


def new_columns(v: dict[str, Any], mv: Moves) -> dict[str, list[int]]:
    """For each colour, the columns (counted from 0) the reader's placements may put a card in."""
    colours = {c["id"]: c["colour"] for c in v["hand"]}
    opened: dict[str, list[int]] = {}
    for a in mv.legal:
        if a["type"] == "place" and "column" in a and a["card"] in colours:
            opened.setdefault(colours[a["card"]], []).append(a["column"])
    return opened


def board(t: Seen, v: dict[str, Any], s: int, mv: Moves, at: dict[str, Any] | None, winners: list[int]) -> Part:
    """Player ``s``'s board: its head and figures, its Leader and its columns of Groups (the
    reader's own moves on its own cards, its targets on another's), each column a section."""
    pl, a, own = v["players"][s], v["attack"], s == t.seat
    moves = {str(m["card"]): {"kind": m["type"], "m": t.move(m)} for m in mv.board} if own else {}
    opened = new_columns(v, mv) if own else {}
    under_attack = a["target"]["id"] if a and a["defender"] == s else None
    columns = []
    for colour in COLOURS:
        stacks = pl["columns"][colour] if v["advanced"] and pl["columns"][colour] else [pl["families"][colour]]
        if own and v["advanced"]:  # an empty column where a card may start a new one: a thing to point at
            stacks = stacks + [[] for _ in range(len(stacks), 1 + max(opened.get(colour, [-1])))]
        for number, cards in enumerate(stacks, 1):
            ids = {str(c["id"]) for c in cards}
            shown = {k: m for k, m in moves.items() if k in ids}
            column = {
                "id": f"player-{s}-{colour}" + (f"-{number}" if number > 1 else ""),
                "colour": colour,
                "number": number if len(stacks) > 1 else None,
                "cards": cards,
                "moves": shown,
                "targets": [] if own else [c["id"] for c in cards if c["id"] in mv.targets],
                "under_attack": under_attack,
                "at": at if shown else None,
            }
            columns.append(Part(column["id"], BOARD, TEMPLATE, "family", column))
    leader = Part(
        f"player-{s}-leader",
        BOARD,
        TEMPLATE,
        "leader_slot",
        {"id": f"player-{s}-leader", "leader": pl["leader"], "chosen": pl["leader_chosen"]},
    )
    over = v["phase"] == "over"
    badges = ("seat", "government", "leader", "sideways", "neutral", "score_now")
    head = {
        "pl": {k: pl.get(k) for k in badges},
        "name": t.names[s],
        "doing": doing(v) if s in v["awaiting"] else "",
        "first": s == v["first"] and not over,
        "winner": s in winners,
        "own": own,
        "advanced": v["advanced"],
    }
    figured = ("seat", "power", "votes", "income", "consensus", "hand_count", "money", "titles", "offshore_money")
    figures = {"pl": {k: pl.get(k) for k in (*figured, "government_cards")}}
    children = (
        Part(f"player-{s}-head", BOARD, TEMPLATE, "board_head", head),
        leader,
        Part(f"player-{s}-figures", BOARD, TEMPLATE, "figures", figures),
        *columns,
    )
    wrapper = {"seat": s, "own": own, "slots": [child.id for child in children]}
    return Part(f"player-{s}", BOARD, TEMPLATE, "board", wrapper, children)


PILES = ("treasury", "titles", "group-pile", "discards", "event-pile", "event")


def piles(v: dict[str, Any]) -> Part:
    shown = {
        "treasury": {"treasury": v["treasury"]},
        "titles": {"titles": v["titles"]},
        "group-pile": {"group_pile": v["group_pile"]},
        "discards": {"top": v["discards"][-1] if v["discards"] else None, "count": len(v["discards"])},
        "event-pile": {"events_left": v["events_left"]},
        "event": {"event": v["event"], "last_event": v["last_event"]},
    }
    children = tuple(Part(id, FELT, TEMPLATE, "pile", {"id": id, **shown[id]}) for id in PILES)
    return Part("piles", FELT, TEMPLATE, "piles_section", {"piles": PILES}, children)


def arena(t: Seen, v: dict[str, Any], n: int) -> dict[str, Any]:
    seat, names, step = t.seat, t.names, v["step"]
    shown: dict[str, Any] = {"names": names, "advanced": v["advanced"], "attack": v["attack"], "at": None}
    if v["phase"] == "leaders" and seat is not None:
        offer = [{"leader": ld, "m": t.move({"type": "choose_leader", "leader": ld["id"]})} for ld in v["leader_offer"]]
        shown["leaders"] = {"chosen": v["leader_choice"], "offer": offer}
        shown["at"] = t.at if any(o["m"] for o in offer) else None
    if step == "precampaign":
        shown["precampaign"] = [
            {
                "seat": s,
                "name": names[s],
                "done": v["players"][s]["precampaign_done"],
                "count": v["players"][s]["precampaign_count"],
                "votes": counted_votes(v["players"][s]),
                "own": v["precampaign"] if s == seat else None,
                "yours": s == seat,
            }
            for s in range(n)
        ]
    if step == "campaign":
        shown["campaign"] = [
            {
                "seat": s,
                "name": names[s],
                "committed": v["players"][s]["committed"],
                "size": v["players"][s]["campaign_size"],
                "votes": counted_votes(v["players"][s]),
                "own": v["campaign"] if s == seat and v["campaign"] else None,
                "awaited": s in v["awaiting"],
            }
            for s in v["campaign_order"]
        ]
    if v["election"] and step != "campaign":
        shown["election"], shown["shown_event"] = v["election"], v["event"] or v["last_event"]
    return shown
