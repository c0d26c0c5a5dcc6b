"""The cold ``piquet advise`` command: CPU seconds of a fresh process, its kernels built.

(From a fresh clone to the table and the first expert decision: ``bench/bench_clone.py``.)

Run (niced, one process at a time)::

    nice -n 10 .venv/bin/python bench/bench_cold.py                 # this checkout, 3 rounds
    nice -n 10 .venv/bin/python bench/bench_cold.py --src /tmp/base/src --src src --check

Each run is the command a user types, ``piquet advise --rules R --role ROLE --hand H --json``
(no ``--verify``), in a new interpreter whose ``PYTHONPATH`` is one ``--src`` tree.  Its cost
is the child's user + system CPU seconds (``os.wait4``), not the wall clock: the machine may
be busy with other work.  Every tree is run once a rule set first, not counted (so its
tables, and an older tree's numba caches, are on disk, as a user's are after the first
run), then
``--rounds`` times, the trees interleaved hand by hand so they are measured in the same
conditions.  The table gives each
hand's median per tree; ``--check`` also compares the JSON printed by every tree (less its
``seconds``) and exits 1 if any differs.

``--phases`` instead prints, for the first ``--src`` tree and each hand, the CPU seconds of
the cold command's parts in one fresh process, as the tree's command does them: importing
numpy, numba (an older tree's; 0 where the tree has the C extension instead), the command
line and the advisor, building the parser, numba's registration of its library (the first
cached kernel call's fixed cost, where an older tree's command still pays it), and the
advice.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

#: (preset, role, hand, score or None): two hands a preset, elder and younger (drawn once
#: from a seeded pack), the hand of issue 15, and two with a score
HANDS: Final[tuple[tuple[str, str, str, str | None], ...]] = (
    ("cotgrave-1662", "elder", "QS JS 9S 7S AH KH AD QD AC KC QC JC", None),
    ("cotgrave-1662", "younger", "QS 8S 6S QH JH 8H TD 7D 6D KC 8C 7C", None),
    ("cotton-1674", "elder", "AS KS 8S 6S AH QH TH 8H 7H TD 7D TC", None),
    ("cotton-1674", "younger", "TS 8S 6S KH QH 9H KD JD 8D 7D QC 6C", None),
    ("du-coeur-1995", "elder", "AS TS 9S TH 8H 7H JD TD 7D 6D AC KC", None),
    ("du-coeur-1995", "younger", "QS 9S 6S JH 8H AD QD TD 9D 8D 6D 7C", None),
    ("court-gamester-1754", "elder", "JS 7S AH KH QH TH 9H 7H QD 9D 7D JC", None),
    ("court-gamester-1754", "younger", "9S 8S AH QH AD QD JD 9D 8D KC 8C 7C", None),
    ("encyclopedia-19c", "elder", "AS TS 8S KH TH 8H AD KD JD 8D 8C 7C", None),
    ("encyclopedia-19c", "younger", "AS JS AH TH 9H KD TD 8D 7D AC KC 8C", None),
    ("rubicon", "elder", "QS TS 7S QH TH 8H AD TD 8D AC QC 8C", None),
    ("rubicon", "younger", "KS JS TS 9S AH QD TD 8D 7D AC KC TC", None),
    ("rubicon", "elder", "AS KS QS JS 10S AH KH 9D 8D 7C 8C 9C", None),
    ("court-gamester-1754", "elder", "JS 7S AH KH QH TH 9H 7H QD 9D 7D JC", "80,95"),
    ("rubicon", "younger", "KS JS TS 9S AH QD TD 8D 7D AC KC TC", "30,60"),
)

#: the ``piquet`` console script's own code
MAIN: Final = "import sys; from piquet.cli import main; sys.exit(main())"

#: the cold command in parts (run with the hand's arguments; prints one JSON line)
PHASES: Final = r"""
import json, resource, sys
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
out = {"start": cpu()}
t = out["start"]
def mark(name):
    global t
    now = cpu(); out[name] = now - t; t = now
import numpy; mark("numpy")
try:  # an older tree, compiled by numba
    import numba
except ImportError:  # the C extension (piquet._native), loaded with the advisor
    pass
mark("numba")
import piquet.cli as C; mark("cli")
try:
    parser = C.build_parser("advise")  # what the command builds now
except TypeError:
    parser = C.build_parser()  # before it could build one command's parser
mark("parser")
import piquet.advisor as A; mark("advisor")
import contextlib
try:  # the tree's command loads its cached kernels without numba's library
    from piquet.fast.loading import cached_kernels
except ImportError:  # numba registers it at the first kernel call: here, to be counted
    if "numba" in sys.modules:
        from numba.core.registry import cpu_target
        cpu_target.target_context.refresh()
    cached_kernels = contextlib.nullcontext
mark("numba init")
from piquet.core.cards import CardSet
from piquet.core.rules import get_rules
preset, role, hand, score = sys.argv[1:5]
sc = None if score == "-" else tuple(int(x) for x in score.split(","))
with cached_kernels():
    A.advise(CardSet.parse(hand), get_rules(preset), role=("elder", "younger").index(role),
             score=sc, seed=0)
mark("advise")
out["total"] = cpu()
print(json.dumps({k: round(v, 3) for k, v in out.items()}))
"""


def command(preset: str, role: str, hand: str, score: str | None) -> list[str]:
    args = ["advise", "--rules", preset, "--role", role, "--hand", hand, "--json"]
    return args + (["--score", score] if score else [])


def measured(src: str, args: list[str]) -> tuple[float, str]:
    """One fresh ``piquet`` process: its user + system CPU seconds (its own rusage, reaped
    here) and what it printed."""
    env = dict(os.environ, PYTHONPATH=src)
    r_fd, w_fd = os.pipe()
    e_fd = os.open(os.devnull, os.O_WRONLY)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.dup2(w_fd, 1)
        os.dup2(e_fd, 2)
        os.close(r_fd)
        os.execve(sys.executable, [sys.executable, "-c", MAIN, *args], env)
    os.close(w_fd)
    os.close(e_fd)
    chunks = []
    with os.fdopen(r_fd, "rb") as f:
        while block := f.read(65536):
            chunks.append(block)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"piquet {' '.join(args)} failed under {src}")
    return usage.ru_utime + usage.ru_stime, b"".join(chunks).decode()


def answer(text: str) -> Any:
    """The advice printed, less how long it took."""
    out = json.loads(text)
    out.pop("seconds", None)
    return out


def phases(src: str, hands: list[tuple[str, str, str, str | None]]) -> None:
    env = dict(os.environ, PYTHONPATH=src)
    cols = ("start", "numpy", "numba", "cli", "parser", "advisor", "numba init", "advise", "total")
    print(f"{'hand':<40}" + "".join(f"{c:>11}" for c in cols))
    for preset, role, hand, score in hands:
        done = subprocess.run(
            [sys.executable, "-c", PHASES, preset, role, hand, score or "-"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        got = json.loads(done.stdout.strip().splitlines()[-1])
        label = f"{preset} {role}" + (f" {score}" if score else "")
        print(f"{label:<40}" + "".join(f"{got[c]:>11.2f}" for c in cols), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--src", action="append", help="a source tree (default: this checkout's src)")
    ap.add_argument(
        "--rounds", type=int, default=3, help="counted runs a hand and tree (default 3)"
    )
    ap.add_argument("--hands", type=int, help="only the first N hands")
    ap.add_argument("--check", action="store_true", help="the trees' advice must be identical")
    ap.add_argument("--phases", action="store_true", help="the cold command's parts, first tree")
    ap.add_argument("--out", help="write every measurement here (JSON)")
    a = ap.parse_args()
    srcs = a.src or [str(Path(__file__).resolve().parent.parent / "src")]
    hands = list(HANDS[: a.hands] if a.hands else HANDS)
    if a.phases:
        phases(srcs[0], hands)
        return 0
    cpu: dict[tuple[int, int], list[float]] = {}
    answers: dict[tuple[int, int], Any] = {}
    for src in srcs:  # the caches on disk, as after a user's first run under each rule set
        for preset in dict.fromkeys(h[0] for h in hands):
            warm = next(h for h in hands if h[0] == preset)
            measured(src, [*command(*warm), "--samples", "2", "--candidates", "1"])
    for _ in range(a.rounds):
        for h, hand in enumerate(hands):
            for s, src in enumerate(srcs):
                seconds, text = measured(src, command(*hand))
                cpu.setdefault((h, s), []).append(seconds)
                answers.setdefault((h, s), answer(text))
    width = max(12, *(len(Path(s).resolve().parent.name) + 2 for s in srcs))
    print(
        f"{'hand (CPU s, median)':<44}"
        + "".join(f"{Path(s).resolve().parent.name:>{width}}" for s in srcs)
    )
    differ = []

    def mean_median(s: int) -> float:
        return statistics.mean(statistics.median(cpu[h, s]) for h in range(len(hands)))

    for h, (preset, role, _, score) in enumerate(hands):
        label = f"{preset} {role}" + (f" {score}" if score else "")
        print(
            f"{label:<44}"
            + "".join(f"{statistics.median(cpu[h, s]):>{width}.2f}" for s in range(len(srcs)))
        )
        if any(answers[h, s] != answers[h, 0] for s in range(len(srcs))):
            differ.append(label)
    print(
        f"{'all hands (mean of medians)':<44}"
        + "".join(f"{mean_median(s):>{width}.2f}" for s in range(len(srcs)))
    )
    if a.out:
        Path(a.out).write_text(
            json.dumps(
                {
                    "srcs": srcs,
                    "hands": hands,
                    "cpu": {f"{h},{s}": v for (h, s), v in cpu.items()},
                },
                indent=1,
            )
        )
    if a.check:
        if differ:
            print("advice differs:", ", ".join(differ))
            return 1
        print(f"advice identical across the trees on all {len(hands)} hands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
