"""The small values a deal is made of: roles, phases, dialog lines, tricks, class results,
and :class:`DealState`, the typed record of a deal's attributes that the transitions fill."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypedDict

from piquet.core.cards import Card, NamedLead
from piquet.core.declarations import Claim, DeclClass
from piquet.core.facts import Fact
from piquet.core.roles import ELDER, OTHER, ROLE_NAMES, YOUNGER, Role

if TYPE_CHECKING:
    from piquet.core.actions import Action
    from piquet.core.rules import Rules
    from piquet.core.scoring import Kind, Tally

__all__ = [
    "ELDER",
    "OTHER",
    "ROLE_NAMES",
    "YOUNGER",
    "ClassResult",
    "DealState",
    "Deferred",
    "ExchangeKind",
    "ExchangeStep",
    "HeldCount",
    "Phase",
    "Role",
    "Step",
    "Trick",
    "Utterance",
]


_TENTH: Final = frozenset(i for i in range(36) if i % 9 + 6 >= 10)


class Phase(enum.Enum):
    DEAL = "deal"
    BLANCHE = "blanche"
    EXCHANGE = "exchange"
    LEFTOVERS = "leftovers"
    APPOINT = "appoint"
    DECLARE = "declare"
    PLAY = "play"
    OVER = "over"


class Step(enum.Enum):
    """Where the declarations dialog stands within a class."""

    ELDER = "elder speaks"
    ANSWER = "younger answers"
    YOUNGER = "younger declares"
    QUESTION = "question"


class Deferred(NamedTuple):
    """A class younger declares after elder's first lead, and what his claim must beat
    (``beat`` None: elder passed; ``partial``: only the number of cards of the point)."""

    cls: DeclClass
    beat: tuple[int, int] | None
    partial: bool


class ExchangeKind(enum.Enum):
    DISCARD = "discard"
    """Lay out and take at once."""
    DISCARD_ONLY = "discard-only"
    """Younger lays out first and takes after elder's carte blanche is shown."""
    SHOW = "show"
    """Carte blanche is shown (automatic)."""
    TAKE = "take"
    """Younger takes the cards he laid out for (automatic)."""


class ExchangeStep(NamedTuple):
    """One step of the exchange still to come."""

    kind: ExchangeKind
    role: Role


class HeldCount(NamedTuple):
    """A count of the play held back until the declarations are counted."""

    role: Role
    kind: Kind
    points: int
    note: str


# The members as module constants, for the engine's hot paths: in Python 3.11 reaching an
# enum member through its class costs about a tenth of a microsecond, and a deal's every
# action reaches several.
P_DEAL, P_BLANCHE, P_EXCHANGE, P_LEFTOVERS, P_APPOINT, P_DECLARE, P_PLAY, P_OVER = Phase
S_ELDER, S_ANSWER, S_YOUNGER, S_QUESTION = Step


class Utterance(NamedTuple):
    """One public line of the dialog: its fact, the role that said it, the words, any cards
    shown."""

    role: Role
    cls: DeclClass | None
    text: str
    """The words, made from ``fact`` by :mod:`piquet.core.words` (never read back)."""
    shown: int
    fact: Fact


class Trick(NamedTuple):
    leader: Role
    lead: int  # card index
    follow: int  # card index
    winner: Role

    def to_json(self) -> dict[str, str]:
        """The trick as JSON: roles by name, cards as text (``QH``)."""
        return {
            "leader": ROLE_NAMES[self.leader],
            "lead": str(Card.from_index(self.lead)),
            "follow": str(Card.from_index(self.follow)),
            "winner": ROLE_NAMES[self.winner],
        }


class ClassResult(NamedTuple):
    """How a class of declaration ended: ``winner`` (None: equal or nobody) counts ``points``."""

    winner: Role | None
    holdings: tuple[Claim, ...]
    points: int
    equal: bool = False


def _card_text(idx: int) -> str:
    return str(Card.from_index(idx))


_LEAD_NOTES: Final = tuple(f"leads {_card_text(i)}" for i in range(36))
_WIN_NOTES: Final = tuple(
    f"wins {_card_text(a)} {_card_text(b)}" for a in range(36) for b in range(36)
)


class DealState(TypedDict):
    """Every attribute of a :class:`~piquet.core.deal.Deal`, typed: a transition writes
    ``d["hands"] = ...`` into one of these, so a misspelt field or a wrong type is a mypy
    error.  At run time it is the deal's plain attribute dict (copied once per action)."""

    rules: Rules
    deck: tuple[int, ...]
    """The pack, top first."""
    start: tuple[int, int]
    """The game score of (elder, younger) before the deal."""
    target: int | None
    phase: Phase
    to_act: Role | None
    """The role to act; None when nobody is (the deal is over)."""
    packet: int | None
    hands: tuple[int, int]
    dealt: tuple[int, int]
    discards: tuple[int, int]
    taken: tuple[int, int]
    stock: tuple[int, ...]
    pending_blanche: tuple[Role, ...]
    blanche: tuple[int, int]
    """Cards each role announced he will discard with carte blanche (-1: no blanche)."""
    exchange_steps: tuple[ExchangeStep, ...]
    pending_take: int
    elder_leftovers: int
    leftovers: int
    leftover_look: tuple[bool, bool]
    lead_rule: NamedLead | None
    cls: DeclClass
    """The class being declared (in the play: the last one)."""
    step: Step
    elder_claim: Claim | None
    revealed: bool
    asker: Role
    deferred: tuple[Deferred, ...]
    question_late: bool
    results: tuple[ClassResult | None, ClassResult | None, ClassResult | None]
    committed: int
    """Classes counted so far (0 to 3)."""
    dialog: tuple[Utterance, ...]
    shown: tuple[int, int]
    tally: Tally
    held_play: tuple[HeldCount, ...]
    tricks: tuple[Trick, ...]
    trick_lead: int | None
    leader: Role
    won: tuple[int, int]
    _hist: tuple[Any, tuple[Role | None, Action]] | None
    """The history as a cons chain (see ``Deal.history``)."""
    _legal: list[Action] | None
    """Private cache: the legal actions, once asked."""
    _play: tuple[int, ...] | None
    """Private cache: the playable cards, once asked."""
