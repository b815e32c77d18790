"""What every command of ``splendor`` shares: the Typer app they join, the consoles, and the checks of their
common options, each a clear error (exit status 2) rather than a traceback."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Annotated, Any, cast

import typer
from rich.console import Console
from rich.markup import escape

from splendor.games import GAMES
from splendor.games.kids.board import read_sides
from splendor.i18n import LANGUAGES, from_environment


class Terminated(KeyboardInterrupt):
    """SIGTERM (a ``timeout``, a ``kill``) or SIGHUP (the terminal closed, an ssh connection dropped), raised where
    the command was: it stops as Ctrl-C stops it, and where Ctrl-C would ask something (a game's record), nothing is
    asked: nobody may be there to answer. ``signal`` is which; the command ends with status 128 + it."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signal = signum


STOPPED_BY: list[int] = []
"""The signal that stopped the command (SIGTERM, SIGHUP), once one has: it ends with status 128 + it."""


def terminated(signum: int, _frame: object) -> None:
    """The handler of SIGTERM and SIGHUP that ``main`` sets: `Terminated` raised, once: a closing terminal sends
    SIGHUP twice (the shell passes one on, the kernel sends another as the shell ends), and the second had cut the
    saving of a game's record short. After a hang-up the terminal is gone: what the command still says (it saves
    a game's record) goes nowhere, rather than fail to be written. A signal after a hang-up found another way (a
    write that failed on another thread) is let be: the main thread meets that one at its next question."""
    if STOPPED_BY:
        return
    raise _stopped(signum)


def terminal_gone(error: OSError, stream: IO[str]) -> Terminated:
    """The hang-up, where reading or writing ``stream``, a terminal, failed with an input/output error (EIO): a
    closing window's terminal fails its reads some seconds before its SIGHUP arrives, and a game had ended on that
    error half the time, its record lost. Taken as the hang-up itself (`terminated`); ``error`` of another kind,
    or on a stream that is no terminal (a file on a failing disk), is raised again as it is."""
    if error.errno != errno.EIO or not _a_terminal(stream):
        raise error
    return _stopped(getattr(signal, "SIGHUP", signal.SIGTERM))


def _a_terminal(stream: IO[str]) -> bool:
    """Whether ``stream`` is a device other than /dev/null, as a terminal is (a terminal gone no longer says it is
    a terminal: isatty fails on it), not a file, a pipe or a socket, whose input/output errors are their own."""
    try:
        found = os.fstat(stream.fileno())
        return stat.S_ISCHR(found.st_mode) and found.st_rdev != os.stat(os.devnull).st_rdev
    except (OSError, ValueError):  # (io.UnsupportedOperation: a stream with no file, as a test's capture)
        return False


def _gone(stream: IO[str]) -> bool:
    """Whether ``stream`` was a terminal and is one no more: its input's end is the window closing, not Ctrl-D."""
    try:
        return _a_terminal(stream) and not stream.isatty()
    except (OSError, ValueError):
        return False


_STOPPING = threading.RLock()  # (re-entered by a signal's handler on the thread that holds it)


def _stopped(signum: int) -> Terminated:
    """Stop taking SIGTERM and SIGHUP, remember ``signum``, and after a hang-up send what is still said nowhere:
    once, whichever thread meets it first (a progress bar's refresh may; signals are set on the main thread)."""
    with _STOPPING:
        if STOPPED_BY:
            return Terminated(STOPPED_BY[0])
        if threading.current_thread() is threading.main_thread():
            for each in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
                if each is not None:
                    signal.signal(each, signal.SIG_IGN)
        STOPPED_BY.append(signum)
        if signum == getattr(signal, "SIGHUP", None):
            with contextlib.suppress(OSError):
                nowhere = os.open(os.devnull, os.O_WRONLY)
                for stream in (1, 2):
                    os.dup2(nowhere, stream)
        return Terminated(signum)


app = typer.Typer(
    help="Play the Splendor family of board games, and measure bots and the engine.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class _Screen:
    """The standard output (or error) as the consoles write to it. Where a write fails with an input/output error
    (EIO), the terminal is gone before its SIGHUP came: the hang-up is taken then (`terminal_gone`) and what is
    still said goes nowhere, so that a game's record is still saved, not lost to the error."""

    def __init__(self, name: str) -> None:
        self._name = name

    @property
    def _stream(self) -> IO[str]:
        """The stream itself: while a progress bar or a spinner runs, Rich puts a proxy in ``sys.stdout`` that
        writes through the console, which would write to it again, for ever (a code review's find: a search bot's
        spinner hung the game)."""
        stream = getattr(sys, self._name)
        proxied: IO[str] = getattr(stream, "rich_proxied_file", stream)
        return proxied

    def write(self, text: str) -> int:
        stream = self._stream
        try:
            return stream.write(text)
        except OSError as error:
            terminal_gone(error, stream)
            return len(text)

    def flush(self) -> None:
        stream = self._stream
        try:
            stream.flush()
        except OSError as error:
            terminal_gone(error, stream)

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"


console = Console(file=cast(IO[str], _Screen("stdout")), highlight=False)
errors = Console(file=cast(IO[str], _Screen("stderr")), highlight=False)


def _show_version(asked: bool) -> None:
    if asked:
        from splendor import __version__

        console.print(f"splendor {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="Show the version and exit")
    ] = False,
) -> None:
    """The options of ``splendor`` itself, before a command."""


def chosen_language(lang: str | None) -> str:
    """The language asked for with --lang, else the terminal's locale's; a clear error for an unknown one."""
    if lang is None:
        return from_environment(os.environ)
    if lang.strip().lower() not in LANGUAGES:
        raise fail(f"unknown language {lang!r}; the languages are {', '.join(LANGUAGES)}")
    return lang.strip().lower()


def fail(message: str) -> typer.Exit:
    """Print ``message`` as the command's error and give the exit to raise (status 2: the command was used
    wrongly, or its input cannot be read): ``raise fail("...")``."""
    errors.print(f"[red]error:[/] {escape(message)}")  # a message is plain text: 'splendor[server]' stays as it is
    return typer.Exit(code=2)


@contextmanager
def needs_extra(name: str) -> Iterator[None]:
    """Imports for a command that needs the extra ``name``: one not installed is a clear error naming the extra to
    install, not a traceback (a module of splendor's own that is missing is a broken install, raised as it is)."""
    try:
        yield
    except ModuleNotFoundError as e:
        if (e.name or "splendor").partition(".")[0] == "splendor":
            raise
        raise fail(
            f"this command needs the {name} extra ({e.name} is not installed): pip install 'splendor[{name}]'"
        ) from None


def bot_list(text: str, option: str) -> list[str]:
    """The bots a comma-separated option names, in order; an error for none at all or an empty place (",greedy"
    had seated greedy alone, and "a,,b" two bots where three were meant)."""
    bots = [b.strip() for b in text.split(",")]
    if not any(bots):
        raise fail(f"give at least one bot in {option}")
    if not all(bots):
        raise fail(f"{option} has an empty place: {text!r}")
    return bots


def check_game(game: str) -> str:
    """The game named (in any case: ``Pokemon`` is ``pokemon``), or a clear error naming the games."""
    if game.strip().lower() not in GAMES:
        raise fail(f"unknown game {game!r}; the games are {', '.join(sorted(GAMES))}")
    return game.strip().lower()


def kids_options(game: str, short: bool, mysteries: bool, board: str | None) -> dict[str, Any]:
    """The Kids-only options given on the command line (an error for another game)."""
    given: dict[str, Any] = {k: v for k, v in (("short", short), ("mysteries", mysteries), ("board", board)) if v}
    if given and game != "kids":
        named = [f"--{name}" for name in given]
        flags = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        raise ValueError(f"{flags} {'belongs' if len(given) == 1 else 'belong'} to Splendor Kids, not {game}")
    if board:
        given["board"] = read_sides(board.split(","))
    return given


def ask(prompt: str) -> str:
    """A line typed after ``prompt``; `EOFError` at the input's end, `Terminated` if the terminal is gone (a read
    or a write failed with EIO, now or before: a terminal gone may also read as the input's end)."""
    try:
        console.print(prompt, end="", markup=False)
        line = "" if STOPPED_BY else sys.stdin.readline()
    except OSError as error:
        raise terminal_gone(error, sys.stdin) from None
    if not line and not STOPPED_BY and _gone(sys.stdin):  # a closed window may read as the input's end
        _stopped(getattr(signal, "SIGHUP", signal.SIGTERM))
    if STOPPED_BY:
        raise Terminated(STOPPED_BY[0])
    if not line:
        raise EOFError
    return line
