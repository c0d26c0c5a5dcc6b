"""The compiled core against an older build of it, in the same session: kernel and solver.

Run from the repository root (under ``nice`` on a shared machine)::

    .venv/bin/python bench/bench_native.py --before /path/to/old/checkout [--rounds 3]

``--before`` is another checkout of piquet (e.g. ``git clone`` of the commit before the C
extension, whose kernel and solver were compiled by numba: then ``pip install
numba==0.68.1`` into this environment, and its compile is paid once, by a warm-up run not
counted).  Each round runs, in fresh processes, the kernel (random full deals a
CPU-second through :func:`piquet.fast.random_deals`, each preset, the random and the book
policies) and ``bench/bench_solver.py`` for the old tree (``PYTHONPATH`` its ``src``) and
for this one, alternately, so that the machine's load falls on both alike; the best of
the rounds is kept and the ratios printed (this tree / the old).  The checksums (the
points and events of the deals; the solver's values and positions searched) must be equal:
the two builds played the same deals and searched the same trees.
The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

KERNEL = r"""
import json, sys, time
from piquet.core.rules import PRESETS
from piquet.fast import random_deals
seconds = float(sys.argv[1])
out = {}
for name, rules in PRESETS.items():
    row = {}
    for policy in ("random", "book"):
        check = random_deals(rules, 2000, seed=7, policy=policy)
        n = 0
        t = time.process_time()
        while time.process_time() - t < seconds:
            random_deals(rules, 10000, seed=n, policy=policy)
            n += 1
        row[policy] = n * 10000 / (time.process_time() - t)
        row[policy + "_checksum"] = list(check)
    out[name] = row
print(json.dumps(out))
"""


def _run(src: Path, args: list[str]) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          check=True, cwd=ROOT)
    parsed: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return parsed


def measure(src: Path, seconds: float, positions: int) -> dict[str, Any]:
    kernel = _run(src, ["-c", KERNEL, str(seconds)])
    solver = _run(src, [str(ROOT / "bench" / "bench_solver.py"), "--positions",
                        str(positions)])
    return {"kernel": kernel, "solver": solver}


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The best rate of each figure over the rounds (checksums: the first round's)."""
    best = json.loads(json.dumps(runs[0]))
    for r in runs[1:]:
        for part in ("kernel", "solver"):
            for preset, row in r[part].items():
                if not isinstance(row, dict):
                    continue
                for k, v in row.items():
                    if k.endswith("_cpu_s") or k in ("random", "book"):
                        best[part][preset][k] = max(best[part][preset][k], v)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="an older checkout of piquet")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--positions", type=int, default=20)
    args = ap.parse_args(argv)
    old_src = args.before.resolve() / "src"
    new_src = ROOT / "src"
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} on {os.cpu_count()} cores")
    measure(old_src, 0.05, 2)  # the old build's compile (numba) paid here, not counted
    measure(new_src, 0.05, 2)
    old_runs, new_runs = [], []
    for _ in range(args.rounds):
        old_runs.append(measure(old_src, args.seconds, args.positions))
        new_runs.append(measure(new_src, args.seconds, args.positions))
    old, new = _best(old_runs), _best(new_runs)
    same = True
    print(f"\n{'kernel (deals/CPU-s)':22s} {'random':>10s} {'before':>10s} {'ratio':>6s} "
          f"{'book':>10s} {'before':>10s} {'ratio':>6s} {'>=100k':>7s} same")
    for preset, row in new["kernel"].items():
        o = old["kernel"][preset]
        eq = all(row[p + "_checksum"] == o[p + "_checksum"] for p in ("random", "book"))
        same &= eq
        print(f"{preset:22s} {row['random']:10,.0f} {o['random']:10,.0f} "
              f"{row['random'] / o['random']:6.2f} {row['book']:10,.0f} {o['book']:10,.0f} "
              f"{row['book'] / o['book']:6.2f} {'yes' if row['random'] >= 100_000 else 'NO':>7s}"
              f" {'yes' if eq else 'NO'}")
    print(f"\n{'solver':22s} {'solved/s':>10s} {'before':>10s} {'ratio':>6s} "
          f"{'estim./s':>10s} {'before':>10s} {'ratio':>6s} same")
    for preset, row in new["solver"].items():
        if not isinstance(row, dict):
            continue
        o = old["solver"][preset]
        eq = row["checksum"] == o["checksum"]
        same &= eq
        print(f"{preset:22s} {row['positions_per_cpu_s']:10,.1f} "
              f"{o['positions_per_cpu_s']:10,.1f} "
              f"{row['positions_per_cpu_s'] / o['positions_per_cpu_s']:6.2f} "
              f"{row['estimates_per_cpu_s']:10,.0f} {o['estimates_per_cpu_s']:10,.0f} "
              f"{row['estimates_per_cpu_s'] / o['estimates_per_cpu_s']:6.2f} "
              f"{'yes' if eq else 'NO'}")
    after = os.getloadavg()
    print(f"\nload average after: {after[0]:.2f}; same results: {'yes' if same else 'NO'}")
    print(json.dumps({"before": old, "after": new, "same": same, "load": [load, after]}))
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
