"""Issue 18, points 4 and 5: the server process and its database.

The computer's worker processes exit when the server is killed (SIGKILL, so no clean-up
runs); a database that fails is said plainly: ``{"error": ...}`` with 503, a health check
that answers 503, a SQLite file that vanishes or is replaced under a running server stops
the acknowledgements, and a damaged file at start-up gets one line saying what to do.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from serverkit import migrated_data
from test_web_kit import (
    START_CEILING,
    Server,
    bearer,
    client,
    create,
    friend_game,
    net,
    pick,
    poster,
)

ONE_WORKER = ["--ai-workers", "1"]
"""For the servers whose computer never plays (games between friends, health): one worker
process to start and warm, not one per core."""


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in out:
                out.add(child)
                todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_ai_workers_and_the_resource_tracker_exit_when_the_server_is_killed(
    tmp_path: Path,
) -> None:
    args = ["--data", str(tmp_path / "data"), "--ai-workers", "2"]
    # as a real server starts: its workers import the levels as they start (killed
    # mid-import, too, they must end)
    server = Server(args, cwd=tmp_path, start_up="as served").start()
    try:
        assert server.proc is not None
        # the workers start after the server answers: on a loaded machine, importing
        # took over the thirty seconds this wait once allowed (a ceiling: it ends as soon
        # as they are there)
        deadline = time.monotonic() + START_CEILING
        kids: set[int] = set()
        while time.monotonic() < deadline and len(kids) < 3:  # two workers, the tracker
            kids = _children(server.proc.pid)
            time.sleep(0.2)
        assert len(kids) >= 3, kids
        server.kill()
        deadline = time.monotonic() + 120  # a ceiling: a loaded machine is slow to reap
        while time.monotonic() < deadline and any(_alive(k) for k in kids):
            time.sleep(0.1)
        left = [k for k in kids if _alive(k)]
        assert not left, [Path(f"/proc/{k}/cmdline").read_bytes()[:120] for k in left]
    finally:
        server.stop()


def _move(base: str, gid: str, tokens: dict[int, str], rng: random.Random) -> httpx.Response:
    """The seat to act makes a random legal move (sending ``n``); the answer."""
    seat = net.get(base + f"/api/games/{gid}", headers=bearer(tokens[0])).json()["to_act"]
    game = net.get(base + f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
    return net.post(
        base + f"/api/games/{gid}/actions",
        json={"action": pick(game, rng), "n": game["n"]},
        headers=bearer(tokens[seat]),
    )


def _stored(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM piquet_actions").fetchone()[0])


def _healthy(base: str) -> None:
    """Health reports the database and Redis (here none: quotas per process)."""
    r = net.get(base + "/api/health")
    assert r.status_code == 200
    body = r.json()
    workers = body.pop("workers")
    assert body | {"version": "-"} == {
        "ok": True,
        "version": "-",
        "database": "ok",
        "redis": "off",
        "quotas": "per process",
    }
    assert workers["mode"] == "process" and workers["workers"] >= 1
    assert set(workers) == {"status", "mode", "workers", "alive", "replaced", "waiting",
                            "running", "done", "failed"}


def test_health_reports_the_database_and_a_full_disk_is_a_503_with_words(
    tmp_path: Path,
) -> None:
    """Health reports the database and Redis; then the file size limit of the server
    process is cut to less than its database holds (the kernel refuses the writes, as a
    full disk does): every write answers 503 with a JSON error, health answers 503; once
    there is room again both recover.  (One server for both: the health report was a test
    of its own, with a server of its own, the same but for its rate limit, which health
    does not report.)"""
    data = migrated_data(tmp_path / "data")
    server = Server(["--data", str(data), "--rate-limit", "0", *ONE_WORKER], cwd=tmp_path).start()
    assert server.proc is not None
    base = server.url
    try:
        _healthy(base)
        gid, tokens = friend_game(poster(base))
        rng = random.Random(9)
        assert _move(base, gid, tokens, rng).status_code == 200
        inf = resource.RLIM_INFINITY
        resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (4096, inf))
        for attempt in (
            lambda: _move(base, gid, tokens, rng),
            lambda: net.post(base + "/api/games", json={"opponent": "random"}),
        ):
            r = attempt()
            assert r.status_code == 503, r.text
            assert r.headers["content-type"] == "application/json"
            # the kernel's refusal reaches SQLite as an I/O error: said in plain words
            assert r.json()["error"] == (
                "the server cannot write to its disk (it may be full): nothing can be saved; "
                "nothing was changed: try again in a moment"), r.text
            assert r.headers["retry-after"] == "5"
        # health writes (a probe): a full disk fails it for as long as the disk is full
        for _ in range(3):
            health = net.get(base + "/api/health")
            assert health.status_code == 503 and health.headers["retry-after"] == "5"
            assert health.json()["database"] == "failing"
            assert health.json()["error"].startswith("the server cannot write to its disk")
            time.sleep(1.1)  # past the probe's interval: a new probe, not the memory of one
        resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (inf, inf))
        assert _move(base, gid, tokens, rng).status_code == 200
        assert net.get(base + "/api/health").status_code == 200
        assert _stored(data / "piquet.sqlite3") == 2
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_sqlite_file_gone_under_the_server_stops_the_acknowledgements(
    tmp_path: Path, how: str
) -> None:
    data = migrated_data(tmp_path / "data")
    db = data / "piquet.sqlite3"
    args = ["--data", str(data), "--rate-limit", "0", *ONE_WORKER]
    server = Server(args, cwd=tmp_path).start()
    base = server.url
    try:
        gid, tokens = friend_game(poster(base))
        rng = random.Random(10)
        for _ in range(3):
            assert _move(base, gid, tokens, rng).status_code == 200
        if how == "deleted":
            db.unlink()
        else:
            copy = tmp_path / "copy.sqlite3"
            shutil.copy(db, copy)
            os.replace(copy, db)
        answers = [_move(base, gid, tokens, rng) for _ in range(3)]
        answers.append(net.post(base + "/api/games", json={"opponent": "random"}))
        for r in answers:
            assert r.status_code == 503, r.text
            assert "was removed or replaced while it ran" in r.json()["error"]
            assert str(db) not in r.text and "piquet.sqlite3" not in r.text
        health = net.get(base + "/api/health")
        assert health.status_code == 503 and "removed or replaced" in health.json()["error"]
        assert "piquet.sqlite3" not in health.text
    finally:
        server.stop()
    assert f"was {how} while the server was running" in server.log.read_text()
    # nothing acknowledged went to a file nobody will open again
    server = Server(args, cwd=tmp_path).start()
    try:
        if how == "replaced":  # the copy holds every acknowledged move
            r = net.get(server.url + f"/api/games/{gid}", headers=bearer(tokens[0]))
            assert r.json()["n"] == 3
    finally:
        server.stop()


def test_a_damaged_sqlite_file_at_start_up_gets_one_line_saying_what_to_do(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "piquet.sqlite3").write_bytes(b"these are not the pages of a database\n" * 200)
    out = subprocess.run(
        [sys.executable, "-m", "piquet", "serve", "--data", str(data), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=START_CEILING,
        cwd=tmp_path,
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("piquet: error: the SQLite file ")
    assert "is damaged" in lines[0] and "restore it from a backup" in lines[0]


def test_a_port_in_use_is_one_line_and_never_said_to_be_served(tmp_path: Path) -> None:
    """It printed "serving the card table at ..." and then uvicorn's error.  The port is
    tried first, before the data directory is made or a database migrated: nothing is
    left behind."""
    import socket

    data = tmp_path / "data"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "piquet", "serve",
             "--data", str(data), "--host", "127.0.0.1", "--port", str(port)],
            capture_output=True, text=True, timeout=START_CEILING, cwd=tmp_path,
        )
    assert out.returncode == 2
    assert not data.exists()
    assert "serving" not in out.stdout
    lines = out.stderr.strip().splitlines()
    assert lines == [f"piquet: error: cannot listen on 127.0.0.1:{port}: the port is in use "
                     "(another server?); choose another with --port"], out.stderr


def test_a_damaged_page_found_while_serving_is_a_503_and_health_says_so(tmp_path: Path) -> None:
    """The page of the seats table is overwritten while the server is down; the server
    starts (nothing at start-up reads that page), and the first request that reads it
    answers 503 with words, as does the health check from then on.  (The game is made by
    the application in this process over the same file, stopped before the damage: a
    ``piquet serve`` started only to make it cost a process start.)"""
    data = migrated_data(tmp_path / "data")
    db = data / "piquet.sqlite3"
    args = ["--data", str(data), "--rate-limit", "0", *ONE_WORKER]
    with client(tmp_path, database=f"sqlite:///{db}") as c:
        made = create(c, opponent="friend")
    with sqlite3.connect(db) as conn:
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'piquet_seats'"
        ).fetchone()
    page = 4096
    with db.open("r+b") as f:
        f.seek((root - 1) * page)
        f.write(random.Random(1).randbytes(page))
    server = Server(args, cwd=tmp_path).start()
    try:
        r = net.get(server.url + f"/api/games/{made['id']}", headers=bearer(made["token"]))
        assert r.status_code == 503 and r.headers["content-type"] == "application/json"
        assert "database is damaged" in r.json()["error"] and "malformed" not in r.text
        health = net.get(server.url + "/api/health")
        assert health.status_code == 503 and "damaged" in health.json()["error"]
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()
