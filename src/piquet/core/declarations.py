"""Point, sequences and sets: what a hand holds, what it may claim, what it scores.

Everything here works on card masks (see :mod:`piquet.core.cards`) and a
:class:`~piquet.core.rules.Rules`.  A :class:`Claim` is one holding a player can
show: the cards of a point, a sequence or a set.  Claims of one class compare
by their ``key``; the dialog of the deal (:mod:`piquet.core.deal`) uses
:func:`claims`, :func:`best_claim` and :func:`counted` to decide who counts
what.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from operator import itemgetter
from typing import Final, NamedTuple, Protocol

from piquet.core.cards import SUIT_MASKS, CardSet
from piquet.core.rules import PointMeasure, PointScoring, Rules

__all__ = [
    "Claim",
    "DeclClass",
    "HandSummary",
    "Scored",
    "best_claim",
    "claim_index",
    "claims",
    "counted",
    "is_blanche",
    "score_of",
    "statement",
    "summarize",
]

COURTS: Final = sum((0b111 << 5) << (9 * s) for s in range(4))  # J Q K bits
_PIPS: Final = (6, 7, 8, 9, 10, 10, 10, 10, 11)


class DeclClass(enum.IntEnum):
    """The three classes of declaration, in counting order."""

    POINT = 0
    SEQUENCE = 1
    SET = 2

    @property
    def label(self) -> str:
        return ("point", "sequence", "set")[self]


def is_blanche(mask: int) -> bool:
    """Carte blanche: no king, queen or knave among the cards."""
    return mask & COURTS == 0


def _suit_tables() -> tuple[
    tuple[int, ...], tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]
]:
    counts, pips, runs = [], [], []
    for m in range(512):
        counts.append(m.bit_count())
        pips.append(sum(_PIPS[i] for i in range(9) if m >> i & 1))
        found: list[tuple[int, int]] = []  # (top bit, length) of maximal runs, best first
        i = 8
        while i >= 0:
            if m >> i & 1:
                j = i
                while j - 1 >= 0 and m >> (j - 1) & 1:
                    j -= 1
                found.append((i, i - j + 1))
                i = j - 1
            else:
                i -= 1
        runs.append(tuple(found))
    return tuple(counts), tuple(pips), tuple(runs)


SUIT_COUNT, SUIT_PIPS, SUIT_RUNS = _suit_tables()


class Claim(NamedTuple):
    """A holding one player can show: ``cls`` and the ``cards`` (a mask).

    ``key`` orders claims of one class: the higher key wins, equal keys are
    equal.  Point: (number of cards, pips) when measured by cards, (pips, 0)
    when by pips.  Sequence: (length, top rank).  Set: (4 or 3, rank) when a
    quatorze beats any trio, else (rank, 4 or 3).
    """

    cls: DeclClass
    cards: int
    key: tuple[int, int]
    size: int
    top: int  # point: suit; sequence: top rank; set: rank
    pips: int

    @property
    def cardset(self) -> CardSet:
        return CardSet(self.cards)

    def __str__(self) -> str:
        return f"{self.cls.label} {CardSet(self.cards)}"

    def __repr__(self) -> str:
        return f"Claim({self.cls.label}, {CardSet(self.cards)})"


def _topk_table() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each 9-bit suit mask: (best k cards, k, their pips) for k = all .. 1."""
    out = []
    for m in range(512):
        bits = [i for i in range(8, -1, -1) if m >> i & 1]
        rows = []
        for k in range(len(bits), 0, -1):
            sub = sum(1 << i for i in bits[:k])
            rows.append((sub, k, SUIT_PIPS[sub]))
        out.append(tuple(rows))
    return tuple(out)


_TOPK: Final = _topk_table()


def _sub_runs_table() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each 9-bit suit mask: every run of 3+ inside it, as (run mask, length, top rank)."""
    out = []
    for m in range(512):
        rows = []
        for top_bit, length in SUIT_RUNS[m]:
            low = top_bit - length + 1
            for top in range(top_bit, low + 1, -1):
                for ln in range(top - low + 1, 2, -1):
                    rows.append((((1 << ln) - 1) << (top - ln + 1), ln, top + 6))
        out.append(tuple(rows))
    return tuple(out)


_SUB_RUNS: Final = _sub_runs_table()


def _cross_runs_table() -> tuple[tuple[tuple[int, int, tuple[int, int], int, int], ...], ...]:
    """For each mask of the ranks present in any suit: every run of three or more inside it,
    best first, as (lowest bit, highest bit + 1, key, length, top rank)."""
    out = []
    for m in range(512):
        rows = [(top - ln + 1, top + 1, (ln, top + 6), ln, top + 6)
                for run, ln, top6 in _SUB_RUNS[m] for top in (top6 - 6,)]
        rows.sort(key=lambda r: r[2], reverse=True)
        out.append(tuple(rows))
    return tuple(out)


_CROSS_RUNS: Final = _cross_runs_table()


def _seq_claim(cards: int, length: int, top_rank: int) -> Claim:
    return Claim(DeclClass.SEQUENCE, cards, (length, top_rank), length, top_rank, 0)


def _set_claim(rank: int, cards: int, rules: ClaimShape) -> Claim:
    n = cards.bit_count()
    key = (n, rank) if rules.quatorze_beats_trio else (rank, n)
    return Claim(DeclClass.SET, cards, key, n, rank, 0)


RANK_MASKS: Final = tuple(sum(1 << (9 * s + i) for s in range(4)) for i in range(9))


def _rank_cards(mask: int, rank: int) -> int:
    return mask & RANK_MASKS[rank - 6]


def _any_suit_run_cards(mask: int, top_bit: int, length: int) -> int:
    """Cards of a cross-suit run: for each rank, the first suit (S H D C) holding it."""
    out = 0
    for i in range(top_bit - length + 1, top_bit + 1):
        for s in range(4):
            b = 1 << (9 * s + i)
            if mask & b:
                out |= b
                break
    return out


def claims(mask: int, cls: DeclClass, rules: Rules) -> tuple[Claim, ...]:
    """Every claim of class ``cls`` that a hand can show, best first (cached).

    See :func:`_claims` for what may be claimed.
    """
    shape = shape_of(rules)
    found = _CLAIMS.get((mask << 8) | (shape.id << 2) | cls)
    if found is None:
        found = _claims_new(mask, cls, shape)
    return found


def claim_index(mask: int, cls: DeclClass, rules: Rules) -> dict[int, Claim]:
    """The claims of :func:`claims`, by their cards (cached)."""
    shape = shape_of(rules)
    key = (mask << 8) | (shape.id << 2) | cls
    found = _INDEX.get(key)
    if found is None:
        if len(_INDEX) > _CACHE_LIMIT:
            _INDEX.clear()
        found = {c.cards: c for c in claims(mask, cls, rules)}
        _INDEX[key] = found
    return found


class ClaimShape(Protocol):
    """The knobs that decide what a hand may claim; a :class:`Rules` is one."""

    @property
    def point_measure(self) -> PointMeasure: ...
    @property
    def sequences_same_suit(self) -> bool: ...
    @property
    def set_min_rank(self) -> int: ...
    @property
    def quatorze_beats_trio(self) -> bool: ...


class _Shape:
    """The few knobs that decide what a hand may claim, with their claim tables.

    One per combination of knobs (see :func:`shape_of`); ``id`` is small and part of
    the cache keys.  The tables are each suit's claims by its 9-bit suit mask (point,
    sequences in one suit) and each rank's set claims by the cards held of it, built
    on first use.
    """

    __slots__ = (
        "_points",
        "_runs",
        "_sets",
        "id",
        "point_measure",
        "quatorze_beats_trio",
        "sequences_same_suit",
        "set_min_rank",
    )

    def __init__(self, ident: int, by_cards: bool, same_suit: bool, min_rank: int,
                 qbt: bool) -> None:
        self.id = ident
        self.point_measure = PointMeasure.CARDS if by_cards else PointMeasure.PIPS
        self.sequences_same_suit = same_suit
        self.set_min_rank = min_rank
        self.quatorze_beats_trio = qbt
        self._points: tuple[tuple[tuple[Claim, ...], ...], ...] | None = None
        self._runs: tuple[tuple[tuple[Claim, ...], ...], ...] | None = None
        self._sets: tuple[dict[int, tuple[Claim, ...]], ...] | None = None

    def points(self) -> tuple[tuple[tuple[Claim, ...], ...], ...]:
        """Per suit, per suit mask: the point claims (the best k cards, k = all .. 1)."""
        if self._points is None:
            by_cards = self.point_measure is PointMeasure.CARDS
            self._points = tuple(
                tuple(
                    tuple(
                        Claim(DeclClass.POINT, sub << (9 * s), (n, p) if by_cards else (p, 0),
                              n, s, p)
                        for sub, n, p in _TOPK[m]
                    )
                    for m in range(512)
                )
                for s in range(4)
            )
        return self._points

    def runs(self) -> tuple[tuple[tuple[Claim, ...], ...], ...]:
        """Per suit, per suit mask: every run of three or more inside it."""
        if self._runs is None:
            self._runs = tuple(
                tuple(
                    tuple(_seq_claim(run << (9 * s), ln, top) for run, ln, top in _SUB_RUNS[m])
                    for m in range(512)
                )
                for s in range(4)
            )
        return self._runs

    def sets(self) -> tuple[dict[int, tuple[Claim, ...]], ...]:
        """Per rank from the ace down to the lowest set rank: set claims by cards held."""
        if self._sets is None:
            rows: list[dict[int, tuple[Claim, ...]]] = []
            for rank in range(14, self.set_min_rank - 1, -1):
                row: dict[int, tuple[Claim, ...]] = {}
                for pattern in range(16):
                    held = sum(1 << (9 * s + rank - 6) for s in range(4) if pattern >> s & 1)
                    n = pattern.bit_count()
                    if n < 3:
                        continue
                    found = [_set_claim(rank, held, self)]
                    if n == 4:
                        # declare three of four: the last suit's card is withheld
                        withheld = 1 << (9 * _last_suit(held) + rank - 6)
                        found.append(_set_claim(rank, held & ~withheld, self))
                    row[held] = tuple(found)
                rows.append(row)
            self._sets = tuple(rows)
        return self._sets


_SHAPES: dict[tuple[bool, bool, int, bool], _Shape] = {}
_SHAPE_OF: dict[int, tuple[Rules, _Shape]] = {}
_CACHE_LIMIT: Final = 4_096
"""Entries a cache of hands holds before it starts again.  Small on purpose: a deal asks
about the same two hands many times over, but random deals seldom meet a hand twice, and a
big cache of claims (tuples) makes each of Python's full garbage collections walk all of
them: with 200,000 entries random deals ran at half the speed."""
_LAST_SHAPE: list[tuple[object, _Shape]] = [(None, _Shape(-1, True, True, 14, True))]
"""The rule set asked about last and its shape (a rule set is asked about many times over)."""
_CLAIMS: dict[int, tuple[Claim, ...]] = {}
_INDEX: dict[int, dict[int, Claim]] = {}


def shape_of(rules: Rules) -> _Shape:
    """The claim shape of a rule set (looked up by identity: hashing a rule set is slow)."""
    last = _LAST_SHAPE[0]
    if last[0] is rules:
        return last[1]
    entry = _SHAPE_OF.get(id(rules))
    if entry is not None and entry[0] is rules:
        _LAST_SHAPE[0] = entry
        return entry[1]
    shape = _shape_for(rules)
    if len(_SHAPE_OF) > 1000:
        _SHAPE_OF.clear()
    _SHAPE_OF[id(rules)] = _LAST_SHAPE[0] = (rules, shape)
    return shape


_BY_KEY: Final = itemgetter(2)
_POINT: Final = DeclClass.POINT
_SEQUENCE: Final = DeclClass.SEQUENCE
_new_claim: Final = tuple.__new__  # a named tuple without its constructor's Python-level call


def _claims_new(mask: int, cls: DeclClass, shape: _Shape) -> tuple[Claim, ...]:
    if len(_CLAIMS) > _CACHE_LIMIT:
        _CLAIMS.clear()
    found = tuple(_claims(mask, cls, shape))
    _CLAIMS[(mask << 8) | (shape.id << 2) | cls] = found
    return found


def _claims(mask: int, cls: DeclClass, rules: ClaimShape) -> list[Claim]:
    """Every claim of class ``cls`` that a hand can show, best first.

    Declaring a lesser claim than the best is sinking: point, any number of
    the best cards of a suit; sequence, any run of three or more inside the
    hand; set, three or four of a rank held.  Ties keep suit order (S H D C).
    """
    shape = rules if isinstance(rules, _Shape) else _shape_for(rules)
    out: list[Claim]
    if cls is _POINT:
        p = shape.points()
        out = [*p[0][mask & 0x1FF], *p[1][mask >> 9 & 0x1FF], *p[2][mask >> 18 & 0x1FF],
               *p[3][mask >> 27 & 0x1FF]]
    elif cls is _SEQUENCE:
        if shape.sequences_same_suit:
            r = shape.runs()
            out = [*r[0][mask & 0x1FF], *r[1][mask >> 9 & 0x1FF], *r[2][mask >> 18 & 0x1FF],
                   *r[3][mask >> 27 & 0x1FF]]
        else:
            specs = _CROSS_RUNS[(mask | mask >> 9 | mask >> 18 | mask >> 27) & 0x1FF]
            if not specs:
                return []
            # the cards of a run: for each rank, the card of the first suit (S H D C)
            # holding it; below[i] is those of the ranks under i
            below = [0]
            acc = 0
            for rm in RANK_MASKS:
                held = mask & rm
                acc |= held & -held
                below.append(acc)
            # best first already: the specs are in key order
            return [_new_claim(Claim, (_SEQUENCE, below[hi] - below[lo], key, ln, top, 0))
                    for lo, hi, key, ln, top in specs]
    else:
        out = []
        rows = shape.sets()
        for i, row in enumerate(rows):
            found = row.get(mask & RANK_MASKS[8 - i])
            if found is not None:
                out += found
    out.sort(key=_BY_KEY, reverse=True)
    return out


def _shape_for(rules: ClaimShape) -> _Shape:
    knobs = (rules.point_measure is PointMeasure.CARDS, rules.sequences_same_suit,
             int(rules.set_min_rank), rules.quatorze_beats_trio)
    shape = _SHAPES.get(knobs)
    if shape is None:
        shape = _SHAPES[knobs] = _Shape(len(_SHAPES), *knobs)
    return shape


def _last_suit(cards: int) -> int:
    for s in (3, 2, 1, 0):
        if cards & SUIT_MASKS[s]:
            return s
    return 0  # pragma: no cover


def best_claim(mask: int, cls: DeclClass, rules: Rules) -> Claim | None:
    """The best claim of the class, or ``None`` if the hand holds none."""
    found = claims(mask, cls, rules)
    return found[0] if found else None


class Scored(Protocol):
    """What a claim's worth reads: a :class:`Claim`, or a claim as its words tell it
    (:class:`piquet.core.facts.Statement`)."""

    @property
    def cls(self) -> DeclClass: ...
    @property
    def size(self) -> int: ...
    @property
    def pips(self) -> int: ...


def score_of(claim: Scored, rules: Rules) -> int:
    """What one claim is worth on its own."""
    if claim.cls is DeclClass.POINT:
        if rules.point_scoring is PointScoring.TENS:
            return (claim.pips + 5) // 10
        return claim.size
    if claim.cls is DeclClass.SEQUENCE:
        return rules.sequence_value(claim.size)
    return rules.quatorze_value if claim.size == 4 else rules.trio_value


def run_around(mask: int, cards: int) -> int:
    """The cards of ``mask`` in the unbroken run of one suit that holds ``cards`` (a
    sequence in that suit): ``cards`` grown up and down through ``mask``'s cards of it."""
    suit = 9 * ((cards.bit_length() - 1) // 9)
    local = mask >> suit & 0x1FF
    run = cards >> suit & 0x1FF
    while True:
        grown = run | ((run << 1) | (run >> 1)) & local
        if grown == run:
            return run << suit
        run = grown


def counted(mask: int, claim: Claim, rules: Rules) -> tuple[list[Claim], int]:
    """What the winner of a class counts, having won it with ``claim``.

    Point: the claim alone.  Sequences in one suit, and sets: the claim plus
    every other holding of the class not better than it (a better one was
    sunk and stays unspoken).  Sequences in any suits: the split of the hand
    into disjoint runs, none better than the claim, that scores most.
    Returns the holdings counted and their total.
    """
    if claim.cls is DeclClass.POINT:
        return [claim], score_of(claim, rules)
    if claim.cls is DeclClass.SET:
        held = [claim]
        for rank in range(14, rules.set_min_rank - 1, -1):
            if rank == claim.top:
                continue
            cards = _rank_cards(mask, rank)
            if cards.bit_count() >= 3:
                other = _set_claim(rank, cards, rules)
                if other.key <= claim.key:
                    held.append(other)
        return held, sum(score_of(c, rules) for c in held)
    if rules.sequences_same_suit:
        # the run the claim was declared from is one sequence: what of it was not declared
        # (a tierce major declared from a sixième) is sunk, not a further sequence
        rest = mask & ~run_around(mask, claim.cards)
        held = [claim]
        for s in range(4):
            for top_bit, length in SUIT_RUNS[rest >> (9 * s) & 0x1FF]:
                if length >= 3 and (length, top_bit + 6) <= claim.key:
                    run = ((1 << length) - 1) << (top_bit - length + 1)
                    held.append(_seq_claim(run << (9 * s), length, top_bit + 6))
        return held, sum(score_of(c, rules) for c in held)
    values = rules.sequence_values
    memo = _split_memo(claim.key, values)
    packed = 0
    for i, rm in enumerate(RANK_MASKS):
        packed |= (mask & rm).bit_count() << (3 * i)
    value, runs = _split(packed, claim.key, values, memo)
    # among the best splits, prefer one that keeps the declared run whole
    spare = packed - _RUN_COUNTS[claim.top - 6 - claim.size + 1][claim.size]
    spare_value, spare_runs = _split(spare, claim.key, values, memo)
    if rules.sequence_value(claim.size) + spare_value >= value:
        value = rules.sequence_value(claim.size) + spare_value
        runs = ((claim.top - 6, claim.size), *spare_runs)
    held = []
    remaining = mask
    for top_bit, length in runs:
        cards = _any_suit_run_cards(remaining, top_bit, length)
        remaining &= ~cards
        held.append(_seq_claim(cards, length, top_bit + 6))
    held.sort(key=lambda c: c.key, reverse=True)
    return held, value


def _best_split(
    counts: tuple[int, ...], limit: tuple[int, int], values: tuple[int, ...]
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Best total of disjoint cross-suit runs (each key <= ``limit``) in rank counts.

    Returns the total and the runs as (top bit, length), best split found first.  The
    counts are packed three bits a rank into one int, and splits are remembered per
    (limit, values) across calls.
    """
    packed = 0
    for i, c in enumerate(counts):
        packed |= c << (3 * i)
    return _split(packed, limit, values, _split_memo(limit, values))


def _split_memo(limit: tuple[int, int], values: tuple[int, ...]) -> dict[int, _Split]:
    memo = _SPLITS.get((limit, values))
    if memo is None or len(memo) > _CACHE_LIMIT:
        memo = _SPLITS[(limit, values)] = {0: (0, ())}
    return memo


_Split = tuple[int, tuple[tuple[int, int], ...]]
_SPLITS: dict[tuple[tuple[int, int], tuple[int, ...]], dict[int, _Split]] = {}
_RUN_COUNTS: Final = tuple(
    tuple(sum(1 << (3 * i) for i in range(low, low + length)) for length in range(10))
    for low in range(9)
)
"""``_RUN_COUNTS[low][length]``: one card of each rank of a run, in packed counts."""


def _split(
    packed: int, limit: tuple[int, int], values: tuple[int, ...], memo: dict[int, _Split]
) -> _Split:
    found = memo.get(packed)
    if found is not None:
        return found
    low = ((packed & -packed).bit_length() - 1) // 3
    # either one card of the lowest rank is in no run ...
    best = _split(packed - (1 << (3 * low)), limit, values, memo)
    # ... or it starts a run upward
    length = 0
    while low + length < 9 and packed >> (3 * (low + length)) & 7:
        length += 1
        if length >= 3:
            if (length, low + length - 1 + 6) > limit:
                break
            sub_value, sub_runs = _split(packed - _RUN_COUNTS[low][length], limit, values, memo)
            total = values[min(length, 2 + len(values)) - 3] + sub_value
            if total > best[0]:
                best = (total, ((low + length - 1, length), *sub_runs))
    memo[packed] = best
    return best


def statement(claim: Claim, rules: Rules, *, full: bool = True) -> str:
    """A claim named in the rule set's words for one who sees its cards: its holder
    choosing what to declare, the advisor, two hands scored side by side.  A sequence in one
    suit names its suit ("quart to the king in hearts"); what is said aloud never does
    (:func:`piquet.core.words.claim_words`, the dialog's words: "quart to the king").

    ``full=False`` gives only the first part of a point measured by cards
    ("point of five"), before the other asks "making?".
    """
    from piquet.core.words import claim_name  # the words live there; they import claims

    return claim_name(claim, rules, full=full)


@dataclass(frozen=True, slots=True)
class HandSummary:
    """The best claim of each class in a hand, and its carte blanche."""

    blanche: bool
    point: Claim | None
    sequence: Claim | None
    set: Claim | None


def summarize(mask: int, rules: Rules) -> HandSummary:
    return HandSummary(
        is_blanche(mask),
        best_claim(mask, DeclClass.POINT, rules),
        best_claim(mask, DeclClass.SEQUENCE, rules),
        best_claim(mask, DeclClass.SET, rules),
    )
