"""The ``book`` rules of thumb, compiled: the choices of :mod:`piquet.players.book` on the
kernel's masks.

A compiled copy of the book player (the 1754 Particular Rules as that module quotes them:
the discard by card values, truthful declarations, Rule XII's sunk trio, the play's
masters, guards and throws), with the game situation taken as level (``lead`` 0).
``tests/test_fast_book.py`` measures how often its choices agree with the book player's
over whole deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from piquet.fast import params as P
from piquet.fast.claims import popcount

__all__ = ["book_answer", "book_discard", "book_elder_claim", "book_play"]

_RANK_WORTH = np.array([0.2, 0.4, 0.6, 1.0, 2.0, 2.5, 4.0, 7.0, 10.0])
_R_GOOD, _R_NOT_GOOD, _R_EQUAL, _R_MAKING = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _suit_pips(local):  # type: ignore[no-untyped-def]
    pips = (6, 7, 8, 9, 10, 10, 10, 10, 11)
    total = 0
    for i in range(9):
        if local >> i & 1:
            total += pips[i]
    return total


@njit(cache=True, nogil=True)
def card_values(p, hand, role, values):  # type: ignore[no-untyped-def]
    """``values[c]``: how much card ``c`` of the hand is worth keeping
    (:func:`piquet.players.common.card_values` with ``lead`` 0)."""
    by_cards = p[P.POINT_BY_CARDS] != 0
    best_suit = 0
    best_a = -1
    best_b = -1
    for s in range(4):
        local = hand >> (9 * s) & 0x1FF
        a = popcount(local) if by_cards else _suit_pips(local)
        b = _suit_pips(local) if by_cards else 0
        if a > best_a or (a == best_a and b > best_b):
            best_a = a
            best_b = b
            best_suit = s
    aces = 0
    for s in range(4):
        aces += hand >> (9 * s + 8) & 1
    for c in range(36):
        if not hand >> c & 1:
            continue
        s = c // 9
        r = c % 9
        suit = hand >> (9 * s) & 0x1FF
        n_suit = popcount(suit)
        v = _RANK_WORTH[r] * 1.0
        if r == 7:
            v += 2.0 if n_suit >= 2 else -2.0
        if r == 6 and (n_suit >= 3 or suit >> 7 & 1):
            v += 1.5
        if s == best_suit:
            v += 3.0 * 1.0
        # the maximal runs of the suit, best first
        i = 8
        while i >= 0:
            if not suit >> i & 1:
                i -= 1
                continue
            j = i
            while j - 1 >= 0 and suit >> (j - 1) & 1:
                j -= 1
            length = i - j + 1
            if i - length < r and r <= i:
                if length >= 5:
                    v += 6.0 * 1.0
                elif length >= 3:
                    v += (1.5 + length - 3) * 1.0
                elif length == 2:
                    v += 0.5
            i = j - 1
        if r + 6 >= p[P.SET_MIN_RANK]:
            n = 0
            for t in range(4):
                n += hand >> (9 * t + r) & 1
            if n == 4:
                v += 4.0 * 1.0
            elif n == 3:
                v += (2.0 if r >= 7 else 0.7) * 1.0
        if role != 0 and (suit >> 6 & 1) and r < 6 and n_suit <= 3:
            v += 1.5
        if role != 0 and aces == 3 and not suit >> 8 & 1:
            v -= 1.5
        values[c] = v


@njit(cache=True, nogil=True)
def book_discard(p, hand, role, lo, hi, fixed):  # type: ignore[no-untyped-def]
    """The least useful cards; all one may take unless the worst are good ones (Rule III)."""
    if fixed >= 0:
        lo = fixed
        hi = fixed
    values = np.zeros(36)
    card_values(p, hand, role, values)
    order = np.zeros(12, dtype=np.int64)
    n = 0
    for c in range(36):
        if hand >> c & 1:
            # insertion by (value, card)
            j = n
            while j > 0 and values[order[j - 1]] > values[c]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = c
            n += 1
    k = hi
    threshold = 9.0 if role == 0 else 7.5
    while k > lo and values[order[k - 1]] >= threshold:
        k -= 1
    out = 0
    for i in range(k):
        out |= 1 << order[i]
    return out


@njit(cache=True, nogil=True)
def book_elder_claim(p, hand, cls, cl, n):  # type: ignore[no-untyped-def]
    """Elder declares his best holding (by key, then cards); he never sinks."""
    best = n
    for i in range(n):
        if best == n or cl[i, 1] > cl[best, 1] or (
                cl[i, 1] == cl[best, 1] and popcount(cl[i, 0]) > popcount(cl[best, 0])):
            best = i
    return best


@njit(cache=True, nogil=True)
def book_younger_sinks(hand, cls, cards, size, rank, n_legal, may_pass):  # type: ignore[no-untyped-def]
    """Rule XII: younger sinks a low trio whose card is the only guard of a king or queen."""
    if cls != 2 or not may_pass or size != 3 or rank > 12 or n_legal != 1:
        return False
    for c in range(36):
        if not cards >> c & 1:
            continue
        s = c // 9
        suit = hand >> (9 * s) & 0x1FF
        m = popcount(suit)
        king = suit >> 7 & 1
        queen = suit >> 6 & 1
        if (king and m == 2) or (queen and not king and m == 3 and c % 9 + 6 < 12):
            return True
    return False


@njit(cache=True, nogil=True)
def book_answer(opts, m):  # type: ignore[no-untyped-def]
    """The true answer: not good, equal, making, good, in that order of preference."""
    for want in (_R_NOT_GOOD, _R_EQUAL, _R_MAKING, _R_GOOD):
        for i in range(m):
            if opts[i] == want:
                return want
    return opts[0]


@njit(cache=True, nogil=True)
def _guard_penalty(card, hand):  # type: ignore[no-untyped-def]
    s = card // 9
    r = card % 9
    suit = hand >> (9 * s) & 0x1FF
    n = popcount(suit)
    king = suit >> 7 & 1
    queen = suit >> 6 & 1
    if r < 6 and ((king and n <= 2) or (queen and n <= 3)):
        return 2
    if r == 6 or r == 7:
        return 1
    return 0


@njit(cache=True, nogil=True)
def book_play(p, hand, allowed, lead, possible, won):  # type: ignore[no-untyped-def]
    """The book's card: win cheaply or follow low; lead a master (the shorter suit first,
    the highest with six tricks), else the lowest card of a long suit that guards nothing."""
    if popcount(allowed) == 1:
        for c in range(36):
            if allowed >> c & 1:
                return c
    if lead >= 0:
        same = allowed & (0x1FF << (9 * (lead // 9)))
        if same:
            for c in range(lead + 1, 36):
                if same >> c & 1:
                    return c
            for c in range(36):
                if same >> c & 1:
                    return c
        best = -1
        bk0 = bk1 = bk2 = 0
        for c in range(36):
            if allowed >> c & 1:
                k0 = _guard_penalty(c, hand)
                k1 = c % 9
                k2 = popcount(hand & (0x1FF << (9 * (c // 9))))
                if best < 0 or (k0, k1, k2) < (bk0, bk1, bk2):
                    best = c
                    bk0, bk1, bk2 = k0, k1, k2
        return best
    best = -1
    bk0 = bk1 = bk2 = 0
    for c in range(36):
        if not allowed >> c & 1:
            continue
        r = c % 9
        higher = (possible >> (9 * (c // 9))) & 0x1FF & ~((1 << (r + 1)) - 1)
        if higher:
            continue
        if won >= 6:
            if best < 0 or r > bk0:
                best = c
                bk0 = r
        else:
            k0 = popcount(hand & (0x1FF << (9 * (c // 9))))
            k1 = -r
            if best < 0 or (k0, k1) < (bk0, bk1):
                best = c
                bk0, bk1 = k0, k1
    if best >= 0:
        return best
    for c in range(36):
        if allowed >> c & 1:
            k0 = _guard_penalty(c, hand)
            k1 = -popcount(hand & (0x1FF << (9 * (c // 9))))
            k2 = c % 9
            if best < 0 or (k0, k1, k2) < (bk0, bk1, bk2):
                best = c
                bk0, bk1, bk2 = k0, k1, k2
    return best
