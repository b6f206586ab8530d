"""The TriATri table as the server renders it for one seat, from exact game states: trick values
(doubled, quadrupled, swapped by a fake), legal cards, the secret start reveal, the leader's gem
choice and the final scoring breakdown."""

from __future__ import annotations

import json
import re

from app.games.triatri import GAME
from app.games.triatri.cards import CARDS, deck
from tests.conftest import create_started_room
from tests.support.rendering import room_fragment

FAKE, FAKE_2 = 21, 22
POSITION = re.compile(
    r'<figure class="position([^"]*)">\s*<span class="tt-card (\w+)[^"]*"[^>]*? title="([^"(]*).*?'
    r'<span class="value"[^>]*>(.*?)</span>(.*?)</figure>',
    re.S,
)


def card(colour: str, number: int) -> int:
    return CARDS.index((colour, number))


def build(hands, **fields):
    """A state with exactly these hands, the rest of the deck undealt."""
    state = GAME.setup(len(hands), {}, "web")
    held = {c for hand in hands for c in hand}
    state.update(
        hands=[sorted(h) for h in hands],
        undealt=[c for c in deck(len(hands)) if c not in held],
        log=[],
    )
    state.update(fields)
    return state


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def between(html: str, start: str, end: str) -> str:
    """The HTML after the tag that contains ``start``, up to ``end``."""
    begin = html.index(">", html.index(start)) + 1
    return html[begin : html.index(end, begin)]


def positions(html: str) -> list[tuple[str, str, str, str, str]]:
    """(classes, colour, card, value text, rest of caption) of each trick position."""
    return [
        (classes.strip(), colour, name.strip(), text(value), text(rest))
        for classes, colour, name, value, rest in POSITION.findall(html)
    ]


def posted_actions(html: str) -> list[dict]:
    return [json.loads(v.replace("&#34;", '"')) for v in re.findall(r'name="action" value="([^"]*)"', html)]


async def render(client, state, seat):
    """The room fragment of ``seat`` (None: a spectator) with the room's game set to ``state``."""
    room_id, tokens = await create_started_room(client, "triatri", state["num_players"])
    info, live = await client.app.state.rooms.game_state(room_id)
    live.hold(state)
    return room_fragment(info, live, seat, None if seat is None else tokens[seat])


def four_player_trick(last=FAKE):
    """Green gem led; Ana green 3, Bruno red 2 (x4 = 8), Carla blue 6 (x2 = 12); Duarte to play,
    holding green 7, blue 5 and ``last`` (a fake unless named)."""
    hands = [
        [card("green", 3), card("green", 4)],
        [card("red", 2), card("red", 3)],
        [card("blue", 6), card("blue", 7)],
        [card("green", 7), card("blue", 5), last],
    ]
    state = build(hands, phase="choose_gem", leader=0)
    state = GAME.apply(state, 0, {"type": "choose_gem", "colour": "green", "source": "supply"})
    for seat, played in enumerate([card("green", 3), card("red", 2), card("blue", 6)]):
        state = GAME.apply(state, seat, {"type": "play", "card": played})
    return state


async def test_trick_positions_show_values_doubled_and_quadrupled(client):
    html = await render(client, four_player_trick(), 3)
    trick = between(html, 'id="trick"', 'class="players"')
    assert positions(trick) == [
        ("", "green", "green 3", "= 3", "Ana"),
        ("quadrupled", "red", "red 2", "×4 = 8", "Bruno"),
        ("doubled", "blue", "blue 6", "×2 = 12", "Carla"),
    ]
    assert "green gem at stake" in text(trick) and "Duarte" in text(trick)


async def test_cards_gems_and_counts_are_named_for_a_screen_reader(client):
    """A card's face, a card's back, a gem and a count of gems are drawn with symbols and marks
    hidden from screen readers: each is an image named in words (a reader heard the trick's
    cards by their players' names alone, and the supply as "6 6 6")."""
    html = await render(client, four_player_trick(), 3)
    names = dict(re.findall(r'<span class="tt-card (?:\w+ )*?(\w+)\s*[^"]*" role="img" aria-label="([^"]+)"', html))
    assert names["back"] == "a face-down card" and names["green"].startswith("green ")
    assert re.findall(r'<span class="tt-card(?![^>]*aria-(?:label|hidden))', html) == []  # (a placeholder is hidden)
    supply = between(html, 'id="supply"', 'id="centre"')
    assert re.findall(r'class="count" role="img" aria-label="(\d+ \w+)"', supply) == ["6 red", "6 blue", "5 green"]
    assert 'class="pile" aria-hidden="true"' in supply
    counts = re.findall(r'<span class="gem-count \w+" role="img" aria-label="(\d+ \w+)"', html)
    assert counts and all(count.split()[1] in ("red", "blue", "green") for count in counts)


async def test_only_the_cards_that_follow_the_gem_are_buttons(client):
    html = await render(client, four_player_trick(), 3)
    hand = between(html, 'id="your-hand"', "</section>")
    assert posted_actions(hand) == [
        {"type": "play", "card": card("green", 7)},
        {"type": "play", "card": FAKE},
    ]
    assert hand.count('class="card-slot unplayable"') == 1
    # a row of moves is one Tab stop (static/js/rows.js); a hand with none is no toolbar
    assert 'class="hand-row" role="toolbar" aria-label="Your hand" data-roving' in hand
    waiting = between(await render(client, four_player_trick(), 0), 'id="your-hand"', "</section>")
    assert 'class="hand-row">' in waiting and "data-roving" not in waiting
    # (it says why, on hover and to a screen reader, as the status line does)
    unplayable = between(hand, "unplayable", "</span>\n")
    assert 'title="blue 5 (water). Not playable now: follow green or play a fake."' in unplayable
    assert 'aria-label="blue 5. Not playable now: follow green or play a fake."' in unplayable
    without_fake = between(await render(client, four_player_trick(card("red", 4)), 3), 'id="your-hand"', "</section>")
    assert 'title="blue 5 (water). Not playable now: follow green."' in without_fake
    assert "Not playable" not in between(html, 'id="table-status"', 'id="your-hand"')


async def test_the_status_offers_a_fake_only_to_a_hand_that_holds_one(client):
    with_fake = text(await render(client, four_player_trick(), 3))
    assert "Your turn: play a card: follow green or play a fake." in with_fake
    without = text(await render(client, four_player_trick(card("red", 4)), 3))
    assert "Your turn: play a card: follow green." in without and "fake" not in without


async def test_other_seats_see_no_buttons_and_not_the_hand_to_play(client):
    html = await render(client, four_player_trick(), 0)
    assert posted_actions(html) == []
    assert "green 7" not in html and "blue 5" not in html and "fake" not in text(html)
    assert "Your hand" in html and "waiting for Duarte to play" in text(html)
    spectator = await render(client, four_player_trick(), None)
    assert 'id="your-hand"' not in spectator and posted_actions(spectator) == []


async def test_a_fake_swap_is_marked_on_both_cards_of_the_last_trick(client):
    state = four_player_trick()
    state = GAME.apply(state, 3, {"type": "play", "card": FAKE})
    html = await render(client, state, 1)
    last = between(html, 'id="last-trick"', 'class="players"')
    assert "Duarte took" in text(last) and "the green gem" in text(last)
    assert positions(last) == [
        ("", "green", "green 3", "= 3", "Ana"),
        ("quadrupled", "red", "red 2", "×4 = 8", "Bruno"),
        ("swapped", "fake", "fake", "= 0", "⇄ swapped Carla"),
        ("doubled swapped winner", "blue", "blue 6", "×2 = 12", "⇄ swapped Duarte won"),
    ]


async def test_the_start_reveal_shows_only_your_own_secret_card(client):
    state = build([[card("red", 5), card("blue", 2)], [card("green", 6), card("green", 2)]])
    state = GAME.apply(state, 0, {"type": "commit", "card": card("red", 5)})
    mine = await render(client, state, 0)
    assert text(between(mine, 'id="reveal-0"', "</figure>")) == "5 5 Ana your secret card"
    assert 'title="red 5 (fire)"' in between(mine, 'id="reveal-0"', "</figure>")
    assert text(between(mine, 'id="reveal-1"', "</figure>")) == "Bruno choosing…"
    theirs = await render(client, state, 1)
    assert "red 5" not in theirs
    assert text(between(theirs, 'id="reveal-0"', "</figure>")) == "◆ Ana committed"
    assert [a["type"] for a in posted_actions(theirs)] == ["commit", "commit"]
    assert "waiting for" not in text(theirs) and "Your turn: pick a start card" in text(theirs)
    # a newcomer's first mistake was to show a strong card: the page says it is thrown away (a probe)
    assert "every shown card is then discarded, so it will not play in a trick" in text(theirs)


async def test_a_tied_reveal_shows_the_cards_taken_back(client):
    state = build([[FAKE, card("red", 5)], [FAKE_2, card("green", 6)]])
    state = GAME.apply(state, 0, {"type": "commit", "card": FAKE})
    state = GAME.apply(state, 1, {"type": "commit", "card": FAKE_2})
    html = await render(client, state, 0)
    reveal = text(between(html, 'id="last-reveal"', "</p>"))
    assert reveal.endswith("No single strongest card: everyone took their card back and commits another.")
    assert text(between(html, 'id="player-1"', 'id="your-hand"')).count("Took back: F") == 1
    assert posted_actions(html) == [{"type": "commit", "card": card("red", 5)}]


async def test_the_leader_chooses_among_the_legal_gems_only(client):
    state = build([[card("red", 5)], [card("green", 6)]], phase="choose_gem", leader=0)
    state["supply"]["blue"] = 0
    state["supply"]["red"] = 4
    state["gems"][0]["red"] = 1
    html = await render(client, state, 0)
    choice = between(html, 'id="gem-choice"', 'class="players"')
    # each gem says how many there are (on a phone the supply is below the trick, out of view)
    assert text(choice).startswith("From the supply red 4 4 left green 6 6 left From your gems red 1 you have 1 ")
    assert re.findall(r'class="gem-left" title="([^"]+)"', choice) == ["4 left", "6 left", "you have 1"]
    assert posted_actions(choice) == [
        {"type": "choose_gem", "colour": "red", "source": "supply"},
        {"type": "choose_gem", "colour": "green", "source": "supply"},
        {"type": "choose_gem", "colour": "red", "source": "own"},
    ]
    # (a screen reader hears the count too, after the move's name: the corner's tooltip is not
    # read out)
    assert 'aria-label="Lead with your own red gem"' in choice
    described = re.findall(r'<button [^>]*aria-describedby="([^"]+)"', choice)
    assert [text(between(choice, f'id="{id}">', "</span>")) for id in described] == ["4 left", "6 left", "you have 1"]
    supply = text(between(html, 'id="supply"', '<div class="zone centre"'))
    assert supply == "Gem supply 4 empty 0 6"
    assert between(html, 'id="supply"', '<div class="zone centre"').count('class="gem blue') == 0


async def test_the_final_breakdown_per_player_and_an_instant_win(client):
    state = build(
        [[], []],
        phase="over",
        instant_winner=1,
        supply={"red": 2, "blue": 4, "green": 3},
        gems=[{"red": 3, "blue": 1, "green": 0}, {"red": 2, "blue": 2, "green": 2}],
    )
    html = await render(client, state, 0)
    final = between(html, 'id="final-result"', "</section>")
    assert "Bruno holds two gems of every colour and wins at once!" in text(final)
    rows = re.findall(r'<tr class="(\w*)" id="result-(\d)">(.*?)</tr>', final, re.S)
    assert [(cls, seat, text(row)) for cls, seat, row in rows] == [
        ("winner", "1", "1 1. Bruno instant win 2 2 2 (6) 2 0 0 worth 0 2"),
        ("", "0", "2 2. Ana 3 1 0 (4) 0 1 2 worth 4 2"),
    ]
    assert "Bruno wins at once." in text(between(html, 'class="game-over"', "</div>"))
    assert 'id="your-hand"' not in html and posted_actions(html) == []


async def test_the_winners_line_says_one_point_and_several_points(client):
    """'1 point', never '1 points' (ngettext), in English and in Portuguese."""
    supply = {"red": 4, "blue": 4, "green": 4}
    one = build(
        [[], []], phase="over", gems=[{"red": 1, "blue": 1, "green": 1}, dict.fromkeys(supply, 0)], supply=supply
    )
    room_id, _ = await create_started_room(client, "triatri", 2)
    info, live = await client.app.state.rooms.game_state(room_id)
    for gems, english, portuguese in [
        (one["gems"], "Ana wins with 1 point.", "Ana ganha com 1 ponto."),
        (
            [{"red": 2, "blue": 1, "green": 1}, dict.fromkeys(supply, 0)],
            "Ana wins with 5 points.",
            "Ana ganha com 5 pontos.",
        ),
    ]:
        live.hold({**one, "gems": gems})
        for lang, line in (("en", english), ("pt-PT", portuguese)):
            html = room_fragment(info, live, None, None, lang=lang)
            assert text(between(html, 'class="game-over"', "</p>")) == line
