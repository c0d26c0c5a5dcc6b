"""Steps per CPU-second of a random game through each engine-stepped research adapter, this
checkout against another revision, measured in the same run (issue 34: the adapters on the
table must cost no more than about 10%).

Run from the repository root::

    .venv/bin/python bench/bench_table_adapters.py [--against main] [--games 4] [--reps 5]

The adapters measured are the ones that step the engine (``board=False``): OpenSpiel's
``python_piquet`` state (``kernel=True``: the cards on the kernel's board; ``kernel=False``:
every step through the engine), and PettingZoo's AEC environment, each playing whole
games (``format="game"``; ``pettingzoo-deal``: single deals, the environment's default)
of random legal ids, the mover's information-state tensor read at each decision (what a
learning loop does): the games are played by ``bench_adapters.py``'s own loops
(``openspiel_game``, ``pettingzoo_game``), imported from this checkout's ``bench/``.
The compiled-board adapters (``board=True``) do not step the engine and are not measured
here (``bench_adapters.py``).

Each measure runs in a fresh process, alternately for ``--against`` (the revision's
``src/`` exported by ``git archive`` into a temporary folder, with this checkout's compiled
core copied beside it) and for this checkout, ``--rounds`` times.  A process plays the
same ``--games`` games (the same seeds on both sides: the same ids, the same work)
``--reps`` times and keeps the least CPU time (``time.process_time``) of a repetition;
the figure of each side is its best process.  The least time is the one least disturbed
by other work, so the ratio is comparable on a loaded machine (a median over seconds of
random games varied by 10% between two runs of the same code there).  The ratio is this
checkout's steps per CPU-second over the revision's.
The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ("openspiel-kernel", "openspiel-engine", "pettingzoo", "pettingzoo-deal")

_CHILD = r"""
import json, random, sys, time
measure, n_games, seed, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, sys.argv[5])  # bench/: the games are played as bench_adapters.py plays them
from bench_adapters import openspiel_game, pettingzoo_game
if measure.startswith("openspiel"):
    from piquet.integrations import openspiel as ops
    game = ops.load("rubicon", format="game", board=False, kernel=measure.endswith("kernel"))

    def play(rng):
        return openspiel_game(game.new_initial_state(), rng.randrange, True)
else:
    from piquet.integrations.pettingzoo import raw_env
    fmt = "deal" if measure.endswith("-deal") else "game"
    env = raw_env(rules="rubicon", format=fmt, board=False)

    def play(rng):
        return pettingzoo_game(env, rng.randrange(2**31), rng.randrange)
play(random.Random(seed + 1))  # warm: imports, caches
best = None
for _ in range(reps):
    rng = random.Random(seed)
    start = time.process_time()
    steps = sum(play(rng) for _ in range(n_games))
    used = time.process_time() - start
    best = used if best is None else min(best, used)
print(json.dumps({"steps": steps, "games": n_games, "cpu_s": best}))
"""


def _export(rev: str, into: Path) -> Path:
    """``rev``'s ``src/`` exported into ``into``, with this checkout's compiled core."""
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 on (Debian's 3.11.2 has none)
            tar.extractall(into, filter="data")
        else:  # this checkout's own `git archive`
            tar.extractall(into)
    for so in (ROOT / "src" / "piquet").glob("_native*.so"):
        shutil.copy2(so, into / "src" / "piquet" / so.name)
    return into / "src"


def _run(src: Path, measure: str, games: int, seed: int, reps: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", _CHILD, measure, str(games), str(seed),
                           str(reps), str(ROOT / "bench")],
                          env=env, capture_output=True, text=True, check=True, cwd=src)
    out: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", default="main", help="the revision to compare (git)")
    ap.add_argument("--games", type=int, default=4, help="games a repetition")
    ap.add_argument("--reps", type=int, default=5, help="repetitions a process (the least "
                    "CPU time counts)")
    ap.add_argument("--rounds", type=int, default=3, help="processes of each, alternating")
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
                    got = _run(src, measure, args.games, 1000 + r, args.reps)
                    rates[label].append(got["steps"] / got["cpu_s"])
            before, after = max(rates["before"]), max(rates["after"])
            results[measure] = {"before_steps_per_cpu_s": round(before),
                                "after_steps_per_cpu_s": round(after),
                                "ratio": round(after / before, 3),
                                "runs": {k: [round(x) for x in v] for k, v in rates.items()}}
            print(f"{measure:18s} {args.against}: {before:8.0f} steps/CPU-s   this checkout: "
                  f"{after:8.0f}   ratio {after / before:.3f}", flush=True)
    print(json.dumps({"against": args.against, "games": args.games, "reps": args.reps,
                      "rounds": args.rounds,
                      "load": os.getloadavg()[0], "results": results}))


if __name__ == "__main__":
    main()
