"""Many server processes on one database: who created a game, whether a bot is to move, and the lease by which
exactly one process moves a game's bots (taken over when the lease runs out).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=False, server_default=""))
        batch.add_column(sa.Column("bots_only", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("bot_turn", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("lease_owner", sa.String(32)))
        batch.add_column(sa.Column("lease_until", sa.Float()))
    op.create_index("ix_games_owner_status", "games", ["owner", "status"])
    op.create_index("ix_games_bot_turn", "games", ["bot_turn", "status"])
    # Games kept before this revision: any unfinished game with a bot seat is looked at once by the bot sweep,
    # which sets bot_turn right from the game itself.
    seats = sa.table("game_seats", sa.column("game_id"), sa.column("kind"))
    games = sa.table("games", sa.column("id"), sa.column("status"), sa.column("bot_turn"), sa.column("bots_only"))
    has_bot = sa.exists().where(seats.c.game_id == games.c.id, seats.c.kind == "bot")
    has_human = sa.exists().where(seats.c.game_id == games.c.id, seats.c.kind == "human")
    op.execute(games.update().where(games.c.status == "ongoing").values(bot_turn=has_bot))
    op.execute(games.update().values(bots_only=~has_human))


def downgrade() -> None:
    op.drop_index("ix_games_bot_turn", "games")
    op.drop_index("ix_games_owner_status", "games")
    with op.batch_alter_table("games") as batch:
        for column in ("lease_until", "lease_owner", "bot_turn", "bots_only", "owner"):
            batch.drop_column(column)
