"""What the tests of ``piquet serve`` processes share: a data directory whose SQLite file is
migrated already.

A server started over an empty ``--data`` directory migrates its new database in a process
of its own (Alembic's import and the migrations: about two thirds of a CPU-second, a quarter
of what starting a server costs).  A test that checks what a running server does with its
database, not how a new one is made, starts over a copy of a database migrated once per
test process; the server then finds the schema current and goes straight on, as it does on
every start but the first.  (The first start over an empty directory is still tested:
test_web_faults_process's workers test, test_web_faults_jobs' memory test and the
command-line tests start from nothing.)  The template costs each test process one
migration (about 0.85 CPU-s), paid back by the second server it starts.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from piquet.web.database import database_url, migrate_in_child

__all__ = ["migrated_data", "migrated_file"]


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
