"""The policies of the compiled kernel: how each choice of a deal is made.

``policy`` is a small integer: :data:`RANDOM` (each legal choice equally likely; for a
discard, each size equally likely, then each set of that size) or :data:`BOOK` (the rules
of thumb of :mod:`piquet.players.book`, see :mod:`piquet.fast.book`).  Every draw comes
from ``rng``, a one-element ``uint64`` array holding a xorshift64* state, so a deal is a
function of its pack, its policy and its seed.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from piquet.fast import params as P
from piquet.fast.book import (
    book_answer,
    book_discard,
    book_elder_claim,
    book_play,
    book_younger_sinks,
)
from piquet.fast.claims import popcount

__all__ = ["BOOK", "RANDOM", "new_rng", "rand_below"]

RANDOM: Final = 0
BOOK: Final = 1


def new_rng(seed: int) -> np.ndarray:
    """A generator state for the kernel from any integer seed (never zero)."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & ((1 << 64) - 1)
    x ^= x >> 31
    return np.array([x or 0x2545F4914F6CDD1D], dtype=np.uint64)


@njit(cache=True, nogil=True)
def rand_below(rng, n):  # type: ignore[no-untyped-def]
    """A number in ``range(n)`` (``n >= 1``), from the xorshift64* state ``rng[0]``."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(11)
    return np.int64(r % np.uint64(n))


@njit(cache=True, nogil=True)
def nth_card(mask, k):  # type: ignore[no-untyped-def]
    """The ``k``-th card (from the lowest index) of a mask."""
    m = 0
    for i in range(36):
        if mask >> i & 1:
            if m == k:
                return i
            m += 1
    return -1


@njit(cache=True, nogil=True)
def choose_discard(p, policy, rng, hand, seat, lo, hi, fixed):  # type: ignore[no-untyped-def]
    """The cards ``seat`` lays out: ``fixed`` of them if bound, else ``lo`` to ``hi``."""
    if policy == BOOK:
        return book_discard(p, hand, seat, lo, hi, fixed)
    k = fixed if fixed >= 0 else lo + rand_below(rng, hi - lo + 1)
    out = 0
    rest = hand
    n = popcount(hand)
    for j in range(k):
        c = nth_card(rest, rand_below(rng, n - j))
        out |= 1 << c
        rest &= ~(1 << c)
    return out


@njit(cache=True, nogil=True)
def choose_elder_claim(p, policy, rng, hand, cls, cl, n):  # type: ignore[no-untyped-def]
    """Elder's claim of the class (an index into ``cl``), or ``n`` to pass (sink)."""
    if policy == BOOK:
        return book_elder_claim(p, hand, cls, cl, n)
    return rand_below(rng, n + 1)


@njit(cache=True, nogil=True)
def choose_younger_claim(p, policy, rng, hand, cls, cl, n, beat, partial, may_pass):  # type: ignore[no-untyped-def]
    """Younger's claim (an index into ``cl``) that beats ``beat`` (-1: anything), or ``n``
    to pass where he may."""
    m = 0
    best = -1
    best_key = -1
    for i in range(n):
        key = cl[i, 1]
        if beat < 0 or (key // 256 > beat // 256 if partial else key > beat):
            m += 1
            if key > best_key:
                best_key = key
                best = i
    total = m + (1 if may_pass else 0)
    if policy == BOOK:
        best = n
        for i in range(n):
            key = cl[i, 1]
            if beat < 0 or (key // 256 > beat // 256 if partial else key > beat):
                if best == n or key > cl[best, 1] or (
                        key == cl[best, 1] and popcount(cl[i, 0]) > popcount(cl[best, 0])):
                    best = i
        if best < n and book_younger_sinks(hand, cls, cl[best, 0], cl[best, 2], cl[best, 3], m,
                                           may_pass):
            return n
        return best if best < n or may_pass else n
    k = rand_below(rng, total)
    if k == m:
        return n
    for i in range(n):
        key = cl[i, 1]
        if beat < 0 or (key // 256 > beat // 256 if partial else key > beat):
            if k == 0:
                return i
            k -= 1
    return n


@njit(cache=True, nogil=True)
def choose_answer(p, policy, rng, opts, m, ekey, partial, cl, n):  # type: ignore[no-untyped-def]
    """Younger's answer to elder's claim, one of ``opts[:m]``."""
    if policy == BOOK:
        return book_answer(opts, m)
    return opts[rand_below(rng, m)]


@njit(cache=True, nogil=True)
def choose_play(p, policy, rng, hand, allowed, lead, possible, won):  # type: ignore[no-untyped-def]
    """The card played from ``hand`` among ``allowed`` (``lead``: the card led, or -1;
    ``possible``: the cards the other may hold as far as this seat knows; ``won``: the tricks
    this seat has won)."""
    if policy == BOOK:
        return book_play(p, hand, allowed, lead, possible, won)
    return nth_card(allowed, rand_below(rng, popcount(allowed)))


@njit(cache=True, nogil=True)
def choose_packet(p, policy, rng):  # type: ignore[no-untyped-def]
    """The dealer's packet size (the book: by two where allowed, "usually 2")."""
    n = p[P.N_PACKETS]
    if policy == BOOK:
        for i in range(n):
            if p[P.PACKETS + i] == 2:
                return 2
        return p[P.PACKETS]
    return p[P.PACKETS + rand_below(rng, n)]


@njit(cache=True, nogil=True)
def choose_blanche(p, policy, rng, hand, role, lo, hi):  # type: ignore[no-untyped-def]
    """How many cards a holder of carte blanche announces he will exchange."""
    if policy == BOOK:
        return popcount(book_discard(p, hand, role, lo, hi, -1))
    return lo + rand_below(rng, hi - lo + 1)


@njit(cache=True, nogil=True)
def choose_name(p, policy, rng, hand, by_suit, full):  # type: ignore[no-untyped-def]
    """Elder names the suit (``by_suit``) or the card he will lead, to see younger's
    leftovers; -1 declines.  The book names only an ace heading his longest suit."""
    if policy == BOOK:
        best = 0
        best_n = -1
        for s in range(4):
            m = popcount(hand & (0x1FF << (9 * s)))
            if m >= best_n:
                best_n = m
                best = s
        ace = 9 * best + 8
        if hand >> ace & 1:
            return best if by_suit else ace
        return -1
    n_opts = 4 if by_suit else popcount(full)
    k = rand_below(rng, n_opts + 1)
    if k == n_opts:
        return -1
    return k if by_suit else nth_card(full, k)


@njit(cache=True, nogil=True)
def choose_appoint(p, policy, rng, hand, by_suit, full, free):  # type: ignore[no-untyped-def]
    """Younger appoints the suit or card elder leads (elder lacked what he named): the book
    among ``free``, the cards elder may hold as far as younger knows (the engine's
    ``core.view.appointable``), any other policy among every choice the engine allows
    (any suit, any card of ``full`` not in ``hand``)."""
    suits = 0  # the suits with a card in ``free``, as a 4-bit mask
    for s in range(4):
        if free >> (9 * s) & 0x1FF:
            suits |= 1 << s
    if policy == BOOK:
        best = 0
        bk0 = -1
        bk1 = -1
        for s in range(4):
            local = hand >> (9 * s) & 0x1FF
            top = 0
            while local >> top:
                top += 1
            m = popcount(local)
            if top > bk0 or (top == bk0 and m > bk1):
                bk0 = top
                bk1 = m
                best = s
        if by_suit:
            if suits >> best & 1:
                return best
            return nth_card(suits, 0)  # the first suit he may appoint, as the book's list
        same = free & (0x1FF << (9 * best))
        return nth_card(same if same else free, 0)
    if by_suit:
        return rand_below(rng, 4)
    anyone = full & ~hand
    return nth_card(anyone, rand_below(rng, popcount(anyone)))


@njit(cache=True, nogil=True)
def choose_yes(p, policy, rng, book_says):  # type: ignore[no-untyped-def]
    """A yes-or-no choice with no score at stake (look at the leftovers, ask which card of
    a trio is missing): 1 or 0."""
    if policy == BOOK:
        return book_says
    return rand_below(rng, 2)
