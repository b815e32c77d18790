"""The ``splendor`` command: play in the terminal, replay and review records, run the server, and measure and train
bots. One module a family of commands; each joins the one Typer app (``base.app``) as it is imported, in the order
``--help`` lists them. Heavy or optional imports (the server, the store, PyTorch, Ray) happen inside the command
that needs them, so ``splendor play`` starts without them."""

from __future__ import annotations

import importlib
import inspect
import signal

import typer

from splendor.cli.base import STOPPED_BY, app, terminated
from splendor.cli.kids import kids_app

__all__ = ["app", "main"]

COMMAND_MODULES = ("play", "measure", "arena", "review", "training", "serve", "kids")
"""The modules of the commands, in the order ``--help`` lists them: each registers its commands as it is imported."""
for _module in COMMAND_MODULES:
    importlib.import_module(f"splendor.cli.{_module}")


def _summaries_on_one_line(*apps: typer.Typer) -> None:
    """Give each command its docstring's first paragraph as one line for the list of commands (``--help``), and
    each paragraph as one line for its own help, where Typer's rich help would keep the docstring's line breaks and
    cut a sentence in the middle of the table (or of a line: "A game / left unfinished")."""
    for each in apps:
        for command in each.registered_commands:
            if command.callback is None or not command.callback.__doc__:
                continue
            paragraphs = [" ".join(p.split()) for p in inspect.cleandoc(command.callback.__doc__).split("\n\n")]
            if command.short_help is None:
                command.short_help = paragraphs[0]
            if command.help is None:
                command.help = "\n\n".join(paragraphs)


_summaries_on_one_line(app, kids_app)


def main() -> None:
    """Entry point of the ``splendor`` command. SIGTERM (a ``timeout``, a ``kill``) and SIGHUP (the terminal closed)
    stop a command as Ctrl-C does, so that what it started is stopped with it (a terminated arena had left running
    an outside bot that read no more) and a game played in the terminal is saved (closing the window had lost it).
    (``serve`` sets its own handlers while it runs.)"""
    signal.signal(signal.SIGTERM, terminated)
    hang_up = getattr(signal, "SIGHUP", None)
    if hang_up is not None and signal.getsignal(hang_up) is not signal.SIG_IGN:  # nohup's choice is kept
        signal.signal(hang_up, terminated)
    try:
        app()
    except SystemExit as ended:
        if STOPPED_BY and ended.code in (None, 0, 1, 130):  # stopped as Ctrl-C stops it, not interrupted by it
            raise SystemExit(128 + STOPPED_BY[0]) from None
        raise
