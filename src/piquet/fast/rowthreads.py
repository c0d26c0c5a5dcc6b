"""The rows of a batch environment cut into slices and stepped on threads at once.

:class:`~piquet.fast.env.VectorEnv` and :class:`~piquet.fast.gameenv.GameEnv` step their
games by compiled functions that release the GIL, a slice of the rows a call; this is the
one place that cuts the rows and runs the slices.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final

import numpy as np

from piquet.core.errors import PiquetError

MIN_ROWS: Final = 256
"""Fewer games than this a thread are not worth a thread."""


class RowThreads:
    """``n`` rows in ``threads`` slices (by default one a core, each of at least
    :data:`MIN_ROWS` rows); the first slice runs on the calling thread."""

    def __init__(self, n: int, threads: int | None, name: str) -> None:
        if threads is None:
            threads = min(os.cpu_count() or 1, max(1, n // MIN_ROWS))
        if not isinstance(threads, int) or threads < 1:
            raise PiquetError(f"threads must be a whole number of at least 1, not {threads!r}")
        self.n = n
        cuts = np.linspace(0, n, min(threads, n) + 1).astype(int)
        self.slices = [(int(a), int(b)) for a, b in itertools.pairwise(cuts)]
        self._pool = (ThreadPoolExecutor(len(self.slices) - 1, thread_name_prefix=name)
                      if len(self.slices) > 1 else None)

    def run(self, fn: Callable[..., object], *args: object) -> None:
        """``fn(*args, lo, hi)`` over every slice of the rows, the slices on threads at once."""
        rest = [] if self._pool is None else [
            self._pool.submit(fn, *args, lo, hi) for lo, hi in self.slices[1:]]
        try:
            fn(*args, *self.slices[0])
        finally:
            # the arrays are lent to the threads uncounted: every slice ends before we return
            for future in rest:
                future.result()

    def close(self) -> None:
        """Stop the threads; later runs step every row on the calling thread."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
            self.slices = [(0, self.n)]
