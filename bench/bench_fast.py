"""The compiled fast path against its targets, with ratios measured in the same run.

Run from the repository root (under ``nice`` on a shared machine)::

    .venv/bin/python bench/bench_fast.py [--seconds N] [--presets NAME ...]
    .venv/bin/python bench/bench_fast.py --diff 100000      # the differential check

Every rate is per CPU-second of this process (``time.process_time``) unless it says wall;
the ratios compare figures measured in this run, so the machine's load cancels out.

``kernel``      random full deals through :func:`piquet.fast.random_deals` (one core).
``book``        the same with the kernel's book policy.
``engine``      random full deals through the public engine (``Deal.random_action``).
``skat``        OpenSpiel's C++ skat, random games two ways: ``pyspiel.random_sim_test``
                (the C++ loop, with its checks) and a Python loop over ``apply_action``;
                the ratio is against the faster.
``VectorEnv``   :class:`piquet.fast.VectorEnv` (4,096 games, random legal cards): steps
                per wall second on all cores, and per CPU-second.
``python_piquet`` random games through the OpenSpiel adapter; ``pettingzoo`` steps.

``--diff N`` plays N deals per preset (random and book policies in turn, one third of them
with the game's target in reach) through the kernel and the engine with
:func:`piquet.fast.check.differ`, and counts the deals where any score event differs.
The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

import numpy as np

from piquet.core.deal import Deal
from piquet.core.rules import PRESETS, Rules
from piquet.fast import random_deals
from piquet.fast.check import differ, random_case

TARGET_DEALS = 100_000
TARGET_ENV = 1_000_000
TARGET_OPENSPIEL = 10_000
TARGET_PETTINGZOO = 50_000


def _cpu_rate(fn: Any, seconds: float) -> float:
    """Calls of ``fn`` (each returning how many units it did) per CPU-second."""
    done = 0
    start = time.process_time()
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        done += fn()
    return done / max(time.process_time() - start, 1e-9)


def kernel_rate(rules: Rules, seconds: float, policy: str) -> float:
    random_deals(rules, 10, policy=policy)  # type: ignore[arg-type]  # compiled (cached)
    seed = [0]

    def run() -> int:
        seed[0] += 1
        random_deals(rules, 20_000, seed=seed[0], policy=policy)  # type: ignore[arg-type]
        return 20_000

    return _cpu_rate(run, seconds)


def engine_rate(rules: Rules, seconds: float) -> float:
    rng = random.Random(1)
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]

    def run() -> int:
        order = pack[:]
        rng.shuffle(order)
        deal = Deal.new(rules, order)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
        return 1

    return _cpu_rate(run, seconds)


def skat_rate(seconds: float) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("skat")

    def run() -> int:
        pyspiel.random_sim_test(game, num_sims=200, serialize=False, verbose=False)
        return 200

    return _cpu_rate(run, seconds)


def skat_loop_rate(seconds: float) -> float | None:
    """C++ skat driven from a Python loop (random legal actions, random chance outcomes)."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("skat")
    rng = random.Random(2)

    def run() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        return 1

    return _cpu_rate(run, seconds)


def env_rate(seconds: float, preset: str) -> tuple[float, float]:
    from piquet.fast.env import VectorEnv

    env = VectorEnv(4096, rules=preset, format="game", opponent_policy="random")
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    mask = info["action_mask"]
    _, _, _, _, info = env.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
    steps = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        mask = info["action_mask"]
        _, _, _, _, info = env.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
        steps += env.num_envs
    w = time.perf_counter() - wall
    c = time.process_time() - cpu
    return steps / w, steps / c


def openspiel_rate(preset: str, seconds: float) -> float | None:
    try:
        from piquet.integrations import openspiel as ops
    except ImportError:
        return None
    game = ops.load(preset)
    rng = random.Random(3)

    def run() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        return 1

    return _cpu_rate(run, seconds)


def pettingzoo_rate(preset: str, seconds: float) -> float | None:
    try:
        from piquet.integrations.pettingzoo import env as make_env
    except ImportError:
        return None
    e = make_env(rules=preset)
    rng = np.random.default_rng(4)
    games = [0]

    def run() -> int:
        steps = 0
        e.reset(seed=games[0])
        games[0] += 1
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        return steps

    return _cpu_rate(run, seconds)


def diff_run(n: int, presets: list[str]) -> dict[str, int]:
    out = {}
    for name in presets:
        rules = PRESETS[name]
        rng = random.Random(f"bench-diff:{name}")
        bad = 0
        start = time.perf_counter()
        for i in range(n):
            deck, start_scores, target = random_case(rules, rng)
            policy = "random" if i % 2 == 0 else "book"
            msg = differ(rules, deck, start=start_scores, target=target,
                         policy=policy, seed=i)  # type: ignore[arg-type]
            if msg is not None:
                bad += 1
                if bad <= 3:
                    print(f"  {name} deal {i}: {msg}")
        out[name] = bad
        print(f"{name:22s} {n:>9,} deals  {bad} differ  ({time.perf_counter() - start:.0f} s)",
              flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--presets", nargs="*", default=list(PRESETS))
    ap.add_argument("--diff", type=int, default=0, metavar="N",
                    help="run the differential check over N deals per preset instead")
    args = ap.parse_args(argv)
    load = os.getloadavg()
    report: dict[str, Any] = {"load_before": load, "cpus": os.cpu_count()}
    if args.diff:
        report["diff"] = diff_run(args.diff, args.presets)
        report["diff_deals_per_preset"] = args.diff
        print(json.dumps(report))
        return 1 if any(report["diff"].values()) else 0
    s = args.seconds
    sim = skat_rate(s)
    loop = skat_loop_rate(s)
    report["skat_random_sim_test_games_per_cpu_s"] = sim
    report["skat_python_loop_games_per_cpu_s"] = loop
    # the ratio is taken against the faster of the two ways of running C++ skat
    skat = max((r for r in (sim, loop) if r is not None), default=None)
    print(f"load average before: {load[0]:.2f} on {os.cpu_count()} cores; per CPU-second")
    print(f"OpenSpiel C++ skat: random_sim_test {'n/a' if sim is None else f'{sim:,.0f}'}, "
          f"Python loop {'n/a' if loop is None else f'{loop:,.0f}'} games/CPU-s "
          f"(x skat below: against the faster)")
    print()
    head = (f"{'preset':22s} {'kernel':>10s} {'book':>10s} {'engine':>8s} "
            f"{'x engine':>9s} {'x skat':>7s} {'>=100k':>7s}")
    print(head)
    rows = {}
    for name in args.presets:
        rules = PRESETS[name]
        k = kernel_rate(rules, s, "random")
        b = kernel_rate(rules, s, "book")
        e = engine_rate(rules, s)
        rows[name] = {"kernel": k, "book": b, "engine": e}
        vs_skat = f"{k / skat:7.2f}" if skat else "    n/a"
        print(f"{name:22s} {k:10,.0f} {b:10,.0f} {e:8,.0f} {k / e:9.1f} {vs_skat} "
              f"{'yes' if k >= TARGET_DEALS else 'NO':>7s}", flush=True)
    report["deals"] = rows
    print()
    wall, cpu = env_rate(s * 2, "rubicon")
    report["vector_env"] = {"steps_per_wall_s": wall, "steps_per_cpu_s": cpu}
    print(f"VectorEnv (rubicon, 4096 games): {wall:,.0f} steps/s wall on {os.cpu_count()} "
          f"cores, {cpu:,.0f} per CPU-s; target {TARGET_ENV:,}: "
          f"{'met' if wall >= TARGET_ENV else 'NOT met'}")
    ops = openspiel_rate("rubicon", s)
    pz = pettingzoo_rate("rubicon", s)
    report["python_piquet_games_per_cpu_s"] = ops
    report["pettingzoo_steps_per_cpu_s"] = pz
    if ops is not None:
        print(f"python_piquet (rubicon): {ops:,.0f} games/CPU-s; target {TARGET_OPENSPIEL:,}: "
              f"{'met' if ops >= TARGET_OPENSPIEL else 'NOT met'}")
    if pz is not None:
        print(f"PettingZoo (rubicon): {pz:,.0f} steps/CPU-s; target {TARGET_PETTINGZOO:,}: "
              f"{'met' if pz >= TARGET_PETTINGZOO else 'NOT met'}")
    report["load_after"] = os.getloadavg()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
