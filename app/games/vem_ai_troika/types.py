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


class MessageJSON(TypedDict):
    """A text as a message, for a reader of another language: the English text with
    ``{name}`` placeholders (its id in the catalogs) and the values to put in them."""

    msg: str
    args: dict[str, Any]


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
    column: NotRequired[int]
    """Advanced game: the column it joins."""


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
    cards: list[int]
    """At most a few distinct ids of your hand."""
    actions: NotRequired[list[int]]
    """Advanced game: cards played for their Hand Action."""


class Add(TypedDict):
    """Add cards of your hand to an attack or a defence."""

    type: Literal["add"]
    cards: list[int]
    actions: NotRequired[list[int]]
    """Advanced game: cards played for their Hand Action."""


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
    round: bool
    """Don't ask again this round."""


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
    type: str | None
    """Marginal, spiritual, financial, ... (the deck schema's group types)."""
    power: int
    votes: int
    income: int
    variable: NotRequired[str]
    """Which figures vary, and how, in words."""
    variable_said: NotRequired[str | None]
    """The same as a message ({msg, args}, as in an Event's ``said``), in JSON text: a card view stays flat."""
    hand_when: NotRequired[str]
    """Its Hand Action: when it may be played."""
    hand_text: NotRequired[str]
    """What it does, in words."""
    hand_said: NotRequired[str | None]
    """The same as a message ({msg, args}, as in an Event's ``said``), in JSON text: a card view stays flat."""
    hand_first: NotRequired[bool]
    """Only in an attack's opening."""
    hand_discard_only: NotRequired[bool]
    """Only in an attack to discard."""
    hand_reconstructed: NotRequired[bool]
    """The rulebook prints none: ours (ruling V1)."""
    now_power: NotRequired[int]
    """For its controller or holder: its figures as they count now."""
    now_votes: NotRequired[int]
    now_income: NotRequired[int]


class FamilyCard(GroupCard):
    defence: int
    """Its current defence."""


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
    table_action_name: NotRequired[str]
    """Its Table Action."""
    table_action_when: NotRequired[str]
    table_action_cost: NotRequired[int]
    table_action_text: NotRequired[str]
    table_action_said: NotRequired[str | None]
    """The same as a message ({msg, args}, as in an Event's ``said``), in JSON text: a card view stays flat."""


class EventCard(TypedDict):
    id: int
    name: str
    gloss: str
    points: int
    text: str
    said: MessageJSON
    """The text as a message."""


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
    leader: LeaderCard | None
    """Once revealed."""
    leader_chosen: bool
    """It has chosen its Leader (while Leaders are chosen, in secret)."""
    families: Families
    """The Group cards it controls, by colour (a Family), each with its defence."""
    columns: Columns
    """Each Family's cards by column."""
    titles: list[int]
    """Offshore Title values."""
    offshore_money: int
    """Mega-Euro in its Offshore."""
    government: bool
    """It holds the Government."""
    government_cards: list[GovernmentCard]
    """The Government Event cards it has won."""
    hand_count: int
    """Group cards and Mega-Euro."""
    money: int
    """Mega-Euro in hand: every money move is public."""
    committed: bool
    """To a campaign."""
    campaign_size: CampaignSize | None
    """The numbers committed."""
    power: int
    """Its Power on the table, as it counts now."""
    votes: int
    """Its Votes on the table, as they count now."""
    income: int
    """Its Income, as it counts now."""
    consensus: int
    """Its Consensuses: complete sets of one Group of each colour."""
    score_now: int
    """The final scoring's total if the game ended now (all of it is public)."""
    leader_value: NotRequired[Figures]
    """Its Leader's figures as they count now."""
    sideways: NotRequired[bool]
    """Its Leader is sideways: its Table Action was used this round."""
    neutral: NotRequired[Literal["turn", "round"] | None]
    """Its Leader is neutralised (counts nothing) until the end of this turn or this round; else None."""
    precampaign_count: NotRequired[int]
    """Cards it has laid face down in the Pre-Campaign."""
    precampaign_done: NotRequired[bool]
    """It has finished its Pre-Campaign."""
    election_votes: NotRequired[int]
    """In the Pre-Campaign and while campaigns are committed: the Votes on the table this
    Election counts so far (a Table Action's Votes included)."""


class Supporter(TypedDict):
    """A seat's support of one side of an attack (advanced game), with one card of its hand."""

    seat: int
    side: Literal["attack", "defence"]
    card: GroupCard
    """The card it supports with, face up."""


class AttackState(TypedDict):
    attacker: int
    defender: int
    mode: Mode
    target: GroupCard
    attack_cards: list[GroupCard]
    defence_cards: list[GroupCard]
    attack_total: int
    defence_total: int
    answered: bool
    """The defender has played (its first answer, of any number of cards, is behind it)."""
    awaiting: int | None
    """None while a reaction window is open."""
    actions: NotRequired[list[int]]
    cancelled: NotRequired[list[int]]
    """Of the actions, those a reaction cancelled."""
    phase: NotRequired[Literal["actions", "support", "exchange"]]
    supporters: NotRequired[list[int]]
    """Seats still to declare a support."""
    support: NotRequired[list[Supporter]]
    """The supports declared so far, in order."""


class CampaignCards(TypedDict):
    cards: list[GroupCard]
    money: int


class Election(TypedDict):
    votes: list[int]
    """Per seat."""
    table_votes: list[int]
    """Each seat's Votes on the table."""
    campaigns: list[CampaignCards]
    """Each seat's campaign, revealed."""
    winner: int | None
    """The seat that won, or None."""
    tied: list[int]
    """The seats tied for first (none when one won)."""
    second: int | None
    """The seat that came second, or None."""


class VemScore(TypedDict):
    seat: int
    consensuses: int
    """Its Consensuses (complete colour sets)."""
    power: int
    """Points: its Power on the table."""
    consensus: int
    """Points for its Consensuses: 4, 10 or 18."""
    governments: int
    """Points of the Government cards it won."""
    titles: int
    """Points: its Offshore Titles."""
    money: int
    """Points: half its Mega-Euro, rounded down."""
    total: int
    """The sum of the points."""
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
    """A Group card on the table whose Votes change hands in this Election."""
    candidate: int
    """The seat they count for."""


class PrecampaignCard(TypedDict):
    """A card laid face down in the Pre-Campaign, with the choices its Hand Action will take."""

    card: GroupCard
    picks: dict[str, int]
    """Its Hand Action's choices, by name (a seat, a Group id...)."""


class Payable(TypedDict):
    income: int
    """Income taken without buying Deposit Titles, as far as the Treasury goes."""
    draw: int
    """The Mega-Euro of a draw (2, as far as the Treasury goes)."""


# (a prompt's "from" is a Python keyword: it is declared in this base)
PromptFrom = TypedDict("PromptFrom", {"from": NotRequired[Literal["any", "hand", "table"]]})


class Prompt(PromptFrom):
    """A question a seat must answer before play goes on; each kind has its own keys besides
    ``kind`` and ``seat``."""

    kind: Literal["draw", "discard", "cover", "hand_limit", "overflow", "government_pays", "bring_down"]
    """draw: a Group card or Mega-Euro (``reason``; with ``optional`` it may draw nothing);
    discard: ``count`` Group cards, ``from`` its hand, its table or either; cover: Group cards
    with at least ``amount`` Power, for Mega-Euro it cannot pay; hand_limit: down to the hand
    limit; overflow: a card of its ``colour`` Family back into its hand, after taking control
    of ``keep`` (4 cards a Family); government_pays: the Government pays ``player``
    ``amount`` Mega-Euro or refuses; bring_down: pay ``amount`` Mega-Euro to bring the
    Government down, or not (advanced game)."""
    seat: int
    """The seat that must answer."""
    reason: NotRequired[
        Literal[
            "lost an attack",
            "attacked",
            "supported the winning side",
            "second in the Elections",
            "tied first in the Elections",
            "event",
        ]
    ]
    optional: NotRequired[bool]
    count: NotRequired[int]
    amount: NotRequired[int]
    colour: NotRequired[Colour]
    keep: NotRequired[int]
    player: NotRequired[int]


class VemView(TypedDict):
    """What one seat (None: a spectator) sees of a Vem aí a Troika game."""

    phase: Literal["leaders", "turn", "event", "elections", "over"]
    """leaders: Leaders are chosen; turn: turns are played; event: an Event is resolved; elections:
    campaigns are committed and counted; over: the game has ended."""
    step: str
    """The stage, or the kind of the prompt awaited."""
    round: int
    """The round, from 1."""
    first: int
    """The seat that began this round."""
    current: int | None
    """The seat whose turn it is (None while Leaders are chosen or campaigns committed)."""
    campaign_order: list[int] | None
    """During the campaign, the seats in the order they commit; else None."""
    awaiting: list[int]
    """The seats whose answer is awaited, sorted; while a reaction window is open, every seat it
    asks (the viewer only until it has answered)."""
    prompt: Prompt | None
    """The prompt awaited now, or None."""
    organization_moves: int
    """Organization moves made this turn."""
    players: list[VemPlayer]
    """Every seat, in seat order."""
    treasury: int
    """Mega-Euro in the Treasury."""
    titles: list[int]
    """The Deposit Title pile, top first."""
    events_left: int
    """Cards left in the Event pile."""
    last_event: EventCard | None
    """The last Event revealed and resolved, or None."""
    event: EventCard | None
    """The Event being resolved now, or None."""
    group_pile: int
    """Cards left in the Group pile."""
    discards: list[GroupCard]
    """The discarded Group cards, face up."""
    government: int | None
    """The seat holding the Government, or None."""
    attack: AttackState | None
    """The attack being fought, or None."""
    election: Election | None
    """The last Elections' count, or None."""
    end_reason: Literal["troika", "bankruptcy"] | None
    """Why the game ended: troika (the Event that ends it was revealed) or bankruptcy (the Treasury
    and the Deposit Titles ran out); None while it runs."""
    result: VemResult | None
    """None until the game is over; then the final scores."""
    advanced: bool
    """The advanced rules."""
    reaction: Reaction | None
    """The open reaction window (advanced game), or None."""
    vote_control: list[VoteControl]
    """Votes that count for another candidate in this Election (advanced game)."""
    seed: NotRequired[str]
    """Once the game is over."""
    you: int | None
    """The viewer's seat, or None for a spectator."""
    hand: list[GroupCard]
    """The viewer's Group cards."""
    leader_offer: list[LeaderCard]
    """The two Leaders dealt to the viewer, while Leaders are chosen."""
    leader_choice: int | None
    """The viewer's secret choice while Leaders are chosen."""
    campaign: CampaignCards | None
    """The viewer's own commitment."""
    pays: Payable | None
    """What the Treasury would pay the viewer now (None: a spectator)."""
    precampaign: NotRequired[list[PrecampaignCard]]
    """The viewer's own face-down Pre-Campaign cards (advanced game)."""
    reaction_answered: NotRequired[bool]
    """The viewer has answered the open reaction window."""
    opted_out: NotRequired[bool]
    """The viewer asked not to be offered reactions again this round."""
