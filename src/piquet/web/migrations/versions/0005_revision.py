"""A game's revision: raised by an undo, a resignation or a rematch.

A process holding a game in memory compares the log's length and the revision with the
database's before it trusts its copy; the length alone missed an undo followed by as many
new actions.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("piquet_games") as batch:
        batch.add_column(sa.Column("revision", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("piquet_games") as batch:
        batch.drop_column("revision")
