"""Tallies: games played with real cards, scored entry by entry.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_tallies",
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
    op.create_table(
        "piquet_tally_entries",
        sa.Column("tally_id", sa.String(32), sa.ForeignKey("piquet_tallies.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("entry", sa.String(400), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("piquet_tally_entries")
    op.drop_table("piquet_tallies")
