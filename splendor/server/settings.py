"""The server's settings, with embedded defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    """Where the store is, how many processes think for bots, and the bounds on requests."""

    database_url: str | None = None          # None: $SPLENDOR_DATABASE_URL, else SQLite in the user's data folder
    bot_workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))
    max_body_bytes: int = 64 * 1024
    requests_per_second: float = 500.0        # per client address, sustained
    request_burst: int = 1000                 # per client address, at once
    max_games_listed: int = 200
