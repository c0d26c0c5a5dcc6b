"""The server's CPU per action, in one process, without sockets: more precise than
``bench_web.py`` on a shared machine (no client, no kernel, no other process in the
figure), for seeing what one change to the application is worth.

Builds the application (``create_app``, SQLite in a temporary directory, the job workers
as threads, no analyses as the deals end) and calls it as uvicorn does (ASGI scopes and
messages, no sockets): ``--games`` games against ``random`` at once, each doing what
``bench_web.py``'s client does (wait for its turn with ``GET /api/games/{id}?wait=20``,
choose a random legal action, post it), flat out, ``--moves`` moves each.  Reports the
CPU of the whole process (its threads: the event loop, the group commit's writer) and of
the event loop's thread alone, per action (the client's and the computer's), in
microseconds, the median of ``--rounds`` runs, each on a fresh server.  The requests'
own making and reading (a few microseconds each) is in the figure; the HTTP parsing and
the answer's write to the socket (uvicorn's) are not: ``bench_web.py`` measures those.

``--database postgresql://...`` runs it over PostgreSQL instead (a shared database: each
game read from memory only while PostgreSQL's news says it is current); the figure then
leaves out the PostgreSQL server's own CPU, and ``statements_per_action`` (the SQL
statements the application sent, per action: each a round trip to the database, and work
for its server) says what the database was asked.

``--src DIR`` runs another tree's application (main's, from ``git archive``), so two
versions can be compared in turn on one machine; ``--profile FILE`` writes a cProfile of
the event loop's thread (its CPU time) for the last round.

    .venv/bin/python bench/bench_web_cost.py --games 50 --moves 15 --rounds 5
    .venv/bin/python bench/bench_web_cost.py --src /tmp/main/src --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def _pick(game: dict[str, Any], rng: random.Random) -> str:
    from bench_web import pick

    return pick(game, rng)


class Client:
    """Requests straight into the ASGI application, as uvicorn makes them."""

    def __init__(self, app: Any, n: int) -> None:
        self.app = app
        self.client = (f"127.0.0.{2 + n % 250}", 40000 + n)

    async def request(self, method: str, path: str, *, query: bytes = b"",
                      body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = [(b"host", b"127.0.0.1:8000"), (b"accept", b"*/*")]
        data = b""
        if token is not None:
            headers.append((b"authorization", b"Bearer " + token.encode()))
        if body is not None:
            data = json.dumps(body).encode()
            headers += [(b"content-type", b"application/json"),
                        (b"content-length", str(len(data)).encode())]
        scope = {
            "type": "http", "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1", "server": ("127.0.0.1", 8000), "client": self.client,
            "scheme": "http", "method": method, "root_path": "", "path": path,
            "raw_path": path.encode(), "query_string": query, "headers": headers,
            "state": {},
        }
        sent = False
        never = asyncio.get_running_loop().create_future()

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": data, "more_body": False}
            await never
            return {"type": "http.disconnect"}

        status = 0
        parts: list[bytes] = []

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        await self.app(scope, receive, send)
        never.cancel()
        return status, json.loads(b"".join(parts))


def _same_deals() -> None:
    """The games' seeds and tokens drawn from one seeded generator, not the system's."""
    import base64

    import piquet.web.games as games

    rng = random.Random(1)

    class Seeded:
        @staticmethod
        def randbelow(n: int) -> int:
            return rng.randrange(n)

        @staticmethod
        def token_urlsafe(n: int) -> str:
            return base64.urlsafe_b64encode(rng.randbytes(n)).rstrip(b"=").decode()

    setattr(games, "secrets", Seeded)  # noqa: B010 (the module's own name for it)


async def one_game(app: Any, n: int, moves: int, counts: list[int]) -> None:
    rng = random.Random(n)
    c = Client(app, n)
    status, made = await c.request("POST", "/api/games", body={
        "rules": "encyclopedia-19c", "opponent": "random", "hints": False})
    assert status == 201, made
    gid, token = made["id"], made["token"]
    done = 0
    last = 0
    while done < moves:
        status, game = await c.request("GET", f"/api/games/{gid}", query=b"wait=20",
                                       token=token)
        assert status == 200, game
        last = game["n"]
        if game["finished"]:
            break
        if not game["your_turn"]:
            continue
        status, after = await c.request("POST", f"/api/games/{gid}/actions",
                                        body={"action": _pick(game, rng)}, token=token)
        assert status == 200, after
        last = after["n"]
        done += 1
    counts.append(last)


async def _lifespan(app: Any, started: asyncio.Event, stop: asyncio.Event) -> None:
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "lifespan.startup"}
        await stop.wait()
        return {"type": "lifespan.shutdown"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "lifespan.startup.complete":
            started.set()
        elif message["type"].endswith("failed"):
            raise RuntimeError(message)

    await app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send)


async def one_round(args: argparse.Namespace, profile: cProfile.Profile | None
                    ) -> dict[str, Any]:
    import sqlalchemy as sa

    from piquet.web.app import WebConfig, create_app
    from piquet.web.store import database_url

    with tempfile.TemporaryDirectory() as tmp:
        db = (database_url(args.database, Path(tmp)) if args.database
              else f"sqlite:///{tmp}/games.sqlite3")
        app = create_app(WebConfig(
            database=db, rate=0.0, create_per_minute=0.0,
            ai_executor="thread", ai_workers=1, analyse_as_played=False,
            sqlite_sync=args.sqlite_sync, sockets_per_client=0))
        started, stop = asyncio.Event(), asyncio.Event()
        life = asyncio.ensure_future(_lifespan(app, started, stop))
        await started.wait()
        news = getattr(app.state.piquet.games, "news", None)
        if news is not None:  # (this tree's: listening before the games start)
            await asyncio.to_thread(news.wait_ready, 30)
        # a first game, unmeasured: what the first request of each kind builds lazily
        await one_game(app, 10**6, 2, [])
        statements = [0]
        kinds: dict[str, int] = {}

        def count(_conn: Any, _cur: Any, statement: str, *_args: Any) -> None:
            statements[0] += 1
            word = " ".join(statement.split()[:4])
            kinds[word] = kinds.get(word, 0) + 1

        engine = app.state.piquet.store.engine
        sa.event.listen(engine, "before_cursor_execute", count)
        counts: list[int] = []
        cpu0, loop0, t0 = time.process_time(), time.thread_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        await asyncio.gather(*(one_game(app, n, args.moves, counts)
                               for n in range(args.games)))
        if profile is not None:
            profile.disable()
        cpu, loop, wall = (time.process_time() - cpu0, time.thread_time() - loop0,
                           time.perf_counter() - t0)
        sa.event.remove(engine, "before_cursor_execute", count)
        stop.set()
        await life
    actions = sum(counts)
    return {"actions": actions, "wall_s": wall, "cpu_us_per_action": cpu / actions * 1e6,
            "loop_us_per_action": loop / actions * 1e6,
            "statements_per_action": statements[0] / actions, "kinds": kinds}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--moves", type=int, default=15)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sqlite-sync", default="normal", choices=("full", "normal"))
    ap.add_argument("--src", default=None, help="import piquet from this source tree")
    ap.add_argument("--profile", default=None, metavar="FILE",
                    help="cProfile of the event loop's thread (CPU time), last round")
    ap.add_argument("--same-deals", action="store_true",
                    help="the same games' seeds and tokens in every run (for a count of "
                    "instructions, e.g. under valgrind, that two versions share)")
    ap.add_argument("--database", default=None, metavar="URL",
                    help="postgresql://USER@HOST/DB instead of SQLite in a temporary "
                    "directory")
    ap.add_argument("--statements", action="store_true",
                    help="also say the statements of the last round, by their first words")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    import logging

    logging.getLogger("piquet.web").setLevel(logging.ERROR)
    if args.same_deals:
        _same_deals()
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    rounds = []
    for i in range(args.rounds):
        profile = (cProfile.Profile(time.thread_time)
                   if args.profile and i == args.rounds - 1 else None)
        rounds.append(runner(one_round(args, profile)))
        if profile is not None:
            profile.dump_stats(args.profile)
    import piquet

    out = {
        "src": str(Path(piquet.__file__).parent),
        "games": args.games, "moves": args.moves, "rounds": args.rounds,
        "actions": rounds[-1]["actions"],
        "cpu_us_per_action": round(statistics.median(r["cpu_us_per_action"]
                                                     for r in rounds), 1),
        "loop_us_per_action": round(statistics.median(r["loop_us_per_action"]
                                                      for r in rounds), 1),
        "runs_cpu": [round(r["cpu_us_per_action"], 1) for r in rounds],
        "statements_per_action": round(statistics.median(r["statements_per_action"]
                                                         for r in rounds), 2),
        "database": "postgresql" if args.database else "sqlite",
        **({"statements": rounds[-1]["kinds"]} if args.statements else {}),
        "load": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(out) if args.json else "\n".join(f"{k:>20}: {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
