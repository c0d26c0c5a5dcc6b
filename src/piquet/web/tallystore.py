"""Where tallies live: each one is its rule set, its two names and its entries, in SQL.

A tally (:mod:`piquet.tally`: a game played with real cards, scored entry by entry) is
stored as the normalized entries of its record, one row each, beside the tables of
:mod:`piquet.web.store` (the same engine and metadata; the Alembic migration
``0002_tallies`` creates them).  Nothing here knows the rules: the session is rebuilt by
replaying the entries (:meth:`piquet.tally.TallySession.from_record`).

Every change (entries added, the last one taken back) is an optimistic write: it succeeds
only if the tally's ``version`` is still the one the writer read, and bumps it, so two
requests (or two processes) can never fork a tally; a reader caching a session by
``(id, version)`` never mistakes an undone-and-re-entered tally for the old one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from piquet.web.store import StoreError, metadata, reason_of

__all__ = ["TallyRow", "TallyStore", "tallies_t", "tally_entries_t"]

tallies_t: Final = sa.Table(
    "piquet_tallies",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("rules", sa.String(64), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("games_to_play", sa.Integer, nullable=False),
    sa.Column("player1", sa.String(64), nullable=False),
    sa.Column("player2", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("n_entries", sa.Integer, nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False),
)
tally_entries_t: Final = sa.Table(
    "piquet_tally_entries",
    metadata,
    sa.Column("tally_id", sa.String(32), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("entry", sa.String(400), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
MAX_ENTRY: Final = 400
"""Characters of one stored entry (its JSON); a hand of twelve takes about 60."""


@dataclass(frozen=True, slots=True)
class TallyRow:
    id: str
    token_hash: str
    rules: str
    format: str
    games_to_play: int
    names: tuple[str, str]
    version: int
    n_entries: int
    finished: bool
    created_at: float


class TallyStore:
    """The tallies table and their entries over the server's engine.

    Every method is one transaction and blocks (call it from a worker thread).  Database
    failures raise :class:`~piquet.web.store.StoreError`.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(
        self,
        *,
        tally_id: str,
        token_hash: str,
        rules: str,
        format: str,
        games_to_play: int,
        names: tuple[str, str],
    ) -> None:
        now = time.time()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    tallies_t.insert().values(
                        id=tally_id,
                        token_hash=token_hash,
                        created_at=now,
                        updated_at=now,
                        rules=rules,
                        format=format,
                        games_to_play=games_to_play,
                        player1=names[0],
                        player2=names[1],
                        version=0,
                        n_entries=0,
                        finished=False,
                    )
                )
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot write to the database: {reason_of(exc)}") from None

    def tally(self, tally_id: str) -> TallyRow | None:
        t = tallies_t.c
        try:
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(tallies_t).where(t.id == tally_id)).first()
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot read the database: {reason_of(exc)}") from None
        if row is None:
            return None
        return TallyRow(
            id=row.id,
            token_hash=row.token_hash,
            rules=row.rules,
            format=row.format,
            games_to_play=row.games_to_play,
            names=(row.player1, row.player2),
            version=row.version,
            n_entries=row.n_entries,
            finished=bool(row.finished),
            created_at=row.created_at,
        )

    def snapshot(self, tally_id: str) -> tuple[TallyRow, list[str]] | None:
        """The tally and its entries (their JSON text, in order), as of one moment.

        The row is read again after the entries: when its version moved meanwhile (a
        write committed between the two reads), both are read again.
        """
        e = tally_entries_t.c
        for _attempt in range(20):
            row = self.tally(tally_id)
            if row is None:
                return None
            try:
                with self.engine.connect() as conn:
                    entries = [
                        r.entry
                        for r in conn.execute(
                            sa.select(e.entry)
                            .where(e.tally_id == tally_id, e.idx < row.n_entries)
                            .order_by(e.idx)
                        )
                    ]
            except SQLAlchemyError as exc:
                raise StoreError(f"cannot read the database: {reason_of(exc)}") from None
            again = self.tally(tally_id)
            if again is not None and again.version == row.version:
                return row, entries
        raise StoreError("the tally keeps changing: try again")

    def rewrite_tail(
        self,
        tally_id: str,
        *,
        version: int,
        keep: int,
        add: Sequence[str],
        finished: bool,
    ) -> bool:
        """Keep the first ``keep`` entries, then append ``add``; only at ``version``.

        False (and nothing written) when the tally is no longer at ``version``.
        """
        t, e = tallies_t.c, tally_entries_t.c
        now = time.time()
        try:
            with self.engine.begin() as conn:
                res = conn.execute(
                    tallies_t.update()
                    .where(t.id == tally_id, t.version == version)
                    .values(
                        version=version + 1,
                        n_entries=keep + len(add),
                        finished=finished,
                        updated_at=now,
                    )
                )
                if res.rowcount != 1:
                    conn.rollback()
                    return False
                conn.execute(tally_entries_t.delete().where(e.tally_id == tally_id, e.idx >= keep))
                if add:
                    conn.execute(
                        tally_entries_t.insert(),
                        [
                            {
                                "tally_id": tally_id,
                                "idx": keep + i,
                                "entry": text,
                                "created_at": now,
                            }
                            for i, text in enumerate(add)
                        ],
                    )
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot write to the database: {reason_of(exc)}") from None
        return True
