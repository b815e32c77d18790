"""Alembic's environment: migrations run on the engine that ``open_store`` hands over, on SQLite with its foreign keys
left unenforced while they run."""

from __future__ import annotations

from alembic import context

from splendor.store.models import Base

config = context.config
engine = config.attributes["engine"]

with engine.connect() as connection:
    # SQLite rebuilds a table to alter it (copy, DROP, rename): with foreign keys enforced, the DROP would delete
    # every row that refers to the table (seats and actions of games, marks of profiles) through ON DELETE
    # CASCADE. The pragma is read only outside a transaction, so it is set before the migrations' one begins.
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
    with connection.begin():
        context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
        context.run_migrations()
    if sqlite:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.commit()
