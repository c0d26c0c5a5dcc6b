"""The suite's own sorting: every test named slow in conftest.py exists (a renamed test
would otherwise slip into the quick subset unseen), and the markers are registered."""

from __future__ import annotations

import ast
import functools
import tomllib
from pathlib import Path

from conftest import FIXTURE_MARKERS, MODULE_MARKERS, SLOW_MODULES, SLOW_TESTS

TESTS = Path(__file__).resolve().parent


@functools.cache
def _functions(module: str) -> set[str]:
    tree = ast.parse((TESTS / f"{module}.py").read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_every_slow_module_and_test_exists() -> None:
    for module in SLOW_MODULES:
        assert (TESTS / f"{module}.py").is_file(), module
    for name in SLOW_TESTS:
        module, function = name.split("::")
        assert function in _functions(module), name


def test_every_marker_set_is_registered() -> None:
    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    registered = {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}
    used = {*FIXTURE_MARKERS.values(), *MODULE_MARKERS.values(), "slow", "statistical",
            "compile"}
    assert used <= registered
