"""CPU seconds a level takes per decision over whole matches (issue 41's p95 target).

    python bench/bench_match_decisions.py --rules rubicon --format partie --level expert-match
    python bench/bench_match_decisions.py --rules court-gamester-1754 --format game

Player 0 is ``--level`` at its default budget (or ``--think``), player 1 the expert at
100 ms; each of player 0's decisions is timed by ``time.process_time`` (the CPU of this
process, threads included, so the load of the machine does not count), its first (the
compiled solver's load, the sample of deals of a match-aware table) left out.  Prints the
mean, the 95th percentile and the slowest.
"""

from __future__ import annotations

import argparse
import statistics
import time

from piquet.core.match import new_match
from piquet.core.rules import PRESETS
from piquet.players import make_player


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="rubicon")
    ap.add_argument("--format", default="partie")
    ap.add_argument("--level", default="expert-match")
    ap.add_argument("--think", type=int, default=None)
    ap.add_argument("--matches", type=int, default=1)
    args = ap.parse_args()
    rules = PRESETS[args.rules]
    times: list[float] = []
    for seed in range(args.matches):
        m = new_match(rules, seed=seed, format=args.format)
        players = (make_player(args.level, seed=seed, think_ms=args.think),
                   make_player("expert", seed=seed + 1, think_ms=100))
        first = True
        while not m.finished:
            p = m.to_act
            assert p is not None
            view = m.view(p)
            t = time.process_time()
            action = players[p].choose(view)
            dt = time.process_time() - t
            if p == 0:
                if not first:
                    times.append(dt)
                first = False
            m = m.apply(action, p)
    times.sort()
    print(f"{args.level} {args.rules} {args.format}: {len(times)} decisions, mean "
          f"{statistics.mean(times):.3f} s, 95th percentile "
          f"{times[int(0.95 * (len(times) - 1))]:.3f} s, slowest {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
