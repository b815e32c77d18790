"""Alembic's environment: migrations run on the engine that ``open_store`` hands over."""

from __future__ import annotations

from alembic import context

from splendor.store.models import Base

config = context.config
engine = config.attributes["engine"]

with engine.begin() as connection:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    context.run_migrations()
