"""TriATri: a trick-taking game for 2-4 players about collecting coloured gems.

Rules in brief (our own summary; the server's rulings are A1-A10 in docs/rulings.md)
------------------------------------------------------------------------------------
Cards are red (fire), blue (water) or green (wood) with a number, plus colourless fakes.
The colours form a cycle: red beats green, green beats blue, blue beats red. The deck depends
on the player count: 2 players use 2-6 of each colour and 2 fakes, 3 players 2-7 and 1 fake,
4 players 2-8 and 3 fakes. Each round, everyone gets 6 cards; the rest stay hidden from all.

* Start reveal (every round): all players secretly commit one card at once; when everyone has
  committed they are shown together. Abilities do not count: the highest number wins, an equal
  number is settled by colour, a fake is the weakest. The shown cards are discarded. With no
  single strongest card: 3 players (one number in all three colours) take their cards back and
  each commits a card not yet taken back; 2 players (two fakes) do the same; with 4 players the
  three tied cards are void and the fourth player starts. Option ``bga_three_player_rule``
  (3 players only): instead of taking back, the round's deck is reshuffled and dealt again
  and the reveal starts over.
* A trick: the leader puts a gem in the centre, of any colour still in the supply or one of
  their own gems (never someone else's). Then everyone plays one card, clockwise from the
  leader. Whoever holds a card of the gem's colour must play one of those or a fake; a player
  with none plays anything.
* A card's value is fixed when it is played: if its colour beats the colour of the card now in
  the position just before it, the number doubles (a 2 becomes 8 instead). A fake is worth 0,
  has no colour and swaps places with the strongest card played so far; that card then counts
  for the fake's player, and the next card compares with whatever sits before it.
* Strongest card: highest value; on equal values with two colours, the beating colour wins;
  with one or three colours (or only fakes) the later position wins. The winner takes the gem
  and leads the next trick. Five tricks make a round; there are at most three rounds.
* The game ends after round 3, right after a trick that empties a supply colour, or at once
  when a player holds two gems of every colour (that player wins; the rest rank by score).
* Scoring: +1 per full red-blue-green set, then -2 per two-colour pair among the rest, then
  each gem left is worth the supply count of its colour. Ties: more gems held, else a draw.

The actions and the view below are typed in ``app.games.triatri_types`` (the API publishes them).

Actions
-------
``{"type": "commit", "card": id}`` (start reveal), ``{"type": "choose_gem", "colour":
"red"|"blue"|"green", "source": "supply"|"own"}`` (leader), ``{"type": "play", "card": id}``.
Card ids are indexes into :data:`CARDS` and appear only in the viewer's own hand.

View keys (``view(state, seat)``; seat ``None`` is a spectator)
---------------------------------------------------------------
A *card* is ``{"colour": "red"|"blue"|"green"|None, "number": int, "fake": bool}``
(a fake has colour None and number 0).

phase          "reveal", "choose_gem", "play" or "over"
round          1-3
trick_number   1-5 (the trick being played or about to be)
you            the viewer's seat or None
hand           the viewer's cards, sorted: card + "id" + "playable" (legal right now)
commit         the viewer's own committed start card during the reveal, else None
players        per seat: seat, hand_count, gems {colour: n}, committed (bool, reveal only),
               revealed (its start card shown this round, or None), known_cards (cards it
               took back after a tied reveal and still holds), void (colours it is known to
               lack this round, having played off-colour), score_now (what its gems would
               score if the game ended now: gems and supply are public)
supply         {colour: gems left in the supply}
current        sorted list of seats whose input is awaited
leader         the seat leading the current trick (None during the reveal)
gem            {"colour", "source"} of the gem in the centre, or None
trick          played cards in position order: card + seat (who it counts for), value,
               doubled, quadrupled, swapped
last_trick     {"cards": [as trick], "winner": seat, "gem": {...}} or None
last_reveal    {"round", "cards": [card per seat], "result": "start"|"void"|"take_back"|
               "redeal", "starter": seat or None} or None
result         None until over; then {"players": [per seat: gems, held, sets, pairs, singles,
               single_points, total, winner, instant_win], "winners", "ranking", "places",
               "instant_winner"}
seed           only once the game is over
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from app.games import base
from app.games.base import Action, OptionSpec, Outcome, State
from app.games.triatri_types import TriATriAction, TriATriView

COLOURS = ("red", "blue", "green")
BEATS: dict[str | None, str] = {"red": "green", "green": "blue", "blue": "red"}  # key beats value
HAND_SIZE = 6
TRICKS_PER_ROUND = 5
ROUNDS = 3
GEMS_PER_COLOUR = 6
DECKS = {2: (6, 2), 3: (7, 1), 4: (8, 3)}  # players -> (highest number, fakes)

# Card id -> (colour, number): ids 0-20 are red, blue, green 2-8; ids 21-23 are fakes.
CARDS: tuple[tuple[str | None, int], ...] = (
    tuple((colour, number) for colour in COLOURS for number in range(2, 9)) + ((None, 0),) * 3
)
FIRST_FAKE = 21


def deck(num_players: int) -> list[int]:
    """The card ids used with this many players (ruling A1)."""
    highest, fakes = DECKS[num_players]
    numbered = [i for i, (colour, number) in enumerate(CARDS) if colour and number <= highest]
    return numbered + list(range(FIRST_FAKE, FIRST_FAKE + fakes))


def colour_of(card: int) -> str | None:
    return CARDS[card][0]


def card_name(card: int) -> base.Message:
    """A card as people read it ("red 3", "fake"), as a message."""
    colour, number = CARDS[card]
    if colour == "red":
        return base.say("red {number}", number=number)
    if colour == "blue":
        return base.say("blue {number}", number=number)
    if colour == "green":
        return base.say("green {number}", number=number)
    return base.say("fake")


def label(card: int) -> str:
    """A card's name in English."""
    return base.spoken(card_name(card))


def colour_gem(colour: str) -> base.Message:
    """ "red gem", as a message."""
    if colour == "red":
        return base.say("red gem")
    return base.say("blue gem") if colour == "blue" else base.say("green gem")


def a_gem(colour: str) -> base.Message:
    """ "a red gem", as a message."""
    if colour == "red":
        return base.say("a red gem")
    return base.say("a blue gem") if colour == "blue" else base.say("a green gem")


def the_gem(colour: str) -> base.Message:
    """ "the red gem", as a message."""
    if colour == "red":
        return base.say("the red gem")
    return base.say("the blue gem") if colour == "blue" else base.say("the green gem")


def name(seat: int) -> str:
    return base.seat_label(seat)


def card_view(card: int) -> dict[str, Any]:
    colour, number = CARDS[card]
    return {"colour": colour, "number": number, "fake": colour is None}


# --- card strength ---------------------------------------------------------------------------


def reveal_strongest(commits: list[int]) -> tuple[int | None, list[int]]:
    """The start reveal's winning seat (None if no single strongest card) and the top-number seats."""
    top = max(CARDS[c][1] for c in commits)
    tied = [seat for seat, c in enumerate(commits) if CARDS[c][1] == top]
    if len(tied) == 1:
        return tied[0], tied
    if len(tied) == 2 and top > 0:
        first, second = tied
        winner = first if BEATS[colour_of(commits[first])] == colour_of(commits[second]) else second
        return winner, tied
    return None, tied


def fixed_value(card: int, previous: int | None) -> tuple[int, int]:
    """(value, multiplier) of a card played after ``previous`` (A5): fakes are worth 0."""
    colour, number = CARDS[card]
    if colour is None:
        return 0, 1
    if previous is not None and BEATS[colour] == colour_of(previous):
        multiplier = 4 if number == 2 else 2
        return number * multiplier, multiplier
    return number, 1


def strongest(positions: list[dict[str, Any]]) -> int:
    """Index of the strongest position (A7): value, then the beating colour, then the later one."""
    top = max(p["value"] for p in positions)
    tied = [i for i, p in enumerate(positions) if p["value"] == top]
    colours = {colour_of(positions[i]["card"]) for i in tied}
    if len(colours) == 2:
        a, b = colours
        winning = a if BEATS[a] == b else b
        tied = [i for i in tied if colour_of(positions[i]["card"]) == winning]
    return tied[-1]


# --- scoring ---------------------------------------------------------------------------------


def score(gems: dict[str, int], supply: dict[str, int]) -> dict[str, Any]:
    """One player's scoring breakdown (A9): sets, then two-colour pairs, then single gems."""
    sets = min(gems.values())
    rest = {c: gems[c] - sets for c in COLOURS}
    present = [c for c in COLOURS if rest[c]]
    pairs = min(rest[c] for c in present) if len(present) == 2 else 0
    for c in present:
        rest[c] -= pairs
    single_points = sum(rest[c] * supply[c] for c in COLOURS)
    return {
        "gems": dict(gems),
        "held": sum(gems.values()),
        "sets": sets,
        "pairs": pairs,
        "singles": sum(rest.values()),
        "single_points": single_points,
        "total": sets - 2 * pairs + single_points,
    }


# --- state changes ---------------------------------------------------------------------------


def log(state: State, message: base.Message, to: list[int] | None = None) -> None:
    state["log"].append(base.log_entry(message, to))


def deal(state: State) -> None:
    """Shuffle the player count's whole deck, deal 6 each and open the start reveal."""
    n = state["num_players"]
    cards = deck(n)
    base.rng(state).shuffle(cards)
    state["hands"] = [sorted(cards[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(n)]
    state["undealt"] = sorted(cards[n * HAND_SIZE :])
    state["commits"] = [None] * n
    state["taken_back"] = [[] for _ in range(n)]
    state["void"] = [[] for _ in range(n)]
    state["phase"] = "reveal"
    state["leader"] = None
    for seat, hand in enumerate(state["hands"]):
        log(state, base.say("Your cards: {cards}.", cards=[card_name(c) for c in hand]), [seat])


def committable(state: State, seat: int) -> list[int]:
    """Cards ``seat`` may commit: any not taken back in this reveal (all, if none is left)."""
    hand = state["hands"][seat]
    return [c for c in hand if c not in state["taken_back"][seat]] or list(hand)


def playable(state: State, seat: int) -> list[int]:
    """Cards ``seat`` may play (A4): the gem's colour or a fake if it holds that colour, else any."""
    hand = state["hands"][seat]
    gem = state["gem"]["colour"]
    if any(colour_of(c) == gem for c in hand):
        return [c for c in hand if colour_of(c) in (gem, None)]
    return list(hand)


def next_player(state: State) -> int:
    return (state["leader"] + len(state["played"])) % state["num_players"]


def commit(state: State, seat: int, action: Action) -> None:
    card = action["card"]
    state["hands"][seat].remove(card)
    state["commits"][seat] = card
    log(state, base.say("{player} commits a start card.", player=name(seat)))
    log(state, base.say("You commit {card}.", card=card_name(card)), [seat])
    if None not in state["commits"]:
        resolve_reveal(state)


def resolve_reveal(state: State) -> None:
    """Show every committed card together and settle the start player (A2)."""
    n = state["num_players"]
    commits = state["commits"]
    winner, tied = reveal_strongest(commits)
    shown = [base.say("{player} {card}", player=name(s), card=card_name(c)) for s, c in enumerate(commits)]
    log(state, base.say("Start cards revealed: {cards}.", cards=shown))
    result = "start"
    if winner is None and n == 4:
        winner = next(s for s in range(n) if s not in tied)
        result = "void"
        log(state, base.say("Three cards tie on {number} and are void.", number=CARDS[commits[tied[0]]][1]))
    elif winner is None:
        result = "redeal" if n == 3 and state["options"]["bga_three_player_rule"] else "take_back"
    state["last_reveal"] = {
        "round": state["round"],
        "cards": list(commits),
        "result": result,
        "starter": winner,
    }
    if result == "redeal":
        log(state, base.say("No single strongest card: all hands are reshuffled and dealt again."))
        deal(state)
    elif result == "take_back":
        log(state, base.say("No single strongest card: everyone takes their card back and commits another."))
        for seat, card in enumerate(commits):
            state["hands"][seat] = sorted(state["hands"][seat] + [card])
            state["taken_back"][seat].append(card)
        state["commits"] = [None] * n
    else:
        assert winner is not None  # a single strongest card: "start"
        log(state, base.say("{player} starts.", player=name(winner)))
        state["commits"] = [None] * n
        state["leader"] = winner
        state["phase"] = "choose_gem"


def choose_gem(state: State, seat: int, action: Action) -> None:
    colour, source = action["colour"], action["source"]
    pile = state["supply"] if source == "supply" else state["gems"][seat]
    pile[colour] -= 1
    state["gem"] = {"colour": colour, "source": source}
    state["phase"] = "play"
    if source == "supply":
        log(state, base.say("{player} puts {gem} from the supply in the centre.", player=name(seat), gem=a_gem(colour)))
    else:
        log(
            state,
            base.say("{player} puts {gem} from their own gems in the centre.", player=name(seat), gem=a_gem(colour)),
        )


def play(state: State, seat: int, action: Action) -> None:
    card = action["card"]
    played = state["played"]
    gem = state["gem"]["colour"]
    state["hands"][seat].remove(card)
    if colour_of(card) not in (gem, None) and gem not in state["void"][seat]:
        state["void"][seat].append(gem)
    if colour_of(card) is None and played:
        swap_in_fake(state, seat, card)
    else:
        previous = played[-1]["card"] if played else None
        value, multiplier = fixed_value(card, previous)
        played.append({"seat": seat, "card": card, "value": value, "multiplier": multiplier, "swapped": False})
        if multiplier == 2:
            said = base.say(
                "{player} plays {card} (doubled to {value}).", player=name(seat), card=card_name(card), value=value
            )
        elif multiplier == 4:
            said = base.say(
                "{player} plays {card} (quadrupled to {value}).", player=name(seat), card=card_name(card), value=value
            )
        else:
            said = base.say("{player} plays {card}.", player=name(seat), card=card_name(card))
        log(state, said)
    if len(played) == state["num_players"]:
        finish_trick(state)


def swap_in_fake(state: State, seat: int, card: int) -> None:
    """A6: the fake takes the strongest card's position; that card moves to the fake's seat."""
    played = state["played"]
    i = strongest(played)
    strong = played[i]
    played.append({**strong, "seat": seat, "swapped": True})
    played[i] = {"seat": strong["seat"], "card": card, "value": 0, "multiplier": 1, "swapped": True}
    log(
        state,
        base.say(
            "{player} plays a fake; it swaps places with {owner}'s {card} ({value}), which now counts for {player}.",
            player=name(seat),
            owner=name(strong["seat"]),
            card=card_name(strong["card"]),
            value=strong["value"],
        ),
    )


def finish_trick(state: State) -> None:
    played = state["played"]
    best = played[strongest(played)]
    winner = best["seat"]
    colour = state["gem"]["colour"]
    state["gems"][winner][colour] += 1
    state["last_trick"] = {"cards": played, "winner": winner, "gem": state["gem"]}
    state["played"] = []
    state["gem"] = None
    log(
        state,
        base.say(
            "{player} wins the trick with {card} ({value}) and takes {gem}.",
            player=name(winner),
            card=card_name(best["card"]),
            value=best["value"],
            gem=the_gem(colour),
        ),
    )
    advance(state, winner)


def advance(state: State, winner: int) -> None:
    """After a trick: end the game (A8), start the next trick, or deal the next round."""
    emptied = [c for c in COLOURS if state["supply"][c] == 0]
    if all(count >= 2 for count in state["gems"][winner].values()):
        state["instant_winner"] = winner
        end_game(state, base.say("{player} holds two gems of every colour and wins at once.", player=name(winner)))
    elif emptied:
        end_game(state, base.say("The supply has no {gem} left: the game ends.", gem=colour_gem(emptied[0])))
    elif state["trick_number"] < TRICKS_PER_ROUND:
        state["trick_number"] += 1
        state["leader"] = winner
        state["phase"] = "choose_gem"
    elif state["round"] < ROUNDS:
        state["round"] += 1
        state["trick_number"] = 1
        log(
            state, base.say("Round {round}: the cards are shuffled and six dealt to each player.", round=state["round"])
        )
        deal(state)
    else:
        end_game(state, base.say("The third round is over: the game ends."))


def end_game(state: State, reason: base.Message) -> None:
    state["phase"] = "over"
    state["leader"] = None
    log(state, reason)
    for seat, gems in enumerate(state["gems"]):
        points = score(gems, state["supply"])
        log(
            state,
            base.say(
                "{player}: {sets} set(s), {pairs} pair(s), {singles} single gem(s) worth {single_points}: "
                "{total} point(s).",
                player=name(seat),
                sets=points["sets"],
                pairs=points["pairs"],
                singles=points["singles"],
                single_points=points["single_points"],
                total=points["total"],
            ),
        )


# --- hidden information ----------------------------------------------------------------------


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


HANDLERS = {"commit": commit, "choose_gem": choose_gem, "play": play}


# --- the game --------------------------------------------------------------------------------


class TriATri(base.Game):
    slug = "triatri"
    title = "TriATri"
    min_players = 2
    max_players = 4
    fixed_keys = ()
    action_type = TriATriAction
    view_type = TriATriView
    options = (
        OptionSpec(
            "bga_three_player_rule",
            "bool",
            False,
            base.N_(
                "3 players: when the start reveal ties three ways, reshuffle and redeal every hand "
                "instead of taking the cards back (the Board Game Arena rule)."
            ),
        ),
    )

    handlers: ClassVar[Mapping[str, base.Handler]] = HANDLERS

    def _setup(self, num_players: int, options: dict[str, Any], seed: str) -> State:
        state: State = {
            "seed": seed,
            "rng_draws": 0,
            "num_players": num_players,
            "options": base.resolve_options(self.options, options),
            "phase": "reveal",
            "round": 1,
            "trick_number": 1,
            "supply": dict.fromkeys(COLOURS, GEMS_PER_COLOUR),
            "gems": [dict.fromkeys(COLOURS, 0) for _ in range(num_players)],
            "gem": None,
            "played": [],
            "last_trick": None,
            "last_reveal": None,
            "instant_winner": None,
            "log": [],
        }
        log(state, base.say("Round 1: six cards are dealt to each player."))
        deal(state)
        return state

    def to_act(self, state: State) -> set[int]:
        phase = state["phase"]
        if phase == "reveal":
            return {s for s, card in enumerate(state["commits"]) if card is None}
        if phase == "choose_gem":
            return {state["leader"]}
        if phase == "play":
            return {next_player(state)}
        return set()

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "reveal":
            return [{"type": "commit", "card": c} for c in committable(state, seat)]
        if phase == "play":
            return [{"type": "play", "card": c} for c in playable(state, seat)]
        supply = [("supply", c) for c in COLOURS if state["supply"][c] > 0]
        own = [("own", c) for c in COLOURS if state["gems"][seat][c] > 0]
        return [{"type": "choose_gem", "colour": c, "source": s} for s, c in supply + own]

    def label(self, action: Action, state: State | None = None) -> base.Message:
        if action["type"] == "choose_gem":
            gem = colour_gem(action["colour"])
            if action["source"] == "own":
                return base.say("Lead with your own {gem}", gem=gem)
            return base.say("Lead with {gem} from the supply", gem=a_gem(action["colour"]))
        if action["type"] == "commit":
            return base.say("Commit {card}", card=card_name(action["card"]))
        return base.say("Play {card}", card=card_name(action["card"]))

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        result = self.result(state)
        return Outcome(
            scores=[p["total"] for p in result["players"]],
            winners=result["winners"],
            ranking=result["ranking"],
            places=result["places"],
            details=result,
        )

    def result(self, state: State) -> dict[str, Any]:
        """The final scoring breakdown, winners and ranking (A8, A9)."""
        instant = state["instant_winner"]
        players = [score(gems, state["supply"]) for gems in state["gems"]]

        def rank_key(seat: int) -> tuple[bool, int, int, int]:
            return (seat != instant, -players[seat]["total"], -players[seat]["held"], seat)

        ranking = sorted(range(state["num_players"]), key=rank_key)
        best = rank_key(ranking[0])[:3]
        winners = [s for s in ranking if rank_key(s)[:3] == best]
        for seat, entry in enumerate(players):
            entry["winner"] = seat in winners
            entry["instant_win"] = seat == instant
        places = base.places(ranking, lambda seat: rank_key(seat)[:3])
        return {"players": players, "winners": winners, "ranking": ranking, "places": places, "instant_winner": instant}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["phase"] == "over"
        legal = {a.get("card") for a in self.legal_actions(state, seat)} if seat is not None else set()
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
            "players": [self.player_view(state, s) for s in range(state["num_players"])],
            "supply": dict(state["supply"]),
            "current": sorted(self.to_act(state)),
            "leader": state["leader"],
            "gem": None if state["gem"] is None else dict(state["gem"]),
            "trick": [position_view(p) for p in state["played"]],
            "last_trick": last_trick_view(state["last_trick"]),
            "last_reveal": last_reveal_view(state["last_reveal"]),
            "result": self.result(state) if over else None,
        }
        if over:
            view["seed"] = state["seed"]
        return view

    def player_view(self, state: State, seat: int) -> dict[str, Any]:
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

    def randomize_hidden(self, state: State, seat: int | None, r: random.Random) -> State:
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


GAME = TriATri()
