"""Look-alike names and per-address sign-in failures.

Each account and each profile gets ``name_key``, the look-alike key of its name (a UTS #39 confusable skeleton of
the normalised, casefolded name: `splendor.store.names.name_key`), unique, so "Alice" cannot stand beside
"alice", nor Cyrillic "аlice" beside Latin "alice". The keys of the rows kept before are filled here, oldest row
first: when two old names share a key, the older keeps it and the later ones keep NULL (they stay reachable by
their exact name, and block no one; no row is renamed or dropped, so the upgrade never fails on old data). An old
name that today's rule refuses (one made only of Hangul fillers, say) keeps NULL too.

``sign_in_failures`` counts wrong passwords per account and client address (a hash of it), so that guessing from
one address locks that address out, not the owner. The account-wide ``failed_sign_ins`` and ``locked_until`` stay,
unused, for the processes of the version before during a rolling upgrade.

The columns are added, and their unique indexes created, without rebuilding the tables (SQLite's ALTER TABLE ADD
COLUMN), so no foreign key of another table is touched.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

KEY_LENGTH = 400


def _fill_keys(table: str) -> None:
    """Fill ``name_key`` of every row of ``table``, oldest first; a key already taken stays NULL for the later."""
    from splendor.store.names import key_of     # the same key the code computes (ICU's skeleton and data)

    bind = op.get_bind()
    rows = bind.execute(sa.text(f"SELECT id, name FROM {table} ORDER BY id")).all()
    taken: set[str] = set()
    for row_id, name in rows:
        key = key_of(name)
        if key is None or key in taken:
            continue
        taken.add(key)
        bind.execute(sa.text(f"UPDATE {table} SET name_key = :key WHERE id = :id"), {"key": key, "id": row_id})


def upgrade() -> None:
    for table in ("accounts", "profiles"):
        with op.batch_alter_table(table, recreate="never") as batch:
            batch.add_column(sa.Column("name_key", sa.String(KEY_LENGTH)))
        _fill_keys(table)
        op.create_index(f"ix_{table}_name_key", table, ["name_key"], unique=True)
    op.create_table(
        "sign_in_failures",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("address_key", sa.String(32), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.Float()),
        sa.Column("last_failure", sa.Float(), nullable=False),
    )
    op.create_index("ix_sign_in_failures_last_failure", "sign_in_failures", ["last_failure"])


def downgrade() -> None:
    op.drop_index("ix_sign_in_failures_last_failure", "sign_in_failures")
    op.drop_table("sign_in_failures")
    for table in ("profiles", "accounts"):
        op.drop_index(f"ix_{table}_name_key", table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column("name_key")
