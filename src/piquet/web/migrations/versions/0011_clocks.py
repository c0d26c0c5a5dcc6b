"""The games' clocks: their settings (the time is read from the log; issue 38).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_clocks",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("base", sa.Float, nullable=False),
        sa.Column("increment", sa.Float, nullable=False),
        sa.Column("per_move", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("piquet_clocks")
