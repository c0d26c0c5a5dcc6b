"""What the browser table costs Chromium's renderer a view pushed to the page.

Starts ``piquet serve`` on a free port (SQLite in a temporary directory), opens seat 0 of a
friend game in Debian's Chromium (the tests' launch: ``tests/test_web_kit.py``), plays both
seats over HTTP with random legal actions (``--actions`` of them), waits after each for the
page to show it, and reads Chrome's ``Performance.getMetrics`` (a CDP session) before and
after: TaskDuration, ScriptDuration, RecalcStyleDuration, LayoutDuration (the renderer's main
thread), and BrowserCPU, the CPU of every process of the Chromium it launched (the raster,
compositor and display threads too), per view the page received over its socket.

The page's static files come from this tree's ``src/piquet/web/static``, or with
``--baseline DIR`` also from DIR (e.g. main's: ``git archive main src/piquet/web/static |
tar -x -C /tmp/main``, then ``--baseline /tmp/main/src/piquet/web/static``), served in
turn, alternating which goes first, ``--rounds`` times, in the same run and server;
the ratios are this tree's over the baseline's.  A benchmark, not a test: read it with the
load average it prints (the machine is shared).

    .venv/bin/python bench/bench_render.py --baseline /tmp/main/src/piquet/web/static

``--tests MODULE ...`` measures the browser tests instead: ``pytest -n 2`` over the modules
(niced), with this tree's static files and with the baseline's (this tree's ``src`` copied
with the baseline's static files in it, first on PYTHONPATH), in turn, ``--rounds`` times.
Each run's wall time, the CPU of every process it started (it is their child subreaper:
Chromium's renderers, orphaned, are reaped and counted too) and the machine's CPU from
/proc/stat (everything running, other users' too).

    .venv/bin/python bench/bench_render.py --baseline /tmp/main/src/piquet/web/static \
        --rounds 2 --tests tests/test_web_browser.py tests/test_web_learn_browser.py
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from bench_web import pick  # noqa: E402  (a legal action at random, as the web benchmark plays)

from test_web_kit import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402

HERE = ROOT / "src" / "piquet" / "web" / "static"
METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")
REPORTED = (*METRICS, "BrowserCPU")


def start_server(data: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "piquet", "serve", "--port", str(port), "--rate-limit", "0",
           "--data", data, "--ai-workers", "1"]
    log = open(Path(data) / "server.log", "wb")  # the server's, for its life
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise SystemExit("the server did not start:\n" +
                             (Path(data) / "server.log").read_text()[-2000:])
        time.sleep(0.2)


def serve_from(static: Path) -> Any:
    """A route handler: /static/NAME from ``static`` instead of the server's."""

    def handle(route: Any) -> None:
        name = route.request.url.split("/static/", 1)[1].split("?", 1)[0]
        path = static / name
        if not path.is_file():
            route.fulfill(status=404, body="")
            return
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if name.endswith(".js"):
            kind = "text/javascript"
        route.fulfill(status=200, body=path.read_bytes(), content_type=kind)

    return handle


def browser_cpu() -> float:
    """The CPU seconds (user + system) so far of Chromium's live processes started under this
    one (the browser, its zygotes, renderers and GPU process; Playwright's node driver and
    the server left out): every thread, the renderers' raster and compositor threads too,
    which Performance.getMetrics does not see."""
    parent: dict[int, int] = {}
    spent: dict[int, float] = {}
    names: dict[int, str] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name, rest = raw[raw.index("(") + 1:raw.rindex(")")], raw[raw.rindex(")") + 2:].split()
        pid = int(entry)
        parent[pid], names[pid] = int(rest[1]), name
        spent[pid] = (int(rest[11]) + int(rest[12])) / tick
    mine, grew = {os.getpid()}, True
    while grew:
        grew = False
        for pid, pp in parent.items():
            if pp in mine and pid not in mine:
                mine.add(pid)
                grew = True
    # the browser's processes, or its headless shell's (named "chromium-headle")
    return sum(spent[pid] for pid in mine if names[pid].startswith("chromium"))


def one_game(browser: Any, url: str, static: Path, actions: int, seed: int) -> dict[str, float]:
    """One friend game of ``actions`` actions with the page's files from ``static``: the
    renderer's metrics (seconds) over them, Chromium's CPU (:func:`browser_cpu`), and the
    views the page received."""
    made = httpx.post(url + "/api/games", json={"rules": "rubicon", "opponent": "friend"}).json()
    gid, tokens = made["id"], [made["token"]]
    joined = httpx.post(f"{url}/api/games/{gid}/join",
                        json={"invite": made["invites"][0]["invite"]}).json()
    tokens.append(joined["token"])
    ctx = browser.new_context()
    ctx.route("**/static/**", serve_from(static))
    page = ctx.new_page()
    views = [0]

    def socket(ws: Any) -> None:
        def frame(payload: Any) -> None:
            if isinstance(payload, str) and '"type":"view"' in payload.replace(" ", ""):
                views[0] += 1
        ws.on("framereceived", frame)

    page.on("websocket", socket)
    page.on("pageerror", lambda e: print("page error:", e, file=sys.stderr))
    page.goto(f"{url}/play/{gid}#token={tokens[0]}")
    page.locator("#main[data-n] .felt").wait_for(state="attached")
    page.wait_for_timeout(500)  # the glossary, the clock, the chat: loaded
    cdp = ctx.new_cdp_session(page)
    cdp.send("Performance.enable")

    def metrics() -> dict[str, float]:
        got = cdp.send("Performance.getMetrics")["metrics"]
        return {m["name"]: m["value"] for m in got if m["name"] in METRICS}

    rng = random.Random(seed)
    views[0] = 0
    before = metrics()
    cpu0 = browser_cpu()
    done = 0
    while done < actions:
        game = httpx.get(f"{url}/api/games/{gid}", headers={
            "Authorization": "Bearer " + tokens[0]}).json()
        if game["finished"]:
            break
        seat = game["to_act"]
        g = httpx.get(f"{url}/api/games/{gid}", headers={
            "Authorization": "Bearer " + tokens[seat]}).json()
        after = httpx.post(f"{url}/api/games/{gid}/actions",
                           json={"action": pick(g, rng), "n": g["n"]},
                           headers={"Authorization": "Bearer " + tokens[seat]})
        after.raise_for_status()
        page.locator(f'#main[data-n="{after.json()["n"]}"]').wait_for(state="attached")
        done += 1
    page.wait_for_timeout(300)  # the last view's paint
    end = metrics()
    out = {k: end[k] - before[k] for k in METRICS}
    out["BrowserCPU"] = browser_cpu() - cpu0
    out["views"] = views[0]
    out["actions"] = done
    ctx.close()
    return out


def machine_cpu() -> float:
    """The machine's CPU seconds so far, every core (user, nice, system, irq, softirq)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    busy = sum(int(fields[i]) for i in (0, 1, 2, 5, 6))
    return busy / os.sysconf("SC_CLK_TCK")


def run_tests(modules: list[str], src: Path | None) -> dict[str, float]:
    """``pytest -n 2`` over ``modules`` (with ``src`` first on PYTHONPATH when given): wall,
    the CPU of its whole tree (reaped as their subreaper), the machine's CPU."""
    import ctypes
    import resource

    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [env.get("PYTHONPATH")])])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    machine0, t0 = machine_cpu(), time.monotonic()
    proc = subprocess.Popen(["nice", sys.executable, "-m", "pytest", "-o", "addopts=", "-q",
                             "-p", "no:cacheprovider", "-n", "2", *modules], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.communicate()[0].decode(errors="replace")
    wall = time.monotonic() - t0
    while True:  # the orphans this process adopted: reaped, their CPU counted
        try:
            os.wait()
        except ChildProcessError:
            break
    machine = machine_cpu() - machine0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    tree = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(out.strip().splitlines()[-1] if out.strip() else "(no output)", flush=True)
    return {"wall_s": wall, "tree_cpu_s": tree, "machine_cpu_s": machine,
            "failed": float(proc.returncode != 0)}


def compare_tests(args: argparse.Namespace) -> int:
    variants: dict[str, Path | None] = {"this": None}
    with tempfile.TemporaryDirectory() as tmp:
        if args.baseline:
            base = Path(tmp) / "src"
            shutil.copytree(ROOT / "src", base, ignore=shutil.ignore_patterns("__pycache__"))
            shutil.rmtree(base / "piquet" / "web" / "static")
            shutil.copytree(args.baseline, base / "piquet" / "web" / "static")
            variants["baseline"] = base
        runs: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
        for r in range(args.rounds):
            order = list(variants) if r % 2 == 0 else list(reversed(variants))
            for v in order:
                load = os.getloadavg()[0]
                got = run_tests(args.tests, variants[v])
                got["load_1min"] = load
                runs[v].append(got)
                print(f"round {r} {v}: " + json.dumps({k: round(x, 1) for k, x in got.items()}),
                      flush=True)
    report: dict[str, Any] = {}
    for v, rs in runs.items():
        report[v] = {k: round(sum(x[k] for x in rs) / len(rs), 1)
                     for k in ("wall_s", "tree_cpu_s", "machine_cpu_s", "load_1min")}
    if args.baseline:
        report["ratio_this_over_baseline"] = {
            k: round(report["this"][k] / max(1e-9, report["baseline"][k]), 3)
            for k in ("wall_s", "tree_cpu_s", "machine_cpu_s")}
    print(json.dumps(report, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", type=Path, default=None,
                    help="another version's static directory, measured in turn with this one")
    ap.add_argument("--actions", type=int, default=60, help="actions a game (both seats)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--tests", nargs="+", default=None, metavar="MODULE",
                    help="measure these browser test modules instead (see above)")
    args = ap.parse_args(argv)
    if args.tests:
        return compare_tests(args)
    from playwright.sync_api import sync_playwright

    variants = {"this": HERE}
    if args.baseline:
        variants["baseline"] = args.baseline.resolve()
    totals: dict[str, dict[str, float]] = {v: {} for v in variants}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as data, sync_playwright() as p:
        proc, url = start_server(data)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for r in range(args.rounds):
                order = list(variants) if r % 2 == 0 else list(reversed(variants))
                for v in order:
                    got = one_game(browser, url, variants[v], args.actions, args.seed + r)
                    for k, x in got.items():
                        totals[v][k] = totals[v].get(k, 0.0) + x
                    print(f"round {r} {v}: " + json.dumps({k: round(x, 3)
                                                           for k, x in got.items()}),
                          flush=True)
        finally:
            browser.close()
            proc.terminate()
            proc.wait(10)
    report: dict[str, Any] = {"load_before": load_before, "load_after": os.getloadavg()}
    for v, t in totals.items():
        n = max(1.0, t.get("views", 0.0))
        report[v] = {"views": int(t.get("views", 0)),
                     **{k + "_ms_per_view": round(t[k] / n * 1000, 2) for k in REPORTED}}
    if args.baseline:
        report["ratio_this_over_baseline"] = {
            k: round(report["this"][k + "_ms_per_view"] /
                     max(1e-9, report["baseline"][k + "_ms_per_view"]), 3) for k in REPORTED}
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
