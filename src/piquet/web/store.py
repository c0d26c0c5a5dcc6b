"""Where games live: each one is its seed, its seats and its action log, in a SQL database.

SQLite (a file under the data directory) is the default; PostgreSQL works the same through
SQLAlchemy.  The schema is created and upgraded by the Alembic migrations in
``piquet/web/migrations``.  Nothing here knows the rules: the state of a game is rebuilt by
replaying its log (:mod:`piquet.web.games`).

Appending an action is an optimistic write: it succeeds only if the log still has the length
the writer saw, so two processes sharing one database can never fork a game.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from piquet.errors import PiquetError

__all__ = [
    "ActionRow",
    "GameRow",
    "NewSeat",
    "SeatRow",
    "Store",
    "StoreError",
    "database_url",
    "migrate",
]

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


class StoreError(PiquetError):
    """The database cannot be reached or opened; the message says which and why."""


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


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration (Alembic, in this package).

    Raises :class:`StoreError` when the database cannot be reached.
    """
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
    except sa.exc.OperationalError as exc:
        raise StoreError(f"cannot open the database: {exc.orig}") from None


@dataclass(frozen=True, slots=True)
class _Append:
    game_id: str
    idx: int
    player: int
    action: str
    finished: bool
    future: Future[bool]


def _append_in(conn: sa.Connection, item: _Append, now: float) -> bool:
    res = conn.execute(
        games_t.update()
        .where(games_t.c.id == item.game_id, games_t.c.n_actions == item.idx)
        .values(n_actions=item.idx + 1, finished=item.finished, updated_at=now)
    )
    if res.rowcount != 1:
        return False
    conn.execute(
        actions_t.insert().values(
            game_id=item.game_id,
            idx=item.idx,
            player=item.player,
            action=item.action,
            created_at=now,
        )
    )
    return True


class _GroupWriter:
    """SQLite's group commit: appends waiting at the same moment share one transaction.

    SQLite has one writer at a time and each durable commit costs a disk flush, so a
    single thread writes every pending append in one transaction and answers each
    caller only once that transaction is on disk.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._queue: queue.SimpleQueue[_Append | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="piquet-sqlite-writer", daemon=True)
        self._thread.start()

    def submit(self, item: _Append) -> bool:
        self._queue.put(item)
        return item.future.result()

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
        try:
            with self.engine.begin() as conn:
                results = [_append_in(conn, item, now) for item in batch]
        except Exception:
            # something in the batch failed: write each on its own, so only it fails
            for item in batch:
                self._write_one(item, now)
            return
        for item, ok in zip(batch, results, strict=True):
            item.future.set_result(ok)

    def _write_one(self, item: _Append, now: float) -> None:
        try:
            with self.engine.begin() as conn:
                ok = _append_in(conn, item, now)
        except IntegrityError:
            ok = False
        except Exception as exc:
            item.future.set_exception(StoreError(f"cannot write to the database: {exc}"))
            return
        item.future.set_result(ok)


class Store:
    """The games table, the seats and the action log.  Every method is one transaction.

    Methods are blocking (call them from a worker thread in async code).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer = _GroupWriter(engine) if engine.dialect.name == "sqlite" else None

    @classmethod
    def open(cls, url: str, *, sqlite_sync: str = "full") -> Store:
        """Connect to ``url`` and bring its schema up to date.  Raises :class:`StoreError`."""
        try:
            engine = make_engine(url, sqlite_sync=sqlite_sync)
            if url.startswith("sqlite:///"):
                Path(url[len("sqlite:///") :]).parent.mkdir(parents=True, exist_ok=True)
            migrate(engine)
        except (sa.exc.SQLAlchemyError, OSError) as exc:
            raise StoreError(f"cannot open the database: {exc}") from None
        return cls(engine)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self.engine.dispose()

    # ---------------------------------------------------------------- games
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
    ) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                games_t.insert().values(
                    id=game_id,
                    created_at=now,
                    updated_at=now,
                    rules=rules,
                    format=format,
                    seed=seed,
                    games_to_play=games_to_play,
                    hints=hints,
                    n_actions=0,
                    finished=False,
                )
            )
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

    def game(self, game_id: str) -> GameRow | None:
        """The game and its seats (one query), or None."""
        g, st = games_t.c, seats_t.c
        with self.engine.connect() as conn:
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
        )

    def actions(self, game_id: str, start: int = 0) -> list[ActionRow]:
        """The log of ``game_id`` from index ``start`` on, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(actions_t.c.idx, actions_t.c.player, actions_t.c.action)
                .where(actions_t.c.game_id == game_id, actions_t.c.idx >= start)
                .order_by(actions_t.c.idx)
            ).all()
        return [ActionRow(r.idx, r.player, r.action) for r in rows]

    def append(self, game_id: str, *, idx: int, player: int, action: str, finished: bool) -> bool:
        """Add action number ``idx``; False (and nothing written) if the log is not ``idx`` long.

        The conditional update takes the game's row lock first, so of two writers racing
        for the same index exactly one succeeds.  It returns once the action is committed.
        Raises :class:`StoreError` if the database cannot be written.
        """
        item = _Append(game_id, idx, player, action, finished, Future())
        if self._writer is not None:
            return self._writer.submit(item)
        try:
            with self.engine.begin() as conn:
                if not _append_in(conn, item, time.time()):
                    conn.rollback()
                    return False
        except IntegrityError:
            return False
        return True

    def join(self, game_id: str, *, invite_hash: str, token_hash: str, name: str) -> int | None:
        """Take the open seat whose invite hashes to ``invite_hash``; its number, or None."""
        with self.engine.begin() as conn:
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
                )
                .values(token_hash=token_hash, invite_hash=None, name=name)
            )
            if res.rowcount != 1:
                return None
            return int(row.seat)

    def set_invite(self, game_id: str, seat: int, invite_hash: str) -> bool:
        """Give the open ``seat`` a new invite (the old one stops working)."""
        with self.engine.begin() as conn:
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
