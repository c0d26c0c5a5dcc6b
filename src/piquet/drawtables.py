"""Per-suit declaration tables, and the exact declaration pass over every draw.

A hand's declarations are decided suit by suit: the point is the best suit's
point, the sequences are runs inside one suit, and the sets add up rank
counts across the suits.  So every quantity the pass needs is a lookup in a
table of the 512 possible holdings of one suit (the engine's own
:data:`~piquet.core.declarations.SUIT_COUNT`, ``SUIT_PIPS`` and ``SUIT_RUNS``),
combined across the four suits by ``max`` or ``+``.

:func:`declaration_pass` uses this to value every legal discard of a hand over
every possible draw from the cards the player has not seen: for elder under a
32-card rule set, 1,585 discards and 14,941,023 final hands.  The work is done
with numpy on whole arrays: for each suit and each way the discard leaves that
suit, one row of per-draw values; a discard is then four rows combined.  Where
the number of hands would exceed a budget (the 36-card packs, where elder may
take eight), a uniform sample of draws is used instead and the result says so.

Codes (small integers that order like the engine's claim keys):

* point code ``key * 16 + cards``: ``key`` is ``cards * 128 + pips`` when the
  point is measured by cards, else ``pips``;
* sequence code ``length * 16 + top rank`` (0: no sequence);
* set code ``count * 16 + rank`` when a quatorze beats any trio, else
  ``rank * 8 + count`` (0: no set).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from piquet.core.cards import mask_cards
from piquet.core.declarations import (
    SUIT_COUNT,
    SUIT_PIPS,
    SUIT_RUNS,
    DeclClass,
)
from piquet.core.errors import PiquetError
from piquet.core.rules import PointMeasure, PointScoring, Rules

__all__ = [
    "DEFAULT_BUDGET",
    "Draws",
    "HandStats",
    "OpponentModel",
    "PassResult",
    "SuitTables",
    "claim_codes",
    "cross_suit_sequences",
    "split_table",
    "declaration_pass",
    "discard_masks",
    "draws",
    "hand_stats",
    "suit_tables",
]

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

#: most final hands the pass evaluates for one discard size before it samples draws
DEFAULT_BUDGET: Final = 16_000_000
_BLOCK: Final = 1 << 20  # elements per numpy block (keeps the work in cache)


# ====================================================================== tables
@dataclass(frozen=True, slots=True, eq=False)
class SuitTables:
    """The per-suit tables of one rule set (build with :func:`suit_tables`)."""

    rules: Rules
    point_code: tuple[int, ...]
    """Point code of each 9-bit suit holding (0 for an empty suit)."""
    seq_code: tuple[int, ...]
    """Best sequence code of each holding (0: none)."""
    seq_sum: tuple[int, ...]
    """What all the sequences of a holding count."""
    rank_pack: tuple[int, ...]
    """Counts of the set ranks in a holding, three bits per rank (lowest set rank first)."""
    set_ranks: tuple[int, ...]
    """The ranks that can form sets, lowest first."""
    strength: tuple[float, ...]
    """Rough tricks a holding takes in the play (the pass's play estimate)."""
    base5: tuple[int, ...]
    """A holding's ranks as a base-5 number (digit i: rank bit i), summed over the suits
    to count each rank (sequences in any suits)."""
    _set_cache: dict[int, tuple[int, int]] = field(default_factory=dict)

    def point_value(self, code: int) -> int:
        """What a point counts, from its code."""
        if code <= 0:
            return 0
        key, cards = code >> 4, code & 15
        if self.rules.point_scoring is PointScoring.PER_CARD:
            return cards
        pips = key & 127 if self.rules.point_measure is PointMeasure.CARDS else key
        return (pips + 5) // 10

    def set_code_sum(self, pack: int) -> tuple[int, int]:
        """(best set code, what all the sets count) from packed rank counts."""
        found = self._set_cache.get(pack)
        if found is not None:
            return found
        rules = self.rules
        best = 0
        total = 0
        for i, rank in enumerate(self.set_ranks):
            n = pack >> (3 * i) & 7
            if n >= 3:
                code = n * 16 + rank if rules.quatorze_beats_trio else rank * 8 + n
                best = max(best, code)
                total += rules.quatorze_value if n == 4 else rules.trio_value
        self._set_cache[pack] = (best, total)
        return best, total


def _play_strength(m: int, low_bit: int) -> float:
    """A rough count of the tricks a suit holding takes (used only to rank discards)."""
    cards = [i for i in range(8, low_bit - 1, -1) if m >> i & 1]
    n = len(cards)
    if n == 0:
        return 0.0
    masters = 0
    for want, have in zip(range(8, -1, -1), cards, strict=False):
        if want != have:
            break
        masters += 1
    s = float(masters)
    top = cards[0]
    if masters == 0:
        if top == 7 and n >= 2:  # king guarded
            s += 0.55
        elif top == 7:
            s += 0.15
        elif top == 6 and n >= 3:  # queen twice guarded
            s += 0.3
    elif masters < n and cards[masters] == 7 - masters:
        s += 0.4  # a tenace, as A Q: the queen often makes
    if n >= 4:
        control = 1.0 if masters >= 1 else (0.6 if top >= 6 else 0.3)
        s += (n - 3) * 0.55 * control
    return min(s, float(n))


@lru_cache(maxsize=32)
def suit_tables(rules: Rules) -> SuitTables:
    """The per-suit tables for ``rules`` (cached), built from the engine's own tables."""
    by_cards = rules.point_measure is PointMeasure.CARDS
    low_bit = int(rules.low_rank) - 6
    set_ranks = tuple(range(int(rules.set_min_rank), 15))
    pcode, scode, ssum, rpack, strength, base5 = [], [], [], [], [], []
    for m in range(512):
        m_in = m & ~((1 << low_bit) - 1)
        n, pips = SUIT_COUNT[m_in], SUIT_PIPS[m_in]
        key = n * 128 + pips if by_cards else pips
        pcode.append(key * 16 + n if n else 0)
        best = 0
        total = 0
        for top_bit, length in SUIT_RUNS[m_in]:
            if length >= 3:
                best = max(best, length * 16 + top_bit + 6)
                total += rules.sequence_value(length)
        scode.append(best)
        ssum.append(total)
        rpack.append(sum((m_in >> (r - 6) & 1) << (3 * i) for i, r in enumerate(set_ranks)))
        strength.append(_play_strength(m_in, low_bit))
        base5.append(sum((m_in >> i & 1) * 5**i for i in range(9)))
    return SuitTables(
        rules,
        tuple(pcode),
        tuple(scode),
        tuple(ssum),
        tuple(rpack),
        set_ranks,
        tuple(strength),
        tuple(base5),
    )


def claim_codes(cls: DeclClass, key: tuple[int, int], size: int, rules: Rules) -> int:
    """The code of an engine :class:`~piquet.core.declarations.Claim` key (see the module doc)."""
    if cls is DeclClass.POINT:
        return (
            key[0] * 16
            if rules.point_measure is PointMeasure.PIPS
            else (key[0] * 128 + key[1]) * 16
        ) + size
    if cls is DeclClass.SEQUENCE:
        return key[0] * 16 + key[1]
    return key[0] * 16 + key[1] if rules.quatorze_beats_trio else key[0] * 8 + key[1]


@dataclass(frozen=True, slots=True)
class HandStats:
    """One held hand's best claim of each class (as codes) and what each class counts."""

    point_code: int
    point_value: int
    seq_code: int
    seq_sum: int
    set_code: int
    set_sum: int

    @property
    def total(self) -> int:
        """Declarations counted if every class is good."""
        return self.point_value + self.seq_sum + self.set_sum


def hand_stats(mask: int, tables: SuitTables) -> HandStats:
    """The declarations of a held hand (same answers as the engine's ``best_claim``/``counted``)."""
    rules = tables.rules
    pc = sc = ss = pack = counts = presence = 0
    for s in range(4):
        m = mask >> (9 * s) & 0x1FF
        if not m:
            continue
        pc = max(pc, tables.point_code[m])
        sc = max(sc, tables.seq_code[m])
        ss += tables.seq_sum[m]
        pack += tables.rank_pack[m]
        counts += tables.base5[m]
        presence |= m
    if not rules.sequences_same_suit:
        sc, ss = tables.seq_code[presence], int(split_table(rules.sequence_values)[counts])
    set_code, set_sum = tables.set_code_sum(pack)
    return HandStats(pc, tables.point_value(pc), sc, ss, set_code, set_sum)


@lru_cache(maxsize=8)
def split_table(values: tuple[int, ...]) -> npt.NDArray[np.int16]:
    """For sequences in any suits: what the best split into runs counts, by rank counts.

    Indexed by the base-5 number of the counts (digit ``i``: cards of rank bit
    ``i``, 0 to 4).  The split is the engine's: runs of three or more, each
    card in one run, the total as large as it can be (the best claim never
    limits it, since no run is longer or higher than the best).  Computed
    bottom-up over all 5**9 count vectors, fewest cards first
    (:func:`_split_table`, half a second), once: then kept on disk (:func:`_stored`).
    """
    name = "split_table-" + "-".join(str(v) for v in values)
    return _stored(_store_path(name), lambda: _split_table(values), np.dtype(np.int16), (5**9,))


def _store_path(name: str) -> Path | None:
    """Where table ``name`` is kept: in ``__pycache__`` beside this module (as Python keeps
    its compiled bytecode), under a digest of this file's source, so a table is never read
    by another version of the code that computed it; None where the source cannot be read
    (a zip or frozen install: the table is then computed and not kept)."""
    try:
        here = Path(__file__)
        digest = hashlib.sha256(here.read_bytes()).hexdigest()[:16]
    except OSError:
        return None
    return here.parent / "__pycache__" / f"drawtables.{name}.{digest}.npy"


def _stored(
    path: Path | None,
    compute: Callable[[], npt.NDArray[Any]],
    dtype: np.dtype[Any],
    shape: tuple[int, ...],
) -> npt.NDArray[Any]:
    """The table at ``path``, or ``compute()`` kept there (written whole, then renamed into
    place, the same table of an earlier version removed) when it is missing or not a
    ``dtype`` array of ``shape``; where the folder cannot be written, the table is computed
    and not kept."""
    if path is not None:
        try:
            table: npt.NDArray[Any] = np.load(path, allow_pickle=False)
            if table.dtype == dtype and table.shape == shape:
                return table
        except (OSError, ValueError, EOFError):
            pass
    table = compute()
    if path is None:
        return table
    part = None
    try:
        path.parent.mkdir(exist_ok=True)
        # a file of its own for each writer (threads and processes alike), renamed whole
        fd, part = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".part")
        with os.fdopen(fd, "wb") as f:
            np.save(f, table, allow_pickle=False)
        os.chmod(part, 0o644)  # readable as the compiled caches beside it are (mkstemp: 0600)
        os.replace(part, path)
        part = None
        for older in path.parent.glob(path.name.rsplit(".", 2)[0] + ".*.npy"):
            if older != path:  # kept by an earlier version of this file
                older.unlink(missing_ok=True)
    except OSError:
        pass
    finally:
        if part is not None:  # a write that failed leaves nothing behind
            with contextlib.suppress(OSError):
                os.unlink(part)
    return table


def _split_table(values: tuple[int, ...]) -> npt.NDArray[np.int16]:
    """:func:`split_table` computed."""
    n = 5**9
    states = np.arange(n, dtype=np.int32)
    total = np.zeros(n, dtype=np.int8)
    low = np.full(n, 9, dtype=np.int8)
    run = np.zeros(n, dtype=np.int8)  # nonzero digits in a row from the lowest one
    open_run = np.ones(n, dtype=bool)
    for i in range(9):
        d = (states // 5**i) % 5
        nz = d > 0
        total += d.astype(np.int8)
        first = nz & (low == 9)
        low[first] = i
        started = low < 9
        run += (started & nz & open_run).astype(np.int8)
        open_run &= ~(started & ~nz)
    best = np.zeros(n, dtype=np.int16)
    vals = [0, 0, 0] + [values[min(L, 2 + len(values)) - 3] for L in range(3, 10)]
    for level in range(1, int(total.max()) + 1):
        idx = np.flatnonzero(total == level)
        unit = (5 ** low[idx].astype(np.int64)).astype(np.int64)
        cand = best[idx - unit].astype(np.int32)
        mr = run[idx]
        for length in range(3, int(mr.max()) + 1):
            ok = mr >= length
            target = np.where(ok, idx - unit * ((5**length - 1) // 4), 0)
            cand = np.where(ok, np.maximum(cand, vals[length] + best[target]), cand)
        best[idx] = cand
    return best


def cross_suit_sequences(mask: int, rules: Rules) -> tuple[int, int]:
    """Sequences in any suits (du Coeur) of a hand: (best code, what the best split counts)."""
    tables = suit_tables(rules)
    presence = counts = 0
    for s in range(4):
        m = mask >> (9 * s) & 0x1FF
        presence |= m
        counts += tables.base5[m]
    return tables.seq_code[presence], int(split_table(rules.sequence_values)[counts])


# ====================================================================== draws
@dataclass(frozen=True, slots=True, eq=False)
class Draws:
    """The draws of ``k`` cards from the unseen cards: one row per draw.

    ``suits[:, s]`` is the 9-bit holding the draw adds to suit ``s``; ``exact``
    says whether every draw is present (each once) or a uniform sample.
    """

    k: int
    suits: npt.NDArray[np.uint16]
    exact: bool
    total: int
    """How many different draws there are (``C(unseen, k)``)."""

    @property
    def count(self) -> int:
        return int(self.suits.shape[0])


def draws(
    unseen: Sequence[int], k: int, *, limit: int | None = None, rng: random.Random | None = None
) -> Draws:
    """Every draw of ``k`` of the ``unseen`` card indices, or ``limit`` sampled ones.

    Draws are sampled (uniformly, with replacement among the ``C(n, k)``) only
    when there are more than ``limit``; ``rng`` then gives the sample.
    """
    cards = list(unseen)
    if not 0 <= k <= len(cards):
        raise PiquetError(f"cannot draw {k} of {len(cards)} unseen cards: 0 to {len(cards)}")
    total = comb(len(cards), k)
    suit_of = np.array([c // 9 for c in cards], dtype=np.int64)
    bit_of = np.array([1 << (c % 9) for c in cards], dtype=np.int64)
    if limit is None or total <= limit:
        return Draws(k, _every_draw(suit_of, bit_of, k), True, total)
    r = rng if rng is not None else random.Random(0)
    gen = np.random.default_rng(r.getrandbits(63))
    keys = gen.random((limit, len(cards)))
    idx = np.argpartition(keys, k - 1, axis=1)[:, :k].astype(np.int64)
    n = idx.shape[0]
    out = np.zeros((n, 4), dtype=np.int64)
    for col in range(k):
        c = idx[:, col]
        s = suit_of[c]
        b = bit_of[c]
        for suit in range(4):
            out[:, suit] |= np.where(s == suit, b, 0)
    return Draws(k, out.astype(np.uint16), False, total)


def _every_draw(suit_of: I64, bit_of: I64, k: int) -> npt.NDArray[np.uint16]:
    """Every draw of ``k`` of the cards (as suit masks), in ``itertools.combinations`` order.

    Built level by level: the draws of ``j`` cards starting with card ``f`` are card
    ``f`` added to the draws of ``j - 1`` cards from those after it, which in that
    (lexicographic) order are the last ``C(n - f - 1, j - 1)`` rows of the level below.
    A few array copies per level instead of a Python tuple per draw (8 of 24 cards,
    735,471 draws: 2 ms of CPU instead of 0.47 s).
    """
    n = len(suit_of)
    level = np.zeros((1, 4), dtype=np.uint16)
    for j in range(1, k + 1):
        parts = []
        for f in range(n - j + 1):
            part = level[len(level) - comb(n - f - 1, j - 1) :].copy()
            part[:, int(suit_of[f])] |= np.uint16(bit_of[f])
            parts.append(part)
        level = np.concatenate(parts)
    return level


def discard_masks(hand: int, lo: int, hi: int) -> list[int]:
    """Every discard of ``lo`` to ``hi`` cards of ``hand``, by size then card order."""
    cards = mask_cards(hand)
    out = []
    for k in range(lo, hi + 1):
        for combo in itertools.combinations(cards, k):
            m = 0
            for c in combo:
                m |= 1 << c
            out.append(m)
    return out


# ====================================================================== the opponent
@dataclass(frozen=True, slots=True, eq=False)
class OpponentModel:
    """The other player's held declarations, as a sample of :class:`HandStats`.

    From it come, for each class and each of our codes, the chance that our
    claim is good (the other's is lower), that it is not beaten (lower or
    equal), and the points the other counts when his is better.
    """

    stats: tuple[HandStats, ...]
    blanche: float = 0.0
    """Chance the other holds carte blanche (it bars our repique)."""

    def tables(self, cls: DeclClass, size: int) -> tuple[F64, F64, F64]:
        """(good, not beaten, his points when better) for every code below ``size``."""
        if cls is DeclClass.POINT:
            pairs = [(s.point_code >> 4, s.point_value) for s in self.stats]
            ours = np.arange(size) >> 4
        elif cls is DeclClass.SEQUENCE:
            pairs = [(s.seq_code, s.seq_sum) for s in self.stats]
            ours = np.arange(size)
        else:
            pairs = [(s.set_code, s.set_sum) for s in self.stats]
            ours = np.arange(size)
        n = max(len(pairs), 1)
        keys = np.array(sorted(p[0] for p in pairs), dtype=np.int64)
        order = sorted(pairs)
        vals = np.array([p[1] for p in order], dtype=np.float64)
        suffix = np.concatenate([np.cumsum(vals[::-1])[::-1], [0.0]])
        below = np.searchsorted(keys, ours, side="left")
        upto = np.searchsorted(keys, ours, side="right")
        good = below / n
        not_beaten = upto / n
        his = suffix[upto] / n
        if cls is not DeclClass.POINT:
            # no holding: nothing to win, nothing shown (code 0 is "none")
            good[0] = 0.0
        return good, not_beaten, his


# ====================================================================== the pass
@dataclass(frozen=True, slots=True, eq=False)
class PassResult:
    """Per discard (in ``discards`` order): exact sums over its draws, and the estimates.

    ``point_sum``, ``seq_sum``, ``set_sum`` are the totals, over the draws, of
    what each class of the final hand counts if good (integers: exact when
    ``exact``); divide by ``draws`` for the mean.  ``decl_value`` and
    ``play_value`` are the pass's estimates of the net points the declarations
    and the play bring against the opponent model (means over the draws).
    """

    discards: tuple[int, ...]
    draws: npt.NDArray[np.int64]
    exact: npt.NDArray[np.bool_]
    point_sum: I64
    seq_sum: I64
    set_sum: I64
    decl_value: F64
    play_value: F64
    hands: int
    """Final hands evaluated."""

    @property
    def value(self) -> F64:
        return self.decl_value + self.play_value

    @property
    def all_exact(self) -> bool:
        return bool(self.exact.all())


@dataclass(frozen=True, slots=True, eq=False)
class _Arrays:
    """The per-suit tables of a rule set as numpy arrays (cached per rule set)."""

    pcode: I64
    scode: I64
    pval_of_code: npt.NDArray[np.int16]
    pval: npt.NDArray[np.int16]
    ssum: npt.NDArray[np.int16]
    rpack: I32
    base5: I32
    strength: F32
    set_code: I64 | None
    set_sum: npt.NDArray[np.int16] | None


@lru_cache(maxsize=32)
def _arrays(rules: Rules) -> _Arrays:
    tables = suit_tables(rules)
    pcode = np.array(tables.point_code, dtype=np.int64)
    pval_of_code = np.array(
        [tables.point_value(c) for c in range(int(pcode.max()) + 1)], dtype=np.int16
    )
    set_code = set_sum = None
    if len(tables.set_ranks) <= 6:
        set_code, set_sum = _set_tables(tables)
    return _Arrays(
        pcode=pcode,
        scode=np.array(tables.seq_code, dtype=np.int64),
        pval_of_code=pval_of_code,
        pval=pval_of_code[pcode],
        ssum=np.array(tables.seq_sum, dtype=np.int16),
        rpack=np.array(tables.rank_pack, dtype=np.int32),
        base5=np.array(tables.base5, dtype=np.int32),
        strength=np.array(tables.strength, dtype=np.float32),
        set_code=set_code,
        set_sum=set_sum,
    )


def _set_tables(tables: SuitTables) -> tuple[I64, npt.NDArray[np.int16]]:
    """Best set code and set total for every packed rank count (vectorised)."""
    rules = tables.rules
    packs = np.arange(1 << (3 * len(tables.set_ranks)), dtype=np.int64)
    code = np.zeros(len(packs), dtype=np.int64)
    total = np.zeros(len(packs), dtype=np.int16)
    for i, rank in enumerate(tables.set_ranks):
        n = packs >> (3 * i) & 7
        enc = n * 16 + rank if rules.quatorze_beats_trio else rank * 8 + n
        code = np.where(n >= 3, np.maximum(code, enc), code)
        total += np.where(
            n == 4, rules.quatorze_value, np.where(n == 3, rules.trio_value, 0)
        ).astype(np.int16)
    return code, total


_COMBINE: Final[dict[str, np.ufunc]] = {
    "pval": np.maximum,
    "pack": np.add,
    "b5": np.add,
    "pres": np.bitwise_or,
    "ssum": np.add,
    "str": np.add,
    "ptg": np.maximum,
    "ptnb": np.maximum,
    "sqg": np.maximum,
    "sqh": np.minimum,
    "sqnb": np.maximum,
}


def declaration_pass(
    hand: int,
    rules: Rules,
    *,
    discards: Sequence[int],
    unseen: Sequence[int],
    opponent: OpponentModel | None = None,
    budget: int = DEFAULT_BUDGET,
    rng: random.Random | None = None,
) -> PassResult:
    """Value every discard in ``discards`` over every draw from ``unseen``.

    The player holds ``hand`` (a mask), lays out a discard and takes in as
    many cards, drawn from ``unseen`` (card indices he has not seen).  For
    each discard size the draws are every combination, unless the discards of
    that size times the combinations exceed ``budget``; then a uniform sample
    of ``budget // discards`` draws (from ``rng``) is used.  With an
    ``opponent`` model, the estimates weigh each class by the chance it is
    good against his holdings; without one, ``decl_value`` counts every class
    as good and ``play_value`` is 0.
    """
    tables = suit_tables(rules)
    arr = _arrays(rules)
    cross = not rules.sequences_same_suit
    by_size: dict[int, list[int]] = {}
    for d in discards:
        by_size.setdefault(d.bit_count(), []).append(d)
    n_all = len(discards)
    position = {d: i for i, d in enumerate(discards)}
    out_draws = np.zeros(n_all, dtype=np.int64)
    out_exact = np.zeros(n_all, dtype=np.bool_)
    pt_sum = np.zeros(n_all, dtype=np.int64)
    sq_sum = np.zeros(n_all, dtype=np.int64)
    st_sum = np.zeros(n_all, dtype=np.int64)
    decl = np.zeros(n_all, dtype=np.float64)
    play = np.zeros(n_all, dtype=np.float64)
    hands = 0

    per_suit: dict[str, npt.NDArray[Any]] = {
        "pval": arr.pval,
        "pack": arr.rpack,
    }
    if cross:
        per_suit["b5"] = arr.base5
        per_suit["pres"] = np.arange(512, dtype=np.int16)
    else:
        per_suit["ssum"] = arr.ssum
    weights = None
    if opponent is not None:
        weights = _Weights.build(opponent, arr, rules)
        per_suit.update(
            str=arr.strength,
            ptg=weights.pt_gain,
            ptnb=weights.pt_nb,
            sqg=weights.sq_good,
            sqh=weights.sq_his,
            sqnb=weights.sq_nb,
        )

    limits = _draw_limits({k: len(g) for k, g in by_size.items()}, len(unseen), budget)
    for k, group in sorted(by_size.items()):
        dr = draws(unseen, k, limit=limits[k], rng=rng)
        n_draw = dr.count
        # each discard leaves a holding in each suit, which takes few distinct values:
        # each suit's rows (one per holding, one column per draw) are looked up once; a
        # discard is then the pair (S, H) of its rows combined, against the pair (D, C),
        # combined once for each (D, C) it leaves (the outer loop)
        rows: list[dict[str, npt.NDArray[Any]]] = []
        row_of: list[I64] = []
        for s in range(4):
            kept = [(hand & ~d) >> (9 * s) & 0x1FF for d in group]
            distinct = sorted(set(kept))
            where = {v: i for i, v in enumerate(distinct)}
            row_of.append(np.array([where[v] for v in kept], dtype=np.int64))
            held = (
                np.array(distinct, dtype=np.int64)[:, None]
                | dr.suits[:, s].astype(np.int64)[None, :]
            )
            rows.append({name: t[held] for name, t in per_suit.items()})
        pair_of = [row_of[0] * 512 + row_of[1], row_of[2] * 512 + row_of[3]]
        n_pairs = [len(np.unique(p)) for p in pair_of]
        outer, inner = (0, 1) if n_pairs[0] <= n_pairs[1] else (1, 0)
        block = max(1, _BLOCK // max(n_draw, 1))
        order = np.argsort(pair_of[outer], kind="stable")
        o_sorted = pair_of[outer][order]
        bounds = np.flatnonzero(np.diff(o_sorted)) + 1
        rows_a, rows_b = rows[2 * inner], rows[2 * inner + 1]
        for run in np.split(order, bounds):
            first = int(run[0])
            ja, jb = int(row_of[2 * outer][first]), int(row_of[2 * outer + 1][first])
            rows_o = {
                name: op(rows[2 * outer][name][ja], rows[2 * outer + 1][name][jb])
                for name, op in _COMBINE.items()
                if name in per_suit
            }
            for start in range(0, len(run), block):
                members = run[start : start + block]

                def g(
                    name: str,
                    ka: I64 = row_of[2 * inner][members],
                    kb: I64 = row_of[2 * inner + 1][members],
                    rows_o: dict[str, npt.NDArray[Any]] = rows_o,
                    rows_a: dict[str, npt.NDArray[Any]] = rows_a,
                    rows_b: dict[str, npt.NDArray[Any]] = rows_b,
                ) -> npt.NDArray[Any]:
                    op = _COMBINE[name]
                    x = rows_a[name][ka]
                    op(x, rows_b[name][kb], out=x)
                    op(x, rows_o[name], out=x)
                    return x

                pos = _positions(position, [group[int(m)] for m in members])
                stats = _block(g, cross, arr, weights, rules, tables)
                pt_sum[pos], sq_sum[pos], st_sum[pos], decl[pos], play[pos] = stats
                if weights is None:
                    decl[pos] = (pt_sum[pos] + sq_sum[pos] + st_sum[pos]) / n_draw
        for d in group:
            i = position[d]
            out_draws[i] = n_draw
            out_exact[i] = dr.exact
        hands += n_draw * len(group)
    return PassResult(
        tuple(discards), out_draws, out_exact, pt_sum, sq_sum, st_sum, decl, play, hands
    )


@dataclass(frozen=True, slots=True, eq=False)
class _Weights:
    """The opponent model folded into per-suit and per-code tables."""

    pt_gain: F32
    pt_nb: F32
    sq_good: F32
    sq_his: F32
    sq_nb: F32
    g_sq: F64
    nb_sq: F64
    his_sq: F64
    set_gain: F32 | None
    set_nb: F32 | None
    repique: float

    @classmethod
    def build(cls, opponent: OpponentModel, arr: _Arrays, rules: Rules) -> _Weights:
        n_codes = len(arr.pval_of_code)
        g_pt, nb_pt, his_pt = opponent.tables(DeclClass.POINT, n_codes)
        g_sq, nb_sq, his_sq = opponent.tables(DeclClass.SEQUENCE, 160)
        set_gain = set_nb = None
        if arr.set_code is not None and arr.set_sum is not None:
            g_st, nb_st, his_st = opponent.tables(DeclClass.SET, 128)
            set_gain = (g_st[arr.set_code] * arr.set_sum - his_st[arr.set_code]).astype(np.float32)
            set_nb = nb_st[arr.set_code].astype(np.float32)
        return cls(
            pt_gain=(g_pt * arr.pval_of_code - his_pt).astype(np.float32)[arr.pcode],
            pt_nb=nb_pt.astype(np.float32)[arr.pcode],
            sq_good=g_sq.astype(np.float32)[arr.scode],
            sq_his=his_sq.astype(np.float32)[arr.scode],
            sq_nb=nb_sq.astype(np.float32)[arr.scode],
            g_sq=g_sq,
            nb_sq=nb_sq,
            his_sq=his_sq,
            set_gain=set_gain,
            set_nb=set_nb,
            repique=(1.0 - opponent.blanche) * rules.repique_bonus,
        )


def _block(
    g: Callable[[str], npt.NDArray[Any]],
    cross: bool,
    arr: _Arrays,
    weights: _Weights | None,
    rules: Rules,
    tables: SuitTables,
) -> tuple[I64, I64, I64, F64, F64]:
    """Sums and mean estimates for one block of discards (rows) over the draws (columns)."""
    point_v = g("pval")
    pack = g("pack").astype(np.intp)
    seq_code = None
    if cross:
        seq_code = arr.scode[g("pres").astype(np.intp)]
        seq_total = split_table(rules.sequence_values)[g("b5").astype(np.intp)]
    else:
        seq_total = g("ssum")
    set_total: npt.NDArray[Any]
    if arr.set_sum is not None:
        set_total = arr.set_sum[pack]
    else:
        set_total = _set_sums_slow(pack, tables)
    sums = (
        point_v.sum(axis=1, dtype=np.int64),
        seq_total.sum(axis=1, dtype=np.int64),
        set_total.sum(axis=1, dtype=np.int64),
    )
    n = point_v.shape[0]
    if weights is None:
        return (*sums, np.zeros(n), np.zeros(n))
    w = weights
    value = g("ptg")
    if seq_code is not None:
        value += (w.g_sq[seq_code] * seq_total - w.his_sq[seq_code]).astype(np.float32)
    else:
        good = g("sqg")
        good *= seq_total
        good -= g("sqh")
        value += good
    if w.set_gain is not None:
        value += w.set_gain[pack]
    else:
        value += set_total
    total = point_v + seq_total
    total += set_total
    rows_hit, cols_hit = np.nonzero(total >= rules.pique_threshold)
    if len(rows_hit):
        # repique: thirty in hand before the other counts anything
        ok = g("ptnb")[rows_hit, cols_hit]
        if seq_code is not None:
            ok = ok * w.nb_sq[seq_code[rows_hit, cols_hit]].astype(np.float32)
        else:
            ok = ok * g("sqnb")[rows_hit, cols_hit]
        if w.set_nb is not None:
            ok = ok * w.set_nb[pack[rows_hit, cols_hit]]
        value[rows_hit, cols_hit] += ok * np.float32(w.repique)
    play = _play_estimate(g("str"), rules)
    return (*sums, value.mean(axis=1, dtype=np.float64), play.mean(axis=1, dtype=np.float64))


def _draw_limits(groups: dict[int, int], n_unseen: int, budget: int) -> dict[int, int]:
    """Draws allowed per discard size so that all sizes together stay within ``budget`` hands.

    When every hand fits, every draw is taken.  Otherwise a quarter of the
    budget is shared out: sizes are served smallest first, each exactly if its
    hands fit in an equal share of what is left, else with a sample filling
    that share.
    """
    need = {k: n * comb(n_unseen, k) for k, n in groups.items()}
    if sum(need.values()) <= budget:
        return {k: comb(n_unseen, k) for k in groups}
    left = budget // 4  # sampling anyway: a quarter of the budget is plenty
    out: dict[int, int] = {}
    pending = sorted(groups, key=lambda k: need[k])
    for i, k in enumerate(pending):
        share = left // (len(pending) - i)
        if need[k] <= share:
            out[k] = comb(n_unseen, k)
            left -= need[k]
        else:
            out[k] = max(share // groups[k], 1)
            left -= out[k] * groups[k]
    return out


def _positions(position: dict[int, int], group: Sequence[int]) -> npt.NDArray[np.int64]:
    return np.array([position[d] for d in group], dtype=np.int64)


def _play_estimate(tricks: npt.NDArray[Any], rules: Rules) -> F32:
    """Net points of the play from the rough trick count (only for ranking discards)."""
    t: F32 = np.clip(tricks, 0.0, 12.0).astype(np.float32) - np.float32(6.0)
    cards: F32 = np.clip(t / np.float32(2.5), -1.0, 1.0) * np.float32(rules.cards_bonus)
    out: F32 = (t * np.float32(1.6) + cards).astype(np.float32)
    return out


def _set_sums_slow(pack: npt.NDArray[Any], tables: SuitTables) -> npt.NDArray[np.int32]:
    """Set totals from packed rank counts when the pack is too wide for a table."""
    rules = tables.rules
    p = pack.astype(np.int64)
    total = np.zeros(p.shape, dtype=np.int32)
    for i in range(len(tables.set_ranks)):
        n = p >> (3 * i) & 7
        total += np.where(n == 4, rules.quatorze_value, np.where(n == 3, rules.trio_value, 0))
    return total
