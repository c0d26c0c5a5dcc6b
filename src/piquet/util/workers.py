"""Worker processes that end with the process that started them, however it ends.

A pool's workers wait on a pipe for their next task; when the parent is killed (SIGKILL,
as a time limit or an out-of-memory killer does) nothing closes that pipe for them, since
each worker holds the other's end too, and they went on computing a tournament nobody
would read for over an hour and a half.  :func:`process_pool` gives a
:class:`~concurrent.futures.ProcessPoolExecutor` whose workers run :func:`end_with_parent`
first:

* on Linux, the kernel sends each worker SIGKILL the moment its parent dies
  (``prctl(PR_SET_PDEATHSIG)``), asked only where the pool is started from the main thread:
  the signal follows the *thread* that started the worker, not its process;
* everywhere, a daemon thread in each worker looks every :data:`PARENT_POLL` seconds at
  whether its parent is still its parent (an orphan is adopted by another process) and
  ends the worker at once if not.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Final

__all__ = ["PARENT_POLL", "end_with_parent", "process_pool"]

PARENT_POLL: Final = 0.25
"""Seconds between a worker's looks at whether its parent is still there."""

_PR_SET_PDEATHSIG: Final = 1


def _death_signal() -> None:
    """Ask Linux to kill this process when the thread that started it ends."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no such call here: the watching thread suffices
        pass


def end_with_parent(parent: int, kernel_signal: bool = True) -> None:
    """In a worker process: end it as soon as the process ``parent`` is gone.

    ``kernel_signal`` also asks Linux for SIGKILL at the parent's death (only right where
    the worker was started from the parent's main thread).  Ends the worker at once if the
    parent is already gone.
    """
    if kernel_signal and sys.platform.startswith("linux"):
        _death_signal()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)  # nobody is left to hand a result to

    if os.getppid() != parent:  # gone before the signal was asked for
        os._exit(1)
    threading.Thread(target=watch, name="piquet-watch-parent", daemon=True).start()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that end with this one (:func:`end_with_parent`)."""
    main = threading.current_thread() is threading.main_thread()
    return ProcessPoolExecutor(
        max_workers=workers, initializer=end_with_parent, initargs=(os.getpid(), main)
    )
