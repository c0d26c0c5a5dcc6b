"""Where games live: each one is its seed, its seats and its action log, in a SQL database.

SQLite (a file under the data directory) is the default; PostgreSQL works the same through
SQLAlchemy.  The schema is created and upgraded by the Alembic migrations in
``piquet/web/migrations``.  Nothing here knows the rules: the state of a game is rebuilt by
replaying its log (:mod:`piquet.web.games`).

Appending an action is an optimistic write: it succeeds only if the log still has the length
the writer saw, so two processes sharing one database can never fork a game.  One writer
thread commits every append waiting at the same moment in one short transaction (group
commit), and answers each caller once that transaction is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from anyio import to_thread
from sqlalchemy.engine import Engine

from piquet.web.database import (
    SQLITE_SYNC,
    SqliteFile,
    StoreError,
    actions_t,
    damaged,
    database_url,
    games_t,
    head_revision,
    make_engine,
    metadata,
    migrate,
    migrate_in_child,
    plainly,
    reason_of,
    schema_current,
    seats_t,
    sqlite_path,
    unavailable_words,
)
from piquet.web.groupcommit import (
    Append,
    Checkpointer,
    GroupWriter,
    LoopAnswer,
    ReadFailed,
    VersionReader,
    bump_revision,
    insert_game,
    read_version,
)
from piquet.web.pgnews import NewsListener, notify

__all__ = [
    "SQLITE_SYNC",
    "ActionRow",
    "GameRow",
    "NewSeat",
    "SeatRow",
    "Store",
    "StoreError",
    "actions_t",
    "bump_revision",
    "database_url",
    "games_t",
    "head_revision",
    "make_engine",
    "metadata",
    "migrate",
    "migrate_in_child",
    "plainly",
    "reason_of",
    "schema_current",
    "seats_t",
    "unavailable_words",
]

log = logging.getLogger("piquet.web")


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    """``human`` or ``ai``."""
    level: str | None
    name: str
    token_hash: str | None
    invite_hash: str | None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    rules: str
    format: str
    seed: int
    games_to_play: int
    hints: bool
    n_actions: int
    finished: bool
    created_at: float
    seats: tuple[SeatRow, ...]
    revision: int = 0
    """Changes other than a growing log (an undo, a resignation, a rematch): a process
    holding the game compares it, with the log's length, before trusting its copy."""


@dataclass(frozen=True, slots=True)
class ActionRow:
    idx: int
    player: int
    action: str


@dataclass(frozen=True, slots=True)
class NewSeat:
    kind: str
    level: str | None
    name: str
    token_hash: str | None
    invite_hash: str | None


class Store:
    """The games table, the seats and the action log.  Every method is one transaction.

    Methods are blocking (call them from a worker thread in async code).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        path = sqlite_path(str(engine.url))
        self._file = SqliteFile(path) if path is not None and path.exists() else None
        self.damaged: str | None = None
        """Why the database was found damaged (a read or write met a malformed page):
        said by the health check until the server restarts (it does not mend itself)."""
        self._writer = GroupWriter(engine, check=self.lost)
        self._reader: VersionReader | None = None
        """Made at the first :meth:`version_async` (a shared database's)."""
        self._reader_lock = threading.Lock()
        self._news: NewsListener | None = None
        """Made at the first :meth:`news` (PostgreSQL's)."""
        self._checkpointer = (
            Checkpointer(engine, check=self.lost) if engine.dialect.name == "sqlite" else None
        )
        if self._file is not None:
            # every commit, the tallies' too: none goes to a file that is no longer there
            sa.event.listen(engine, "commit", self._before_commit)

    def lost(self) -> str | None:
        """None, or why this server's SQLite file can no longer be trusted (deleted or
        replaced under it); then every request to the store raises :class:`StoreError`."""
        return None if self._file is None else self._file.check()

    def _before_commit(self, _conn: Any) -> None:
        lost = self.lost()
        if lost is not None:
            raise StoreError(lost)

    @contextlib.contextmanager
    def _using(self, what: str) -> Iterator[None]:
        """Turn the database's failures into :class:`StoreError` (``what``: read, write)."""
        lost = self.lost()
        if lost is not None:
            raise StoreError(lost)
        try:
            yield
        except (sa.exc.SQLAlchemyError, OSError) as exc:
            why = f"cannot {what} the database: {reason_of(exc)}"
            if damaged(exc):  # a damaged file does not mend itself: health says so
                self.damaged = why
            if what == "write to":  # the health check says it too, until a write succeeds
                self._writer.failure = (time.monotonic(), why)
            log.warning("piquet: %s", why)
            raise StoreError(why) from None

    def known_failure(self) -> str | None:
        """What is known to be wrong without asking the database: the file gone, or a
        write that failed with none succeeding since (a move's, or :meth:`health`'s
        probe: the failure lasts as long as the fault, not a fixed time)."""
        lost = self.lost() or self.damaged
        if lost is not None:
            return lost
        failure = self._writer.failure
        return None if failure is None else failure[1]

    def note_failure(self, why: str) -> None:
        """Remember a failure found outside the store (the health check's probe timed
        out): :meth:`known_failure` says it until a write succeeds."""
        self._writer.failure = (time.monotonic(), why)

    def health(self) -> str | None:
        """None when the database can be read and written now; else what is wrong (for
        the log: :func:`plainly` says it to a client).  Blocks: one short read and one
        write probe, a commit that changes nothing a game holds (SQLite: the file's
        ``user_version``; PostgreSQL: a transaction id, whose commit is written and
        flushed), so a full disk, a read-only file system, a database that refuses
        commits or connections killed under the server fail it as a move would fail.
        Its success clears a failure known from an earlier write."""
        lost = self.lost() or self.damaged
        if lost is not None:
            return lost
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.select(games_t.c.id).limit(1)).all()
                if conn.dialect.name == "sqlite":
                    (version,) = conn.exec_driver_sql("PRAGMA user_version").one()
                    conn.exec_driver_sql(f"PRAGMA user_version = {(int(version) + 1) % 65536}")
                else:
                    conn.execute(sa.text("SELECT txid_current()")).all()
        except (sa.exc.SQLAlchemyError, OSError, StoreError) as exc:
            why = f"cannot write to the database: {reason_of(exc)}"
            self._writer.failure = (time.monotonic(), why)
            return why
        self._writer.failure = None
        return None

    @classmethod
    def open(cls, url: str, *, sqlite_sync: str = "full") -> Store:
        """Connect to ``url`` and bring its schema up to date.  Raises :class:`StoreError`."""
        try:
            engine = make_engine(url, sqlite_sync=sqlite_sync)
            path = sqlite_path(url)
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
            migrate(engine)
        except (sa.exc.SQLAlchemyError, OSError) as exc:
            raise StoreError(f"cannot open the database: {reason_of(exc)}") from None
        return cls(engine)

    def close(self) -> None:
        self._writer.close()
        if self._reader is not None:
            self._reader.close()
        if self._news is not None:
            self._news.close()
        if self._checkpointer is not None:
            self._checkpointer.close()
        self.engine.dispose()

    # ---------------------------------------------------------------- games
    def drop_unplayed_game(self, game_id: str) -> bool:
        """Delete ``game_id`` if no action was ever taken in it (a rematch made twice at
        once: the one that does not stand); False, and nothing changed, otherwise."""
        with self._using("write to"), self.engine.begin() as conn:
            # the update takes the row's lock: no action can be appended meanwhile
            unplayed = conn.execute(
                games_t.update()
                .where(games_t.c.id == game_id, games_t.c.n_actions == 0)
                .values(finished=True)
            ).rowcount
            if unplayed != 1:
                return False
            conn.execute(seats_t.delete().where(seats_t.c.game_id == game_id))
            conn.execute(games_t.delete().where(games_t.c.id == game_id))
            notify(conn, [(game_id, -1)])
        return True

    def create_game(
        self,
        *,
        game_id: str,
        rules: str,
        format: str,
        seed: int,
        games_to_play: int,
        hints: bool,
        seats: Sequence[NewSeat],
    ) -> GameRow:
        """Store a new game (no actions yet); the row as stored."""
        row = dict(id=game_id, rules=rules, format=format, seed=seed,
                   games_to_play=games_to_play, hints=hints, n_actions=0, finished=False,
                   created_at=time.time())
        with self._using("write to"), self.engine.begin() as conn:
            insert_game(
                conn,
                {"b_id": game_id, "b_rules": rules, "b_format": format, "b_seed": seed,
                 "b_games": games_to_play, "b_hints": hints, "b_now": row["created_at"]},
                [
                    {
                        "b_game": game_id,
                        "b_seat": n,
                        "b_kind": s.kind,
                        "b_level": s.level,
                        "b_name": s.name,
                        "b_token": s.token_hash,
                        "b_invite": s.invite_hash,
                    }
                    for n, s in enumerate(seats)
                ],
            )
        return GameRow(
            **row,  # type: ignore[arg-type]
            seats=tuple(
                SeatRow(n, s.kind, s.level, s.name, s.token_hash, s.invite_hash)
                for n, s in enumerate(seats)
            ),
        )

    def game(self, game_id: str) -> GameRow | None:
        """The game and its seats (one query), or None."""
        g, st = games_t.c, seats_t.c
        with self._using("read"), self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    g.id,
                    g.rules,
                    g.format,
                    g.seed,
                    g.games_to_play,
                    g.hints,
                    g.n_actions,
                    g.finished,
                    g.created_at,
                    g.revision,
                    st.seat,
                    st.kind,
                    st.level,
                    st.name,
                    st.token_hash,
                    st.invite_hash,
                )
                .join_from(games_t, seats_t, st.game_id == g.id)
                .where(g.id == game_id)
                .order_by(st.seat)
            ).all()
        if not rows:
            return None
        row = rows[0]
        return GameRow(
            id=row.id,
            rules=row.rules,
            format=row.format,
            seed=int(row.seed),
            games_to_play=row.games_to_play,
            hints=bool(row.hints),
            n_actions=row.n_actions,
            finished=bool(row.finished),
            created_at=row.created_at,
            seats=tuple(
                SeatRow(s.seat, s.kind, s.level, s.name, s.token_hash, s.invite_hash) for s in rows
            ),
            revision=int(row.revision),
        )

    def version(self, game_id: str) -> tuple[int, int, int] | None:
        """(log length, revision, seats taken by a person) of ``game_id``, or None: one
        cheap query.

        The log grows by appends (undo, resign and rematch are entries) and the seats
        fill; anything else that changes a game raises the revision.  So a process holding
        a game in memory knows from these whether another changed it.
        """
        with self._using("read"), self.engine.connect() as conn:
            return read_version(conn, game_id)

    async def version_async(self, game_id: str) -> tuple[int, int, int] | None:
        """:meth:`version` on the event loop, through the reader thread's own connection
        (:class:`~piquet.web.groupcommit.VersionReader`); where that connection fails, the
        plain way in a worker thread (the failure, if it lasts, said as :meth:`version`
        says it)."""
        lost = self.lost()
        if lost is not None:
            raise StoreError(lost)
        reader = self._reader
        if reader is None:
            with self._reader_lock:
                reader = self._reader
                if reader is None:
                    reader = self._reader = VersionReader(self.engine)
        try:
            return await reader.read_async(game_id)
        except ReadFailed:
            return await to_thread.run_sync(self.version, game_id)

    def news(self) -> NewsListener | None:
        """PostgreSQL's news of every game written (:mod:`piquet.web.pgnews`), listened
        to from a thread started at the first call; None on SQLite (one process)."""
        if self.engine.dialect.name != "postgresql":
            return None
        with self._reader_lock:
            if self._news is None:
                self._news = NewsListener(self.engine)
            return self._news

    def actions(self, game_id: str, start: int = 0) -> list[ActionRow]:
        """The log of ``game_id`` from index ``start`` on, in order."""
        with self._using("read"), self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(actions_t.c.idx, actions_t.c.player, actions_t.c.action)
                .where(actions_t.c.game_id == game_id, actions_t.c.idx >= start)
                .order_by(actions_t.c.idx)
            ).all()
        return [ActionRow(r.idx, r.player, r.action) for r in rows]

    def append(
        self, game_id: str, *, idx: int, revision: int, player: int, action: str, finished: bool
    ) -> bool:
        """Add log entry number ``idx`` (an action, or the table's undo, resign, rematch);
        False (and nothing written) if the log is not ``idx`` long or the game's revision
        is not ``revision`` (the one the entry was checked against; an earlier version's
        undo cut the log and raised it).

        The conditional update takes the game's row lock first, so of two writers racing
        for the same index exactly one succeeds.  It returns once the action is committed.
        Raises :class:`StoreError` if the database cannot be written.
        """
        item = Append(game_id, idx, revision, player, action, finished, Future())
        return self._writer.submit(item)

    def append_async(
        self, game_id: str, *, idx: int, revision: int, player: int, action: str, finished: bool
    ) -> asyncio.Future[bool]:
        """:meth:`append` for the event loop: await the result; no thread is held meanwhile."""
        answer = LoopAnswer(asyncio.get_running_loop())
        item = Append(game_id, idx, revision, player, action, finished, answer)
        return self._writer.submit_async(item)

    def join(self, game_id: str, *, invite_hash: str, token_hash: str, name: str) -> int | None:
        """Take the open seat whose invite hashes to ``invite_hash``; its number, or None
        (none such, or the game is over: resigned, or played to its end)."""
        with self._using("write to"), self.engine.begin() as conn:
            row = conn.execute(
                sa.select(seats_t.c.seat).where(
                    seats_t.c.game_id == game_id,
                    seats_t.c.invite_hash == invite_hash,
                    seats_t.c.token_hash.is_(None),
                )
            ).first()
            if row is None:
                return None
            res = conn.execute(
                seats_t.update()
                .where(
                    seats_t.c.game_id == game_id,
                    seats_t.c.seat == row.seat,
                    seats_t.c.token_hash.is_(None),
                    # not in a game over meanwhile, by a resignation (an entry of its log)
                    # or its last move (checked in the statement that takes the seat: a
                    # resignation between a check and the take let it through)
                    ~sa.exists().where(games_t.c.id == game_id, games_t.c.finished.is_(True)),
                )
                .values(token_hash=token_hash, invite_hash=None, name=name)
            )
            if res.rowcount != 1:
                return None
            notify(conn, [(game_id, -1)])  # the seats taken, part of a game's version
            return int(row.seat)

    def set_invite(self, game_id: str, seat: int, invite_hash: str) -> bool:
        """Give the open ``seat`` a new invite (the old one stops working)."""
        with self._using("write to"), self.engine.begin() as conn:
            res = conn.execute(
                seats_t.update()
                .where(
                    seats_t.c.game_id == game_id,
                    seats_t.c.seat == seat,
                    seats_t.c.kind == "human",
                    seats_t.c.token_hash.is_(None),
                )
                .values(invite_hash=invite_hash)
            )
            return bool(res.rowcount == 1)
