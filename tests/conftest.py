"""Shared test settings: Hypothesis runs without deadlines (machines are noisy), derandomised in CI."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
