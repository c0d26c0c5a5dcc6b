"""Live updates: who is watching which game, and the news that a game changed.

A :class:`Hub` tells every local watcher of a game (a WebSocket, a long poll) that the game
moved.  The message carries only the game id and its log length (-1 for a seat taken),
never a card: each watcher then builds its own seat's view, and knows from the length
whether the game this process holds in memory is already that new.  :class:`RedisHub` also
sends the news through Redis pub/sub, so watchers connected to other server processes hear
it too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Iterator
from typing import Any

__all__ = ["Hub", "RedisHub", "Watcher"]

log = logging.getLogger("piquet.web")


class Watcher:
    """One watcher of one game: wait for news with :meth:`wait`, then :meth:`take` it."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._event = asyncio.Event()
        self._heard = -1
        self._vague = False

    def notify(self, n: int | None = None) -> None:
        """News: the game's log is now ``n`` long (None or -1: something else changed)."""
        if n is None or n < 0:
            self._vague = True
        else:
            self._heard = max(self._heard, n)
        self._event.set()

    def take(self) -> int | None:
        """The longest log announced since the last take, or None if something else (a
        seat taken) was announced too; then forget it."""
        heard = None if self._vague else self._heard
        self._heard, self._vague = -1, False
        return heard

    async def wait(self, timeout: float | None = None) -> bool:
        """True when there is news (then cleared), False on timeout."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Hub:
    """In-process fan-out of game news (one server process)."""

    def __init__(self) -> None:
        self._watchers: dict[str, set[Watcher]] = {}

    status = "off"
    """Live updates between processes: ``off`` (one process), ``ok`` or ``down``."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    @contextlib.contextmanager
    def watch(self, game_id: str) -> Iterator[Watcher]:
        w = Watcher(game_id)
        self._watchers.setdefault(game_id, set()).add(w)
        try:
            yield w
        finally:
            ws = self._watchers.get(game_id)
            if ws is not None:
                ws.discard(w)
                if not ws:
                    del self._watchers[game_id]

    def deliver(self, game_id: str, n: int | None = None) -> None:
        """Wake every local watcher of ``game_id`` (its log is now ``n`` long)."""
        for w in list(self._watchers.get(game_id, ())):
            w.notify(n)

    async def publish(self, game_id: str, n: int) -> None:
        """Tell every watcher that ``game_id`` changed (its log is ``n`` long; -1: a seat)."""
        self.deliver(game_id, n)

    def watching(self) -> int:
        return sum(len(s) for s in self._watchers.values())


class RedisHub(Hub):
    """Game news through Redis pub/sub on one channel, for several server processes.

    Local watchers are woken at once; a process does not wake them again when its own
    message comes back from Redis (each message names the process that sent it).  A
    duplicate wake-up would be harmless anyway (a watcher only sends a view that differs
    from the last it sent).  If Redis goes away the subscriber retries every second, and
    publishing failures are logged, not raised: the action itself is already safe in the
    database.
    """

    def __init__(self, url: str, *, channel: str = "piquet:games") -> None:
        super().__init__()
        self.url = url
        self.channel = channel
        self._redis: Any = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.origin = secrets.token_hex(8)
        """This process's name in the messages it sends."""

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self.url)
        await self._redis.ping()
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), 10)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._redis is not None:
            await self._redis.aclose()

    async def _listen(self) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(self.channel)
                self._ready.set()
                async for msg in pubsub.listen():
                    if msg.get("type") != "message":
                        continue
                    try:
                        data = json.loads(msg["data"])
                        game_id = str(data["game"])
                        n = data.get("n")
                    except (ValueError, KeyError, TypeError):
                        continue
                    if data.get("from") != self.origin:
                        self.deliver(game_id, n if isinstance(n, int) else None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the connection dropped: try again
                log.warning("redis subscriber: %s; retrying", exc)
                await asyncio.sleep(1.0)

    async def publish(self, game_id: str, n: int) -> None:
        self.deliver(game_id, n)
        try:
            message = json.dumps({"game": game_id, "n": n, "from": self.origin})
            await self._redis.publish(self.channel, message)
        except Exception as exc:
            log.warning("redis publish failed: %s", exc)
