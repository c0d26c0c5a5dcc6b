"""The compiled core of the batch environment: N games stepped together.

Each game is a row of numpy arrays: its pack, its score, dealer and deal number (``st``),
and the kernel's resumable board of the deal in progress (:func:`piquet.fast.kernel.run_deal`
and :func:`~piquet.fast.kernel.resume`: the tally, the score events, the choices so far,
the classes decided, the play counts held back, younger's deferred declarations, the play
state).  The agent plays the cards; every other choice of a deal (the deal, carte blanche,
the exchange, the leftovers, the declarations) is made by a kernel policy.  A step plays
each game's card and goes on from the board to the next card to play (one decision, not
the deal again), settling finished deals and games and starting new ones on the way; it
writes the observation and the legal cards from the board.  The functions release the GIL,
so :class:`~piquet.fast.env.VectorEnv` steps slices of the rows on several threads at once
(one per core).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from piquet.fast import kernel as K
from piquet.fast import params as P
from piquet.fast.kernel import resume, run_deal, shuffle_pack
from piquet.fast.policies import rand_below

__all__ = ["OBS_SIZE", "Boards", "new_boards", "reset_rows", "step_rows"]

OBS_SIZE: Final = 36 * 4 + 9
"""Observation: own hand, own discards, cards played, the card led (36 each), then the
role (1 elder), the trick number, tricks won by each, the deal's points of each, the game
score of each, the deal number (scaled to about 0..1)."""

FORMAT_GAME, FORMAT_PARTIE = 0, 1
# per-game integer state columns
# (the legal cards are kept once, in the masks the environment hands out)
G_SCORE0, G_SCORE1, G_DEALER, G_DEAL_NO, G_EXTRA, G_TO_PLAY = range(6)
G_SIZE: Final = 6

Boards = tuple[np.ndarray, ...]
"""The kernel's boards of N games: (tl, ev, tr, res, held, deferred, ps, info), one row
per game (see :func:`new_boards`)."""


def _borrowed(typingctx, arr):  # type: ignore[no-untyped-def]
    """The same array without an owner to count references on (a null meminfo): numba's
    reference counting of array views is an atomic operation, and it was two thirds of a
    step's time.  Only for arrays the caller keeps alive for the whole compiled call (the
    environment's own arrays, passed in from Python); never returned or stored."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        src = context.make_array(arr)(context, builder, value=args[0])
        out = context.make_array(arr)(context, builder)
        out.meminfo = cgutils.get_null_value(out.meminfo.type)  # type: ignore[no-untyped-call]
        out.parent = cgutils.get_null_value(out.parent.type)  # type: ignore[no-untyped-call]
        out.nitems = src.nitems
        out.itemsize = src.itemsize
        out.data = src.data
        out.shape = src.shape
        out.strides = src.strides
        return out._getvalue()

    return arr(arr), codegen


_borrow: Any = intrinsic(_borrowed)


@njit(cache=True, nogil=True, inline="always")
def _borrow_all(p, decks, st, rngs, bd, obs, masks, rewards, done):  # type: ignore[no-untyped-def]
    tl, ev, tr, res, held, deferred, ps, info = bd
    return (_borrow(p), _borrow(decks), _borrow(st), _borrow(rngs),
            (_borrow(tl), _borrow(ev), _borrow(tr), _borrow(res), _borrow(held),
             _borrow(deferred), _borrow(ps), _borrow(info)),
            _borrow(obs), _borrow(masks), _borrow(rewards), _borrow(done))


def new_boards(n: int) -> Boards:
    """Zeroed boards for ``n`` games."""
    z = np.zeros
    return (z((n, K.T_SIZE), np.int64), z((n, K.MAX_EVENTS, 3), np.int64),
            z((n, K.MAX_TRACE, 2), np.int64), z((n, 3, 3), np.int64),
            z((n, K.MAX_HELD, 3), np.int64), z((n, 3, 3), np.int64),
            z((n, K.PS_SIZE), np.int64), z((n, K.I_SIZE), np.int64))


@njit(cache=True, nogil=True)
def _deal_start(st, i):  # type: ignore[no-untyped-def]
    """Scores of (elder, younger) before the deal: the dealer is younger."""
    d = st[i, G_DEALER]
    return (st[i, G_SCORE0] if d == 1 else st[i, G_SCORE1]), (
        st[i, G_SCORE1] if d == 1 else st[i, G_SCORE0])


@njit(cache=True, nogil=True)
def _deal(p, fmt, policy, i, decks, st, rngs, bd):  # type: ignore[no-untyped-def]
    """Deal game ``i``'s pack and run it to its first card (or its end)."""
    tl, ev, tr, res, held, deferred, ps, info = bd
    s_e, s_y = _deal_start(st, i)
    target = p[P.TARGET] if fmt == FORMAT_GAME else 0
    run_deal(p, decks[i], s_e, s_y, target, policy, rngs[i], tr[i], ev[i], K.NO_CHOICES, 0,
             True, info[i], tl[i], res[i], held[i], deferred[i], ps[i])


@njit(cache=True, nogil=True, inline="always")
def _advance(p, fmt, policy, i, decks, st, rngs, bd, obs, masks, rewards, done):  # type: ignore[no-untyped-def]
    """Game ``i`` after its deal went on: stopped at a card, write what the player to play
    sees; else settle the deal (and the game), deal the next and go on."""
    tl = bd[0]
    info = bd[7]
    while True:
        inf = info[i]
        if inf[K.I_STATUS] == K.STOPPED:
            seat = inf[K.I_SEAT]
            player = st[i, G_DEALER] if seat == 1 else 1 - st[i, G_DEALER]
            st[i, G_TO_PLAY] = player
            allowed = inf[K.I_ALLOWED]
            o = obs[i]
            m = masks[i]
            hand = inf[K.I_HAND]
            dis = inf[K.I_DISCARDS]
            pl = inf[K.I_PLAYED]
            for c in range(36):
                o[c] = hand >> c & 1
                o[36 + c] = dis >> c & 1
                o[72 + c] = pl >> c & 1
                o[108 + c] = 0.0
                m[c] = allowed >> c & 1
            if inf[K.I_LEAD] >= 0:
                o[108 + inf[K.I_LEAD]] = 1.0
            o[144] = 1.0 if seat == 0 else 0.0
            o[145] = inf[K.I_TRICK] / 12.0
            o[146] = inf[K.I_WON] / 12.0
            o[147] = (inf[K.I_TRICK] - inf[K.I_WON]) / 12.0
            mine = inf[K.I_SCORE0] if seat == 0 else inf[K.I_SCORE1]
            theirs = inf[K.I_SCORE1] if seat == 0 else inf[K.I_SCORE0]
            o[148] = mine / 100.0
            o[149] = theirs / 100.0
            o[150] = st[i, G_SCORE0 + player] / 100.0
            o[151] = st[i, G_SCORE1 - player] / 100.0
            o[152] = st[i, G_DEAL_NO] / max(p[P.PARTIE_DEALS], 1)
            return
        pts_e = tl[i, K.T0]
        pts_y = tl[i, K.T1]
        reached = tl[i, K.T_REACHED]
        # the deal is over: settle it
        d = st[i, G_DEALER]
        st[i, G_SCORE0] += pts_e if d == 1 else pts_y
        st[i, G_SCORE1] += pts_y if d == 1 else pts_e
        a = st[i, G_SCORE0]
        b = st[i, G_SCORE1]
        winner = -2  # -2: the game goes on; -1: a drawn partie
        if fmt == FORMAT_GAME:
            if reached >= 0:
                winner = (1 - d) if reached == 0 else d
            elif max(a, b) >= p[P.TARGET] and a != b:
                winner = 0 if a > b else 1
        elif st[i, G_DEAL_NO] >= p[P.PARTIE_DEALS] + st[i, G_EXTRA]:
            if a != b:
                winner = 0 if a > b else 1
            elif p[P.PARTIE_TIE_EXTRA] and st[i, G_EXTRA] == 0:
                st[i, G_EXTRA] = 2
            else:
                winner = -1
        if winner > -2:
            if fmt == FORMAT_GAME or winner == -1:
                value = 0 if winner == -1 else 1
            else:
                ws = a if winner == 0 else b
                ls = b if winner == 0 else a
                if p[P.SETTLEMENT_PARLETT]:
                    value = 100 + ws + ls if ls < 100 else 100 + ws - ls
                else:
                    value = ws + ls if ls < 100 and ws >= 100 else ws - ls
            rewards[i] += value if winner == 0 else -value
            done[i] = True
            return
        st[i, G_DEALER] = 1 - d
        st[i, G_DEAL_NO] += 1
        shuffle_pack(p, rngs[i], decks[i])
        _deal(p, fmt, policy, i, decks, st, rngs, bd)


@njit(cache=True, nogil=True)
def _new_game(p, i, decks, st, rngs):  # type: ignore[no-untyped-def]
    st[i, :] = 0
    st[i, G_DEALER] = rand_below(rngs[i], 2)
    st[i, G_DEAL_NO] = 1
    shuffle_pack(p, rngs[i], decks[i])


@njit(cache=True, nogil=True)
def _fresh_game(p, fmt, policy, i, decks, st, rngs, bd, obs, masks, rewards, done):  # type: ignore[no-untyped-def]
    """A new game run to its first card (a game decided before any card is played, by the
    declarations of its first deal alone, gives the agent no choice: another is dealt)."""
    while True:
        _new_game(p, i, decks, st, rngs)
        done[i] = False
        rewards[i] = 0.0
        _deal(p, fmt, policy, i, decks, st, rngs, bd)
        _advance(p, fmt, policy, i, decks, st, rngs, bd, obs, masks, rewards, done)
        if not done[i]:
            return


@njit(cache=True, nogil=True)
def reset_rows(p, fmt, policy, decks, st, rngs, bd, obs, masks, rewards, done, lo, hi):  # type: ignore[no-untyped-def]
    """Start a new game in each of the rows ``lo:hi`` and run it to its first card (compiled,
    without the GIL: threads may run other rows at the same time)."""
    p, decks, st, rngs, bd, obs, masks, rewards, done = _borrow_all(
        p, decks, st, rngs, bd, obs, masks, rewards, done)
    for i in range(lo, hi):
        _fresh_game(p, fmt, policy, i, decks, st, rngs, bd, obs, masks, rewards, done)
        done[i] = False


@njit(cache=True, nogil=True)
def step_rows(p, fmt, policy, decks, st, rngs, bd, obs, masks, rewards, done, actions, lo, hi):  # type: ignore[no-untyped-def]
    """Play ``actions[i]`` (a card, already checked legal) in each game ``i`` of ``lo:hi`` and
    go on from its board to its next card; a finished game's reward is written, then a new
    game is started (its first observation replaces the last).  Compiled, without the GIL:
    threads may run other rows at the same time."""
    p, decks, st, rngs, bd, obs, masks, rewards, done = _borrow_all(
        p, decks, st, rngs, bd, obs, masks, rewards, done)
    actions = _borrow(actions)
    tl, ev, tr, res, held, deferred, ps, info = bd
    for i in range(lo, hi):
        rewards[i] = 0.0
        done[i] = False
        resume(p, policy, rngs[i], tl[i], ev[i], held[i], res[i], deferred[i], ps[i], tr[i],
               info[i], actions[i])
        _advance(p, fmt, policy, i, decks, st, rngs, bd, obs, masks, rewards, done)
        if done[i]:
            reward = rewards[i]
            _fresh_game(p, fmt, policy, i, decks, st, rngs, bd, obs, masks, rewards, done)
            rewards[i] = reward
            done[i] = True
