"""`splendor serve` runs the server on the settings' own defaults: its options show them and pass them on, so that
a bound changed in `Settings` is changed for the command too (the options had repeated some 30 of them)."""

from __future__ import annotations

import dataclasses
import logging
from types import SimpleNamespace
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

import splendor.server.api
from splendor.cli import app
from splendor.server.settings import Settings


def served_settings(monkeypatch: pytest.MonkeyPatch, *args: str) -> Settings:
    """The settings `splendor serve ARGS` builds its application on, the server itself not started."""
    built: list[Settings] = []

    def create_app(settings: Settings) -> Any:
        built.append(settings)
        return object()

    monkeypatch.setattr(splendor.server.api, "create_app", create_app)
    # nor uvicorn's config made, nor logging set up: both put handlers on the runner's streams, closed after, which
    # broke every later log line of the test's worker (a thousand errors in the full run)
    monkeypatch.setattr(uvicorn, "Config", lambda app, **options: app)
    monkeypatch.setattr(uvicorn, "Server", lambda config: SimpleNamespace(run=lambda: None))
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)
    result = CliRunner().invoke(app, ["serve", "--database-url", "sqlite:///unused.sqlite", *args])
    assert result.exit_code == 0, result.output
    (settings,) = built
    return settings


def test_serve_without_options_runs_on_the_settings_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    served = served_settings(monkeypatch, "--bot-workers", "1")
    expected = dataclasses.replace(Settings(), database_url="sqlite:///unused.sqlite", bot_workers=1)
    assert served == expected


def test_serve_options_reach_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    served = served_settings(
        monkeypatch, "--open-seat-minutes", "2", "--lease-seconds", "3", "--messages-per-second", "4"
    )
    assert served.open_seat_seconds == 120
    assert served.lease_seconds == 3 and served.sweep_seconds == 1
    assert served.messages_per_second == 4 and served.message_burst == 12
