"""Rated games: whether a game was created to be rated (a server-chosen seed, no hints), the secret salt its bots'
seeds derive from (nobody can predict a bot's move from the public game id), how a game ended when no rule ended
it (a seat idle past the limit), and the seats that forfeited and were played on by a bot.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Columns with defaults are added in place (never a rebuilt copy of the table, which on SQLite is slow on a
    # large store).
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("bot_salt", sa.String(32)))
        batch.add_column(sa.Column("ended_by", sa.String(12)))
        batch.add_column(sa.Column("forfeit_seat", sa.Integer()))
    op.create_index("ix_games_rated_idle", "games", ["rated", "status", "bot_turn", "updated_at"])
    with op.batch_alter_table("game_seats", recreate="never") as batch:
        batch.add_column(sa.Column("forfeited", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("forfeited")
    op.drop_index("ix_games_rated_idle", "games")
    with op.batch_alter_table("games") as batch:
        for column in ("forfeit_seat", "ended_by", "bot_salt", "rated"):
            batch.drop_column(column)
