"""The shapes of Vem aí a Troika's actions and views, as typed definitions.

These document what the engine takes and shows (the package docstring tells what each part
means), and the API publishes them as JSON Schema (``app.api.contract``): each action type is
one ``TypedDict`` whose ``type`` names it, and the view one ``TypedDict`` per part (the keys
marked ``NotRequired`` appear in the advanced game only, but ``seed``). tests/test_contract.py
checks every view of whole games against them, so they cannot drift from the engine. Card ids
are indexes into the deck's lists.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

Colour = Literal["gold", "blue", "red", "grey"]
Mode = Literal["control", "discard"]  # an attack's


class ChooseLeader(TypedDict):
    type: Literal["choose_leader"]
    leader: int


class Draw(TypedDict):
    """A turn's draw, or a "draw 1 Group or 2 Mega-Euro" reward."""

    type: Literal["draw"]
    what: Literal["group", "money"]


class Decline(TypedDict):
    """Advanced game: draw nothing (the supporter of an attack's winning side may)."""

    type: Literal["decline"]


class Place(TypedDict):
    """Place a Group card of your hand; ``take``: the card it takes control of, if any."""

    type: Literal["place"]
    card: int
    take: NotRequired[int]
    column: NotRequired[int]  # advanced game: the column it joins


class Replace(TypedDict):
    type: Literal["replace"]
    card: int


class Stop(TypedDict):
    """End Organization after one move, or stop adding cards in an attack."""

    type: Literal["stop"]


class Income(TypedDict):
    type: Literal["income"]
    titles: int
    offshore: int


class VemPass(TypedDict):
    type: Literal["pass"]


class Attack(TypedDict):
    type: Literal["attack"]
    target: int
    mode: Mode
    cards: list[int]  # at most a few distinct ids of your hand
    actions: NotRequired[list[int]]  # advanced game: cards played for their Hand Action


class Add(TypedDict):
    """Add cards of your hand to an attack or a defence."""

    type: Literal["add"]
    cards: list[int]
    actions: NotRequired[list[int]]  # advanced game: cards played for their Hand Action


class Campaign(TypedDict):
    type: Literal["campaign"]
    cards: list[int]
    money: int


class DiscardCard(TypedDict):
    type: Literal["discard"]
    card: int


class DiscardMoney(TypedDict):
    type: Literal["discard_money"]


class Take(TypedDict):
    """Take a card back into your hand (a won attack made a fifth card of a Family)."""

    type: Literal["take"]
    card: int


class Picks(TypedDict):
    """The choices a Hand or Table Action needs, if it needs them (``card_actions.py``)."""

    opponent: NotRequired[int]
    mine: NotRequired[int]
    theirs: NotRequired[int]
    group: NotRequired[int]
    candidate: NotRequired[int]


class TakeBack(TypedDict):
    """Advanced game: an Organization move taking a card of your table back into your hand."""

    type: Literal["take_back"]
    card: int


class HandAction(Picks):
    """Advanced game: play a card of your hand for its Hand Action."""

    type: Literal["hand_action"]
    card: int


class TableAction(Picks):
    """Advanced game: use your Leader's Table Action."""

    type: Literal["table_action"]


class Support(TypedDict):
    type: Literal["support"]
    side: Literal["attack", "defence"]
    card: int


class NoSupport(TypedDict):
    type: Literal["no_support"]


class React(TypedDict):
    """Advanced game: cancel a card just played with a card of your hand."""

    type: Literal["react"]
    card: int
    cancel: int


class NoReaction(TypedDict):
    type: Literal["no_reaction"]
    round: bool  # don't ask again this round


class Precampaign(Picks):
    type: Literal["precampaign"]
    card: int


class PrecampaignDone(TypedDict):
    type: Literal["precampaign_done"]


class Choose(TypedDict):
    """Answer a pay-or-fall prompt."""

    type: Literal["choose"]
    yes: bool


VemAction = (
    ChooseLeader
    | Draw
    | Decline
    | Place
    | Replace
    | Stop
    | Income
    | VemPass
    | Attack
    | Add
    | Campaign
    | DiscardCard
    | DiscardMoney
    | Take
    | TakeBack
    | HandAction
    | TableAction
    | Support
    | NoSupport
    | React
    | NoReaction
    | Precampaign
    | PrecampaignDone
    | Choose
)


class Figures(TypedDict):
    power: int
    votes: int
    income: int


class GroupCard(TypedDict):
    id: int
    name: str
    gloss: str
    colour: Colour
    type: str | None  # marginal, spiritual, financial, ... (the deck schema's group types)
    power: int
    votes: int
    income: int
    variable: NotRequired[str]  # which figures vary, and how, in words
    variable_said: NotRequired[str | None]  # the same as a message, in JSON text (None: none)
    hand_when: NotRequired[str]  # its Hand Action: when it may be played
    hand_text: NotRequired[str]  # what it does, in words
    hand_said: NotRequired[str | None]  # the same as a message ({msg, args}), in JSON text
    hand_first: NotRequired[bool]  # only in an attack's opening
    hand_discard_only: NotRequired[bool]  # only in an attack to discard
    hand_reconstructed: NotRequired[bool]  # the rulebook prints none: ours (ruling V1)
    now_power: NotRequired[int]  # for its controller or holder: its figures as they count now
    now_votes: NotRequired[int]
    now_income: NotRequired[int]


class FamilyCard(GroupCard):
    defence: int  # its current defence


class LeaderCard(TypedDict):
    id: int
    name: str
    gloss: str
    colour: Colour
    power: int
    votes: int
    income: int
    bonus: bool
    variable: NotRequired[str]
    variable_said: NotRequired[str | None]
    table_action_name: NotRequired[str]  # its Table Action
    table_action_when: NotRequired[str]
    table_action_cost: NotRequired[int]
    table_action_text: NotRequired[str]
    table_action_said: NotRequired[str | None]  # the same as a message ({msg, args}), in JSON text


class EventCard(TypedDict):
    id: int
    name: str
    gloss: str
    points: int
    text: str
    said: dict[str, Any]  # the text as a message: {msg, args}


class GovernmentCard(EventCard):
    face_up: bool


class Families(TypedDict):
    gold: list[FamilyCard]
    blue: list[FamilyCard]
    red: list[FamilyCard]
    grey: list[FamilyCard]


class Columns(TypedDict):
    gold: list[list[FamilyCard]]
    blue: list[list[FamilyCard]]
    red: list[list[FamilyCard]]
    grey: list[list[FamilyCard]]


class CampaignSize(TypedDict):
    cards: int
    money: int


class VemPlayer(TypedDict):
    seat: int
    leader: LeaderCard | None  # once revealed
    leader_chosen: bool
    families: Families
    columns: Columns  # each Family's cards by column
    titles: list[int]  # Offshore Title values
    offshore_money: int
    government: bool
    government_cards: list[GovernmentCard]
    hand_count: int  # Group cards and Mega-Euro
    money: int  # Mega-Euro in hand: every money move is public
    committed: bool  # to a campaign
    campaign_size: CampaignSize | None  # the numbers committed
    power: int
    votes: int
    income: int
    consensus: int
    score_now: int  # the final scoring's total if the game ended now (all of it is public)
    leader_value: NotRequired[Figures]
    sideways: NotRequired[bool]
    neutral: NotRequired[Literal["turn", "round"] | None]
    precampaign_count: NotRequired[int]
    precampaign_done: NotRequired[bool]
    election_votes: NotRequired[int]  # while campaigns are committed: the Votes on the table this Election counts


class AttackState(TypedDict):
    attacker: int
    defender: int
    mode: Mode
    target: GroupCard
    attack_cards: list[GroupCard]
    defence_cards: list[GroupCard]
    attack_total: int
    defence_total: int
    answered: bool  # the defender has played (its first answer, of any number of cards, is behind it)
    awaiting: int | None  # None while a reaction window is open
    actions: NotRequired[list[int]]
    cancelled: NotRequired[list[int]]  # of the actions, those a reaction cancelled
    phase: NotRequired[Literal["actions", "support", "exchange"]]
    supporters: NotRequired[list[int]]  # seats still to declare a support
    support: NotRequired[list[dict[str, Any]]]  # [{seat, side, card}]


class CampaignCards(TypedDict):
    cards: list[GroupCard]
    money: int


class Election(TypedDict):
    votes: list[int]  # per seat
    table_votes: list[int]
    campaigns: list[CampaignCards]
    winner: int | None
    tied: list[int]
    second: int | None


class VemScore(TypedDict):
    seat: int
    consensuses: int
    power: int
    consensus: int
    governments: int
    titles: int
    money: int
    total: int
    winner: bool


class VemResult(TypedDict):
    players: list[VemScore]
    winners: list[int]
    ranking: list[int]
    places: list[int]


class ReactionPlay(TypedDict):
    """A card played in an open reaction window, and by whom."""

    seat: int
    card: GroupCard


class Reaction(TypedDict):
    """An open reaction window: the seats it asks and the cards it answers (never who answered)."""

    seats: list[int]
    plays: list[ReactionPlay]


class VoteControl(TypedDict):
    group: GroupCard
    candidate: int


class PrecampaignCard(TypedDict):
    """A card laid face down in the Pre-Campaign, with the choices its Hand Action will take."""

    card: GroupCard
    picks: dict[str, int]


class Payable(TypedDict):
    income: int  # Income taken without buying Deposit Titles, as far as the Treasury goes
    draw: int  # the Mega-Euro of a draw (2, as far as the Treasury goes)


class VemView(TypedDict):
    """What one seat (None: a spectator) sees of a Vem aí a Troika game."""

    phase: Literal["leaders", "turn", "event", "elections", "over"]
    step: str  # the stage, or the kind of the prompt awaited
    round: int
    first: int
    current: int | None
    campaign_order: list[int] | None
    awaiting: list[int]
    prompt: dict[str, Any] | None  # {"kind", "seat", ...}: the awaited prompt
    organization_moves: int
    players: list[VemPlayer]
    treasury: int
    titles: list[int]  # the Deposit Title pile, top first
    events_left: int
    last_event: EventCard | None
    event: EventCard | None
    group_pile: int
    discards: list[GroupCard]
    government: int | None
    attack: AttackState | None
    election: Election | None
    end_reason: Literal["troika", "bankruptcy"] | None
    result: VemResult | None
    advanced: bool  # the advanced rules
    reaction: Reaction | None
    vote_control: list[VoteControl]
    seed: NotRequired[str]  # once the game is over
    you: int | None
    hand: list[GroupCard]
    leader_offer: list[LeaderCard]
    leader_choice: int | None  # the viewer's secret choice while Leaders are chosen
    campaign: CampaignCards | None  # the viewer's own commitment
    pays: Payable | None  # what the Treasury would pay the viewer now (None: a spectator)
    precampaign: NotRequired[list[PrecampaignCard]]
    reaction_answered: NotRequired[bool]
    opted_out: NotRequired[bool]
