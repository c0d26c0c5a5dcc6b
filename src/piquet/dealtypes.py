"""The small values a deal is made of: roles, phases, dialog lines, tricks, class results."""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from piquet.cards import Card
from piquet.declarations import Claim, DeclClass
from piquet.facts import Fact

__all__ = ["ELDER", "YOUNGER", "ROLE_NAMES", "ClassResult", "Phase", "Step", "Trick", "Utterance"]

ELDER: Final = 0
YOUNGER: Final = 1
ROLE_NAMES: Final = ("elder", "younger")
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


# The members as module constants, for the engine's hot paths: in Python 3.11 reaching an
# enum member through its class costs about a tenth of a microsecond, and a deal's every
# action reaches several.
P_DEAL, P_BLANCHE, P_EXCHANGE, P_LEFTOVERS, P_APPOINT, P_DECLARE, P_PLAY, P_OVER = Phase
S_ELDER, S_ANSWER, S_YOUNGER, S_QUESTION = Step


class Utterance(NamedTuple):
    """One public line of the dialog: its fact, who said it, the words, any cards shown."""

    seat: int
    cls: DeclClass | None
    text: str
    """The words, made from ``fact`` by :mod:`piquet.words` (never read back)."""
    shown: int
    fact: Fact


class Trick(NamedTuple):
    leader: int
    lead: int  # card index
    follow: int  # card index
    winner: int

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

    winner: int | None
    holdings: tuple[Claim, ...]
    points: int
    equal: bool = False


def _card_text(idx: int) -> str:
    return str(Card.from_index(idx))


_LEAD_NOTES: Final = tuple(f"leads {_card_text(i)}" for i in range(36))
_WIN_NOTES: Final = tuple(
    f"wins {_card_text(a)} {_card_text(b)}" for a in range(36) for b in range(36)
)
