"""piquet's compiled core: its C sources (this folder) and how the built module is found.

The sources (``rules.h``: the leaf rules and the parameter vector's slots; ``policies.h``,
``kernel.h``: the deal kernel; ``solver.h``: the double-dummy solver; ``batch.h``: the
batch environment; ``module.c``: the Python functions) are compiled ahead of time into the
extension module ``piquet._native`` by the package's build (``setup.py``, run by ``pip
install``), which keeps the built module in ``~/.cache/piquet/native/<digest>/`` and reuses
it when the sources, the compiler flags and the Python ABI are the same.

:func:`load` imports it and refuses a module built from other sources than the ones here
(edited C, not rebuilt), saying how to rebuild.  This module imports only the standard
library: ``setup.py`` reads :func:`sources_digest` from it before piquet is installed.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path
from types import ModuleType

__all__ = ["REBUILD", "load", "sources_digest"]

#: what to run after changing the C sources
REBUILD = "scripts/setup-venv (or: pip install -e .)"


def sources_digest(folder: Path | None = None) -> str | None:
    """The digest of the C sources (``*.c``, ``*.h``) in ``folder``; None if there are none
    (an installed wheel carries the built module, not its sources)."""
    folder = Path(__file__).parent if folder is None else folder
    files = sorted(p for p in folder.iterdir() if p.suffix in (".c", ".h"))
    if not files:
        return None
    h = hashlib.sha256()
    for p in files:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:24]


def load() -> ModuleType:
    """``piquet._native``, checked to be built from the sources beside this module."""
    try:
        module = importlib.import_module("piquet._native")
    except ImportError as exc:
        raise ImportError(
            f"piquet's compiled core (piquet._native) is not built: run {REBUILD}") from exc
    here = sources_digest()
    if here is not None and module.SOURCE_DIGEST != here:
        raise ImportError(
            "piquet's compiled core (piquet._native) was built from other C sources than "
            f"those in {Path(__file__).parent}: run {REBUILD} to rebuild it")
    return module
