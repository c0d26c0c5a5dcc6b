"""Speed of the AI: the solver's positions per second, and the expert's time per decision.

Usage: .venv/bin/python bench/bench_players.py [--think MS] [--deals N] [--threads T]
       [--presets P ...] [--level expert|reference] [--cpu]

Prints, for each preset, the solver's speed on opening positions (full twelve tricks) and
the expert's time per decision against the book (mean, 95th percentile, slowest), by phase.
The first decision of a process loads the compiled solver and is left out.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from piquet.core.deal import Deal, Phase
from piquet.core.rules import PRESETS, Rules
from piquet.players import make_player
from piquet.players.expert import ExpertPlayer
from piquet.players.search import DEFAULT_THINK_MS, SearchPlayer
from piquet.solver import Solver, play_state
from piquet.tournament import deal_match, deal_pack


def solver_speed(rules: Rules, n: int = 10) -> tuple[float, float]:
    """Mean milliseconds and positions per second of a full solve of an opening position."""
    solver = Solver(rules)
    total_ms = 0.0
    nodes = 0
    done = 0
    for seed in range(200):
        rng = random.Random(seed)
        pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
        rng.shuffle(pack)
        d = Deal.new(rules, pack)
        while not d.is_over and d.phase is not Phase.PLAY:
            d = d.apply(d.random_action(rng))
        if d.phase is not Phase.PLAY or d.tricks or d.trick_lead is not None:
            continue
        state = play_state(d)
        solver.reset()
        if done == 0:
            solver.value(state)  # load the compiled code
        start_nodes = solver.nodes
        t = time.perf_counter()
        solver.root_values(state)
        total_ms += (time.perf_counter() - t) * 1000
        nodes += solver.nodes - start_nodes
        done += 1
        if done >= n:
            break
    return total_ms / done, nodes / (total_ms / 1000)


def decision_times(
    rules: Rules, think: int, deals: int, threads: int, level: str = "expert", cpu: bool = False
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    first = True
    for i in range(deals):
        pack = deal_pack(rules, 99, i)
        for elder in (0, 1):
            if level == "expert":
                expert: SearchPlayer = ExpertPlayer(i, think, threads=threads)
            else:
                expert = SearchPlayer(i, think, level="expert", threads=threads, name=level)
            book = make_player("book")
            m = deal_match(rules, pack, elder=elder)
            while m.last_deal is None:
                p = m.to_act
                assert p is not None and m.deal is not None
                view = m.view(p)
                if p == 0:
                    t = time.process_time() if cpu else time.perf_counter()
                    action = expert.choose(view)
                    dt = (time.process_time() if cpu else time.perf_counter()) - t
                    if not first:
                        times.setdefault(m.deal.phase.value, []).append(dt)
                    first = False
                else:
                    action = book.choose(view)
                m = m.apply(action, p)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--think", type=int, default=DEFAULT_THINK_MS)
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--presets", nargs="+", default=list(PRESETS))
    ap.add_argument("--level", choices=("expert", "reference"), default="expert")
    ap.add_argument(
        "--cpu", action="store_true",
        help="time decisions in CPU seconds of this process (comparable on a loaded machine)",
    )
    args = ap.parse_args()
    for name in args.presets:
        rules = PRESETS[name]
        ms, nps = solver_speed(rules)
        times = decision_times(
            rules, args.think, args.deals, args.threads, args.level, args.cpu
        )
        every = sorted(x for v in times.values() for x in v)
        p95 = every[int(0.95 * (len(every) - 1))]
        print(
            f"{name:20} solver: {ms:7.1f} ms per opening, {nps / 1e6:5.2f} M positions/s | "
            f"{args.level} think {args.think} ms x{args.threads}: "
            f"mean {statistics.mean(every):.3f} s, p95 {p95:.3f} s, slowest {every[-1]:.3f} s"
        )
        for phase, v in sorted(times.items()):
            mean = statistics.mean(v)
            print(f"    {phase:10} n={len(v):3d} mean {mean:.3f} s max {max(v):.3f} s")


if __name__ == "__main__":
    main()
