"""Accounts, their sessions and failed logins; ratings per account and format, and the
rated games (issue 38).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "piquet_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("identity", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "piquet_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "piquet_login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key_hash", sa.String(64), nullable=False, index=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "piquet_ratings",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("format", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "piquet_rated_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("account_0", sa.String(32), nullable=True),
        sa.Column("account_1", sa.String(32), nullable=True),
        sa.Column("settled", sa.Boolean, nullable=False),
        sa.Column("score_0", sa.Float, nullable=True),
        sa.Column("changes", sa.String(400), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("piquet_rated_games")
    op.drop_table("piquet_ratings")
    op.drop_table("piquet_login_failures")
    op.drop_table("piquet_sessions")
    op.drop_table("piquet_accounts")
