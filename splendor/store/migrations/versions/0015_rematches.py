"""Rematches: ``games.rematch_of`` names the finished game a game is the rematch of, unique, so that a game has
one rematch however many of its people ask for it at once; the people of the game before take their seats in it
(`splendor.store.rematches`). Null for every other game, and for every game kept before this migration.

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.add_column(sa.Column("rematch_of", sa.String(length=32), nullable=True))
    op.create_index("ix_games_rematch_of", "games", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_games_rematch_of", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_of")
