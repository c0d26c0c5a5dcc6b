"""The computer's seats: choose, record, tell the watchers.

An AI move is chosen from the seat's view only, with a seed made from the game's seed,
the seat and the log length.  A thinking level chooses in a job worker
(:mod:`piquet.jobs`: queued before hints and analyses, retried once if its worker dies);
``random`` chooses in microseconds, on the event loop.  A level that cannot play is said
to the players (``computer_problem`` in their view), never replaced by another.  Any
process may drive a game's AI: they all choose the same action, and the optimistic append
records it once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Final

from piquet.jobs import JobFailed, JobQueue, Kind
from piquet.jobs.work import MOVE
from piquet.levels.quick import QUICK_LEVELS, quick_choice
from piquet.table.errors import Refusal, TableError
from piquet.web.games import Entry, Games
from piquet.web.hub import Hub
from piquet.web.store import StoreError

__all__ = ["AiRunner", "cancel_all", "cannot_play"]

log = logging.getLogger("piquet.web")
RETRY_AFTER: Final = 5.0
"""Seconds before a computer that could not move is asked again (by the next request)."""


def cannot_play(level: str, why: str) -> str:
    """What the players are told when the computer's level ``level`` cannot move."""
    return (f"The computer ({level}) cannot play just now: {why}.  It tries again when "
            "you reload the game.")


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
        jobs: JobQueue,
        *,
        think_ms: int | None = None,
    ) -> None:
        self.games = games
        self.hub = hub
        self.jobs = jobs
        self.think_ms = think_ms
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._failed: dict[str, float] = {}

    def kick(self, game_id: str, entry: Entry | None = None) -> None:
        """Make sure this process drives ``game_id``'s AI seats if one is to act.

        ``entry``: the game as just recorded by this process (then it is not read again).
        """
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            return
        failed = self._failed.get(game_id)
        if failed is not None and time.monotonic() - failed < RETRY_AFTER:
            return  # it has just failed, and said so: not again at every request
        self._tasks[game_id] = asyncio.create_task(self._drive(game_id, entry))

    async def stop(self) -> None:
        await cancel_all(self._tasks)

    def busy(self) -> int:
        return sum(1 for t in self._tasks.values() if not t.done())

    async def _drive(self, game_id: str, entry: Entry | None) -> None:
        games = self.games
        illegal = 0
        # ``entry``: the game as this process last recorded it (the truth), or None
        try:
            while True:
                if entry is None:
                    entry = games.cached(game_id)
                if entry is None:
                    entry = await games.fresh_async(game_id)
                turn = games.ai_turn(entry)
                if turn is None:
                    # a move recorded while this task was finishing its own (the kick of
                    # that move found this task still running, and left the game to it):
                    # the game as memory holds it now decides whether to stop
                    latest = games.peek(game_id)
                    if latest is not None and latest.n > entry.n:
                        entry = None if games.shared else latest
                        continue
                    return
                player, level, seed = turn
                view = entry.live.match.view(player)
                try:
                    if level in QUICK_LEVELS:
                        text = quick_choice(level, seed, view)
                    else:
                        text = await self.jobs.run(
                            Kind.MOVE, MOVE, level, seed, self.think_ms, view
                        )
                except JobFailed as exc:  # tried twice: say so, never play another level
                    self._problem(game_id, cannot_play(level, exc.message))
                    return
                try:
                    entry = await games.act(
                        game_id, player, text, expect=entry.n, entry=entry, known=True
                    )
                except TableError as exc:
                    if exc.kind is Refusal.AGAINST_RULES:
                        log.warning("AI %s chose %s illegally: %s", level, text, exc)
                        illegal += 1
                        if illegal >= 2:
                            self._problem(game_id, cannot_play(
                                level, f"it chose a move the rules forbid ({text})"))
                            return
                    entry = None
                    continue
                if games.problems.pop(game_id, None) is not None:
                    self._failed.pop(game_id, None)
        except asyncio.CancelledError:
            raise
        except StoreError as exc:  # the next request for the game starts it again
            log.warning("AI for game %s waits: %s", game_id, exc)
        except Exception:
            log.exception("AI driver for game %s stopped", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    def _problem(self, game_id: str, text: str) -> None:
        """Say ``text`` to the game's players (their views carry it) and wake them."""
        log.warning("game %s: %s", game_id, text)
        self._failed[game_id] = time.monotonic()
        if len(self._failed) > 4096:
            self._failed.pop(next(iter(self._failed)))
        self.games.problems[game_id] = text
        self.hub.deliver(game_id)
