"""The ``splendor`` command: play, replay, simulate, bench."""

from __future__ import annotations

import inspect
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from splendor.bots.base import BOT_SPECS, Forfeit, make_bot
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.core.record import Record
from splendor.core.workers import Workers, ray_session
from splendor.games import GAMES, new_game
from splendor.games import replay as replay_record
from splendor.games.kids.board import BoardError, assemble, read_side, read_sides
from splendor.games.kids.svg import svg as kids_svg
from splendor.i18n import LANGUAGES, Message, _, _n, from_environment, translate
from splendor.server.settings import Settings as ServerSettings
from splendor.sim import bench as run_bench
from splendor.sim import simulate as run_simulate
from splendor.terminal.draw import draw
from splendor.terminal.moves import what_happened
from splendor.terminal.play import (
    EXAMPLES,
    HUMAN,
    Quit,
    Seat,
    describe_result,
    parse_seats,
    play_terminal,
    seat_names,
    seat_notes,
    seats_from_notes,
)
from splendor.terminal.saving import record_problem, save_asking

if TYPE_CHECKING:
    from splendor.arena.match import Match, MatchResult
    from splendor.bots.review import MoveReview

app = typer.Typer(
    help="Play the Splendor family of board games, and measure bots and the engine.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
SERVED = ServerSettings()
"""The server's embedded defaults, which `serve`'s options show and pass on (one place says each of them)."""
errors = Console(stderr=True, highlight=False)


def _language(lang: str | None) -> str:
    """The language asked for with --lang, else the terminal's locale's; a clear error for an unknown one."""
    if lang is None:
        return from_environment(os.environ)
    if lang.strip().lower() not in LANGUAGES:
        raise _fail(f"unknown language {lang!r}; the languages are {', '.join(LANGUAGES)}")
    return lang.strip().lower()


def _fail(message: str) -> typer.Exit:
    errors.print(f"[red]error:[/] {escape(message)}")  # a message is plain text: 'splendor[server]' stays as it is
    return typer.Exit(code=2)


SelfPlayWorkers = Annotated[int, typer.Option(min=1, help="Self-play's workers: processes, or Ray tasks at once")]
SelfPlayBackend = Annotated[str, typer.Option(help="Where self-play runs: local, process or ray")]
RayAddress = Annotated[str | None, typer.Option(help="A running Ray cluster's address, with --backend ray")]


@contextmanager
def _workers(count: int, backend: str, address: str | None) -> Iterator[Workers]:
    """Where a training command's self-play runs, with Ray up for the whole run on the ray back end (one start,
    not one a generation); a clear error for an unknown back end or Ray missing."""
    try:
        where = Workers(count, backend, address)
    except ValueError as e:
        raise _fail(str(e)) from None
    with ExitStack() as up:
        try:
            up.enter_context(ray_session(where))
        except RuntimeError as e:
            raise _fail(str(e)) from None
        yield where


@contextmanager
def _extra(name: str) -> Iterator[None]:
    """Imports for a command that needs the extra ``name``: one not installed is a clear error naming the extra to
    install, not a traceback (a module of splendor's own that is missing is a broken install, raised as it is)."""
    try:
        yield
    except ModuleNotFoundError as e:
        if (e.name or "splendor").partition(".")[0] == "splendor":
            raise
        raise _fail(
            f"this command needs the {name} extra ({e.name} is not installed): pip install 'splendor[{name}]'"
        ) from None


def _bot_list(text: str, option: str) -> list[str]:
    """The bots a comma-separated option names, in order; an error for none at all or an empty place (",greedy"
    had seated greedy alone, and "a,,b" two bots where three were meant)."""
    bots = [b.strip() for b in text.split(",")]
    if not any(bots):
        raise _fail(f"give at least one bot in {option}")
    if not all(bots):
        raise _fail(f"{option} has an empty place: {text!r}")
    return bots


def _check_game(game: str) -> str:
    if game not in GAMES:
        raise _fail(f"unknown game {game!r}; the games are {', '.join(sorted(GAMES))}")
    return game


def _kids_options(game: str, short: bool, mysteries: bool, board: str | None) -> dict[str, Any]:
    """The Kids-only options given on the command line (an error for another game)."""
    given: dict[str, Any] = {k: v for k, v in (("short", short), ("mysteries", mysteries), ("board", board)) if v}
    if given and game != "kids":
        named = [f"--{name}" for name in given]
        flags = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        raise ValueError(f"{flags} {'belongs' if len(given) == 1 else 'belong'} to Splendor Kids, not {game}")
    if board:
        given["board"] = read_sides(board.split(","))
    return given


RESUMED_FROM_RECORD = ("game", "seed", "max_turns", "short", "mysteries", "board")
"""What a resumed game takes from its record: given on the command line as well, it is refused, not ignored."""


def _resumed(ctx: typer.Context, path: Path, seats: str) -> tuple[Game, list[Seat]]:
    """The game of a saved record, its actions played again, and who sits where: the record's seats, or
    ``--seats`` where given. Refused, with why, when the record cannot be read, is over or ended outside the rules
    (a resignation, a forfeit), or when an option the record fixes is given too."""
    given = [f"--{name.replace('_', '-')}" for name in RESUMED_FROM_RECORD if _given(ctx, name)]
    if given:
        raise _fail(f"--resume takes the game and its options from the record; leave out {', '.join(given)}")
    try:
        rec = Record.from_text(path.read_text(encoding="utf-8"))
        g = replay_record(rec)
    except (OSError, ValueError, TypeError, IllegalAction) as e:  # TypeError: options no game takes
        raise _fail(f"cannot resume {path}: {e}") from None
    if g.is_over:
        raise _fail(f"the game in {path} is over: replay it (splendor replay) or review it (splendor review)")
    if rec.ending() is not None:
        raise _fail(
            f"the game in {path} ended after {len(rec.actions)} actions outside its rules (a resignation, an abort, "
            "a clock or a forfeit)"
        )
    try:
        if _given(ctx, "seats"):
            seat_list = parse_seats(seats)
            if len(seat_list) != rec.players:
                raise ValueError(f"the game in {path} has {rec.players} seats; --seats names {len(seat_list)}")
        else:
            seat_list = seats_from_notes(rec.notes, rec.players)
    except ValueError as e:
        raise _fail(str(e)) from None
    return g, seat_list


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether an option was given on the command line (or by the environment), not left to its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _ask(prompt: str) -> str:
    console.print(prompt, end="", markup=False)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


@app.command()
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Option(help="Which game: " + ", ".join(GAMES))] = "classic",
    seats: Annotated[
        str,
        typer.Option(
            help="Comma-separated seats in order, each 'human', a bot "
            "(random, greedy, ismcts:expert, ...) or 'name:kind', e.g. me:human,ismcts:hard"
        ),
    ] = "human,greedy",
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffle (random when left out)")] = None,
    max_turns: Annotated[
        int | None,
        typer.Option(min=1, help="End the game as truncated after this many turns (no cap when left out)"),
    ] = None,
    record: Annotated[Path | None, typer.Option(help="Save the record here at the end, without asking")] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="Where Pokédex profiles are kept (default: $SPLENDOR_DATABASE_URL, else a file in your data folder)"
        ),
    ] = None,
    short: Annotated[bool, typer.Option(help="Kids: the short game (sections A1 and A3)")] = False,
    mysteries: Annotated[bool, typer.Option(help="Kids: the Mysteries in the Kingdom of Splendor variant")] = False,
    board: Annotated[
        str | None,
        typer.Option(help="Kids: comma-separated sides in order, shipped names (A1-front, A2-back, ...) or side files"),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            help="The language of the table, prompts and rule explanations: "
            + ", ".join(LANGUAGES)
            + " (default: your locale's)"
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Go on with a game left unfinished, from the record it was saved to: the same game, deal, seats "
            "and actions (--seats may seat others); the record is saved there again"
        ),
    ] = None,
) -> None:
    """Play a full game in the terminal, people and bots in any mix.

    In Splendor: Pokémon, a human seat given a name (me:human) marks that profile's Pokédex at the end. A game
    left unfinished and saved goes on with --resume.
    """
    from splendor.terminal.pokedex import PokedexError, mark_pokedex, prove_profiles  # opens the store for Pokémon only

    language = _language(lang)
    if resume is not None:
        g, seat_list = _resumed(ctx, resume, seats)
        game = g.name
        record = record if record is not None else resume
    else:
        _check_game(game)
        try:
            seat_list = parse_seats(seats)
            g = new_game(
                game,
                players=len(seat_list),
                seed=seed,
                max_turns=max_turns,
                **_kids_options(game, short, mysteries, board),
            )
        except ValueError as e:
            raise _fail(str(e)) from None
    try:
        profile_secrets = prove_profiles(game, seat_list, database_url)  # fail now, not after the game
    except ValueError as e:
        raise _fail(str(e)) from None
    if record is not None and (problem := record_problem(record)) is not None:  # now, not after the game
        raise _fail(f"--record {record}: {problem}")
    names = [s.name for s in seat_list]
    say = partial(translate, language=language)
    console.print(
        f"[bold]{say(Message(type(g).title))}[/] · "
        + escape(  # seat names are words, never markup: a record's notes may hold "[/]"
            say(
                _(
                    "seed {seed} · seats: {seats}",
                    seed=g.seed,
                    seats=", ".join(  # a bot's name is its own kind already ("greedy 1"): said once
                        f"{i} {s.name}" if s.name.startswith(s.kind) else f"{i} {s.name} ({s.kind})"
                        for i, s in enumerate(seat_list)
                    ),
                )
            )
        )
    )
    if resume is not None:
        console.print(say(_n("Going on after {n} action.", "Going on after {n} actions.", len(g.history))))
    console.print(
        say(_("Type an action (e.g. {examples}), 'moves' for the legal ones, 'help', 'quit'.", examples=EXAMPLES[game]))
    )
    notes: dict[str, Any] = {"seats": seat_notes(seat_list)}  # what the record keeps beside the actions
    try:
        try:
            play_terminal(g, seat_list, console, _ask, seed=g.seed, language=language)
        except KeyboardInterrupt:  # Ctrl-C during the game leaves as 'quit' does: the record is saved or offered
            raise Quit from None
        console.print(draw(g.view(None), names, language, whole=True))  # the end, all of it once
        over = say(_("Game over."))
        console.print(f"[bold]{over}[/] {escape(describe_result(g, names, language))}")
        try:
            for line in mark_pokedex(g, seat_list, database_url, profile_secrets):
                console.print(line, markup=False)
        except PokedexError as e:
            raise _fail(str(e)) from None
    except Quit:
        console.print("\n" + say(_n("Game left after {n} action.", "Game left after {n} actions.", len(g.history))))
        if profile_secrets:  # ruling 17 marks a Pokédex when its game ends, and this one did not
            console.print(say(_("The game did not end, so no Pokédex is marked.")))
    except Forfeit as f:  # an outside program failed: it loses, the game stops, its record says why
        console.print(draw(g.view(None), names, language))
        notes["forfeit"] = {"seat": f.seat, "bot": names[f.seat], "reason": f.reason}
        said = describe_result(g, names, language, notes=notes)
        console.print(f"[bold]{escape(said)}[/]", markup=True, highlight=False)
    written: Path | None = None
    if record is not None or any(s.kind == HUMAN for s in seat_list):
        written = save_asking(g, record, notes, _ask, say, console)
        if record is not None and written is None:  # --record asked for it, and nothing was saved: a failure
            raise _fail(f"the record was not saved to {record}")
    if written is not None:
        if g.is_over or "forfeit" in notes:
            saved = _("Record saved to {path}. Replay it with: splendor replay {path}", path=str(written))
        else:
            saved = _(
                "Record saved to {path}. Go on with the game later: splendor play --resume {path}", path=str(written)
            )
        console.print(say(saved), markup=False, highlight=False)


@app.command()
def pokedex(
    profile: Annotated[str, typer.Argument(help="The profile's name, as in --seats me:human")],
    database_url: Annotated[str | None, typer.Option(help="Where profiles are kept")] = None,
) -> None:
    """Show a profile's Pokédex: all 55 Pokémon by evolution line, marked where caught."""
    from splendor.terminal.pokedex import pokedex_page, pokedex_table

    try:
        page = pokedex_page(profile, database_url)
    except ValueError as e:
        raise _fail(str(e)) from None
    console.print(pokedex_table(page))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record saved by 'splendor play' or 'simulate --records'")],
    step: Annotated[bool, typer.Option(help="Draw the table after each action and wait for Enter")] = False,
    upto: Annotated[int | None, typer.Option(min=0, help="Stop after this many actions")] = None,
) -> None:
    """Check a record action by action, and step through it."""
    try:
        rec = Record.from_text(file.read_text(encoding="utf-8"))
        g = new_game(rec.game, players=rec.players, seed=rec.seed, **rec.options)
    except (OSError, ValueError) as e:
        raise _fail(f"cannot read {file}: {e}") from None
    names = seat_names(rec.notes, rec.players)
    actions = rec.actions if upto is None else rec.actions[:upto]
    if step:  # the deal first, as it stood before the first action
        console.print(draw(g.view(None), names, whole=True))
        if _ask("Enter for the first action, q to stop: ").strip().lower() == "q":
            return
    for n, text in enumerate(actions, 1):
        seat = g.current_player
        before = g.clone()
        try:
            g.apply(text)
        except IllegalAction as e:
            by = f"by {names[seat]}" if seat is not None else "after the game's end"
            raise _fail(f"action {n} of {file}, '{text}' {by}, is illegal: {e}") from None
        did = "; ".join(str(m) for m in what_happened(before, g.history[-1], g))
        console.print(
            f"{n:4}. {names[seat] if seat is not None else '?'}: {text}{' — ' + did if did else ''}", markup=False
        )
        if step:
            console.print(draw(g.view(None), names))
            if _ask("Enter for the next action, q to stop: ").strip().lower() == "q":
                return
    console.print(draw(g.view(None), names, whole=True))
    if g.is_over:
        console.print(f"[bold]The record is complete and legal.[/] {escape(describe_result(g, names))}")
    elif rec.ending() is not None and len(g.history) == len(rec.actions):
        ended = escape(describe_result(g, names, notes=rec.notes))
        console.print(f"[bold]The record is legal; it ended after {len(g.history)} actions.[/] {ended}")
    else:
        console.print(
            f"The record is legal; the game is not over after {len(g.history)} actions "
            f"(seat {g.current_player} to decide)."
        )
        if upto is None or upto >= len(rec.actions):
            console.print(f"Go on with it: splendor play --resume {file}", markup=False)


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
    _check_game(game)
    bots = _bot_list(seats, "--seats")
    if games < 1:
        raise _fail("--games must be 1 or more")
    if len(bots) > players:
        raise _fail(f"--seats names {len(bots)} bots for {players} players (--players)")
    seat_bots = [bots[i % len(bots)] for i in range(players)]
    if HUMAN in seat_bots:
        raise _fail("simulate plays bots only; use 'splendor play' to play")
    try:
        report = run_simulate(
            game,
            players,
            seat_bots,
            games,
            seed,
            max_turns=max_turns,
            records=records,
            options=_kids_options(game, short, mysteries, board),
        )
    except ValueError as e:
        raise _fail(str(e)) from None
    except OSError as e:  # the records' folder cannot be made or written
        raise _fail(f"could not keep the records in {records}: {e.strerror or e}") from None
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
    _check_game(game)
    try:
        figures = run_bench(game, players=players, seconds=seconds, seed=seed)
    except ValueError as e:
        raise _fail(str(e)) from None
    if as_json:
        print(json.dumps(figures, sort_keys=True))
        return
    console.print(
        f"{game}, {players} players, random playouts: "
        f"[bold]{figures['decisions_per_second']:,.0f} decisions/s[/], "
        f"{figures['games_per_second']:,.1f} games/s "
        f"({figures['games']} games, {figures['decisions']} decisions in {figures['seconds']} CPU-s)"
    )


def _play(
    matches: list[Match], label: str, backend: str, workers: int | None, address: str | None
) -> list[MatchResult]:
    """Play a tournament's ``matches`` on ``backend``, a progress bar on standard error; a back end that cannot
    serve (Ray missing, a worker's error) is a clear error."""
    from splendor.arena import run_matches

    results = []
    with Progress(console=errors, transient=True) as progress:
        task = progress.add_task(label, total=len(matches))
        try:
            for r in run_matches(matches, backend=backend, workers=workers, address=address):
                results.append(r)
                progress.advance(task)
        except (RuntimeError, ValueError) as e:
            raise _fail(str(e)) from None
    return results


@app.command()
def arena(
    bots: Annotated[str, typer.Option(help=f"Comma-separated bots, one per seat: {BOT_SPECS}")],
    game: Annotated[str, typer.Option(help="Which game")] = "classic",
    players: Annotated[int | None, typer.Option(help="Players (default: as many as bots)")] = None,
    games: Annotated[int, typer.Option(help="How many games")] = 20,
    seed: Annotated[
        int, typer.Option(help="Seed of the deals and the built-in bots (an outside program draws its own each game)")
    ] = 0,
    backend: Annotated[str, typer.Option(help="local, process or ray")] = "process",
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: all cores)")] = None,
    address: Annotated[str | None, typer.Option(help="Ray cluster address (default: a local Ray)")] = None,
    out: Annotated[Path | None, typer.Option(help="Folder for every game's record and summary.json")] = None,
    max_turns: Annotated[int, typer.Option(min=1, help="Turn cap per game (truncated beyond)")] = 500,
    move_time: Annotated[float, typer.Option(min=0.1, help="Seconds an outside bot has per decision")] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON")] = False,
) -> None:
    """Play a tournament with seats rotated, and rate the bots (wins, 95% intervals, OpenSkill)."""
    _check_game(game)
    from splendor.arena import BACKENDS, schedule, standings
    from splendor.arena.schedule import entry_names
    from splendor.store.ratings import elo_like

    specs = _bot_list(bots, "--bots")
    players = players or len(specs)
    if backend not in BACKENDS:
        raise _fail(f"unknown back end {backend!r}; the back ends are {', '.join(BACKENDS)}")
    try:
        for spec in set(specs):
            make_bot(spec)
        matches = schedule(game, players, specs, games, seed, options={"max_turns": max_turns}, move_time=move_time)
    except ValueError as e:
        raise _fail(str(e)) from None
    if out is not None:  # before the games: a folder that cannot be is said now, not after an hour of play
        try:
            (out / "records").mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise _fail(f"could not keep the records in {out}: {e.strerror or e}") from None
    results = _play(matches, f"{game}: {games} games on {backend}", backend, workers, address)
    table_rows = standings(results, entry_names(specs))
    summary: dict[str, Any] = {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "backend": backend,
        "standings": [t.as_dict() for t in table_rows],
        "truncated": sum(1 for r in results if r.status == "truncated"),
        "forfeits": [dict(r.forfeit, game=r.index) for r in sorted(results, key=lambda x: x.index) if r.forfeit],
        "mean_turns": round(sum(r.turns for r in results) / len(results), 2),
        "seconds_per_decision": round(sum(r.seconds for r in results) / max(1, sum(r.decisions for r in results)), 5),
    }
    if out is not None:
        for r in results:
            (out / "records" / f"game-{r.index:05d}.record").write_text(r.record, encoding="utf-8")
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
        typer.Option(help="Write the fitted ratings here as JSON (the server reads splendor/server/bot_ratings.json)"),
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

    from splendor.arena import BACKENDS
    from splendor.arena.ladder import BOT_SIGMA, VIRTUAL_DRAW, fit_ladder, kept_pairs, ladder_matches, tally
    from splendor.store.ratings import elo_like

    specs = _bot_list(bots, "--bots")
    if backend not in BACKENDS:
        raise _fail(f"unknown back end {backend!r}; the back ends are {', '.join(BACKENDS)}")
    command = f"splendor ladder --bots {','.join(specs)} --games {games} --reach {reach} --seed {seed}"
    try:
        kept = {} if reuse is None else kept_pairs(json.loads(reuse.read_text(encoding="utf-8")), specs, games)
    except (OSError, ValueError, KeyError, TypeError) as e:  # JSONDecodeError is a ValueError
        raise _fail(f"cannot reuse {reuse}: {e}") from None
    try:
        for spec in specs:
            make_bot(spec)
        matches = ladder_matches(specs, games, seed, reach, kept=kept)
    except ValueError as e:
        raise _fail(str(e)) from None
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
            raise _fail(
                f"the game is over after {len(g.history)} actions: there is nothing to hint. Ask about an earlier "
                f"position with --upto N (0 to {len(g.history) - 1}), or see 'splendor review {file}'."
            )
        advice = search_hint(g, iterations=iterations, seed=seed)
    except (OSError, ValueError) as e:
        raise _fail(str(e)) from None
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

    language = _language(lang)
    say = partial(translate, language=language)
    try:
        rec = Record.from_text(file.read_text(encoding="utf-8"))
        end = replay_record(rec)
    except (OSError, ValueError) as e:
        raise _fail(say(_("cannot read {file}: {error}", file=str(file), error=str(e)))) from None
    if not reviewable(rec, end):
        raise _fail(say(NotFinished().reason))
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
    console.print(
        escape(
            say(
                _(
                    "A move that lets the mover's win chance fall below the expert's move's by {inaccuracy} is an "
                    "inaccuracy, by {mistake} a mistake, by {blunder} a blunder.",
                    inaccuracy=f"{percent(INACCURACY)}%",
                    mistake=f"{percent(MISTAKE)}%",
                    blunder=f"{percent(BLUNDER)}%",
                )
            )
        )
    )
    console.print(escape(describe_result(end, names, language, notes=rec.notes)))


@app.command()
def train(
    game: Annotated[str, typer.Option(help="classic or pokemon")] = "classic",
    generations: Annotated[int, typer.Option(min=1, help="Rounds of self-play and fitting")] = 4,
    games: Annotated[int, typer.Option(min=2, help="Self-play games per generation")] = 500,
    seed: Annotated[int, typer.Option(help="Seed of the whole run")] = 1,
    iterations: Annotated[int, typer.Option(min=1, help="Search iterations a move in self-play")] = 1500,
    match_games: Annotated[int, typer.Option(min=2, help="Games of each generation's match")] = 80,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players at each self-play game")] = 2,
    workers: SelfPlayWorkers = 1,
    backend: SelfPlayBackend = "process",
    address: RayAddress = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Where to write the weights (default: the shipped ones; runs/<game>-<n>p.json for 3-4)"),
    ] = None,
) -> None:
    """Learn the expert level's evaluation by self-play (docs/bots.md): writes the weights and the curve. The levels
    use two-player weights at every count; weights of three or four are for measuring (benchmarks/lone_seat.py)."""
    from splendor.search.learning.training import GAMES, WEIGHTS_DIR
    from splendor.search.learning.training import train as run

    if game not in GAMES:
        raise _fail(f"the learned evaluation is trained for {', '.join(GAMES)}, not {game!r}")
    if players > 2 and match_games % players:
        raise _fail(f"--match-games plays whole deals, from every seat: {match_games} games for {players} players")
    with _workers(workers, backend, address) as where:
        result = run(
            game,
            generations=generations,
            games=games,
            seed=seed,
            iterations=iterations,
            match_games=match_games,
            workers=where,
            report=lambda line: console.print(line, markup=False),
            players=players,
        )
    default = WEIGHTS_DIR / f"{game}.json" if players == 2 else Path(f"runs/{game}-{players}p.json")
    path = _write_run(result, out if out is not None else default)
    console.print(f"Weights and learning curve in {path}")


def _write_run(result: dict[str, Any], path: Path) -> Path:
    """Write a training run's result (its weights and curve) as JSON to ``path``; a clear error if it cannot."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        raise _fail(str(e)) from None
    return path


@app.command("train-policy")
def train_policy(
    game: Annotated[str, typer.Option(help="classic or pokemon")] = "classic",
    generations: Annotated[int, typer.Option(min=1, help="Rounds of self-play and fitting")] = 1,
    games: Annotated[int, typer.Option(min=2, help="Self-play games per generation")] = 120,
    seed: Annotated[int, typer.Option(help="Seed of the whole run")] = 1,
    iterations: Annotated[int, typer.Option(min=1, help="Search iterations a move in self-play")] = 8000,
    match_games: Annotated[int, typer.Option(min=2, help="Games of each generation's match")] = 100,
    match_iterations: Annotated[
        int | None, typer.Option(min=1, help="Search iterations a move in the matches (default: as self-play)")
    ] = None,
    workers: SelfPlayWorkers = 1,
    backend: SelfPlayBackend = "process",
    address: RayAddress = None,
    out: Annotated[Path | None, typer.Option(help="Where to write the policy (default: the shipped one)")] = None,
) -> None:
    """Learn the expert level's policy, the priors its search explores by, from its own search (docs/bots.md):
    writes the weights and the curve."""
    from splendor.search.learning.policy_training import policy_path
    from splendor.search.learning.policy_training import train_policy as run
    from splendor.search.learning.training import GAMES

    if game not in GAMES:
        raise _fail(f"the learned policy is trained for {', '.join(GAMES)}, not {game!r}")
    with _workers(workers, backend, address) as where:
        result = run(
            game,
            generations=generations,
            games=games,
            seed=seed,
            iterations=iterations,
            match_games=match_games,
            match_iterations=match_iterations,
            workers=where,
            report=lambda line: console.print(line, markup=False),
        )
    path = _write_run(result, out if out is not None else policy_path(game))
    console.print(f"Policy and learning curve in {path}")


@app.command("train-network")
def train_network(
    game: Annotated[str, typer.Option(help="classic or pokemon")] = "classic",
    generations: Annotated[int, typer.Option(min=1, help="Rounds of self-play and fitting")] = 2,
    games: Annotated[int, typer.Option(min=2, help="Self-play games per generation")] = 200,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players at each self-play game")] = 2,
    seed: Annotated[int, typer.Option(help="Seed of the whole run")] = 1,
    iterations: Annotated[int, typer.Option(min=1, help="Search iterations a move in self-play")] = 4000,
    match_games: Annotated[int, typer.Option(min=0, help="Games of each generation's match (2 players)")] = 100,
    match_iterations: Annotated[
        int | None, typer.Option(min=1, help="Search iterations a move in the matches (default: as self-play)")
    ] = None,
    epochs: Annotated[int, typer.Option(min=1, help="Passes over the games at each fit")] = 30,
    workers: SelfPlayWorkers = 1,
    backend: SelfPlayBackend = "process",
    address: RayAddress = None,
    run: Annotated[
        Path | None, typer.Option(help="Folder of the run's games, to go on where a stopped run stopped")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Where to write the network (default: the shipped one)")] = None,
    value_from_evaluation: Annotated[
        bool, typer.Option(help="Start the value from the learned evaluation; the head learns a correction")
    ] = False,
    device: Annotated[
        str,
        typer.Option(
            help="Where each fit runs: cpu, cuda, or auto (the GPU when PyTorch sees one). A GPU gives the same "
            "network up to floating-point noise; the shipped ones are fitted on the CPU"
        ),
    ] = "cpu",
) -> None:
    """Learn the expert's policy and value network by self-play (docs/bots.md; needs PyTorch, the learn
    extra): writes the network, its learning curve and its probe."""
    from splendor.search.learning.network import network_path, save_network
    from splendor.search.learning.network_training import train_network as run_training

    folder = run if run is not None else Path(f"runs/network-{game}-{players}p-seed{seed}")
    try:
        with _workers(workers, backend, address) as where:
            net, meta, probe, outputs = run_training(
                game,
                folder,
                generations=generations,
                games=games,
                players=players,
                seed=seed,
                iterations=iterations,
                match_games=match_games,
                match_iterations=match_iterations,
                workers=where,
                epochs=epochs,
                report=lambda line: console.print(line, markup=False),
                from_evaluation=value_from_evaluation,
                device=device,
            )
    except ModuleNotFoundError as e:
        if e.name != "torch":
            raise
        raise _fail(f"training the network needs PyTorch ({e}); pip install 'splendor[learn]'") from None
    except ValueError as e:
        raise _fail(str(e)) from None
    path = out if out is not None else network_path(game)
    try:
        save_network(path, net, meta, probe, outputs)
    except OSError as e:
        raise _fail(str(e)) from None
    console.print(f"Network and learning curve in {path}; the run's games in {folder}")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="Where games and profiles are kept (default: $SPLENDOR_DATABASE_URL, else SQLite in your data folder)"
        ),
    ] = None,
    bot_workers: Annotated[int | None, typer.Option(help="Processes that think for bots")] = None,
    warm_bot_workers: Annotated[
        bool,
        typer.Option(
            "--warm-bot-workers/--lazy-bot-workers",
            help="Start the bots' processes with the server (lazy: at the first bot's turn, which then waits for "
            "them; a server that seats no bot never starts them)",
        ),
    ] = SERVED.warm_bot_workers,
    requests_per_second: Annotated[
        float, typer.Option(help="Requests a client address may make per second")
    ] = SERVED.requests_per_second,
    request_burst: Annotated[
        int, typer.Option(help="Requests a client address may make at once")
    ] = SERVED.request_burst,
    max_body: Annotated[int, typer.Option(help="Largest request body, in bytes")] = SERVED.max_body_bytes,
    games_per_client: Annotated[
        int, typer.Option(help="Unfinished games one client address may create")
    ] = SERVED.games_per_client,
    seats_taken_per_client: Annotated[
        int, typer.Option(min=1, help="Unfinished games in which one client address may take an open seat")
    ] = SERVED.seats_taken_per_client,
    games_per_minute: Annotated[
        int, typer.Option(min=1, help="New games one client address may create a minute")
    ] = SERVED.games_per_minute,
    messages_per_second: Annotated[
        float,
        typer.Option(help="WebSocket messages one connection may send per second (a burst of three seconds' worth)"),
    ] = SERVED.messages_per_second,
    write_retry_seconds: Annotated[
        float, typer.Option(help="How long a refused write to the store is retried before the action is answered 503")
    ] = SERVED.write_retry_seconds,
    bot_pause: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=30.0,
            help="Seconds a bot playing people waits after the last action, so that each move can be seen (0: at once)",
        ),
    ] = SERVED.bot_pause_seconds,
    allow_chosen_seeds: Annotated[
        bool,
        typer.Option(
            help="Let games with two or more people be created with a "
            "chosen seed (for a private server or tests: the "
            "creator then knows every deck)"
        ),
    ] = SERVED.allow_chosen_seeds,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=1.0,
            max=600.0,
            help="With several processes on one "
            "PostgreSQL: how long a process's hold on "
            "a game's bots lasts unless renewed (a "
            "dead process's bots are taken over "
            "after about this long)",
        ),
    ] = SERVED.lease_seconds,
    header_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds a request's line and headers may take "
            "to arrive from their first byte (then 408 and the "
            "connection is closed)",
        ),
    ] = SERVED.header_timeout,
    body_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds a request's body may take to arrive after its headers (then the connection is closed)",
        ),
    ] = SERVED.body_timeout,
    idle_timeout: Annotated[
        float,
        typer.Option(
            min=0.1, help="Seconds a connection may stay open with no request (new, or kept alive after a response)"
        ),
    ] = SERVED.idle_timeout,
    connections_per_client: Annotated[
        int,
        typer.Option(
            min=1,
            help="HTTP connections one client address may "
            "hold open at once (beyond: closed as they "
            "open; proxies of --forwarded-allow-ips are "
            "not counted)",
        ),
    ] = SERVED.connections_per_client,
    websockets_per_client: Annotated[
        int, typer.Option(min=1, help="WebSockets one client address may hold open at once (beyond: closed, 1013)")
    ] = SERVED.websockets_per_client,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="Comma-separated addresses or networks of the proxies "
            "in front of the server: only their X-Forwarded-For "
            "and X-Forwarded-Proto are believed (default: none; a "
            "client's own such headers are ignored)"
        ),
    ] = SERVED.forwarded_allow_ips,
    store_deadline: Annotated[
        float,
        typer.Option(min=0.5, help="Seconds a read of the store is waited for before the request is answered 503"),
    ] = SERVED.store_seconds,
    idle_forfeit_seconds: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="In a rated game, seconds the person to "
            "move may take before they forfeit (two "
            "players: they lose; three or four: a bot "
            "plays their seat on, ranked last)",
        ),
    ] = SERVED.idle_forfeit_seconds,
    review_iterations: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Search iterations a move of a game's review (default: the expert's budget, about a second, "
            "as 'splendor review'; fewer for tests)",
        ),
    ] = None,
    reviews_at_once: Annotated[
        int, typer.Option(min=1, help="Reviews one process runs at once")
    ] = SERVED.reviews_at_once,
    vapid_private_key: Annotated[
        str | None,
        typer.Option(
            envvar="SPLENDOR_VAPID_PRIVATE_KEY",
            help="Web Push: the PEM file of the server's VAPID private key ('vapid --gen' makes one; docs/server.md). "
            "Without it, push notifications are off",
        ),
    ] = None,
    vapid_subject: Annotated[
        str | None,
        typer.Option(
            envvar="SPLENDOR_VAPID_SUBJECT",
            help="Web Push: where push services reach the operator, mailto:you@example.org or an https: address",
        ),
    ] = None,
    push_services: Annotated[
        str | None,
        typer.Option(
            help="Web Push: comma-separated origins of the push services a browser may subscribe at, a host "
            "perhaps starting with '*.' (default: those of Chrome, Firefox, Safari and Edge)",
        ),
    ] = None,
    allow_short_clocks: Annotated[
        bool,
        typer.Option(help="Let games choose a clock of seconds, such as 10s+0 (for tests: nobody plays on one)"),
    ] = SERVED.allow_short_clocks,
    open_seat_minutes: Annotated[
        float, typer.Option(min=0.01, help="Minutes a game's open seats wait for takers before it expires")
    ] = SERVED.open_seat_seconds / 60,
    open_seat_correspondence_days: Annotated[
        float, typer.Option(min=0.001, help="The same, in days, for a game of days a move")
    ] = SERVED.open_seat_correspondence_seconds / 86400,
    seeks_per_minute: Annotated[
        int, typer.Option(min=1, help="New quick-play requests per client address")
    ] = SERVED.seeks_per_minute,
    finding_sweep_seconds: Annotated[
        float, typer.Option(min=0.05, help="How often quick play matches waiting players and open seats expire")
    ] = SERVED.finding_sweep_seconds,
) -> None:
    """Run the game server: HTTP + WebSocket API, games kept in the store and resumed after a restart."""
    import logging
    from importlib.util import find_spec

    from splendor.store.database import database_url as resolve_url

    with _extra("server"):
        import uvicorn

        from splendor.server import Settings, create_app
        from splendor.server.transport import bounded_protocol, raise_file_limit
    if resolve_url(database_url).startswith("postgresql") and find_spec("psycopg") is None:
        raise _fail("a PostgreSQL store needs psycopg, which is not installed: pip install 'splendor[server]'")

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    extra: dict[str, Any] = {} if bot_workers is None else {"bot_workers": bot_workers}
    settings = Settings(
        database_url=database_url,
        warm_bot_workers=warm_bot_workers,
        requests_per_second=requests_per_second,
        request_burst=request_burst,
        max_body_bytes=max_body,
        games_per_client=games_per_client,
        seats_taken_per_client=seats_taken_per_client,
        games_per_minute=games_per_minute,
        write_retry_seconds=write_retry_seconds,
        allow_chosen_seeds=allow_chosen_seeds,
        bot_pause_seconds=bot_pause,
        lease_seconds=lease_seconds,
        sweep_seconds=min(SERVED.sweep_seconds, lease_seconds / 3),
        messages_per_second=messages_per_second,
        message_burst=max(1, int(3 * messages_per_second)),
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        idle_timeout=idle_timeout,
        connections_per_client=connections_per_client,
        websockets_per_client=websockets_per_client,
        forwarded_allow_ips=forwarded_allow_ips,
        store_seconds=store_deadline,
        idle_forfeit_seconds=idle_forfeit_seconds,
        review_iterations=review_iterations,
        reviews_at_once=reviews_at_once,
        allow_short_clocks=allow_short_clocks,
        open_seat_seconds=open_seat_minutes * 60,
        open_seat_correspondence_seconds=open_seat_correspondence_days * 86400,
        seeks_per_minute=seeks_per_minute,
        finding_sweep_seconds=finding_sweep_seconds,
        vapid_private_key=vapid_private_key,
        vapid_subject=vapid_subject,
        **extra,
    )
    if push_services is not None:
        from dataclasses import replace

        settings = replace(settings, push_services=tuple(o.strip() for o in push_services.split(",") if o.strip()))
    try:
        from splendor.server.push import configured_vapid

        configured_vapid(settings)
    except ValueError as e:
        raise _fail(f"push notifications: {e}") from None
    try:
        protocol = bounded_protocol(header_timeout, body_timeout, connections_per_client, forwarded_allow_ips)
    except ValueError as e:
        raise _fail(f"--forwarded-allow-ips: {e}") from None
    files, _hard = raise_file_limit()
    console.print(
        f"splendor server on [bold]http://{host}:{port}/[/] (API at /api, schema at /docs) · "
        f"store: {_safe_url(resolve_url(database_url))} · open files: {files}",
        highlight=False,
    )
    # Forwarded headers are believed only from the proxies named: uvicorn's default trusts 127.0.0.1, so any
    # client on the machine (or a proxy that passes them through) could name its own address and escape every
    # per-address bound.
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        access_log=False,
        log_level="info",
        ws_max_size=settings.max_frame_bytes,
        http=protocol,
        timeout_keep_alive=idle_timeout,  # type: ignore[arg-type]  # a float works
        proxy_headers=bool(forwarded_allow_ips.strip()),
        forwarded_allow_ips=forwarded_allow_ips.strip() or [],
    )
    uvicorn.Server(config).run()


def _safe_url(url: str) -> str:
    """A database URL with any password blanked."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(custom database)"


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
        raise _fail(str(e)) from None
    try:
        out.write_text(kids_svg(g.view(None)), encoding="utf-8")
    except OSError as e:
        raise _fail(f"could not write {out}: {e.strerror or e}") from None
    console.print(f"Wrote {out}")


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
    """Entry point of the ``splendor`` command."""
    app()


if __name__ == "__main__":
    main()
