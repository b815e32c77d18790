"""A game's table as plain text, for the environments' ``render_mode="ansi"``."""

from __future__ import annotations

import io

from rich.console import Console

from splendor.core.game import Game


def table_text(game: Game, seat: int | None) -> str:
    """The table as ``seat`` sees it (None: as a spectator), drawn as the terminal game draws it."""
    from splendor.terminal.draw import draw

    console = Console(file=io.StringIO(), width=120, color_system=None, record=True)
    console.print(draw(game.view(seat), [f"seat {s}" for s in range(game.players)], whole=True))  # all of it
    return console.export_text()
