"""The rules each stored Splendor: Pokémon game was played under: from 2026-12-06 a seat is asked whether to evolve
whenever its hidden card might be the evolution (ruling 5); before, only when an evolution was open. Every
Pokémon game stored before this migration gets the option that keeps its rule (``evolve_only_when_open``,
``splendor.core.record.UPGRADES``), so that it replays, resumes and is reviewed exactly as it was played.

Revision ID: 0017
Revises: 0016
"""

import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

KEPT = "evolve_only_when_open"


def _rewrite(change: Callable[[dict[str, Any]], object]) -> None:
    """Apply ``change`` to the options of every stored Pokémon game."""
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, options FROM games WHERE game = 'pokemon'")).all()
    for game_id, options in rows:
        kept = json.loads(options)
        change(kept)
        bind.execute(sa.text("UPDATE games SET options = :options WHERE id = :id"), {"options": json.dumps(kept), "id": game_id})


def upgrade() -> None:
    _rewrite(lambda options: options.__setitem__(KEPT, True))


def downgrade() -> None:
    _rewrite(lambda options: options.pop(KEPT, None))
