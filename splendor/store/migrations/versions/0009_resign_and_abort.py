"""Resign and abort: how a seat of a game of three or four forfeited (``idle`` or ``resigned``) and after how
many actions, so that the record and the replay say it. A game of two ended by a resignation or an abort keeps
it in ``games.ended_by`` (``resigned``, ``aborted``), which needs no new column.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_seats", recreate="never") as batch:
        batch.add_column(sa.Column("forfeited_by", sa.String(12)))
        batch.add_column(sa.Column("forfeited_at", sa.Integer()))


def downgrade() -> None:
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("forfeited_at")
        batch.drop_column("forfeited_by")
