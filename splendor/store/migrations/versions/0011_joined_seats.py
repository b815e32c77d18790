"""Joined seats: ``game_seats.joined`` is true for a seat that was open and was taken, so that while a game still
waits for players only its creator's seats may call it off (a joiner cannot end someone else's open game). Seats
kept before this migration were never open or were taken before it: false.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_seats", recreate="never") as batch:
        batch.add_column(sa.Column("joined", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("joined")
