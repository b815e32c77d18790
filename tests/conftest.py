"""Shared test settings: Hypothesis runs without deadlines (machines are noisy), derandomised in CI; the longest
files are collected first."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


SLOW_FIRST = (
    "tests/kids/test_svg.py",
    "tests/web/test_table.py",
    "tests/test_wheel.py",
    "tests/web/test_browser.py",
    "tests/server/test_accounts.py",
    "tests/test_cli.py",
    "tests/server/test_hostile.py",
    "tests/test_workers.py",
    "tests/server/test_api.py",
    "tests/test_protocol_properties.py",
    "tests/test_vector_env.py",
    "tests/server/test_account_hardening.py",
    "tests/server/test_many_processes.py",
    "tests/server/test_durability.py",
    "tests/web/test_tutorial.py",
    "tests/server/test_quick_play.py",
    "tests/server/test_resign.py",
    "tests/test_compiled.py",
    "tests/server/test_seats_and_rated_games.py",
    "tests/web/test_languages.py",
)
"""The files that took longest in `make test` (the sum of their tests' times in a full run of 2026-12-04, from
60 s to 620 s; the arena's Ray test has since moved to tests/test_workers.py), longest first."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest files go first: `make test` deals whole files to its workers in this order (xdist's
    ``--no-loadscope-reorder``: by default it deals the files with the most tests first, however long they take),
    and a long file dealt last would run alone at the end while the other workers idle. The order within a file
    is kept."""
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}

    def place(item: pytest.Item) -> int:
        return rank.get(item.path.relative_to(config.rootpath).as_posix(), len(rank))

    items.sort(key=place)
