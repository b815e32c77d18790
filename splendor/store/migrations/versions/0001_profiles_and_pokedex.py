"""Player profiles and their Pokédex marks.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
    )
    op.create_table(
        "pokedex_marks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("profile_id", sa.Integer(), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("pokemon", sa.String(40), nullable=False),
        sa.Column("first_caught_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.UniqueConstraint("profile_id", "pokemon"),
    )


def downgrade() -> None:
    op.drop_table("pokedex_marks")
    op.drop_table("profiles")
