"""A script of the repository (``bench/``, ``scripts/``), not a package module, loaded as a
module for its tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str, name: str) -> ModuleType:
    """The script at ``relative`` (from the repository's root) loaded as module ``name``,
    registered in ``sys.modules`` first (its dataclasses and pickling look it up there)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
