"""The Ray transport of the job queue: each job a Ray task, on workers that may run on
other machines (``piquet serve --jobs-ray ADDRESS``).

The queue (:class:`~piquet.jobs.queue.JobQueue`, ``mode="ray"``) keeps the order and the
quotas in the web process, as with its own workers; only the running of a job changes:
a slot hands it to the cluster as a task (:func:`run_task`, with Ray's own retries off:
the queue retries a job once, as it does when one of its own workers dies) and waits for
its answer.  Ray is imported here only, and this module only in that mode: ``import ray``
alone costs a process about 58 MB, and the default web process idles under 80 MB.

Faults: a Ray worker that dies under a job (killed, out of memory) or a node that goes
is :class:`Died` (the job is tried once more, then said to have failed); a task that
raises is :class:`TaskError` with its words; a job past its time limit is cancelled.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Final

__all__ = ["Died", "RayJobs", "RayUnavailable", "TaskError", "TooLong", "connect", "run_task"]

log = logging.getLogger("piquet.jobs")

LOOK: Final = 2.0
"""Seconds between looks at the cluster's nodes (for the health check)."""
CONNECT: Final = 5.0
"""Seconds a cluster's head has to take a connection when the server joins it."""


class RayUnavailable(Exception):
    """Ray is not installed, or the cluster cannot be reached; the message says which."""


class Died(Exception):
    """The Ray worker (or node) running a job died."""


class TooLong(Exception):
    """The job ran past its time limit and was cancelled."""


class TaskError(Exception):
    """The task raised; the message is its type and words."""


def _ray() -> Any:
    try:
        import ray  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise RayUnavailable(
            "Ray is not installed: install piquet[ray] (pip install 'piquet[ray]') to use "
            "--jobs-ray"
        ) from None
    return ray


def connect(address: str) -> None:
    """Join the Ray cluster at ``address`` (``local``: start one on this machine; ``auto``:
    the one already running here, from ``ray start``), unless this process has joined one.
    Raises :class:`RayUnavailable` in words when it cannot."""
    if address not in ("local", "auto"):
        _reachable(address)  # Ray itself would try for minutes before saying so
    if "ray" not in sys.modules and "RAY_AUTH_MODE" not in os.environ and (
        os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
        or (Path.home() / ".ray" / "auth_token").is_file()
    ):
        # as `ray start` does: a token at hand means the cluster wants it (without it a
        # cluster of token authentication, Ray's default, refuses us for minutes)
        os.environ["RAY_AUTH_MODE"] = "token"  # (read as Ray is imported)
    ray = _ray()
    if ray.is_initialized():
        return
    try:
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RayUnavailable(
            f"cannot join the Ray cluster at {address!r} ({first}); start one with "
            f"'ray start --head' and give its address (host:6379), or 'auto' for the one "
            f"running on this machine, or 'local' to start one here"
        ) from None


def _reachable(address: str) -> None:
    """Raise :class:`RayUnavailable` unless ``host:port`` takes a connection."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayUnavailable(
            f"a Ray cluster's address is host:port (the head's, from 'ray start --head', "
            f"e.g. 10.0.0.5:6379), 'auto' or 'local', not {address!r}"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT).close()
    except OSError as exc:
        raise RayUnavailable(
            f"cannot join the Ray cluster at {address!r}: nothing answers there "
            f"({exc.strerror or type(exc).__name__}); start its head with "
            f"'ray start --head --port {port}' on {host}"
        ) from None


def run_task(task: str, args: tuple[Any, ...]) -> Any:
    """What a Ray worker runs for a job: the task's function (``"module:function"``,
    :func:`piquet.jobs.work.resolve`) on its arguments."""
    from piquet.jobs.work import resolve

    return resolve(task)(*args)


class RayJobs:
    """The queue's link to a Ray cluster: runs jobs as tasks, and knows the cluster's
    alive nodes and CPUs (looked at every :data:`LOOK` seconds by a thread, so that a
    health check never waits on the cluster)."""

    def __init__(self, address: str) -> None:
        self.address = address
        self._remote: Any = None
        self._state: dict[str, Any] = {"address": address, "nodes": 0, "cpus": 0}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None

    def start(self) -> None:
        connect(self.address)
        ray = _ray()
        # Ray's own retries off: the queue tries a job once more itself (and says so)
        self._remote = ray.remote(run_task).options(max_retries=0, num_cpus=1)
        self._look()
        self._watcher = threading.Thread(target=self._watch, name="piquet-jobs-ray",
                                         daemon=True)
        self._watcher.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._watcher is not None:
            self._watcher.join(LOOK + 5)

    def cpus(self) -> int:
        """The cluster's CPUs now (0 when none is known)."""
        with self._lock:
            n: int = self._state["cpus"]
        return n

    def state(self) -> dict[str, Any]:
        """What the health check says of the cluster: ``address``, alive ``nodes`` and
        their ``cpus``."""
        with self._lock:
            return dict(self._state)

    def _look(self) -> None:
        ray = _ray()
        try:
            nodes = [n for n in ray.nodes() if n.get("Alive")]
            cpus = sum(int(n.get("Resources", {}).get("CPU", 0)) for n in nodes)
        except Exception as exc:  # the cluster gone: no node alive, said in the log
            log.warning("cannot reach the Ray cluster: %s", exc)
            nodes, cpus = [], 0
        with self._lock:
            self._state = {"address": self.address, "nodes": len(nodes), "cpus": cpus}

    def _watch(self) -> None:
        while not self._stopping.wait(LOOK):
            self._look()

    def run(self, task: str, args: tuple[Any, ...], limit: float | None) -> Any:
        """Run one job on the cluster and return its result; raises :class:`Died`,
        :class:`TooLong` or :class:`TaskError`."""
        ray = _ray()
        from ray import exceptions as rex  # type: ignore[import-not-found,unused-ignore]

        ref = self._remote.remote(task, args)
        deadline = None if limit is None else time.monotonic() + limit
        while True:
            # in steps, so that a server stopping is not held by a long job
            step = 1.0 if deadline is None else min(1.0, max(0.0, deadline - time.monotonic()))
            try:
                return ray.get(ref, timeout=step)
            except rex.GetTimeoutError:
                if self._stopping.is_set() or (
                    deadline is not None and time.monotonic() >= deadline
                ):
                    ray.cancel(ref, force=True)
                    if self._stopping.is_set():
                        raise Died from None
                    raise TooLong from None
            except rex.RayTaskError as exc:
                cause = exc.cause if exc.cause is not None else exc
                raise TaskError(f"{type(cause).__name__}: {cause}") from None
            except rex.RayError as exc:  # a worker or a node died, an object was lost
                log.warning("a Ray worker stopped under %s: %s", task, type(exc).__name__)
                raise Died from None
