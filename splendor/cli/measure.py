"""``splendor simulate`` and ``bench``: bot games played for their figures, and the engine's speed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from splendor.cli.base import app, bot_list, check_game, console, fail, kids_options
from splendor.sim import bench as run_bench
from splendor.sim import simulate as run_simulate
from splendor.terminal.play import (
    HUMAN,
)


@app.command()
def simulate(
    game: Annotated[str, typer.Option(help="Which game")] = "classic",
    players: Annotated[int, typer.Option(help="Players, 2-4")] = 2,
    seats: Annotated[
        str, typer.Option(help="Bots by seat, comma-separated, repeated to fill the seats")
    ] = "random,greedy",
    games: Annotated[int, typer.Option(help="How many games")] = 100,
    seed: Annotated[int, typer.Option(help="Game i uses seed + i")] = 0,
    max_turns: Annotated[int, typer.Option(min=1, help="Turn cap per game (truncated beyond)")] = 500,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON")] = False,
    records: Annotated[Path | None, typer.Option(help="Save every game's record in this folder")] = None,
    short: Annotated[bool, typer.Option(help="Kids: the short game")] = False,
    mysteries: Annotated[bool, typer.Option(help="Kids: the Mysteries variant")] = False,
    board: Annotated[str | None, typer.Option(help="Kids: comma-separated sides or side files")] = None,
) -> None:
    """Play bot games and report wins per seat, mean turns, truncated games and decisions per second."""
    game = check_game(game)
    bots = bot_list(seats, "--seats")
    if games < 1:
        raise fail("--games must be 1 or more")
    if len(bots) > players:
        raise fail(f"--seats names {len(bots)} bots for {players} players (--players)")
    seat_bots = [bots[i % len(bots)] for i in range(players)]
    if HUMAN in seat_bots:
        raise fail("simulate plays bots only; use 'splendor play' to play")
    try:
        report = run_simulate(
            game,
            players,
            seat_bots,
            games,
            seed,
            max_turns=max_turns,
            records=records,
            options=kids_options(game, short, mysteries, board),
        )
    except ValueError as e:
        raise fail(str(e)) from None
    except OSError as e:  # the records' folder cannot be made or written
        raise fail(f"could not keep the records in {records}: {e.strerror or e}") from None
    figures = report.as_dict()
    if as_json:
        print(json.dumps(figures, sort_keys=True))
        return
    table = Table(title=f"{game}: {games} games, {players} players")
    columns = ["seat", "bot", "wins", "shared wins", "win rate"] + (["forfeits"] if any(report.forfeits) else [])
    for col in columns:
        table.add_column(col)
    for s, bot in enumerate(seat_bots):
        row = [str(s), bot, str(report.wins[s]), str(report.shared_wins[s]), f"{report.wins[s] / games:.1%}"]
        table.add_row(*row, *([str(report.forfeits[s])] if any(report.forfeits) else []))
    console.print(table)
    for s, reason in enumerate(report.forfeit_reasons):
        if reason is not None:
            console.print(f"seat {s} ({seat_bots[s]}) last forfeited: {reason}", markup=False, highlight=False)
    console.print(
        f"mean turns {figures['mean_turns']} · truncated {report.truncated} · stalled {report.stalled} · "
        f"{figures['decisions_per_second']:,.0f} decisions/s · {figures['seconds']} s"
    )


@app.command()
def bench(
    game: Annotated[str, typer.Option(help="Which game")] = "classic",
    players: Annotated[int, typer.Option(help="Players, 2-4")] = 2,
    seconds: Annotated[float, typer.Option(min=0.01, help="How long to run, in CPU seconds")] = 5.0,
    seed: Annotated[int, typer.Option(help="Seed of the playouts")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON")] = False,
) -> None:
    """Random playouts of the reference engine on one core: decisions and games per CPU-second."""
    game = check_game(game)
    try:
        figures = run_bench(game, players=players, seconds=seconds, seed=seed)
    except ValueError as e:
        raise fail(str(e)) from None
    if as_json:
        print(json.dumps(figures, sort_keys=True))
        return
    console.print(
        f"{game}, {players} players, random playouts: "
        f"[bold]{figures['decisions_per_second']:,.0f} decisions/s[/], "
        f"{figures['games_per_second']:,.1f} games/s "
        f"({figures['games']} games, {figures['decisions']} decisions in {figures['seconds']} CPU-s)"
    )
