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

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["cached_kernels"]


@contextmanager
def cached_kernels() -> Iterator[None]:
    """Within: numba loads a cached kernel with its runtime initialised only, not its
    library of implementations registered (which only compiling uses)."""
    from numba.core import caching
    from numba.core.runtime.nrt import rtsys

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
