"""The policies of the compiled kernel: how each choice of a deal is made.

``policy`` is a small integer: :data:`RANDOM` (each legal choice equally likely; for a
discard, each size equally likely, then each set of that size) or :data:`BOOK` (the rules
of thumb of :mod:`piquet.players.book` on the kernel's masks: the discard by card values,
truthful declarations, Rule XII's sunk trio, the play's masters, guards and throws, with
the game situation taken as level).  Both are compiled in ``src/piquet/native/policies.h``;
``tests/test_fast_book.py`` measures how often the book's choices agree with the book
player's.  Every draw comes from ``rng``, a one-element ``uint64`` array holding a
xorshift64* state, so a deal is a function of its pack, its policy and its seed.
"""

from __future__ import annotations

from typing import Final

import numpy as np

__all__ = ["BOOK", "RANDOM", "new_rng"]

RANDOM: Final = 0
BOOK: Final = 1


def new_rng(seed: int) -> np.ndarray:
    """A generator state for the kernel from any integer seed (never zero)."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & ((1 << 64) - 1)
    x ^= x >> 31
    return np.array([x or 0x2545F4914F6CDD1D], dtype=np.uint64)
