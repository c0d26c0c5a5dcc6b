"""The public engine's speed against another version of the code, in one run.

Run from the repository root, with an older tree checked out beside it::

    git worktree add --detach /tmp/base 7d3ca56
    .venv/bin/python bench/bench_engine_ab.py --base /tmp/base/src [--rounds 8]

Each round runs one process on the other tree's ``src`` and one on this tree's, one after
the other (so both see the same machine), each measuring for every preset

- random full deals per CPU-second through ``Deal`` (``Deal.new`` on a shuffled pack, then
  ``random_action`` + ``apply`` until the deal is over: ``bench_engine.py``'s loop), and
- hand pairs scored per CPU-second by ``piquet.analysis.batch.score_batch`` (best of three).

It prints, per preset, the medians of each side and the median of the paired ratios
(this tree over the other, round by round) with their range, then one JSON line.  CPU
seconds and paired rounds make the ratio hold on a shared machine; the load averages are
printed with it.  The older tree may have the flat layout of before ``piquet.core``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PRESETS = ("rubicon", "du-coeur-1995", "encyclopedia-19c", "cotgrave-1662", "cotton-1674",
           "court-gamester-1754")

# the measuring child: runs on whichever tree PYTHONPATH names
CHILD = r'''
import json, random, sys, time
import numpy as np
try:
    from piquet.core.deal import Deal
    from piquet.core.rules import PRESETS
except ImportError:  # the layout before piquet.core
    from piquet.deal import Deal
    from piquet.rules import PRESETS
from piquet.analysis.batch import score_batch, split_worth

def pack_of(rules):
    return [i for i in range(36) if rules.deck_size == 36 or i % 9]

def deals(name, n, seed):
    rules = PRESETS[name]
    rng = random.Random(seed)
    pack = pack_of(rules)
    t = time.process_time()
    for _ in range(n):
        rng.shuffle(pack)
        deal = Deal.new(rules, pack)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
    return n / (time.process_time() - t)

def batch(name, n, seed):
    rules = PRESETS[name]
    rng = np.random.default_rng(seed)
    cards = np.array(pack_of(rules), dtype=np.uint64)
    order = rng.permuted(np.tile(np.arange(cards.size), (n, 1)), axis=1)[:, :24]
    bits = np.uint64(1) << cards[order]
    e = np.bitwise_or.reduce(bits[:, :12], axis=1)
    y = np.bitwise_or.reduce(bits[:, 12:], axis=1)
    eb = rng.random(n) < 0.05
    yb = rng.random(n) < 0.05
    if not rules.sequences_same_suit:
        split_worth(np.zeros(1, dtype=np.int64), rules.sequence_values)
    score_batch(e[:1000], y[:1000], rules, elder_blanche=eb[:1000], younger_blanche=yb[:1000])
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        score_batch(e, y, rules, elder_blanche=eb, younger_blanche=yb)
        best = min(best, time.process_time() - t)
    return n / best

n, pairs = int(sys.argv[1]), int(sys.argv[2])
out = {}
for name in sys.argv[3:]:
    deals(name, 200, 1)  # warm the caches and tables
    out[name] = [deals(name, n, 7), batch(name, pairs, 3)]
print(json.dumps(out))
'''


def _measure(src: Path, deals: int, pairs: int, presets: list[str]) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(deals), str(pairs), *presets],
        env=env, check=True, capture_output=True, text=True,
    )
    found: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _load() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other tree's src directory")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--deals", type=int, default=2000, help="deals per preset and process")
    ap.add_argument("--pairs", type=int, default=100_000, help="hand pairs for the batch scorer")
    ap.add_argument("--presets", nargs="+", default=list(PRESETS))
    args = ap.parse_args(argv)
    this = HERE.parent / "src"
    base_runs: list[dict[str, list[float]]] = []
    this_runs: list[dict[str, list[float]]] = []
    loads = [_load()]
    for r in range(args.rounds):
        base_runs.append(_measure(args.base, args.deals, args.pairs, args.presets))
        this_runs.append(_measure(this, args.deals, args.pairs, args.presets))
        loads.append(_load())
        print(f"round {r + 1}/{args.rounds} done (load {loads[-1]:.2f})", file=sys.stderr)
    print(f"{args.rounds} rounds, {args.deals} deals and {args.pairs:,} pairs a preset; "
          f"load average {min(loads):.2f} to {max(loads):.2f}")
    print("| preset | deals/CPU-s, other | this | this/other (range) "
          "| batch pairs/CPU-s, other | this | this/other (range) |")
    print("|---|---|---|---|---|---|---|")
    summary: dict[str, Any] = {"rounds": args.rounds, "load": [min(loads), max(loads)]}
    for p in args.presets:
        row: list[str] = [p]
        for k in (0, 1):
            b = [run[p][k] for run in base_runs]
            t = [run[p][k] for run in this_runs]
            ratios = [x / y for x, y in zip(t, b, strict=True)]
            med = statistics.median(ratios)
            row += [f"{statistics.median(b):,.0f}", f"{statistics.median(t):,.0f}",
                    f"{med:.3f} ({min(ratios):.2f}-{max(ratios):.2f})"]
            summary.setdefault(p, []).append(round(med, 4))
        print("| " + " | ".join(row) + " |")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
