"""From a fresh clone to the table: ``scripts/run`` timed to its first page and the first
expert decision, for a first and a second clone on the same machine.

Run from the repository root (it clones the committed ``HEAD`` of ``--repo``)::

    .venv/bin/python bench/bench_clone.py [--repo .] [--port 8765] [--cold-native]

For each of two clones (two paths, one after the other): ``git clone``, then
``scripts/run --port N`` in it (no ``.venv``: it creates one, installs piquet and its
packages, with pip's own cache as the machine has it, and builds the compiled core, or
copies it from ``~/.cache/piquet/native``), timed (wall) from the command to the first
``GET /`` answered 200; then, in the clone's environment, a fresh process makes the first
decision of the first game for the ``expert`` (the seat to act, a new match), timed from the
process's start (wall and CPU), as the server's first AI move pays it, and the expert's first
exchange (its heaviest decision, the one issue 40 timed) on its own.  Also said: whether
the clone compiled the C extension or reused a cached build (a new entry in the cache).
``--cold-native`` gives the first clone an empty cache (``PIQUET_NATIVE_CACHE``), so it pays
the compile; the second clone uses the same cache.  Compared with the figures of issue 40
(5 min 15 s to the table on a quiet machine; 60 CPU-seconds for the first expert exchange
with nothing compiled).  The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ISSUE_TABLE_S = 5 * 60 + 15
ISSUE_FIRST_EXPERT_CPU_S = 60.0

FIRST_DECISION = r"""
import json, resource, time
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
t0 = time.perf_counter()
from piquet.core.actions import Discard
from piquet.core.match import new_match
from piquet.players.base import make_player
match = new_match("rubicon", seed=1)
player = make_player("expert", seed=1)
out = {}
while match.to_act is not None:
    seat = match.to_act
    t, c = time.perf_counter(), cpu()
    action = player.choose(match.view(seat))
    if "wall_s" not in out:  # the first decision, from the process's start
        out.update(wall_s=time.perf_counter() - t0, cpu_s=cpu(), action=str(action))
    if isinstance(action, Discard):  # the first exchange: the solver's heaviest decision
        out.update(exchange_wall_s=time.perf_counter() - t, exchange_cpu_s=cpu() - c,
                   to_exchange_wall_s=time.perf_counter() - t0, to_exchange_cpu_s=cpu())
        break
    match = match.apply(action, seat)
print(json.dumps(out))
"""


def _cache_entries(cache: Path) -> set[str]:
    return {p.name for p in cache.iterdir()} if cache.is_dir() else set()


def _page(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def one_clone(repo: Path, where: Path, port: int, env: dict[str, str], cache: Path,
              limit_s: float) -> dict[str, Any]:
    subprocess.run(["git", "clone", "-q", str(repo), str(where)], check=True)
    before = _cache_entries(cache)
    log = open(where / "run.log", "w")
    start = time.perf_counter()
    proc = subprocess.Popen(["scripts/run", "--port", str(port)], cwd=where, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    page_s = None
    while time.perf_counter() - start < limit_s and proc.poll() is None:
        if _page(port):
            page_s = time.perf_counter() - start
            break
        time.sleep(0.2)
    ru_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=60)
    ru_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    log.close()
    setup_cpu = (ru_after.ru_utime + ru_after.ru_stime) - (ru_before.ru_utime + ru_before.ru_stime)
    compiled = bool(_cache_entries(cache) - before)
    first = None
    if page_s is not None:
        done = subprocess.run([str(where / ".venv/bin/python"), "-c", FIRST_DECISION], env=env,
                              capture_output=True, text=True, check=True, cwd=where)
        first = json.loads(done.stdout.strip().splitlines()[-1])
    return {"path": str(where), "page_s": page_s, "cpu_s_to_stop": setup_cpu,
            "compiled_native": compiled, "first_expert_decision": first,
            "log_tail": (where / "run.log").read_text()[-600:] if page_s is None else ""}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--cold-native", action="store_true",
                    help="the first clone starts from an empty compiled-core cache")
    ap.add_argument("--limit", type=float, default=900.0, help="seconds to wait for the page")
    ap.add_argument("--keep", action="store_true", help="keep the clones")
    args = ap.parse_args(argv)
    env = dict(os.environ)
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    tmp = Path(tempfile.mkdtemp(prefix="piquet-clone-"))
    if args.cold_native:
        env["PIQUET_NATIVE_CACHE"] = str(tmp / "native-cache")
    cache = Path(env.get("PIQUET_NATIVE_CACHE") or Path.home() / ".cache/piquet/native")
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} on {os.cpu_count()} cores")
    rows = []
    try:
        for i, name in enumerate(("first", "second")):
            row = one_clone(args.repo.resolve(), tmp / f"{name}-clone", args.port + i, env,
                            cache, args.limit)
            rows.append(row)
            first = row["first_expert_decision"] or {}
            page = row["page_s"]
            print(f"{name} clone: GET / after {'-' if page is None else f'{page:.1f}'} s "
                  f"(x{ISSUE_TABLE_S / page if page else 0:.1f} faster than issue 40's "
                  f"{ISSUE_TABLE_S} s); C extension "
                  f"{'compiled' if row['compiled_native'] else 'reused from the cache'}; "
                  f"first expert decision {first.get('wall_s', 0):.2f} s wall, "
                  f"{first.get('cpu_s', 0):.2f} CPU-s from a fresh process; its first exchange "
                  f"{first.get('exchange_wall_s', 0):.2f} s wall, "
                  f"{first.get('exchange_cpu_s', 0):.2f} CPU-s (issue 40: "
                  f"{ISSUE_FIRST_EXPERT_CPU_S:.0f} CPU-s)", flush=True)
            if page is None:
                print(row["log_tail"])
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    after = os.getloadavg()
    print(f"load average after: {after[0]:.2f}")
    print(json.dumps({"clones": rows, "load": [load, after], "issue_table_s": ISSUE_TABLE_S,
                      "issue_first_expert_cpu_s": ISSUE_FIRST_EXPERT_CPU_S}))
    return 0 if all(r["page_s"] is not None for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
