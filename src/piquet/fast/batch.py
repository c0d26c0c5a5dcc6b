"""The compiled core of the batch environment: N games stepped together.

Each game is a row of numpy arrays: its pack, its score, dealer and deal number (``st``),
and the kernel's resumable board of the deal in progress (:func:`piquet.fast.kernel.run_deal`
and :func:`~piquet.fast.kernel.resume`: the tally, the score events, the choices so far,
the classes decided, the play counts held back, younger's deferred declarations, the play
state).  The agent plays the cards; every other choice of a deal (the deal, carte blanche,
the exchange, the leftovers, the declarations) is made by a kernel policy.  A step plays
each game's card and goes on from the board to the next card to play (one decision, not
the deal again), settling finished deals and games and starting new ones on the way; it
writes the observation and the legal cards from the board.  Compiled in
``src/piquet/native/batch.h``; the functions release the GIL, so
:class:`~piquet.fast.env.VectorEnv` steps slices of the rows on several threads at once
(one per core).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from piquet.fast import kernel as K

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
if (K._native.LAYOUT["OBS_SIZE"], K._native.LAYOUT["G_SIZE"], K._native.LAYOUT["G_TO_PLAY"]) != (
        OBS_SIZE, G_SIZE, G_TO_PLAY):
    raise ImportError("piquet.fast.batch's layout differs from the compiled one (batch.h)")

Boards = tuple[np.ndarray, ...]
"""The kernel's boards of N games: (tl, ev, tr, res, held, deferred, ps, info), one row
per game (see :func:`new_boards`)."""


def new_boards(n: int) -> Boards:
    """Zeroed boards for ``n`` games."""
    z = np.zeros
    return (z((n, K.T_SIZE), np.int64), z((n, K.MAX_EVENTS, 3), np.int64),
            z((n, K.MAX_TRACE, 2), np.int64), z((n, 3, 3), np.int64),
            z((n, K.MAX_HELD, 3), np.int64), z((n, 3, 3), np.int64),
            z((n, K.PS_SIZE), np.int64), z((n, K.I_SIZE), np.int64))


def reset_rows(p: np.ndarray, fmt: int, policy: int, decks: np.ndarray, st: np.ndarray,
               rngs: np.ndarray, bd: Boards, obs: np.ndarray, masks: np.ndarray,
               rewards: np.ndarray, done: np.ndarray, lo: int, hi: int) -> None:
    """Start a new game in each of the rows ``lo:hi`` and run it to its first card (a game
    decided before any card is played gives the agent no choice: another is dealt).
    Compiled, without the GIL: threads may run other rows at the same time."""
    K._native.reset_rows(p, fmt, policy, decks, st, rngs, *bd, obs, masks, rewards, done, lo, hi)


def step_rows(p: np.ndarray, fmt: int, policy: int, decks: np.ndarray, st: np.ndarray,
              rngs: np.ndarray, bd: Boards, obs: np.ndarray, masks: np.ndarray,
              rewards: np.ndarray, done: np.ndarray, actions: np.ndarray,
              final_obs: np.ndarray, facts: np.ndarray, lo: int, hi: int) -> None:
    """Play ``actions[i]`` (a card, already checked legal) in each game ``i`` of ``lo:hi`` and
    go on from its board to its next card; a finished game's reward is written, its last
    mover's observation at its end goes to ``final_obs[i]`` and its scores of players 0
    and 1, winner (-1: a drawn partie) and deals played to ``facts[i]`` (``(n, 4)``), then
    a new game is started (its first observation replaces the last).  Compiled, without
    the GIL: threads may run other rows at the same time."""
    K._native.step_rows(p, fmt, policy, decks, st, rngs, *bd, obs, masks, rewards, done,
                        actions, final_obs, facts, lo, hi)
