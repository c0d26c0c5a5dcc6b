"""What a deal's outcome is worth in the match as it stands.

A deal ends with elder counting ``x`` points and younger ``y``; what that is worth depends
on the match: a Rubicon partie is settled at its last deal (a loser under 100 pays both
totals), a game is won by reaching the target first (a lurched loser pays double, a pool
pays by games).  :func:`deal_table` computes, for the deal about to be played, the value
of every outcome ``(x, y)`` from elder's side, in the units the match is played for:

- **a partie**: the expected settlement (points) at its end.  The deals still to come
  after this one are drawn (:data:`FUTURES` sequences, seeded) from a sample of deals the
  book plays against itself in the compiled kernel (:func:`deal_outcomes`), the roles
  alternating; on the last deal the value is the settlement itself.
- **a game (or a pool)**: the expected stake, :data:`STAKE` points a game (twice that for a
  lurch), a game reached in this deal won by whoever reached the target (the one further
  past it where both did: the table cannot tell who reached it first; the solver's
  ``RACE`` objective plays such deals card by card), else the deals to come drawn as for
  a partie until one of the two reaches the target.

The table is :data:`WIDTH` by :data:`WIDTH` integers, the last row and column standing for
every larger count; the solver reads it at the end of the play (``Mode.TABLE``) and the
expert's exchange values its play-outs with it.  Tables are cached on the rule set's value
and the match's numbers, so a deal computes its table once.
"""

from __future__ import annotations

import functools
import math
import random
from typing import Final

import numpy as np
import numpy.typing as npt

from piquet.core.cards import pack as rules_pack
from piquet.core.matchtypes import settlement
from piquet.core.rules import Format, Rules

__all__ = [
    "FUTURES",
    "SAMPLE",
    "STAKE",
    "LINEAR_TOLERANCE",
    "WIDTH",
    "bends",
    "deal_outcomes",
    "deal_table",
    "game_values",
    "table_line",
    "partie_settlement",
]

WIDTH: Final = 160
"""Points a side may count in a deal, as the table tells them apart (more count as 159)."""
SAMPLE: Final = 1000
"""Deals the book plays against itself for the distribution of a deal's outcome."""
FUTURES: Final = 512
"""Sequences of future deals drawn for each table."""
STEP: Final = 4
"""A partie's table is computed every ``STEP`` points and interpolated between."""
STAKE: Final = 100
"""A game's worth in the table's units (points): a lurch is twice this."""


@functools.lru_cache(maxsize=16)
def deal_outcomes(rules: Rules) -> npt.NDArray[np.int64]:
    """(elder's points, younger's points) of :data:`SAMPLE` deals the book plays against
    itself from 0-0 (the compiled kernel, seeded): the distribution of a deal's outcome."""
    from piquet.fast.engine import play_deal

    rng = random.Random(f"piquet-matchvalue:{rules.name}")
    out = np.zeros((SAMPLE, 2), dtype=np.int64)
    deck = rules_pack(rules)
    for i in range(SAMPLE):
        rng.shuffle(deck)
        got = play_deal(rules, deck, policy="book", seed=i)
        out[i] = got.scores
    return out


def partie_settlement(rules: Rules, mine: npt.NDArray[np.integer],
                      theirs: npt.NDArray[np.integer]) -> npt.NDArray[np.integer]:
    """The settlement of a partie ending at these totals, from the first side's (positive
    when it wins; a tie settles nothing), as :class:`~piquet.core.match.Match` settles it."""
    ws = np.maximum(mine, theirs)
    ls = np.minimum(mine, theirs)
    value, _ = settlement(rules.settlement, ws, ls)
    return np.where(mine > theirs, value, np.where(mine < theirs, -value, 0))


def _futures(rules: Rules, first_younger: bool, count: int, seed: str) -> npt.NDArray[np.int64]:
    """``FUTURES`` sequences of ``count`` deals: (mine, theirs) points of each, from the
    side that is younger in the first of them when ``first_younger``."""
    sample = deal_outcomes(rules)
    rng = np.random.default_rng(random.Random(seed).randrange(2**63))
    picks = rng.integers(0, len(sample), size=(FUTURES, count))
    drawn = sample[picks]  # (F, count, 2): elder, younger
    out = drawn.copy()
    for k in range(count):
        if (k % 2 == 0) == first_younger:  # this side is younger in deal k
            out[:, k, 0] = drawn[:, k, 1]
            out[:, k, 1] = drawn[:, k, 0]
    return out


@functools.lru_cache(maxsize=64)
def deal_table(rules: Rules, format: Format, start: tuple[int, int], deals_left: int = 0
               ) -> tuple[int, ...]:
    """The value (elder's side) of the deal ending with elder counting ``x`` and younger
    ``y``: entry ``x * WIDTH + y`` of a flat tuple (see the module docstring).

    ``start`` is (elder's, younger's) score before the deal; ``deals_left`` the deals of a
    partie after this one (ignored for a game or a pool).
    """
    x = np.arange(WIDTH, dtype=np.int64)[:, None, None]
    y = np.arange(WIDTH, dtype=np.int64)[None, :, None]
    seed = f"piquet-matchvalue:{rules.name}:{format.value}:{start}:{deals_left}"
    a = start[0] + x  # elder's total after the deal
    b = start[1] + y
    if format is Format.PARTIE:
        if deals_left <= 0:
            table = partie_settlement(rules, a[:, :, 0], b[:, :, 0]).astype(np.float64)
        else:
            # elder of this deal is younger in the next one
            # on a grid of every STEP points, then bilinear between its nodes
            fut = _futures(rules, True, deals_left, seed).sum(axis=1)  # (F, 2)
            nodes = np.arange(0, WIDTH + STEP, STEP, dtype=np.int64)
            fa = start[0] + nodes[:, None, None] + fut[None, None, :, 0]
            fb = start[1] + nodes[None, :, None] + fut[None, None, :, 1]
            coarse = partie_settlement(rules, fa, fb).mean(axis=2)
            table = _bilinear(coarse, STEP)
    else:
        table = _game_values(rules, a[:, :, 0], b[:, :, 0], seed)
    return tuple(int(v) for v in np.rint(table).ravel())


LINEAR_TOLERANCE: Final = 6.0
"""Points: a table whose values at the sampled outcomes stay this close (root mean square)
to a straight line in the points' difference leaves the play to the ``DIFF`` objective
(docs/strength.md: with the table at every leaf the first deals of a partie lost 2.4
points a deal; its table is 5.5 points from a line, a game's first 4.8, the later deals
of a partie 7 to 13)."""


@functools.lru_cache(maxsize=64)
def table_line(rules: Rules, table: tuple[int, ...]) -> tuple[float, float]:
    """(slope, bends) of a deal's table: the best straight line in elder's points less
    younger's over the sampled outcomes (:func:`deal_outcomes`), its slope (table units a
    point), and the root mean square distance from it in points (infinite where the slope
    is not positive: points are then not what counts)."""
    w = math.isqrt(len(table))
    grid = np.asarray(table, dtype=np.float64).reshape(w, w)
    sample = np.minimum(deal_outcomes(rules), w - 1)
    v = grid[sample[:, 0], sample[:, 1]]
    d = (sample[:, 0] - sample[:, 1]).astype(np.float64)
    slope, cut = np.polyfit(d, v, 1)
    if slope <= 1e-9:
        return float(max(slope, 0.0)), float("inf")
    return float(slope), float(np.sqrt(np.mean((v - (slope * d + cut)) ** 2)) / slope)


def bends(rules: Rules, format: Format, start: tuple[int, int], deals_left: int = 0) -> float:
    """How far the deal's :func:`deal_table` is from valuing points alone, in points
    (:func:`table_line`)."""
    return table_line(rules, deal_table(rules, format, start, deals_left))[1]


def _bilinear(coarse: npt.NDArray[np.float64], step: int) -> npt.NDArray[np.float64]:
    """The WIDTH x WIDTH table between the nodes of ``coarse`` (every ``step`` points)."""
    pos = np.arange(WIDTH) / step
    i = np.minimum(pos.astype(np.int64), coarse.shape[0] - 2)
    f = pos - i
    rows = coarse[i] * (1 - f)[:, None] + coarse[i + 1] * f[:, None]  # (WIDTH, nodes)
    out: npt.NDArray[np.float64] = rows[:, i] * (1 - f)[None, :] + rows[:, i + 1] * f[None, :]
    return out


def _terminal(rules: Rules, a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]
              ) -> npt.NDArray[np.float64]:
    """The first side's stake where one of the two has reached the target (the one further
    past it wins where both have: the table cannot tell who reached it first); 0 where
    neither has."""
    target = rules.target
    lurch = rules.lurch_below
    done_a = a >= target
    done_b = b >= target
    a_wins = done_a & (~done_b | (a - target >= b - target))
    ls = np.where(a_wins, b, a)
    units = np.where((lurch > 0) & (ls < lurch), 2.0, 1.0) * STAKE
    return np.where(done_a | done_b, np.where(a_wins, units, -units), 0.0)


@functools.lru_cache(maxsize=8)
def game_values(rules: Rules) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(E, Y): a side's expected stake with its score ``A`` and the other's ``B`` (both under
    the target), being elder (E) or younger (Y) in the next deal, every deal to come drawn
    from :func:`deal_outcomes` (exact over the sample: a backward pass over the scores,
    which only grow)."""
    target = rules.target
    sample = deal_outcomes(rules)
    sample = sample[(sample[:, 0] + sample[:, 1]) > 0]
    ex, ey = sample[:, 0], sample[:, 1]
    E = np.zeros((target, target))
    Y = np.zeros((target, target))

    def after(A: npt.NDArray[np.int64], B: npt.NDArray[np.int64], nxt: npt.NDArray[np.float64]
              ) -> npt.NDArray[np.float64]:
        over = (A >= target) | (B >= target)
        inside = nxt[np.minimum(A, target - 1), np.minimum(B, target - 1)]
        return np.where(over, _terminal(rules, A, B), inside)

    for total in range(2 * target - 2, -1, -1):
        lo = max(0, total - target + 1)
        A = np.arange(lo, min(total, target - 1) + 1)
        B = total - A
        # elder now: this side counts ex; younger in the next deal
        E[A, B] = after(A[:, None] + ex[None, :], B[:, None] + ey[None, :], Y).mean(axis=1)
        Y[A, B] = after(A[:, None] + ey[None, :], B[:, None] + ex[None, :], E).mean(axis=1)
    return E, Y


def _game_values(rules: Rules, a: npt.NDArray[np.int64], b: npt.NDArray[np.int64],
                 seed: str) -> npt.NDArray[np.float64]:
    """Elder's expected stake with the totals ``a``, ``b`` after this deal (elder is
    younger in the next one)."""
    target = rules.target
    _, Y = game_values(rules)
    over = (a >= target) | (b >= target)
    inside = Y[np.minimum(a, target - 1), np.minimum(b, target - 1)]
    return np.where(over, _terminal(rules, a, b), inside)
