"""The actions a player can take, each an immutable value with a text id.

``str(action)`` is its id (``play:QH``, ``discard:7S 8S``, ``declare:point:AH KH QH``)
and :func:`parse_action` reads an id back, so ``parse_action(str(a)) == a``.
The ids are what the records, the command line and the web API carry.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from piquet.core.cards import Card, CardSet, NamedLead, Suit
from piquet.core.declarations import Claim, DeclClass, claims, shape_of
from piquet.core.errors import ParseError
from piquet.core.rules import Rules

__all__ = [
    "PLAY",
    "Action",
    "AnnounceBlanche",
    "Answer",
    "Appoint",
    "DealBy",
    "Declare",
    "Discard",
    "Leftover",
    "LeftoverChoice",
    "NameLead",
    "Pass",
    "Play",
    "Question",
    "Reply",
    "declare_of",
    "declare_options",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action."""

    def __str__(self) -> str:
        return type(self).__name__.lower()


@dataclass(frozen=True, slots=True)
class DealBy(Action):
    """The dealer deals the cards in packets of ``size``."""

    size: int

    def __str__(self) -> str:
        return f"deal:{self.size}"


@dataclass(frozen=True, slots=True)
class AnnounceBlanche(Action):
    """ "Carte blanche; I shall discard ``discards``."  Binds that number."""

    discards: int

    def __str__(self) -> str:
        return f"blanche:{self.discards}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Lay out ``cards`` and (when the procedure allows) take as many from the stock."""

    cards: CardSet

    def __str__(self) -> str:
        return f"discard:{self.cards}" if self.cards else "discard:-"


@dataclass(frozen=True, slots=True)
class NameLead(Action):
    """Elder names the suit or card he will lead, to see younger's leftovers."""

    suit: Suit | None = None
    card: Card | None = None

    def __str__(self) -> str:
        return f"name:{self.card if self.card is not None else self.suit}"

    @property
    def lead(self) -> NamedLead:
        """The card or suit, as the one value of a named lead."""
        return NamedLead(card=self.card, suit=None if self.card is not None else self.suit)


@dataclass(frozen=True, slots=True)
class Appoint(Action):
    """Younger appoints the suit or card elder must lead (elder named one he lacks)."""

    suit: Suit | None = None
    card: Card | None = None

    def __str__(self) -> str:
        return f"appoint:{self.card if self.card is not None else self.suit}"

    @property
    def lead(self) -> NamedLead:
        """The card or suit, as the one value of a named lead."""
        return NamedLead(card=self.card, suit=None if self.card is not None else self.suit)


class LeftoverChoice(enum.Enum):
    LOOK = "look"
    """Younger looks at (or turns up) the cards he left; elder names nothing and looks."""
    DECLINE = "decline"
    """Leave the cards unseen."""


@dataclass(frozen=True, slots=True)
class Leftover(Action):
    """Younger's choice about the stock cards he left (look / turn up, or not)."""

    choice: LeftoverChoice

    def __str__(self) -> str:
        return self.choice.value


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Declare a holding: ``cls`` and the exact ``cards`` that will be shown if asked."""

    cls: DeclClass
    cards: CardSet

    def __str__(self) -> str:
        return f"declare:{self.cls.label}:{self.cards}"


_DECLARES: dict[int, Declare] = {}


def declare_of(claim: Claim) -> Declare:
    """The action declaring a claim (one shared value per claim: there are a few thousand)."""
    key = claim.cards << 2 | claim.cls
    found = _DECLARES.get(key)
    if found is None:
        found = _DECLARES[key] = Declare(claim.cls, CardSet(claim.cards))
    return found


_DECLARE_CACHE: dict[int, tuple[Declare, ...]] = {}


def declare_options(mask: int, cls: DeclClass, rules: Rules) -> tuple[Declare, ...]:
    """Every ``Declare`` a hand may make in a class (cached per hand and claim rules)."""
    key = (mask << 8) | (shape_of(rules).id << 2) | cls
    found = _DECLARE_CACHE.get(key)
    if found is None:
        if len(_DECLARE_CACHE) > 4_096:  # small: see declarations._CACHE_LIMIT
            _DECLARE_CACHE.clear()
        found = tuple(declare_of(c) for c in claims(mask, cls, rules))
        _DECLARE_CACHE[key] = found
    return found


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Declare nothing in the current class (sinking whatever one holds)."""

    def __str__(self) -> str:
        return "pass"


class Reply(enum.Enum):
    GOOD = "good"
    NOT_GOOD = "not-good"
    EQUAL = "equal"
    MAKING = "making"
    """Ask "making?" (how many pips) before answering a point counted by cards."""


@dataclass(frozen=True, slots=True)
class Answer(Action):
    """Younger's answer to elder's declaration."""

    reply: Reply

    def __str__(self) -> str:
        return self.reply.value


@dataclass(frozen=True, slots=True)
class Question(Action):
    """Ask which card of a counted trio is missing (``ask=True``), or let it pass."""

    ask: bool

    def __str__(self) -> str:
        return "ask-missing" if self.ask else "no-question"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the trick."""

    card: Card

    def __str__(self) -> str:
        return f"play:{self.card}"


PLAY: Final = tuple(Play(Card.from_index(i)) for i in range(36))
_SIMPLE: Final[dict[str, Action]] = {
    "pass": Pass(),
    "look": Leftover(LeftoverChoice.LOOK),
    "decline": Leftover(LeftoverChoice.DECLINE),
    "ask-missing": Question(True),
    "no-question": Question(False),
    **{r.value: Answer(r) for r in Reply},
}
_CLASSES: Final = {c.label: c for c in DeclClass}
_HELP: Final = (
    "actions are written like play:QH, discard:7S 8S, declare:point:AH KH QH, pass, good, "
    "not-good, equal, making, deal:2, blanche:3, name:H, appoint:QS, look, decline, "
    "ask-missing, no-question"
)


def _suit_or_card(text: str) -> tuple[Suit | None, Card | None]:
    t = text.strip()
    if len(t) == 1 or t.lower() in ("spades", "hearts", "diamonds", "clubs"):
        return Suit.parse(t), None
    return None, Card.parse(t)


def parse_action(text: str) -> Action:
    """Read an action id back into an :class:`Action`.

    Raises :class:`ParseError` saying how actions are written.
    """
    raw = text.strip()
    simple = _SIMPLE.get(raw.lower())
    if simple is not None:
        return simple
    head, sep, rest = raw.partition(":")
    head = head.strip().lower()
    if not sep:
        raise ParseError(f"{text!r} is not an action; {_HELP}")
    try:
        if head == "play":
            if not rest.strip():
                raise ParseError(f"{text!r}: name the card to play, e.g. play:QH")
            return PLAY[Card.parse(rest).index]
        if head == "discard":
            return Discard(CardSet() if rest.strip() == "-" else CardSet.parse(rest))
        if head == "deal":
            return DealBy(int(rest))
        if head == "blanche":
            return AnnounceBlanche(int(rest))
        if head == "name":
            suit, card = _suit_or_card(rest)
            return NameLead(suit, card)
        if head == "appoint":
            suit, card = _suit_or_card(rest)
            return Appoint(suit, card)
        if head == "declare":
            cls_text, sep2, cards = rest.partition(":")
            cls = _CLASSES.get(cls_text.strip().lower())
            if cls is None or not sep2:
                raise ParseError(
                    f"{text!r}: write declare:point:CARDS, declare:sequence:CARDS or "
                    "declare:set:CARDS"
                )
            return Declare(cls, CardSet.parse(cards))
    except ValueError as exc:
        if isinstance(exc, ParseError):
            raise
        raise ParseError(f"{text!r} is not an action: {exc}") from None
    raise ParseError(f"{text!r} is not an action; {_HELP}")
