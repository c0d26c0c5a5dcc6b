"""The games a server process holds in memory, and when memory is the truth.

A game's truth is its row and action log in the :class:`~piquet.web.store.Store`; a
process keeps the games it serves as :class:`~piquet.web.entries.Entry` objects (the
seats, the live table, the views already built), newest used last, and rebuilds one not
held by replaying its log.  With one process on the database (SQLite) memory is the truth
once loaded.  Where other processes share the database (PostgreSQL), a game held is the
truth only while PostgreSQL's news of every write (:mod:`piquet.web.pgnews`) is heard and
says nothing newer of it, and it is at least as long as what the client has seen;
otherwise it is checked against the stored log length first (one cheap query) and only the
actions it lacks are read.

:class:`GameCache` is that memory; :class:`~piquet.web.games.Games` builds creating,
seats, acting and showing on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from anyio import to_thread

from piquet.core.errors import PiquetError
from piquet.table.errors import Refusal, TableError
from piquet.table.state import TableState
from piquet.web.entries import Entry, Live, match_of, seats_of
from piquet.web.entries import joined_count as _joined
from piquet.web.entries import step as _step
from piquet.web.pgnews import NewsListener, Token
from piquet.web.store import GameRow, Store

__all__ = ["NOT_FOUND", "GameCache"]

log = logging.getLogger("piquet.web")

NOT_FOUND: Final = "no such game (or not for this token)"
_NOT_FOUND = NOT_FOUND


def _deliver_all(deliver: Callable[[str, int | None], None],
                 items: list[tuple[str, int | None]]) -> None:
    for game_id, n in items:
        deliver(game_id, n)


class GameCache:
    """The games held in memory over one :class:`Store` (at most ``cache_size``, the
    least lately used forgotten first).

    ``shared``: other processes may write to the same database (PostgreSQL), so a game
    held in memory is checked against the database (:meth:`Store.version`, one cheap
    query) before it is shown, unless the database's news (``news``: PostgreSQL's
    LISTEN/NOTIFY, :meth:`Store.news`) says it is current; without (SQLite: one process)
    memory is the truth once loaded.  The default: shared for every database but SQLite.
    """

    def __init__(
        self, store: Store, *, cache_size: int = 4096, shared: bool | None = None,
        news: bool = True,
    ) -> None:
        self.store = store
        self.cache_size = cache_size
        self.shared = store.engine.dialect.name != "sqlite" if shared is None else shared
        self._cache: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()
        self.news: NewsListener | None = store.news() if self.shared and news else None
        """The database's news of every write, where it has any (PostgreSQL)."""
        self._read_under: dict[str, Token] = {}
        """Game id -> the news's token when it was last read from the database (the
        game held is the truth while :meth:`NewsListener.current` says so of it)."""

    def _start(self, row: GameRow) -> Live:
        """The game as dealt, before any entry of its log."""
        m = self._new_match(row.rules, row.format, row.seed, row.games_to_play, len(row.seats))
        return Live(TableState.new(row.id, seats_of(row), m))

    _new_match = staticmethod(match_of)

    def peek(self, game_id: str) -> Entry | None:
        """The game as this process last knew it, or None (never asks the database)."""
        with self._lock:
            entry = self._cache.get(game_id)
            if entry is not None:
                self._cache.move_to_end(game_id)
            return entry

    def _known(self, game_id: str, held: Entry, at_least: int | None = None) -> bool:
        """Whether ``held`` (a shared game) is known to be the truth: the database's news
        says nothing newer of it since it was read (:mod:`piquet.web.pgnews`), and it is
        at least ``at_least`` long (what the client has seen, maybe through another
        process)."""
        news = self.news
        return (
            news is not None
            and (at_least is None or held.n >= at_least)
            and news.current(game_id, held.n, self._read_under.get(game_id))
        )

    def _read_at(self, game_id: str) -> Token | None:
        """The news's token, taken just before ``game_id`` is read from the database."""
        news = self.news
        return None if news is None else news.token(game_id)

    def _was_read(self, game_id: str, token: Token | None) -> None:
        """``game_id`` is held as read under ``token`` (or newer: this process's writes)."""
        if token is not None:
            self._read_under[game_id] = token

    def cached(self, game_id: str, at_least: int | None = None) -> Entry | None:
        """The game from memory when memory is the truth (not ``shared``, or the news says
        it is current, and it is ``at_least`` that long), else None."""
        held = self.peek(game_id)
        if held is None or not self.shared:
            return held
        return held if self._known(game_id, held, at_least) else None

    def after_news(self, game_id: str, heard: int | None) -> Entry | None:
        """The game from memory if it is at least as new as the news ``heard`` (a log
        length, from :meth:`Watcher.take <piquet.web.hub.Watcher.take>`; None: news of
        another kind), else None: then ask :meth:`fresh`."""
        if not self.shared:
            return self.peek(game_id)
        if self.news is not None:  # (news through the hub: the next look reads)
            self.news.hear(game_id, heard)
        held = self.peek(game_id)
        if held is None or heard is None or heard < 0 or heard > held.n:
            return None
        return held

    def _put(
        self,
        game_id: str,
        *,
        row: GameRow | None = None,
        live: Live | None = None,
        replace: bool = False,
    ) -> Entry:
        """Keep the newer of what is held and ``row``/``live``; the entry now held.

        ``replace``: take ``live`` even if shorter (the stored log was found shorter).
        """
        with self._lock:
            old = self._cache.get(game_id)
            if old is None:
                assert row is not None and live is not None
                entry = Entry(row, live)
            else:
                new_row = old.row
                if (
                    row is not None
                    and row.revision >= old.row.revision
                    and (_joined(row) >= old.joined or row.revision > old.row.revision)
                ):
                    new_row = row
                new_live = old.live
                if live is not None and (replace or live.n >= old.n):
                    new_live = live
                if new_row is old.row and new_live is old.live:
                    entry = old
                else:
                    entry = Entry(new_row, new_live)
            self._cache[game_id] = entry
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                gone, _entry = self._cache.popitem(last=False)
                self._read_under.pop(gone, None)
            return entry

    def _replay(self, row: GameRow, live: Live | None, upto: int) -> tuple[Live, bool]:
        """``live`` (or a new match) brought to log length ``upto`` from the stored log;
        (the state, whether it had to start again).  Raises :class:`TableError` (``NOT_NOW``)."""
        again = live is None or live.n > upto
        if live is None or again:
            live = self._start(row)
        if live.n == upto:
            return live, again
        at = live.n
        try:
            for a in self.store.actions(row.id, live.n):
                if a.idx != live.n or a.idx >= upto:
                    break
                at = a.idx
                live = _step(live, a.player, a.action)
        except PiquetError as exc:
            # the engine's reason goes to the log only: it may list what the seat to act
            # may do, that is his hand, and this answer reaches the other seat and
            # spectators too
            log.error("game %s: stored action %d does not replay: %s", row.id, at, exc)
            raise TableError(
                Refusal.NOT_NOW,
                f"this game's record no longer replays (at its action {at + 1}): it cannot "
                "be shown or played on; the server's log says why",
            ) from None
        return live, again

    def load(self, game_id: str) -> Entry:
        """The game read from the database (row, then whatever of the log is not in
        memory).  Blocks.  Raises :class:`TableError` (``NOT_FOUND``, or ``NOT_NOW`` if it no
        longer replays).
        """
        token = self._read_at(game_id)
        row = self.store.game(game_id)
        if row is None:
            raise TableError(Refusal.NOT_FOUND, _NOT_FOUND)
        held = self.peek(game_id)
        if held is not None and held.n > row.n_actions:
            # memory is ahead of what was read: an action committed meanwhile (memory
            # takes an action only once it is committed), or the stored log is shorter
            row = self.store.game(game_id)
            if row is None:
                raise TableError(Refusal.NOT_FOUND, _NOT_FOUND)
        revised = row.revision != (0 if held is None else held.row.revision)
        # a copy of another revision may hold actions since taken back: start again
        start = None if held is None or held.row.revision != row.revision else held.live
        live, again = self._replay(row, start, row.n_actions)
        done = self._put(game_id, row=row, live=live, replace=again or revised)
        self._was_read(game_id, token)
        return done

    def fresh(self, game_id: str, *, check: bool = False, at_least: int | None = None
              ) -> Entry:
        """The game as it stands.  Blocks (when it must ask the database).

        From memory when memory is the truth (one process; or the database's news says
        the game held is current, and it is ``at_least`` that long: what the client has
        seen); else a ``shared`` game held in memory (or any, with ``check``) is first
        checked against the stored log length and seats: one cheap query, and only what
        changed is read.  Raises :class:`TableError` (``NOT_FOUND``, ``NOT_NOW``).
        """
        held = self.peek(game_id)
        if held is None:
            return self.load(game_id)
        if not (self.shared or check):
            return held
        if not check and self._known(game_id, held, at_least):
            return held
        token = self._read_at(game_id)
        version = self.store.version(game_id)
        if version is None:
            raise TableError(Refusal.NOT_FOUND, _NOT_FOUND)
        n, revision, joined = version
        if n == held.n and revision == held.row.revision and joined == held.joined:
            self._was_read(game_id, token)
            return held
        if joined != held.joined or n < held.n or revision != held.row.revision:
            return self.load(game_id)
        live, again = self._replay(held.row, held.live, n)
        done = self._put(game_id, live=live, replace=again)
        self._was_read(game_id, token)
        return done

    async def fresh_async(self, game_id: str, at_least: int | None = None) -> Entry:
        """:meth:`fresh` on the event loop: a game held in memory of a shared database,
        unless known current (see :meth:`fresh`), is checked by :meth:`Store.version_async
        <piquet.web.store.Store.version_async>` (no worker thread), and only a game that
        changed, or is not held, is read in one."""
        held = self.peek(game_id)
        if held is None or not self.shared:
            return held if held is not None else await to_thread.run_sync(self.load, game_id)
        if self._known(game_id, held, at_least):
            return held
        token = self._read_at(game_id)
        version = await self.store.version_async(game_id)
        if version is None:
            raise TableError(Refusal.NOT_FOUND, _NOT_FOUND)
        n, revision, joined = version
        # memory may have caught up meanwhile (this process's own write, committed while
        # the version was read): the game it holds now, if it is the one stored
        for entry in (held, self.peek(game_id)):
            if entry is not None and (n, revision, joined) == (
                    entry.n, entry.row.revision, entry.joined):
                self._was_read(game_id, token)
                return entry
        return await to_thread.run_sync(functools.partial(self.fresh, game_id, check=True))

    def hear_news(self, deliver: Callable[[str, int | None], None],
                  wake_all: Callable[[], None]) -> None:
        """Wake this process's watchers with the database's news of the games other
        processes write (``deliver(game id, n)``, on the running loop), and every watcher
        (``wake_all()``) when that news fails or comes back: a game held may then be
        older than its news said."""
        news = self.news
        if news is None:
            return
        loop = asyncio.get_running_loop()

        def on_news(items: list[tuple[str, int | None]]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(_deliver_all, deliver, items)

        def on_change(_up: bool) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wake_all)

        news.on_news = on_news
        news.on_change = on_change
