"""Past one process: two ``piquet serve`` share one PostgreSQL database and fan live
updates out through Redis; a game is played with one seat on each process.

Uses the PostgreSQL (database ``test``) and Redis running on this machine; each run works
in a schema of its own, dropped at the end.  Skipped when either is not there.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from piquet.core.match import Match
from piquet.web.store import NewSeat, Store, database_url
from test_web_kit import (
    START_CEILING,
    accept,
    offer,
    pick,
    poster,
)


def _race(store: Store) -> None:
    store.create_game(
        game_id="race",
        rules="rubicon",
        format="game",
        seed=5,
        games_to_play=1,
        hints=False,
        seats=[NewSeat("human", None, "a", None, None), NewSeat("human", None, "b", None, None)],
    )
    for idx in range(20):
        barrier = threading.Barrier(4)

        def write(k: int, idx: int = idx, barrier: threading.Barrier = barrier) -> bool:
            barrier.wait()
            return store.append("race", idx=idx, revision=0, player=0, action=f"pass-{k}",
                                finished=False)

        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(write, range(4)))
        assert sum(results) == 1, results  # exactly one writer wins each index
    log = store.actions("race")
    assert [a.idx for a in log] == list(range(20))
    assert store.game("race").n_actions == 20  # type: ignore[union-attr]


def test_sqlite_appends_race_safely(tmp_path: Path) -> None:
    store = Store.open(database_url(None, tmp_path))
    try:
        _race(store)
    finally:
        store.close()


def test_postgresql_appends_race_safely(pg_empty_url: str) -> None:
    store = Store.open(database_url(pg_empty_url, Path(".")))  # migrates the empty schema
    try:
        _race(store)
        # migrating again is a no-op
        Store.open(database_url(pg_empty_url, Path("."))).close()
    finally:
        store.close()


class Seat:
    """One player: HTTP to one server, a WebSocket to the same server."""

    def __init__(self, base: str, game_id: str, token: str) -> None:
        self.base = base
        self.game_id = game_id
        self.token = token
        self.http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"})
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(
            connect(base.replace("http", "ws") + f"/api/games/{game_id}/ws")
        )
        self.ws.send(json.dumps({"token": token}))
        self.n = -1
        self.last: dict[str, Any] = self.receive()

    def receive(self, until_n: int | None = None, timeout: float = 120) -> dict[str, Any]:
        if until_n is not None and self.n >= until_n:
            return self.last
        while True:
            msg = json.loads(self.ws.recv(timeout=timeout))
            if msg["type"] == "live":
                # a blip of live updates (a loaded machine's Redis answering late): the
                # news missed meanwhile comes once it is back
                continue
            assert msg["type"] == "view", msg
            self.last = msg["view"]
            self.n = self.last["n"]
            if until_n is None or self.n >= until_n:
                return self.last

    def act(self, action: str) -> dict[str, Any]:
        r = self.http.post(f"/api/games/{self.game_id}/actions", json={"action": action})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def close(self) -> None:
        self.stack.close()
        self.http.close()


def test_two_processes_share_a_game_through_postgresql_and_redis(
    pg_servers: Any, redis_url: str
) -> None:
    # a game between friends, its deals' analyses never read: one worker a process, no
    # analysis as each deal ends (at full strength, most of what this test cost)
    with pg_servers("--redis", redis_url, "--ai-workers", "1",
                    "--analysis-on-request") as (a, b):
        made = offer(poster(a.url), rules="encyclopedia-19c")
        gid = made["id"]
        near = Seat(a.url, gid, made["token"])
        # the friend joins through the other process
        far = accept(poster(b.url), made, "Far")
        # the join on B reaches the WebSocket on A
        assert near.receive()["seats"][1]["name"] == "Far"
        seats = {0: near, 1: Seat(b.url, gid, far)}
        rng = random.Random(11)
        steps = 0
        while not seats[0].last["finished"]:
            p = seats[0].last["to_act"]
            mover = seats[p]
            game = mover.act(pick(mover.last, rng))
            steps += 1
            # both seats hear of it at once, each from its own process
            for s in seats.values():
                assert s.receive(until_n=game["n"])["n"] == game["n"]
        assert steps > 50
        # both processes agree on the end, and the stored log replays to it
        ends = [s.http.get(f"/api/games/{gid}").json() for s in seats.values()]
        assert all(e["finished"] for e in ends)
        assert ends[0]["result"] == ends[1]["result"]
        record = seats[1].http.get(f"/api/games/{gid}/record").json()
        assert Match.from_record(record).result() == ends[0]["result"]
        for s in seats.values():
            s.close()


def test_serve_gives_a_clear_error_for_an_unreachable_database(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "piquet",
            "serve",
            "--database",
            "postgresql://nobody@127.0.0.1:1/none",
        ],
        capture_output=True,
        text=True,
        timeout=START_CEILING,
        cwd=tmp_path,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("piquet: error: cannot open the database")
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("url", ["notaurl", "redis://127.0.0.1:99999/0", "http://x/0"])
def test_serve_gives_a_clear_error_for_a_malformed_redis_url(tmp_path: Path, url: str) -> None:
    """A malformed ``--redis`` printed "serving the card table", then some fifty lines of
    traceback from the application's start-up (an unreachable one is served without)."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "piquet", "serve", "--data", str(tmp_path / "d"), "--redis", url],
        capture_output=True, text=True, timeout=START_CEILING, cwd=tmp_path,
    )
    assert out.returncode == 2
    assert out.stderr.startswith(f"piquet: error: --redis {url}: ")
    assert "redis://127.0.0.1:6379/0" in out.stderr
    assert "Traceback" not in out.stderr and "serving" not in out.stdout
