"""Resignations and rematches become entries of the game's log (the table's own events).

A game's log holds, besides the actions of the rules, the table's events
(:mod:`piquet.table.state`): ``resign`` and ``rematch:ID`` (and ``undo``, which no longer
cuts the log).  Each row of ``piquet_game_ends`` is appended to its game's log (the
resignation first, by the seat that resigned, then the rematch, by the seat that made
it); a resigned game is marked finished; the table is dropped.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_ends = sa.table(
    "piquet_game_ends",
    sa.column("game_id", sa.String),
    sa.column("resigned", sa.Integer),
    sa.column("rematch", sa.String),
    sa.column("rematch_by", sa.Integer),
)
_games = sa.table(
    "piquet_games",
    sa.column("id", sa.String),
    sa.column("n_actions", sa.Integer),
    sa.column("finished", sa.Boolean),
    sa.column("updated_at", sa.Float),
    sa.column("revision", sa.Integer),
)
_actions = sa.table(
    "piquet_actions",
    sa.column("game_id", sa.String),
    sa.column("idx", sa.Integer),
    sa.column("player", sa.Integer),
    sa.column("action", sa.String),
    sa.column("created_at", sa.Float),
)


def upgrade() -> None:
    conn = op.get_bind()
    now = time.time()
    ends = conn.execute(sa.select(_ends)).all()
    for end in ends:
        game = conn.execute(
            sa.select(_games.c.n_actions, _games.c.finished).where(_games.c.id == end.game_id)
        ).first()
        if game is None:
            continue
        n, finished = int(game.n_actions), bool(game.finished)
        entries = []
        if end.resigned is not None:
            entries.append((int(end.resigned), "resign"))
            finished = True
        if end.rematch is not None:
            entries.append((int(end.rematch_by or 0), f"rematch:{end.rematch}"))
        for player, text in entries:
            conn.execute(_actions.insert().values(
                game_id=end.game_id, idx=n, player=player, action=text, created_at=now))
            n += 1
        conn.execute(
            _games.update().where(_games.c.id == end.game_id).values(
                n_actions=n, finished=finished, updated_at=now,
                revision=_games.c.revision + 1)
        )
    op.drop_table("piquet_game_ends")


def downgrade() -> None:
    raise NotImplementedError(
        "the table's events are entries of the log now; an older server cannot read them"
    )
