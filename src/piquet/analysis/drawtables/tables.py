"""The draw tables: each suit's claims and play strength tabulated by its cards, a hand's
statistics from them, every draw of the stock, and the model of the other's hand (the
package: :mod:`piquet.analysis.drawtables`)."""

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

from piquet.analysis.drawtables.codes import (
    point_code,
    point_worth,
    sequence_code,
    set_code,
    sets_of,
)
from piquet.core.cards import mask_cards
from piquet.core.declarations import (
    SUIT_COUNT,
    SUIT_PIPS,
    SUIT_RUNS,
    DeclClass,
)
from piquet.core.errors import PiquetError
from piquet.core.rules import PointMeasure, Rules

__all__ = [
    "DEFAULT_BUDGET",
    "Draws",
    "HandStats",
    "OpponentModel",
    "SuitTables",
    "claim_codes",
    "cross_suit_sequences",
    "split_table",
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
        return point_worth(code >> 4, code & 15, self.rules)

    def set_code_sum(self, pack: int) -> tuple[int, int]:
        """(best set code, what all the sets count) from packed rank counts."""
        found = self._set_cache.get(pack)
        if found is not None:
            return found
        best, total = sets_of(
            ((rank, pack >> (3 * i) & 7) for i, rank in enumerate(self.set_ranks)), self.rules
        )
        found = (int(best), int(total))
        self._set_cache[pack] = found
        return found


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
    low_bit = int(rules.low_rank) - 6
    set_ranks = tuple(range(int(rules.set_min_rank), 15))
    pcode, scode, ssum, rpack, strength, base5 = [], [], [], [], [], []
    for m in range(512):
        m_in = m & ~((1 << low_bit) - 1)
        n, pips = SUIT_COUNT[m_in], SUIT_PIPS[m_in]
        pcode.append(point_code(n, pips, rules) if n else 0)
        best = 0
        total = 0
        for top_bit, length in SUIT_RUNS[m_in]:
            if length >= 3:
                best = max(best, sequence_code(length, top_bit + 6))
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
    """The code (:mod:`piquet.analysis.drawtables.codes`) of an engine
    :class:`~piquet.core.declarations.Claim` key."""
    if cls is DeclClass.POINT:
        cards, pips = key if rules.point_measure is PointMeasure.CARDS else (size, key[0])
        return point_code(cards, pips, rules)
    if cls is DeclClass.SEQUENCE:
        return sequence_code(*key)
    count, rank = key if rules.quatorze_beats_trio else key[::-1]
    return set_code(count, rank, rules)


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


