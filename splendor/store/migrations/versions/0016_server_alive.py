"""When a server process was last alive: ``server_alive`` (one row), written every few seconds by each process,
so that a process starting after no server ran for a while gives the timed games' clocks that time back
(`splendor.store.clocks.resume_clocks`). Empty until a process of this version starts.

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_alive",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("alive_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_alive")
