"""The suite's order across test processes (tests/ordering.py): only the order changes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ordering import chunk_sizes, load_durations, spread


def test_the_chunks_are_the_counts_xdist_hands_out() -> None:
    assert chunk_sizes(10, 4) == [2, 2, 3, 3]
    assert chunk_sizes(2845, 4) == [711, 711, 711, 712]
    assert sum(chunk_sizes(7, 3)) == 7


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.floats(0, 100), min_size=1, max_size=30), min_size=1, max_size=25),
    st.integers(1, 8),
)
def test_every_test_runs_once_and_each_run_is_a_chunk(
    module_costs: list[list[float]], workers: int
) -> None:
    modules = [(f"m{i}", [f"m{i}::t{j}" for j in range(len(c))])
               for i, c in enumerate(module_costs)]
    seconds = {f"m{i}::t{j}": s for i, c in enumerate(module_costs) for j, s in enumerate(c)}
    arranged = spread(modules, seconds, workers)
    items = [t for _, tests in modules for t in tests]
    assert sorted(arranged) == sorted(items)
    if workers == 1 or len(items) < workers:
        assert arranged == items
        return
    # within each process's chunk a module's tests keep their order and stay together
    start = 0
    for size in chunk_sizes(len(items), workers):
        chunk = arranged[start:start + size]
        start += size
        seen: list[str] = []
        for t in chunk:
            m = t.split("::")[0]
            if seen and seen[-1] == m:
                continue
            assert m not in seen, f"{m} split within one run"
            seen.append(m)
        for m in seen:
            mine = [t for t in chunk if t.startswith(m + "::")]
            assert mine == sorted(mine, key=lambda t: int(t.split("::t")[1]))


def test_the_runs_are_balanced_and_begin_with_their_longest() -> None:
    rng = random.Random(3)
    modules = [(f"m{i}", [f"m{i}::t{j}" for j in range(rng.randint(1, 40))]) for i in range(60)]
    seconds = {t: rng.expovariate(1.0) for _, tests in modules for t in tests}
    seconds["m7::t0"] = 120.0  # one very long test
    arranged = spread(modules, seconds, 4)
    sizes = chunk_sizes(len(arranged), 4)
    runs, start = [], 0
    for size in sizes:
        runs.append(arranged[start:start + size])
        start += size
    totals = [sum(seconds[t] for t in run) for run in runs]
    # the long module leads its run; the others hold about as much time
    assert any(run[0].startswith("m7::") for run in runs)
    rest = sorted(totals)[:-1] if max(totals) > 120 else totals
    assert max(rest) - min(rest) < 0.25 * max(rest)


def test_durations_missing_or_damaged_leave_the_files_order(tmp_path: Path) -> None:
    assert load_durations(tmp_path / "none.json") == {}
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert load_durations(bad) == {}
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"a::b": 1.5, "c::d": "x"}), encoding="utf-8")
    assert load_durations(good) == {"a::b": 1.5}
