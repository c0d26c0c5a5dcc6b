"""What the tests of ``piquet serve`` processes share: a data directory whose SQLite file is
migrated already, and a new PostgreSQL schema brought to the newest revision without Alembic.

A server started over an empty ``--data`` directory migrates its new database in a process
of its own (Alembic's import and the migrations: about two thirds of a CPU-second, a quarter
of what starting a server costs).  A test that checks what a running server does with its
database, not how a new one is made, starts over a copy of a database migrated once per
test process; the server then finds the schema current and goes straight on, as it does on
every start but the first.  (The first start over an empty directory is still tested:
test_web_faults_process's workers test, test_web_faults_jobs' memory test and the
command-line tests start from nothing.)  The template costs each test process one
migration (about 0.85 CPU-s), paid back by the second server it starts.

On PostgreSQL (``pg_url``, :func:`test_web_kit.pg_schema` with ``migrated``) the statements
Alembic sends to migrate an empty schema are recorded once a test process and sent again to
each new schema, in one transaction (0.01 CPU-s where a first server start spent 0.75); the
recording is checked once a process against the migrated template, column for column.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path
from typing import Any

from piquet.web.database import database_url, migrate_in_child

__all__ = ["migrated_data", "migrated_file", "migrated_pg"]


@functools.cache
def _template() -> Path:
    """A data directory holding a freshly migrated SQLite database (made once; removed when
    the test process exits)."""
    root = Path(tempfile.mkdtemp(prefix="piquet-migrated-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    data = root / "data"
    data.mkdir()
    migrate_in_child(database_url(None, data))
    return data


def migrated_data(data: Path) -> Path:
    """``data`` (a ``--data`` directory) made a copy of a migrated one if it is not there
    yet (one there already, a server's before, is left as it is): the server started over
    it finds its schema current.  Returns ``data``."""
    if not data.exists():
        shutil.copytree(_template(), data)
    return data


def migrated_file(db: Path) -> Path:
    """``db`` (a new SQLite file, for a server in the test process) made a copy of the
    migrated template's database if it is not there yet; one there already is left as it
    is.  Returns ``db``."""
    if not db.exists():
        db.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_template() / "piquet.sqlite3", db)
    return db


# ------------------------------------------------------------------------ PostgreSQL
#: what an empty schema's migration sends, as (statement, parameters, many) for the driver
Script = list[tuple[str, Any, bool]]

_SIGNATURE = [
    "SELECT table_name, column_name, data_type, is_nullable, column_default"
    " FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY 1, 2",
    "SELECT tablename, indexname, indexdef FROM pg_indexes"
    " WHERE schemaname = current_schema() ORDER BY 1, 2",
    "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
    " WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2",
    "SELECT version_num FROM alembic_version",
]


def _signature(url: str) -> list[list[Any]]:
    """What the schema at ``url`` is made of: its columns, indexes, constraints and
    revision (the schema's own name left out: each test's is new)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        name = conn.execute("SELECT current_schema()").fetchone()
        assert name is not None
        return [[tuple(str(v).replace(f'"{name[0]}".', "").replace(f"{name[0]}.", "")
                       for v in row) for row in conn.execute(q)] for q in _SIGNATURE]


@functools.cache
def _pg_script(base: str) -> Script:
    """The statements that migrate an empty PostgreSQL schema to the newest revision: those
    Alembic sent to a template schema, recorded once a test process.  Checked once too: a
    second schema given them is the template's, column for column, index for index."""
    import uuid

    import psycopg
    import sqlalchemy as sa

    from piquet.web.database import make_engine, migrate

    names = [f"piquet_template_{uuid.uuid4().hex[:12]}" for _ in range(2)]
    urls = [f"{base}?options=-csearch_path%3D{name}" for name in names]
    with psycopg.connect(base, autocommit=True) as conn:
        for name in names:
            conn.execute(f'CREATE SCHEMA "{name}"')
    try:
        script: Script = []
        engine = make_engine(database_url(urls[0], Path(".")))

        def record(_conn: Any, _cursor: Any, statement: str, parameters: Any,
                   _context: Any, many: bool) -> None:
            script.append((statement, parameters, many))

        sa.event.listen(engine, "before_cursor_execute", record)
        try:
            migrate(engine)
        finally:
            engine.dispose()
        said = repr(script)
        assert names[0] not in said, "the migration names its schema: it cannot be replayed"
        _replay(urls[1], script)
        assert _signature(urls[1]) == _signature(urls[0]), (
            "a schema given the recorded migration differs from the migrated one")
        return script
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            for name in names:
                conn.execute(f'DROP SCHEMA "{name}" CASCADE')


def _replay(url: str, script: Script) -> None:
    import psycopg

    with psycopg.connect(url) as conn, conn.cursor() as cur:  # one transaction
        for statement, parameters, many in script:
            if many:
                cur.executemany(statement, parameters)
            else:
                cur.execute(statement, parameters)


def migrated_pg(base: str, url: str) -> str:
    """The new, empty schema at ``url`` (on the server at ``base``) brought to the newest
    revision as Alembic brings it, without Alembic: the statements a migration of a template
    sent (:func:`_pg_script`) sent again.  A server started over it finds its schema
    current; each start over a new schema otherwise ran Alembic in a process of its own
    (0.75 CPU-s, some seconds of PostgreSQL's time).  Returns ``url``."""
    _replay(url, _pg_script(base))
    return url
