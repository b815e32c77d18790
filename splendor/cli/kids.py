"""``splendor kids``: check a transcribed Splendor Kids board, draw a board."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from splendor.cli.base import app, console, errors, fail
from splendor.games import new_game
from splendor.games.kids.board import BoardError, assemble, read_side, read_sides
from splendor.games.kids.svg import svg as kids_svg

kids_app = typer.Typer(help="Splendor Kids boards: check a transcribed board, draw a board.", no_args_is_help=True)
app.add_typer(kids_app, name="kids")


@kids_app.command("check-board")
def check_board(
    files: Annotated[
        list[Path],
        typer.Argument(help="Side files (TOML) to check; several sides in order A1, A2, A3 are also checked to join"),
    ],
) -> None:
    """Check board side files and explain every problem, so a printed board can be transcribed and played."""
    datas = []
    failed = False
    for file in files:
        try:
            datas.append(read_side(file))
            console.print(f"[green]ok[/] {file}: a playable side ({datas[-1]['section']} {datas[-1]['side']})")
        except BoardError as e:
            failed = True
            errors.print(f"[red]{file}[/] cannot be played:")
            for problem in e.problems:
                errors.print(f"  - {problem}", markup=False)
    if not failed and len(datas) > 1:
        try:
            joined = assemble(list(datas))
            console.print(
                f"[green]ok[/] the sides join into a board of {len(joined.spaces)} spaces and "
                f"{len(joined.roads)} roads. Play it: splendor play --game kids --board "
                + ",".join(str(f) for f in files)
            )
        except ValueError as e:
            failed = True
            errors.print(f"the sides do not join: {e}", markup=False)
    if failed:
        raise typer.Exit(code=1)


@kids_app.command("picture")
def picture(
    out: Annotated[Path, typer.Argument(help="Where to write the SVG picture")],
    sides: Annotated[
        str, typer.Option(help="Comma-separated sides or side files, in order A1, A2, A3")
    ] = "A1-front,A2-front,A3-front",
) -> None:
    """Draw a board (shipped sides or your own files) as an SVG picture."""
    try:
        g = new_game("kids", players=2, seed=0, board=read_sides(sides.split(",")), short=len(sides.split(",")) == 2)
    except ValueError as e:
        raise fail(str(e)) from None
    try:
        out.write_text(kids_svg(g.view(None)), encoding="utf-8")
    except OSError as e:
        raise fail(f"could not write {out}: {e.strerror or e}") from None
    console.print(f"Wrote {out}")
