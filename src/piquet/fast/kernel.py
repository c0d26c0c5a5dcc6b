"""The compiled deal kernel: a whole deal of any rule set, played by a policy, in numba.

A private fast board (hands and stock as card masks, the tally as a few integers) that
plays one deal from a pack to its end (or to the moment the game's target is reached) and
writes down:

- the **trace**: every choice made, as ``(code, value)`` rows (the ``A_*`` codes below),
  which :func:`piquet.fast.engine.actions_of` turns back into the public engine's actions;
- the **events**: every score event, ``(role, kind, points)`` in counting order (kinds
  in the order of :class:`piquet.core.scoring.Kind`), pique and repique included.

It is a second implementation of :mod:`piquet.core.transitions` read from the parameter
vector of :mod:`piquet.fast.params` (it never reads a rule's wording), and it is checked
against the engine by ``tests/test_fast_differential.py`` and ``bench/bench_fast.py --diff``:
the same packs and the same choices give the same events and scores.

The choices come from a policy (:data:`RANDOM`: uniform over the legal choices; :data:`BOOK`:
the rules of thumb of :mod:`piquet.fast.policies`), drawn from a seeded xorshift generator
(``rng``, one ``uint64``), so a deal is a function of its pack, policy and seed.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from piquet.fast import params as P
from piquet.fast.claims import MAX_CLAIMS, claims, counted, is_blanche, popcount
from piquet.fast.policies import (
    choose_answer,
    choose_appoint,
    choose_blanche,
    choose_discard,
    choose_elder_claim,
    choose_name,
    choose_packet,
    choose_play,
    choose_yes,
    choose_younger_claim,
    rand_below,
)

__all__ = ["MAX_EVENTS", "MAX_TRACE", "play_deal", "play_deals", "resume", "run_deal",
           "shuffle_pack"]

# choice codes of the trace
A_DEAL, A_BLANCHE, A_DISCARD, A_LEFTOVER, A_NAME_SUIT, A_NAME_CARD = 0, 1, 2, 3, 4, 5
A_APPOINT_SUIT, A_APPOINT_CARD, A_DECLARE, A_PASS, A_ANSWER, A_QUESTION, A_PLAY = (
    6, 7, 8, 9, 10, 11, 12)
# answers
R_GOOD, R_NOT_GOOD, R_EQUAL, R_MAKING = 0, 1, 2, 3
# event kinds, in the order of piquet.core.scoring.Kind
K_BLANCHE, K_POINT, K_SEQUENCES, K_SETS, K_LEAD, K_TRICK, K_LAST, K_CARDS, K_CAPOT = range(9)
K_REPIQUE, K_PIQUE = 9, 10

MAX_EVENTS: Final = 64
MAX_TRACE: Final = 96

# the tally: slots of a small int64 array
T0, T1, T_OPEN, T_REACHED, T_NEV, T_START0, T_START1, T_TARGET, T_COMMITTED, T_NHELD = range(10)
T_NTR, T_FI, T_STOP = 10, 11, 12
T_SIZE: Final = 16
# the info array of a stopped deal (see play_deal)
I_STATUS, I_SEAT, I_ALLOWED, I_LEAD, I_HAND, I_PLAYED, I_WON, I_TRICK, I_DISCARDS = range(9)
I_SCORE0, I_SCORE1 = 9, 10
I_SIZE: Final = 12
# the play state (the ps array of run_deal and resume): hands and discards (masks, by role),
# the cards played, the trick (0-11; 12 when played out), its half (0: the lead to play),
# the card led, who leads, the tricks elder won, the named lead (kind 1 a suit, 2 a card;
# its value), how many of younger's declarations wait for the lead, the pack's mask
PS_HAND, PS_DISC, PS_PLAYED, PS_TRICK, PS_HALF, PS_LED, PS_LEADER, PS_WON0 = 0, 2, 4, 5, 6, 7, 8, 9
PS_LEAD_KIND, PS_LEAD_VAL, PS_NDEF, PS_FULL = 10, 11, 12, 13
PS_SIZE: Final = 16
MAX_HELD: Final = 40
STOPPED, BAD_CHOICE = 1, -1
NO_CHOICES: Final = np.zeros((1, 2), dtype=np.int64)  # no forced choices (read only)


@njit(cache=True, nogil=True)
def _draw(hands, deck, sp, role, count):  # type: ignore[no-untyped-def]
    """``role`` takes ``count`` cards from the stock at ``sp``; the stock's new top."""
    for _ in range(count):
        hands[role] |= 1 << deck[sp]
        sp += 1
    return sp


@njit(cache=True, nogil=True)
def _exchange(hands, disc, deck, sp, role, n):  # type: ignore[no-untyped-def]
    """``role`` lays out the cards of mask ``n`` and takes as many; the stock's new top."""
    hands[role] &= ~n
    disc[role] |= n
    return _draw(hands, deck, sp, role, popcount(n))


@njit(cache=True, nogil=True, inline="always")
def _ret(tl):  # type: ignore[no-untyped-def]
    return tl[T_NTR], tl[T_NEV], tl[T0], tl[T1], tl[T_REACHED]


@njit(cache=True, nogil=True, inline="always")
def _forced(tl, fz, nfz):  # type: ignore[no-untyped-def]
    """The next forced choice's row, or -1 when the forced choices are used up."""
    i = tl[T_FI]
    if i < nfz:
        tl[T_FI] = i + 1
        return i
    return -1


@njit(cache=True, nogil=True, inline="always")
def _bad(tl, info):  # type: ignore[no-untyped-def]
    """A forced choice that is not a legal choice here: the deal stops, marked so."""
    info[I_STATUS] = BAD_CHOICE
    tl[T_STOP] = 1
    return _ret(tl)


@njit(cache=True, nogil=True)
def _discard(p, policy, rng, tl, fz, nfz, hand, seat, lo, hi, fixed):  # type: ignore[no-untyped-def]
    """The discard: forced, or by the policy; -1 when a forced one is not allowed."""
    row = _forced(tl, fz, nfz)
    if row < 0:
        return choose_discard(p, policy, rng, hand, seat, lo, hi, fixed)
    n = fz[row, 1]
    k = popcount(n)
    if fz[row, 0] != A_DISCARD or n & ~hand or (fixed >= 0 and k != fixed) or k < lo or k > hi:
        return -1
    return n


@njit(cache=True, nogil=True)
def _claim_choice(p, policy, rng, tl, fz, nfz, hand, cls, cl, n, younger, beat, partial,  # type: ignore[no-untyped-def]
                  may_pass):
    """A claim (an index into ``cl``) or ``n`` to pass: forced, or by the policy; -1 when a
    forced one is not allowed."""
    row = _forced(tl, fz, nfz)
    if row < 0:
        if younger:
            return choose_younger_claim(p, policy, rng, hand, cls, cl, n, beat, partial, may_pass)
        return choose_elder_claim(p, policy, rng, hand, cls, cl, n)
    if fz[row, 0] == A_PASS:
        return n if may_pass else -1
    if fz[row, 0] != A_DECLARE or fz[row, 1] & 3 != cls:
        return -1
    cards = fz[row, 1] >> 2
    for i in range(n):
        if cl[i, 0] == cards:
            key = cl[i, 1]
            if beat < 0 or (key // 256 > beat // 256 if partial else key > beat):
                return i
            return -1
    return -1


@njit(cache=True, nogil=True, inline="always")
def _play_choice(p, policy, rng, tl, fz, nfz, stop, info, seat, hand, allowed, lead, possible,  # type: ignore[no-untyped-def]
                 won, trick, discards):
    """The card played: forced, or by the policy; -1 when the deal stops here (``stop``
    and no forced choice left: ``info`` tells the decision) or a forced card is not allowed."""
    if stop and tl[T_FI] >= nfz:
        info[I_STATUS] = STOPPED
        info[I_SEAT] = seat
        info[I_ALLOWED] = allowed
        info[I_LEAD] = lead
        info[I_HAND] = hand
        full = (1 << 36) - 1
        if p[P.DECK_SIZE] == 32:
            full &= ~(1 | 1 << 9 | 1 << 18 | 1 << 27)
        info[I_PLAYED] = full & ~possible & ~hand & ~discards
        info[I_WON] = won
        info[I_TRICK] = trick
        info[I_DISCARDS] = discards
        info[I_SCORE0] = tl[T0]
        info[I_SCORE1] = tl[T1]
        tl[T_STOP] = 1
        return -1
    row = _forced(tl, fz, nfz)
    if row < 0:
        return choose_play(p, policy, rng, hand, allowed, lead, possible, won)
    c = fz[row, 1]
    if fz[row, 0] != A_PLAY or c < 0 or c > 35 or not allowed >> c & 1:
        info[I_STATUS] = BAD_CHOICE
        tl[T_STOP] = 1
        return -1
    return c


@njit(cache=True, nogil=True, inline="always")
def _add(p, tl, ev, seat, kind, pts):  # type: ignore[no-untyped-def]
    """The scoring timeline: ``seat`` counts ``pts`` for ``kind`` (Tally.add)."""
    if tl[T_REACHED] >= 0 or pts <= 0:
        return
    n = tl[T_NEV]
    ev[n, 0] = seat
    ev[n, 1] = kind
    ev[n, 2] = pts
    n += 1
    if tl[T_OPEN] == 0:
        tl[seat] += pts
    else:
        other = 1 - seat
        before = tl[seat]
        tl[seat] += pts
        th = p[P.PIQUE_THRESHOLD]
        if tl[other] == 0 and before < th and th <= tl[seat]:
            if kind <= K_SETS:
                ev[n, 0] = seat
                ev[n, 1] = K_REPIQUE
                ev[n, 2] = p[P.REPIQUE_BONUS]
                n += 1
                tl[seat] += p[P.REPIQUE_BONUS]
            elif (kind <= K_LAST or (p[P.PIQUE_BY_CARDS] and kind <= K_CAPOT)) and not (
                    p[P.PIQUE_ELDER_ONLY] and seat == 1):
                ev[n, 0] = seat
                ev[n, 1] = K_PIQUE
                ev[n, 2] = p[P.PIQUE_BONUS]
                n += 1
                tl[seat] += p[P.PIQUE_BONUS]
            tl[T_OPEN] = 0
        elif tl[other] > 0 or tl[seat] >= th:
            tl[T_OPEN] = 0
    tl[T_NEV] = n
    if tl[T_TARGET] > 0 and tl[T_START0 + seat] + tl[seat] >= tl[T_TARGET]:
        tl[T_REACHED] = seat


@njit(cache=True, nogil=True, inline="always")
def _play_count(p, tl, ev, held, seat, kind, pts):  # type: ignore[no-untyped-def]
    """A count of the play: held back until the declarations are counted."""
    if tl[T_COMMITTED] < 3:
        k = tl[T_NHELD]
        held[k, 0] = seat
        held[k, 1] = kind
        held[k, 2] = pts
        tl[T_NHELD] = k + 1
        return
    _add(p, tl, ev, seat, kind, pts)


@njit(cache=True, nogil=True)
def _commit(p, tl, ev, res, held):  # type: ignore[no-untyped-def]
    """Count resolved classes in order, then any held play counts."""
    while tl[T_COMMITTED] < 3:
        c = tl[T_COMMITTED]
        if res[c, 0] == 0:
            return
        if res[c, 1] >= 0 and res[c, 2] > 0:
            _add(p, tl, ev, res[c, 1], K_POINT + c, res[c, 2])
            if tl[T_REACHED] >= 0 or tl[T_STOP]:
                return
        tl[T_COMMITTED] = c + 1
    k = tl[T_NHELD]
    if k:
        tl[T_NHELD] = 0
        for i in range(k):
            _add(p, tl, ev, held[i, 0], held[i, 1], held[i, 2])
            if tl[T_REACHED] >= 0 or tl[T_STOP]:
                return


@njit(cache=True, nogil=True, inline="always")
def _trace(tl, tr, code, value):  # type: ignore[no-untyped-def]
    k = tl[T_NTR]
    tr[k, 0] = code
    tr[k, 1] = value
    tl[T_NTR] = k + 1


@njit(cache=True, nogil=True)
def _set_result(p, tl, ev, res, held, cls, winner, pts, trio, policy, rng, tr, fz, nfz, info):  # type: ignore[no-untyped-def]
    """A class is decided: count what can be counted, then the question of a trio."""
    res[cls, 0] = 1
    res[cls, 1] = winner
    res[cls, 2] = pts
    _commit(p, tl, ev, res, held)
    if tl[T_REACHED] >= 0 or tl[T_STOP]:
        return
    if cls == 2 and p[P.ASK_MISSING] and winner >= 0 and trio:
        row = _forced(tl, fz, nfz)
        if row < 0:
            ask = choose_yes(p, policy, rng, 1)
        else:
            ask = fz[row, 1]
            if fz[row, 0] != A_QUESTION:
                _bad(tl, info)
                return
        _trace(tl, tr, A_QUESTION, ask)


@njit(cache=True, nogil=True)
def _win(p, tl, ev, res, held, hands, seat, cls, cl, k, policy, rng, tr, fz, nfz, info):  # type: ignore[no-untyped-def]
    pts, trio = counted(hands[seat], cls, cl[k, 0], cl[k, 1], cl[k, 2], cl[k, 3], cl[k, 4], p)
    _set_result(p, tl, ev, res, held, cls, seat, pts, trio, policy, rng, tr, fz, nfz, info)


@njit(cache=True, nogil=True)
def _replies(claim_key, partial, cl, n, out):  # type: ignore[no-untyped-def]
    """Younger's possible answers to elder's claim (Deal._replies); returns how many."""
    m = 0
    out[m] = R_GOOD
    m += 1
    best = -1
    eq = False
    if partial:
        first = claim_key // 256
        for i in range(n):
            f = cl[i, 1] // 256
            best = max(best, f)
            if f == first:
                eq = True
        if n and best > first:
            out[m] = R_NOT_GOOD
            m += 1
        if eq:
            out[m] = R_MAKING
            m += 1
        return m
    for i in range(n):
        best = max(best, cl[i, 1])
        if cl[i, 1] == claim_key:
            eq = True
    if n and best > claim_key:
        out[m] = R_NOT_GOOD
        m += 1
    if eq:
        out[m] = R_EQUAL
        m += 1
    return m


@njit(cache=True, nogil=True, inline="always")
def _playable(hand, lead, lead_kind, lead_val):  # type: ignore[no-untyped-def]
    """The cards a seat may play: follow suit; elder's first lead bound by a named lead."""
    if lead >= 0:
        suit = lead // 9
        same = hand & (0x1FF << (9 * suit))
        return same if same else hand
    if lead_kind == 1:
        same = hand & (0x1FF << (9 * lead_val))
        return same if same else hand
    if lead_kind == 2 and hand >> lead_val & 1:
        return 1 << lead_val
    return hand


@njit(cache=True, nogil=True, inline="always")
def _tenth(card):  # type: ignore[no-untyped-def]
    return card % 9 >= 4


@njit(cache=True, nogil=True)
def play_deal(p, deck, start0, start1, target, policy, rng, tr, ev, fz, nfz, stop, info):  # type: ignore[no-untyped-def]
    """Play one deal of ``deck`` (card indices, top first) by ``policy`` with ``rng``.

    ``start0``/``start1``: the game score of elder and younger before the deal; ``target``
    the game's target (0: none).  Writes the trace into ``tr`` and the events into ``ev``;
    returns ``(n_trace, n_events, elder_points, younger_points, reached)`` (``reached``:
    the role that reached the target, else -1).

    The first ``nfz`` choices are not the policy's but the rows of ``fz`` (a trace, e.g.
    of a real deal's history: a determinized world replayed, then played out).  With
    ``stop`` the deal stops at the first play of a card after those (``info[I_STATUS]`` is
    :data:`STOPPED`; ``info`` says who is to play, what he may play and what he knows). A
    forced choice that is not allowed stops the deal with ``info[I_STATUS]`` =
    :data:`BAD_CHOICE`.
    """
    tl = np.zeros(T_SIZE, dtype=np.int64)
    res = np.zeros((3, 3), dtype=np.int64)
    held = np.zeros((MAX_HELD, 3), dtype=np.int64)
    deferred = np.zeros((3, 3), dtype=np.int64)
    ps = np.zeros(PS_SIZE, dtype=np.int64)
    return run_deal(p, deck, start0, start1, target, policy, rng, tr, ev, fz, nfz, stop, info,
                    tl, res, held, deferred, ps)


@njit(cache=True, nogil=True)
def run_deal(p, deck, start0, start1, target, policy, rng, tr, ev, fz, nfz, stop, info,  # type: ignore[no-untyped-def]
             tl, res, held, deferred, ps):
    """:func:`play_deal` on a board the caller keeps: the tally ``tl``, the classes decided
    ``res``, the play counts ``held`` back, younger's ``deferred`` declarations and the play
    state ``ps`` (hands, discards, the trick; the ``PS_*`` slots).  Stopped at a card
    (``stop``), the deal goes on with :func:`resume` from the same board."""
    info[I_STATUS] = 0
    tl[:] = 0
    res[:] = 0
    ps[:] = 0
    tl[T_OPEN] = 1
    tl[T_REACHED] = -1
    tl[T_START0] = start0
    tl[T_START1] = start1
    tl[T_TARGET] = target if p[P.ENDS_MID_DEAL] else 0
    cl = np.zeros((MAX_CLAIMS, 5), dtype=np.int64)
    cl2 = np.zeros((MAX_CLAIMS, 5), dtype=np.int64)
    opts = np.zeros(40, dtype=np.int64)
    hands = ps[PS_HAND:PS_HAND + 2]
    disc = ps[PS_DISC:PS_DISC + 2]
    deck_size = p[P.DECK_SIZE]
    full = (1 << 36) - 1 if deck_size == 36 else ((1 << 36) - 1) & ~(1 | 1 << 9 | 1 << 18 | 1 << 27)

    # ---- the deal
    size = p[P.PACKETS]
    if p[P.N_PACKETS] > 1:
        row = _forced(tl, fz, nfz)
        if row < 0:
            size = choose_packet(p, policy, rng)
        else:
            size = fz[row, 1]
            ok = False
            for i in range(p[P.N_PACKETS]):
                ok = ok or p[P.PACKETS + i] == size
            if fz[row, 0] != A_DEAL or not ok:
                return _bad(tl, info)
        _trace(tl, tr, A_DEAL, size)
    for pos in range(24):
        hands[(pos // size) % 2] |= 1 << deck[pos]
    sp = 24
    bl0 = p[P.CARTE_BLANCHE] != 0 and is_blanche(hands[0])
    bl1 = p[P.CARTE_BLANCHE] != 0 and is_blanche(hands[1])

    # ---- carte blanche and the exchange
    ann0 = -1
    ann1 = -1
    stock = deck_size - 24
    if p[P.BLANCHE_NUMBER] and (bl0 or bl1):
        if bl0:
            lo = p[P.ELDER_MIN]
            hi = p[P.ELDER_MAX]
            row = _forced(tl, fz, nfz)
            if row < 0:
                ann0 = choose_blanche(p, policy, rng, hands[0], 0, lo, hi)
            else:
                ann0 = fz[row, 1]
                if fz[row, 0] != A_BLANCHE or ann0 < lo or ann0 > hi:
                    return _bad(tl, info)
            _trace(tl, tr, A_BLANCHE, ann0)
        if bl1:
            lo = p[P.YOUNGER_MIN]
            hi = stock - (ann0 if ann0 >= 0 else p[P.ELDER_MAX])
            if p[P.YOUNGER_MAX]:
                hi = min(hi, p[P.YOUNGER_MAX])
            row = _forced(tl, fz, nfz)
            if row < 0:
                ann1 = choose_blanche(p, policy, rng, hands[1], 1, lo, hi)
            else:
                ann1 = fz[row, 1]
                if fz[row, 0] != A_BLANCHE or ann1 < lo or ann1 > hi:
                    return _bad(tl, info)
            _trace(tl, tr, A_BLANCHE, ann1)
    # whose blanche counts (Rules.blanche_counted): both, neither, or younger's alone
    count0 = not (bl0 and bl1) or (p[P.BOTH_BLANCHE_SCORE] != 0 and p[P.YOUNGER_BARS] == 0)
    count1 = not (bl0 and bl1) or p[P.BOTH_BLANCHE_SCORE] != 0 or p[P.YOUNGER_BARS] != 0
    bv = p[P.BLANCHE_VALUE]
    ymax = p[P.YOUNGER_MAX]
    if not p[P.BLANCHE_NUMBER]:
        if bl0 and count0:
            _add(p, tl, ev, 0, K_BLANCHE, bv)
            if tl[T_REACHED] >= 0 or tl[T_STOP]:
                return _ret(tl)
        n = _discard(p, policy, rng, tl, fz, nfz, hands[0], 0, p[P.ELDER_MIN], p[P.ELDER_MAX], -1)
        if n < 0:
            return _bad(tl, info)
        _trace(tl, tr, A_DISCARD, n)
        sp = _exchange(hands, disc, deck, sp, 0, n)
        if bl1 and count1:
            _add(p, tl, ev, 1, K_BLANCHE, bv)
            if tl[T_REACHED] >= 0 or tl[T_STOP]:
                return _ret(tl)
        hi = deck_size - sp
        if ymax:
            hi = min(hi, ymax)
        n = _discard(p, policy, rng, tl, fz, nfz, hands[1], 1, min(p[P.YOUNGER_MIN], hi), hi, -1)
        if n < 0:
            return _bad(tl, info)
        _trace(tl, tr, A_DISCARD, n)
        sp = _exchange(hands, disc, deck, sp, 1, n)
    elif ann0 >= 0:
        # elder's blanche: younger lays out first, elder shows, exchanges; younger takes
        hi = stock - ann0
        if ymax:
            hi = min(hi, ymax)
        n1 = _discard(p, policy, rng, tl, fz, nfz, hands[1], 1, min(p[P.YOUNGER_MIN], hi), hi, ann1)
        if n1 < 0:
            return _bad(tl, info)
        _trace(tl, tr, A_DISCARD, n1)
        hands[1] &= ~n1
        disc[1] |= n1
        if count0:
            _add(p, tl, ev, 0, K_BLANCHE, bv)
            if tl[T_REACHED] >= 0 or tl[T_STOP]:
                return _ret(tl)
        n = _discard(p, policy, rng, tl, fz, nfz, hands[0], 0, p[P.ELDER_MIN], p[P.ELDER_MAX], ann0)
        if n < 0:
            return _bad(tl, info)
        _trace(tl, tr, A_DISCARD, n)
        sp = _exchange(hands, disc, deck, sp, 0, n)
        if ann1 >= 0 and count1:
            _add(p, tl, ev, 1, K_BLANCHE, bv)
            if tl[T_REACHED] >= 0 or tl[T_STOP]:
                return _ret(tl)
        sp = _draw(hands, deck, sp, 1, popcount(n1))
    else:
        n = _discard(p, policy, rng, tl, fz, nfz, hands[0], 0, p[P.ELDER_MIN], p[P.ELDER_MAX], -1)
        if n < 0:
            return _bad(tl, info)
        _trace(tl, tr, A_DISCARD, n)
        sp = _exchange(hands, disc, deck, sp, 0, n)
        if ann1 >= 0 and count1:
            _add(p, tl, ev, 1, K_BLANCHE, bv)
            if tl[T_REACHED] >= 0 or tl[T_STOP]:
                return _ret(tl)
        hi = deck_size - sp
        if ymax:
            hi = min(hi, ymax)
        n = _discard(p, policy, rng, tl, fz, nfz, hands[1], 1, min(p[P.YOUNGER_MIN], hi), hi, ann1)
        if n < 0:
            return _bad(tl, info)
        _trace(tl, tr, A_DISCARD, n)
        sp = _exchange(hands, disc, deck, sp, 1, n)

    # ---- the stock cards younger left
    lead_kind = 0
    lead_val = 0
    mode = p[P.LEFTOVERS]
    if sp < deck_size and (mode == P.LEFT_NAMES_SUIT or mode == P.LEFT_NAMES_CARD):
        by_suit = mode == P.LEFT_NAMES_SUIT
        # the cards elder may name (Deal._leftover_actions): any, or (appoint_if_card_lacked
        # off) one he holds or one of a suit he has none of
        nameable = full
        if not p[P.APPOINT_LACKED]:
            nameable = hands[0]
            for s in range(4):
                if hands[0] & (0x1FF << (9 * s)) == 0:
                    nameable |= full & (0x1FF << (9 * s))
        row = _forced(tl, fz, nfz)
        if row < 0:
            k = choose_name(p, policy, rng, hands[0], by_suit, nameable)
        elif fz[row, 0] == A_LEFTOVER and fz[row, 1] == 0:
            k = -1
        elif fz[row, 0] == (A_NAME_SUIT if by_suit else A_NAME_CARD) and (
                fz[row, 1] < 4 if by_suit else nameable >> fz[row, 1] & 1):
            k = fz[row, 1]
        else:
            return _bad(tl, info)
        if k < 0:
            _trace(tl, tr, A_LEFTOVER, 0)
        else:
            lead_kind = 1 if by_suit else 2
            lead_val = k
            _trace(tl, tr, A_NAME_SUIT if by_suit else A_NAME_CARD, k)
            if by_suit:
                lacks = (hands[0] & (0x1FF << (9 * k))) == 0
            else:
                lacks = (hands[0] >> k & 1) == 0
            if lacks:
                # what elder may hold as far as younger knows (core.view.appointable): not
                # younger's cards, his discards, the leftovers (both have seen them once
                # the lead is named), nor what elder has just said he lacks; the book
                # appoints among these, any other policy among all it may (the engine's
                # Deal._appoint_actions: any suit, any card but his own)
                known = hands[1] | disc[1]
                for i in range(sp, deck_size):
                    known |= 1 << deck[i]
                known |= (0x1FF << (9 * k)) if by_suit else (1 << k)
                row = _forced(tl, fz, nfz)
                if row < 0:
                    lead_val = choose_appoint(p, policy, rng, hands[1], by_suit, full,
                                              full & ~known)
                else:
                    lead_val = fz[row, 1]
                    if fz[row, 0] != (A_APPOINT_SUIT if by_suit else A_APPOINT_CARD) or not (
                            lead_val < 4 if by_suit else (full & ~hands[1]) >> lead_val & 1):
                        return _bad(tl, info)
                _trace(tl, tr, A_APPOINT_SUIT if by_suit else A_APPOINT_CARD, lead_val)
    elif sp < deck_size and (mode == P.LEFT_TURNS_UP or mode == P.LEFT_LOOKS):
        row = _forced(tl, fz, nfz)
        if row < 0:
            look = choose_yes(p, policy, rng, 1 if mode == P.LEFT_LOOKS else 0)
        else:
            look = fz[row, 1]
            if fz[row, 0] != A_LEFTOVER:
                return _bad(tl, info)
        _trace(tl, tr, A_LEFTOVER, look)

    # ---- the declarations
    after_lead = p[P.YOUNGER_AFTER_LEAD] != 0
    n_def = 0  # younger's declarations after the lead: (class, key to beat or -1, partial)
    for cls in range(3):
        ne = claims(hands[0], cls, p, cl)
        k = _claim_choice(p, policy, rng, tl, fz, nfz, hands[0], cls, cl, ne, False, -1, False,
                          True)
        if k < 0:
            return _bad(tl, info)
        if k == ne:
            _trace(tl, tr, A_PASS, cls)
            if after_lead:
                deferred[n_def, 0] = cls
                deferred[n_def, 1] = -1
                deferred[n_def, 2] = 0
                n_def += 1
                continue
            ny = claims(hands[1], cls, p, cl2)
            j = _claim_choice(p, policy, rng, tl, fz, nfz, hands[1], cls, cl2, ny, True, -1,
                              False, True)
            if j < 0:
                return _bad(tl, info)
            if j == ny:
                _trace(tl, tr, A_PASS, cls)
                _set_result(p, tl, ev, res, held, cls, -1, 0, False, policy, rng, tr, fz, nfz, info)
            else:
                _trace(tl, tr, A_DECLARE, cl2[j, 0] << 2 | cls)
                _win(p, tl, ev, res, held, hands, 1, cls, cl2, j, policy, rng, tr, fz, nfz, info)
            if tl[T_REACHED] >= 0 or tl[T_STOP]:
                return _ret(tl)
            continue
        _trace(tl, tr, A_DECLARE, cl[k, 0] << 2 | cls)
        ekey = cl[k, 1]
        ny = claims(hands[1], cls, p, cl2)
        revealed = False
        while True:
            partial = cls == 0 and p[P.POINT_BY_CARDS] != 0 and not revealed
            m = _replies(ekey, partial, cl2, ny, opts)
            row = _forced(tl, fz, nfz)
            if row < 0:
                r = choose_answer(p, policy, rng, opts, m, ekey, partial, cl2, ny)
            else:
                r = fz[row, 1]
                ok = False
                for i in range(m):
                    ok = ok or opts[i] == r
                if fz[row, 0] != A_ANSWER or not ok:
                    return _bad(tl, info)
            _trace(tl, tr, A_ANSWER, r)
            if r == R_MAKING:
                revealed = True
                continue
            if r == R_GOOD:
                _win(p, tl, ev, res, held, hands, 0, cls, cl, k, policy, rng, tr, fz, nfz, info)
            elif r == R_EQUAL:
                _set_result(p, tl, ev, res, held, cls, -1, 0, False, policy, rng, tr, fz, nfz, info)
            elif after_lead:
                deferred[n_def, 0] = cls
                deferred[n_def, 1] = ekey
                deferred[n_def, 2] = partial
                n_def += 1
            else:
                j = _claim_choice(p, policy, rng, tl, fz, nfz, hands[1], cls, cl2, ny, True, ekey,
                                  partial, False)
                if j < 0:
                    return _bad(tl, info)
                _trace(tl, tr, A_DECLARE, cl2[j, 0] << 2 | cls)
                _win(p, tl, ev, res, held, hands, 1, cls, cl2, j, policy, rng, tr, fz, nfz, info)
            break
        if tl[T_REACHED] >= 0 or tl[T_STOP]:
            return _ret(tl)
    _commit(p, tl, ev, res, held)
    if tl[T_REACHED] >= 0 or tl[T_STOP]:
        return _ret(tl)

    # ---- the play
    ps[PS_FULL] = full
    ps[PS_LEAD_KIND] = lead_kind
    ps[PS_LEAD_VAL] = lead_val
    ps[PS_NDEF] = n_def
    _play(p, policy, rng, tl, ev, held, res, deferred, ps, tr, fz, nfz, stop, info, -1)
    return _ret(tl)


@njit(cache=True, nogil=True, inline="always")
def resume(p, policy, rng, tl, ev, held, res, deferred, ps, tr, info, card):  # type: ignore[no-untyped-def]
    """Go on with a deal stopped at a card (:func:`run_deal` or :func:`resume` with
    ``stop``): the seat to play plays ``card`` (one of ``info[I_ALLOWED]``; the caller
    checks), then the policy makes every other choice up to the next card to play, where the
    deal stops again (``info[I_STATUS]`` = :data:`STOPPED`), or to its end."""
    info[I_STATUS] = 0
    tl[T_STOP] = 0
    _play(p, policy, rng, tl, ev, held, res, deferred, ps, tr, NO_CHOICES, 0, True, info, card)
    return _ret(tl)


@njit(cache=True, nogil=True, inline="always")
def _play(p, policy, rng, tl, ev, held, res, deferred, ps, tr, fz, nfz, stop, info, card):  # type: ignore[no-untyped-def]
    """The play, from the trick and half-trick ``ps`` holds: ``card`` (if >= 0) is the next
    card, then the forced choices, then the policy; returns at the end of the deal, or where
    ``stop`` stops it at a card (``ps`` then holds where to go on)."""
    scoring = p[P.PLAY_SCORING]
    hands = ps[PS_HAND:PS_HAND + 2]
    disc = ps[PS_DISC:PS_DISC + 2]
    full = ps[PS_FULL]
    while ps[PS_TRICK] < 12:
        t = ps[PS_TRICK]
        leader = ps[PS_LEADER]
        won0 = ps[PS_WON0]
        if ps[PS_HALF] == 0:
            hand = hands[leader]
            if card >= 0:
                c = card
                card = -1
            else:
                allowed = _playable(hand, -1, ps[PS_LEAD_KIND] if t == 0 else 0,
                                    ps[PS_LEAD_VAL])
                c = _play_choice(p, policy, rng, tl, fz, nfz, stop, info, leader, hand, allowed,
                                 -1, full & ~hand & ~disc[leader] & ~ps[PS_PLAYED],
                                 won0 if leader == 0 else t - won0, t, disc[leader])
                if c < 0:
                    return
            _trace(tl, tr, A_PLAY, c)
            hands[leader] &= ~(1 << c)
            ps[PS_PLAYED] |= 1 << c
            ps[PS_LED] = c
            ps[PS_HALF] = 1
            if scoring == P.PS_LEADS_AND_WINS or (scoring == P.PS_TENTH_CARDS and _tenth(c)):
                _play_count(p, tl, ev, held, leader, K_LEAD, 1)
                if tl[T_REACHED] >= 0 or tl[T_STOP]:
                    return
            n_def = ps[PS_NDEF]
            if t == 0 and n_def:
                # younger's declarations wait until elder has led his first card
                cl2 = np.zeros((MAX_CLAIMS, 5), dtype=np.int64)
                for d in range(n_def):
                    cls = deferred[d, 0]
                    beat = deferred[d, 1]
                    ny = claims(hands[1], cls, p, cl2)
                    j = _claim_choice(p, policy, rng, tl, fz, nfz, hands[1], cls, cl2, ny, True,
                                      beat, deferred[d, 2] != 0, beat < 0)
                    if j < 0:
                        _bad(tl, info)
                        return
                    if j == ny:
                        _trace(tl, tr, A_PASS, cls)
                        _set_result(p, tl, ev, res, held, cls, -1, 0, False, policy, rng, tr, fz,
                                    nfz, info)
                    else:
                        _trace(tl, tr, A_DECLARE, cl2[j, 0] << 2 | cls)
                        _win(p, tl, ev, res, held, hands, 1, cls, cl2, j, policy, rng, tr, fz,
                             nfz, info)
                    if tl[T_REACHED] >= 0 or tl[T_STOP]:
                        return
                _commit(p, tl, ev, res, held)
                if tl[T_REACHED] >= 0 or tl[T_STOP]:
                    return
        c = ps[PS_LED]
        follower = 1 - leader
        hand = hands[follower]
        if card >= 0:
            f = card
            card = -1
        else:
            allowed = _playable(hand, c, 0, 0)
            f = _play_choice(p, policy, rng, tl, fz, nfz, stop, info, follower, hand, allowed, c,
                             full & ~hand & ~disc[follower] & ~ps[PS_PLAYED],
                             won0 if follower == 0 else t - won0, t, disc[follower])
            if f < 0:
                return
        _trace(tl, tr, A_PLAY, f)
        hands[follower] &= ~(1 << f)
        ps[PS_PLAYED] |= 1 << f
        ps[PS_HALF] = 0
        if t == 0 and p[P.PIQUE_FIRST_CARD]:
            tl[T_OPEN] = 0
        follower_wins = f // 9 == c // 9 and f > c
        winner = follower if follower_wins else leader
        if winner == 0:
            won0 += 1
            ps[PS_WON0] = won0
        if scoring == P.PS_LEADS_AND_WINS:
            if follower_wins:
                _play_count(p, tl, ev, held, follower, K_TRICK, 1)
        elif scoring == P.PS_TENTH_CARDS:
            if follower_wins and _tenth(f):
                _play_count(p, tl, ev, held, follower, K_TRICK, 1)
        else:
            n = int(_tenth(c)) + int(_tenth(f))
            if n:
                _play_count(p, tl, ev, held, winner, K_TRICK, n)
        if tl[T_REACHED] >= 0 or tl[T_STOP]:
            return
        if t < 11:
            ps[PS_LEADER] = winner
            ps[PS_TRICK] = t + 1
            continue
        ps[PS_TRICK] = 12
        win_card = f if follower_wins else c
        bonus = p[P.LAST_TENTH_BONUS] if _tenth(win_card) else p[P.LAST_BONUS]
        _play_count(p, tl, ev, held, winner, K_LAST, bonus)
        if tl[T_REACHED] >= 0 or tl[T_STOP]:
            return
        mine = won0 if winner == 0 else 12 - won0
        theirs = 12 - mine
        if mine == 12:
            _play_count(p, tl, ev, held, winner, K_CAPOT, p[P.CAPOT_BONUS])
        elif mine > theirs:
            _play_count(p, tl, ev, held, winner, K_CARDS, p[P.CARDS_BONUS])
        elif theirs > mine:
            _play_count(p, tl, ev, held, 1 - winner, K_CARDS, p[P.CARDS_BONUS])


@njit(cache=True, nogil=True)
def shuffle_pack(p, rng, deck):  # type: ignore[no-untyped-def]
    """Fill ``deck`` with the rule set's pack in a random order (Fisher-Yates)."""
    n = 0
    for i in range(36):
        if p[P.DECK_SIZE] == 36 or i % 9:
            deck[n] = i
            n += 1
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


@njit(cache=True, nogil=True)
def play_deals(p, n, policy, rng, totals):  # type: ignore[no-untyped-def]
    """Play ``n`` deals of random packs by ``policy``; add each role's points to ``totals``
    and return the number of score events (a checksum)."""
    deck = np.zeros(36, dtype=np.int64)
    tr = np.zeros((MAX_TRACE, 2), dtype=np.int64)
    ev = np.zeros((MAX_EVENTS, 3), dtype=np.int64)
    fz = np.zeros((1, 2), dtype=np.int64)
    info = np.zeros(I_SIZE, dtype=np.int64)
    events = 0
    for _ in range(n):
        shuffle_pack(p, rng, deck)
        _, nev, s0, s1, _ = play_deal(p, deck, 0, 0, 0, policy, rng, tr, ev, fz, 0, False, info)
        totals[0] += s0
        totals[1] += s1
        events += nev
    return events


@njit(cache=True, nogil=True)
def playouts(p, deck, start0, start1, target, policy, rng, fz, nfz, n, out):  # type: ignore[no-untyped-def]
    """Play the deal of ``deck`` ``n`` times: the forced choices ``fz[:nfz]`` first (the
    deal so far), the rest by ``policy``.  Adds to ``out`` each role's points and how often
    each role reached the target; returns -1 if a forced choice is not allowed, else 0."""
    tr = np.zeros((MAX_TRACE, 2), dtype=np.int64)
    ev = np.zeros((MAX_EVENTS, 3), dtype=np.int64)
    info = np.zeros(I_SIZE, dtype=np.int64)
    for _ in range(n):
        _, _, s0, s1, reached = play_deal(p, deck, start0, start1, target, policy, rng, tr, ev,
                                          fz, nfz, False, info)
        if info[I_STATUS] == BAD_CHOICE:
            return -1
        out[0] += s0
        out[1] += s1
        if reached >= 0:
            out[2 + reached] += 1
    return 0
