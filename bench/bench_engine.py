"""Engine throughput: random deals per second, and declarations scored per second.

Run from the repository root::

    .venv/bin/python bench/bench_engine.py [--seconds N] [--workers K] [--pairs P]

For every preset it measures

(a) random full deals per second through the public engine: ``Deal.new`` and
    ``random_action`` + ``apply`` until the deal is over, and the same through a
    ``Match`` (``new_match`` and ``Match.apply`` until finished, counting
    deals), in one process and in K worker processes
    (``concurrent.futures.ProcessPoolExecutor``, each worker with its own seed);
(b) hand pairs scored per second by ``piquet.analysis.batch.score_batch`` on P random
    pairs, against ``piquet.analysis.handscore.score_hands`` one pair at a time in this
    same process (the baseline).

It prints three tables (rates per wall-clock second and per CPU second) and
then one JSON summary on the last line.  The targets (the issue "The rules
engine", 2 cores) are 5,000 random deals/s and 500,000 hands/s; ratios are
given against them and against the scalar baseline.
``--profile PRESET`` instead profiles the single-process deal loop (cProfile)
and prints the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
from numpy.typing import NDArray

from piquet.analysis.batch import score_batch, split_worth
from piquet.analysis.handscore import score_hands
from piquet.core.deal import Deal
from piquet.core.match import new_match
from piquet.core.rules import PRESETS, Rules

TARGET_DEALS = 5_000
TARGET_HANDS = 500_000


# ---------------------------------------------------------------------------- deals


def _pack(rules: Rules) -> list[int]:
    return [i for i in range(36) if rules.deck_size == 36 or i % 9]


class _Clock:
    """Wall and CPU time since it was made."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def since(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


Run = tuple[int, float, float]
"""(deals finished, wall seconds, CPU seconds of this process)."""


def run_deals(name: str, seconds: float, seed: int) -> Run:
    """Random full deals through ``Deal`` for about ``seconds``."""
    rules = PRESETS[name]
    rng = random.Random(seed)
    pack = _pack(rules)
    done = 0
    clock = _Clock()
    stop = clock.wall + seconds
    while time.perf_counter() < stop:
        rng.shuffle(pack)
        deal = Deal.new(rules, pack)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
        done += 1
    return (done, *clock.since())


def run_matches(name: str, seconds: float, seed: int) -> Run:
    """Random matches for about ``seconds``, counting the deals played."""
    rules = PRESETS[name]
    rng = random.Random(seed)
    done = 0
    number = 0
    clock = _Clock()
    stop = clock.wall + seconds
    while time.perf_counter() < stop:
        match = new_match(rules, seed=seed * 1_000_003 + number)
        number += 1
        while match.to_act is not None and time.perf_counter() < stop:
            before = len(match.deals)
            match = match.apply(match.random_action(rng))
            done += len(match.deals) - before
    return (done, *clock.since())


def _rates(runs: list[Run]) -> tuple[float, float]:
    """(deals per wall second, deals per CPU second), summed over parallel workers."""
    return (
        float(sum(n / wall for n, wall, _ in runs)),
        float(sum(n / max(cpu, 1e-9) for n, _, cpu in runs)),
    )


def _parallel(fn: Any, name: str, seconds: float, workers: int, seed: int) -> list[Run]:
    """``fn`` in ``workers`` processes at once, each with its own seed."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # warm the workers (imports, tables) before timing
        list(pool.map(fn, [name] * workers, [0.05] * workers, range(workers)))
        seeds = [seed * 1000 + w for w in range(workers)]
        return list(pool.map(fn, [name] * workers, [seconds] * workers, seeds))


# ---------------------------------------------------------------------------- declarations


def random_pairs(
    rules: Rules, n: int, seed: int
) -> tuple[NDArray[np.uint64], NDArray[np.uint64], NDArray[np.bool_], NDArray[np.bool_]]:
    """``n`` random deals' hands (elder, younger masks) and carte blanche flags."""
    rng = np.random.default_rng(seed)
    cards = np.array(_pack(rules), dtype=np.uint64)
    order = rng.permuted(np.tile(np.arange(cards.size), (n, 1)), axis=1)[:, :24]
    bits = np.uint64(1) << cards[order]
    elder: NDArray[np.uint64] = np.bitwise_or.reduce(bits[:, :12], axis=1)
    younger: NDArray[np.uint64] = np.bitwise_or.reduce(bits[:, 12:], axis=1)
    return elder, younger, rng.random(n) < 0.05, rng.random(n) < 0.05


def bench_declarations(name: str, pairs: int, seconds: float, seed: int) -> dict[str, float]:
    rules = PRESETS[name]
    elder, younger, eb, yb = random_pairs(rules, pairs, seed)
    t0 = time.perf_counter()
    if not rules.sequences_same_suit:
        split_worth(np.zeros(1, dtype=np.int64), rules.sequence_values)
    setup = time.perf_counter() - t0
    score_batch(elder[:1000], younger[:1000], rules, elder_blanche=eb[:1000],
                younger_blanche=yb[:1000])  # fmt: skip
    best_wall = best_cpu = float("inf")
    for _ in range(3):
        clock = _Clock()
        score_batch(elder, younger, rules, elder_blanche=eb, younger_blanche=yb)
        wall, cpu = clock.since()
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    # the scalar baseline, on the same pairs, for about ``seconds``
    e_list, y_list = elder.tolist(), younger.tolist()
    eb_list, yb_list = eb.tolist(), yb.tolist()
    done = 0
    clock = _Clock()
    stop = clock.wall + seconds
    while done < pairs and time.perf_counter() < stop:
        for i in range(done, min(done + 200, pairs)):
            score_hands(
                e_list[i], y_list[i], rules, elder_blanche=eb_list[i], younger_blanche=yb_list[i]
            )
        done = min(done + 200, pairs)
    wall, cpu = clock.since()
    return {
        "batch_pairs_per_s": pairs / best_wall,
        "batch_pairs_per_cpu_s": pairs / max(best_cpu, 1e-9),
        "batch_hands_per_s": 2 * pairs / best_wall,
        "scalar_pairs_per_s": done / wall,
        "scalar_pairs_per_cpu_s": done / max(cpu, 1e-9),
        "batch_vs_scalar": (pairs / best_wall) / (done / wall),
        "table_setup_s": setup,
    }


# ---------------------------------------------------------------------------- report


def _fmt(x: float) -> str:
    return f"{x:,.0f}"


def profile(name: str, seconds: float, top: int) -> None:
    prof = cProfile.Profile()
    prof.enable()
    n, t, _ = run_deals(name, seconds, seed=1)
    prof.disable()
    print(f"{name}: {n} deals in {t:.1f} s under the profiler ({n / t:,.0f}/s)")
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    print(out.getvalue())


def _print_tables(results: dict[str, dict[str, float]], k: int) -> None:
    for label, title in (("deals", "Deal"), ("match_deals", "Match")):
        head = (
            f"{'random deals/s, ' + title:<28} {'1 proc':>8} {'per CPU-s':>10} "
            f"{f'{k} procs':>8} {'per CPU-s':>10} {'vs 5k':>6} {'vs 5k CPU':>9}"
        )
        print(head)
        print("-" * len(head))
        for name, r in results.items():
            par, par_cpu = r[f"{label}_per_s_{k}"], r[f"{label}_per_cpu_s_{k}"]
            print(
                f"{name:<28} {_fmt(r[f'{label}_per_s_1']):>8} "
                f"{_fmt(r[f'{label}_per_cpu_s_1']):>10} {_fmt(par):>8} {_fmt(par_cpu):>10} "
                f"{par / TARGET_DEALS:>6.2f} {par_cpu / TARGET_DEALS:>9.2f}"
            )
        print()
    head = (
        f"{'declarations':<28} {'batch pairs/s':>13} {'per CPU-s':>10} {'hands/s':>10} "
        f"{'vs 500k':>7} {'scalar/s':>8} {'per CPU-s':>9} {'batch/scalar':>12} {'setup s':>7}"
    )
    print(head)
    print("-" * len(head))
    for name, r in results.items():
        print(
            f"{name:<28} {_fmt(r['batch_pairs_per_s']):>13} "
            f"{_fmt(r['batch_pairs_per_cpu_s']):>10} {_fmt(r['batch_hands_per_s']):>10} "
            f"{r['batch_pairs_per_s'] / TARGET_HANDS:>7.2f} {_fmt(r['scalar_pairs_per_s']):>8} "
            f"{_fmt(r['scalar_pairs_per_cpu_s']):>9} {r['batch_vs_scalar']:>12.0f} "
            f"{r['table_setup_s']:>7.2f}"
        )
    print(
        f"\ntargets: {TARGET_DEALS:,} random deals/s with {k} processes; {TARGET_HANDS:,} "
        "hands/s, judged on hand pairs (the stricter reading). 'per CPU-s' divides by the "
        "CPU time each process got: on a shared machine it estimates the idle-machine rate."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="worker processes")
    parser.add_argument("--pairs", type=int, default=200_000, help="hand pairs for the batch")
    parser.add_argument("--seed", type=int, default=1, help="base seed")
    parser.add_argument(
        "--presets", nargs="+", choices=list(PRESETS), default=list(PRESETS), metavar="PRESET"
    )
    parser.add_argument("--profile", choices=list(PRESETS), metavar="PRESET",
                        help="profile the deal loop of one preset instead")  # fmt: skip
    parser.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.workers < 1 or args.pairs < 1000:
        parser.error("--seconds must be positive, --workers at least 1, --pairs at least 1000")
    if args.profile:
        profile(args.profile, args.seconds, args.top)
        return 0

    k = args.workers
    load_before = list(os.getloadavg())
    results: dict[str, dict[str, float]] = {}
    for name in args.presets:
        row: dict[str, float] = {}
        for label, fn in (("deals", run_deals), ("match_deals", run_matches)):
            wall, cpu = _rates([fn(name, args.seconds, args.seed)])
            row[f"{label}_per_s_1"], row[f"{label}_per_cpu_s_1"] = wall, cpu
            wall, cpu = _rates(_parallel(fn, name, args.seconds, k, args.seed))
            row[f"{label}_per_s_{k}"], row[f"{label}_per_cpu_s_{k}"] = wall, cpu
        row.update(bench_declarations(name, args.pairs, args.seconds, args.seed))
        results[name] = row
        print(f"measured {name}", file=sys.stderr, flush=True)
    _print_tables(results, k)
    summary = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "platform": platform.platform(),
            "load_average_before": load_before,
            "load_average_after": list(os.getloadavg()),
        },
        "seconds": args.seconds,
        "workers": k,
        "pairs": args.pairs,
        "targets": {"deals_per_s": TARGET_DEALS, "hands_per_s": TARGET_HANDS},
        "presets": {
            name: {
                **{key: round(v, 3) for key, v in r.items()},
                "deals_vs_target": round(r[f"deals_per_s_{k}"] / TARGET_DEALS, 3),
                "deals_vs_target_cpu": round(r[f"deals_per_cpu_s_{k}"] / TARGET_DEALS, 3),
                "batch_pairs_vs_target": round(r["batch_pairs_per_s"] / TARGET_HANDS, 3),
            }
            for name, r in results.items()
        },
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
