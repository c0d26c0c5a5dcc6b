"""The declarations' leaf rules for the vectorised users, in one copy.

The draw tables (:mod:`piquet.analysis.drawtables`), the odds (:mod:`piquet.analysis.odds`) and
the batch scorer (:mod:`piquet.analysis.batch`) compare and count claims over numpy arrays of
holdings. They read a claim's comparison key as one small integer, a **code**, that orders as
the engine's :attr:`~piquet.core.declarations.Claim.key` does, and what a claim counts as the
engine's :func:`~piquet.core.declarations.score_of` does; both are written here once, for plain
ints and numpy arrays alike (the compiled copy is ``src/piquet/native/rules.h``).
The engine stays the readable reference; the tests compare the codes with its keys
(``tests/test_odds.py``) and the batch's scores with its counts (``tests/test_batch.py``).

* a point's key: ``cards * 128 + pips`` where the point is measured by cards, else
  ``pips`` (a suit holds at most 81 pips); its code ``key * 16 + cards``;
* a sequence's code: ``length * 16 + top rank`` (0: no sequence);
* a set's code: ``count * 16 + rank`` where a quatorze beats any trio, else
  ``rank * 16 + count`` (0: no set).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Protocol, TypeVar, cast

import numpy as np
import numpy.typing as npt

from piquet.core.rules import PointMeasure, PointScoring, Rules

__all__ = [
    "SEQUENCE_CODES",
    "SET_CODES",
    "SetKnobs",
    "point_code",
    "point_key",
    "point_worth",
    "sequence_code",
    "sequence_worths",
    "set_code",
    "set_worth",
    "sets_of",
]

#: an int, or a numpy array of them (the functions work element by element)
N = TypeVar("N", int, npt.NDArray[np.int64])

#: every sequence code is below this (nine cards up to the ace: 158)
SEQUENCE_CODES: Final = 160
#: every set code is below this (four aces by rank: 228)
SET_CODES: Final = 240


def point_key(cards: N, pips: N, rules: Rules) -> N:
    """The comparison key of a point of ``cards`` cards and ``pips`` pips."""
    if rules.point_measure is PointMeasure.CARDS:
        return cards * 128 + pips
    return pips


def point_code(cards: N, pips: N, rules: Rules) -> N:
    """The code of a point of ``cards`` cards (one or more) and ``pips`` pips."""
    return point_key(cards, pips, rules) * 16 + cards


def point_worth(key: N, cards: N, rules: Rules) -> N:
    """What a point counts, from its key and cards (as ``score_of`` counts a point)."""
    if rules.point_scoring is PointScoring.PER_CARD:
        return cards
    pips = key & 127 if rules.point_measure is PointMeasure.CARDS else key
    return (pips + 5) // 10


def sequence_code(length: N, top_rank: N) -> N:
    """The code of a sequence of ``length`` cards up to ``top_rank`` (6 = six .. 14 = ace)."""
    return length * 16 + top_rank


def sequence_worths(rules: Rules) -> npt.NDArray[np.int64]:
    """``out[n]``: what a sequence of ``n`` cards counts (0 under three), n = 0..9."""
    return np.array([rules.sequence_value(n) for n in range(10)], dtype=np.int64)


class SetKnobs(Protocol):
    """The knobs that decide a set's code and worth; a :class:`Rules` is one."""

    @property
    def quatorze_beats_trio(self) -> bool: ...
    @property
    def trio_value(self) -> int: ...
    @property
    def quatorze_value(self) -> int: ...


def set_code(count: N, rank: int, rules: SetKnobs) -> N:
    """The code of a set of ``count`` cards of ``rank``: by size first where a quatorze
    beats any trio, else by rank."""
    if rules.quatorze_beats_trio:
        return count * 16 + rank
    return rank * 16 + count


def set_worth(count: N, rules: SetKnobs) -> N:
    """What ``count`` cards of one rank count as a set (0 under three)."""
    four: Any = count == 4  # a bool, or an array of them
    return cast(N, rules.quatorze_value * four + rules.trio_value * (count == 3))


def sets_of(counts: Iterable[tuple[int, N]], rules: SetKnobs) -> tuple[N, N]:
    """(best set code, what all the sets count) of a hand holding, for each ``(rank,
    count)`` of ``counts``, ``count`` cards of ``rank`` (ints or arrays of counts)."""
    best: Any = 0
    total: Any = 0
    for rank, count in counts:
        best = np.maximum(best, set_code(count, rank, rules) * (count >= 3))
        total = total + set_worth(count, rules)
    return best, total
