"""The declarations on card masks, compiled: every claim a hand may show, and what the
winner of a class counts.

The compiled copy of :mod:`piquet.core.declarations` (``claims``, ``counted``), read from
the parameter vector of :mod:`piquet.fast.params`; checked against the engine by
``tests/test_fast_differential.py`` (every score event of whole deals) and
``tests/test_fast_claims.py`` (the claims and counts of random hands).

A claim is five numbers: its cards (mask), its key (one int: ``256 * first + second`` of
the engine's key tuple, so keys compare as the tuples do), its size, its top (point: the
suit; sequence: the top rank; set: the rank) and its pips.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from piquet.fast import params as P

__all__ = ["MAX_CLAIMS", "claims", "counted", "popcount"]

MAX_CLAIMS: Final = 64
"""Room for every claim of one class in one hand (a twelve-card hand has fewer)."""

_PIPS = np.array([6, 7, 8, 9, 10, 10, 10, 10, 11], dtype=np.int64)
_RANK_MASKS = np.array([sum(1 << (9 * s + i) for s in range(4)) for i in range(9)],
                       dtype=np.int64)
_COURTS: Final = sum((0b111 << 5) << (9 * s) for s in range(4))


@njit(cache=True, nogil=True)
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def is_blanche(mask: int) -> bool:
    return (mask & _COURTS) == 0


@njit(cache=True, nogil=True)
def seq_value(p: np.ndarray, length: int) -> int:
    if length < 3:
        return 0
    idx = min(length, 2 + p[P.N_SEQ_VALUES]) - 3
    return int(p[P.SEQ_VALUES + idx])


@njit(cache=True, nogil=True)
def _suit_pips(local: int) -> int:
    total = 0
    for i in range(9):
        if local >> i & 1:
            total += _PIPS[i]
    return total


@njit(cache=True, nogil=True)
def claims(hand: int, cls: int, p: np.ndarray, out: np.ndarray) -> int:
    """Fill ``out[k] = (cards, key, size, top, pips)`` with every claim of class ``cls``
    (0 point, 1 sequence, 2 set) the hand may show; return how many."""
    n = 0
    if cls == 0:
        by_cards = p[P.POINT_BY_CARDS] != 0
        for s in range(4):
            local = hand >> (9 * s) & 0x1FF
            sub = 0
            k = 0
            pips = 0
            # the best k cards for k = 1 .. all; stored all .. 1 (the engine's order)
            start = n + popcount(local) - 1
            for i in range(8, -1, -1):
                if local >> i & 1:
                    sub |= 1 << i
                    k += 1
                    pips += _PIPS[i]
                    row = start - (k - 1)
                    out[row, 0] = sub << (9 * s)
                    out[row, 1] = k * 256 + pips if by_cards else pips * 256
                    out[row, 2] = k
                    out[row, 3] = s
                    out[row, 4] = pips
            n += k
        return n
    if cls == 1:
        same_suit = p[P.SEQ_SAME_SUIT] != 0
        suits = 4 if same_suit else 1
        for s in range(suits):
            if same_suit:
                local = hand >> (9 * s) & 0x1FF
            else:
                local = (hand | hand >> 9 | hand >> 18 | hand >> 27) & 0x1FF
            i = 8
            while i >= 0:
                if not local >> i & 1:
                    i -= 1
                    continue
                j = i
                while j - 1 >= 0 and local >> (j - 1) & 1:
                    j -= 1
                low = j
                for top in range(i, low + 1, -1):
                    for ln in range(top - low + 1, 2, -1):
                        run = ((1 << ln) - 1) << (top - ln + 1)
                        if same_suit:
                            cards = run << (9 * s)
                        else:
                            cards = 0
                            for r in range(top - ln + 1, top + 1):
                                for t in range(4):
                                    b = 1 << (9 * t + r)
                                    if hand & b:
                                        cards |= b
                                        break
                        out[n, 0] = cards
                        out[n, 1] = ln * 256 + top + 6
                        out[n, 2] = ln
                        out[n, 3] = top + 6
                        out[n, 4] = 0
                        n += 1
                i = j - 1
        return n
    qbt = p[P.QUATORZE_BEATS_TRIO] != 0
    for rank in range(14, p[P.SET_MIN_RANK] - 1, -1):
        held = hand & _RANK_MASKS[rank - 6]
        c = popcount(held)
        if c < 3:
            continue
        for variant in range(2 if c == 4 else 1):
            cards = held
            size = c
            if variant == 1:
                for t in range(3, -1, -1):
                    b = 1 << (9 * t + rank - 6)
                    if held & b:
                        cards = held & ~b
                        break
                size = 3
            out[n, 0] = cards
            out[n, 1] = size * 256 + rank if qbt else rank * 256 + size
            out[n, 2] = size
            out[n, 3] = rank
            out[n, 4] = 0
            n += 1
    return n


@njit(cache=True, nogil=True)
def claim_score(cls: int, size: int, pips: int, p: np.ndarray) -> int:
    if cls == 0:
        return (pips + 5) // 10 if p[P.POINT_TENS] else size
    if cls == 1:
        return seq_value(p, size)
    return int(p[P.QUATORZE_VALUE]) if size == 4 else int(p[P.TRIO_VALUE])


@njit(cache=True, nogil=True)
def _split(packed: int, limit: int, p: np.ndarray) -> int:
    """Best total of disjoint cross-suit runs (keys <= ``limit``) in packed rank counts."""
    if packed == 0:
        return 0
    low = 0
    while not (packed >> (3 * low)) & 7:
        low += 1
    best = _split(packed - (1 << (3 * low)), limit, p)
    length = 0
    run = 0
    while low + length < 9 and (packed >> (3 * (low + length))) & 7:
        run += 1 << (3 * (low + length))
        length += 1
        if length >= 3:
            if length * 256 + low + length - 1 + 6 > limit:
                break
            total = seq_value(p, length) + _split(packed - run, limit, p)
            if total > best:
                best = total
    return best


@njit(cache=True, nogil=True)
def counted(hand: int, cls: int, cards: int, key: int, size: int, top: int, pips: int,
            p: np.ndarray) -> tuple[int, bool]:
    """What the winner of class ``cls`` with this claim counts, and whether a trio is among
    the holdings counted (sets: the other may ask which card is missing)."""
    if cls == 0:
        return claim_score(0, size, pips, p), False
    if cls == 2:
        total = claim_score(2, size, 0, p)
        trio = size == 3
        qbt = p[P.QUATORZE_BEATS_TRIO] != 0
        for rank in range(14, p[P.SET_MIN_RANK] - 1, -1):
            if rank == top:
                continue
            c = popcount(hand & _RANK_MASKS[rank - 6])
            if c >= 3:
                k = c * 256 + rank if qbt else rank * 256 + c
                if k <= key:
                    total += claim_score(2, c, 0, p)
                    if c == 3:
                        trio = True
        return total, trio
    if p[P.SEQ_SAME_SUIT]:
        # the run the claim was declared from is one sequence: its undeclared rest is sunk
        # (declarations.run_around)
        suit = 0
        while not cards >> suit & 0x1FF:
            suit += 9
        local = hand >> suit & 0x1FF
        run = cards >> suit & 0x1FF
        while True:
            grown = run | ((run << 1) | (run >> 1)) & local
            if grown == run:
                break
            run = grown
        rest = hand & ~(run << suit)
        total = seq_value(p, size)
        for s in range(4):
            local = rest >> (9 * s) & 0x1FF
            i = 8
            while i >= 0:
                if not local >> i & 1:
                    i -= 1
                    continue
                j = i
                while j - 1 >= 0 and local >> (j - 1) & 1:
                    j -= 1
                length = i - j + 1
                if length >= 3 and length * 256 + i + 6 <= key:
                    total += seq_value(p, length)
                i = j - 1
        return total, False
    packed = 0
    for i in range(9):
        packed |= popcount(hand & _RANK_MASKS[i]) << (3 * i)
    value = _split(packed, key, p)
    low = top - 6 - size + 1
    run = 0
    for i in range(low, low + size):
        run += 1 << (3 * i)
    kept = seq_value(p, size) + _split(packed - run, key, p)
    return max(value, kept), False
