"""Live updates: who is watching which game, and the news that a game changed.

A :class:`Hub` tells every local watcher of a game (a WebSocket, a long poll) that the game
moved.  The message carries only the game id and its log length (-1 for a seat taken),
never a card: each watcher then builds its own seat's view, and knows from the length
whether the game this process holds in memory is already that new.  :class:`RedisHub` also
sends the news through Redis pub/sub, so watchers connected to other server processes hear
it too.

The hub also knows who is at the table: which seats have a live socket open (:meth:`Hub.at_table`,
:meth:`Hub.here`).  One process counts its own sockets; :class:`RedisHub` tells the other
processes its seats on every change, again every :data:`PRESENCE_EVERY` seconds, and when
asked; what another process said lapses after :data:`PRESENCE_LAPSE` seconds without word
(a process killed), and while Redis is down the seats of the other processes are unknown.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Final, TypeVar

__all__ = ["PRESENCE_EVERY", "PRESENCE_LAPSE", "Hub", "RedisHub", "Watcher", "live_message"]

log = logging.getLogger("piquet.web")

_T = TypeVar("_T")


async def _within(seconds: float, aw: Awaitable[_T]) -> _T:
    """``aw``, bounded by ``seconds`` (TimeoutError past them).  ``asyncio.timeout``, not
    ``wait_for``: on Python 3.11 ``wait_for`` may swallow a cancellation that arrives just as
    the call inside it ends, and a task cancelled at stop then runs on in its loop (a
    listener's ``while True``), with ``stop`` waiting for it for ever."""
    async with asyncio.timeout(seconds):
        return await aw


async def _end(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` and wait until it has ended, cancelling it again if a cancellation was
    lost; what it ended with (an error, a cancellation) is read and dropped."""
    task.cancel()
    while not task.done():
        await asyncio.wait({task}, timeout=1.0)
        if not task.done():
            task.cancel()
    if not task.cancelled():
        task.exception()


def _clock() -> float:
    """Seconds, for how long ago another process spoke (a function: tests move it on)."""
    return asyncio.get_running_loop().time()


def live_message(ok: bool, error: str | None, poll: str) -> dict[str, Any]:
    """What a socket is told when live updates between processes fail (``ok`` False,
    with ``error``) or come back; ``poll``: what its page asks for meanwhile."""
    message: dict[str, Any] = {"type": "live", "ok": ok}
    if not ok:
        message["error"] = f"live updates are degraded ({error}): poll {poll} until they are back"
    return message


TALK: Final = -2
"""The news "a player wrote in the game's chat" (:meth:`Hub.publish` with it as ``n``)."""


class Watcher:
    """One watcher of one game: wait for news with :meth:`wait`, then :meth:`take` it."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._event = asyncio.Event()
        self._heard = -1
        self._vague = False
        self._news = False
        self._talk = False

    def notify(self, n: int | None = None) -> None:
        """News: the game's log is now ``n`` long (None or -1: something else changed;
        :data:`TALK`: a chat message)."""
        if n == TALK:
            self._talk = True
            self._event.set()
            return
        if n is None or n < 0:
            self._vague = True
        else:
            self._heard = max(self._heard, n)
        self._news = True
        self._event.set()

    def notify_presence(self) -> None:
        """News: who is at the table may have changed (the game did not; see :attr:`news`)."""
        self._event.set()

    @property
    def news(self) -> bool:
        """Whether the game changed since the last :meth:`take`."""
        return self._news

    def talked(self) -> bool:
        """Whether a chat message was written since the last call; then forget it."""
        talk, self._talk = self._talk, False
        return talk

    def take(self) -> int | None:
        """The longest log announced since the last take, or None if something else (a
        seat taken) was announced too; then forget it."""
        heard = None if self._vague else self._heard
        self._heard, self._vague, self._news = -1, False, False
        return heard

    async def wait(self, timeout: float | None = None) -> bool:
        """True when there is news (then cleared), False on timeout.

        (``asyncio.timeout``, not ``wait_for``: on Python 3.11 ``wait_for`` may swallow a
        cancellation that comes as the event is set, and a socket's pump would then never
        end.)"""
        try:
            async with asyncio.timeout(timeout):
                await self._event.wait()
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Hub:
    """In-process fan-out of game news (one server process)."""

    def __init__(self) -> None:
        self._watchers: dict[str, set[Watcher]] = {}
        self._live: set[Callable[[bool, str | None], None]] = set()
        self.error: str | None = None
        #: this process's open sockets of each game, by seat
        self._here: dict[str, Counter[int]] = {}

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
                    self._forget(game_id)

    @contextlib.contextmanager
    def watch_live(self, listener: Callable[[bool, str | None], None]) -> Iterator[None]:
        """Call ``listener(ok, error)`` whenever live updates between processes fail or
        come back (never without Redis)."""
        self._live.add(listener)
        try:
            yield
        finally:
            self._live.discard(listener)

    @contextlib.contextmanager
    def at_table(self, game_id: str, seat: int) -> Iterator[None]:
        """While inside, ``seat`` of ``game_id`` has a socket open here (it is at the table);
        the game's watchers hear when that makes a seat arrive or leave."""
        count = self._here.setdefault(game_id, Counter())
        count[seat] += 1
        if count[seat] == 1:
            self._seats_changed(game_id)
        try:
            yield
        finally:
            count = self._here.get(game_id, Counter())
            count[seat] -= 1
            if count[seat] <= 0:
                del count[seat]
                if not count:
                    self._here.pop(game_id, None)
                self._seats_changed(game_id)

    def _forget(self, game_id: str) -> None:
        """Nobody here watches ``game_id`` any more."""

    def here(self, game_id: str) -> frozenset[int] | None:
        """The seats of ``game_id`` with a socket open (None: unknown, while live updates
        between processes are down)."""
        return frozenset(self._here.get(game_id, ()))

    def _seats_changed(self, game_id: str) -> None:
        self.deliver_presence(game_id)

    def deliver_presence(self, game_id: str) -> None:
        """Tell every local watcher of ``game_id`` that who is at its table may have changed."""
        for w in list(self._watchers.get(game_id, ())):
            w.notify_presence()

    def deliver(self, game_id: str, n: int | None = None) -> None:
        """Wake every local watcher of ``game_id`` (its log is now ``n`` long)."""
        for w in list(self._watchers.get(game_id, ())):
            w.notify(n)

    def wake_all(self) -> None:
        """Wake every local watcher of every game to look at it again (news of the games
        may have been missed: the database's news failed or came back)."""
        for game_id in list(self._watchers):
            self.deliver(game_id, None)

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
    from the last it sent).

    Redis failing never holds up a move: the action is already safe in the database, and
    it is published from a task of its own, every Redis call bounded by ``timeout``
    seconds.  The subscriber checks the connection when the channel is quiet (a ping
    every ``every`` seconds); when Redis refuses, drops or hangs, :attr:`status` becomes
    ``down``, every live-status listener (the WebSockets) hears it, and the subscriber
    tries again every ``every`` seconds; once it is subscribed again the status is ``ok``
    and every local watcher is woken to look at its game (news may have been missed).
    """

    def __init__(
        self,
        url: str,
        *,
        channel: str = "piquet:games",
        timeout: float = 1.0,
        every: float = 1.0,
    ) -> None:
        super().__init__()
        self.url = url
        self.channel = channel
        self.timeout = timeout
        self.every = every
        self.status = "down"
        self.error: str | None = "not connected yet"
        """Why live updates are down (None while ``ok``)."""
        self._redis: Any = None
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._missed: dict[str, int] = {}
        self._ready = asyncio.Event()
        self.origin = secrets.token_hex(8)
        """This process's name in the messages it sends."""
        #: the seats other processes said are at each game's table, and until when
        #: (:func:`_clock`) that holds without word from them
        self._remote: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        #: games whose seats changed here while their news could not be sent
        self._unsaid: set[str] = set()
        self._beat = 0.0

    async def start(self) -> None:
        """Connect and subscribe; if Redis does not answer, say so in one line and go on
        (moves work; pages poll until it is back)."""
        import redis.asyncio as aioredis

        # a pool that makes a burst of publishes wait their turn for a connection (for at
        # most a few timeouts), where the default pool refuses past its size
        pool = aioredis.BlockingConnectionPool.from_url(
            self.url,
            max_connections=POOL_SIZE,
            timeout=5 * self.timeout,
            socket_timeout=self.timeout,
            socket_connect_timeout=self.timeout,
            retry_on_timeout=False,
        )
        self._redis = aioredis.Redis(connection_pool=pool)
        self._task = asyncio.create_task(self._listen())
        with contextlib.suppress(TimeoutError):
            await _within(2 * self.timeout + 1, self._ready.wait())
        if self.status != "ok":
            log.warning(
                "piquet: Redis at %s does not answer (%s): live updates between server "
                "processes are off until it is back; moves still work",
                _safe_url(self.url),
                self.error,
            )

    async def stop(self) -> None:
        for task in [self._task, *self._sending]:
            if task is not None:
                await _end(task)
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await _within(self.timeout, self._redis.aclose())
            with contextlib.suppress(Exception):  # the pool was given, so it is closed here
                await _within(self.timeout, self._redis.connection_pool.disconnect())

    def _set(self, ok: bool, error: str | None = None) -> None:
        """Record the live-update status; tell the listeners when it changes."""
        was = self.status
        self.status, self.error = ("ok", None) if ok else ("down", error or "no answer")
        if self.status == was:
            return
        if ok:
            if was == "down" and self._ready.is_set():
                log.warning("piquet: Redis is back: live updates between processes again")
            self._ready.set()
            # news published meanwhile never came: every watcher looks again, and the
            # other processes hear of the games changed here meanwhile
            for game_id in list(self._watchers):
                self.deliver(game_id, None)
            missed, self._missed = self._missed, {}
            for game_id, n in missed.items():
                self._spawn(game_id, n)
            # who is at the tables: say ours, ask for theirs; and say so of the games whose
            # last seat here left while Redis was down (the others still count it)
            unsaid, self._unsaid = self._unsaid, set()
            for game_id in [*self._here, *(unsaid - set(self._here))]:
                self._say_seats(game_id, ask=game_id in self._here)
        else:
            log.warning("piquet: Redis failed (%s): live updates degraded, pages poll", error)
            self._remote.clear()
        for game_id in list(self._watchers):
            self.deliver_presence(game_id)
        for listener in list(self._live):
            listener(self.status == "ok", self.error)

    async def _listen(self) -> None:
        while True:
            pubsub = self._redis.pubsub()
            try:
                await _within(self.timeout, pubsub.subscribe(self.channel))
                self._set(True)
                while True:
                    msg = await _within(
                        self.every + self.timeout,
                        pubsub.get_message(ignore_subscribe_messages=True, timeout=self.every),
                    )
                    if _clock() >= self._beat:  # our seats, again
                        self._beat = _clock() + PRESENCE_EVERY
                        self._remind()
                    if msg is None:  # quiet: is Redis still there?
                        await _within(self.timeout, self._redis.ping())
                    else:
                        self._receive(msg)
                    if self.status != "ok":  # a publish failed, but Redis answers again
                        self._set(True)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # refused, dropped or hung: say so, try again
                self._set(False, _describe(exc))
                with contextlib.suppress(Exception):
                    await _within(self.timeout, pubsub.aclose())
                with contextlib.suppress(Exception):  # no connection of before is reused
                    await _within(self.timeout, self._redis.connection_pool.disconnect())
                await asyncio.sleep(self.every)

    def _receive(self, msg: dict[str, Any]) -> None:
        if msg.get("type") != "message":
            return
        try:
            data = json.loads(msg["data"])
            if isinstance(data, dict) and isinstance(data.get("seats"), dict):
                if data.get("from") != self.origin:  # another process's reminder
                    for game_id, seats in data["seats"].items():
                        self._hear_seats(str(game_id), str(data.get("from")), {"here": seats})
                return
            game_id = str(data["game"])
            n = data.get("n")
        except (ValueError, KeyError, TypeError, AttributeError):
            return
        origin = data.get("from")
        if origin == self.origin:
            return
        if "here" in data or "ask" in data:
            self._hear_seats(game_id, str(origin), data)
            return
        self.deliver(game_id, n if isinstance(n, int) and not isinstance(n, bool) else None)

    def _remind(self) -> None:
        """Say again the seats held here, in a few messages (not one per game: a burst of
        publishes would exhaust the connections to Redis)."""
        held = {g: sorted(c) for g, c in self._here.items() if c}
        games = list(held)
        for i in range(0, len(games), REMIND_BATCH):
            part = {g: held[g] for g in games[i : i + REMIND_BATCH]}
            self._spawn_message(json.dumps({"seats": part, "from": self.origin}))

    def _hear_seats(self, game_id: str, origin: str, data: dict[str, Any]) -> None:
        """Another process said which seats of ``game_id`` it holds, or asked for ours."""
        if data.get("ask") and game_id in self._here:
            self._say_seats(game_id)
        seats = data.get("here")
        if not isinstance(seats, list) or game_id not in self._watchers:
            return  # kept only for the games watched here
        held = frozenset(s for s in seats if type(s) is int and 0 <= s < 8)
        known = self._remote.setdefault(game_id, {})
        before = known.get(origin, (frozenset(), 0.0))[0]
        if held:
            known[origin] = (held, _clock() + PRESENCE_LAPSE)
        else:
            known.pop(origin, None)
            if not known:
                del self._remote[game_id]
        if held != before:
            self.deliver_presence(game_id)

    def _forget(self, game_id: str) -> None:
        self._remote.pop(game_id, None)

    def here(self, game_id: str) -> frozenset[int] | None:
        if self.status != "ok":
            return None
        seats = set(self._here.get(game_id, ()))
        now = _clock()
        known = self._remote.get(game_id, {})
        for origin, (held, until) in list(known.items()):
            if until < now:  # that process has said nothing for too long
                del known[origin]
            else:
                seats |= held
        if not known:
            self._remote.pop(game_id, None)
        return frozenset(seats)

    def _seats_changed(self, game_id: str) -> None:
        self.deliver_presence(game_id)
        # say so, and (if someone is still here) ask the others who is at that table: this
        # process may not have heard of the game before
        self._say_seats(game_id, ask=game_id in self._here)

    def _say_seats(self, game_id: str, *, ask: bool = False) -> None:
        """Tell the other processes which seats of ``game_id`` have a socket here."""
        if self.status != "ok" or len(self._sending) >= MAX_PENDING:
            # said when Redis is back (and every PRESENCE_EVERY seconds while held here)
            if len(self._unsaid) < MAX_MISSED:
                self._unsaid.add(game_id)
            return
        body: dict[str, Any] = {"game": game_id, "here": sorted(self._here.get(game_id, ())),
                                "from": self.origin}
        if ask:
            body["ask"] = True
        self._spawn_message(json.dumps(body))

    async def publish(self, game_id: str, n: int) -> None:
        """Wake the local watchers now; send the news to Redis from a task of its own
        (while Redis is down, not at all: the subscriber finds out when it is back)."""
        self.deliver(game_id, n)
        if self.status != "ok" or len(self._sending) >= MAX_PENDING:
            # kept (the newest length of each game), and sent once Redis is back: the
            # other processes' watchers may not know that anything was missed
            if game_id in self._missed or len(self._missed) < MAX_MISSED:
                self._missed[game_id] = max(n, self._missed.get(game_id, n))
            return
        self._spawn(game_id, n)

    def _spawn(self, game_id: str, n: int) -> None:
        task = asyncio.create_task(self._send(game_id, n))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def _spawn_message(self, message: str) -> None:
        task = asyncio.create_task(self._send_message(message))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_message(self, message: str) -> None:
        try:
            await _within(self.timeout, self._redis.publish(self.channel, message))
        except Exception as exc:
            self._set(False, _describe(exc))

    async def _send(self, game_id: str, n: int) -> None:
        message = json.dumps({"game": game_id, "n": n, "from": self.origin})
        try:
            await _within(self.timeout, self._redis.publish(self.channel, message))
        except Exception as exc:
            self._set(False, _describe(exc))
            self._missed[game_id] = max(n, self._missed.get(game_id, n))


PRESENCE_EVERY = 10.0
"""Seconds between a process's reminders of the seats at its tables (through Redis)."""
POOL_SIZE = 32
"""Connections at most from one process to Redis (publishes beyond wait their turn)."""
REMIND_BATCH = 500
"""Games at most in one reminder of the seats a process holds."""
PRESENCE_LAPSE = 3 * PRESENCE_EVERY
"""Seconds after which another process's word on its seats lapses (it may be gone)."""
MAX_PENDING = 1000
"""Messages at most on their way to Redis at once (more wait until Redis is back)."""
MAX_MISSED = 100_000
"""Games at most whose news waits for Redis to come back."""


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _safe_url(url: str) -> str:
    """``url`` without a password."""
    head, sep, tail = url.partition("@")
    return url if not sep else head.split("//", 1)[0] + "//…@" + tail
