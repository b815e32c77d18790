"""Social play: clocks, open games and quick play, chat, push subscriptions and reviews.

- ``games.time_control`` (a game's clock, None when untimed), ``games.turn_started`` and ``games.deadline`` (when
  the person to move started and when they run out, seconds since the epoch by the database's clock), indexed for
  the sweep that ends the games whose deadline passed; ``game_seats.seconds_left`` (a real-time seat's bank).
- ``games.to_move``: the seat to move (None when the game is over), so that "your games" put yours first.
- ``games.open_until``: a game with open seats (``game_seats.kind`` "open") that anyone may take until then.
- ``seeks``: the players waiting in quick play, until they are seated.
- ``chat_messages``: what the seats, and apart the spectators, said in a game.
- ``push_subscriptions``: the browsers an account asked to be told of its turn when closed (Web Push).
- ``reviews``: the expert's review of a finished game, kept so that a second look costs nothing.
  While it runs its row is the claim of the process computing it (``status`` "running", an empty body, ``owner``,
  ``done`` moves of ``actions``, ``touched``: the last progress), so that every process answers for it.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", recreate="never") as batch:
        batch.add_column(sa.Column("time_control", sa.String(12)))
        batch.add_column(sa.Column("turn_started", sa.Float()))
        batch.add_column(sa.Column("deadline", sa.Float()))
        batch.add_column(sa.Column("open_until", sa.Float()))
        batch.add_column(sa.Column("to_move", sa.Integer()))
    op.create_index("ix_games_deadline", "games", ["status", "deadline"])
    op.create_index("ix_games_open_until", "games", ["status", "open_until"])
    with op.batch_alter_table("game_seats", recreate="never") as batch:
        batch.add_column(sa.Column("seconds_left", sa.Float()))
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("time_control", sa.String(12)),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE")),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("rating", sa.Float()),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("address_key", sa.String(32), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("seen", sa.Float(), nullable=False),
        sa.Column("bot_after", sa.Float()),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL")),
        sa.Column("seat", sa.Integer()),
    )
    op.create_index("ix_seeks_pool", "seeks", ["status", "game", "players"])
    op.create_index("ix_seeks_address_key", "seeks", ["address_key"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("room", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer()),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("address_key", sa.String(32), nullable=False),
        sa.Column("phrase", sa.String(20)),
    )
    op.create_index("ix_chat_messages_game", "chat_messages", ["game_id", "room", "id"])
    op.create_index("ix_chat_messages_address", "chat_messages", ["address_key", "at"])
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(500), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False, server_default="done"),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("touched", sa.Float(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("reviews")
    op.drop_index("ix_push_subscriptions_account_id", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_index("ix_chat_messages_address", "chat_messages")
    op.drop_index("ix_chat_messages_game", "chat_messages")
    op.drop_table("chat_messages")
    op.drop_index("ix_seeks_address_key", "seeks")
    op.drop_index("ix_seeks_pool", "seeks")
    op.drop_table("seeks")
    with op.batch_alter_table("game_seats") as batch:
        batch.drop_column("seconds_left")
    op.drop_index("ix_games_open_until", "games")
    op.drop_index("ix_games_deadline", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("to_move")
        batch.drop_column("open_until")
        batch.drop_column("deadline")
        batch.drop_column("turn_started")
        batch.drop_column("time_control")
