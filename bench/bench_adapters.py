"""Steps per second through the research adapters, against the engine's own random playouts.

Run from the repository root (needs ``pip install -e '.[openspiel,pettingzoo]'``)::

    .venv/bin/python bench/bench_adapters.py [--seconds N] [--presets NAME ...]

For every preset, random full deals, one process, each measured for N seconds:

``engine``
    ``Deal.new`` on a shuffled pack, then ``deal.apply(deal.random_action(rng))``
    until the deal is over (a discard is one step).
``episode``
    :class:`piquet.integrations.actions.Episode`: the pack drawn by chance ids,
    then a random legal id until the end (a discard is one id per card plus
    ``discard-done``; legal ids are built from the seat's view each step).
``openspiel``
    a ``python_piquet`` state: ``apply_action`` of a random ``legal_actions()``
    id (chance: a random ``chance_outcomes()`` outcome), as OpenSpiel's own
    random simulation does.
``openspiel+tensor``
    the same, also reading the mover's ``information_state_tensor`` each
    decision (what a learning loop does).
``pettingzoo``
    ``env.last()`` (observation tensor and mask) then ``env.step`` with a random
    legal id, the usual AEC loop; chance is drawn inside the environment.
``resample``
    ``resample_from_infostate`` for the player to move at random decision
    points (milliseconds a call: mean, median, 90th and 99th percentiles and the
    slowest; what ISMCTS pays per simulation), and the CPU milliseconds of the
    process a call (``resample_cpu_ms``: comparable on a loaded machine, where the
    wall-clock figures are not).

``--only resample`` (or another measure's name) runs that measure alone.

"steps/s" counts player decisions (chance ids not counted); "deals/s" is the
comparable figure.  The last line of the output is one JSON object with every
figure.  Measure on an idle machine: the rates fall in proportion to other load.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from piquet.core.deal import Deal
from piquet.core.rules import PRESETS, Rules
from piquet.integrations.actions import CHANCE, TERMINAL, Episode

Measure = Callable[[str, float, int], tuple[int, int, float]]


def _pack(rules: Rules) -> list[int]:
    return [i for i in range(36) if rules.deck_size == 36 or i % 9]


def engine(name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    rules = PRESETS[name]
    rng = random.Random(seed)
    pack = _pack(rules)
    deals = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        order = pack[:]
        rng.shuffle(order)
        deal = Deal.new(rules, order)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
            steps += 1
        deals += 1
    return deals, steps, time.perf_counter() - start


def episode(name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    rules = PRESETS[name]
    rng = random.Random(seed)
    deals = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        ep = Episode.start(rules)
        while ep.to_move != TERMINAL:
            ids = ep.legal_ids()
            if ep.to_move != CHANCE:
                steps += 1
            ep = ep.apply(ids[rng.randrange(len(ids))])
        deals += 1
    return deals, steps, time.perf_counter() - start


def openspiel_game(state: Any, pick: Callable[[int], int], tensor: bool) -> int:
    """Play ``state`` (a ``python_piquet`` state) to its end as OpenSpiel's random
    simulation does: ``apply_action`` of the ``pick(n)``-th of the ``n`` ids of
    ``legal_actions()`` (chance: of ``chance_outcomes()``); ``tensor``: also read the mover's
    ``information_state_tensor`` each decision (what a learning loop does).  The player
    decisions made (chance not counted).  ``bench_table_adapters.py`` times this too."""
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[pick(len(outcomes))][0])
            continue
        if tensor:
            state.information_state_tensor(state.current_player())
        legal = state.legal_actions()
        state.apply_action(legal[pick(len(legal))])
        steps += 1
    return steps


def pettingzoo_game(env: Any, seed: int, pick: Callable[[int], int]) -> int:
    """Play one episode of the AEC environment ``env`` from ``env.reset(seed=seed)``, the
    usual loop: ``env.last()`` (observation tensor and mask), then ``env.step`` with the
    ``pick(n)``-th of the ``n`` legal ids.  The player decisions made.
    ``bench_table_adapters.py`` times this too."""
    steps = 0
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[pick(len(legal))]))
        steps += 1
    return steps


def _openspiel(name: str, seconds: float, seed: int, tensor: bool) -> tuple[int, int, float]:
    from piquet.integrations import openspiel as ops

    game = ops.load(name)
    rng = random.Random(seed)
    deals = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += openspiel_game(game.new_initial_state(), rng.randrange, tensor)
        deals += 1
    return deals, steps, time.perf_counter() - start


def openspiel(name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    return _openspiel(name, seconds, seed, False)


def openspiel_tensor(name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    return _openspiel(name, seconds, seed, True)


def pettingzoo(name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    from piquet.integrations.pettingzoo import env

    e = env(rules=name)
    rng = np.random.default_rng(seed)

    def pick(n: int) -> int:
        return int(rng.integers(n))

    deals = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += pettingzoo_game(e, seed + deals, pick)
        deals += 1
    return deals, steps, time.perf_counter() - start


def resample_ms(name: str, seconds: float, seed: int) -> tuple[list[float], list[float]]:
    """Milliseconds of each ``resample_from_infostate`` call at random decision points, wall
    clock and CPU time of the process."""
    import pyspiel

    from piquet.integrations import openspiel as ops

    game = ops.load(name)
    rng = random.Random(seed)
    times: list[float] = []
    cpu_times: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if rng.random() < 0.25:
                t = time.perf_counter()
                c = time.process_time()
                state.resample_from_infostate(
                    state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0)
                )
                cpu_times.append(1000.0 * (time.process_time() - c))
                times.append(1000.0 * (time.perf_counter() - t))
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return times, cpu_times


MEASURES: dict[str, Measure] = {
    "engine": engine,
    "episode": episode,
    "openspiel": openspiel,
    "openspiel+tensor": openspiel_tensor,
    "pettingzoo": pettingzoo,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Steps per second through the adapters.")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", nargs="+", default=sorted(PRESETS), choices=sorted(PRESETS))
    parser.add_argument("--only", choices=[*MEASURES, "resample"],
                        help="run this measure alone")
    args = parser.parse_args(argv)
    figures: dict[str, dict[str, Any]] = {}
    print(f"{'preset':22} {'measure':17} {'steps/s':>9} {'deals/s':>8} {'vs engine':>9}")
    for name in args.presets:
        row: dict[str, Any] = {}
        base = 0.0
        for label, measure in MEASURES.items():
            if args.only is not None and args.only != label:
                continue
            # a short run not timed first: the first games load compiled code, which would
            # otherwise fall inside the timed window of whichever path came first
            measure(name, min(0.3, args.seconds), args.seed)
            deals, steps, elapsed = measure(name, args.seconds, args.seed)
            rate = deals / elapsed
            if label == "engine" or not base:
                base = rate
            row[label] = {
                "steps_per_s": round(steps / elapsed),
                "deals_per_s": round(rate, 1),
                "steps_per_deal": round(steps / max(deals, 1), 1),
                "vs_engine": round(rate / base, 3),
            }
            print(f"{name:22} {label:17} {steps / elapsed:9.0f} {rate:8.1f} {rate / base:9.3f}")
        if args.only not in (None, "resample"):
            figures[name] = row
            continue
        wall, cpu = (np.array(x) for x in resample_ms(name, args.seconds, args.seed))
        for key, times in (("resample_ms", wall), ("resample_cpu_ms", cpu)):
            spread = {"mean": times.mean(), "median": np.median(times),
                      "p90": np.percentile(times, 90), "p99": np.percentile(times, 99),
                      "max": times.max()}
            row[key] = {k: round(float(v), 2) for k, v in spread.items()}
            what = "resample" if key == "resample_ms" else "  (CPU)"
            print(f"{name:22} {what:17} " + ", ".join(
                f"{k} {v:.2f}" for k, v in row[key].items())
                + f" ms a call ({len(times)} calls)")
        row["resample_calls"] = len(wall)
        figures[name] = row
    print(
        json.dumps(
            {
                "machine": platform.machine(),
                "python": platform.python_version(),
                "seconds": args.seconds,
                "figures": figures,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
