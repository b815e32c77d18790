"""Accounts (a name and a password hash), their sessions, seats and Pokédex profiles that belong to an account,
and an OpenSkill rating per account and game with the change each rated game made.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("failed_sign_ins", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("locked_until", sa.Float()),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(20), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("game_seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", name="fk_seat_account",
                                                                             ondelete="SET NULL")))
    op.create_index("ix_game_seats_account", "game_seats", ["account_id"])
    with op.batch_alter_table("profiles") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id",
                                                                             name="fk_profile_account",
                                                                             ondelete="SET NULL")))


def downgrade() -> None:
    with op.batch_alter_table("profiles") as batch:
        batch.drop_column("account_id")
    op.drop_index("ix_game_seats_account", "game_seats")
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("account_id")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_game", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_sessions_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
