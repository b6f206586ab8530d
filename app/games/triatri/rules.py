"""TriATri's rules: the deal, the start reveal, choosing the gem, playing cards and fakes,
the end of a trick, a round and the game, and each action type's rule (``HANDLERS``), which
change a working copy of the state in place."""

from __future__ import annotations

from app.games import base
from app.games.base import Action, State
from app.games.triatri.cards import (
    CARDS,
    COLOURS,
    HAND_SIZE,
    ROUNDS,
    TRICKS_PER_ROUND,
    a_gem,
    card_name,
    colour_gem,
    colour_of,
    deck,
    fixed_value,
    name,
    reveal_strongest,
    strongest,
    the_gem,
)
from app.games.triatri.score import score


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
                "{player} scores {total}. Sets: {sets}, pairs: {pairs}, single gems: {singles} "
                "(worth {single_points}).",
                player=name(seat),
                sets=points["sets"],
                pairs=points["pairs"],
                singles=points["singles"],
                single_points=points["single_points"],
                total=points["total"],
            ),
        )


HANDLERS = {"commit": commit, "choose_gem": choose_gem, "play": play}
