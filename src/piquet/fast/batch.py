"""The compiled core of the batch environment: N games stepped together.

Each game is a row of numpy arrays (its pack, the choices of the current deal, the game
score, the dealer, the deal number).  The agent plays the cards; every other choice of a
deal (the deal, carte blanche, the exchange, the leftovers, the declarations) is made by a
kernel policy.  A step plays each game's card, then replays its deal through the kernel
(:func:`piquet.fast.kernel.play_deal`, the forced choices first) up to the next card to
play, settling finished deals and games and starting new ones on the way.  Games are
stepped in parallel (numba ``prange``) over the machine's cores.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit, prange

from piquet.fast import kernel as K
from piquet.fast import params as P
from piquet.fast.kernel import play_deal, shuffle_pack
from piquet.fast.policies import rand_below

__all__ = ["OBS_SIZE", "reset_all", "step_all"]

OBS_SIZE: Final = 36 * 4 + 9
"""Observation: own hand, own discards, cards played, the card led (36 each), then the
role (1 elder), the trick number, tricks won by each, the deal's points of each, the game
score of each, the deal number (scaled to about 0..1)."""

FORMAT_GAME, FORMAT_PARTIE = 0, 1
# per-game integer state columns
G_SCORE0, G_SCORE1, G_DEALER, G_DEAL_NO, G_EXTRA, G_NFZ, G_TO_PLAY, G_ALLOWED = range(8)
G_SIZE: Final = 8


@njit(cache=True, nogil=True)
def _deal_start(st, i):  # type: ignore[no-untyped-def]
    """Scores of (elder, younger) before the deal: the dealer is younger."""
    d = st[i, G_DEALER]
    return (st[i, G_SCORE0] if d == 1 else st[i, G_SCORE1]), (
        st[i, G_SCORE1] if d == 1 else st[i, G_SCORE0])


@njit(cache=True, nogil=True)
def _advance(p, fmt, policy, i, decks, st, fz, rngs, obs, rewards, done):  # type: ignore[no-untyped-def]
    """Run game ``i`` to the next card the agent plays; settle deals and the game."""
    tr = np.zeros((K.MAX_TRACE, 2), dtype=np.int64)
    ev = np.zeros((K.MAX_EVENTS, 3), dtype=np.int64)
    info = np.zeros(K.I_SIZE, dtype=np.int64)
    target = p[P.TARGET] if fmt == FORMAT_GAME else 0
    while True:
        s_e, s_y = _deal_start(st, i)
        ntr, _, pts_e, pts_y, reached = play_deal(
            p, decks[i], s_e, s_y, target, policy, rngs[i], tr, ev, fz[i], st[i, G_NFZ], True,
            info)
        if info[K.I_STATUS] == K.STOPPED:
            for r in range(ntr):
                fz[i, r, 0] = tr[r, 0]
                fz[i, r, 1] = tr[r, 1]
            st[i, G_NFZ] = ntr
            seat = info[K.I_SEAT]
            player = st[i, G_DEALER] if seat == 1 else 1 - st[i, G_DEALER]
            st[i, G_TO_PLAY] = player
            st[i, G_ALLOWED] = info[K.I_ALLOWED]
            o = obs[i]
            o[:] = 0.0
            for c in range(36):
                if info[K.I_HAND] >> c & 1:
                    o[c] = 1.0
                if info[K.I_DISCARDS] >> c & 1:
                    o[36 + c] = 1.0
                if info[K.I_PLAYED] >> c & 1:
                    o[72 + c] = 1.0
            if info[K.I_LEAD] >= 0:
                o[108 + info[K.I_LEAD]] = 1.0
            o[144] = 1.0 if seat == 0 else 0.0
            o[145] = info[K.I_TRICK] / 12.0
            o[146] = info[K.I_WON] / 12.0
            o[147] = (info[K.I_TRICK] - info[K.I_WON]) / 12.0
            mine = info[K.I_SCORE0] if seat == 0 else info[K.I_SCORE1]
            theirs = info[K.I_SCORE1] if seat == 0 else info[K.I_SCORE0]
            o[148] = mine / 100.0
            o[149] = theirs / 100.0
            o[150] = st[i, G_SCORE0 + player] / 100.0
            o[151] = st[i, G_SCORE1 - player] / 100.0
            o[152] = st[i, G_DEAL_NO] / max(p[P.PARTIE_DEALS], 1)
            return
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
        st[i, G_NFZ] = 0
        shuffle_pack(p, rngs[i], decks[i])


@njit(cache=True, nogil=True)
def _new_game(p, i, decks, st, rngs):  # type: ignore[no-untyped-def]
    st[i, :] = 0
    st[i, G_DEALER] = rand_below(rngs[i], 2)
    st[i, G_DEAL_NO] = 1
    shuffle_pack(p, rngs[i], decks[i])


@njit(cache=True, nogil=True)
def _fresh_game(p, fmt, policy, i, decks, st, fz, rngs, obs, rewards, done):  # type: ignore[no-untyped-def]
    """A new game run to its first card (a game decided before any card is played, by the
    declarations of its first deal alone, gives the agent no choice: another is dealt)."""
    while True:
        _new_game(p, i, decks, st, rngs)
        done[i] = False
        rewards[i] = 0.0
        _advance(p, fmt, policy, i, decks, st, fz, rngs, obs, rewards, done)
        if not done[i]:
            return


@njit(cache=True, parallel=True)
def reset_all(p, fmt, policy, decks, st, fz, rngs, obs, rewards, done):  # type: ignore[no-untyped-def]
    """Start a new game in every row, and run each to its first card."""
    for i in prange(decks.shape[0]):
        _fresh_game(p, fmt, policy, i, decks, st, fz, rngs, obs, rewards, done)
        done[i] = False


@njit(cache=True, parallel=True)
def step_all(p, fmt, policy, decks, st, fz, rngs, obs, rewards, done, actions):  # type: ignore[no-untyped-def]
    """Play ``actions[i]`` (a card, already checked legal) in every game and run each to
    its next card; a finished game's reward is written, then a new game is started (its
    first observation replaces the last)."""
    for i in prange(decks.shape[0]):
        rewards[i] = 0.0
        done[i] = False
        n = st[i, G_NFZ]
        fz[i, n, 0] = K.A_PLAY
        fz[i, n, 1] = actions[i]
        st[i, G_NFZ] = n + 1
        _advance(p, fmt, policy, i, decks, st, fz, rngs, obs, rewards, done)
        if done[i]:
            reward = rewards[i]
            _fresh_game(p, fmt, policy, i, decks, st, fz, rngs, obs, rewards, done)
            rewards[i] = reward
            done[i] = True
