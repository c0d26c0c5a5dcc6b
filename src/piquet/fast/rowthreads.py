"""The rows of a batch environment cut into slices and stepped on threads at once.

:class:`~piquet.fast.env.VectorEnv` and :class:`~piquet.fast.gameenv.GameEnv` step their
games by compiled functions that release the GIL, a slice of the rows a call; this is the
one place that cuts the rows and runs the slices (:class:`RowThreads`), and what the two
environments share around it (:class:`ThreadedRows`: the slices run, the threads stopped,
the games reset from a base seed, the actions given to ``step`` read and checked).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from piquet.core.errors import IllegalActionError, PiquetError

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


class ThreadedRows:
    """What a batch environment of ``num_envs`` games stepped on threads shares (a base
    class of :class:`~piquet.fast.env.VectorEnv` and :class:`~piquet.fast.gameenv.GameEnv`,
    before the Gymnasium one)."""

    num_envs: int
    _threads: RowThreads
    _started: bool
    _seed: int

    def _restart(self) -> npt.NDArray[np.float32]:
        """Start every game afresh from the base seed ``_seed``; the first observations."""
        raise NotImplementedError

    def _infos(self) -> dict[str, Any]:
        """What ``reset`` and ``step`` return beside the observations."""
        raise NotImplementedError

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start every game afresh (``seed``: a new base seed; otherwise the last one)."""
        del options
        if seed is not None:
            self._seed = seed
        obs = self._restart()
        self._started = True
        return obs, self._infos()

    def _rows(self, fn: Callable[..., object], *args: object) -> None:
        """``fn(*args, lo, hi)`` over every slice of the rows, the slices on threads at once
        (the compiled functions release the GIL)."""
        self._threads.run(fn, *args)

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the stepping threads."""
        del kwargs
        self._threads.close()

    def _given(self, actions: npt.ArrayLike, one: str, words: str, top: int
               ) -> npt.NDArray[np.int64]:
        """``actions`` as one int64 a game, refused before ``reset``, where they are not whole
        numbers (3.9 is not read as 3) or not one a game (``one``, ``words``: what an action
        is, in the singular and the plural, from 0 to ``top``); the caller checks each is
        allowed."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        given = np.asarray(actions).reshape(-1)
        if given.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions are {words}, whole numbers 0 to {top}, not {given.dtype} values")
        acts = given.astype(np.int64)
        if acts.shape[0] != self.num_envs:
            raise IllegalActionError(
                f"give one {one} per game: {self.num_envs} actions, not {acts.shape[0]}")
        return acts
