"""Named opponents: players with a style each, at graded strengths.

The levels (``random`` ... ``expert``) are engines; a person wants an opponent.  Each
:class:`Opponent` is one of those engines with a :class:`Style`: how much it exchanges
(cautious, by the book, bold), whether it sinks holdings to hide its guards, how it leads,
and, for the weaker ones, the mistakes beginners make, each with its chance:

- **a careless discard**: the cards thrown are chosen roughly, keeping cards a player
  should throw (and sometimes taking in fewer than he may);
- **a forgotten declaration**: a holding is passed instead of declared;
- **leading away from guards**: the lead is a small card from a suit that guards a king
  or a queen, leaving the court card bare.

Every opponent is registered as a level (:func:`piquet.players.base.register_level`), so it
is played wherever a level is: ``piquet play --opponent nell``, the browser's new-game
form, ``piquet tournament``, ``piquet ladder``.  The chances are drawn from a generator
seeded by the player's seed and the decision's position, so a decision repeats whether the
player is kept for a whole match (the terminal, the tournaments) or made afresh for each
decision (the browser).  Their strengths, measured: docs/strength.md, "Named opponents".
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Final

from piquet.core.actions import PLAY, Action, Declare, Pass, Play
from piquet.core.cards import SUIT_MASKS
from piquet.core.deal import Phase
from piquet.core.declarations import DeclClass
from piquet.core.errors import PiquetError
from piquet.core.match import MatchView
from piquet.core.rules import Rules
from piquet.core.view import DealView
from piquet.levels import OPPONENT_WORDS
from piquet.players.base import Player, register_level
from piquet.players.book import BookPlayer, book_lead, guards_a_court, opponent_possible
from piquet.players.common import (
    book_discard,
    card_values,
    discard_action,
    my_turn,
    rules_of,
    situation,
    truthful_declaration,
)

__all__ = [
    "OPPONENTS",
    "Engine",
    "ExchangeStyle",
    "LeadStyle",
    "Opponent",
    "Style",
    "StyledPlayer",
    "away_lead",
    "long_lead",
    "opponent",
    "sink_low_trio",
    "style_discard",
]


class ExchangeStyle(enum.Enum):
    """How many cards a player takes in."""

    CAUTIOUS = "cautious"
    """One card fewer than the book takes, where the rules allow: keeps a guard or a high
    card rather than draw for a better hand."""
    BOOK = "book"
    """As the book: all he may, unless his worst cards are good ones (Rules III, XIV)."""
    BOLD = "bold"
    """Always all he may, breaking up guards and small holdings to draw for more."""


class LeadStyle(enum.Enum):
    """How a player leads (the engines that search choose their leads themselves)."""

    MASTERS = "masters"
    """The book: masters first (the shorter suit first), else low from a suit that
    guards nothing."""
    LONG = "long"
    """Presses his longest suit, leading its highest card, to win the cards."""
    AWAY = "away"
    """A beginner's habit: a small card from a suit that guards a king or a queen."""


class Engine(enum.Enum):
    """The level that makes every decision the style leaves to it."""

    BOOK = "book"
    CLUB = "club"
    EXPERT = "expert"


@dataclass(frozen=True, slots=True, kw_only=True)
class Style:
    """What sets a player apart: see the module docstring."""

    exchange: ExchangeStyle = ExchangeStyle.BOOK
    sinks: bool = False
    """Sinks holdings that would tell the other where its guards are (Rule XII, as elder
    too); a search engine sinks when its simulation says the points given up are under a
    point a deal.  Without it the declarations are truthful."""
    lead: LeadStyle = LeadStyle.MASTERS
    careless: float = 0.0
    """The chance that a discard is chosen carelessly."""
    forgets: float = 0.0
    """The chance that a holding is passed instead of declared."""

    def __post_init__(self) -> None:
        for name in ("careless", "forgets"):
            p = getattr(self, name)
            if not (isinstance(p, float | int) and 0.0 <= p <= 1.0):
                raise PiquetError(f"{name} must be a chance between 0 and 1, not {p!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Opponent:
    """A named opponent: a level name, the words a newcomer reads, an engine and a style."""

    name: str
    """The level's name (``nell``), as ``make_player`` and the command line take it."""
    title: str
    """How the table names it (``Nell``)."""
    strength: str
    """Its strength in a word or two (``beginner``)."""
    about: str
    """One line on how it plays, for someone who has never played Piquet."""
    engine: Engine
    style: Style
    place: float
    """Where it stands among the levels, weakest first (``random`` is 0, ``book`` 1, ...,
    ``expert`` 4)."""

    @property
    def note(self) -> str:
        """The line the interfaces show beside the name."""
        return f"{self.title}, {self.strength}: {self.about}"


def _words(name: str) -> dict[str, str]:
    """Its title, strength and line, from the light list of levels (one copy of the words)."""
    title, strength, about = OPPONENT_WORDS[name]
    return {"title": title, "strength": strength, "about": about}


#: The named opponents, weakest first, as designed (measured: docs/strength.md).
OPPONENTS: Final[tuple[Opponent, ...]] = (
    Opponent(
        name="nell", **_words("nell"),
        engine=Engine.BOOK,
        style=Style(lead=LeadStyle.AWAY, careless=0.6, forgets=0.4),
        place=0.5,
    ),
    Opponent(
        name="toby", **_words("toby"),
        engine=Engine.BOOK,
        style=Style(exchange=ExchangeStyle.CAUTIOUS, careless=0.15, forgets=0.1),
        place=0.8,
    ),
    Opponent(
        name="kitty", **_words("kitty"),
        engine=Engine.BOOK,
        style=Style(exchange=ExchangeStyle.BOLD, sinks=True, lead=LeadStyle.LONG),
        place=1.2,
    ),
    Opponent(
        name="colonel", **_words("colonel"),
        engine=Engine.CLUB,
        style=Style(),
        place=1.8,
    ),
    Opponent(
        name="hoyle", **_words("hoyle"),
        engine=Engine.EXPERT,
        style=Style(sinks=True),
        place=4.5,
    ),
)

_BY_NAME: Final = {o.name: o for o in OPPONENTS}


def opponent(name: str) -> Opponent:
    """The named opponent ``name``; raises :class:`PiquetError` naming them."""
    found = _BY_NAME.get(name.strip().lower())
    if found is None:
        raise PiquetError(
            f"no opponent called {name!r}; the named opponents are: {', '.join(_BY_NAME)}")
    return found


# ------------------------------------------------------------------ the player
class StyledPlayer:
    """A named opponent at the table: its engine, with its style on top.

    The style decides the exchange (unless it is the book's and careful, and the engine
    searches), the declarations (sinking, forgetting) and, for the book's engine, the
    leads; everything else is the engine's.
    """

    def __init__(self, who: Opponent, seed: int = 0, think_ms: int | None = None) -> None:
        self.opponent = who
        self.name = who.name
        self.seed = seed
        self.engine = _engine(who, seed, think_ms)

    def choose(self, view: MatchView) -> Action:
        """The opponent's action; raises IllegalActionError when it is not its turn."""
        deal = my_turn(view)
        rules = rules_of(view)
        style = self.opponent.style
        rng = self._rng(view, deal)
        phase = deal.phase
        if phase is Phase.EXCHANGE and (
            self.opponent.engine is Engine.BOOK
            or style.exchange is not ExchangeStyle.BOOK
            or style.careless > 0
        ):
            assert deal.discard_range is not None
            lo, hi = deal.discard_range
            lead = situation(view, rules).lead
            return discard_action(style_discard(
                deal.hand.mask, lo, hi, rules, role=int(deal.role), lead=lead,
                exchange=style.exchange,
                careless=rng if rng.random() < style.careless else None))
        if phase is Phase.DECLARE:
            return self._declare(view, deal, rules, rng)
        if (phase is Phase.PLAY and self.opponent.engine is Engine.BOOK
                and deal.trick_lead is None):
            return PLAY[self._lead(deal, rules)]
        return self.engine.choose(view)

    def _rng(self, view: MatchView, deal: DealView) -> random.Random:
        """A generator for this decision alone, from the seed and where the match stands."""
        key = (f"{self.seed}:{view.game_number}:{view.deal_number}:{deal.phase.value}:"
               f"{deal.hand.mask}:{len(deal.dialog)}:{len(deal.tricks)}:{deal.trick_lead}")
        return random.Random(key)

    def _declare(self, view: MatchView, deal: DealView, rules: Rules,
                 rng: random.Random) -> Action:
        style = self.opponent.style
        if self.opponent.engine is Engine.BOOK:
            choice = truthful_declaration(deal, rules)
            if style.sinks:
                choice = sink_low_trio(deal, choice)
        else:
            choice = self.engine.choose(view)
        legal = deal.legal_actions
        if isinstance(choice, Declare) and Pass() in legal and rng.random() < style.forgets:
            return Pass()
        return choice

    def _lead(self, deal: DealView, rules: Rules) -> int:
        legal = [a.card.index for a in deal.legal_actions if isinstance(a, Play)]
        hand = deal.hand.mask
        lead = self.opponent.style.lead
        if lead is LeadStyle.AWAY:
            return away_lead(legal, hand)
        if lead is LeadStyle.LONG:
            return long_lead(legal, hand)
        return book_lead(legal, hand, opponent_possible(deal, rules),
                         deal.tricks_won[deal.role])


def _engine(who: Opponent, seed: int, think_ms: int | None) -> Player:
    if who.engine is Engine.BOOK:
        return BookPlayer(seed)
    if who.engine is Engine.CLUB:
        from piquet.players.search import SearchPlayer

        return SearchPlayer(seed, think_ms, level="club")
    from piquet.players.expert import ExpertPlayer

    return ExpertPlayer(seed, think_ms, sink_allowance=1.0 if who.style.sinks else None,
                        name=who.name)


# ------------------------------------------------------------------ the style's choices
def style_discard(
    hand: int,
    lo: int,
    hi: int,
    rules: Rules,
    *,
    role: int,
    lead: int = 0,
    exchange: ExchangeStyle = ExchangeStyle.BOOK,
    careless: random.Random | None = None,
) -> int:
    """The discard (a mask of ``lo`` to ``hi`` cards) of a style.

    The cards thrown are the least useful by the book's judgement (:func:`card_values`);
    how many is the style's (:class:`ExchangeStyle`).  ``careless`` (a generator) makes it
    a beginner's discard: each card's worth is misjudged by a few points, and the number
    taken is anything allowed.
    """
    k = book_discard(hand, lo, hi, rules, role=role, lead=lead).bit_count()
    if exchange is ExchangeStyle.BOLD:
        k = hi
    elif exchange is ExchangeStyle.CAUTIOUS:
        k = max(lo, min(k, hi - 1))
    values = card_values(hand, rules, role=role, lead=lead)
    if careless is not None:
        values = {c: v + careless.gauss(0.0, 4.0) for c, v in values.items()}
        k = careless.randint(lo, hi)
    order = sorted(values, key=lambda c: (values[c], c))
    return sum(1 << c for c in order[:k])


def away_lead(legal: list[int], hand: int) -> int:
    """A beginner's lead: the smallest card of a suit where it guards a king or a queen
    (leaving the court card bare), else the smallest card it holds."""
    def guards(card: int) -> bool:
        s, r = divmod(card, 9)
        suit = hand >> (9 * s) & 0x1FF
        court = suit >> 7 & 1 or suit >> 6 & 1
        return bool(court) and r < 6

    guarding = [c for c in legal if guards(c)]
    return min(guarding or legal, key=lambda c: (c % 9, c))


def long_lead(legal: list[int], hand: int) -> int:
    """A bold lead: the highest card of the longest suit (the higher suit of equal ones)."""
    def length(card: int) -> int:
        return (hand & SUIT_MASKS[card // 9]).bit_count()

    return max(legal, key=lambda c: (length(c), (hand >> (9 * (c // 9))) & 0x1FF, c % 9))


def sink_low_trio(deal: DealView, choice: Action) -> Action:
    """Rule XII for either hand: a trio of queens, knaves or tens (or lower) is not called
    when one of its cards is the only guard of a king or a queen ("which his Adversary may
    imagine is a Guard")."""
    if not (isinstance(choice, Declare) and choice.cls is DeclClass.SET
            and Pass() in deal.legal_actions and choice.cards.mask.bit_count() == 3):
        return choice
    if int(next(iter(choice.cards)).rank) > 12:
        return choice
    if guards_a_court(deal.hand.mask, choice.cards):
        return Pass()
    return choice


def _register(who: Opponent) -> None:
    register_level(who.name, lambda seed, think_ms: StyledPlayer(who, seed, think_ms),
                   place=who.place)


for _who in OPPONENTS:
    _register(_who)
