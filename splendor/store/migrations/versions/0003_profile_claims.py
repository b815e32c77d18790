"""Pokédex profiles are claimed with a secret (only its hash is kept), and a seat marks only a profile it proved.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("profiles", sa.Column("secret_hash", sa.String(64)))
    op.add_column("game_seats", sa.Column("profile", sa.String(40)))


def downgrade() -> None:
    op.drop_column("game_seats", "profile")
    op.drop_column("profiles", "secret_hash")
