"""A game's winners: ``games.winners`` keeps the seats that won a finished game, comma-joined ("1", "0,2"; empty
when nobody won), written with the action or the forfeit that ends it, so that the games listing says who won.
Games that ended before this migration keep none (null): the listing says only that they were won.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.add_column(sa.Column("winners", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("winners")
