"""Exact Vem aí a Troika states for the scenario tests of the engine and of the table.

The scenarios were written (from the rulebook's worked examples) for particular Leader figures.
They run on the default deck with those figures pinned (``SCENARIO_LEADERS``), so that
balancing the default deck's Leaders (docs/bots.md) never rewrites a rule test.
"""

from __future__ import annotations

from app.games.vem_ai_troika import GAME
from app.games.vem_ai_troika.deck import default_deck

SCENARIO_LEADERS = {  # name: (Power, Votes, Income)
    "O Pivô da Televisão": (1, 3, 1),
    "A Sindicalista": (3, 2, 0),
    "O Autarca Eterno": (2, 2, 1),
    "A Baronesa do Partido": (3, 1, 1),
    "O Comentador de Domingo": (1, 2, 2),
    "O Emigrante de Sucesso": (2, 1, 2),
}


def scenario_deck() -> dict:
    deck = default_deck()
    for leader in deck["leaders"]:
        if leader["name"] in SCENARIO_LEADERS:
            leader["power"], leader["votes"], leader["income"] = SCENARIO_LEADERS[leader["name"]]
    return deck


DECK = scenario_deck()
G = {card["name"]: i for i, card in enumerate(DECK["groups"])}
L = {card["name"]: i for i, card in enumerate(DECK["leaders"])}
E = {card["name"]: i for i, card in enumerate(DECK["events"])}
ELECTIONS = [i for i, card in enumerate(DECK["events"]) if card["role"] == "elections"]
LEADERS = ["O Autarca Eterno", "O Tecnocrata", "O Comentador de Domingo", "A Baronesa do Partido"]
PASS = {"type": "pass"}


def arrange(
    n=2,
    *,
    hands=None,
    tables=None,
    leaders=None,
    money=None,
    treasury=10,
    pile=None,
    stage="action",
    current=0,
    first=0,
    government=None,
    events=None,
    titles=None,
    advanced=False,
    deck=None,
):
    """A state after the Leader choice with exactly the given cards; unlisted Groups form the
    pile (``pile`` names its top cards) and the log is empty (``advanced``: the advanced game;
    ``deck``: another deck with the scenario deck's cards in the same places)."""
    state = GAME.setup(n, {"deck": DECK if deck is None else deck, "advanced": advanced}, "scenario")
    hands, tables, money = hands or {}, tables or {}, money or {}
    used = []
    for seat, p in enumerate(state["players"]):
        p["hand"] = [G[name] for name in hands.get(seat, [])]
        p["table"] = [G[name] for name in tables.get(seat, [])]
        p["money"] = money.get(seat, 0)
        p["leader"] = p["choice"] = L[(leaders or LEADERS)[seat]]
        used += p["hand"] + p["table"]
    top = [G[name] for name in pile or []]
    state["draw_pile"] = top + [g for g in range(len(DECK["groups"])) if g not in used + top]
    state.update(
        stage=stage, current=current, first=first, government=government, treasury=treasury, discards=[], log=[]
    )
    if events is not None:
        state["events"] = list(events)
    if titles is not None:
        state["titles"] = list(titles)
    return state


def adv(n=2, **kwargs):
    """:func:`arrange` for the advanced game."""
    return arrange(n, advanced=True, **kwargs)


def act(state, seat, action):
    return GAME.apply(state, seat, action)


def listed(state, seat, **fields):
    """The legal actions of ``seat`` having all of ``fields``."""
    return [a for a in GAME.legal_actions(state, seat) if all(a.get(k) == v for k, v in fields.items())]


def end_round(state):
    """The last player of the round passes, which reveals and resolves the top Event."""
    last = (state["first"] - 1) % len(state["players"])
    state["current"] = last
    return GAME.apply(state, last, PASS)
