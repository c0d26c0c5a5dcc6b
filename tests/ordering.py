"""The order the test processes take the tests in: the longest first, spread evenly.

``scripts/test`` runs the suite in several processes with xdist's ``worksteal``: the
collection is cut into one run of tests a process, in order (the first quarter to the first
of four processes, and so on), and a process that finishes takes the last half of another's
queue.  Left in file order, a process could find a two-minute test at the end of its run
while the others sat idle.  So :func:`spread` arranges the collection from the tests' last
measured durations (``tests/durations.json``): each process's run holds about the same
time, begins with its longest modules, and a module's tests stay together (its
module-wide fixtures, a browser or a server, are made once).

Only the order changes, never which tests run; without ``durations.json`` or without xdist
the order is the files'.  ``scripts/test-durations`` measures the durations again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

DURATIONS = Path(__file__).with_name("durations.json")

#: what an unmeasured test is taken to last (a test of under half a second is not listed)
DEFAULT_SECONDS = 0.2

T = TypeVar("T")


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    """Test id -> seconds; empty when the file is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): float(v) for k, v in data.items() if isinstance(v, int | float)}


def chunk_sizes(n: int, workers: int) -> list[int]:
    """How many tests worksteal's first hand-out gives each process (as xdist counts)."""
    sizes = []
    left = n
    for i in range(workers):
        size = left // (workers - i)
        sizes.append(size)
        left -= size
    return sizes


def spread(
    modules: Sequence[tuple[str, Sequence[T]]], seconds: dict[T, float], workers: int
) -> list[T]:
    """The tests of ``modules`` (name and tests, in collection order) arranged as
    ``workers`` runs of the counts :func:`chunk_sizes` gives, each about as long as the
    others: modules placed longest first into the run with the least time so far that has
    room (a module too big for any run's room is split across runs), and each run ordered
    longest module first."""
    items = [t for _, tests in modules for t in tests]
    if workers <= 1 or len(items) < workers:
        return items
    sizes = chunk_sizes(len(items), workers)
    room = list(sizes)
    total = [0.0] * workers
    runs: list[list[tuple[float, int, list[T]]]] = [[] for _ in range(workers)]

    def cost(tests: Sequence[T]) -> float:
        return sum(seconds.get(t, DEFAULT_SECONDS) for t in tests)

    order = sorted(range(len(modules)), key=lambda i: (-cost(modules[i][1]), i))
    for i in order:
        tests = list(modules[i][1])
        while tests:
            open_runs = [r for r in range(workers) if room[r] > 0]
            fits = [r for r in open_runs if room[r] >= len(tests)]
            r = min(fits or open_runs, key=lambda r: (total[r], r))
            part, tests = tests[: room[r]], tests[room[r]:]
            room[r] -= len(part)
            total[r] += cost(part)
            runs[r].append((cost(part), i, part))
    arranged: list[T] = []
    for run in runs:
        for _, _, part in sorted(run, key=lambda p: (-p[0], p[1])):
            arranged.extend(part)
    return arranged
