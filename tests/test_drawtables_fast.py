"""The fast draws and declaration pass against the first, plain numpy ones (the oracle).

``old_draws`` and ``old_declaration_pass`` are the implementations the module had before
the draws were built by a recurrence on the suit masks and the pass combined per-suit
rows (kept here verbatim, only renamed): the new ones must give bit-identical results on
hands of every preset, elder and younger, with and without an opponent model.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from piquet.advisor.deals import Setup
from piquet.advisor.ranking import opponent_model
from piquet.analysis.drawtables import (
    DEFAULT_BUDGET,
    Draws,
    OpponentModel,
    PassResult,
    declaration_pass,
    discard_masks,
    draws,
    suit_tables,
)
from piquet.analysis.drawtables.declpass import (
    _COMBINE,
    _arrays,
    _block,
    _draw_limits,
    _positions,
    _Weights,
)
from piquet.analysis.drawtables.tables import _BLOCK
from piquet.analysis.odds import deck_mask
from piquet.core.cards import mask_cards
from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS, Rules

I64 = npt.NDArray[np.int64]


def old_draws(
    unseen: Sequence[int], k: int, *, limit: int | None = None, rng: random.Random | None = None
) -> Draws:
    """Every draw of ``k`` of the ``unseen`` card indices, or ``limit`` sampled ones.

    Draws are sampled (uniformly, with replacement among the ``C(n, k)``) only
    when there are more than ``limit``; ``rng`` then gives the sample.
    """
    cards = list(unseen)
    total = comb(len(cards), k)
    suit_of = np.array([c // 9 for c in cards], dtype=np.int64)
    bit_of = np.array([1 << (c % 9) for c in cards], dtype=np.int64)
    if limit is not None and total > limit:
        r = rng if rng is not None else random.Random(0)
        gen = np.random.default_rng(r.getrandbits(63))
        keys = gen.random((limit, len(cards)))
        idx = np.argpartition(keys, k - 1, axis=1)[:, :k].astype(np.int64)
        exact = False
    elif k == 0:
        idx = np.zeros((1, 0), dtype=np.int64)
        exact = True
    else:
        idx = np.array(list(itertools.combinations(range(len(cards)), k)), dtype=np.int64)
        exact = True
    n = idx.shape[0]
    out = np.zeros((n, 4), dtype=np.int64)
    for col in range(k):
        c = idx[:, col]
        s = suit_of[c]
        b = bit_of[c]
        for suit in range(4):
            out[:, suit] |= np.where(s == suit, b, 0)
    return Draws(k, out.astype(np.uint16), exact, total)


def old_declaration_pass(
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
        dr = old_draws(unseen, k, limit=limits[k], rng=rng)
        n_draw = dr.count
        # each discard leaves a holding in each suit; a pair of suits takes few
        # distinct values, so each pair's rows are combined once, and each
        # discard is one row of the pair (S, H) against one row of (D, C)
        pair_rows: list[dict[str, npt.NDArray[Any]]] = []
        pair_of: list[I64] = []
        for a, b in ((0, 1), (2, 3)):
            kept = [((hand & ~d) >> (9 * a) & 0x1FF, (hand & ~d) >> (9 * b) & 0x1FF) for d in group]
            distinct = sorted(set(kept))
            where = {v: i for i, v in enumerate(distinct)}
            pair_of.append(np.array([where[v] for v in kept], dtype=np.int64))
            va = np.array([v[0] for v in distinct], dtype=np.int64)[:, None]
            vb = np.array([v[1] for v in distinct], dtype=np.int64)[:, None]
            ia = va | dr.suits[:, a].astype(np.int64)[None, :]
            ib = vb | dr.suits[:, b].astype(np.int64)[None, :]
            pair_rows.append({name: _COMBINE[name](t[ia], t[ib]) for name, t in per_suit.items()})
        outer, inner = (
            (0, 1) if pair_rows[0]["pval"].shape[0] <= pair_rows[1]["pval"].shape[0] else (1, 0)
        )
        rows_o, rows_i = pair_rows[outer], pair_rows[inner]
        block = max(1, _BLOCK // max(n_draw, 1))
        order = np.argsort(pair_of[outer], kind="stable")
        o_sorted = pair_of[outer][order]
        bounds = np.flatnonzero(np.diff(o_sorted)) + 1
        for run in np.split(order, bounds):
            o = int(pair_of[outer][run[0]])
            for start in range(0, len(run), block):
                members = run[start : start + block]
                ji = pair_of[inner][members]

                def g(
                    name: str,
                    ji: I64 = ji,
                    o: int = o,
                    rows_i: dict[str, npt.NDArray[Any]] = rows_i,
                    rows_o: dict[str, npt.NDArray[Any]] = rows_o,
                ) -> npt.NDArray[Any]:
                    x = rows_i[name][ji]
                    _COMBINE[name](x, rows_o[name][o], out=x)
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


# ---------------------------------------------------------------- the tests
def _hand(preset: str, i: int) -> tuple[Rules, Setup]:
    rules = PRESETS[preset]
    rng = random.Random(f"test-drawtables-fast-{preset}-{i}")
    hand = sum(1 << c for c in rng.sample(list(mask_cards(deck_mask(rules))), 12))
    return rules, Setup.of(hand, rules, i % 2)


def _same(a: PassResult, b: PassResult) -> bool:
    names = ("draws", "exact", "point_sum", "seq_sum", "set_sum", "decl_value", "play_value")
    return (
        a.discards == b.discards
        and a.hands == b.hands
        and all(np.array_equal(getattr(a, n), getattr(b, n)) for n in names)
    )


def test_every_draw_is_itertools_order_bit_for_bit() -> None:
    rng = random.Random(7)
    for n, k in [(20, 0), (20, 1), (20, 3), (20, 5), (24, 8), (24, 6), (13, 13), (9, 4)]:
        unseen = rng.sample(range(36), n)
        new, old = draws(unseen, k), old_draws(unseen, k)
        assert new.exact and old.exact and new.total == old.total == comb(n, k)
        assert new.suits.dtype == old.suits.dtype
        assert np.array_equal(new.suits, old.suits)


def test_sampled_draws_are_unchanged() -> None:
    unseen = list(range(4, 28))
    new = draws(unseen, 8, limit=1000, rng=random.Random(3))
    old = old_draws(unseen, 8, limit=1000, rng=random.Random(3))
    assert not new.exact and not old.exact
    assert np.array_equal(new.suits, old.suits)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_pass_is_bit_identical_to_the_first_one(preset: str) -> None:
    # elder and younger, with the opponent model (as the advisor) and without (as
    # ``piquet odds``); and once with a budget small enough that draws are sampled
    for i in range(6):
        rules, setup = _hand(preset, i)
        discards = discard_masks(setup.hand, setup.lo, setup.hi)
        opp = opponent_model(setup, 60, random.Random(i)) if i < 4 else None
        budget = 200_000 if i == 3 else DEFAULT_BUDGET
        new, old = (
            f(
                setup.hand,
                rules,
                discards=discards,
                unseen=setup.unseen,
                opponent=opp,
                budget=budget,
                rng=random.Random(i),
            )
            for f in (declaration_pass, old_declaration_pass)
        )
        assert _same(new, old), (preset, i)
        if i == 3:
            assert not new.all_exact


def test_a_draw_of_more_cards_than_unseen_is_refused_clearly() -> None:
    with pytest.raises(PiquetError, match="cannot draw 6 of 5 unseen cards: 0 to 5"):
        draws(range(5), 6)
    with pytest.raises(PiquetError, match="cannot draw -1 of 5"):
        draws(range(5), -1)
    assert draws(range(5), 0).total == 1 and draws(range(5), 5).total == 1
