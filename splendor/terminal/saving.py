"""Saving a terminal game's record where the player asked, without losing it: a place that cannot be written is
said before the game begins (``--record``) or asked again (the prompt at the end), and a record already there is
replaced only when the player says so.

A player found both the hard way: ``--record /proc/y.record`` played a whole game and then failed to save it, and
an existing file typed at the end was replaced by a two-action record without a word.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from splendor.core.game import Game
from splendor.i18n import Message, _
from splendor.terminal.typed import is_yes


def record_problem(path: Path) -> str | None:
    """Why a record cannot be written at ``path`` (plain English, for the command line's error), or None when it can.
    Checked by opening the file for appending, so nothing already there changes; a file it had to create, and any
    folder, are removed again. E.g. ``/proc/game.record`` on Linux: "cannot write there: [Errno 2] No such file or
    directory"."""
    try:
        target = path.expanduser().resolve()  # a link is checked where it leads, and never removed
        if target.is_dir():
            return "it is a folder, not a file"
        if (blocker := _file_on_the_way(target)) is not None:
            return f"{blocker} is a file, not a folder"
        existed = target.exists()
        missing = [p for p in (target.parent, *target.parent.parents) if not p.exists()]
    except (OSError, RuntimeError) as e:  # a folder that may not be read; "~nobody/x"
        return f"cannot write there: {e}"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as e:
        return f"cannot write there: {e}"
    finally:
        if not existed and target.exists():
            target.unlink()
        for folder in missing:  # the deepest first: each made only for this check
            try:
                folder.rmdir()
            except OSError as e:
                if e.errno not in (errno.ENOENT, errno.ENOTEMPTY):
                    raise
    return None


def _file_on_the_way(target: Path) -> Path | None:
    """The first place on the way to ``target`` that is a file where a folder should be, or None (the OS says only
    "File exists" when it is asked to make that folder)."""
    for folder in reversed(target.parents):  # from the root down
        if folder.exists() and not folder.is_dir():
            return folder
    return None


def unasked_place(game: Game) -> Path:
    """Where a game's record goes when nobody can be asked (the command was stopped by SIGTERM): a new file in the
    current folder, named after the game and its seed (``splendor-classic-42.record``; ``-2``, ``-3`` beside one
    that is there already)."""
    place = Path.cwd() / f"splendor-{game.name}-{game.seed}.record"
    n = 1
    while place.exists():
        n += 1
        place = Path.cwd() / f"splendor-{game.name}-{game.seed}-{n}.record"
    return place


def save_asking(
    game: Game,
    path: Path | None,
    notes: dict[str, Any],
    ask: Callable[[str], str],
    say: Callable[[Message], str],
    console: Console,
) -> Path | None:
    """Save the record at ``path`` (given with ``--record``: written without asking), or where the player types
    (``path`` None), until it is saved or they leave it unsaved with an empty answer. A place typed that already
    holds a file is replaced only when they say so; a place that fails is said, and another asked for. Returns
    where it was saved."""
    while True:
        if path is None:
            try:
                answer = ask(say(_("Save the record to a file (empty to skip): "))).strip()
            except EOFError:  # the input ended (Ctrl-D, a pipe run dry): the prompt's line is ended too
                console.print()
                answer = ""
            if not answer:  # said, as a second Ctrl-D had ended the program in silence
                console.print(say(_("The record is not saved.")))
                return None
            try:
                typed = Path(answer).expanduser()
                there = typed.is_file()
            except (OSError, RuntimeError) as e:  # "~nobody/x", a folder that may not be read: asked again
                console.print(say(_("Could not save the record to {path}: {reason}.", path=answer, reason=str(e))))
                continue
            if there and not _yes(ask, say(_("{path} exists: replace it? [y/N] ", path=str(typed))), say):
                continue
            path = typed
        try:
            return save_record(game, path, notes)
        except OSError as e:
            reason = e.strerror or str(e)
            console.print(say(_("Could not save the record to {path}: {reason}.", path=str(path), reason=reason)))
            path = None


def _yes(ask: Callable[[str], str], question: str, say: Callable[[Message], str]) -> bool:
    try:
        return is_yes(ask(question), say)
    except EOFError:
        return False


def save_record(game: Game, path: str | Path, notes: dict[str, Any] | None = None) -> Path:
    """Write the game's record as text, with ``notes`` (what is not an action: a forfeit); returns the path."""
    target = Path(path).expanduser()
    if (blocker := _file_on_the_way(target)) is not None:
        raise NotADirectoryError(errno.ENOTDIR, f"{blocker} is a file, not a folder")
    target.parent.mkdir(parents=True, exist_ok=True)  # a folder that is not there yet is made
    record = game.record
    record.notes = dict(notes or {})
    # written beside it, then put in its place: a record replaced is never left half written (an interrupt)
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_text(record.to_text(), encoding="utf-8")
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)  # (gone once in place; a write that failed leaves nothing behind)
    return target
