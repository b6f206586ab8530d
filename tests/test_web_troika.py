"""The Troika table as the server renders it for one seat, from exact game states: what a
"Troika!" call shows before the round ends (ruling T7) and how the round-end breakdown settles it."""

from __future__ import annotations

import random
import re

from app.games.troika import GAME
from tests.conftest import create_started_room
from tests.support.rendering import room_fragment
from tests.support.troika_states import make
from tests.support.troika_worlds import call_worlds

TROIKA = {"type": "troika"}


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def section(html: str, element_id: str, end: str) -> str:
    begin = html.index(f'id="{element_id}"')
    return html[begin : html.index(end, begin)]


async def renderer(client, n=3):
    """render(state, seat): the fragment of ``seat`` (None: a spectator) in one room of ``n``
    seats (Ana, Bruno, Carla, ...) whose game is set to ``state``."""
    room_id, tokens = await create_started_room(client, "troika", n, options={"first_player": 0})
    info, live = await client.app.state.rooms.game_state(room_id)

    def render(state, seat, lang="en"):
        live.hold(state)
        return room_fragment(info, live, seat, None if seat is None else tokens[seat], lang=lang)

    return render


async def test_only_the_caller_is_told_before_calling_whether_the_call_would_fail(client):
    succeeding, failing = call_worlds(3, "web-t7")
    render = await renderer(client)
    assert "Your call would succeed" in text(section(render(succeeding, 0), "call-check", "</span>"))
    mine = render(failing, 0)
    assert "Your call would fail" in text(section(mine, "call-check", "</p>"))
    for seat in (1, None):
        html = render(failing, seat)
        assert "would fail" not in html and "would succeed" not in html


async def test_a_doomed_call_asks_for_confirmation_and_says_why(client):
    render = await renderer(client)
    _, failing = call_worlds(3, "web-t7")
    failing = {**failing, "hands": [[4], *failing["hands"][1:]], "containers": [[5, 5], *failing["containers"][1:]]}
    confirm = section(render(failing, 0), "call-confirm", "</details>")
    assert "<summary" in confirm and "Call anyway" in confirm  # the call itself sits behind the question
    assert "your Container has 2 tiles; a call needs 5" in text(confirm)
    assert "your tiles do not all fit into trios" in text(confirm)
    portuguese = text(section(render(failing, 0, "pt-PT"), "call-confirm", "</details>"))
    assert "o seu Contentor tem 2 peças; uma chamada precisa de 5" in portuguese
    succeeding, _ = call_worlds(3, "web-t7")
    assert 'id="call-confirm"' not in render(succeeding, 0)  # a call that would succeed is one click


async def test_a_call_shows_as_called_and_is_settled_in_the_round_breakdown(client):
    succeeding, failing = (GAME.apply(world, 0, TROIKA) for world in call_worlds(3, "web-t7"))
    render = await renderer(client)
    for seat in (1, None):
        pages = [render(world, seat) for world in (succeeding, failing)]
        badge = text(section(pages[0], "player-0", 'class="tokens"'))
        assert "called “Troika!”" in badge and "failed" not in badge and "left the planet" not in badge
        assert pages[0] == pages[1]
    ended = GAME.apply(succeeding, 1, TROIKA)  # Bruno's call (one tile, no Container) fails; the round ends
    breakdown = text(section(render(ended, 2), "round-results", "</section>"))
    assert "Ana call succeeded" in breakdown and "Bruno failed call" in breakdown
    # (Bruno's tile is shown apart from any trio: nothing was sorted for a player who failed)
    assert "Bruno failed call not sorted: failed to leave" in breakdown
    assert "Ana call succeeded not sorted" not in breakdown
    ana = breakdown.split("Ana call succeeded", 1)[1].split("Bruno", 1)[0]
    assert "+5" in ana and "settled here" in breakdown  # (the bonus in Ana's row, not only a heading)
    bruno = breakdown.split("Bruno failed call", 1)[1]
    assert "\u22121" in bruno and "-1" not in bruno  # a token lost, with the minus sign the log uses
    # On a phone the trash shows among the trios (its column, a tile wide, is hidden there):
    # both places hold the same tiles, and each is marked for the stylesheet to pick one.
    trashy = {**ended, "rounds": [dict(ended["rounds"][-1])]}  # (as if Ana's split had left 3 and 9 out)
    trashy["rounds"][0]["players"] = [
        {**trashy["rounds"][0]["players"][0], "trash": [3, 9]},
        *ended["rounds"][-1]["players"][1:],
    ]
    results = section(render(trashy, 2), "round-results", "</section>")
    assert results.count('class="trio trash trash-here">') == 1
    for row in re.findall(r"<tr>(.*?)</tr>", results, re.S)[1:]:
        here = re.findall(r'class="trio trash trash-here">(.*?)</span>\s*</td>', row, re.S)
        column = re.findall(r'<td class="trash-column">(.*?)</td>', row, re.S)
        assert len(column) == 1 and text(here[0] if here else "") == text(column[0].replace("trio trash", "x"))


async def test_the_turns_instruction_offers_only_the_moves_there_are(client):
    """With a full hand no face-down tile may be taken, and the instruction does not offer it;
    with no tile face up, none is offered to take. (It names no reason: a face-down pile run out
    takes the same move away from a hand that is not full.)"""
    render = await renderer(client)
    cases = [
        (
            make(hands=[[1, 2], [], []], table_up=[5]),
            "take a face-up tile, take a face-down tile into your hand, or discard a tile.",
        ),
        (
            make(hands=[[1, 2, 3], [], []], table_up=[5]),
            "take a face-up tile or discard a tile.",
        ),
        (make(hands=[[1, 2], [], []]), "take a face-down tile into your hand, or discard a tile."),
        (make(hands=[[1, 2, 3], [], []]), "discard a tile."),
        # nothing in hand or Container: nothing to discard, and the instruction does not offer it
        (make(hands=[[], [], []], table_up=[5]), "take a face-up tile or take a face-down tile into your hand."),
        (make(hands=[[], [], []]), "take a face-down tile into your hand."),
    ]
    for state, said in cases:
        state = {**state, "phase": "act"}
        status = text(section(render(state, 0), "table-status", "</p>"))
        assert status.split("Your turn:")[1].strip() == said, status
        kinds = {a["type"] for a in GAME.legal_actions(state, 0)}
        assert ("take_down" in kinds) == ("face-down tile into" in said), "the words follow the moves"
        assert ("discard" in kinds) == ("discard a tile" in said) and ("take_up" in kinds) == ("face-up" in said)


async def test_a_marked_tiles_buttons_name_the_tile(client):
    """Two tiles discarded face down: "Turn up" and "Take" are offered for each, and each button
    names its tile (#1, #2) for a screen reader; they were alike, "Turn up" and "Take"."""
    render = await renderer(client)
    state = make(hands=[[1], [], []], marked=[(1, 1, 7), (2, 2, 9)])
    html = render(state, 0)
    for mark in (1, 2):
        assert f'Turn up<span class="sr-only">#{mark}</span></button>' in html
    taking = render({**state, "phase": "act"}, 0)  # (then a face-down tile may be taken instead)
    for mark in (1, 2):
        assert f'Take<span class="sr-only">#{mark}</span></button>' in taking


async def test_a_negative_total_is_written_with_a_true_minus_sign(client):
    """The final table, the round results and the players' totals write a negative total as the
    token chips write a lost token: with a true minus sign (U+2212), never a hyphen (a probe saw
    "-3" in the final table beside chips of "\u22121")."""
    rng, state = random.Random(5), GAME.setup(3, {"first_player": "0"}, "minus-seed")
    while GAME.outcome(state) is None:  # every seat calls when it may: failed calls lose tokens
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        state = GAME.apply(state, seat, TROIKA if TROIKA in legal else rng.choice(legal))
    totals = [sum(tokens) for tokens in state["tokens"]]
    assert min(totals) < 0, totals  # (the seed gives a negative total)
    page = (await renderer(client))(state, 0)
    final = text(section(page, "final-result", "</table>"))
    panel = text(section(page, "player-0", "</div>\n</div>")).split(">", 1)[1]  # (after its id)
    rounds = text(section(page, "round-results", "</section>"))
    assert f"\u2212{-min(totals)}" in final and not re.search(r"-\d", final), final
    assert "\u22121" in rounds and not re.search(r"-\d", rounds), rounds  # (each round's lost token)
    assert f"total {str(totals[0]).replace('-', chr(0x2212))}" in panel and not re.search(r"-\d", panel), panel
