"""Numba's cached kernels loaded at less cost to a short-lived process.

The first call of a compiled function in a process, even one whose machine code is cached
on disk, has numba import and register its whole library of implementations first (its
CPU target's ``refresh``, a quarter to half a second of CPU once a process, a third of a
second of it SciPy's ``scipy.linalg``, imported by ``numba.np.arraymath`` to look for
BLAS).  Loading machine code needs none of it: only numba's runtime (``rtsys``: the
allocator and reference counting the kernels call).  :func:`cached_kernels` loads cached
kernels so, for as long as it is open; a kernel that is not in the cache (its source
changed, a new type signature) is compiled as ever, numba registering its library then.
The kernels are the same machine code either way: what they compute is unchanged.

Used by ``piquet advise``, whose fixed cost this is the largest part of; where numba's
caching is not the one this was written against (``Cache._load_overload``), it does
nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["cached_kernels"]

#: held while numba's loader is replaced: one replacement at a time (a nested use in the
#: same thread replaces it again and puts back what it found)
_LOCK = threading.RLock()


@contextmanager
def cached_kernels() -> Iterator[None]:
    """Within: numba loads a cached kernel with its runtime initialised only, not its
    library of implementations registered (which only compiling uses).

    Meant for a short-lived command (``piquet advise``); other threads that load a kernel
    meanwhile load it the same way, and a second thread entering waits for the first.
    """
    # the one symbol table numba's library adds (the hash secret a kernel hashing strings
    # would link against; 0.03 s)
    import numba.cpython.hashing  # noqa: F401
    from numba.core import caching
    from numba.core.runtime.nrt import rtsys

    with _LOCK:
        yield from _replaced(caching, rtsys)


def _replaced(caching: Any, rtsys: Any) -> Iterator[None]:
    """Numba's loader replaced for as long as the generator is suspended at its yield."""
    cache = caching.Cache
    original = cache.load_overload
    if not (
        hasattr(cache, "_load_overload") and hasattr(cache, "_guard_against_spurious_io_errors")
    ):  # not the numba this was written against: load as numba does
        yield
        return

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        rtsys.initialize(target_context)  # what the loaded machine code links against
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    setattr(cache, "load_overload", load_overload)  # noqa: B010 (a method replaced)
    try:
        yield
    finally:
        setattr(cache, "load_overload", original)  # noqa: B010
