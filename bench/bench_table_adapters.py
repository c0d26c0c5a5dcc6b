"""Steps per CPU-second of a random game through each engine-stepped research adapter, this
checkout against another revision, measured in the same run (issue 34: the adapters on the
table must cost no more than about 10%).

Run from the repository root::

    .venv/bin/python bench/bench_table_adapters.py [--against main] [--seconds 3] [--rounds 3]

The adapters measured are the ones that step the engine (``board=False``): OpenSpiel's
``python_piquet`` state (``kernel=True``: the cards on the kernel's board; ``kernel=False``:
every step through the engine), and PettingZoo's AEC environment, each playing whole
games (``format="game"``; ``pettingzoo-deal``: single deals, the environment's default)
of random legal ids, the mover's information-state tensor read at each decision (what a
learning loop does).  The compiled-board adapters (``board=True``) do not step the engine
and are not measured here (``bench_adapters.py``).

Each measure runs in a fresh process, alternately for ``--against`` (the revision's
``src/`` exported by ``git archive`` into a temporary folder, with this checkout's compiled
core copied beside it) and for this checkout, ``--rounds`` times; the CPU time of the
process (``time.process_time``) is the clock, so the figures are comparable on a loaded
machine.  The ratio is this checkout's median steps per CPU-second over the revision's.
The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ("openspiel-kernel", "openspiel-engine", "pettingzoo", "pettingzoo-deal")

_CHILD = r"""
import json, random, sys, time
measure, seconds, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
steps = games = 0
if measure.startswith("openspiel"):
    from piquet.integrations import openspiel as ops
    game = ops.load("rubicon", format="game", board=False, kernel=measure.endswith("kernel"))
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.information_state_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
else:
    import numpy as np
    from piquet.integrations.pettingzoo import raw_env
    fmt = "deal" if measure.endswith("-deal") else "game"
    env = raw_env(rules="rubicon", format=fmt, board=False)
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=rng.randrange(2**31))
        for agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        games += 1
used = time.process_time() - start
print(json.dumps({"steps": steps, "games": games, "cpu_s": used}))
"""


def _export(rev: str, into: Path) -> Path:
    """``rev``'s ``src/`` exported into ``into``, with this checkout's compiled core."""
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    for so in (ROOT / "src" / "piquet").glob("_native*.so"):
        shutil.copy2(so, into / "src" / "piquet" / so.name)
    return into / "src"


def _run(src: Path, measure: str, seconds: float, seed: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", _CHILD, measure, str(seconds), str(seed)],
                          env=env, capture_output=True, text=True, check=True, cwd=src)
    out: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", default="main", help="the revision to compare (git)")
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a measure")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each, alternating")
    ap.add_argument("--only", choices=MEASURES, action="append", help="these measures")
    args = ap.parse_args()
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        old = _export(args.against, Path(tmp))
        new = ROOT / "src"
        for measure in args.only or MEASURES:
            rates: dict[str, list[float]] = {"before": [], "after": []}
            for r in range(args.rounds):
                for label, src in (("before", old), ("after", new)):
                    got = _run(src, measure, args.seconds, 1000 + r)
                    rates[label].append(got["steps"] / got["cpu_s"])
            before, after = statistics.median(rates["before"]), statistics.median(rates["after"])
            results[measure] = {"before_steps_per_cpu_s": round(before),
                                "after_steps_per_cpu_s": round(after),
                                "ratio": round(after / before, 3),
                                "runs": {k: [round(x) for x in v] for k, v in rates.items()}}
            print(f"{measure:18s} {args.against}: {before:8.0f} steps/CPU-s   this checkout: "
                  f"{after:8.0f}   ratio {after / before:.3f}", flush=True)
    print(json.dumps({"against": args.against, "seconds": args.seconds, "rounds": args.rounds,
                      "load": os.getloadavg()[0], "results": results}))


if __name__ == "__main__":
    main()
