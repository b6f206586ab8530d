"""A real browser plays the advanced game of Vem aí a Troika: two players in two browser contexts
(a third seat plays through the API) use a Table Action, play a card for its Hand Action in an
attack, cancel a card with a reaction, support an attack and place a Pre-Campaign card face
down, all by clicking: the forms the table offers, or, where a move names things on the table
(the card to cancel, the side to support, the card to place), those things. After every move
each page shows exactly its own hand; screenshots of the key moments are taken at desktop and
phone sizes. In a room of
two, a page opens an attack with three cards ticked "for its Hand Action", a move the engine
takes but does not list.
Moves that name a column or a player are picked by clicking, tapping and keyboard (focus,
Enter or Space) on the table: a placement by the card in the hand and the column of the own
board it goes to, a Table Action by the opponent's name; the move played is the one named. A
pick waiting for another is forgotten when the table moves on.

The room loads a deck whose cards make those moves likely whatever the shuffle: every red card
cancels, every gold card adds Power in an attack, every blue card brings Votes in the
Pre-Campaign, every grey card brings money. The moves themselves are the engine's, not the deck's.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.games.vem_ai_troika.deck import DEFAULT_PATH
from tests.support.browser_games import FINITE_ANIMATIONS_ENDED, auth, started_room, wait_for_version
from tests.support.browser_vem import check_page, legal_of, pick_card

ACTIONS = {
    "red": {"when": "any", "effects": [{"do": "cancel"}]},
    "gold": {"when": "attack", "effects": [{"do": "attack_bonus", "amount": 4}]},
    "blue": {"when": "elections", "effects": [{"do": "votes", "amount": 2}]},
    "grey": {"when": "any", "effects": [{"do": "receive", "amount": 1}]},
}
# What passes the screen's right edge, outside the boxes that scroll sideways (a score table's,
# the docked hand's row of cards) and the folded room line (cut short with an ellipsis).
WIDER_THAN_SCREEN = """[...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                 && !e.closest('.table-scroll, .hand-row, .room-details > summary'))
    .slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id)"""
GOALS = ("table_action", "attack_action", "react", "support", "precampaign")


def deck_whose_leaders(name: str, effect: dict) -> dict:
    """The default deck with every Leader's Table Action ``name`` doing ``effect``, free, on the
    Leader's turn."""
    deck = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    for leader in deck["leaders"]:
        leader["table_action"] = {"name": name, "when": "turn", "cost": 0, "effects": [effect]}
    return deck


def goal_deck() -> dict:
    deck = deck_whose_leaders("Fundraiser", {"do": "receive", "amount": 1})
    for card in deck["groups"]:
        card["hand_action"] = ACTIONS[card["colour"]]
    return deck


def goal_of(action: dict) -> str | None:
    kind = action["type"]
    if kind == "attack" and action.get("actions"):
        return "attack_action"
    return kind if kind in ("table_action", "react", "support", "precampaign") else None


def keep_wanted(view: dict, items: list[dict]) -> list[dict]:
    """Discards and placings that spare blue and red cards (wanted for the Pre-Campaign and
    for reactions)."""
    colour = {c["id"]: c["colour"] for c in view["hand"]}
    spare = [i for i in items if colour.get(i["action"].get("card")) not in ("blue", "red")]
    return spare or items


def choose(view: dict, legal: list[dict], done: set[str], page_seat: bool, r: random.Random) -> dict:
    """Steer towards the goals not reached yet; otherwise the shortest way on."""
    by_type: dict[str, list[dict]] = {}
    for item in legal:
        by_type.setdefault(item["action"]["type"], []).append(item)
    if page_seat:
        for item in legal:
            goal = goal_of(item["action"])
            if goal and goal not in done:
                if goal == "attack_action":
                    attacks = [i for i in legal if goal_of(i["action"]) == goal and i["action"]["mode"] == "control"]
                    return min(attacks or [item], key=lambda i: len(i["action"]["cards"]))
                return item
    elif "hand_action" in by_type and "react" not in done:  # the API seat gives the pages a card to cancel
        return by_type["hand_action"][0]
    elif "attack" in by_type and "support" not in done and view["round"] >= 2:
        control = [i for i in by_type["attack"] if i["action"]["mode"] == "control" and not i["action"].get("actions")]
        if control:  # the API seat attacks so that a page seat may support
            return min(control, key=lambda i: len(i["action"]["cards"]))
    for kind in ("no_reaction", "no_support", "precampaign_done", "stop", "draw"):
        if kind in by_type:
            options = by_type[kind]
            return next((i for i in options if i["action"].get("what") == "group"), options[0])
    if "choose" in by_type:
        return by_type["choose"][-1]
    if "campaign" in by_type:
        return next(i for i in by_type["campaign"] if not i["action"]["cards"] and not i["action"]["money"])
    if "discard" in by_type:
        return keep_wanted(view, by_type["discard"])[0]
    places = [i for i in by_type.get("place", []) if "take" not in i["action"]]
    if places and view["round"] <= 2 and view["organization_moves"] == 0:
        return keep_wanted(view, places)[0]
    for kind in ("pass", "take", "discard_money"):
        if kind in by_type:
            return by_type[kind][0]
    return r.choice(legal)


def attack_by_ticking(page: Page, action: dict) -> None:
    """Fill the attack form as a player does: the target, the mode, each card played for its
    Power, and each card played for its Hand Action by its own box (which ticks the card too)."""
    page.locator(f'label.target:has(input[value="{action["target"]}"])').click()
    page.locator(f"#vem-attack input[name=mode][value={action['mode']}]").check()
    actions = action.get("actions", [])
    for gid in action["cards"]:
        if gid in actions:
            page.locator(f'#your-hand input[name=actions][value="{gid}"]').check()
            expect(page.locator(f'#your-hand input[name=cards][value="{gid}"]')).to_be_checked()
        else:
            pick_card(page, gid)


def points_of(page: Page, action: dict) -> list[str]:
    """The things on the table the box's option for ``action`` names (its data-points)."""
    options = page.locator(f"#adv-{action['type']} form [name=action]").evaluate_all(
        """els => els.flatMap(e => e.tagName === "SELECT" ? [...e.options] : [e])
                     .map(o => [o.value, o.dataset.points || ""])"""
    )
    return next(points.split() for value, points in options if json.loads(value) == action)


# The move was sent by pointing: its form says so, or the answer came already (the table moved
# on from ``version``: the form is gone, or made afresh); else a thing is picked and the move
# waits for more.
SENT = """([box, version]) => {
  const form = document.querySelector(box), state = document.getElementById("table-state");
  return !form || form.dataset.pointed === "1" || state.dataset.version !== version;
}"""
PICKED_OR_SENT = f"args => ({SENT})(args) || !!document.querySelector('#room-main .picked')"


def check_named_by_move(page: Page, thing, box: str) -> None:
    """A thing to point at is named by what picking it does, the ``box``'s button word (with
    another box's, if two name it), and its own short name: not by all the text of a card."""
    words, own = thing.evaluate("e => e.getAttribute('aria-label')").split(": ", 1)
    assert page.locator(f"{box} button[type=submit]").inner_text() in words.split(" / ")
    assert own == thing.get_attribute("data-point-name") and 0 < len(own) < 40


def point_at(page: Page, action: dict) -> bool:
    """Make ``action`` by pointing, as static/js/pointing.js offers it: click each thing it
    names (the last one by keyboard: focus and Enter) until the move is sent; when several
    moves name the same things, the box's list holds this one and its button sends it. False
    if the move names nothing on the table."""
    things = points_of(page, action)
    if not things:
        return False
    box = f"#adv-{action['type']} form"
    version = page.locator("#table-state").get_attribute("data-version")
    for n, token in enumerate(things):
        thing = page.locator(f'#room-main .pickable[data-picks~="{token}"]').locator("visible=true").first
        expect(thing).to_be_visible()
        if n == len(things) - 1:
            check_named_by_move(page, thing, box)
            thing.focus()
            thing.press("Enter")
        else:
            thing.click()
        page.wait_for_function(PICKED_OR_SENT, arg=[box, version])
        if page.evaluate(SENT, [box, version]):
            return True
    form = page.locator(box)
    select = form.locator("select[name=action]")
    assert json.loads(select.input_value()) == action, "the list holds the move the things name"
    form.locator("button[type=submit]").click()
    return True


def click_advanced(page: Page, action: dict) -> None:
    """Post ``action`` through the advanced forms: the attack form; by pointing at the things
    it names on the table; or its box's select, or its single button."""
    if action["type"] == "attack":
        attack_by_ticking(page, action)
        page.locator("#vem-attack button[type=submit]").click()
        return
    if point_at(page, action):
        return
    box = f"#adv-{action['type']}"
    value = json.dumps(action, separators=(",", ":"), sort_keys=True)
    form = page.locator(f"{box} form")
    select = form.locator("select[name=action]")
    if select.count():
        values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
        chosen = next(v for v in values if json.loads(v) == action)
        select.select_option(chosen)
    else:
        assert json.loads(form.locator("input[name=action]").get_attribute("value")) == action, value
    form.locator("button[type=submit]").click()


def test_advanced_moves_by_clicking_in_two_browser_contexts(browser, live, screenshots):
    """(A deal may end the game before every goal is reached: the goals left are sought in a
    new game, three at most.)"""
    api = httpx.Client(base_url=live)
    r = random.Random(5)
    done: set[str] = set()
    shots = []
    for _game in range(3):
        if done == set(GOALS):
            break
        play_for_goals(browser, live, api, r, done, shots, screenshots)
    assert done == set(GOALS), f"reached only {sorted(done)}"
    assert all(path.exists() for path in shots)


def play_for_goals(browser, live, api, r, done, shots, screenshots) -> None:
    """One game of the test above, by clicking, until the game ends or every goal is done."""
    room, tokens = started_room(api, "vem-ai-a-troika", 3, options={"advanced": True, "deck": goal_deck()})

    pages = []
    for token in tokens[:2]:
        page = browser.new_context(base_url=live, viewport={"width": 1280, "height": 800}).new_page()
        page.goto(f"/rooms/{room}/seat/{token}")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        pages.append(page)

    for _ in range(400):
        views = [api.get(f"/api/rooms/{room}/view", headers=auth(t)).json() for t in tokens]
        if not views[0]["to_act"] or done == set(GOALS):
            break
        seat = next(s for s in views[0]["to_act"] if views[s]["your_turn"])  # a window lists answered seats too
        view = views[seat]["view"]
        item = choose(view, legal_of(api, room, tokens[seat]), done, seat < 2, r)
        action, goal = item["action"], goal_of(item["action"])
        if seat == 2 or goal is None or goal in done:
            posted = api.post(
                f"/api/rooms/{room}/actions",
                headers=auth(tokens[seat]),
                json={"version": views[0]["version"], "action": action},
            )
            assert posted.status_code == 200, posted.text
            continue
        for s, page in enumerate(pages):
            wait_for_version(page, views[s]["version"])
            assert page.locator("#flash").inner_text() == ""
            others = [c for o in (0, 1, 2) if o != s for c in views[o]["view"]["hand"]]
            check_page(page, views[s]["view"], others)
        page = pages[seat]
        page.bring_to_front()
        if goal == "react":
            expect(page.locator("#prompt")).to_contain_text("React?")
            expect(pages[1 - seat].locator("#prompt")).to_contain_text("React")
            shots += screenshots(page, "vem-advanced-reaction")
        if goal == "support":
            expect(page.locator("#prompt")).to_contain_text("Support?")
            shots += screenshots(page, "vem-advanced-support")
            page.set_viewport_size({"width": 390, "height": 844})  # the forms fit a phone's width
            page.evaluate(FINITE_ANIMATIONS_ENDED)  # (a gliding card passes the edge for a moment)
            wide = page.evaluate(WIDER_THAN_SCREEN)
            assert not wide, wide
            page.set_viewport_size({"width": 1280, "height": 800})
        if goal in ("react", "support", "precampaign"):  # each names things on the table
            assert points_of(page, action), action
        click_advanced(page, action)
        for p in pages:
            wait_for_version(p, views[0]["version"] + 1)
        after = [api.get(f"/api/rooms/{room}/view", headers=auth(t)).json()["view"] for t in tokens]
        if goal == "table_action":
            for p in pages:
                expect(p.locator(f"#player-{seat} .table-action-state")).to_have_class("badge table-action-state used")
            shots += screenshots(pages[1 - seat], "vem-advanced-table-action")
        if goal == "attack_action":
            expect(page.locator("#attack")).to_be_visible()
        if goal == "react":
            state = after[seat]
            while state["reaction"] is not None:  # the other seats let it be, through the API
                now = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()
                other = next(s for s in now["to_act"] if s != seat and legal_of(api, room, tokens[s]))
                answer = {"type": "no_reaction", "round": False}
                api.post(
                    f"/api/rooms/{room}/actions",
                    headers=auth(tokens[other]),
                    json={"version": now["version"], "action": answer},
                )
                state = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[seat])).json()["view"]
            lines = [
                line["text"] for line in api.get(f"/api/rooms/{room}/view", headers=auth(tokens[seat])).json()["log"]
            ]
            assert any("is cancelled" in line for line in lines), lines
            for p in pages:  # every page's log says so
                expect(p.locator("#room-main, body").first).to_contain_text("is cancelled")
        if goal == "precampaign":
            other = pages[1 - seat]
            expect(other.locator(f"#precampaign-{seat} .vem-card.back")).to_have_count(1)
            expect(other.locator(f"#precampaign-{seat} .vem-card.group")).to_have_count(0)
            expect(page.locator(f"#precampaign-{seat} .vem-card.group")).to_have_count(1)
            shots += screenshots(other, "vem-advanced-precampaign")
        done.add(goal)


def bonus_deck() -> dict:
    """The default deck with every Group card's Hand Action adding 4 Power to an attack."""
    deck = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    for card in deck["groups"]:
        card["hand_action"] = {"when": "attack", "effects": [{"do": "attack_bonus", "amount": 4}]}
    return deck


PREFERRED = ("choose_leader", "no_reaction", "no_support", "stop")


def steer(seat: int, legal: list[dict]) -> dict:
    """A short way to an attack: seat 1 places a card to attack, seat 0 draws Group cards."""
    actions = [item["action"] for item in legal]
    for kind in PREFERRED:
        found = [a for a in actions if a["type"] == kind]
        if found:
            return found[0]
    draws = [a for a in actions if a["type"] == "draw"]
    if draws:
        return next(a for a in draws if a["what"] == "group")
    places = [a for a in actions if a["type"] == "place" and "take" not in a]
    if seat == 1 and places:
        return places[0]
    return next((a for a in actions if a["type"] == "pass"), actions[0])


def test_an_attack_plays_several_cards_for_their_hand_actions_from_the_page(browser, live, screenshots):
    """The engine lists openings with one card for its Hand Action and takes any set of them;
    the page's attack form makes one with every card in hand ticked for its Hand Action."""
    api = httpx.Client(base_url=live)
    body = {"game": "vem-ai-a-troika", "seats": 2, "name": "Ana", "options": {"advanced": True, "deck": bonus_deck()}}
    created = api.post("/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room, tokens = created.json()["room"]["id"], [created.json()["token"]]
    tokens.append(api.post(f"/api/rooms/{room}/seats", json={"name": "Bruno"}).json()["token"])
    api.post(f"/api/rooms/{room}/start", headers=auth(tokens[0]))
    page = browser.new_context(base_url=live, viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"/rooms/{room}/seat/{tokens[0]}")
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")

    for _ in range(100):
        now = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()
        attacks = [i["action"] for i in legal_of(api, room, tokens[0]) if i["action"]["type"] == "attack"]
        if 0 in now["to_act"] and any(a.get("actions") for a in attacks):
            break
        seat = min(now["to_act"])
        move = steer(seat, legal_of(api, room, tokens[seat]))
        posted = api.post(
            f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json={"version": now["version"], "action": move}
        )
        assert posted.status_code == 200, posted.text
    else:
        raise AssertionError("seat 0 never had an attack with a Hand Action")
    usable = sorted({gid for a in attacks for gid in a.get("actions", [])})[:3]
    assert len(usable) == 3, f"only {usable} usable: no choice of three"  # the old list stopped at 2 cards
    opening = next(a for a in attacks if a.get("actions"))
    action = {**opening, "cards": usable, "actions": usable}
    assert action not in attacks  # the engine lists one Hand Action at a time: this one only the form makes

    wait_for_version(page, now["version"])
    attack_by_ticking(page, action)
    summary = page.locator("#vem-attack .summary")
    expect(summary).to_contain_text("+ Hand Actions")
    expect(page.locator("#vem-attack button[type=submit]")).to_be_enabled()
    shots = screenshots(page, "vem-hand-action-attack")
    page.locator("#vem-attack button[type=submit]").click()
    wait_for_version(page, now["version"] + 1)
    assert page.locator("#flash").inner_text() == ""
    view = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()["view"]
    assert view["attack"] is not None and sorted(view["attack"]["actions"]) == usable
    expect(page.locator("#attack")).to_contain_text("Played for their Hand Action")
    shots += screenshots(page, "vem-hand-action-attack-made")
    assert all(path.exists() for path in shots)


def squeeze_deck() -> dict:
    """The default deck with every Leader's Table Action taking 1 Mega-Euro from an opponent
    (a move that names a player), free, on the Leader's turn."""
    return deck_whose_leaders("Squeeze", {"do": "take_money", "amount": 1})


def room_until(
    api: httpx.Client, options: dict, wanted, seed: int, games: int = 3
) -> tuple[str, list[str], list[dict]]:
    """A started room of three (Ana, Bruno, Carla) played with random moves through the API
    until Ana may make the moves ``wanted`` picks from her legal ones; the room, its tokens and
    those moves. The server deals each room from a seed of its own, so a game may end before Ana
    comes to such a move (seen once in ten runs of the browser tests): then another room is
    played, up to ``games``."""
    r = random.Random(seed)
    for _ in range(games):
        room, tokens = started_room(api, "vem-ai-a-troika", 3, options=options)
        for _ in range(600):
            view = api.get(f"/api/rooms/{room}/view").json()
            if view["status"] != "playing":
                break  # the game ended before Ana could make the move
            if 0 in view["to_act"]:
                found = wanted(api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json())
                if found:
                    return room, tokens, found
            seat = r.choice(view["to_act"])
            legal = legal_of(api, room, tokens[seat])
            if legal:
                body = {"version": view["version"], "action": r.choice(legal)["action"]}
                api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[seat]), json=body)
    raise AssertionError(f"in {games} games Ana never came to the move")


WAYS = ["click", "tap", "keyboard"]


def pointing_page(browser, live: str, path: str, way: str) -> Page:
    context = browser.new_context(base_url=live, viewport={"width": 1280, "height": 800}, has_touch=way == "tap")
    page = context.new_page()
    page.goto(path)
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")
    return page


def point(page: Page, token: str, way: str, last: bool, box: str) -> None:
    """Pick the thing ``token`` names, as a player does ``way`` (by keyboard: Tab's focus, then
    Enter, or Space for the last; the thing is named by the move's word and its own short name,
    as the ``box``'s button says it, not by all the text of a card)."""
    thing = page.locator(f'#room-main .pickable[data-picks~="{token}"]').locator("visible=true").first
    expect(thing).to_be_visible()
    if way == "click":
        thing.click()
    elif way == "tap":
        thing.tap()
    else:
        expect(thing).to_have_attribute("tabindex", "0")  # (a thing to point at is in the tab order)
        check_named_by_move(page, thing, box)
        thing.focus()
        thing.press(" " if last else "Enter")


def pointed(page: Page, action: dict, way: str) -> None:
    """Make ``action`` by pointing at each thing it names, ``way``; when several moves name the
    same things, the box's list holds this one, and its button sends it."""
    box = f"#adv-{action['type']} form"
    version = page.locator("#table-state").get_attribute("data-version")
    things = points_of(page, action)
    for n, token in enumerate(things):
        point(page, token, way, n == len(things) - 1, box)
        page.wait_for_function(PICKED_OR_SENT, arg=[box, version])
        if page.evaluate(SENT, [box, version]):
            return
    form = page.locator(box)
    assert json.loads(form.locator("select[name=action]").input_value()) == action, "the list holds the move named"
    form.locator("button[type=submit]").click()


@pytest.mark.parametrize("way", WAYS)
def test_a_placement_is_picked_by_pointing_at_the_card_and_its_column(browser, live, way):
    """Organizing in the advanced game, Ana places a card in a column of her own board (a new
    one where she may open one) by pointing at the card in her hand and at that column."""
    api = httpx.Client(base_url=live)

    def placements(seen: dict) -> list[dict]:
        if any(i["action"]["type"] == "attack" for i in seen["legal_actions"]):
            return []  # (the hand's cards are then the attack's boxes: a placement is its column and the list)
        moves = [i["action"] for i in seen["legal_actions"] if i["action"]["type"] == "place"]
        moves = [a for a in moves if "column" in a and "take" not in a]
        mine = seen["view"]["players"][0]["columns"]
        colour = {c["id"]: c["colour"] for c in seen["view"]["hand"]}
        new = [a for a in moves if a["column"] >= max(1, len(mine[colour[a["card"]]]))]  # a column opened
        return new or moves

    room, tokens, moves = room_until(api, {"advanced": True}, placements, seed=WAYS.index(way))
    action = moves[0]
    page = pointing_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", way)
    before = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()
    colour = next(c["colour"] for c in before["view"]["hand"] if c["id"] == action["card"])
    column = f"player-0-{colour}" + (f"-{action['column'] + 1}" if action["column"] else "")
    assert points_of(page, action) == [f"g:{action['card']}", f"#{column}"]
    pointed(page, action, way)
    wait_for_version(page, before["version"] + 1)
    after = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()["view"]
    placed = [
        (c, n)
        for c, cols in after["players"][0]["columns"].items()
        for n, col in enumerate(cols)
        if action["card"] in [x["id"] for x in col]
    ]
    assert placed == [(colour, action["column"])], (
        f"the move sent was {action}; the board after: {after['players'][0]['columns']}"
    )
    assert action["card"] not in [c["id"] for c in after["hand"]]
    expect(page.locator(f'#{column} .vem-card[data-id="{action["card"]}"]')).to_have_count(1)


@pytest.mark.parametrize("way", WAYS)
def test_a_table_action_on_a_player_is_picked_by_pointing_at_that_player(browser, live, way):
    """Ana's Leader's Table Action takes 1 Mega-Euro from an opponent: she picks the opponent
    by pointing at that player's name on the table."""
    api = httpx.Client(base_url=live)

    def squeezes(seen: dict) -> list[dict]:
        moves = [i["action"] for i in seen["legal_actions"] if i["action"]["type"] == "table_action"]
        money = {s: p["money"] for s, p in enumerate(seen["view"]["players"])}
        return sorted(moves, key=lambda a: -money[a["opponent"]]) if any(money[a["opponent"]] for a in moves) else []

    room, tokens, moves = room_until(api, {"advanced": True, "deck": squeeze_deck()}, squeezes, seed=WAYS.index(way))
    action = moves[0] if way != "keyboard" else moves[-1]  # (either opponent)
    page = pointing_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", way)
    before = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()
    assert points_of(page, action) == [f"#player-{action['opponent']}-head"]
    pointed(page, action, way)
    wait_for_version(page, before["version"] + 1)
    after = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()
    name = ("Ana", "Bruno", "Carla")[action["opponent"]]
    taken = min(1, before["view"]["players"][action["opponent"]]["money"])
    assert f"Ana takes {taken} Mega-Euro from {name}." in [line["text"] for line in after["log"]]
    assert after["view"]["players"][0]["sideways"]


def test_a_pick_is_forgotten_when_the_table_moves_on(browser, live):
    """Ana points at a card of her hand, or a column of her board, to place a card there, then
    places another card from another window: the table she sees is new, and what she pointed at
    is no longer picked (a click on a column or a card would otherwise place a card by a choice
    made for a table that is gone). It may still be pointed at, so it is offered again."""
    api = httpx.Client(base_url=live)

    def pick_then_another(seen: dict) -> list[dict]:
        """[the thing to point at, the placement made meanwhile]: a card with two columns or a
        column two cards may join (one pick that waits for another), and a placement of a card
        that leaves that pick open."""
        kinds = {i["action"]["type"] for i in seen["legal_actions"]}
        if seen["view"]["organization_moves"] or "attack" in kinds:
            return []  # (a second placement must be open after the first; an attack's boxes are the hand's cards)
        colour = {c["id"]: c["colour"] for c in seen["view"]["hand"]}
        places = [i["action"] for i in seen["legal_actions"] if i["action"]["type"] == "place"]
        places = [a for a in places if "take" not in a]
        cards_of: dict[str, set[int]] = {}
        for a in places:
            column = f"#player-0-{colour[a['card']]}" + (f"-{a['column'] + 1}" if a["column"] else "")
            cards_of.setdefault(column, set()).add(a["card"])
        for_card = Counter(a["card"] for a in places)
        waiting = {f"g:{card}": {card} for card, n in for_card.items() if n >= 2}
        waiting |= {token: cards for token, cards in cards_of.items() if len(cards) >= 2}
        for token, cards in waiting.items():
            others = [a for a in places if a["card"] not in cards]
            if others:
                return [token, others[0]]
        return []

    # (random deals: 8 games once fell short)
    room, tokens, (token, placed) = room_until(api, {"advanced": True}, pick_then_another, seed=7, games=16)
    page = pointing_page(browser, live, f"/rooms/{room}/seat/{tokens[0]}", "click")
    before = api.get(f"/api/rooms/{room}/view", headers=auth(tokens[0])).json()
    point(page, token, "click", last=False, box="#adv-place form")
    thing = f'#room-main .felt .vem-card.group[data-id="{token[2:]}"]' if token.startswith("g:") else token
    expect(page.locator(f"{thing}.picked")).not_to_have_count(0)
    body = {"version": before["version"], "action": placed}
    assert api.post(f"/api/rooms/{room}/actions", headers=auth(tokens[0]), json=body).status_code == 200
    wait_for_version(page, before["version"] + 1)
    expect(page.locator("#room-main .picked")).to_have_count(0)
    expect(page.locator(f'#room-main .pickable[data-picks~="{token}"]')).not_to_have_count(0)
