"""The games' database: its tables, its engine (SQLite or PostgreSQL), its migrations,
and its failures said in plain words (:class:`StoreError`, :func:`plainly`).

The schema is created and upgraded by the Alembic migrations in ``piquet/web/migrations``;
:class:`~piquet.web.store.Store` reads and writes the games through it.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from piquet.table.store import StoreError as TableStoreError

__all__ = [
    "SQLITE_SYNC",
    "SqliteFile",
    "StoreError",
    "actions_t",
    "at_head",
    "damaged",
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
    "sqlite_path",
    "unavailable_words",
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


def damaged(exc: BaseException) -> bool:
    """Whether ``exc`` says the SQLite file is not a (whole) database."""
    text = reason_of(exc)
    return "not a database" in text or "malformed" in text


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///PATH`` URL (None for memory or another database)."""
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///") :].split("?", 1)[0]
    return None if not path or path == ":memory:" else Path(path)


class SqliteFile:
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
    # as many kept open as the server's threads may use at once (16 worker threads, the
    # group commit's writer, the clocks' sweeper): a connection over ``pool_size`` is
    # closed when handed back, and a new one (a new server process on PostgreSQL's side)
    # opened at the next rush, which under load was a connection every few actions
    return sa.create_engine(url, pool_size=20, max_overflow=20, pool_pre_ping=True)


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


def at_head(engine: Engine) -> bool:
    """Whether the database's schema is already the newest migration's (one read)."""
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table("alembic_version"):
                return False
            stored = conn.execute(sa.text("SELECT version_num FROM alembic_version")).all()
    except sa.exc.DBAPIError:
        return False  # said by the migration itself, as ever
    return [r[0] for r in stored] == [head_revision()]


def schema_current(url: str, *, sqlite_sync: str = "full") -> bool:
    """Whether the database at ``url`` exists and its schema is the newest migration's
    (False when it cannot be read: the migration then says why)."""
    path = sqlite_path(url)
    if path is not None and not path.exists():
        return False
    try:
        engine = make_engine(url, sqlite_sync=sqlite_sync)
    except (sa.exc.SQLAlchemyError, OSError):
        return False
    try:
        return at_head(engine)
    finally:
        engine.dispose()


def migrate_in_child(url: str, *, sqlite_sync: str = "full") -> None:
    """Bring the schema at ``url`` up to date in a process of its own, so that Alembic
    (12 MB) is never loaded into a server that will serve for days.  Raises
    :class:`StoreError` with the child's words when it cannot."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from piquet.web.store import Store, StoreError\n"
        "try:\n"
        "    Store.open(sys.argv[1], sqlite_sync=sys.argv[2]).close()\n"
        "except StoreError as exc:\n"
        "    print(exc, file=sys.stderr)\n"
        "    sys.exit(2)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, url, sqlite_sync],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise StoreError(said[-1] if said else
                         f"cannot open the database: its migration ended with {done.returncode}")


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration (Alembic, in this package).

    Raises :class:`StoreError` when the database cannot be reached.
    """
    if at_head(engine):
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
        path = sqlite_path(str(engine.url))
        if path is not None and damaged(exc):
            raise StoreError(
                f"the SQLite file {path} is damaged ({reason_of(exc)}): restore it from a "
                "backup, or move it aside to start with no games (`sqlite3 FILE .recover` "
                "may save what is left of it)"
            ) from None
        raise StoreError(f"cannot open the database: {reason_of(exc)}") from None
