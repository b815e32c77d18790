"""``splendor arena`` and ``ladder``: tournaments of bots, and the ladder that fits the server's bot ratings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from splendor.bots.base import BOT_SPECS, bot_for
from splendor.cli.base import app, bot_list, check_game, console, errors, fail

if TYPE_CHECKING:
    from splendor.arena.match import Match, MatchResult


def _check_place(backend: str, workers: int | None, address: str | None) -> None:
    """Refuse, before any game, a place the games cannot run in: an unknown back end, workers on the local one
    (it plays one game after another; they had been ignored without a word), an address off Ray."""
    from splendor.core.workers import Workers

    try:
        Workers(workers or 1, backend, address)
    except ValueError as e:
        raise fail(str(e)) from None


def _play(
    matches: list[Match],
    label: str,
    backend: str,
    workers: int | None,
    address: str | None,
    records: Path | None = None,
) -> list[MatchResult]:
    """Play a tournament's ``matches`` on ``backend``, a progress bar on standard error; a back end that cannot
    serve (Ray missing, a worker's error) is a clear error. Each game's record is written into ``records`` as it
    ends, so that a run stopped (Ctrl-C, a failure) keeps the games it finished; they had been written at the end."""
    from splendor.arena import run_matches

    results = []
    with Progress(console=errors, transient=True) as progress:
        task = progress.add_task(label, total=len(matches))
        try:
            for r in run_matches(matches, backend=backend, workers=workers, address=address):
                results.append(r)
                if records is not None:  # whole or not at all: a stop mid-write leaves no cut record
                    kept = records / f"game-{r.index:05d}.record"
                    kept.with_suffix(".part").write_text(r.record, encoding="utf-8")
                    kept.with_suffix(".part").replace(kept)
                progress.advance(task)
        except (RuntimeError, ValueError) as e:
            raise fail(str(e)) from None
    return results


@app.command()
def arena(
    bots: Annotated[str, typer.Option(help=f"Comma-separated bots, one per seat: {escape(BOT_SPECS)}")],
    game: Annotated[str, typer.Option(help="Which game")] = "classic",
    players: Annotated[
        int | None, typer.Option(help="Players: as many as bots (the only count allowed; a check)")
    ] = None,
    games: Annotated[int, typer.Option(help="How many games")] = 20,
    seed: Annotated[
        int, typer.Option(help="Seed of the deals and the built-in bots (an outside program draws its own each game)")
    ] = 0,
    backend: Annotated[str, typer.Option(help="local, process or ray")] = "process",
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: all cores)")] = None,
    address: Annotated[str | None, typer.Option(help="Ray cluster address (default: a local Ray)")] = None,
    out: Annotated[Path | None, typer.Option(help="Folder for every game's record and summary.json")] = None,
    max_turns: Annotated[int, typer.Option(min=1, help="Turn cap per game (truncated beyond)")] = 500,
    move_time: Annotated[
        float, typer.Option(min=0.1, max=86400.0, help="Seconds an outside bot has per decision (at most a day)")
    ] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON")] = False,
) -> None:
    """Play a tournament with seats rotated, and rate the bots (wins, 95% intervals, OpenSkill)."""
    game = check_game(game)
    from splendor.arena import schedule, standings
    from splendor.arena.schedule import entry_names
    from splendor.store.ratings import elo_like

    specs = bot_list(bots, "--bots")
    players = players if players is not None else len(specs)
    _check_place(backend, workers, address)
    if not 2 <= players <= 4:
        raise fail(f"a game has 2 to 4 players, not {players}")
    if seed < 0:
        raise fail("the seed is a whole number of zero or more")
    try:
        for spec in set(specs):
            bot_for(spec, game)  # a bot that does not play this game is refused now, not in a worker's first game
        matches = schedule(game, players, specs, games, seed, options={"max_turns": max_turns}, move_time=move_time)
    except ValueError as e:
        raise fail(str(e)) from None
    if games % players:
        errors.print(
            f"note: {games} games are not a whole number of deals of {players} games: the last deal is not played "
            "from every seat, so the seats are not quite balanced",
            highlight=False,
        )
    if out is not None:  # before the games: a folder that cannot be is said now, not after an hour of play
        try:
            (out / "records").mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise fail(f"could not keep the records in {out}: {e.strerror or e}") from None
        if any((out / "records").iterdir()):
            raise fail(f"{out / 'records'} holds another run's records: give a new --out (they would be mixed)")
        if (out / "summary.json").is_dir():
            raise fail(f"{out / 'summary.json'} is a folder: the summary could not be written there")
    records = out / "records" if out is not None else None
    results = _play(matches, f"{game}: {games} games on {backend}", backend, workers, address, records)
    table_rows = standings(results, entry_names(specs))
    summary: dict[str, Any] = {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "backend": backend,
        "standings": [t.as_dict() for t in table_rows],
        "truncated": sum(1 for r in results if r.status == "truncated"),
        "stalled": sum(1 for r in results if r.status == "stalled"),
        "forfeits": [dict(r.forfeit, game=r.index) for r in sorted(results, key=lambda x: x.index) if r.forfeit],
        "mean_turns": round(sum(r.turns for r in results) / len(results), 2),
        "seconds_per_decision": round(sum(r.seconds for r in results) / max(1, sum(r.decisions for r in results)), 5),
    }
    if out is not None:
        (out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    if as_json:
        print(json.dumps(summary, sort_keys=True))
        return
    table = Table(
        title=f"{game}: {games} games, {players} players, seats rotated",
        caption="rating: Elo-like, 1500 at the start; 200 points apart, the stronger wins about 76 games in 100",
    )
    columns = ("bot", "games", "wins", "shared", "win rate", "95% interval", "rating", "forfeits")
    rows = [
        (
            t.bot,
            str(t.games),
            str(t.wins),
            str(t.shared),
            f"{t.win_rate:.1%}",
            f"{t.interval[0]:.1%}–{t.interval[1]:.1%}",
            str(elo_like(t.rating)),
            str(t.forfeits),
        )
        for t in table_rows
    ]
    for col in columns:
        table.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for row in rows:
        table.add_row(Text(row[0]), *row[1:])
    widths = [max(cell_len(col), *(cell_len(row[i]) for row in rows)) for i, col in enumerate(columns)]
    if sum(widths) + 3 * len(columns) + 1 > console.width:  # each column's padding and its border
        # too narrow for the table (piped output is 80 columns, and an outside program's command line is long): a
        # line a bot, where the table had cut the names or left the numbers empty
        console.print(f"[bold]{escape(str(table.title))}[/]")
        for row in rows:
            said = ", ".join(f"{col} {value}" for col, value in zip(columns[1:], row[1:]))
            console.print(f"  {escape(row[0])}: {said}", highlight=False)
        console.print(str(table.caption), highlight=False)
    else:
        console.print(table)
    console.print(
        f"mean turns {summary['mean_turns']} · truncated {summary['truncated']} · "
        f"{summary['seconds_per_decision']:.4f} s per decision"
    )
    for f in summary["forfeits"]:
        console.print(
            f"[yellow]forfeit[/] game {f['game']}: {escape(f['bot'])} (seat {f['seat']}): {escape(f['reason'])}",
            highlight=False,
        )
    if out is not None:
        console.print(f"Records and summary.json in {escape(str(out))}")


@app.command()
def ladder(
    bots: Annotated[str, typer.Option(help="Comma-separated bots, weakest first")] = (
        "random,greedy,ismcts:easy,ismcts:medium,learned,ismcts:hard,ismcts:advanced,ismcts:expert"
    ),
    games: Annotated[int, typer.Option(help="Games per pair (even: each deal from both seats)")] = 40,
    reach: Annotated[int, typer.Option(help="Each bot meets the next REACH bots above it")] = 2,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the bots")] = 1,
    backend: Annotated[str, typer.Option(help="local, process or ray")] = "process",
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: all cores)")] = None,
    address: Annotated[str | None, typer.Option(help="Ray cluster address (default: a local Ray)")] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write the fitted ratings here as JSON (the server reads the package's server/bot_ratings.json)"
        ),
    ] = None,
    reuse: Annotated[
        Path | None,
        typer.Option(
            help="Keep the games of every pair this earlier ladder file played (both bots on this ladder, as many "
            "games) and play only the rest: a bot added to the ladder costs only its own pairs"
        ),
    ] = None,
) -> None:
    """Rate bots against one another: each plays the next ones up the ladder in two-player classic games, and one
    strength per bot is fitted to all the games (on the scale of the server's ratings, the weakest bot 0)."""
    import dataclasses
    import datetime
    import time

    from splendor.arena.ladder import BOT_SIGMA, VIRTUAL_DRAW, fit_ladder, kept_pairs, ladder_matches, tally
    from splendor.store.ratings import elo_like

    specs = bot_list(bots, "--bots")
    _check_place(backend, workers, address)
    command = f"splendor ladder --bots {','.join(specs)} --games {games} --reach {reach} --seed {seed}"
    try:
        kept = {} if reuse is None else kept_pairs(json.loads(reuse.read_text(encoding="utf-8")), specs, games)
    except (OSError, ValueError, KeyError, TypeError) as e:  # JSONDecodeError is a ValueError
        raise fail(f"cannot reuse {reuse}: {e}") from None
    if seed < 0:
        raise fail("the seed is a whole number of zero or more")
    try:
        for spec in specs:
            bot_for(spec, "classic")
        matches = ladder_matches(specs, games, seed, reach, kept=kept)
    except ValueError as e:
        raise fail(str(e)) from None
    # before the games: a place that cannot be written is said now, not after an hour and a half of play
    if out is not None and (out.is_dir() or not out.parent.is_dir()):
        raise fail(f"cannot write the ratings to {out}: {'it is a folder' if out.is_dir() else 'no such folder'}")
    if kept:
        console.print(f"kept from {reuse}: {', '.join(f'{low} – {high}' for low, high in kept)}")
    start = time.perf_counter()
    results = _play(matches, f"ladder: {len(matches)} games on {backend}", backend, workers, address)
    scores = {**tally(results, specs), **{pair: (k.score, k.games) for pair, k in kept.items()}}
    fit = fit_ladder(specs, scores)
    shown = {b: elo_like(m - 3 * BOT_SIGMA) for b, m in fit.mu.items()}
    summary = {
        "fitted": datetime.date.today().isoformat(),
        "command": command + (f" --reuse {reuse}" if kept else ""),
        "game": "classic",
        "players": 2,
        "games_per_pair": games,
        "reach": reach,
        "seed": seed,
        "virtual_draw": VIRTUAL_DRAW,
        "sigma": BOT_SIGMA,
        "scale": round(fit.scale, 4),
        "seconds": round(time.perf_counter() - start, 1),
        "no_winner": sum(1 for r in results if not r.winners),  # of the games played by this run; counted as shared
        "mu": fit.mu,
        "error": fit.error,
        "shown": shown,
        "pairs": [
            {**dataclasses.asdict(line), "played_by": kept[line.bots].played_by if line.bots in kept else command}
            for line in fit.pairs
        ],
    }
    if out is not None:
        out.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    table = Table(
        title=f"ladder: {games} games a pair, each bot against the next {reach}",
        caption="rating: as the server shows a bot of this strength (1500: a newcomer)",
    )
    for col in ("bot", "μ", "± (one standard error)", "rating"):
        table.add_column(col)
    for b in specs:
        table.add_row(b, f"{fit.mu[b]:.2f}", f"{fit.error[b]:.2f}", str(shown[b]))
    console.print(table)
    pairs = Table(title="each pair: the lower bot's score")
    for col in ("pair", "games", "score", "observed", "the fit says"):
        pairs.add_column(col)
    for line in fit.pairs:
        low, high = line.bots
        pairs.add_row(f"{low} – {high}", str(line.games), f"{line.score:g}", f"{line.observed:.1%}",
                      f"{line.predicted:.1%}")  # fmt: skip
    console.print(pairs)
    if out is not None:
        console.print(f"Ratings in {out}")
