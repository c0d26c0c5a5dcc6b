"""Who is online in the lobby, and the seeks for rated games (issue 38).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_presence",
        sa.Column("tab", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("seen_at", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "piquet_seeks",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("span", sa.Integer, nullable=True),
        sa.Column("taken", sa.Boolean, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("piquet_seeks")
    op.drop_table("piquet_presence")
