"""A double-dummy solver for the twelve tricks: both hands known, exact minimax.

Once every card's place is known (a real deal, or a world drawn by
:mod:`piquet.sampling`), the play is a two-player game of perfect information.
:class:`Solver` finds its exact value with alpha-beta search compiled by
numba, over a private fast board: hands are 36-bit masks, cards that are
equivalent (next to each other in a suit once the played cards are taken out,
in one hand, and alike for the rule set's scoring) are tried once, and a
transposition table keeps what was learnt.

What is scored is what the rule set scores in the play (:class:`~piquet.core.rules.PlayScoring`):
leads, tricks, the last trick, the cards or capot, and a pique while it is
still open (made in play only, never by the cards or capot; by elder's first
card at the latest where :attr:`~piquet.core.rules.Rules.pique_by_first_card` says so).
``_step`` is the compiled copy of the engine's trick scorer
(:func:`piquet.core.transitions._h_play`), kept for speed and checked against the engine
by a differential test (``tests/test_solver.py``: the solver's value equals a minimax
over the engine's own deals).  The objective (:class:`Objective`) is one of:

- ``DIFF``: the points elder counts from here on minus those younger counts;
- ``RACE``: the game's target is within reach in this deal; reaching it first
  is worth :data:`RACE_BONUS` on top of the difference (the deal stops there);
- ``PARTIE``: the last deal of a Rubicon partie; the value is elder's
  settlement (positive when elder wins the partie; a rubiconed loser's total
  counts for the winner).

Values are always from elder's side (elder maximizes, younger minimizes);
:meth:`Solver.move_values` gives them from the side of the seat to move.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar, cast

import numpy as np
from numba import njit

from piquet.core.deal import ELDER, Deal, Phase
from piquet.core.errors import PiquetError
from piquet.core.roles import Role
from piquet.core.rules import PlayScoring, Rules, Settlement
from piquet.core.scoring import Tally

__all__ = [
    "RACE_BONUS",
    "Mode",
    "Objective",
    "PlayState",
    "Solver",
    "objective_for",
    "play_state",
]

#: What reaching the game's target first is worth, in points, in ``RACE`` mode.
RACE_BONUS: Final = 200


class Mode(enum.IntEnum):
    DIFF = 0
    RACE = 1
    PARTIE = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class Objective:
    """What the search maximizes for elder.

    ``remaining``: (elder, younger) points still needed for the target (RACE);
    ``before``: partie scores of (elder, younger) before this deal (PARTIE).
    """

    mode: Mode = Mode.DIFF
    remaining: tuple[int, int] = (0, 0)
    before: tuple[int, int] = (0, 0)
    settlement: Settlement = Settlement.PARLETT


DIFF: Final = Objective()


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayState:
    """A position of the play with both hands known (the solver's input).

    ``hands`` are (elder, younger) masks; ``lead`` is the card led to the
    unfinished trick (or None); ``totals`` the points each has counted in the
    deal so far; ``open`` whether a pique can still be won.
    """

    hands: tuple[int, int]
    leader: int
    lead: int | None
    won: tuple[int, int]
    totals: tuple[int, int] = (0, 0)
    open: bool = False

    @property
    def to_move(self) -> int:
        return self.leader if self.lead is None else 1 - self.leader

    @property
    def tricks_played(self) -> int:
        return self.won[0] + self.won[1]


def _to_act(deal: Deal) -> Role:
    seat = deal.to_act
    if seat is None:
        raise PiquetError("the deal is over: nobody is to play")
    return seat


def play_state(deal: Deal) -> PlayState:
    """The solver's position for a deal in its play phase (every card's place known).

    Raises :class:`PiquetError` if the deal is not being played.
    """
    if deal.phase is not Phase.PLAY:
        raise PiquetError(f"the solver needs a deal in play, not in phase {deal.phase.value}")
    tally: Tally = deal.tally
    return PlayState(
        hands=deal.hands,
        leader=deal.leader if deal.trick_lead is not None else _to_act(deal),
        lead=deal.trick_lead,
        won=deal.won,
        totals=tally.totals,
        open=tally.open,
    )


def objective_for(
    rules: Rules,
    *,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
    partie_last: bool = False,
    reach: int = 60,
) -> Objective:
    """The objective for a deal: RACE if ``target`` is within ``reach`` points of either
    role's ``start`` score, PARTIE on the last deal of a partie, else DIFF."""
    if target is not None and min(target - start[0], target - start[1]) <= reach:
        return Objective(mode=Mode.RACE, remaining=(target - start[0], target - start[1]))
    if partie_last:
        return Objective(mode=Mode.PARTIE, before=start, settlement=rules.settlement)
    return DIFF


# ------------------------------------------------------------------ the kernel
_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(fn: _F) -> _F:
    """Compile with numba (cached on disk, releasing the GIL), keeping the Python signature."""
    return cast(_F, njit(cache=True, nogil=True)(fn))


_SCORING: Final = {
    PlayScoring.TENTH_CARDS: 0,
    PlayScoring.WINNER_TENTHS: 1,
    PlayScoring.LEADS_AND_WINS: 2,
}
# parameter vector layout
_P_SCORING, _P_LAST, _P_LAST_TENTH, _P_CARDS, _P_CAPOT = 0, 1, 2, 3, 4
_P_THRESH, _P_PIQUE, _P_ELDER_ONLY, _P_MODE = 5, 6, 7, 8
_P_REM0, _P_REM1, _P_BASE0, _P_BASE1, _P_SETTLE, _P_RACE = 9, 10, 11, 12, 13, 14
_P_FIRST_CARD = 15
_P_PIQUE_CARDS = 16
_NPARAMS: Final = 17

_EXACT, _LOWER, _UPPER = 1, 2, 3
_INF: Final = 1 << 20
_TT_BITS: Final = 20


@_jit
def _is_tenth(card: int) -> bool:
    return card % 9 >= 4


@_jit
def _add(
    seat: int, pts: int, acc0: int, acc1: int, opn: int, ended: int, P: Any
) -> tuple[int, int, int, int]:
    """Count ``pts`` for ``seat`` in play order: pique, and the target in RACE mode."""
    if ended != 0 or pts <= 0:
        return acc0, acc1, opn, ended
    before = acc0 if seat == 0 else acc1
    other = acc1 if seat == 0 else acc0
    mine = before + pts
    if opn != 0:
        thr = P[_P_THRESH]
        if other == 0 and before < thr <= mine:
            if not (P[_P_ELDER_ONLY] != 0 and seat == 1):
                mine += P[_P_PIQUE]
            opn = 0
        elif other > 0 or mine >= thr:
            opn = 0
    if seat == 0:
        acc0 = mine
    else:
        acc1 = mine
    if P[_P_MODE] == 1:
        if acc0 >= P[_P_REM0]:
            ended = 1
        elif acc1 >= P[_P_REM1]:
            ended = 2
    return acc0, acc1, opn, ended


@_jit
def _terminal(acc0: int, acc1: int, ended: int, P: Any) -> int:
    mode = P[_P_MODE]
    if mode == 0:
        return 0
    if mode == 1:
        v = acc0 - acc1
        if ended == 1:
            v += P[_P_RACE]
        elif ended == 2:
            v -= P[_P_RACE]
        return v
    t0 = P[_P_BASE0] + acc0
    t1 = P[_P_BASE1] + acc1
    if t0 == t1:
        return 0
    ws = t0 if t0 > t1 else t1
    ls = t1 if t0 > t1 else t0
    if P[_P_SETTLE] == 0:  # Parlett
        settled = 100 + ws + ls if ls < 100 else 100 + ws - ls
    else:
        settled = ws + ls if (ls < 100 and ws >= 100) else ws - ls
    return int(settled if t0 > t1 else -settled)


@_jit
def _gen(hand: int, opp: int, lead: int, scoring: int, out: Any, ply: int) -> int:
    """Representative playable cards (one per class of equivalent cards) into out[ply]."""
    avail = hand
    sep = opp
    if lead >= 0:
        sm = 0x1FF << (9 * (lead // 9))
        if hand & sm:
            avail = hand & sm
        sep = opp | (1 << lead)
    n = 0
    for s in range(4):
        local = (avail >> (9 * s)) & 0x1FF
        if local == 0:
            continue
        sep_l = (sep >> (9 * s)) & 0x1FF
        in_run = False
        prev_t = -1
        for r in range(8, -1, -1):
            if (local >> r) & 1:
                t = 1 if r >= 4 else 0
                if in_run and (scoring == 2 or t == prev_t):
                    continue
                out[ply, n] = 9 * s + r
                n += 1
                in_run = True
                prev_t = t
            elif (sep_l >> r) & 1:
                in_run = False
    return n


@_jit
def _order(hand: int, opp: int, lead: int, out: Any, ply: int, n: int, first: int) -> None:
    """Sort out[ply, :n] by a move-ordering priority (``first`` goes first)."""
    pr = out[ply + 26]
    for i in range(n):
        c = out[ply, i]
        s = c // 9
        r = c % 9
        if c == first:
            p = 1000
        elif lead < 0:
            higher = (opp >> (9 * s)) & (0x1FF & ~((1 << (r + 1)) - 1))
            if higher == 0:
                p = 200 + r  # a master card
            else:
                p = 100 - r
        elif c // 9 == lead // 9:
            if r > lead % 9:
                p = 300 - r  # win with the lowest winner
            else:
                p = 100 - r
        else:
            p = 100 - r
        pr[i] = p
    for i in range(1, n):
        c = out[ply, i]
        p = pr[i]
        j = i - 1
        while j >= 0 and pr[j] < p:
            out[ply, j + 1] = out[ply, j]
            pr[j + 1] = pr[j]
            j -= 1
        out[ply, j + 1] = c
        pr[j + 1] = p


@_jit
def _normal(h0: int, h1: int, lead: int, scoring: int) -> tuple[int, int, int]:
    """The hands with played cards squeezed out of each suit (relative ranks).

    Two positions with the same relative ranks have the same value; under a
    scoring that counts tenth cards, cards below and from the ten are squeezed
    apart so that the distinction survives.
    """
    n0 = 0
    n1 = 0
    nlead = -1
    for s in range(4):
        base = 9 * s
        rem = ((h0 | h1) >> base) & 0x1FF
        if lead >= 0 and lead // 9 == s:
            rem |= 1 << (lead - base)
        if rem == 0:
            continue
        pos = 0
        for r in range(9):
            if scoring != 2 and r == 4 and pos < 4:
                pos = 4
            if (rem >> r) & 1:
                c = base + r
                if (h0 >> c) & 1:
                    n0 |= 1 << (base + pos)
                elif (h1 >> c) & 1:
                    n1 |= 1 << (base + pos)
                else:
                    nlead = base + pos
                pos += 1
    return n0, n1, nlead


@_jit
def _step(
    h0: int,
    h1: int,
    leader: int,
    lead: int,
    won0: int,
    ntr: int,
    acc0: int,
    acc1: int,
    opn: int,
    card: int,
    P: Any,
) -> tuple[int, int, int, int, int, int, int, int, int, int]:
    """Play ``card`` for the seat to move; the new position and the deal's end flag."""
    scoring = P[_P_SCORING]
    ended = 0
    if lead < 0:
        if leader == 0:
            h0 &= ~(1 << card)
        else:
            h1 &= ~(1 << card)
        if scoring == 2 or (scoring == 0 and _is_tenth(card)):
            acc0, acc1, opn, ended = _add(leader, 1, acc0, acc1, opn, ended, P)
        return h0, h1, leader, card, won0, ntr, acc0, acc1, opn, ended
    follower = 1 - leader
    if ntr == 0 and P[_P_FIRST_CARD] != 0:
        # the pique had to be made by elder's first card, before younger plays
        opn = 0
    if follower == 0:
        h0 &= ~(1 << card)
    else:
        h1 &= ~(1 << card)
    if card // 9 == lead // 9 and card > lead:
        winner = follower
        win_card = card
    else:
        winner = leader
        win_card = lead
    if scoring == 2:
        if winner == follower:
            acc0, acc1, opn, ended = _add(follower, 1, acc0, acc1, opn, ended, P)
    elif scoring == 0:
        if winner == follower and _is_tenth(card):
            acc0, acc1, opn, ended = _add(follower, 1, acc0, acc1, opn, ended, P)
    else:
        k = (1 if _is_tenth(lead) else 0) + (1 if _is_tenth(card) else 0)
        acc0, acc1, opn, ended = _add(winner, k, acc0, acc1, opn, ended, P)
    if winner == 0:
        won0 += 1
    ntr += 1
    if ntr == 12:
        bonus = P[_P_LAST_TENTH] if _is_tenth(win_card) else P[_P_LAST]
        acc0, acc1, opn, ended = _add(winner, bonus, acc0, acc1, opn, ended, P)
        # the cards and capot come after the play: they make no pique (unless the rules'
        # reading of "before the other has scored anything" lets them: pique_by_cards)
        if P[_P_PIQUE_CARDS] == 0:
            opn = 0
        won1 = 12 - won0
        if won0 == 12:
            acc0, acc1, opn, ended = _add(0, P[_P_CAPOT], acc0, acc1, opn, ended, P)
        elif won1 == 12:
            acc0, acc1, opn, ended = _add(1, P[_P_CAPOT], acc0, acc1, opn, ended, P)
        elif won0 > won1:
            acc0, acc1, opn, ended = _add(0, P[_P_CARDS], acc0, acc1, opn, ended, P)
        elif won1 > won0:
            acc0, acc1, opn, ended = _add(1, P[_P_CARDS], acc0, acc1, opn, ended, P)
    return h0, h1, winner, -1, won0, ntr, acc0, acc1, opn, ended


# frame fields of the explicit search stack
_F_H0, _F_H1, _F_LEADER, _F_LEAD, _F_WON0, _F_NTR, _F_ACC0, _F_ACC1, _F_OPN = range(9)
_F_ALPHA, _F_BETA, _F_A0, _F_B0, _F_BEST, _F_BMOVE, _F_I, _F_N = range(9, 17)
_F_K1, _F_K2, _F_IDX, _F_GAIN, _F_ENTER = range(17, 22)
_FIELDS: Final = 22
_DEPTH: Final = 28


@_jit
def _push(
    S: Any,
    sp: int,
    h0: int,
    h1: int,
    leader: int,
    lead: int,
    won0: int,
    ntr: int,
    acc0: int,
    acc1: int,
    opn: int,
    alpha: int,
    beta: int,
) -> None:
    S[sp, _F_H0] = h0
    S[sp, _F_H1] = h1
    S[sp, _F_LEADER] = leader
    S[sp, _F_LEAD] = lead
    S[sp, _F_WON0] = won0
    S[sp, _F_NTR] = ntr
    S[sp, _F_ACC0] = acc0
    S[sp, _F_ACC1] = acc1
    S[sp, _F_OPN] = opn
    S[sp, _F_ALPHA] = alpha
    S[sp, _F_BETA] = beta
    S[sp, _F_ENTER] = 1


@_jit
def _search(
    h0: int,
    h1: int,
    leader: int,
    lead: int,
    won0: int,
    ntr: int,
    acc0: int,
    acc1: int,
    opn: int,
    alpha: int,
    beta: int,
    ply: int,
    P: Any,
    tt: Any,
    buf: Any,
    stats: Any,
    S: Any,
) -> int:
    """Value of the position (DIFF: points to come; else the objective) for elder.

    Alpha-beta with a transposition table, written with an explicit stack
    ``S`` (one row per ply) instead of recursion.  Rows ``ply + k`` of ``buf``
    hold the moves of stack level ``k``.
    """
    mode = P[_P_MODE]
    diff = mode == 0
    scoring = P[_P_SCORING]
    sp = 0
    _push(S, 0, h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, alpha, beta)
    ret = 0
    have_ret = False
    while True:
        row = ply + sp
        if S[sp, _F_ENTER] == 1:
            S[sp, _F_ENTER] = 0
            stats[0] += 1
            if stats[1] > 0 and stats[0] >= stats[1]:
                stats[2] = 1  # out of positions: give up, storing nothing more
                return 0
            c_h0 = S[sp, _F_H0]
            c_h1 = S[sp, _F_H1]
            c_leader = S[sp, _F_LEADER]
            c_lead = S[sp, _F_LEAD]
            c_opn = S[sp, _F_OPN]
            keep_acc = (not diff) or c_opn != 0
            n0, n1, nlead = _normal(c_h0, c_h1, c_lead, scoring)
            k1 = n0 | (c_leader << 36) | ((nlead + 1) << 37) | (S[sp, _F_WON0] << 43) | (
                c_opn << 47
            )
            k2 = n1
            if keep_acc:
                k2 |= (min(S[sp, _F_ACC0], 511) << 36) | (min(S[sp, _F_ACC1], 511) << 45)
            hsh = (k1 * 0x5851F42D4C957F2D) ^ (k2 * 0x14057B7EF767814F)
            idx = (hsh >> 17) & (tt.shape[0] - 1)
            S[sp, _F_K1] = k1
            S[sp, _F_K2] = k2
            S[sp, _F_IDX] = idx
            tt_move = -1
            cut = False
            if tt[idx, 0] == k1 and tt[idx, 1] == k2:
                packed = tt[idx, 2]
                v = (packed >> 16) - _INF
                f = (packed >> 8) & 0xFF
                tt_move = (packed & 0xFF) - 1
                if f == _EXACT:
                    cut = True
                elif f == _LOWER and v >= S[sp, _F_BETA]:
                    cut = True
                elif f == _UPPER and v <= S[sp, _F_ALPHA]:
                    cut = True
            if cut:
                ret = v
                if sp == 0:
                    return int(ret)
                sp -= 1
                have_ret = True
                continue
            mover = c_leader if c_lead < 0 else 1 - c_leader
            hand = c_h0 if mover == 0 else c_h1
            opp = c_h1 if mover == 0 else c_h0
            n = _gen(hand, opp, c_lead, scoring, buf, row)
            _order(hand, opp, c_lead, buf, row, n, tt_move)
            S[sp, _F_N] = n
            S[sp, _F_I] = 0
            S[sp, _F_A0] = S[sp, _F_ALPHA]
            S[sp, _F_B0] = S[sp, _F_BETA]
            S[sp, _F_BEST] = -_INF if mover == 0 else _INF
            S[sp, _F_BMOVE] = -1
        c_leader = S[sp, _F_LEADER]
        c_lead = S[sp, _F_LEAD]
        mover = c_leader if c_lead < 0 else 1 - c_leader
        if have_ret:
            have_ret = False
            v = S[sp, _F_GAIN] + ret
            card = buf[row, S[sp, _F_I] - 1]
            if mover == 0:
                if v > S[sp, _F_BEST]:
                    S[sp, _F_BEST] = v
                    S[sp, _F_BMOVE] = card
                if S[sp, _F_BEST] > S[sp, _F_ALPHA]:
                    S[sp, _F_ALPHA] = S[sp, _F_BEST]
            else:
                if v < S[sp, _F_BEST]:
                    S[sp, _F_BEST] = v
                    S[sp, _F_BMOVE] = card
                if S[sp, _F_BEST] < S[sp, _F_BETA]:
                    S[sp, _F_BETA] = S[sp, _F_BEST]
        pushed = False
        while S[sp, _F_ALPHA] < S[sp, _F_BETA] and S[sp, _F_I] < S[sp, _F_N]:
            card = buf[row, S[sp, _F_I]]
            S[sp, _F_I] += 1
            c_acc0 = S[sp, _F_ACC0]
            c_acc1 = S[sp, _F_ACC1]
            nh0, nh1, nl, nlead, nwon0, nntr, nacc0, nacc1, nopn, ended = _step(
                S[sp, _F_H0], S[sp, _F_H1], c_leader, c_lead, S[sp, _F_WON0], S[sp, _F_NTR],
                c_acc0, c_acc1, S[sp, _F_OPN], card, P,
            )
            gain = (nacc0 - nacc1) - (c_acc0 - c_acc1) if diff else 0
            if ended != 0 or nntr == 12:
                v = gain + _terminal(nacc0, nacc1, ended, P)
                if mover == 0:
                    if v > S[sp, _F_BEST]:
                        S[sp, _F_BEST] = v
                        S[sp, _F_BMOVE] = card
                    if S[sp, _F_BEST] > S[sp, _F_ALPHA]:
                        S[sp, _F_ALPHA] = S[sp, _F_BEST]
                else:
                    if v < S[sp, _F_BEST]:
                        S[sp, _F_BEST] = v
                        S[sp, _F_BMOVE] = card
                    if S[sp, _F_BEST] < S[sp, _F_BETA]:
                        S[sp, _F_BETA] = S[sp, _F_BEST]
                continue
            S[sp, _F_GAIN] = gain
            _push(
                S, sp + 1, nh0, nh1, nl, nlead, nwon0, nntr, nacc0, nacc1, nopn,
                S[sp, _F_ALPHA] - gain, S[sp, _F_BETA] - gain,
            )
            pushed = True
            break
        if pushed:
            sp += 1
            continue
        best = S[sp, _F_BEST]
        if best <= S[sp, _F_A0]:
            flag = _UPPER
        elif best >= S[sp, _F_B0]:
            flag = _LOWER
        else:
            flag = _EXACT
        idx = S[sp, _F_IDX]
        tt[idx, 0] = S[sp, _F_K1]
        tt[idx, 1] = S[sp, _F_K2]
        tt[idx, 2] = ((best + _INF) << 16) | (flag << 8) | (S[sp, _F_BMOVE] + 1)
        ret = best
        if sp == 0:
            return int(ret)
        sp -= 1
        have_ret = True


@_jit
def _mtdf(
    h0: int,
    h1: int,
    leader: int,
    lead: int,
    won0: int,
    ntr: int,
    acc0: int,
    acc1: int,
    opn: int,
    guess: int,
    P: Any,
    tt: Any,
    buf: Any,
    stats: Any,
    S: Any,
) -> int:
    """Exact value by a series of null-window searches converging from ``guess``."""
    g = guess
    lo = -_INF
    hi = _INF
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = _search(
            h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, beta - 1, beta, 1, P, tt, buf, stats,
            S,
        )
        if stats[2] != 0:
            return g
        if g < beta:
            hi = g
        else:
            lo = g
    return g


@_jit
def _root(
    h0: int,
    h1: int,
    leader: int,
    lead: int,
    won0: int,
    ntr: int,
    acc0: int,
    acc1: int,
    opn: int,
    guess: int,
    P: Any,
    tt: Any,
    buf: Any,
    stats: Any,
    S: Any,
    cards_out: Any,
    values_out: Any,
) -> int:
    """Exact value (elder's side) of each representative move; returns how many."""
    mover = leader if lead < 0 else 1 - leader
    hand = h0 if mover == 0 else h1
    opp = h1 if mover == 0 else h0
    n = _gen(hand, opp, lead, P[_P_SCORING], buf, 0)
    _order(hand, opp, lead, buf, 0, n, -1)
    diff = P[_P_MODE] == 0
    for i in range(n):
        card = buf[0, i]
        nh0, nh1, nl, nlead, nwon0, nntr, nacc0, nacc1, nopn, ended = _step(
            h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, card, P
        )
        gain = (nacc0 - nacc1) - (acc0 - acc1) if diff else 0
        if ended != 0 or nntr == 12:
            v = gain + _terminal(nacc0, nacc1, ended, P)
        else:
            v = gain + _mtdf(
                nh0, nh1, nl, nlead, nwon0, nntr, nacc0, nacc1, nopn,
                guess - gain, P, tt, buf, stats, S,
            )
            guess = v
        if stats[2] != 0:
            return i
        cards_out[i] = card
        values_out[i] = v
    return n


@_jit
def _root_estimate(
    h0: int,
    h1: int,
    leader: int,
    lead: int,
    won0: int,
    ntr: int,
    acc0: int,
    acc1: int,
    opn: int,
    P: Any,
    buf: Any,
    cards_out: Any,
    values_out: Any,
) -> int:
    """Each representative move followed by a greedy open-handed playout (elder's side)."""
    mover = leader if lead < 0 else 1 - leader
    hand = h0 if mover == 0 else h1
    opp = h1 if mover == 0 else h0
    n = _gen(hand, opp, lead, P[_P_SCORING], buf, 0)
    diff = P[_P_MODE] == 0
    for i in range(n):
        card = buf[0, i]
        nh0, nh1, nl, nlead, nwon0, nntr, nacc0, nacc1, nopn, ended = _step(
            h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, card, P
        )
        gain = (nacc0 - nacc1) - (acc0 - acc1) if diff else 0
        if ended != 0 or nntr == 12:
            v = gain + _terminal(nacc0, nacc1, ended, P)
        else:
            v = gain + _greedy(nh0, nh1, nl, nlead, nwon0, nntr, nacc0, nacc1, nopn, P)
        cards_out[i] = card
        values_out[i] = v
    return n


# ------------------------------------------------------------------ the Python face
def _params(rules: Rules, objective: Objective) -> Any:
    p = np.zeros(_NPARAMS, np.int64)
    p[_P_SCORING] = _SCORING[rules.play_scoring]
    p[_P_LAST] = rules.last_trick_bonus
    p[_P_LAST_TENTH] = rules.last_trick_tenth_bonus
    p[_P_CARDS] = rules.cards_bonus
    p[_P_CAPOT] = rules.capot_bonus
    p[_P_THRESH] = rules.pique_threshold
    p[_P_PIQUE] = rules.pique_bonus
    p[_P_ELDER_ONLY] = 1 if rules.pique_elder_only else 0
    p[_P_FIRST_CARD] = 1 if rules.pique_by_first_card else 0
    p[_P_PIQUE_CARDS] = 1 if rules.pique_by_cards else 0
    p[_P_MODE] = int(objective.mode)
    p[_P_REM0], p[_P_REM1] = objective.remaining
    p[_P_BASE0], p[_P_BASE1] = objective.before
    p[_P_SETTLE] = 0 if objective.settlement is Settlement.PARLETT else 1
    p[_P_RACE] = RACE_BONUS
    return p


class Solver:
    """Exact double-dummy values of play positions under one rule set and objective.

    Keeps a transposition table of ``2**tt_bits`` entries between calls (valid for
    the rule set and objective it was made for; :meth:`reset` clears it).
    """

    def __init__(
        self, rules: Rules, objective: Objective = DIFF, *, tt_bits: int = _TT_BITS
    ) -> None:
        self.rules = rules
        self.objective = objective
        self._p = _params(rules, objective)
        size = 1 << tt_bits
        self._tt = np.full((size, 3), -1, np.int64)
        self._buf = np.zeros((52, 12), np.int64)
        self._stack = np.zeros((_DEPTH, _FIELDS), np.int64)
        self._stats = np.zeros(3, np.int64)
        self._cards = np.zeros(12, np.int64)
        self._vals = np.zeros(12, np.int64)
        self._guess = 0

    @property
    def nodes(self) -> int:
        """Positions searched since the solver was made."""
        return int(self._stats[0])

    def reset(self, objective: Objective | None = None) -> None:
        """Clear the table; switch objective if one is given."""
        if objective is not None and objective != self.objective:
            self.objective = objective
            self._p = _params(self.rules, objective)
        self._tt.fill(-1)

    def _args(self, s: PlayState) -> tuple[int, int, int, int, int, int, int, int, int]:
        _check_state(s)
        # plain ints (a Role or a bool would have numba compile the kernels once more)
        return (
            int(s.hands[0]),
            int(s.hands[1]),
            int(s.leader),
            -1 if s.lead is None else int(s.lead),
            int(s.won[0]),
            int(s.won[0] + s.won[1]),
            int(s.totals[0]),
            int(s.totals[1]),
            1 if s.open else 0,
        )

    def _limit(self, nodes: int | None) -> None:
        self._stats[2] = 0
        self._stats[1] = 0 if nodes is None else self._stats[0] + max(1, nodes)

    @property
    def aborted(self) -> bool:
        """The last search ran out of its positions (its result is not to be used)."""
        return bool(self._stats[2])

    def root_values(self, state: PlayState, *, nodes: int | None = None) -> dict[int, int]:
        """Exact value (elder's side) of each card the seat to move may play.

        Equivalent cards share their value.  DIFF values count from this
        position on; RACE and PARTIE values are the objective's.  With
        ``nodes``, the search gives up after that many positions and returns
        ``{}`` (:attr:`aborted` is then true).
        """
        if not state.hands[state.to_move]:
            return {}
        self._limit(nodes)
        n = _root(
            *self._args(state),
            self._guess,
            self._p,
            self._tt,
            self._buf,
            self._stats,
            self._stack,
            self._cards,
            self._vals,
        )
        if self._stats[2]:
            return {}
        rep = {int(self._cards[i]): int(self._vals[i]) for i in range(n)}
        self._guess = max(rep.values()) if state.to_move == ELDER else min(rep.values())
        return _spread(state, rep, self.rules)

    def estimate_moves(self, state: PlayState) -> dict[int, int]:
        """Like :meth:`move_values` (the mover's side), each card followed by a greedy playout."""
        if not state.hands[state.to_move]:
            return {}
        n = _root_estimate(*self._args(state), self._p, self._buf, self._cards, self._vals)
        rep = {int(self._cards[i]): int(self._vals[i]) for i in range(n)}
        vals = _spread(state, rep, self.rules)
        if state.to_move == ELDER:
            return vals
        return {c: -v for c, v in vals.items()}

    def estimate(self, state: PlayState) -> int:
        """A fast estimate of :meth:`value`: both sides play a simple open-handed policy."""
        if not state.hands[state.to_move]:
            return 0
        return int(_greedy(*self._args(state), self._p))

    def move_values(self, state: PlayState, *, nodes: int | None = None) -> dict[int, int]:
        """:meth:`root_values` from the side of the seat to move (it maximizes these)."""
        vals = self.root_values(state, nodes=nodes)
        if state.to_move == ELDER:
            return vals
        return {c: -v for c, v in vals.items()}

    def value(
        self, state: PlayState, *, guess: int | None = None, nodes: int | None = None
    ) -> int | None:
        """The exact value (elder's side) of the position; None if ``nodes`` ran out."""
        if not state.hands[state.to_move]:
            return 0
        self._limit(nodes)
        v = int(
            _mtdf(
                *self._args(state),
                self._guess if guess is None else guess,
                self._p,
                self._tt,
                self._buf,
                self._stats,
                self._stack,
            )
        )
        return None if self._stats[2] else v


def _check_state(s: PlayState) -> None:
    """Raise :class:`PiquetError` unless the position is one the kernel can search."""
    a, b = s.hands
    if a & b:
        raise PiquetError("the two hands share a card")
    n_mover = s.hands[s.to_move].bit_count()
    n_other = s.hands[1 - s.to_move].bit_count()
    left = 12 - s.tricks_played
    expected_other = left - 1 if s.lead is not None else left
    if not (n_mover == left and n_other == expected_other) or s.won[0] < 0 or s.won[1] < 0:
        raise PiquetError(
            f"not a position of the play: {n_mover} and {n_other} cards with "
            f"{s.tricks_played} tricks played"
        )
    if s.lead is not None and (a | b) >> s.lead & 1:
        raise PiquetError("the card led is still in a hand")


def _spread(state: PlayState, rep: dict[int, int], rules: Rules) -> dict[int, int]:
    """Give every playable card the value of its representative (the class's highest)."""
    mover = state.to_move
    hand = state.hands[mover]
    opp = state.hands[1 - mover]
    avail = hand
    sep = opp
    if state.lead is not None:
        sm = 0x1FF << (9 * (state.lead // 9))
        if hand & sm:
            avail = hand & sm
        sep = opp | (1 << state.lead)
    merge_all = rules.play_scoring is PlayScoring.LEADS_AND_WINS
    out: dict[int, int] = {}
    for s in range(4):
        current: int | None = None
        prev_t = -1
        for r in range(8, -1, -1):
            c = 9 * s + r
            if avail >> c & 1:
                t = 1 if r >= 4 else 0
                if current is None or not (merge_all or t == prev_t):
                    current = c
                    prev_t = t
                out[c] = rep[current]
            elif sep >> c & 1:
                current = None
    return out


# ------------------------------------------------------------------ a fast estimate
@_jit
def _low9(x: int) -> int:
    """Index of the lowest set bit of a non-zero 9-bit value."""
    for r in range(9):
        if (x >> r) & 1:
            return r
    return -1


@_jit
def _high9(x: int) -> int:
    """Index of the highest set bit of a 9-bit value (-1 for zero)."""
    for r in range(8, -1, -1):
        if (x >> r) & 1:
            return r
    return -1


@_jit
def _popcount9(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@_jit
def _greedy_card(hand: int, opp: int, lead: int) -> int:
    """The card a simple open-handed player chooses (masters, cheap wins, low throws)."""
    if lead >= 0:
        s = lead // 9
        suit = (hand >> (9 * s)) & 0x1FF
        r_lead = lead % 9
        if suit:
            higher = suit & ~((1 << (r_lead + 1)) - 1)
            if higher:
                return 9 * s + _low9(higher)
            return 9 * s + _low9(suit)
        # void: throw the lowest card of the longest suit the opponent cannot beat least
        best = -1
        best_key = 1 << 30
        for t in range(4):
            cards = (hand >> (9 * t)) & 0x1FF
            if cards == 0:
                continue
            r = _low9(cards)
            key = r * 16 - _popcount9(cards)
            if key < best_key:
                best_key = key
                best = 9 * t + r
        return best
    # leading: a sure winner first (master, or a suit the other lacks)
    best = -1
    best_key = -(1 << 30)
    for t in range(4):
        cards = (hand >> (9 * t)) & 0x1FF
        if cards == 0:
            continue
        theirs = (opp >> (9 * t)) & 0x1FF
        top = _high9(cards)
        if theirs == 0 or top > _high9(theirs):
            key = 1000 + (100 if theirs == 0 else 0) + _popcount9(cards) * 10 + top
            if key > best_key:
                best_key = key
                best = 9 * t + top
        else:
            low = _low9(cards)
            key = _popcount9(cards) * 10 - low
            if key > best_key:
                best_key = key
                best = 9 * t + low
    return best


@_jit
def _greedy(
    h0: int,
    h1: int,
    leader: int,
    lead: int,
    won0: int,
    ntr: int,
    acc0: int,
    acc1: int,
    opn: int,
    P: Any,
) -> int:
    """Value (same units as :func:`_search`) of a greedy open-handed playout."""
    diff = P[_P_MODE] == 0
    start = acc0 - acc1
    ended = 0
    while ntr < 12 and ended == 0:
        mover = leader if lead < 0 else 1 - leader
        hand = h0 if mover == 0 else h1
        opp = h1 if mover == 0 else h0
        card = _greedy_card(hand, opp, lead)
        h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, ended = _step(
            h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, card, P
        )
    if diff:
        return (acc0 - acc1) - start
    return _terminal(acc0, acc1, ended, P)
