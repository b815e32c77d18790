"""Who took an open seat: ``game_seats.taker`` keeps the client address (its key, as the request bounds count
addresses) that took a seat from the lobby, so that one address holds open seats in a bounded number of
unfinished games (``Settings.seats_taken_per_client``): one client could take every listed open seat and sit idle.
Seats taken before this migration, and every other seat, keep none (null).

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_seats", recreate="never") as batch:
        batch.add_column(sa.Column("taker", sa.String(length=64), nullable=True))
    op.create_index("ix_game_seats_taker", "game_seats", ["taker"])


def downgrade() -> None:
    op.drop_index("ix_game_seats_taker", table_name="game_seats")
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("taker")
