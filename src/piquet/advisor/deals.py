"""What every part of the advisor shares: the hand asked about, the unseen cards, the worlds.

A *world* is one placing of the cards the player has not seen: the other's
twelve dealt and the stock in order.  Every candidate discard is played out
in the same worlds (common random numbers), so that their differences are
measured with far less noise than their values.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from piquet.analysis.odds import role_draw_range
from piquet.core.cards import DECK32, DECK36, CardSet, mask_cards
from piquet.core.errors import PiquetError
from piquet.core.rules import Rules

__all__ = [
    "ELDER", "ROLES", "YOUNGER", "Asked", "Setup", "World", "bits", "check_score", "deck_of",
    "worlds",
]

ELDER: Final = 0
YOUNGER: Final = 1
ROLES: Final = ("elder", "younger")


def deck_of(rules: Rules) -> int:
    """The pack of ``rules`` as a card mask."""
    return DECK36 if rules.deck_size == 36 else DECK32


def check_score(score: tuple[int, int] | None, rules: Rules) -> None:
    """Raise :class:`PiquetError` unless ``score`` (mine, his; None: no game) is a game
    score short of the rule set's target: what the advice and its verification take."""
    if score is not None and (min(score) < 0 or max(score) >= rules.target):
        raise PiquetError(
            f"scores must be 0 to {rules.target - 1} (the game is {rules.target}); got "
            f"{score[0]},{score[1]}"
        )


def bits(cards: Sequence[int]) -> int:
    """A card mask from card indices."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


@dataclass(frozen=True, slots=True)
class Asked:
    """The question as an answer of the advisor repeats it (the base of the ranking's
    :class:`~piquet.advisor.ranking.Advice` and the verification's
    :class:`~piquet.advisor.verify.Verification`): the rule set's name, the role, the hand
    dealt, the score (mine, his; None: a deal alone)."""

    rules: str
    role: int
    hand: CardSet
    score: tuple[int, int] | None

    def asked_json(self) -> dict[str, Any]:
        """The question in an answer's JSON: ``rules``, ``role``, ``hand``, ``score``."""
        return {
            "rules": self.rules,
            "role": ROLES[self.role],
            "hand": [str(c) for c in self.hand],
            "score": None if self.score is None else list(self.score),
        }

    @property
    def score_words(self) -> str:
        """The score as an answer's first line tells it (", score 40 to 12"), or nothing."""
        return "" if self.score is None else f", score {self.score[0]} to {self.score[1]}"


@dataclass(frozen=True, slots=True)
class World:
    """One placing of the unseen cards: the other's twelve dealt, the stock in order."""

    opp_dealt: int
    stock: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Setup:
    """The question asked: a hand of twelve dealt to ``role`` under ``rules``.

    ``lo``/``hi`` is how many cards the player may lay out; ``elder_takes``
    how many elder took (younger assumes elder's full allotment unless told
    how many he left in the stock).
    """

    hand: int
    rules: Rules
    role: int
    lo: int
    hi: int
    elder_takes: int

    @classmethod
    def of(cls, hand: CardSet | int, rules: Rules, role: int, stock: int | None = None) -> Setup:
        """Check the hand and the role; raises :class:`PiquetError` naming what is wrong."""
        if role not in (ELDER, YOUNGER):
            raise PiquetError("role must be elder (0) or younger (1)")
        h = hand.mask if isinstance(hand, CardSet) else hand
        deck = deck_of(rules)
        if h & ~deck:
            raise PiquetError(
                f"{CardSet(h & ~deck)} is not in the {rules.deck_size}-card pack of {rules.name}"
            )
        if h.bit_count() != 12:
            held = f"{CardSet(h)} has {h.bit_count()}" if h else "none were given"
            raise PiquetError(f"a hand is the 12 cards dealt; {held}")
        lo, hi = role_draw_range(rules, role, stock=stock)
        takes = rules.elder_max if stock is None else rules.stock_size - stock
        return cls(h, rules, role, lo, hi, takes)

    @property
    def unseen(self) -> list[int]:
        return list(mask_cards(deck_of(self.rules) & ~self.hand))

    def check_discard(self, discard: CardSet | int) -> int:
        """The discard as a mask; raises :class:`PiquetError` if the hand or rules forbid it."""
        m = discard.mask if isinstance(discard, CardSet) else discard
        if m & ~self.hand:
            raise PiquetError(f"the discard {CardSet(m & ~self.hand)} holds cards not in the hand")
        if not self.lo <= m.bit_count() <= self.hi:
            raise PiquetError(
                f"{ROLES[self.role]} lays out {self.lo} to {self.hi} cards here, "
                f"not {m.bit_count()} ({CardSet(m)})"
            )
        return m

    def younger_range(self, elder_took: int) -> tuple[int, int]:
        """How many younger may lay out when elder took ``elder_took``."""
        r = self.rules
        avail = r.stock_size - elder_took
        hi = min(avail, r.younger_max) if r.younger_max else avail
        return min(r.younger_min, hi), hi


def worlds(unseen: Sequence[int], rules: Rules, n: int, rng: random.Random) -> list[World]:
    """``n`` placings of the unseen cards drawn from ``rng``."""
    out = []
    cards = list(unseen)
    for _ in range(n):
        perm = rng.sample(cards, len(cards))
        out.append(World(bits(perm[:12]), tuple(perm[12 : 12 + rules.stock_size])))
    return out
