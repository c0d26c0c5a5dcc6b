"""The declaration pass: every legal discard of a hand valued over every draw (or a uniform
sample of them) against a model of the other's hand, in numpy blocks over the suit tables."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from piquet.analysis.drawtables.codes import SEQUENCE_CODES, SET_CODES, sets_of
from piquet.analysis.drawtables.tables import (
    _BLOCK,
    DEFAULT_BUDGET,
    F32,
    F64,
    I32,
    I64,
    OpponentModel,
    SuitTables,
    draws,
    split_table,
    suit_tables,
)
from piquet.core.declarations import (
    DeclClass,
)
from piquet.core.rules import Rules

__all__ = ["PassResult", "declaration_pass"]


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
    packs = np.arange(1 << (3 * len(tables.set_ranks)), dtype=np.int64)
    code, total = sets_of(
        ((rank, packs >> (3 * i) & 7) for i, rank in enumerate(tables.set_ranks)), tables.rules
    )
    return code.astype(np.int64), total.astype(np.int16)


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


def _per_suit(arr: _Arrays, cross: bool, opponent: OpponentModel | None, rules: Rules
              ) -> tuple[dict[str, npt.NDArray[Any]], _Weights | None]:
    """The tables looked up for each suit's holding (by name), and the opponent model's
    weights where there is one."""
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
    return per_suit, weights


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

    per_suit, weights = _per_suit(arr, cross, opponent, rules)

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
        g_sq, nb_sq, his_sq = opponent.tables(DeclClass.SEQUENCE, SEQUENCE_CODES)
        set_gain = set_nb = None
        if arr.set_code is not None and arr.set_sum is not None:
            g_st, nb_st, his_st = opponent.tables(DeclClass.SET, SET_CODES)
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
    p = pack.astype(np.int64)
    _, total = sets_of(
        ((rank, p >> (3 * i) & 7) for i, rank in enumerate(tables.set_ranks)), tables.rules
    )
    return np.asarray(total, dtype=np.int32)
