"""Beyond the table: analyses of finished deals, open challenges, spectator keys.

Revision ID: 0004
Revises: 0003 (chained after the table's 0003_players at the merge)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_analyses",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "piquet_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False, unique=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("invite", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "piquet_watch_keys",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("piquet_watch_keys")
    op.drop_table("piquet_challenges")
    op.drop_table("piquet_analyses")
