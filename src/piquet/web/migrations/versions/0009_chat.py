"""The players' chat of each game, and who muted it (issue 38).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.String(1200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "piquet_chat_mutes",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("piquet_chat_mutes")
    op.drop_table("piquet_chat")
