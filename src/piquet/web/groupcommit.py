"""Appending to a game's log, many at once: one writer thread commits every append
waiting at the same moment in one short transaction (group commit), and answers each
caller once that transaction is committed.  Each append is optimistic: it succeeds only
if the log still has the length (and the game the revision) the writer saw, so two
processes sharing one database can never fork a game.  With SQLite, a thread of its own
copies the write-ahead log into the database file (:class:`Checkpointer`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.compiler import SQLCompiler

from piquet.web.database import StoreError, actions_t, games_t, reason_of, seats_t
from piquet.web.pgnews import CHANNEL_SQL, ORIGIN

__all__ = [
    "VERSION",
    "Append",
    "Checkpointer",
    "GroupWriter",
    "LoopAnswer",
    "ReadFailed",
    "VersionReader",
    "append_all",
    "bump_revision",
    "insert_game",
    "read_version",
    "read_versions",
]

log = logging.getLogger("piquet.web")

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Append:
    game_id: str
    idx: int
    revision: int
    player: int
    action: str
    finished: bool
    future: Future[bool] | LoopAnswer
    """How the writer answers: a future a thread blocks on, or a :class:`LoopAnswer`."""


class LoopAnswer:
    """The writer's answer to an append awaited on an event loop: ``out``, settled on its
    loop once the batch is done, with the rest of the batch's answers to that loop (one
    wake-up of the loop a batch, where each append's future woke it on its own)."""

    __slots__ = ("error", "loop", "out", "value")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.out: asyncio.Future[bool] = loop.create_future()
        self.value: bool | None = None
        self.error: BaseException | None = None

    def set_result(self, ok: bool) -> None:
        self.value = ok

    def set_exception(self, exc: BaseException) -> None:
        self.error = exc


def _settle_on_loop(answers: list[LoopAnswer]) -> None:
    for a in answers:
        if a.out.done():  # (cancelled: the append is written all the same)
            continue
        if a.error is not None:
            a.out.set_exception(a.error)
        elif a.value is None:  # pragma: no cover - every path of the writer answers
            a.out.set_exception(StoreError("the database writer did not answer"))
        else:
            a.out.set_result(a.value)


# Built once, and compiled once per dialect (:func:`_statements`): the writer runs their
# text through the driver, without SQLAlchemy's per-execution compile-cache look-up and
# parameter processing (most of the writer thread's CPU: a third of a millisecond a batch)
_ADVANCE: Final = (
    games_t.update()
    .where(
        games_t.c.id == sa.bindparam("b_id"),
        games_t.c.n_actions == sa.bindparam("b_idx"),
        # an undo (then as many new moves), a resignation or a rematch raised it: a move
        # checked against the copy of before must not be written
        games_t.c.revision == sa.bindparam("b_rev"),
    )
    .values(
        n_actions=sa.bindparam("b_next"),
        finished=sa.bindparam("b_finished"),
        updated_at=sa.bindparam("b_now"),
    )
)
_LOG: Final = actions_t.insert().values(
    game_id=sa.bindparam("b_game"),
    idx=sa.bindparam("b_idx"),
    player=sa.bindparam("b_player"),
    action=sa.bindparam("b_action"),
    created_at=sa.bindparam("b_now"),
)


@dataclass(frozen=True, slots=True)
class _Statement:
    """A statement compiled for one dialect: its text, and the order of its parameters
    (None: the driver takes them by name)."""

    text: str
    order: tuple[str, ...] | None

    def params(self, values: dict[str, object]) -> tuple[object, ...] | dict[str, object]:
        if self.order is None:
            return values
        return tuple(values[k] for k in self.order)


_COMPILED: dict[str, tuple[_Statement, _Statement]] = {}

_NEW_GAME: Final = games_t.insert().values(
    id=sa.bindparam("b_id"),
    rules=sa.bindparam("b_rules"),
    format=sa.bindparam("b_format"),
    seed=sa.bindparam("b_seed"),
    games_to_play=sa.bindparam("b_games"),
    hints=sa.bindparam("b_hints"),
    n_actions=sa.bindparam("b_n"),
    finished=sa.bindparam("b_finished"),
    created_at=sa.bindparam("b_now"),
    updated_at=sa.bindparam("b_now"),
)
_NEW_SEAT: Final = seats_t.insert().values(
    game_id=sa.bindparam("b_game"),
    seat=sa.bindparam("b_seat"),
    kind=sa.bindparam("b_kind"),
    level=sa.bindparam("b_level"),
    name=sa.bindparam("b_name"),
    token_hash=sa.bindparam("b_token"),
    invite_hash=sa.bindparam("b_invite"),
)
_CREATIONS: dict[str, tuple[_Statement, _Statement]] = {}


def insert_game(conn: sa.Connection, game: dict[str, object],
                seats: Sequence[dict[str, object]]) -> None:
    """Write a new game's row (``game``: ``b_id``, ``b_rules``, ``b_format``, ``b_seed``,
    ``b_games``, ``b_hints``, ``b_now``; no actions yet) and its seats' (each ``b_game``,
    ``b_seat``, ``b_kind``, ``b_level``, ``b_name``, ``b_token``, ``b_invite``) in
    ``conn``'s transaction: the two statements compiled once per dialect and run
    straight through the driver, as the log's are (a game's creation built and compiled
    them anew each time, most of its cost outside the commit)."""
    dialect = conn.dialect
    key = f"{dialect.name}:{dialect.driver}:{dialect.paramstyle}"
    got = _CREATIONS.get(key)
    if got is None:
        got = _CREATIONS[key] = (_statement(_NEW_GAME, dialect), _statement(_NEW_SEAT, dialect))
    new_game, new_seat = got
    conn.exec_driver_sql(new_game.text, new_game.params({**game, "b_n": 0,
                                                         "b_finished": False}))
    conn.exec_driver_sql(new_seat.text, [new_seat.params(s) for s in seats])


def _statement(stmt: sa.ClauseElement, dialect: sa.Dialect) -> _Statement:
    compiled = stmt.compile(dialect=dialect)
    assert isinstance(compiled, SQLCompiler)
    if compiled.positional:
        return _Statement(compiled.string, tuple(compiled.positiontup or ()))
    return _Statement(compiled.string, None)


def _statements(dialect: sa.Dialect) -> tuple[_Statement, _Statement]:
    """(the advance, the log row) compiled for ``dialect``; on PostgreSQL the advance
    returns a row, and sends the game's news (:data:`_SAY`), when it moved the game on."""
    key = f"{dialect.name}:{dialect.driver}:{dialect.paramstyle}"
    got = _COMPILED.get(key)
    if got is None:
        advance = _statement(_ADVANCE, dialect)
        if dialect.name == "postgresql":
            table = games_t.name
            advance = _Statement(
                f"WITH up AS ({advance.text} RETURNING {table}.id, {table}.n_actions) "
                f"{_SAY}", advance.order)
        got = _COMPILED[key] = (advance, _statement(_LOG, dialect))
    return got


def bump_revision(conn: sa.Connection, game_id: str) -> None:
    """Raise the revision of ``game_id`` in ``conn``'s transaction: a change other than an
    append, that other processes holding the game must notice (see :meth:`Store.version`)."""
    conn.execute(
        games_t.update()
        .where(games_t.c.id == game_id)
        .values(revision=games_t.c.revision + 1)
    )
VERSION: Final = sa.select(
    games_t.c.n_actions,
    games_t.c.revision,
    sa.select(sa.func.count())
    .where(seats_t.c.game_id == games_t.c.id, seats_t.c.token_hash.is_not(None))
    .scalar_subquery(),
).where(games_t.c.id == sa.bindparam("b_id"))


_VERSIONS_OF: Final = sa.select(
    games_t.c.id,
    games_t.c.n_actions,
    games_t.c.revision,
    sa.select(sa.func.count())
    .where(seats_t.c.game_id == games_t.c.id, seats_t.c.token_hash.is_not(None))
    .scalar_subquery(),
).where(games_t.c.id.in_(sa.bindparam("b_ids", expanding=True)))
""":data:`VERSION` of several games at once, each row with its game's id."""


def read_versions(conn: sa.Connection, game_ids: Sequence[str]
                  ) -> dict[str, tuple[int, int, int]]:
    """Game id -> :data:`VERSION`, for those of ``game_ids`` that exist: one query."""
    if len(game_ids) == 1:
        got = read_version(conn, game_ids[0])
        return {} if got is None else {game_ids[0]: got}
    rows = conn.execute(_VERSIONS_OF, {"b_ids": sorted(set(game_ids))}).all()
    return {str(r[0]): (int(r[1]), int(r[2]), int(r[3])) for r in rows}


def read_version(conn: sa.Connection, game_id: str) -> tuple[int, int, int] | None:
    """:data:`VERSION` of ``game_id`` (log length, revision, seats taken), or None; its
    text compiled once per dialect, run through the driver (the long poll asks it of
    every game a shared database holds, at each turn)."""
    key = f"{conn.dialect.name}:{conn.dialect.driver}:{conn.dialect.paramstyle}"
    stmt = _VERSIONS.get(key)
    if stmt is None:
        stmt = _VERSIONS[key] = _statement(VERSION, conn.dialect)
    row = conn.exec_driver_sql(stmt.text, stmt.params({"b_id": game_id})).first()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


_VERSIONS: dict[str, _Statement] = {}


_SAY: Final = (
    f"SELECT up.id, pg_notify({CHANNEL_SQL}, '{ORIGIN} ' || "
    "json_build_array(json_build_array(up.id, up.n_actions))::text) FROM up"
)
"""PostgreSQL: the news of each game an advance (``up``, its ``RETURNING id, n_actions``)
moved on (:mod:`piquet.web.pgnews`), sent by the same statement, so in its transaction and
without a round trip of its own."""

_ADVANCE_ALL: Final = (
    f"WITH up AS (UPDATE {games_t.name} AS g SET n_actions = v.idx + 1, "
    "finished = v.finished, updated_at = %(now)s "
    "FROM unnest(%(ids)s::text[], %(idxs)s::int[], %(revs)s::int[], %(fins)s::bool[]) "
    "AS v(id, idx, rev, finished) "
    "WHERE g.id = v.id AND g.n_actions = v.idx AND g.revision = v.rev "
    f"RETURNING g.id, g.n_actions) {_SAY}"
)
"""PostgreSQL: the advance of many games, each named once, in one statement (one round
trip a batch, where each append's own statement cost the writer thread a round trip and
SQLAlchemy's execution), with the news of each: the ids of the games it advanced."""


def _advance_all(conn: sa.Connection, items: Sequence[Append], now: float) -> set[str]:
    """:data:`_ADVANCE_ALL` of ``items`` (a game at most once among them)."""
    res = conn.exec_driver_sql(_ADVANCE_ALL, {
        "now": now,
        "ids": [i.game_id for i in items],
        "idxs": [i.idx for i in items],
        "revs": [i.revision for i in items],
        "fins": [i.finished for i in items],
    })
    return {str(r[0]) for r in res}


def append_all(conn: sa.Connection, items: Sequence[Append], now: float) -> list[bool]:
    """Write ``items`` in ``conn``'s transaction: for each, whether the log had its length
    and the game its revision.  On PostgreSQL the games written are told to every
    listening process by the statement that advances it (:data:`_SAY`), and the first
    append of each game in the batch is written by one statement for them all
    (:data:`_ADVANCE_ALL`); any other (a copy sent twice, a game's next entry) after it,
    on its own, in order, as on SQLite."""
    advance, log_row = _statements(conn.dialect)
    results = []
    rows: list[Any] = []
    bulk: dict[str, bool] = {}
    returns = conn.dialect.name == "postgresql"  # (the advance says whether it moved)
    if returns and len(items) > 1:
        first: dict[str, Append] = {}
        for item in items:
            first.setdefault(item.game_id, item)
        done = _advance_all(conn, list(first.values()), now)
        bulk = {game_id: game_id in done for game_id in first}
    for item in items:
        ok = bulk.pop(item.game_id, None) if bulk else None
        if ok is None:
            res = conn.exec_driver_sql(
                advance.text,
                advance.params({
                    "b_id": item.game_id,
                    "b_idx": item.idx,
                    "b_rev": item.revision,
                    "b_next": item.idx + 1,
                    "b_finished": item.finished,
                    "b_now": now,
                }),
            )
            ok = len(res.fetchall()) == 1 if returns else res.rowcount == 1
        results.append(ok)
        if ok:
            rows.append(
                log_row.params({
                    "b_game": item.game_id,
                    "b_idx": item.idx,
                    "b_player": item.player,
                    "b_action": item.action,
                    "b_now": now,
                })
            )
    if rows:
        conn.exec_driver_sql(log_row.text, rows)
    return results


class _BatchThread(Generic[_T]):
    """A thread of its own that takes what its queue holds in batches (:func:`_next_batch`)
    and handles each (:meth:`_handle`), with a connection of its own kept from one batch to
    the next and let go when it stops (:meth:`close`): the shape of the writer and of the
    version reader.  A subclass sets what :meth:`_handle` needs before calling
    ``__init__``, which starts the thread."""

    def __init__(self, engine: Engine, *, name: str) -> None:
        self.engine = engine
        self._queue: queue.SimpleQueue[_T | None] = queue.SimpleQueue()
        self._conn: sa.Connection | None = None
        """The thread's own connection (only that thread uses it)."""
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(10)

    def _run(self) -> None:
        try:
            while (batch := _next_batch(self._queue)) is not None:
                items, stop = batch
                self._handle(items)
                if stop:
                    return
        finally:
            conn, self._conn = self._conn, None
            _let_go(conn, broken=False)

    def _handle(self, batch: list[_T]) -> None:
        raise NotImplementedError


class GroupWriter(_BatchThread[Append]):
    """Group commit: the appends waiting at the same moment share one transaction.

    A single thread writes every pending append in one transaction and answers each
    caller only once that transaction is committed (with SQLite, on disk: one flush
    for them all).  Nothing else waits for it: a caller blocks on its future, or awaits
    it (:meth:`submit_async`) without holding a worker thread.

    The thread keeps a connection of its own from one batch to the next (taken from the
    pool and handed back for each batch, it cost a third of the writer's CPU, and on
    PostgreSQL the pool's ping a round trip a batch); a batch that fails drops it (a new
    one is taken for the next), and its appends are written one by one through the
    pool, each on a connection checked first, as before.
    """

    def __init__(self, engine: Engine, *, check: Callable[[], str | None] = lambda: None) -> None:
        self.check = check
        """After each commit: None, or why the commit cannot be acknowledged."""
        self.failure: tuple[float, str] | None = None
        """(when, why) the last write failed, until one succeeds."""
        super().__init__(engine, name="piquet-db-writer")

    def submit(self, item: Append) -> bool:
        assert isinstance(item.future, Future)
        self._queue.put(item)
        return item.future.result()

    def submit_async(self, item: Append) -> asyncio.Future[bool]:
        """The result on the running loop.  Cancelling it does not withdraw the append
        (once queued it is written, as a blocking caller's would be).  ``item``'s answer
        a :class:`LoopAnswer` (of the running loop): settled with the rest of its batch;
        a thread's future: settled on its own."""
        if isinstance(item.future, LoopAnswer):
            self._queue.put(item)
            return item.future.out
        future = item.future
        loop = asyncio.get_running_loop()
        out: asyncio.Future[bool] = loop.create_future()

        def settle(done: Future[bool]) -> None:
            if out.done():
                return
            exc = done.exception()
            if exc is not None:
                out.set_exception(exc)
            else:
                out.set_result(done.result())

        future.add_done_callback(lambda done: loop.call_soon_threadsafe(settle, done))
        self._queue.put(item)
        return out

    def _handle(self, batch: list[Append]) -> None:
        try:
            self._write(batch)
        finally:
            _hand_back(batch)

    def _write(self, batch: list[Append]) -> None:
        now = time.time()
        lost = self.check()
        if lost is not None:
            for item in batch:
                item.future.set_exception(StoreError(lost))
            return
        try:
            conn = self._conn
            if conn is None:
                conn = self._conn = self.engine.connect()
            with conn.begin():
                results = append_all(conn, batch, now)
        except Exception:
            self._drop()
            # something in the batch failed: write each on its own, so only it fails
            for item in batch:
                self._write_one(item, now)
            return
        self._settle(batch, results)

    def _drop(self) -> None:
        """Give up the writer's own connection after a failure: the database side of it
        may be gone (a backend killed, the file's handle broken), so it is discarded,
        never handed back to the pool as it is."""
        conn, self._conn = self._conn, None
        _let_go(conn, broken=True)

    def _settle(self, batch: list[Append], results: list[bool]) -> None:
        """Answer the callers of a committed batch, unless the file it went to is gone."""
        lost = self.check()
        if lost is not None:
            for item in batch:
                item.future.set_exception(StoreError(lost))
            return
        self.failure = None
        for item, ok in zip(batch, results, strict=True):
            item.future.set_result(ok)  # nobody else settles or cancels these futures

    def _write_one(self, item: Append, now: float) -> None:
        try:
            with self.engine.begin() as conn:
                (ok,) = append_all(conn, [item], now)
        except IntegrityError:
            ok = False
        except Exception as exc:
            why = f"cannot write to the database: {reason_of(exc)}"
            self.failure = (time.monotonic(), why)
            log.warning("piquet: %s", why)
            item.future.set_exception(StoreError(why))
            return
        self._settle([item], [ok])


def _let_go(conn: sa.Connection | None, *, broken: bool) -> None:
    """Close a thread's own connection (the writer's, the version reader's), quietly; one
    that failed is ``broken``: the database side of it may be gone (a backend killed, the
    file's handle broken), so it is invalidated, never handed back to the pool as it is."""
    if conn is None:
        return
    if broken:
        with contextlib.suppress(Exception):
            conn.invalidate()
    with contextlib.suppress(Exception):
        conn.close()


def _next_batch(q: queue.SimpleQueue[_T | None]) -> tuple[list[_T], bool] | None:
    """The next batch of a writer's or reader's queue: the first item (waited for) and
    whatever else is already queued, up to :data:`BATCH`; and whether the stop sign (None)
    came after them.  None when the stop sign came first."""
    first = q.get()
    if first is None:
        return None
    batch = [first]
    while len(batch) < BATCH:
        try:
            more = q.get_nowait()
        except queue.Empty:
            break
        if more is None:
            return batch, True
        batch.append(more)
    return batch, False


BATCH: Final = 512
"""Items at most in one batch (one transaction of appends, one query of versions)."""


def _hand_back(batch: list[Append]) -> None:
    """The batch's answers awaited on event loops, handed to each loop at once."""
    loops: dict[asyncio.AbstractEventLoop, list[LoopAnswer]] = {}
    for item in batch:
        if isinstance(item.future, LoopAnswer):
            loops.setdefault(item.future.loop, []).append(item.future)
    for loop, answers in loops.items():
        with contextlib.suppress(RuntimeError):  # a loop closed meanwhile
            loop.call_soon_threadsafe(_settle_on_loop, answers)


_Asked = tuple[str, asyncio.AbstractEventLoop, asyncio.Future[tuple[int, int, int] | None]]
"""A version asked of the :class:`VersionReader`: the game, the loop, the answer."""


class VersionReader(_BatchThread[_Asked]):
    """A shared database's check of a game's version (:func:`read_version`), for the
    event loop: one thread of its own reads every version asked at the same moment, on a
    connection of its own that commits each statement by itself (no transaction to begin
    or end, no pool, no ping: one query a batch, one round trip), and answers the loop
    once for the batch.  Where the long poll and the computer's turn went through a worker
    thread and the pool (the hand-over to the thread and the pool's ping cost more than
    the query).

    Any failure of that connection drops it and answers :class:`ReadFailed`: the caller
    then reads the plain way (:meth:`Store.version <piquet.web.store.Store.version>`,
    through the pool, on a connection checked first), so a fault is met and said as
    before.
    """

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, name="piquet-db-reader")

    def read_async(self, game_id: str) -> asyncio.Future[tuple[int, int, int] | None]:
        """The version of ``game_id`` (None: no such game), on the running loop; raises
        :class:`ReadFailed` when this reader's connection failed."""
        loop = asyncio.get_running_loop()
        out: asyncio.Future[tuple[int, int, int] | None] = loop.create_future()
        self._queue.put((game_id, loop, out))
        return out

    def _handle(self, batch: list[_Asked]) -> None:
        answers: list[tuple[asyncio.Future[Any], Any, bool]] = []
        try:
            conn = self._conn
            if conn is None:
                conn = self._conn = self.engine.connect().execution_options(
                    isolation_level="AUTOCOMMIT")
            found = read_versions(conn, [game_id for game_id, _l, _f in batch])
            answers = [(fut, found.get(game_id), False) for game_id, _l, fut in batch]
        except Exception:
            conn, self._conn = self._conn, None
            _let_go(conn, broken=True)
            answers += [(fut, None, True) for _g, _l, fut in batch[len(answers):]]
        loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any, bool]]] = {}
        for (_g, loop, _f), answer in zip(batch, answers, strict=True):
            loops.setdefault(loop, []).append(answer)
        for loop, some in loops.items():
            with contextlib.suppress(RuntimeError):  # a loop closed meanwhile
                loop.call_soon_threadsafe(_answer_all, some)


class ReadFailed(Exception):
    """The :class:`VersionReader`'s own connection failed: read the plain way."""


def _answer_all(answers: list[tuple[asyncio.Future[Any], Any, bool]]) -> None:
    for fut, value, failed in answers:
        if fut.done():  # the caller gave up waiting
            continue
        if failed:
            fut.set_exception(ReadFailed())
        else:
            fut.set_result(value)


class Checkpointer:
    """SQLite: copies the write-ahead log into the database file from a thread of its own
    every ``every`` seconds (a passive checkpoint: it waits for nobody), so that the
    commit which crosses SQLite's automatic threshold does not have to (its flush of the
    database file would hold up every append waiting behind it)."""

    def __init__(
        self, engine: Engine, every: float = 0.5, *, check: Callable[[], str | None]
    ) -> None:
        self.engine = engine
        self.every = every
        self.check = check
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="piquet-db-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            if self.check() is not None:  # the file is gone: nothing to copy into it
                continue
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as exc:  # the next round tries again; SQLite's own still runs
                log.warning("sqlite checkpoint: %s", exc)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)
