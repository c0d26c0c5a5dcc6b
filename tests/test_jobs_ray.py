"""The job queue's Ray transport (``piquet serve --jobs-ray ADDRESS``): the computer's
move, a hint and an analysis answered by Ray workers; a killed Ray worker and the next
move still from the same level; a task whose worker dies twice, or that raises, said in
words; and a web process without ``--jobs-ray`` that never imports Ray.

The Ray tests run on a local cluster of two CPUs (``local_ray``, conftest's, one for the
module); every wait is for a condition, with a generous ceiling for a loaded machine.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from piquet.jobs import JobFailed, JobQueue, Kind
from test_web_beyond import wait_ready
from test_web_faults_jobs import ai_moves_are, move, my_turn, play_until_the_computer_moves
from test_web_kit import bearer, client, create, pick, view


def test_the_computer_a_hint_and_an_analysis_through_ray(
    local_ray: None, tmp_path: Path
) -> None:
    with client(tmp_path, ai_executor="ray", ray_address="local", ai_workers=None) as c:
        jobs: JobQueue = c.app.state.piquet.jobs  # type: ignore[attr-defined]
        health = c.get("/api/health").json()["workers"]
        assert health["mode"] == "ray" and health["status"] == "ok"
        assert health["ray"] == {"address": "local", "nodes": 1, "cpus": 2}
        assert health["workers"] == 2  # the cluster's CPUs
        rng = random.Random(7)
        made = create(c, opponent="book", hints=True)
        gid, token = made["id"], made["token"]
        # the book's moves, and a hint, come from the Ray worker
        my_turn(c, gid, token)
        r = c.get(f"/api/games/{gid}/hint", headers=bearer(token))
        assert r.status_code == 200 and r.json()["hint"], r.text
        made_before = play_until_the_computer_moves(c, gid, token, rng, "book", 0)
        # a Ray worker killed (the one that answers the next job): the next move is still
        # the book's
        pid = asyncio.run(jobs.run(Kind.MOVE, "os:getpid"))
        assert pid != os.getpid()
        os.kill(pid, signal.SIGKILL)
        move(c, gid, token, rng)
        play_until_the_computer_moves(c, gid, token, rng, "book", made_before)
        assert ai_moves_are(c, gid, "book") > made_before
        # an analysis of a finished deal, on the cluster too (one deal: every deal is
        # analysed alike; on the kit's test budget)
        other = create(c, rules="rubicon", opponent="random")
        oid, otoken = other["id"], other["token"]
        deal_rng = random.Random(8)
        while True:
            seen = view(c, oid, otoken, wait=0.5)
            if seen["view"]["deals"]:
                break
            if seen["your_turn"]:
                r = c.post(f"/api/games/{oid}/actions", headers=bearer(otoken),
                           json={"action": pick(seen, deal_rng)})
                assert r.status_code == 200, r.text
        body = wait_ready(c, oid, otoken)
        assert body["deals"] and all(d["analysis"].get("play") is not None
                                     for d in body["deals"])
        workers = c.get("/api/health").json()["workers"]
        assert workers["failed"] == 0 and workers["done"] >= 4


def test_a_ray_worker_that_dies_twice_or_a_task_that_raises_is_said_in_words(
    local_ray: None,
) -> None:
    async def main() -> None:
        q = JobQueue(1, mode="ray", ray_address="local")
        q.start()
        try:
            with pytest.raises(JobFailed) as died:
                await q.run(Kind.HINT, "os:_exit", 3)
            assert died.value.message == (
                "the hint could not be computed (the worker computing it stopped twice)")
            assert q.health()["replaced"] == 2
            with pytest.raises(JobFailed) as raised:
                await q.run(Kind.ANALYSIS, "math:sqrt", -1)
            assert raised.value.message == (
                "the analysis could not be computed (ValueError: math domain error)")
            assert await q.run(Kind.MOVE, "math:sqrt", 4) == 2.0  # and it works on
            assert q.health()["failed"] == 2
        finally:
            q.stop()

    # a cluster that never gives a job a worker fails the test in words, not by hanging
    asyncio.run(asyncio.wait_for(main(), 300))


def test_a_bad_ray_queue_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="address goes with mode 'ray'"):
        JobQueue(1, mode="ray")
    with pytest.raises(ValueError, match="'process', 'thread' or 'ray'"):
        JobQueue(1, mode="celery")


def test_without_jobs_ray_the_web_process_never_imports_ray() -> None:
    """``import ray`` costs about 58 MB: only ``--jobs-ray`` loads it."""
    code = (
        "import sys, piquet.cli.serve_cmd, piquet.web.app, piquet.jobs\n"
        "from piquet.jobs import JobQueue\n"
        "q = JobQueue(1, mode='thread'); q.start(); print(q.health()['status']); q.stop()\n"
        "assert 'ray' not in sys.modules, 'ray imported'\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize(("address", "words"), [
    ("127.0.0.1:1", "cannot join the Ray cluster at '127.0.0.1:1': nothing answers there"),
    ("head-without-port", "a Ray cluster's address is host:port"),
])
def test_an_unreachable_ray_cluster_stops_the_server_in_words(
    tmp_path: Path, address: str, words: str
) -> None:
    pytest.importorskip("ray")
    out = subprocess.run(
        [sys.executable, "-m", "piquet", "serve", "--data", str(tmp_path / "data"),
         "--port", "1", "--jobs-ray", address],
        capture_output=True, text=True, check=False, timeout=300, cwd=tmp_path)
    assert out.returncode == 2, out.stderr
    assert words in out.stderr and "Traceback" not in out.stderr, out.stderr
