"""The job queue of the computer's work (piquet.jobs): priorities, quotas, a worker that
dies replaced and its job tried once more, a failure said in words.

The order is checked deterministically: one worker held by a job that waits on a gate
while the others are queued, then the gate opened and the order they ran in read.  The
tasks below are named ``"test_jobs:NAME"``: a spawned worker imports this module.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from piquet.jobs import JobFailed, JobQueue, Kind, QuotaFull, Quotas

GATE = threading.Event()
RAN: list[str] = []


def held(name: str) -> str:
    """A task that waits for the gate (thread mode: the test's own process)."""
    # a ceiling only (the test opens it after waits of up to 120 s each on a loaded machine)
    assert GATE.wait(600), "the gate was never opened"
    RAN.append(name)
    return name


def note(name: str) -> str:
    RAN.append(name)
    return name


def die_once(flag: str) -> int:
    """Kill its own worker the first time (``flag`` a file that says it did)."""
    path = Path(flag)
    if not path.exists():
        path.write_text("died")
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def hang() -> None:
    threading.Event().wait()


def fail(calls: str) -> None:
    with open(calls, "a") as f:
        f.write("x")
    raise ValueError("injected")


def wait_for(cond: Any, timeout: float = 120.0) -> None:
    """Until ``cond()`` holds (a generous ceiling: a loaded machine is slow)."""
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.01)


def test_the_light_level_list_agrees_with_the_players() -> None:
    from piquet.levels import LEVEL_NAMES, LEVEL_NOTES, default_level
    from piquet.players import LEVELS
    from piquet.players import default_level as registered_default

    assert list(LEVELS) == list(LEVEL_NAMES)
    assert set(LEVEL_NOTES) == set(LEVEL_NAMES)
    assert default_level() == registered_default()


def test_a_move_runs_before_hints_and_hints_before_analyses() -> None:
    """Queued while the one worker is busy: an analysis, a hint, two analyses, a move,
    a hint; they run move, hints (in order), analyses (in order)."""
    GATE.clear()
    RAN.clear()

    async def main() -> list[Any]:
        q = JobQueue(1, mode="thread", quotas=Quotas(hint=None, analysis=None))
        q.start()
        try:
            first = asyncio.ensure_future(q.run(Kind.MOVE, "test_jobs:held", "first"))
            await asyncio.to_thread(wait_for, lambda: q.health()["running"]["move"] == 1)
            order = [(Kind.ANALYSIS, "a1"), (Kind.HINT, "h1"), (Kind.ANALYSIS, "a2"),
                     (Kind.ANALYSIS, "a3"), (Kind.MOVE, "m1"), (Kind.HINT, "h2")]
            jobs = [asyncio.ensure_future(q.run(k, "test_jobs:note", name, client=name))
                    for k, name in order]
            await asyncio.to_thread(wait_for, lambda: len(q.waiting()) == len(order))
            assert q.waiting() == [(Kind.MOVE, "m1"), (Kind.HINT, "h1"), (Kind.HINT, "h2"),
                                   (Kind.ANALYSIS, "a1"), (Kind.ANALYSIS, "a2"),
                                   (Kind.ANALYSIS, "a3")]
            GATE.set()
            return await asyncio.gather(first, *jobs)
        finally:
            q.stop()

    results = asyncio.run(main())
    assert results == ["first", "a1", "h1", "a2", "a3", "m1", "h2"]
    assert RAN == ["first", "m1", "h1", "h2", "a1", "a2", "a3"]


def test_analyses_never_hold_the_last_worker() -> None:
    """Two workers, analyses queued from three clients: one analysis runs, the other
    worker stays free, and a move queued after them runs at once."""
    GATE.clear()
    RAN.clear()

    async def main() -> None:
        q = JobQueue(2, mode="thread")
        q.start()
        try:
            analyses = [asyncio.ensure_future(
                q.run(Kind.ANALYSIS, "test_jobs:held", f"a{i}", client=f"client {i}"))
                for i in range(3)]
            await asyncio.to_thread(wait_for, lambda: q.health()["running"]["analysis"] == 1)
            assert q.health()["waiting"]["analysis"] == 2
            assert await q.run(Kind.MOVE, "test_jobs:note", "move") == "move"
            assert RAN == ["move"]  # while every analysis still waits for the gate
            GATE.set()
            await asyncio.gather(*analyses)
        finally:
            q.stop()

    asyncio.run(main())


def test_hints_and_analyses_together_never_hold_the_last_worker() -> None:
    """Two workers: a hint holds one; an analysis queued after it waits (the other worker
    is kept for moves), and a move runs at once."""
    GATE.clear()
    RAN.clear()

    async def main() -> None:
        q = JobQueue(2, mode="thread")
        q.start()
        try:
            hint = asyncio.ensure_future(q.run(Kind.HINT, "test_jobs:held", "h", client="a"))
            await asyncio.to_thread(wait_for, lambda: q.health()["running"]["hint"] == 1)
            analysis = asyncio.ensure_future(
                q.run(Kind.ANALYSIS, "test_jobs:note", "a", client="b"))
            await asyncio.to_thread(wait_for, lambda: len(q.waiting()) == 1)
            assert await q.run(Kind.MOVE, "test_jobs:note", "move") == "move"
            assert RAN == ["move"] and q.waiting() == [(Kind.ANALYSIS, "b")]
            GATE.set()
            await asyncio.gather(hint, analysis)
            assert RAN == ["move", "h", "a"]
        finally:
            q.stop()

    asyncio.run(main())


def test_a_client_over_its_quota_is_refused_in_words_and_others_are_not() -> None:
    GATE.clear()

    async def main() -> None:
        q = JobQueue(1, mode="thread", quotas=Quotas(hint=2))
        q.start()
        try:
            two = [asyncio.ensure_future(q.run(Kind.HINT, "test_jobs:held", "h", client="ann"))
                   for _ in range(2)]
            await asyncio.to_thread(wait_for, lambda: q.health()["running"]["hint"] == 1)
            with pytest.raises(QuotaFull) as refused:
                await q.run(Kind.HINT, "test_jobs:held", "h", client="ann")
            assert refused.value.message == (
                "you already have 2 hints being made (at most 2 at once): ask again when "
                "one is ready")
            other = asyncio.ensure_future(q.run(Kind.HINT, "test_jobs:note", "b", client="bob"))
            GATE.set()
            await asyncio.gather(*two, other)
            # the quota is free again once they are done
            assert await q.run(Kind.HINT, "test_jobs:note", "c", client="ann") == "c"
        finally:
            q.stop()

    asyncio.run(main())


def test_a_failing_task_is_tried_twice_then_said_in_words(tmp_path: Path) -> None:
    calls = tmp_path / "calls"

    async def main() -> None:
        q = JobQueue(1, mode="thread")
        q.start()
        try:
            with pytest.raises(JobFailed) as failed:
                await q.run(Kind.HINT, "test_jobs:fail", str(calls))
            assert failed.value.message == "the hint could not be computed (ValueError: injected)"
            assert q.health()["failed"] == 1
        finally:
            q.stop()

    asyncio.run(main())
    assert calls.read_text() == "xx"


@pytest.mark.slow
def test_a_killed_worker_is_replaced_and_its_job_runs_again(tmp_path: Path) -> None:
    """A worker killed under its job: a new one starts and the job is done by it."""
    assert "test_jobs" in sys.modules  # (what the spawned workers import the tasks from)

    async def main() -> None:
        q = JobQueue(1, mode="process", warm=False)
        q.start()
        try:
            first = q.pids()
            pid = await q.run(Kind.MOVE, "test_jobs:die_once", str(tmp_path / "flag"))
            assert pid not in first and q.pids() == [pid]
            h = q.health()
            assert h["replaced"] == 1 and h["alive"] == 1 and h["status"] == "ok"
            # killed twice: said, never answered by anything else
            with pytest.raises(JobFailed) as failed:
                await q.run(Kind.MOVE, "test_jobs:die")
            assert failed.value.message == (
                "the computer's move could not be computed (the worker computing it "
                "stopped twice)")
            # a worker killed between jobs is replaced without waiting for a job
            os.kill(q.pids()[0], signal.SIGKILL)
            before = q.health()["replaced"]
            await asyncio.to_thread(wait_for, lambda: q.health()["replaced"] > before)
            await asyncio.to_thread(wait_for, lambda: q.health()["status"] == "ok")
            assert await q.run(Kind.HINT, "os:getpid") == q.pids()[0]
        finally:
            q.stop()

    asyncio.run(main())


@pytest.mark.slow
def test_a_hung_worker_is_stopped_at_its_jobs_time_limit_and_said() -> None:
    async def main() -> None:
        q = JobQueue(1, mode="process", warm=False, limits={Kind.HINT: 1.0})
        q.start()
        try:
            with pytest.raises(JobFailed) as failed:
                await q.run(Kind.HINT, "test_jobs:hang")
            assert failed.value.message == "the hint could not be computed (it took more than 1 s)"
            assert q.health()["replaced"] == 2
            assert await q.run(Kind.MOVE, "os:getpid") == q.pids()[0]  # no limit for moves
        finally:
            q.stop()

    asyncio.run(main())
