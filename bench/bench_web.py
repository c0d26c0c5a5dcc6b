"""Load test of the web server on loopback: many concurrent games driven through the API.

Starts ``piquet serve`` (SQLite in a temporary directory, or ``--database URL``), then plays
``--games`` games at once against the ``random`` AI, each coroutine doing what a browser
does: wait for its turn (long poll), think (``--pace`` seconds on average; 0 for flat
out), choose a legal action, post it.  It reports the
latency of each action (``POST /api/games/{id}/actions``, from request to the new view:
the AI's reply is not in it, it comes afterwards) as p50/p90/p99/max, the view latency,
and every error.

    .venv/bin/python bench/bench_web.py                  # 200 games, 40 moves each
    .venv/bin/python bench/bench_web.py --games 300 --moves 0   # whole games
    .venv/bin/python bench/bench_web.py --database postgresql://postgres@127.0.0.1/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pick(game: dict[str, Any], rng: random.Random) -> str:
    legal = game["legal_actions"]
    if legal[0]["kind"] == "discard":
        lo, hi = legal[0]["min"], legal[0]["max"]
        cards = rng.sample(game["view"]["deal"]["hand"], rng.randint(lo, hi))
        return "discard:" + (" ".join(cards) if cards else "-")
    return str(rng.choice(legal)["id"])


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


class Stats:
    def __init__(self) -> None:
        self.act: list[float] = []
        self.view: list[float] = []
        self.errors: list[str] = []
        self.finished = 0


async def play(
    client: httpx.AsyncClient, n: int, moves: int, rules: str, pace: float, stats: Stats
) -> None:
    rng = random.Random(n)
    await asyncio.sleep(rng.uniform(0, pace))  # the games do not all start at once
    try:
        r = await client.post("/api/games", json={"rules": rules, "opponent": "random"})
        if r.status_code != 201:
            stats.errors.append(f"create {r.status_code}: {r.text[:200]}")
            return
        made = r.json()
        gid = made["id"]
        headers = {"Authorization": f"Bearer {made['token']}"}
        done = 0
        while moves == 0 or done < moves:
            t0 = time.perf_counter()
            r = await client.get(f"/api/games/{gid}", params={"wait": 20}, headers=headers)
            if r.status_code != 200:
                stats.errors.append(f"view {r.status_code}: {r.text[:200]}")
                return
            game = r.json()
            if game["your_turn"]:
                stats.view.append(time.perf_counter() - t0)
            if game["finished"]:
                stats.finished += 1
                return
            if not game["your_turn"]:
                continue
            action = pick(game, rng)
            if pace:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)  # a player thinks
            t0 = time.perf_counter()
            r = await client.post(
                f"/api/games/{gid}/actions", json={"action": action}, headers=headers
            )
            stats.act.append(time.perf_counter() - t0)
            if r.status_code != 200:
                stats.errors.append(f"act {action} {r.status_code}: {r.text[:200]}")
                return
            done += 1
    except Exception as exc:  # report, do not stop the others
        stats.errors.append(f"{type(exc).__name__}: {exc}")


async def drive(url: str, games: int, moves: int, rules: str, pace: float) -> Stats:
    stats = Stats()
    limits = httpx.Limits(max_connections=games * 2, max_keepalive_connections=games * 2)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        await asyncio.gather(*(play(client, n, moves, rules, pace, stats) for n in range(games)))
    return stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    ap.add_argument("--moves", type=int, default=40, help="moves per game; 0: whole games (40)")
    ap.add_argument("--rules", default="encyclopedia-19c")
    ap.add_argument(
        "--pace",
        type=float,
        default=2.0,
        help="mean seconds a player thinks before each move (2.0); 0: flat out",
    )
    ap.add_argument("--database", default=None, help="database URL (default: SQLite, temp dir)")
    ap.add_argument("--redis", default=None, help="Redis URL, as for piquet serve")
    ap.add_argument("--sqlite-sync", default="full", choices=("full", "normal"))
    ap.add_argument("--url", default=None, help="drive a server already running at this URL")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)

    proc = None
    tmp = tempfile.TemporaryDirectory()
    url = args.url
    if url is None:
        port = free_port()
        cmd = [
            sys.executable,
            "-m",
            "piquet",
            "serve",
            "--port",
            str(port),
            "--rate-limit",
            "0",
            "--data",
            tmp.name,
            "--sqlite-sync",
            args.sqlite_sync,
        ]
        if args.database:
            cmd += ["--database", args.database]
        if args.redis:
            cmd += ["--redis", args.redis]
        log = open(Path(tmp.name) / "server.log", "wb")
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                print("the server did not start", file=sys.stderr)
                return 1
            time.sleep(0.1)
    try:
        t0 = time.perf_counter()
        stats = asyncio.run(drive(url, args.games, args.moves, args.rules, args.pace))
        wall = time.perf_counter() - t0
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(15)
        tmp.cleanup()
    ms = 1000.0
    figures = {
        "games": args.games,
        "moves_per_game": args.moves or "whole game",
        "pace_s": args.pace,
        "database": args.database or "sqlite",
        "actions": len(stats.act),
        "wall_s": round(wall, 2),
        "actions_per_s": round(len(stats.act) / wall, 1),
        "act_p50_ms": round(pct(stats.act, 50) * ms, 1),
        "act_p90_ms": round(pct(stats.act, 90) * ms, 1),
        "act_p99_ms": round(pct(stats.act, 99) * ms, 1),
        "act_max_ms": round(max(stats.act, default=0) * ms, 1),
        "view_p50_ms": round(pct(stats.view, 50) * ms, 1),
        "view_p99_ms": round(pct(stats.view, 99) * ms, 1),
        "finished_games": stats.finished,
        "errors": len(stats.errors),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:>16}: {v}")
        for e in stats.errors[:10]:
            print("error:", e)
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
