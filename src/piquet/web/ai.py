"""The computer's seats: choose, record, tell the watchers.

An AI move is chosen from the seat's view only, with a seed made from the game's seed,
the seat and the log length.  A thinking level chooses in an executor (a process pool by
default, so it never holds up the server); ``random`` chooses in microseconds, on the
event loop.  Any process may drive a game's AI: they all choose the same action, and the
optimistic append records it once.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Final

from anyio import to_thread

from piquet.core.match import MatchView
from piquet.table.errors import Refusal, TableError
from piquet.web.games import Entry, Games
from piquet.web.hub import Hub
from piquet.web.store import StoreError

__all__ = [
    "AiRunner",
    "ask_advisor",
    "cancel_all",
    "choose_action",
    "make_executor",
    "warm_up",
    "watch_parent",
]

log = logging.getLogger("piquet.web")
QUICK_LEVELS = frozenset({"random"})
"""AI levels that need no thinking time: chosen on the event loop, not sent to a worker."""


def choose_action(level: str, seed: int, think_ms: int | None, view: MatchView) -> str:
    """The id of the action the AI ``level`` takes from ``view`` (runs in a worker)."""
    from piquet.players import make_player

    return str(make_player(level, seed=seed, think_ms=think_ms).choose(view))


def ask_advisor(view: MatchView, level: str = "expert") -> str:
    """The advisor's hint for ``view`` (runs in a worker: it simulates), phrased for a
    ``learner`` or an ``expert``."""
    from piquet.advisor import hint

    return str(hint(view, level="learner" if level == "learner" else "expert"))


def _fallback(seed: int, view: MatchView) -> str:
    from piquet.players import make_player

    return str(make_player("random", seed=seed).choose(view))


def make_executor(kind: str, workers: int | None) -> Executor:
    """``process`` (a spawn-started pool; the default) or ``thread``.

    A pool's workers exit when the server process dies, however it dies (even SIGKILL):
    each watches its parent (:func:`watch_parent`).
    """
    n = workers or max(1, min(4, os.cpu_count() or 1))
    if kind == "thread":
        return ThreadPoolExecutor(max_workers=n, thread_name_prefix="piquet-ai")
    return ProcessPoolExecutor(
        max_workers=n,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(), PARENT_POLL),
    )


PARENT_POLL: Final = 0.25
"""Seconds between a worker's looks at whether the server is still there."""


def watch_parent(parent: int, every: float = PARENT_POLL) -> None:
    """In a pool worker: exit as soon as the process ``parent`` (the server) is gone.

    A daemon thread looks at the worker's parent every ``every`` seconds; once the server
    is gone the worker is adopted by another process, and it exits at once (``os._exit``:
    there is nobody left to hand a result to).  A thread rather than ``PR_SET_PDEATHSIG``,
    which fires when the *thread* that started the worker ends, not the process.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    if os.getppid() != parent:  # already gone while this worker started
        os._exit(0)
    threading.Thread(target=watch, name="piquet-watch-server", daemon=True).start()


def _ready() -> bool:
    import piquet.players  # noqa: F401  (import the AI levels once per worker)

    return True


def warm_up(executor: Executor) -> None:
    """Start the workers now, so the first AI move does not wait for them."""
    n = getattr(executor, "_max_workers", 1)
    for _ in range(n):
        executor.submit(_ready)



async def cancel_all(tasks: dict[str, asyncio.Task[None]]) -> None:
    """Cancel the running tasks of ``tasks``, wait for each to end, and forget them all
    (how the AI runner and the analysis stop with the server)."""
    running = [t for t in tasks.values() if not t.done()]
    for t in running:
        t.cancel()
    for t in running:
        try:
            await t
        except (asyncio.CancelledError, Exception):
            pass
    tasks.clear()

class AiRunner:
    """Plays the AI seats of games while they are to act."""

    def __init__(
        self,
        games: Games,
        hub: Hub,
        executor: Executor,
        *,
        think_ms: int | None = None,
    ) -> None:
        self.games = games
        self.hub = hub
        self.executor = executor
        self.think_ms = think_ms
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def kick(self, game_id: str, entry: Entry | None = None) -> None:
        """Make sure this process drives ``game_id``'s AI seats if one is to act.

        ``entry``: the game as just recorded by this process (then it is not read again).
        """
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            return
        self._tasks[game_id] = asyncio.create_task(self._drive(game_id, entry))

    async def stop(self) -> None:
        await cancel_all(self._tasks)

    def busy(self) -> int:
        return sum(1 for t in self._tasks.values() if not t.done())

    async def _drive(self, game_id: str, entry: Entry | None) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        games = self.games
        # ``entry``: the game as this process last recorded it (the truth), or None
        try:
            while failures < 5:
                if entry is None:
                    entry = games.cached(game_id)
                if entry is None:
                    entry = await to_thread.run_sync(games.fresh, game_id)
                turn = games.ai_turn(entry)
                if turn is None:
                    return
                player, level, seed = turn
                view = entry.live.match.view(player)
                try:
                    if failures:
                        text = _fallback(seed, view)
                    elif level in QUICK_LEVELS:
                        text = choose_action(level, seed, self.think_ms, view)
                    else:
                        text = await loop.run_in_executor(
                            self.executor, choose_action, level, seed, self.think_ms, view
                        )
                except Exception as exc:  # an AI bug must not stall the game
                    log.warning("AI %s failed in game %s: %s", level, game_id, exc)
                    failures += 1
                    continue
                try:
                    entry = await games.act(
                        game_id, player, text, expect=entry.n, entry=entry, known=True
                    )
                except TableError as exc:
                    if exc.kind is Refusal.AGAINST_RULES:
                        log.warning("AI %s chose %s illegally: %s", level, text, exc)
                        failures += 1
                    entry = None
                    continue
        except asyncio.CancelledError:
            raise
        except StoreError as exc:  # the next request for the game starts it again
            log.warning("AI for game %s waits: %s", game_id, exc)
        except Exception:
            log.exception("AI driver for game %s stopped", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
