"""No module of ``src/piquet`` over about 700 lines and no function over about 120 (issue
34): a reader takes in a module at a sitting and a function at a glance.  What is longer says
why below; a new long module or function fails here until it is split along a real seam (a
package whose ``__init__`` re-exports the old names keeps every import path working)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "piquet"
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 120

#: modules allowed to be longer, and why
LONG_MODULES: dict[str, str] = {
    # data, not logic: one entry a knob and a preset, or a term
    "core/sources.py": "data: a cited passage for every knob of every preset",
    "learn/glossary.py": "data: the glossary's entries",
}
#: functions allowed to be longer (module:function), and why
LONG_FUNCTIONS: dict[str, str] = {
    # the compiled kernels (src/piquet/native), which say why beside the function too
    "native/kernel.h:run_deal": "the compiled deal, its phases in the engine's order over "
    "the hands and claims it holds, so that it reads beside core/transitions.py and the "
    "differential tests compare the two step by step",
    "native/game.h:w_obs": "the observation tensor written field by field in its layout's "
    "order (the adapters' information state), top to bottom",
}

_C_NAME = re.compile(r"(\w+)\s*\(")


def _c_functions(text: str) -> dict[str, int]:
    """The functions of a C file and their lengths in lines: each begins on an unindented
    line naming it before its ``(`` and ends at the next ``}`` in the first column."""
    out: dict[str, int] = {}
    start, name = 0, ""
    for i, line in enumerate(text.splitlines(), 1):
        if not start:
            if (line and not line[0].isspace() and "(" in line
                    and not line.startswith(("#", "/*", " *", "}"))
                    and not line.rstrip().endswith(";")
                    and (m := _C_NAME.search(line))):
                start, name = i, m.group(1)
        elif line.startswith("}"):
            out[name] = i - start + 1
            start = 0
    return out


@functools.cache
def _sizes() -> tuple[dict[str, int], dict[str, int]]:
    """Every module's lines and every function's (read once: the four tests share it)."""
    modules: dict[str, int] = {}
    functions: dict[str, int] = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        modules[rel] = text.count("\n")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                functions[f"{rel}:{node.name}"] = node.end_lineno - node.lineno + 1
    for path in sorted((ROOT / "native").glob("*.[ch]")):
        rel = path.relative_to(ROOT).as_posix()
        for name, n in _c_functions(path.read_text(encoding="utf-8")).items():
            functions[f"{rel}:{name}"] = n
    return modules, functions


def test_no_module_is_longer_than_it_may_be() -> None:
    modules, _ = _sizes()
    long = {m: n for m, n in modules.items() if n > MAX_MODULE_LINES and m not in LONG_MODULES}
    assert not long, (
        f"modules over {MAX_MODULE_LINES} lines (split along a real seam, or say why in "
        f"LONG_MODULES): {long}")


def test_no_function_is_longer_than_it_may_be() -> None:
    _, functions = _sizes()
    long = {f: n for f, n in functions.items()
            if n > MAX_FUNCTION_LINES and f not in LONG_FUNCTIONS}
    assert not long, (
        f"functions over {MAX_FUNCTION_LINES} lines (split, or say why in LONG_FUNCTIONS): "
        f"{long}")


def test_the_compiled_kernels_functions_are_measured_too() -> None:
    """The C functions of ``src/piquet/native`` are read (every file has some), and a long
    one found where it stands."""
    _, functions = _sizes()
    for path in (ROOT / "native").glob("*.[ch]"):
        assert any(f.startswith(f"native/{path.name}:") for f in functions), path.name
    assert functions["native/kernel.h:run_deal"] > MAX_FUNCTION_LINES


def test_the_allow_lists_name_only_what_is_long() -> None:
    """An entry goes once its module or function is short (or gone)."""
    modules, functions = _sizes()
    stale = [m for m in LONG_MODULES if modules.get(m, 0) <= MAX_MODULE_LINES]
    stale += [f for f in LONG_FUNCTIONS if functions.get(f, 0) <= MAX_FUNCTION_LINES]
    assert not stale, f"no longer long: take these off the allow-lists: {stale}"
