"""PostgreSQL's own news of every game written: LISTEN/NOTIFY, sent in the write's
transaction, so that a process can take the games it holds in memory as the truth between
news instead of reading each one's version before showing it.

Every write that changes what :meth:`Store.version <piquet.web.store.Store.version>` reads
(an append to a game's log, a seat taken, a game dropped) sends, in its own transaction,
a notification on the schema's channel (:data:`CHANNEL_SQL`): PostgreSQL delivers it to
every listening session if and only if that transaction commits, in commit order, whoever
wrote it (another server process, a bot through :mod:`piquet.web.gamestore`, a process
killed just after its commit).  The payload is ``ORIGIN [[GAME, N], ...]`` (JSON after the
process's name): each game and its log length after the write (``-1``: something else
changed, such as a seat).  A payload that cannot be read begins a new epoch (every game
held is read again once): no news is ever dropped unseen.

:class:`NewsListener` keeps one connection of its own in ``LISTEN`` from a thread of its
own.  A game held in memory is known current (:meth:`NewsListener.current`) only while

- the listener is connected and was so, without a break, since before the game was last
  read from the database (each connection is an *epoch*; a game read in an earlier epoch,
  or while the listener was down, is read again once: news of the gap may be lost);
- the listener has heard news within :data:`LATE` seconds (when the channel is quiet it
  sends a notification of its own each :attr:`NewsListener.every` seconds, and hears its
  echo: a connection that hangs without failing, or a session that no longer hears its
  channel, stops being trusted);
- no news heard of the game is newer than memory (a log length beyond it, or a change of
  another kind since it was read).

Otherwise the caller reads the version as before.  News reaches the listener a little
after the commit, so a client that saw a newer game through another process says so (the
log length it has seen, ``n``), and the game is read when memory is behind it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine

__all__ = [
    "CHANNEL_SQL",
    "LATE",
    "ORIGIN",
    "NewsListener",
    "Token",
    "notify",
    "payloads",
]

log = logging.getLogger("piquet.web")

CHANNEL_SQL: Final = "'piquet_' || left(md5(current_schema()), 16)"
"""The channel's name, worked out by PostgreSQL from the session's schema (the tests run
each in a schema of their own over one database; the name must be an identifier of at
most 63 bytes)."""

LATE: Final = 2.0
"""Seconds since the listener last proved itself alive after which memory is no longer
trusted (the version is read again)."""

ORIGIN: Final = secrets.token_hex(6)
"""This process's name in the news it sends."""

_PAYLOAD_MAX: Final = 7900
"""Bytes at most in one notification's payload (PostgreSQL's limit is 8000)."""

_HEARD_MAX: Final = 200_000
"""Games at most whose news is kept; past it, all of it is forgotten and a new epoch
begins (every game held is read again once)."""

Token = tuple[int, int]
"""What a read of a game is stamped with, taken before it (:meth:`NewsListener.token`):
(the listener's epoch, the count of the game's news of other kinds)."""


def payloads(news: Iterable[tuple[str, int]], origin: str = ORIGIN) -> list[str]:
    """``news`` ((game id, log length or -1), ...) as notification payloads, each under
    PostgreSQL's limit."""
    out: list[str] = []
    part: list[str] = []
    size = len(origin) + 3
    for game_id, n in news:
        item = json.dumps([game_id, n])
        if size + 1 + len(item.encode()) > _PAYLOAD_MAX and part:
            out.append(f"{origin} [{','.join(part)}]")
            part, size = [], len(origin) + 3
        part.append(item)
        size += 1 + len(item.encode())
    if part:
        out.append(f"{origin} [{','.join(part)}]")
    return out


_NOTIFY: Final = f"SELECT pg_notify({CHANNEL_SQL}, %(p)s)"


def notify(conn: sa.Connection, news: Sequence[tuple[str, int]]) -> None:
    """Send ``news`` in ``conn``'s transaction (PostgreSQL only; nothing elsewhere):
    delivered to the listeners once, and only if, it commits."""
    if not news or conn.dialect.name != "postgresql":
        return
    for payload in payloads(news):
        conn.exec_driver_sql(_NOTIFY, {"p": payload})


class NewsListener:
    """The schema's news, heard from a thread of its own (see the module).

    ``on_news(items)``: called (from the listener's thread) with the news of other
    processes, ``[(game id, n), ...]`` (``n`` None: a change of another kind);
    ``on_change(up)``: called when the listener connects (``up``) or fails.  Both may be
    set after it starts.
    """

    def __init__(self, engine: Engine, *, every: float = 0.5, retry: float = 0.5) -> None:
        self.engine = engine
        self.every = every
        self.retry = retry
        self.epoch = 0
        """Raised each time the listener is connected anew (news of before may be lost)."""
        self.up = False
        self.alive_until = 0.0
        """``time.monotonic()`` past which the listener is not trusted without word."""
        self.error: str | None = "not connected yet"
        self.heard: dict[str, int] = {}
        """Game id -> the longest log heard of since the epoch began."""
        self.vague: dict[str, int] = {}
        """Game id -> how many changes of another kind were heard of it."""
        self.on_news: Callable[[list[tuple[str, int | None]]], None] | None = None
        self.on_change: Callable[[bool], None] | None = None
        self.pause = threading.Event()
        """Set: the listener holds what it hears until cleared (the tests: news late)."""
        self._stop = threading.Event()
        self._conn: Any = None
        self._thread = threading.Thread(target=self._run, name="piquet-db-news", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ the callers'
    def token(self, game_id: str) -> Token | None:
        """Taken just before a game is read from the database: None while the listener
        is down (what is read then is not trusted past the read)."""
        if not self.up:
            return None
        return self.epoch, self.vague.get(game_id, 0)

    def current(self, game_id: str, n: int, token: Token | None) -> bool:
        """Whether a game held at log length ``n``, read under ``token``, is known to be
        the truth now (see the module)."""
        return (
            token is not None
            and self.up
            and token[0] == self.epoch
            and self.heard.get(game_id, -1) <= n
            and token[1] == self.vague.get(game_id, 0)
            and time.monotonic() < self.alive_until
        )

    def hear(self, game_id: str, n: int | None) -> None:
        """News of ``game_id`` from elsewhere (a hub's message): its log is ``n`` long, or
        (None) something else changed."""
        if n is None or n < 0:
            self.vague[game_id] = self.vague.get(game_id, 0) + 1
        elif n > self.heard.get(game_id, -1):
            self.heard[game_id] = n

    def wait_ready(self, timeout: float) -> bool:
        """Whether the listener is connected and hears its channel within ``timeout``
        seconds."""
        deadline = time.monotonic() + timeout
        while not (self.up and time.monotonic() < self.alive_until):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        self._stop.set()
        self.pause.clear()
        self._thread.join(10)  # it looks at least every ``every`` seconds

    def backend_pid(self) -> int | None:
        """The listening session's server process (the tests end it), or None."""
        conn = self._conn
        return None if conn is None else int(conn.info.backend_pid)

    # ------------------------------------------------------------------ the thread's
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception as exc:
                self._down(_describe(exc))
            if self._stop.wait(self.retry):
                break
        self._down("stopped")

    def _listen(self) -> None:
        raw = self.engine.raw_connection()
        conn: Any = raw.driver_connection
        raw.detach()  # its own for as long as it lasts: never handed back to the pool
        try:
            conn.autocommit = True
            # named, so that the operator (and the tests) can tell it apart
            (channel,) = conn.execute(
                f"SELECT {CHANNEL_SQL}, set_config('application_name', "
                "'piquet-news:' || left(current_schema(), 50), false)").fetchone()[:1]
            conn.execute(f'LISTEN "{channel}"')
            ping = f"SELECT pg_notify({CHANNEL_SQL}, '{ORIGIN} []')"
            self._conn = conn
            self._up()
            conn.execute(ping)  # trusted once its echo comes back
            while not self._stop.is_set():
                got: list[tuple[str, int, bool]] = []
                heard = False
                # every notification of the first packet that brings any (never left
                # half read: the generator's rest would be lost), or none by ``every``
                for note in conn.notifies(timeout=self.every, stop_after=1):
                    heard = True
                    items = _parse(note.payload)
                    if items is None:  # news that cannot be read: all of it read again
                        log.warning("piquet: unreadable news from the database: %.80r",
                                    note.payload)
                        self.forget()
                    else:
                        got.extend(items)
                if self._stop.is_set():
                    return
                while self.pause.is_set() and not self._stop.is_set():
                    self.alive_until = time.monotonic() + LATE  # connected, news late
                    time.sleep(0.01)
                if heard:  # news comes through: trusted for LATE seconds more
                    self.alive_until = time.monotonic() + LATE
                else:
                    # quiet: a notification of its own, whose echo proves that news still
                    # comes through (not only that the connection answers: a session
                    # that no longer hears its channel is not trusted)
                    conn.execute(ping)
                if got:
                    self._take(got)
        finally:
            self._conn = None
            with contextlib.suppress(Exception):
                conn.close()

    def _take(self, got: list[tuple[str, int, bool]]) -> None:
        """Hold the news heard, then wake the watchers of the games others wrote."""
        others: list[tuple[str, int | None]] = []
        for game_id, n, mine in got:
            self.hear(game_id, n)
            if not mine:  # this process's own news reached its watchers already
                others.append((game_id, n if n >= 0 else None))
        if len(self.heard) + len(self.vague) > _HEARD_MAX:
            self.forget()
        callback = self.on_news
        if others and callback is not None:
            try:
                callback(others)
            except Exception:  # never stops the listener
                log.exception("piquet: the database's news")

    def forget(self) -> None:
        """Begin a new epoch: every game held is read again once before it is trusted."""
        self.epoch += 1  # first: what was read before is not trusted past this line
        self.heard.clear()
        self.vague.clear()

    def _up(self) -> None:
        self.epoch += 1  # first: a game read before is not trusted past this line
        self.heard.clear()
        self.vague.clear()
        self.alive_until = 0.0  # until the first news (or the ping's echo) comes
        self.up, was, self.error = True, self.up, None
        if not was:
            if self.epoch > 1:
                log.warning("piquet: the database's news is back: games held in memory "
                            "are read again once")
            self._changed(True)

    def _down(self, why: str) -> None:
        was = self.up
        self.up, self.error = False, why
        if was:
            if why != "stopped":
                log.warning("piquet: the database's news failed (%s): every game is read "
                            "from the database until it is back", why)
            self._changed(False)

    def _changed(self, up: bool) -> None:
        callback = self.on_change
        if callback is not None:
            try:
                callback(up)
            except Exception:
                log.exception("piquet: the database's news")


def _parse(payload: str) -> list[tuple[str, int, bool]] | None:
    """A notification's payload as [(game id, n, whether this process sent it), ...]; None
    if it cannot be read."""
    origin, _, rest = payload.partition(" ")
    mine = origin == ORIGIN
    try:
        items = json.loads(rest)
        return [(str(game_id), int(n), mine) for game_id, n in items]
    except (ValueError, TypeError):
        return None


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
