"""An index on games.created_at, so the games listing (newest first, ``ORDER BY created_at DESC LIMIT n``) reads the
newest rows of the index instead of sorting the whole games table.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_created_at", "games", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_games_created_at", "games")
