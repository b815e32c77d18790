"""The durable store: player profiles and their Pokédex marks (and, with the server, games).

SQLAlchemy over any database URL; SQLite in the user's data folder by default. The schema is created and
upgraded by Alembic migrations (``splendor/store/migrations``) every time a store is opened.
"""

from splendor.store.database import Store, database_url, open_store
from splendor.store.pokedex import Pokedex

__all__ = ["Pokedex", "Store", "database_url", "open_store"]
