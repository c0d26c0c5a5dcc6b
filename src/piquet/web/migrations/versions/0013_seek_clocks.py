"""Seeks with a clock and an id of their own, listed among the lobby's open challenges
(issue 38).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("piquet_seeks") as batch:
        batch.add_column(sa.Column("id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("clock", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("piquet_seeks") as batch:
        batch.drop_column("clock")
        batch.drop_column("id")
