"""Score the declarations of many hand pairs at once, over numpy arrays.

:func:`score_batch` does for arrays of card masks what
:func:`piquet.analysis.handscore.score_hands` does for one pair, and gives exactly the
same numbers: both players declare all they hold, each class goes to the
better best claim, the winner counts what :func:`piquet.core.declarations.counted`
gives, and repique is judged in counting order (carte blanche, point,
sequences, sets) as :class:`piquet.core.scoring.Tally` does.

The work is table look-ups over 9-bit suit masks (cards, pip total, maximal
runs of each suit) and per-rank counts.  With sequences in any suits
(``sequences_same_suit=False``) the winner counts the best split of his hand
into disjoint runs; that value depends only on how many cards of each rank he
holds, so it is read from a table over rank-count vectors, built once per
``sequence_values`` by dynamic programming (:func:`piquet.analysis.drawtables.split_table`,
the same table the advisor reads; checked against
:func:`piquet.core.declarations._best_split` by the tests).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from piquet.analysis.drawtables import split_table
from piquet.analysis.drawtables.codes import (
    point_key,
    point_worth,
    sequence_code,
    sequence_worths,
    sets_of,
)
from piquet.core.cards import DECK36
from piquet.core.declarations import SUIT_RUNS
from piquet.core.errors import PiquetError
from piquet.core.roles import ROLE_NAMES
from piquet.core.rules import Rules

__all__ = ["BATCH_FIELDS", "BatchScore", "batch_rows", "score_batch", "split_worth"]

BatchScore = dict[str, NDArray[np.int64]]
"""Arrays of one length, one entry per hand pair; see :data:`BATCH_FIELDS`."""

BATCH_FIELDS: Final = (
    "elder_blanche",
    "younger_blanche",
    "point_winner",
    "point_score",
    "sequences_winner",
    "sequences_score",
    "sets_winner",
    "sets_score",
    "repique",
    "elder_total",
    "younger_total",
)
"""The keys of a :data:`BatchScore`.  ``*_blanche``: carte blanche points;
``*_winner`` and ``repique``: -1 nobody, 0 elder, 1 younger; ``*_score``: what
the class winner counts (0 if nobody wins it); ``*_total``: everything,
the repique bonus included."""

_PIPS: Final = (6, 7, 8, 9, 10, 10, 10, 10, 11)
_CHUNK: Final = 1 << 15
_POW5: Final = np.array([5**i for i in range(9)], dtype=np.int64)


def _build_suit_tables() -> tuple[
    NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]
]:
    """Per 9-bit suit mask: cards, pip total, best run key, and rank digits in base 5."""
    masks = np.arange(512, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(9, dtype=np.int64)) & 1
    count = bits.sum(axis=1)
    pips = bits @ np.array(_PIPS, dtype=np.int64)
    # best run of a suit mask as a sequence code (piquet.analysis.drawtables.codes); 0 for none
    best_run = np.zeros(512, dtype=np.int64)
    for m in range(512):
        keys = [sequence_code(ln, top + 6) for top, ln in SUIT_RUNS[m] if ln >= 3]
        best_run[m] = max(keys, default=0)
    # summed over the four suits, this gives sum(count of rank i * 5**i): the rank counts
    base5 = bits @ _POW5
    return count, pips, best_run, base5


_SUIT_COUNT, _SUIT_PIPS, _SUIT_BEST_RUN, _SUIT_BASE5 = _build_suit_tables()


@lru_cache(maxsize=8)
def _point_tables(rules: Rules) -> tuple[NDArray[np.int64], ...]:
    """Per suit, per 9-bit mask: ``key * 64 + (3 - suit) * 16 + cards``.

    ``key`` is the point's comparison key (:func:`~piquet.analysis.drawtables.codes.point_key`;
    0 for no card).  The largest value over the four suits is the best point, the first
    suit winning ties as :func:`claims` sorts; the hand's key is ``value >> 6`` and the
    point's size ``value & 15``.
    """
    key = point_key(_SUIT_COUNT, _SUIT_PIPS, rules)
    return tuple(key * 64 + (3 - s) * 16 + _SUIT_COUNT for s in range(4))


class _SetKnobs(NamedTuple):
    quatorze_beats_trio: bool
    trio_value: int
    quatorze_value: int


def _set_tables(rules: Rules) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(code, worth) of the sets for every count vector of the ranks from the set's lowest.

    Indexed by ``code // 5**low``, where ``code`` is the hand's base-5 rank-count code and
    ``low`` the lowest set rank's index (0 = six).
    """
    knobs = _SetKnobs(rules.quatorze_beats_trio, rules.trio_value, rules.quatorze_value)
    return _set_tables_of(int(rules.set_min_rank) - 6, knobs)


@lru_cache(maxsize=16)
def _set_tables_of(low: int, knobs: _SetKnobs) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    codes = np.arange(5 ** (9 - low), dtype=np.int64)
    return sets_of(((low + 6 + i, (codes // 5**i) % 5) for i in range(9 - low)), knobs)


@lru_cache(maxsize=8)
def _suit_seq_score_table(rules: Rules) -> NDArray[np.int64]:
    """Per 9-bit suit mask: the worth of all its maximal runs of three or more."""
    worth = sequence_worths(rules)
    out = np.zeros(512, dtype=np.int64)
    for m in range(512):
        out[m] = sum(int(worth[ln]) for _, ln in SUIT_RUNS[m] if ln >= 3)
    return out


def split_worth(codes: NDArray[np.int64], values: tuple[int, ...]) -> NDArray[np.int64]:
    """What the best split into disjoint cross-suit runs counts, per rank-count code.

    ``codes`` are ``sum(counts[i] * 5**i)``; ``values`` the rule set's
    ``sequence_values``.  The table is the advisor's
    (:func:`piquet.analysis.drawtables.split_table`: every count vector, computed once
    and kept on disk), one implementation of the split for both.
    """
    return split_table(values)[codes].astype(np.int64)


def _as_masks(name: str, value: ArrayLike) -> NDArray[np.uint64]:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        raise PiquetError(f"{name} must be an array of card masks") from None
    if arr.ndim != 1:
        raise PiquetError(f"{name} must be one-dimensional, not of shape {arr.shape}")
    if arr.size == 0:
        return np.zeros(0, dtype=np.uint64)
    if arr.dtype.kind not in "iu":
        raise PiquetError(f"{name} must hold integer card masks, not {arr.dtype}")
    if arr.dtype.kind == "i" and int(arr.min()) < 0:
        raise PiquetError(f"{name} holds a negative mask; a card mask is 0 to 2**36 - 1")
    out = arr.astype(np.uint64)
    if int(out.max()) > DECK36:
        raise PiquetError(f"{name} holds a mask above 2**36 - 1 (only 36 cards exist)")
    return out


def _as_flags(name: str, value: ArrayLike | None, n: int) -> NDArray[np.bool_]:
    if value is None:
        return np.zeros(n, dtype=bool)
    arr = np.asarray(value)
    if arr.shape != (n,):
        raise PiquetError(f"{name} must have one flag per hand pair ({n}), not shape {arr.shape}")
    return arr.astype(bool)


def _winner(ke: NDArray[np.int64], ky: NDArray[np.int64]) -> NDArray[np.int64]:
    """0 if elder's key is higher, 1 if younger's, -1 if equal (0 is 'holds none')."""
    return np.where(ke > ky, 0, np.where(ky > ke, 1, -1)).astype(np.int64)


def _pick(w: NDArray[np.int64], se: NDArray[np.int64], sy: NDArray[np.int64]) -> NDArray[np.int64]:
    return np.where(w == 0, se, np.where(w == 1, sy, 0)).astype(np.int64)


class _Hands:
    """Per-hand features of one array of masks: its four suit masks and rank-count code."""

    def __init__(self, masks: NDArray[np.uint64]) -> None:
        shifts = (np.arange(4, dtype=np.uint64) * np.uint64(9))[:, None]
        self.suits = ((masks[None, :] >> shifts) & np.uint64(0x1FF)).astype(np.intp)
        self._code: NDArray[np.int64] | None = None

    @property
    def code(self) -> NDArray[np.int64]:
        """``sum(cards of rank i * 5**i)``, ranks six (i = 0) to ace (i = 8)."""
        if self._code is None:
            s = self.suits
            code = _SUIT_BASE5[s[0]] + _SUIT_BASE5[s[1]]
            code += _SUIT_BASE5[s[2]]
            code += _SUIT_BASE5[s[3]]
            self._code = code
        return self._code

    def point(self, rules: Rules) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(key, score) of the best point; key 0 for an empty hand."""
        tables = _point_tables(rules)
        s = self.suits
        best = np.maximum(tables[0][s[0]], tables[1][s[1]])
        np.maximum(best, tables[2][s[2]], out=best)
        np.maximum(best, tables[3][s[3]], out=best)
        key = best >> 6
        return key, point_worth(key, best & 15, rules)

    def sequences(self, rules: Rules) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(key, what all one's sequences count) of the best sequence; key 0 for none."""
        s = self.suits
        if rules.sequences_same_suit:
            key = np.maximum(_SUIT_BEST_RUN[s[0]], _SUIT_BEST_RUN[s[1]])
            np.maximum(key, _SUIT_BEST_RUN[s[2]], out=key)
            np.maximum(key, _SUIT_BEST_RUN[s[3]], out=key)
            worth = _suit_seq_score_table(rules)
            score = worth[s[0]] + worth[s[1]]
            score += worth[s[2]]
            score += worth[s[3]]
            return key, score
        key = _SUIT_BEST_RUN[s[0] | s[1] | s[2] | s[3]]
        return key, split_worth(self.code, rules.sequence_values)

    def sets(self, rules: Rules) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(key, what all one's sets count) of the best set; key 0 for none."""
        low = int(rules.set_min_rank) - 6
        key, worth = _set_tables(rules)
        high = self.code // _POW5[low] if low else self.code
        return key[high], worth[high]


def _score_chunk(
    elder: NDArray[np.uint64],
    younger: NDArray[np.uint64],
    rules: Rules,
    eb: NDArray[np.bool_],
    yb: NDArray[np.bool_],
) -> BatchScore:
    he, hy = _Hands(elder), _Hands(younger)
    out: BatchScore = {}
    # whose blanche counts (Rules.blanche_counted), hand by hand
    both = eb & yb
    count_e = rules.blanche_counted(True, True)[0] | ~both
    count_y = rules.blanche_counted(True, True)[1] | ~both
    on = np.bool_(rules.carte_blanche)
    be: NDArray[np.int64] = (eb & count_e & on) * np.int64(rules.blanche_value)
    by: NDArray[np.int64] = (yb & count_y & on) * np.int64(rules.blanche_value)
    out["elder_blanche"] = be
    out["younger_blanche"] = by
    # what each counts, in counting order: (elder's points, younger's points) per event
    events = [(be, np.zeros_like(by)), (np.zeros_like(be), by)]
    for cls, method in (
        ("point", _Hands.point),
        ("sequences", _Hands.sequences),
        ("sets", _Hands.sets),
    ):
        ke, se = method(he, rules)
        ky, sy = method(hy, rules)
        w = _winner(ke, ky)
        pe = se * (w == 0)
        py = sy * (w == 1)
        out[f"{cls}_winner"] = w
        out[f"{cls}_score"] = pe + py
        events.append((np.maximum(pe, 0), np.maximum(py, 0)))  # Tally ignores counts <= 0
    # Repique, as Tally.add judges it: a player reaches the threshold from hand before the
    # other has counted anything.  Counts only grow, so it is: at some event, one running
    # total has reached the threshold while the other is still 0.
    threshold = rules.pique_threshold
    tot_e = np.zeros_like(be)
    tot_y = np.zeros_like(by)
    rep_e = np.zeros(be.shape, dtype=bool)
    rep_y = np.zeros(be.shape, dtype=bool)
    for pe, py in events:
        tot_e += pe
        tot_y += py
        rep_e |= (tot_e >= threshold) & (tot_y == 0)
        rep_y |= (tot_y >= threshold) & (tot_e == 0)
    tot_e += rep_e * np.int64(rules.repique_bonus)
    tot_y += rep_y * np.int64(rules.repique_bonus)
    repique: NDArray[np.int64] = rep_y.astype(np.int64)
    repique -= ~(rep_e | rep_y)
    out["repique"] = repique
    out["elder_total"] = tot_e
    out["younger_total"] = tot_y
    return out


def score_batch(
    elder: ArrayLike,
    younger: ArrayLike,
    rules: Rules,
    *,
    elder_blanche: ArrayLike | None = None,
    younger_blanche: ArrayLike | None = None,
) -> BatchScore:
    """Score many (elder, younger) hand pairs as held after the exchange.

    ``elder`` and ``younger`` are one-dimensional arrays of card masks (bit
    ``9 * suit + rank - 6``); ``elder_blanche``/``younger_blanche`` are
    optional boolean arrays (carte blanche held), default all false.  Returns
    one int64 array per key of :data:`BATCH_FIELDS`, entry ``i`` equal to
    ``score_hands(elder[i], younger[i], rules, ...)``.

    Raises :class:`~piquet.core.errors.PiquetError` if the arrays are not
    one-dimensional integer masks of 36 bits, or their lengths differ.
    """
    e = _as_masks("elder", elder)
    y = _as_masks("younger", younger)
    if e.shape != y.shape:
        raise PiquetError(
            f"elder and younger must be of the same length, not {e.shape[0]} and {y.shape[0]}"
        )
    n = e.shape[0]
    eb = _as_flags("elder_blanche", elder_blanche, n)
    yb = _as_flags("younger_blanche", younger_blanche, n)
    if n <= _CHUNK:
        return _score_chunk(e, y, rules, eb, yb)
    parts = [
        _score_chunk(
            e[i : i + _CHUNK], y[i : i + _CHUNK], rules, eb[i : i + _CHUNK], yb[i : i + _CHUNK]
        )
        for i in range(0, n, _CHUNK)
    ]
    return {k: np.concatenate([p[k] for p in parts]) for k in BATCH_FIELDS}


_ROLE: Final = ROLE_NAMES


def _role(seat: int) -> str | None:
    return None if seat < 0 else _ROLE[seat]


def batch_rows(result: BatchScore) -> list[dict[str, Any]]:
    """One JSON-ready dict per hand pair, the same as ``HandsScore.to_json()``."""
    cols = {k: result[k].tolist() for k in BATCH_FIELDS}
    rows: list[dict[str, Any]] = []
    for i in range(len(cols["repique"])):
        rows.append(
            {
                "carte_blanche": {
                    "elder": cols["elder_blanche"][i],
                    "younger": cols["younger_blanche"][i],
                },
                "point": {
                    "winner": _role(cols["point_winner"][i]),
                    "score": cols["point_score"][i],
                },
                "sequences": {
                    "winner": _role(cols["sequences_winner"][i]),
                    "score": cols["sequences_score"][i],
                },
                "sets": {
                    "winner": _role(cols["sets_winner"][i]),
                    "score": cols["sets_score"][i],
                },
                "repique": _role(cols["repique"][i]),
                "totals": {"elder": cols["elder_total"][i], "younger": cols["younger_total"][i]},
            }
        )
    return rows
