"""``splendor hint`` and ``review``: the expert's advice on a recorded position, and its review of a finished game."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.cells import cell_len
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from splendor.cli.base import app, chosen_language, console, errors, fail
from splendor.core.record import Record
from splendor.games import replay as replay_record
from splendor.i18n import LANGUAGES, Message, _, _n, translate
from splendor.terminal.play import (
    describe_result,
    seat_names,
)

if TYPE_CHECKING:
    from splendor.bots.review import MoveReview


@app.command()
def hint(
    file: Annotated[Path, typer.Argument(help="A game record")],
    upto: Annotated[
        int | None, typer.Option(min=0, help="The position after this many actions (default: the end)")
    ] = None,
    iterations: Annotated[int | None, typer.Option(help="Search iterations (default: the expert level's)")] = None,
    seed: Annotated[int, typer.Option(help="Search seed")] = 0,
) -> None:
    """The move the strongest bot (the expert level) prefers in a recorded position, and its estimated win
    chance."""
    from splendor.bots.hint import hint as search_hint
    from splendor.bots.review import percent

    try:
        rec = Record.from_text(file.read_text(encoding="utf-8"))
        g = replay_record(rec, upto=upto)
        if g.is_over:
            raise fail(
                f"the game is over after {len(g.history)} actions: there is nothing to hint. Ask about an earlier "
                f"position with --upto N (0 to {len(g.history) - 1}), or see 'splendor review {file}'."
            )
        advice = search_hint(g, iterations=iterations, seed=seed)
    except (OSError, ValueError) as e:
        raise fail(str(e)) from None
    console.print(
        f"Seat {advice['seat']} should play [bold]{advice['action']}[/] "
        f"(estimated win chance {percent(advice['win_chance'])}%, the {advice['level']} level, "
        f"{advice['iterations']} iterations)."
    )
    for alt in advice["alternatives"]:
        console.print(
            f"  {alt['action']:<28} visits {alt['visits']:>5}  win chance {percent(alt['win_chance'])}%", markup=False
        )


MARK_STYLES = {"inaccuracy": ("yellow", "?!"), "mistake": ("dark_orange", "?"), "blunder": ("bold red", "??")}
"""How the review table shows each mark: its colour and the chess annotator's sign."""

SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float], width: int = 64) -> str:
    """Chances in [0, 1] as one line of block characters, at most ``width`` of them (neighbours averaged).

    >>> sparkline([0.0, 0.5, 1.0])
    '▁▅█'
    """
    if len(values) > width:
        step = len(values) / width
        values = [
            sum(chunk) / len(chunk)
            for chunk in (values[int(i * step) : max(int((i + 1) * step), int(i * step) + 1)] for i in range(width))
        ]
    return "".join(SPARKS[min(len(SPARKS) - 1, max(0, int(v * len(SPARKS))))] for v in values)


REVIEW_TABLE_WIDTH = 110
"""The narrowest terminal the review's table of moves fits; a narrower one has a line a move."""


def _review_cells(m: MoveReview, say: Callable[[Message], str]) -> tuple[str, str, str, str]:
    """A reviewed move's win chance, loss, mark and the expert's move, as the review shows them (rich markup)."""
    from splendor.bots.review import MARK_WORDS, percent

    after = "?" if m.chance_after is None else f"{percent(m.chance_after)}%"
    style, sign = MARK_STYLES.get(m.mark or "", ("", ""))
    mark = f"[{style}]{sign} {escape(say(MARK_WORDS[m.mark]))}[/]" if m.mark else ""
    best = f"{escape(m.best)} ({percent(m.chance_before)}%)" if m.mark else ""
    loss = f"{m.loss:.1%}" if m.loss >= 0.0005 else ""
    return f"{percent(m.chance_before)}% → {after}", loss, mark, best


def _review_table(moves: list[MoveReview], say: Callable[[Message], str]) -> None:
    """The review's moves as a table, a row a move."""
    table = Table(title=say(_("Moves")), box=box.SIMPLE_HEAD)
    table.add_column("#", justify="right")
    table.add_column(say(_("Seat")), justify="right")
    table.add_column(say(_("Move")), no_wrap=True)
    table.add_column(say(_("Win chance")), justify="right", no_wrap=True)
    table.add_column(say(_("Loss")), justify="right", no_wrap=True)
    table.add_column(say(_("Mark")), no_wrap=True)
    table.add_column(say(_("The expert's move")), no_wrap=True)
    for m in moves:
        table.add_row(str(m.number), str(m.seat), escape(m.played), *_review_cells(m, say))
    console.print(table)


def _review_lines(moves: list[MoveReview], names: list[str], say: Callable[[Message], str]) -> None:
    """The review's moves on a narrow terminal, a line each (a table there cut the expert's move to "(78…")."""
    console.print(f"[bold]{escape(say(_('Moves')))}[/]")
    for m in moves:
        chance, loss, mark, best = _review_cells(m, say)
        line = f"{m.number:>4}. {escape(names[m.seat])}: {escape(m.played)}  {chance}"
        if loss:
            line += f"  −{loss}"
        if mark:
            line += f"  {mark} · " + escape(say(_("the expert: {move}", move=best)))
        console.print(line, highlight=False)


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="A finished game's record")],
    iterations: Annotated[
        int | None, typer.Option(min=1, help="Search iterations a position (default: the expert level's, ~1 s)")
    ] = None,
    seed: Annotated[int, typer.Option(help="Search seed")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON")] = False,
    lang: Annotated[
        str | None,
        typer.Option(help="The language of the review: " + ", ".join(LANGUAGES) + " (default: your locale's)"),
    ] = None,
) -> None:
    """The expert's review of a finished game: each player's win chance move by move, from the mover's view
    only, and the inaccuracies, mistakes and blunders with the expert's preferred moves (docs/bots.md)."""
    from splendor.bots.review import BLUNDER, INACCURACY, MISTAKE, NotFinished, percent, reviewable
    from splendor.bots.review import review as review_game

    language = chosen_language(lang)
    say = partial(translate, language=language)
    try:
        rec = Record.from_text(file.read_text(encoding="utf-8"))
        end = replay_record(rec)
    except (OSError, ValueError) as e:
        raise fail(say(_("cannot read {file}: {error}", file=str(file), error=str(e)))) from None
    if not reviewable(rec, end):
        raise fail(say(NotFinished().reason))
    with Progress(console=errors, transient=True, disable=as_json or not errors.is_terminal) as bar:
        task = bar.add_task(say(_("Reviewing")), total=len(end.history))
        done = review_game(rec, iterations=iterations, seed=seed, progress=lambda n, _t: bar.update(task, completed=n))
    if as_json:
        print(json.dumps(done.as_dict(), sort_keys=True, ensure_ascii=False))
        return
    names = seat_names(rec.notes, rec.players, language)
    by = (
        _n(
            "Reviewed by the expert bot, {n} search iteration a position.",
            "Reviewed by the expert bot, {n} search iterations a position.",
            iterations,
        )
        if iterations is not None
        else _("Reviewed by the expert bot, about a second of search a position.")
    )
    console.print(f"[bold]{escape(say(Message(type(end).title)))}[/] · {escape(say(by))}")
    if console.width < REVIEW_TABLE_WIDTH:
        _review_lines(done.moves, names, say)
    else:
        _review_table(done.moves, say)
    heading = say(_("Win chance, move by move"))
    console.print(f"[bold]{escape(heading)}[/]")
    width = max(cell_len(n) for n in names)  # a name's width on screen: a Chinese character takes two cells
    spark = max(16, min(64, console.width - width - 18))  # one line each, on any terminal
    for s, line in enumerate(done.graph()):
        name = names[s] + " " * (width - cell_len(names[s]))
        console.print(f"  {name}  {sparkline(line, spark)}  {percent(line[0])}% → {percent(line[-1])}%", markup=False)
    summary = Table(box=box.SIMPLE_HEAD)
    summary.add_column(say(_("Seat")))
    for word in (_("Inaccuracies"), _("Mistakes"), _("Blunders"), _("Mean loss")):
        summary.add_column(say(word), justify="right")
    for row in done.summary():
        summary.add_row(
            escape(names[row["seat"]]),
            str(row["inaccuracy"]),
            str(row["mistake"]),
            str(row["blunder"]),
            f"{row['mean_loss']:.1%}",
        )
    console.print(summary)
    inaccuracy, mistake, blunder = (f"{percent(drop)}%" for drop in (INACCURACY, MISTAKE, BLUNDER))
    console.print(
        escape(
            say(
                _(
                    "A move that lets the mover's win chance fall below the expert's move's by {inaccuracy} is an "
                    "inaccuracy, by {mistake} a mistake, by {blunder} a blunder.",
                    inaccuracy=inaccuracy,
                    mistake=mistake,
                    blunder=blunder,
                )
            )
        )
    )
    console.print(escape(describe_result(end, names, language, notes=rec.notes)))
