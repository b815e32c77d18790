"""Look-alike keys without punctuation: a name's key (`splendor.store.names.name_key`) now leaves out its spaces
and its ``.'-_``, so "Mary Ann", "Mary_Ann" and "Mary Ann." are one name, as they read on a leaderboard or in a
chat. Every account's and profile's key is computed again here, oldest row first: when two old names now share a
key, the older keeps it and the later ones keep NULL (they stay reachable by their exact name, and block no one;
no row is renamed or dropped, so the upgrade never fails on old data), as migration 0007 filled them.

The downgrade computes the keys as they were (with the punctuation), in the same way. Drain the processes of the
version before first: one still running writes keys with the punctuation, which this version's lookups miss.

Revision ID: 0012
Revises: 0011
"""

import unicodedata
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _key_with_punctuation(name: str) -> str | None:
    """The key as 0007 to 0011 computed it: the skeleton of the casefolded name, punctuation and all."""
    import icu

    from splendor.store.names import BadName, check_name

    try:
        folded = check_name(name).casefold()
    except BadName:
        return None
    return unicodedata.normalize("NFD", icu.SpoofChecker().getSkeleton(0, folded).casefold())


def _refill(key_of: Callable[[str], str | None]) -> None:
    """Every row's ``name_key`` again by ``key_of``, oldest first; a key already taken stays NULL for the later.
    An account's own profile comes before every claimed one, whatever their age: "Mary Ann"'s Pokédex keeps its
    key though an unrelated "Mary_Ann" was claimed earlier."""
    bind = op.get_bind()
    order = {"accounts": "id", "profiles": "CASE WHEN account_id IS NULL THEN 1 ELSE 0 END, id"}
    for table in ("accounts", "profiles"):
        bind.execute(sa.text(f"UPDATE {table} SET name_key = NULL"))
        taken: set[str] = set()
        for row_id, name in bind.execute(sa.text(f"SELECT id, name FROM {table} ORDER BY {order[table]}")).all():
            key = key_of(name)
            if key is None or key in taken:
                continue
            taken.add(key)
            bind.execute(sa.text(f"UPDATE {table} SET name_key = :key WHERE id = :id"), {"key": key, "id": row_id})


def upgrade() -> None:
    from splendor.store.names import key_of  # the key the code computes now

    _refill(key_of)


def downgrade() -> None:
    _refill(_key_with_punctuation)
