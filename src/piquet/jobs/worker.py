"""A job worker process: takes one task at a time from its pipe and answers on it.

Started by :class:`piquet.jobs.queue.JobQueue` (spawned: a fresh interpreter, so nothing
of the web process is inherited), it imports the players once (:func:`~piquet.jobs.work.warm`)
and then serves ``(task, args)`` messages until it is sent ``None`` or its parent goes
(:func:`piquet.util.workers.end_with_parent`: a worker never outlives its server).  Each answer
is ``(True, result)`` or ``(False, "what went wrong")``.
"""

from __future__ import annotations

import os
import signal
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["serve"]


def serve(conn: Connection, parent: int, warm: bool = True) -> None:
    """The worker's main loop (the target of the spawned process)."""
    from piquet.util.workers import end_with_parent

    end_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops us
    from piquet.jobs.work import resolve

    if warm:
        try:
            resolve("piquet.jobs.work:warm")()
        except Exception:
            pass
    while True:
        try:
            message: Any = conn.recv()
        except (EOFError, OSError):  # the server closed our pipe: it is gone or stopping
            break
        if message is None:
            break
        task, args = message
        try:
            result = resolve(task)(*args)
        except Exception as exc:
            answer: tuple[bool, Any] = (False, f"{type(exc).__name__}: {exc}")
        else:
            answer = (True, result)
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            break
    os._exit(0)
