"""The computer's work as jobs: moves, hints and analyses, queued by priority and run in
worker processes that the web process never shares its memory with.

:class:`JobQueue` (``queue.py``) orders the jobs (a move before a hint before an
analysis), keeps each client to its quota, replaces a worker that dies and tries its job
once more, and says plainly what could not be done (:class:`JobFailed`);
``work.py`` holds the tasks the workers run (imported only there), ``worker.py`` a
worker's loop.  The design and the choice against an external task engine:
docs/web.md, "The computer's work".
"""

from __future__ import annotations

from piquet.jobs.queue import JobFailed, JobQueue, Kind, QuotaFull, Quotas

__all__ = ["JobFailed", "JobQueue", "Kind", "QuotaFull", "Quotas"]
