"""The job queue: the computer's moves before hints before analyses, per-client quotas,
workers replaced when they die and a job retried once.

A :class:`JobQueue` holds ``workers`` slots.  Each slot is a thread of the web process
that takes the next job (:meth:`JobQueue._next`: the first waiting job of the most urgent
kind, :class:`Kind`; first come, first served within a kind) and hands it to its own
worker process (``mode="process"``, the server's default: spawned, :mod:`piquet.jobs.worker`)
or runs it itself (``mode="thread"``: the tests, where starting processes costs more
than the work), or hands it to a Ray cluster as a task (``mode="ray"``: workers on other
machines, :mod:`piquet.jobs.remote`; ``ray`` is imported in that mode only).  The web
process only queues, waits and answers: the code the jobs run (the players, the
advisor, the analysis; :mod:`piquet.jobs.work`) is imported in the workers alone.

Faults, said plainly:

* a worker that dies (killed, out of memory, a crash of compiled code), or hangs past its
  job's time limit (:data:`TIME_LIMITS`, process mode) and is stopped, is replaced at
  once by a fresh one, and the job it held is run again, once, ahead of its kind;
  a job whose worker dies twice, or whose task raises twice, fails with
  :class:`JobFailed` saying what could not be done, never a silent stand-in;
* a client over its quota of a kind (:class:`Quotas`) is refused with
  :class:`QuotaFull`, saying how many it has going and when to ask again; with
  ``shared`` (:class:`~piquet.jobs.shared.SharedQuotas`, several web processes over one
  Redis) the quota is counted across the processes, and per process while Redis is down;
* hints and analyses together take at most all the slots but one (where there are two or
  more), so a move never waits for a hint or an analysis, however many are queued; and
  analyses at most ``analysis_slots`` (by default all but two, at least one), so that
  with three workers or more a hint does not wait for them either.
"""

from __future__ import annotations

import asyncio
import collections
import enum
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, Final

from piquet.jobs.shared import SharedFull, SharedQuotas

if TYPE_CHECKING:
    from piquet.jobs.remote import RayJobs

__all__ = ["JobFailed", "JobQueue", "Kind", "QuotaFull", "Quotas"]

log = logging.getLogger("piquet.jobs")


class Kind(enum.IntEnum):
    """What a job is; the lower, the sooner it runs."""

    MOVE = 0
    HINT = 1
    ANALYSIS = 2

    @property
    def words(self) -> str:
        return _WORDS[self]


_WORDS: Final = {
    Kind.MOVE: "the computer's move",
    Kind.HINT: "the hint",
    Kind.ANALYSIS: "the analysis",
}
IDLE_LOOK: Final = 0.5
"""Seconds between an idle slot's looks at whether its worker is still alive."""
_COUNTED: Final = {
    Kind.MOVE: ("move", "moves"),
    Kind.HINT: ("hint", "hints"),
    Kind.ANALYSIS: ("analysis", "analyses"),
}
TIME_LIMITS: Final = {Kind.MOVE: 120.0, Kind.HINT: 300.0, Kind.ANALYSIS: 1800.0}
"""Seconds a job may run, by kind: far beyond what a loaded machine takes (a move's budget
is seconds, a deal's analysis a minute at worst), so only a worker that hangs meets it."""
ATTEMPTS: Final = 2
"""Times a job is tried: once, and once more if its worker died or its task failed."""


class JobFailed(Exception):
    """A job that could not be done, after its retry; ``message`` says it in words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class QuotaFull(Exception):
    """A client asked for more jobs of a kind than its quota; ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int = 5) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Quotas:
    """Jobs one client may have queued or running at once, by kind (None: no limit);
    ``analysis_slots``: workers that analyses may hold at once (None: all but two, at
    least one)."""

    move: int | None = None
    hint: int | None = 2
    analysis: int | None = 2
    analysis_slots: int | None = None

    def of(self, kind: Kind) -> int | None:
        return {Kind.MOVE: self.move, Kind.HINT: self.hint, Kind.ANALYSIS: self.analysis}[kind]


@dataclass(eq=False, slots=True)
class _Job:
    kind: Kind
    task: str
    args: tuple[Any, ...]
    client: str | None
    settle: Callable[[bool, Any], None]
    attempts: int = 0
    cancelled: bool = False
    errors: list[str] = field(default_factory=list)


class _Died(Exception):
    """The worker process running a job died."""


class _TooLong(Exception):
    """The job ran past its kind's time limit (its worker was stopped)."""


class _Slot:
    """One worker: a thread of the web process and (in process mode) its process."""

    def __init__(self, queue: JobQueue, number: int) -> None:
        self.queue = queue
        self.number = number
        self.proc: BaseProcess | None = None
        self.conn: Connection | None = None
        self.job: _Job | None = None
        self.started = 0.0
        self.thread = threading.Thread(
            target=self._loop, name=f"piquet-jobs-{number}", daemon=True
        )

    # ------------------------------------------------------------------ the process
    def spawn(self) -> None:
        from piquet.jobs.worker import serve

        ctx = multiprocessing.get_context("spawn")
        mine, theirs = ctx.Pipe(duplex=True)
        proc = ctx.Process(
            target=serve,
            args=(theirs, os.getpid(), self.queue.warm),
            name=f"piquet-job-worker-{self.number}",
            daemon=True,
        )
        proc.start()
        self.started = time.monotonic()
        theirs.close()
        self.proc, self.conn = proc, mine

    def alive(self) -> bool:
        if self.queue.mode == "thread":
            return self.thread.is_alive()
        if self.queue.ray is not None:  # a slot can run its jobs while the cluster has CPUs
            return self.thread.is_alive() and self.queue.ray.cpus() > 0
        return self.proc is not None and self.proc.is_alive()

    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def _reap(self) -> None:
        """Forget a dead (or unanswering) worker and start a fresh one."""
        proc, conn = self.proc, self.conn
        self.proc = self.conn = None
        if conn is not None:
            conn.close()
        if proc is not None:
            if proc.is_alive():
                proc.kill()
            proc.join(5)
        if not self.queue.stopping:
            # one that dies as it starts (it cannot import, say) is not restarted in a
            # tight loop: at most once a second
            time.sleep(max(0.0, self.started + 1.0 - time.monotonic()))
            self.queue.replaced += 1
            log.warning("job worker %s stopped (exit %s); a new one is started",
                        self.number, None if proc is None else proc.exitcode)
            self.spawn()

    def _run_in_process(self, job: _Job) -> Any:
        if self.proc is None or self.conn is None or not self.proc.is_alive():
            self._reap()
        assert self.proc is not None and self.conn is not None
        limit = self.queue.limits.get(job.kind)
        deadline = None if limit is None else time.monotonic() + limit
        try:
            self.conn.send((job.task, job.args))
            while True:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                ready = wait([self.conn, self.proc.sentinel], left)
                if self.conn in ready:
                    ok, value = self.conn.recv()
                    break
                if self.proc.sentinel in ready:
                    raise _Died
                if not ready:  # past its time: the worker is stopped and replaced
                    raise _TooLong
        except _TooLong:
            self._reap()
            raise
        except (EOFError, OSError, _Died):
            self._reap()
            raise _Died from None
        if not ok:
            raise RuntimeError(value)
        return value

    def _run_on_ray(self, job: _Job) -> Any:
        from piquet.jobs.remote import Died, TaskError, TooLong

        assert self.queue.ray is not None
        try:
            return self.queue.ray.run(job.task, job.args, self.queue.limits.get(job.kind))
        except Died:  # Ray starts another worker in its place: counted as replaced
            with self.queue._cond:
                self.queue.replaced += 1
            raise _Died from None
        except TooLong:
            raise _TooLong from None
        except TaskError as exc:
            raise RuntimeError(str(exc)) from None

    def _run_here(self, job: _Job) -> Any:
        from piquet.jobs.work import resolve

        try:
            return resolve(job.task)(*job.args)
        except Exception as exc:
            raise RuntimeError(f"{type(exc).__name__}: {exc}") from exc

    # ------------------------------------------------------------------ the loop
    def _loop(self) -> None:
        q = self.queue
        while True:
            if q.mode == "process" and not q.stopping and not self.alive():
                self._reap()  # died between jobs: replaced now, not at the next job
            job = q._next(self)
            if job is None:
                if q.stopping:
                    return
                continue
            job.attempts += 1
            try:
                if q.mode == "process":
                    value = self._run_in_process(job)
                elif q.mode == "ray":
                    value = self._run_on_ray(job)
                else:
                    value = self._run_here(job)
            except _Died:
                job.errors.append("its worker stopped")
                q._done(self, job, None)
            except _TooLong:
                job.errors.append(f"it took more than {q.limits[job.kind]:g} s")
                q._done(self, job, None)
            except RuntimeError as exc:
                job.errors.append(str(exc))
                q._done(self, job, None)
            else:
                q._done(self, job, (value,))


class JobQueue:
    """The computer's work, queued by kind and run by ``workers`` worker slots.

    ``mode``: ``process`` (each slot a spawned worker process; the server's default),
    ``thread`` (each slot runs its jobs itself) or ``ray`` (each slot hands its jobs to
    the Ray cluster at ``ray_address``, as tasks; ``workers`` by default the cluster's
    CPUs when it starts).  ``warm``: workers import the levels as
    they start; ``limits``: seconds a job of each kind may run (process mode;
    :data:`TIME_LIMITS` by default).  :meth:`start` starts the slots (in process mode
    the workers start importing at once, without being waited for); :meth:`run` queues a
    job and awaits its result.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        mode: str = "process",
        quotas: Quotas | None = None,
        warm: bool = True,
        limits: dict[Kind, float] | None = None,
        ray_address: str | None = None,
        shared: SharedQuotas | None = None,
    ) -> None:
        if mode not in ("process", "thread", "ray"):
            raise ValueError(
                f"the job workers are 'process', 'thread' or 'ray', not {mode!r}")
        if (mode == "ray") != (ray_address is not None):
            raise ValueError("a Ray cluster's address goes with mode 'ray', and only there")
        if workers is not None and workers < 0:
            raise ValueError(f"the job queue needs at least one worker, not {workers}")
        workers = workers or None
        self.mode = mode
        self.ray: RayJobs | None = None
        if ray_address is not None:
            from piquet.jobs.remote import RayJobs

            self.ray = RayJobs(ray_address)
        self.quotas = quotas or Quotas()
        self.shared = shared
        """Where the quotas are counted across web processes (None: in this one only)."""
        self.warm = warm
        self.limits = dict(TIME_LIMITS if limits is None else limits)
        """Seconds a job of each kind may run (process and Ray modes) before its worker is
        stopped and replaced (or its task cancelled) and the job tried again (or said to
        have failed)."""
        self.replaced = 0
        self.failed = 0
        self.done = 0
        self.stopping = False
        self._cond = threading.Condition()
        self._waiting: dict[Kind, collections.deque[_Job]] = {
            k: collections.deque() for k in Kind
        }
        self._running: dict[Kind, int] = {k: 0 for k in Kind}
        self._held: collections.Counter[tuple[str, Kind]] = collections.Counter()
        self._slots: list[_Slot] = []
        if mode != "ray" or workers is not None:
            self._make_slots(workers or max(1, min(4, os.cpu_count() or 1)))
        self._started = False

    def _make_slots(self, n: int) -> None:
        self.analysis_slots = self.quotas.analysis_slots or max(1, n - 2)
        self.other_slots = max(1, n - 1)
        """Workers that hints and analyses may hold together: one is kept for moves."""
        self._slots = [_Slot(self, i) for i in range(n)]

    @property
    def workers(self) -> int:
        return len(self._slots)

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Start the slots (and their worker processes); returns at once (in Ray mode, once
        this process has joined the cluster: :class:`~piquet.jobs.remote.RayUnavailable`
        if it cannot)."""
        if self._started:
            return
        if self.ray is not None:
            self.ray.start()
            if not self._slots:
                self._make_slots(max(1, self.ray.cpus()))
        self._started = True
        for slot in self._slots:
            if self.mode == "process":
                slot.spawn()
            slot.thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the slots and their workers; queued jobs fail as the server stops."""
        with self._cond:
            self.stopping = True
            left = [j for d in self._waiting.values() for j in d]
            for d in self._waiting.values():
                d.clear()
            self._cond.notify_all()
        if self.ray is not None:
            self.ray.stop()  # the slots' waits on the cluster end (within a second)
        for job in left:
            job.settle(False, JobFailed("the server is stopping"))
        for slot in self._slots:
            if slot.conn is not None and slot.job is None:
                try:
                    slot.conn.send(None)
                except OSError:
                    pass
        deadline = time.monotonic() + timeout
        for slot in self._slots:
            if slot.thread.is_alive() and slot.job is None:
                slot.thread.join(max(0.0, deadline - time.monotonic()))
            if slot.proc is not None:
                slot.proc.join(max(0.0, deadline - time.monotonic()))
                if slot.proc.is_alive():
                    slot.proc.kill()
                    slot.proc.join(1)
            if slot.conn is not None:
                slot.conn.close()

    # ------------------------------------------------------------------ queueing
    def submit(
        self,
        kind: Kind,
        task: str,
        *args: Any,
        client: str | None = None,
        settle: Callable[[bool, Any], None],
    ) -> Callable[[], None]:
        """Queue a job; ``settle(ok, result or exception)`` is called once, from a slot's
        thread.  Raises :class:`QuotaFull` if ``client`` is over its quota of ``kind``.
        Returns a function that withdraws the job if it has not started."""
        job = _Job(kind, task, tuple(args), client, settle)
        with self._cond:
            if self.stopping:
                raise JobFailed("the server is stopping")
            limit = self.quotas.of(kind)
            if client is not None and limit is not None:
                held = self._held[(client, kind)]
                if held >= limit:
                    raise _over(kind, held, limit)
                self._held[(client, kind)] += 1
            self._waiting[kind].append(job)
            self._cond.notify()

        def withdraw() -> None:
            with self._cond:
                job.cancelled = True
                try:
                    self._waiting[job.kind].remove(job)
                except ValueError:
                    return  # running or done: its result is dropped
                self._release(job)

        return withdraw

    async def run(self, kind: Kind, task: str, *args: Any, client: str | None = None) -> Any:
        """Queue a job and await its result; raises :class:`QuotaFull` at once for a
        client over its quota, :class:`JobFailed` when the job failed twice."""
        limit = self.quotas.of(kind)
        if self.shared is None or client is None or limit is None:
            return await self._run(kind, task, args, client)
        what = kind.name.lower()
        try:
            token = await self.shared.take(client, what, limit,
                                           self.limits.get(kind, 600.0) * ATTEMPTS + 60.0)
        except SharedFull as full:
            raise _over(kind, full.held, limit) from None
        try:
            return await self._run(kind, task, args, client)
        finally:
            await self.shared.give(client, what, token)

    async def _run(self, kind: Kind, task: str, args: tuple[Any, ...],
                   client: str | None) -> Any:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()

        def settle(ok: bool, value: Any) -> None:
            def put() -> None:
                if fut.done():
                    return
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(value)

            try:
                loop.call_soon_threadsafe(put)
            except RuntimeError:  # the loop is closed: nobody awaits it any more
                pass

        withdraw = self.submit(kind, task, *args, client=client, settle=settle)
        try:
            return await fut
        except asyncio.CancelledError:
            withdraw()
            raise

    # ------------------------------------------------------------------ the slots' side
    def _release(self, job: _Job) -> None:
        if job.client is not None and self.quotas.of(job.kind) is not None:
            key = (job.client, job.kind)
            self._held[key] -= 1
            if self._held[key] <= 0:
                del self._held[key]

    def _pick(self) -> _Job | None:
        others = self._running[Kind.HINT] + self._running[Kind.ANALYSIS]
        for kind in Kind:
            if kind is not Kind.MOVE and others >= self.other_slots:
                continue
            if kind is Kind.ANALYSIS and self._running[kind] >= self.analysis_slots:
                continue
            if self._waiting[kind]:
                return self._waiting[kind].popleft()
        return None

    def _next(self, slot: _Slot) -> _Job | None:
        """The slot's next job; None when stopping, or after a while without one (the
        slot then looks at its worker)."""
        with self._cond:
            if self.stopping:
                return None
            job = self._pick()
            if job is None:
                self._cond.wait(IDLE_LOOK)
                if self.stopping:
                    return None
                job = self._pick()
                if job is None:
                    return None
            self._running[job.kind] += 1
            slot.job = job
            return job

    def _done(self, slot: _Slot, job: _Job, result: tuple[Any] | None) -> None:
        with self._cond:
            self._running[job.kind] -= 1
            slot.job = None
            if result is None and job.attempts < ATTEMPTS and not job.cancelled \
                    and not self.stopping:
                self._waiting[job.kind].appendleft(job)  # once more, ahead of its kind
                self._cond.notify_all()
                return
            self._release(job)
            if result is None:
                self.failed += 1
            else:
                self.done += 1
            self._cond.notify_all()  # an analysis slot may have come free
        if job.cancelled:
            return
        if result is not None:
            job.settle(True, result[0])
        else:
            log.warning("job %s failed: %s", job.task, "; ".join(job.errors))
            job.settle(False, JobFailed(_failure(job)))

    # ------------------------------------------------------------------ looking
    def waiting(self) -> list[tuple[Kind, str | None]]:
        """The jobs waiting, in the order they will run (kind and client)."""
        with self._cond:
            return [(j.kind, j.client) for k in Kind for j in self._waiting[k]]

    def pids(self) -> list[int]:
        """The worker processes' ids (process mode)."""
        return [p for s in self._slots if (p := s.pid()) is not None]

    def health(self) -> dict[str, Any]:
        """What ``/api/health`` says of the workers."""
        with self._cond:
            waiting = {k.name.lower(): len(self._waiting[k]) for k in Kind}
            running = {k.name.lower(): self._running[k] for k in Kind}
        alive = sum(1 for s in self._slots if s.alive())
        extra: dict[str, Any] = {} if self.ray is None else {"ray": self.ray.state()}
        return {
            "status": "ok" if alive == len(self._slots) else "degraded" if alive else "down",
            "mode": self.mode,
            **extra,
            "workers": len(self._slots),
            "alive": alive,
            "replaced": self.replaced,
            "waiting": waiting,
            "running": running,
            "done": self.done,
            "failed": self.failed,
        }


def _over(kind: Kind, held: int, limit: int) -> QuotaFull:
    """A client at its quota of ``kind``, in words."""
    one, many = _COUNTED[kind]
    return QuotaFull(
        f"you already have {held} {one if held == 1 else many} being made "
        f"(at most {limit} at once): ask again when one is ready",
    )


def _failure(job: _Job) -> str:
    """A failed job in words: what could not be done, and why."""
    died = sum(1 for e in job.errors if e == "its worker stopped")
    if died == len(job.errors):
        why = "the worker computing it stopped" + (" twice" if died > 1 else "")
    else:
        why = next(e for e in reversed(job.errors) if e != "its worker stopped")
    return f"{job.kind.words} could not be computed ({why})"
