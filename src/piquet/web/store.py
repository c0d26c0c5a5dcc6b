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
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from piquet.table.store import StoreError as TableStoreError

__all__ = [
    "bump_revision",
    "plainly",
    "reason_of",
    "unavailable_words",
    "ActionRow",
    "GameRow",
    "NewSeat",
    "SeatRow",
    "Store",
    "StoreError",
    "database_url",
    "migrate",
]

log = logging.getLogger("piquet.web")
metadata: Final = sa.MetaData()
games_t: Final = sa.Table(
    "piquet_games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("rules", sa.String(64), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("games_to_play", sa.Integer, nullable=False),
    sa.Column("hints", sa.Boolean, nullable=False),
    sa.Column("n_actions", sa.Integer, nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False),
    sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
)
seats_t: Final = sa.Table(
    "piquet_seats",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("level", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
)

actions_t: Final = sa.Table(
    "piquet_actions",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("player", sa.Integer, nullable=False),
    sa.Column("action", sa.String(128), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)


class StoreError(TableStoreError):
    """The database cannot be reached, read or written; the message says which and why
    (for the server's log: it may name the file, the host, the database's own words).

    ``said`` is what a player or a client is told: the same fault in plain words, with no
    path, host, port or library text (:func:`plainly`).  The table's
    :class:`~piquet.table.store.StoreError` (what any store raises), so not a
    :class:`~piquet.core.errors.PiquetError` (nor a ``ValueError``): a database that
    fails is not bad input.  The web answers it with 503 and ``Retry-After``.
    """

    def __init__(self, message: str, *, said: str | None = None) -> None:
        super().__init__(message)
        self.said = plainly(message) if said is None else said


_PLAIN: Final = (
    (("was deleted", "was replaced", "made unreadable"),
     "the server's database file was removed or replaced while it ran: nothing can be "
     "saved until it is put back and the server restarted"),
    (("disk is full", "no space", "file too large", "too large", "quota"),
     "the server's disk is full: nothing can be saved"),
    (("i/o error", "input/output error"),
     "the server cannot write to its disk (it may be full): nothing can be saved"),
    (("readonly", "read-only", "read only"),
     "the server's database cannot be written (it is read-only)"),
    (("not a database", "malformed", "damaged", "corrupt"),
     "the server's database is damaged"),
    (("locked", "busy", "keeps changing"),
     "the server's database is busy"),
    (("connect", "refused", "terminat", "closed", "timeout", "timed out", "did not answer",
      "shutdown", "shutting down", "unreachable", "reset"),
     "the server cannot reach its database"),
)


def unavailable_words(said: str) -> str:
    """What a request that met the database failing is answered (503): ``said``
    (:func:`plainly`), that nothing changed, and to come back."""
    return f"{said}; nothing was changed: try again in a moment"


def plainly(text: str) -> str:
    """What a database failure described by ``text`` (the database's own words, for the
    log) means to a player, in plain words: never a path, a host, a port or a library's
    text."""
    low = text.lower()
    for words, said in _PLAIN:
        if any(w in low for w in words):
            return said
    return "the server cannot use its database"


def reason_of(exc: BaseException) -> str:
    """The database's own words for ``exc``, on one line (no SQL, no links): for the
    server's log (a client hears :func:`plainly`)."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _damaged(exc: BaseException) -> bool:
    """Whether ``exc`` says the SQLite file is not a (whole) database."""
    text = reason_of(exc)
    return "not a database" in text or "malformed" in text


def _sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///PATH`` URL (None for memory or another database)."""
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///") :].split("?", 1)[0]
    return None if not path or path == ":memory:" else Path(path)


class _SqliteFile:
    """The SQLite file the server opened, watched: deleted or replaced under the running
    server, every write from then on would go to a file nobody will ever open again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        st = path.stat()
        self.identity = (st.st_dev, st.st_ino)
        self.lost: str | None = None

    def check(self) -> str | None:
        """None while the file is the one opened; else why not (said once in the log)."""
        if self.lost is not None:
            return self.lost
        try:
            st = self.path.stat()
        except FileNotFoundError:
            what = "deleted"
        except OSError as exc:
            what = f"made unreadable ({exc.strerror})"
        else:
            if (st.st_dev, st.st_ino) == self.identity:
                return None
            what = "replaced"
        self.lost = (
            f"the database file {self.path} was {what} while the server was running: "
            "nothing is acknowledged any more; put the file back (or restore it from a "
            "backup) and restart the server"
        )
        log.error("piquet: %s", self.lost)
        return self.lost


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


def database_url(url: str | None, data_dir: Path) -> str:
    """The SQLAlchemy URL for ``--database`` (or the SQLite file under ``data_dir``).

    ``postgresql://`` and ``postgres://`` URLs get the psycopg (3) driver.  Raises
    :class:`StoreError` for a scheme other than ``sqlite`` or ``postgresql``.
    """
    if not url:
        return f"sqlite:///{(data_dir / 'piquet.sqlite3').resolve()}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    if url.startswith(("postgresql+psycopg://", "sqlite:")):
        return url
    raise StoreError(
        f"unsupported database URL {url.split(':', 1)[0]!r}: use postgresql://USER@HOST/DB "
        "or sqlite:///PATH (the default is a SQLite file under --data)"
    )


SQLITE_SYNC: Final = ("full", "normal")


def make_engine(url: str, *, sqlite_sync: str = "full") -> Engine:
    """An engine for ``url`` (already passed through :func:`database_url`).

    SQLite runs in WAL mode.  ``sqlite_sync="full"`` (the default) flushes every commit
    to disk, so an acknowledged action survives even the machine going down;
    ``"normal"`` survives the server process dying (``kill -9``) but not a power cut.
    """
    if url.startswith("sqlite"):
        if sqlite_sync not in SQLITE_SYNC:
            raise StoreError(f"sqlite sync must be one of {', '.join(SQLITE_SYNC)}")

        def pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sqlite_sync.upper()}")
            cur.execute("PRAGMA busy_timeout=10000")
            cur.close()

        engine = sa.create_engine(url, pool_size=8, max_overflow=16)
        sa.event.listen(engine, "connect", pragmas)
        return engine
    return sa.create_engine(url, pool_size=10, max_overflow=30, pool_pre_ping=True)


_REVISION = re.compile(r'^revision\s*=\s*"([^"]+)"', re.M)
_DOWN = re.compile(r'^down_revision\s*=\s*(?:"([^"]+)"|None)', re.M)


def head_revision() -> str:
    """The newest migration's revision, read from the migration files (the one whose
    revision no other names as its ``down_revision``)."""
    revisions: set[str] = set()
    downs: set[str] = set()
    for path in (Path(__file__).parent / "migrations" / "versions").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        rev, down = _REVISION.search(text), _DOWN.search(text)
        if rev is not None:
            revisions.add(rev[1])
        if down is not None and down[1]:
            downs.add(down[1])
    heads = revisions - downs
    if len(heads) != 1:  # pragma: no cover - the migrations always form one line
        raise RuntimeError(f"the migrations have {len(heads)} heads: {sorted(heads)}")
    return heads.pop()


def _at_head(engine: Engine) -> bool:
    """Whether the database's schema is already the newest migration's (one read)."""
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table("alembic_version"):
                return False
            stored = conn.execute(sa.text("SELECT version_num FROM alembic_version")).all()
    except sa.exc.DBAPIError:
        return False  # said by the migration itself, as ever
    return [r[0] for r in stored] == [head_revision()]


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration (Alembic, in this package).

    Raises :class:`StoreError` when the database cannot be reached.
    """
    if _at_head(engine):
        return  # the usual start: nothing to do, and Alembic (12 MB) never imported
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # several servers may start at once against one database
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(7466757165)"))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    except sa.exc.DBAPIError as exc:
        path = _sqlite_path(str(engine.url))
        if path is not None and _damaged(exc):
            raise StoreError(
                f"the SQLite file {path} is damaged ({reason_of(exc)}): restore it from a "
                "backup, or move it aside to start with no games (`sqlite3 FILE .recover` "
                "may save what is left of it)"
            ) from None
        raise StoreError(f"cannot open the database: {reason_of(exc)}") from None


@dataclass(frozen=True, slots=True)
class _Append:
    game_id: str
    idx: int
    revision: int
    player: int
    action: str
    finished: bool
    future: Future[bool]


# Built once: SQLAlchemy then reuses their compiled form (and their cache keys).
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
_LOG: Final = actions_t.insert()


def bump_revision(conn: sa.Connection, game_id: str) -> None:
    """Raise the revision of ``game_id`` in ``conn``'s transaction: a change other than an
    append, that other processes holding the game must notice (see :meth:`Store.version`)."""
    conn.execute(
        games_t.update()
        .where(games_t.c.id == game_id)
        .values(revision=games_t.c.revision + 1)
    )
_VERSION: Final = sa.select(
    games_t.c.n_actions,
    games_t.c.revision,
    sa.select(sa.func.count())
    .where(seats_t.c.game_id == games_t.c.id, seats_t.c.token_hash.is_not(None))
    .scalar_subquery(),
).where(games_t.c.id == sa.bindparam("b_id"))


def _append_all(conn: sa.Connection, items: Sequence[_Append], now: float) -> list[bool]:
    """Write ``items`` in ``conn``'s transaction: for each, whether the log had its length
    and the game its revision."""
    results = []
    rows = []
    for item in items:
        res = conn.execute(
            _ADVANCE,
            {
                "b_id": item.game_id,
                "b_idx": item.idx,
                "b_rev": item.revision,
                "b_next": item.idx + 1,
                "b_finished": item.finished,
                "b_now": now,
            },
        )
        ok = res.rowcount == 1
        results.append(ok)
        if ok:
            rows.append(
                {
                    "game_id": item.game_id,
                    "idx": item.idx,
                    "player": item.player,
                    "action": item.action,
                    "created_at": now,
                }
            )
    if rows:
        conn.execute(_LOG, rows)
    return results


class _GroupWriter:
    """Group commit: the appends waiting at the same moment share one transaction.

    A single thread writes every pending append in one transaction and answers each
    caller only once that transaction is committed (with SQLite, on disk: one flush
    for them all).  Nothing else waits for it: a caller blocks on its future, or awaits
    it (:meth:`submit_async`) without holding a worker thread.
    """

    def __init__(self, engine: Engine, *, check: Callable[[], str | None] = lambda: None) -> None:
        self.engine = engine
        self.check = check
        """After each commit: None, or why the commit cannot be acknowledged."""
        self.failure: tuple[float, str] | None = None
        """(when, why) the last write failed, until one succeeds."""
        self._queue: queue.SimpleQueue[_Append | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="piquet-db-writer", daemon=True)
        self._thread.start()

    def submit(self, item: _Append) -> bool:
        self._queue.put(item)
        return item.future.result()

    def submit_async(self, item: _Append) -> asyncio.Future[bool]:
        """The result on the running loop.  Cancelling it does not withdraw the append
        (once queued it is written, as a blocking caller's would be)."""
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

        item.future.add_done_callback(lambda done: loop.call_soon_threadsafe(settle, done))
        self._queue.put(item)
        return out

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < 512:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[_Append]) -> None:
        now = time.time()
        lost = self.check()
        if lost is not None:
            for item in batch:
                item.future.set_exception(StoreError(lost))
            return
        try:
            with self.engine.begin() as conn:
                results = _append_all(conn, batch, now)
        except Exception:
            # something in the batch failed: write each on its own, so only it fails
            for item in batch:
                self._write_one(item, now)
            return
        self._settle(batch, results)

    def _settle(self, batch: list[_Append], results: list[bool]) -> None:
        """Answer the callers of a committed batch, unless the file it went to is gone."""
        lost = self.check()
        if lost is not None:
            for item in batch:
                item.future.set_exception(StoreError(lost))
            return
        self.failure = None
        for item, ok in zip(batch, results, strict=True):
            item.future.set_result(ok)  # nobody else settles or cancels these futures

    def _write_one(self, item: _Append, now: float) -> None:
        try:
            with self.engine.begin() as conn:
                (ok,) = _append_all(conn, [item], now)
        except IntegrityError:
            ok = False
        except Exception as exc:
            why = f"cannot write to the database: {reason_of(exc)}"
            self.failure = (time.monotonic(), why)
            log.warning("piquet: %s", why)
            item.future.set_exception(StoreError(why))
            return
        self._settle([item], [ok])


class _Checkpointer:
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


class Store:
    """The games table, the seats and the action log.  Every method is one transaction.

    Methods are blocking (call them from a worker thread in async code).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        path = _sqlite_path(str(engine.url))
        self._file = _SqliteFile(path) if path is not None and path.exists() else None
        self.damaged: str | None = None
        """Why the database was found damaged (a read or write met a malformed page):
        said by the health check until the server restarts (it does not mend itself)."""
        self._writer = _GroupWriter(engine, check=self.lost)
        self._checkpointer = (
            _Checkpointer(engine, check=self.lost) if engine.dialect.name == "sqlite" else None
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
            if _damaged(exc):  # a damaged file does not mend itself: health says so
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
            path = _sqlite_path(url)
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
            migrate(engine)
        except (sa.exc.SQLAlchemyError, OSError) as exc:
            raise StoreError(f"cannot open the database: {reason_of(exc)}") from None
        return cls(engine)

    def close(self) -> None:
        self._writer.close()
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
            conn.execute(games_t.insert().values(updated_at=row["created_at"], **row))
            conn.execute(
                seats_t.insert(),
                [
                    {
                        "game_id": game_id,
                        "seat": n,
                        "kind": s.kind,
                        "level": s.level,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "invite_hash": s.invite_hash,
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
            row = conn.execute(_VERSION, {"b_id": game_id}).first()
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))

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
        item = _Append(game_id, idx, revision, player, action, finished, Future())
        return self._writer.submit(item)

    def append_async(
        self, game_id: str, *, idx: int, revision: int, player: int, action: str, finished: bool
    ) -> asyncio.Future[bool]:
        """:meth:`append` for the event loop: await the result; no thread is held meanwhile."""
        item = _Append(game_id, idx, revision, player, action, finished, Future())
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
