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

The actions and the view below are typed in ``app.games.triatri.types`` (the API publishes them).

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
from app.games.entry import GameEntry
from app.games.triatri import score, view
from app.games.triatri.cards import COLOURS, GEMS_PER_COLOUR, a_gem, card_name, colour_gem
from app.games.triatri.rules import HANDLERS, committable, deal, log, next_player, playable
from app.games.triatri.types import TriATriAction, TriATriView


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
            label=base.N_("Board Game Arena's three-player rule"),
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

    def waiting(self, state: State, seat: int) -> base.Message:
        if state["phase"] == "reveal":
            return base.say("you have committed your start card: the others are choosing theirs")
        return super().waiting(state, seat)

    def explain(self, state: State, seat: int, action: Action) -> None:
        """Why a card or gem of the seat to act is not listed, where its hand or the gems say
        why: a card it does not hold, one taken back in this reveal, the colour it must follow,
        a gem there is none of (another type now: the generic refusal names the open ones)."""
        kind, phase, hand = action["type"], state["phase"], state["hands"][seat]
        if (kind, phase) in {("commit", "reveal"), ("play", "play")}:
            base.require(base.whole(action.get("card")) and action["card"] in hand, "you do not hold that card")
            if kind == "commit":
                raise base.IllegalAction("you took that card back in this reveal: commit another one")
            gem = a_gem(state["gem"]["colour"])
            raise base.IllegalAction(
                base.say("the gem in the centre is {gem}: play a card of its colour or a fake", gem=gem)
            )
        colour = action.get("colour")
        if (kind, phase) == ("choose_gem", "choose_gem") and colour in COLOURS:
            if action.get("source") == "own":
                base.require(
                    state["gems"][seat][colour] > 0, base.say("you have no {gem} of your own", gem=colour_gem(colour))
                )
            base.require(
                state["supply"][colour] > 0, base.say("no {gem} is left in the supply", gem=colour_gem(colour))
            )

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
        return score.outcome(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        legal = self.legal_actions(state, seat) if seat is not None else []
        return view.view(state, seat, legal, self.to_act(state))

    def randomize_hidden(self, state: State, seat: int | None, r: random.Random) -> State:
        return view.randomize_hidden(state, seat, r)


GAME = TriATri()
ENTRY = GameEntry(
    GAME,
    heuristics="app.bots.triatri",
    presenter="app.web.tables.triatri",
    ratings={"random": 0, "strong": 515, "expert": 617},
    styles=("/static/css/triatri.css",),
    pieces=(".tt-card", ".gem-count", ".supply-line"),
)
