"""Games, seats and the action log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("games_to_play", sa.Integer, nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("n_actions", sa.Integer, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
    )
    op.create_table(
        "piquet_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("piquet_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("invite_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "piquet_actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("piquet_games.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("action", sa.String(128), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("piquet_actions")
    op.drop_table("piquet_seats")
    op.drop_table("piquet_games")
