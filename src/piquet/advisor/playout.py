"""Playing a discard out: one whole deal through the engine, the strongest play both sides.

Nothing here counts a point: the deal is a :class:`~piquet.core.deal.Deal`, every
action goes through :meth:`Deal.apply`, and the score is the engine's tally
(carte blanche, the declarations, pique and repique, the play, the cards,
capot, and the end of a game in the middle of a deal).

Who does what, from the exchange on:

- the player lays out the discard being tested;
- the other exchanges as an :class:`Exchanger` decides: by default the
  ``expert`` level (:class:`~piquet.players.expert.ExpertPlayer`, which weighs
  its candidate discards by simulated outcome from its own view, in worlds kept
  by its beliefs about how the player exchanged), or the book
  (:func:`~piquet.players.common.book_discard`, the ``club`` level's exchange);
- both declare all they hold and answer truthfully (the ``club`` level);
- the cards are played by the double-dummy solver (:mod:`piquet.fast.solver`):
  each card is the exact best with every card known.  This is the strongest
  card play there is for both sides alike; it is open-handed, so it is what
  the hands are worth when both play their cards perfectly.  With ``score``,
  the solver plays for the game (reaching the target first), not the points.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from piquet.advisor.deals import ELDER, Setup, World
from piquet.core.actions import PLAY, Action, AnnounceBlanche, DealBy, Discard, Play
from piquet.core.cards import CardSet, mask_cards
from piquet.core.deal import Deal, Phase
from piquet.core.match import MatchView, Player
from piquet.core.roles import Role
from piquet.core.rules import Format, Rules
from piquet.core.scoring import HAND_KINDS, Kind
from piquet.core.view import deal_view
from piquet.fast.solver import Objective, Solver, objective_for, play_state
from piquet.players.book import book_action
from piquet.players.common import book_discard, truthful_declaration
from piquet.players.expert import ExpertPlayer

__all__ = [
    "BookExchange",
    "ExpertExchange",
    "Exchanger",
    "Outcome",
    "Table",
    "match_view",
    "play_out",
]

#: the expert's thinking budget for the other's exchange (ms of its nominal budget)
DEFAULT_THINK_MS = 60


class Exchanger(Protocol):
    """How the other lays out (and announces carte blanche): an action for his view."""

    name: str

    def choose(self, view: MatchView) -> Action: ...


class BookExchange:
    """The book's exchange (:func:`~piquet.players.common.book_discard`, as ``club`` plays)."""

    name = "book"

    def choose(self, view: MatchView) -> Action:
        assert view.deal is not None
        return book_action(view.deal, view.rule_set)


class ExpertExchange:
    """The ``expert`` level's exchange (:class:`~piquet.players.expert.ExpertPlayer`, as
    ``make_player("expert")`` makes it) at a thinking budget of ``think_ms``, one thread
    (the deals are shared between processes instead)."""

    def __init__(self, seed: int = 0, think_ms: int = DEFAULT_THINK_MS) -> None:
        self.name = f"expert ({think_ms} ms)"
        self.think_ms = think_ms
        self.player = ExpertPlayer(seed, think_ms, threads=1)

    def choose(self, view: MatchView) -> Action:
        return self.player.choose(view)


def exchanger(name: str, *, seed: int = 0, think_ms: int = DEFAULT_THINK_MS) -> Exchanger:
    """The exchanger called ``name`` (``expert`` or ``book``)."""
    if name == "book":
        return BookExchange()
    if name == "expert":
        return ExpertExchange(seed, think_ms)
    raise ValueError(f"unknown exchanger {name!r}: expert or book")


def match_view(deal: Deal, role: int, start: tuple[int, int] = (0, 0)) -> MatchView:
    """A seat's view of a lone deal, as a player sees it in a game (players 0/1 = roles).

    ``start`` is the game score of (elder, younger) before the deal.
    """
    rules = deal.rules
    return MatchView(
        player=role,
        rules=rules.name,
        rule_set=rules,
        format=Format.GAME,
        seed_public=False,
        players=(0, 1),
        names=("elder", "younger"),
        in_game=(0, 1),
        dealer=1,
        role=Role(role),
        scores=start,
        game_number=1,
        deal_number=1,
        deals=(),
        games=(),
        deal=deal_view(deal, role),
        to_act=None if deal.to_act is None else Player(deal.to_act),  # player i holds role i
        finished=False,
        ledger=(),
        pool=0,
    )


def stacked_deck(setup: Setup, world: World) -> list[int]:
    """The pack order (top first) that deals this hand, the world's other hand and stock."""
    size = setup.rules.packet_sizes[0]
    hands = [world.opp_dealt, world.opp_dealt]
    hands[setup.role] = setup.hand
    e, y = mask_cards(hands[0]), mask_cards(hands[1])
    deck: list[int] = []
    while e or y:
        deck += e[:size] + y[:size]
        e, y = e[size:], y[size:]
    deck.extend(world.stock)
    return deck


@dataclass(frozen=True, slots=True)
class Outcome:
    """One deal played out: the engine's totals of (elder, younger) and what made them."""

    totals: tuple[int, int]
    """Points each counted in the deal (with the solver's value of the play, split as
    elder's gain when the play is valued rather than played card by card)."""
    hand_points: tuple[int, int]
    """Carte blanche, point, sequences, sets (and a repique they made) of each."""
    reached: int | None
    """The role that reached the game's target (the deal stopped there), if any."""
    opp_discard: int
    """What the other laid out."""

    def net(self, role: int) -> int:
        return self.totals[role] - self.totals[1 - role]


@dataclass
class Table:
    """What a run of play-outs keeps between deals: solvers, and the other's exchanges.

    The other's exchange depends on the world and on how many cards the
    player laid out (it shows in the stock), so it is chosen once per pair.
    """

    rules: Rules
    opponent: Exchanger
    solvers: dict[Objective, Solver] = field(default_factory=dict)
    exchanges: dict[tuple[int, int, bool], Action] = field(default_factory=dict)

    def solver(self, objective: Objective) -> Solver:
        s = self.solvers.get(objective)
        if s is None:
            if len(self.solvers) > 4:
                self.solvers.clear()
            s = self.solvers[objective] = Solver(self.rules, objective)
        return s


def play_out(
    setup: Setup,
    discard: int,
    world: World,
    table: Table,
    *,
    world_id: int,
    score: tuple[int, int] | None = None,
) -> Outcome:
    """Play one deal through the engine: this discard, this world (see the module docstring).

    ``score`` is (mine, his) in the game before the deal: the deal then stops
    at the target and the solver plays for the game.
    """
    rules = setup.rules
    me = setup.role
    start = (0, 0)
    target = None
    if score is not None:
        s = [0, 0]
        s[me], s[1 - me] = score
        start = (s[0], s[1])
        target = rules.target
    d = Deal.new(rules, stacked_deck(setup, world), start=start, target=target)
    objective = objective_for(rules, start=start, target=d.target)
    solver = table.solver(objective)
    k = discard.bit_count()
    opp_discard = 0
    while not d.is_over:
        seat = d.to_act
        assert seat is not None
        phase = d.phase
        action: Action
        if phase is Phase.PLAY:
            state = play_state(d)
            if (
                score is None
                and not d.deferred
                and (d.tricks or d.lead_rule is None)
                and (d.tricks or d.trick_lead is not None or not rules.younger_declares_after_lead)
            ):
                # nothing else can be declared and any card is free: the exact value of the
                # play settles it (the same as playing it card by card; with younger
                # declaring after the lead, from his answer to elder's first card on)
                value = solver.value(state)
                assert value is not None
                t = d.scores
                return Outcome((t[0] + value, t[1]), _hand_points(d), None, opp_discard)
            legal = [a.card.index for a in d.legal_actions() if isinstance(a, Play)]
            values = solver.move_values(state)
            action = PLAY[max(legal, key=lambda c: (values.get(c, -(10**9)), -c))]
        elif phase is Phase.DEAL:
            action = DealBy(rules.packet_sizes[0])
        elif phase is Phase.DECLARE:
            action = truthful_declaration(deal_view(d, seat), rules)
        elif seat == me and phase is Phase.BLANCHE:
            action = AnnounceBlanche(k)
        elif seat == me and phase is Phase.EXCHANGE:
            action = Discard(CardSet(discard))
        elif phase in (Phase.EXCHANGE, Phase.BLANCHE):
            key = (world_id, k if me == ELDER else -1, phase is Phase.BLANCHE)
            found = table.exchanges.get(key)
            if found is None:
                found = table.opponent.choose(match_view(d, seat, start))
                if me != ELDER:
                    found = _elder_takes(found, d, setup)
                table.exchanges[key] = found
            action = found
            if isinstance(action, Discard):
                opp_discard = action.cards.mask
        else:
            action = book_action(deal_view(d, seat), rules)
        d = d.apply(action)
    return Outcome(d.scores, _hand_points(d), d.tally.reached, opp_discard)


def _elder_takes(action: Action, d: Deal, setup: Setup) -> Action:
    """Elder's exchange when the question says how many he took (younger was left
    ``stock``): his own choice if it is that many, else the book's discard of that many."""
    n = setup.elder_takes
    if isinstance(action, Discard) and action.cards.mask.bit_count() != n:
        return Discard(CardSet(book_discard(d.hands[ELDER], n, n, setup.rules, role=ELDER)))
    if isinstance(action, AnnounceBlanche) and action.discards != n:
        return AnnounceBlanche(n)
    return action


def _hand_points(d: Deal) -> tuple[int, int]:
    hand = [0, 0]
    for ev in d.tally.events:
        if ev.kind in HAND_KINDS or ev.kind is Kind.REPIQUE:
            hand[ev.role] += ev.points
    return hand[0], hand[1]
