"""The double-dummy solver's speed, and a checksum of what it found.

Run from the repository root (under ``nice`` on a shared machine)::

    .venv/bin/python bench/bench_solver.py [--positions N] [--presets NAME ...]

For each preset, ``N`` positions of the play are drawn from seeded random packs (both
hands dealt, the first trick to lead, or ``--cards K`` cards a hand left, the rest played
at random); for each the exact value of every card (:meth:`Solver.root_values`, DIFF, a
fresh table), then the greedy estimates (:meth:`Solver.estimate_moves`).  Printed per
preset: positions solved a CPU-second, search positions a CPU-second, estimates a
CPU-second, and a checksum of the values and of the positions searched: two builds of the
solver that print the same checksums searched the same trees and found the same values.
``bench/bench_native.py`` runs this against an older source tree in the same session.
The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import time

from piquet.core.rules import PRESETS, Rules
from piquet.fast.solver import PlayState, Solver


def positions(rules: Rules, n: int, cards: int, seed: int) -> list[PlayState]:
    """``n`` positions with ``cards`` cards a hand, elder to lead (seeded)."""
    rng = random.Random(seed)
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    out = []
    for _ in range(n):
        rng.shuffle(pack)
        h0 = sum(1 << c for c in pack[:cards])
        h1 = sum(1 << c for c in pack[cards:2 * cards])
        played = 12 - cards
        won0 = rng.randint(0, played)
        out.append(PlayState(hands=(h0, h1), leader=0, lead=None, won=(won0, played - won0),
                             totals=(rng.randint(0, 20), rng.randint(0, 20)),
                             open=played == 0))
    return out


def run(rules: Rules, n: int, cards: int, seed: int) -> dict[str, object]:
    states = positions(rules, n, cards, seed)
    solver = Solver(rules, tt_bits=20)
    digest = hashlib.sha256()
    t = time.process_time()
    nodes0 = solver.nodes
    for s in states:
        solver.reset()
        vals = solver.root_values(s)
        digest.update(repr(sorted(vals.items())).encode())
    solve_cpu = time.process_time() - t
    nodes = solver.nodes - nodes0
    digest.update(str(nodes).encode())
    t = time.process_time()
    reps = 0
    while True:
        for s in states:
            est = solver.estimate_moves(s)
            if reps == 0:
                digest.update(repr(sorted(est.items())).encode())
        reps += 1
        if time.process_time() - t > 0.5:
            break
    est_cpu = time.process_time() - t
    return {
        "positions_per_cpu_s": n / solve_cpu,
        "nodes_per_cpu_s": nodes / solve_cpu,
        "estimates_per_cpu_s": reps * n / est_cpu,
        "nodes": nodes,
        "checksum": digest.hexdigest()[:16],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--cards", type=int, default=9, help="cards a hand (12: the whole play)")
    ap.add_argument("--presets", nargs="*", default=list(PRESETS))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    report: dict[str, object] = {"load_before": os.getloadavg()}
    Solver(PRESETS["rubicon"], tt_bits=4).estimate(positions(PRESETS["rubicon"], 1, 3, 0)[0])
    print(f"{'preset':16s} {'solved/CPU-s':>13s} {'nodes/CPU-s':>12s} {'estimates/CPU-s':>16s}"
          f" {'checksum':>17s}")
    for name in args.presets:
        row = run(PRESETS[name], args.positions, args.cards, args.seed)
        report[name] = row
        print(f"{name:16s} {row['positions_per_cpu_s']:13,.1f} {row['nodes_per_cpu_s']:12,.0f} "
              f"{row['estimates_per_cpu_s']:16,.0f} {row['checksum']:>17s}", flush=True)
    report["load_after"] = os.getloadavg()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
