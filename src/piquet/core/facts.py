"""What a seat may learn in a deal, as typed values: the public facts of the dialog.

Every line of the dialog (:class:`~piquet.core.dealtypes.Utterance`) carries one fact:
who exchanged how many cards, a declared claim as far as its words tell it, an
answer, a holding shown, "which one is missing?" and its answer, a named lead, a
look at the leftovers, carte blanche.  The deal writes facts; the sentence a person
reads is made from a fact in one place (:mod:`piquet.core.words`); the AI's beliefs
(:mod:`piquet.analysis.sampling`), the adapters' observations and the terminal read the
facts, never the sentence.

A fact holds only what every seat was told: a claim is a :class:`Statement` (its
class, and the size, rank and pips *as said*), never the cards behind it unless they
were shown.  A sequence is said by its length and top card, never its suit: every text
names it so (Cotgrave: sequences "take their denomination from the highest Card"; 1754:
"*Tierce to a King* … named from that Card"), so a sequence beaten or equalled, and never
shown, leaves its suit unknown to the other seat.  Card fields are masks or indices
(see :mod:`piquet.core.cards`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from piquet.core.actions import Reply
from piquet.core.cards import NamedLead
from piquet.core.declarations import Claim, DeclClass
from piquet.core.roles import Role
from piquet.core.rules import PointMeasure, Rules

__all__ = [
    "BlancheCalled",
    "BlancheDiscards",
    "BlancheShown",
    "Declared",
    "Exchanged",
    "Fact",
    "FurtherHeld",
    "HoldingShown",
    "LaidOut",
    "LeadAppointed",
    "LeadLacked",
    "LeadNamed",
    "LeftoverWay",
    "LeftoversChoice",
    "MissingAsked",
    "MissingTold",
    "Passed",
    "PipsTold",
    "Replied",
    "Statement",
    "said_shape",
    "statement_of",
]


@dataclass(frozen=True, slots=True)
class Statement:
    """A claim as its words tell it (0: not said).

    ``size``: the number of cards of a point measured by cards, a sequence's length,
    4 or 3 for a set; ``rank``: a sequence's top rank or a set's rank (6..14);
    ``pips``: a point's pips, once said.  Nothing names a suit: a point is said by its
    count, a sequence by its length and top card, a set by its rank.
    """

    cls: DeclClass
    size: int = 0
    rank: int = 0
    pips: int = 0


_STATEMENT_CACHE: dict[int, Statement] = {}


def said_shape(claim: Claim) -> int:
    """What an announcement of ``claim`` can tell, as bits: its class, size, top rank and
    pips, never its cards nor their suit (many hands say the same thing: the words' caches
    are keyed on this)."""
    cls = claim.cls
    if cls is DeclClass.POINT:
        return (claim.size << 8 | claim.pips) << 2 | cls
    return (claim.size << 4 | claim.top) << 2 | cls


def statement_of(claim: Claim, rules: Rules, *, full: bool = True) -> Statement:
    """What the announcement of ``claim`` tells under ``rules``.

    ``full=False`` gives the first part of a point measured by cards ("point of
    five"), before the other asks "making?".
    """
    by_pips = rules.point_measure is PointMeasure.PIPS
    key = said_shape(claim) << 2 | full << 1 | by_pips
    found = _STATEMENT_CACHE.get(key)
    if found is None:
        if len(_STATEMENT_CACHE) > 16_384:
            _STATEMENT_CACHE.clear()
        cls = claim.cls
        if cls is DeclClass.POINT:
            if by_pips:
                found = Statement(cls, pips=claim.pips)
            else:
                found = Statement(cls, size=claim.size, pips=claim.pips if full else 0)
        else:
            found = Statement(cls, size=claim.size, rank=claim.top)
        _STATEMENT_CACHE[key] = found
    return found


# ---------------------------------------------------------------------- carte blanche


@dataclass(frozen=True, slots=True)
class BlancheCalled:
    """``role`` declares carte blanche as soon as the cards are dealt."""

    role: Role


@dataclass(frozen=True, slots=True)
class BlancheDiscards:
    """``role``, holding carte blanche, announces how many cards he will discard."""

    role: Role
    count: int


@dataclass(frozen=True, slots=True)
class BlancheShown:
    """``role`` shows his carte blanche: ``cards`` is his whole dealt hand."""

    role: Role
    cards: int


# ---------------------------------------------------------------------- the exchange


@dataclass(frozen=True, slots=True)
class Exchanged:
    """``role`` laid out ``count`` cards and took as many from the stock."""

    role: Role
    count: int


@dataclass(frozen=True, slots=True)
class LaidOut:
    """``role`` laid out ``count`` cards, to take them after the other's carte blanche."""

    role: Role
    count: int


class LeftoverWay(enum.Enum):
    """What was done with the stock cards younger left."""

    ELDER_DECLINES = "elder leaves them unseen"
    TURNED_UP = "younger turns them up"
    FACE_DOWN = "younger leaves them face down"
    LOOKED = "younger looks at them"
    UNSEEN = "younger leaves them unseen"


@dataclass(frozen=True, slots=True)
class LeftoversChoice:
    """``role`` chose ``way`` for the leftovers; ``cards`` are the cards turned up (or 0)."""

    role: Role
    way: LeftoverWay
    cards: int = 0


@dataclass(frozen=True, slots=True)
class LeadNamed:
    """Elder names the card or suit he will lead, to see the leftovers."""

    role: Role
    lead: NamedLead


@dataclass(frozen=True, slots=True)
class LeadLacked:
    """Elder holds none of what he named: younger appoints the lead."""

    role: Role
    lead: NamedLead


@dataclass(frozen=True, slots=True)
class LeadAppointed:
    """Younger appoints the card or suit elder must lead."""

    role: Role
    lead: NamedLead


# ---------------------------------------------------------------------- declarations


@dataclass(frozen=True, slots=True)
class Declared:
    """``role`` announces a claim: ``said`` is what its words tell."""

    role: Role
    said: Statement


@dataclass(frozen=True, slots=True)
class Passed:
    """``role`` declares nothing in class ``cls``."""

    role: Role
    cls: DeclClass


@dataclass(frozen=True, slots=True)
class Replied:
    """``role`` answers the other's claim in ``cls``: good, not good, equal or "making?"."""

    role: Role
    cls: DeclClass
    reply: Reply


@dataclass(frozen=True, slots=True)
class PipsTold:
    """``role`` tells the pips of the point he announced by cards ("forty-eight")."""

    role: Role
    cls: DeclClass
    pips: int


@dataclass(frozen=True, slots=True)
class FurtherHeld:
    """``role``, having won class ``cls``, announces the further holdings he counts."""

    role: Role
    cls: DeclClass
    said: tuple[Statement, ...]


@dataclass(frozen=True, slots=True)
class HoldingShown:
    """``role`` shows the ``cards`` of the holdings he counts in ``cls``."""

    role: Role
    cls: DeclClass
    cards: int


@dataclass(frozen=True, slots=True)
class MissingAsked:
    """``role`` asks which card of the other's trio is missing."""

    role: Role


@dataclass(frozen=True, slots=True)
class MissingTold:
    """``role`` answers: the missing ``card`` of his trio of ``rank`` was laid out
    (``card`` -1: none of that rank was); ``shown``: he showed it."""

    role: Role
    rank: int
    card: int = -1
    shown: bool = False


Fact = (
    BlancheCalled
    | BlancheDiscards
    | BlancheShown
    | Exchanged
    | LaidOut
    | LeftoversChoice
    | LeadNamed
    | LeadLacked
    | LeadAppointed
    | Declared
    | Passed
    | Replied
    | PipsTold
    | FurtherHeld
    | HoldingShown
    | MissingAsked
    | MissingTold
)
"""Every public fact of a deal's dialog."""
