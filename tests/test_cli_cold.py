"""What a cold ``piquet advise`` loads: its own command only, not the web stack nor SciPy's
linear algebra; and the tables it keeps on disk are the tables it computes.

Import graphs, not timings (``bench/bench_cold.py`` measures the time).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from piquet.analysis.drawtables import split_table
from piquet.analysis.drawtables.tables import _split_table, _stored
from piquet.cli import build_parser, command_names

SRC = str(Path(__file__).resolve().parent.parent / "src")

#: never loaded to advise a discard: the web server and its stack, the terminal table and
#: tournaments, the batch scorer, Rich (the command's progress bar is --verify's), numba
#: (the kernels are the compiled core, piquet._native) and SciPy's linear algebra
NOT_LOADED = (
    "piquet.web",
    "piquet.tui",
    "piquet.tournament",
    "piquet.analysis.batch",
    "piquet.core.notation",
    "piquet.tally",
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "redis",
    "rich",
    "gymnasium",
    "scipy.linalg",
    "numba",
    "llvmlite",
)


def _fresh(code: str, *args: str) -> str:
    """``code`` run in a new interpreter on this checkout's sources; its standard output."""
    env = dict(os.environ, PYTHONPATH=SRC)
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_advise_command_loads_neither_the_web_stack_nor_numba(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "from piquet.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "print(json.dumps({'status': status, 'modules': sorted(sys.modules)}))\n"
    )
    args = (
        "advise", "--rules", "rubicon", "--role", "younger", "--samples", "2",
        "--candidates", "1", "--hand", "KS JS TS 9S AH QD TD 8D 7D AC KC TC", "--json",
    )  # fmt: skip
    out = _fresh(code, *args)
    got = json.loads(out.strip().splitlines()[-1])
    assert got["status"] == 0
    advice = json.loads(out[: out.rindex("\n{")])
    assert advice["ranking"], "the command advised"
    loaded = set(got["modules"])
    assert "piquet.advisor.ranking" in loaded and "piquet._native" in loaded
    wrong = sorted(m for m in loaded if any(m == n or m.startswith(n + ".") for n in NOT_LOADED))
    assert not wrong, f"piquet advise imported {wrong}"
    other_commands = sorted(  # (the commands' shared helpers, piquet.cli.text, are no command)
        m for m in loaded
        if m.startswith("piquet.cli.") and m.endswith("_cmd") and m != "piquet.cli.advise_cmd"
    )
    assert not other_commands, other_commands


def test_a_command_named_first_builds_its_own_parser_only() -> None:
    code = (
        "import sys\n"
        "from piquet.cli import build_parser\n"
        "build_parser('advise')\n"
        "print(sorted(m for m in sys.modules if m.startswith('piquet.cli.') and "
        "m.endswith('_cmd')))\n"
    )
    assert _fresh(code).strip() == "['piquet.cli.advise_cmd']"
    assert "advise" in command_names()
    sub = build_parser("advise").parse_args(["advise", "--role", "elder", "--hand", "AS"])
    whole = build_parser().parse_args(["advise", "--role", "elder", "--hand", "AS"])
    assert vars(sub) == vars(whole)


@pytest.mark.parametrize("values", [(3, 4, 15, 16, 17, 18, 19), (3, 4, 15, 16, 17, 18)])
def test_the_split_table_kept_on_disk_is_the_table_computed(values: tuple[int, ...]) -> None:
    kept = split_table(values)
    split_table.cache_clear()
    again = split_table(values)  # read from the disk where it could be kept
    computed = _split_table(values)
    assert again.dtype == computed.dtype == np.int16
    assert np.array_equal(kept, computed) and np.array_equal(again, computed)


def test_stored_tables_are_computed_once_and_recomputed_when_unreadable(tmp_path: Path) -> None:
    calls: list[int] = []

    def compute() -> np.ndarray:
        calls.append(1)
        return np.arange(10, dtype=np.int16)

    path = tmp_path / "cache" / "drawtables.t.1-2.npy"
    first = _stored(path, compute, np.dtype(np.int16), (10,))
    second = _stored(path, compute, np.dtype(np.int16), (10,))
    assert len(calls) == 1 and np.array_equal(first, second)
    path.write_bytes(b"not a table")
    third = _stored(path, compute, np.dtype(np.int16), (10,))
    assert len(calls) == 2 and np.array_equal(third, first)
    newer = tmp_path / "cache" / "drawtables.t.1-3.npy"
    _stored(newer, compute, np.dtype(np.int16), (10,))
    assert sorted(p.name for p in newer.parent.iterdir()) == [newer.name]
    wrong_shape = _stored(newer, compute, np.dtype(np.int16), (11,))
    assert len(calls) == 4 and wrong_shape.shape == (10,)
    unwritable = tmp_path / "file"
    unwritable.write_text("")
    got = _stored(unwritable / "x.npy", compute, np.dtype(np.int16), (10,))
    assert np.array_equal(got, first)


def test_stored_tables_written_by_many_threads_at_once_are_whole(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    table = np.arange(200_000, dtype=np.int16)
    path = tmp_path / "cache" / "drawtables.t.abc.npy"

    def store(_: int) -> np.ndarray:
        return _stored(path, lambda: table.copy(), np.dtype(np.int16), table.shape)

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(store, range(32)))
    assert all(np.array_equal(g, table) for g in got)
    assert np.array_equal(np.load(path), table)
    assert [p.name for p in path.parent.iterdir()] == [path.name], "no partial file is left"
    assert _stored(None, lambda: table, np.dtype(np.int16), table.shape) is table
