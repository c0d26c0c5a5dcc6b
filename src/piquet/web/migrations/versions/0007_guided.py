"""The guided games: a practice game with the coach at the player's side.

A row marks a game as guided (``piquet.web.learn_routes``): its seat's page shows the
coach, and ``/api/games/{id}/coach`` answers for it.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_guided",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("piquet_guided")
