"""Numba made ready to load cached kernels, at less cost to a short-lived process.

The first call of a compiled function in a process, even one whose machine code is cached
on disk, has numba first import and register its whole library of implementations (its
CPU target's ``refresh``, once a process).  Part of that is numba asking whether SciPy's
BLAS is there: ``numba.np.arraymath`` imports ``scipy.linalg`` (a third of a second of CPU,
more than the rest of the registration) to decide, once and for all, whether numpy's float
inner products in compiled code (``np.correlate``, ``np.convolve``) call BLAS or a loop.
No kernel of this package uses them, and a kernel loaded from the cache is machine code
already: :func:`ready` registers numba's library with ``scipy.linalg`` kept out of the way
for that moment only, so a command that only loads cached kernels (``piquet advise``) does
not pay for SciPy.  Everything else is as numba does it: ``np.dot`` and ``np.linalg``
(which check for BLAS when they are compiled) still find SciPy later in the same process,
and a kernel compiled afresh compiles to the same code (it has no float inner product).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["ready"]

#: the package numba imports to look for BLAS while it registers its library
_BLAS_PACKAGE = "scipy.linalg"


class _NotNow(MetaPathFinder):
    """Makes ``scipy.linalg`` (and its modules) unimportable while installed."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname == _BLAS_PACKAGE or fullname.startswith(_BLAS_PACKAGE + "."):
            raise ModuleNotFoundError(f"{fullname} is not imported while numba registers")
        return None


def ready() -> None:
    """Register numba's implementations now (what the first kernel call would do), without
    importing ``scipy.linalg`` unless this process already has.  Idempotent and cheap once
    done; the kernels then load from their caches as before, unchanged."""
    from numba.core.registry import cpu_target

    hide = _BLAS_PACKAGE not in sys.modules and "numba.np.arraymath" not in sys.modules
    finder = _NotNow()
    if hide:
        sys.meta_path.insert(0, finder)
    try:
        cpu_target.target_context.refresh()
    finally:
        if hide:
            sys.meta_path.remove(finder)
