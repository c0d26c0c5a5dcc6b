"""The browser's games list (an identity cookie's seats), resignations and rematches.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_player_games",
        sa.Column("identity_hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("token_box", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "piquet_game_ends",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("resigned", sa.Integer, nullable=True),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("rematch_by", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("piquet_game_ends")
    op.drop_table("piquet_player_games")
