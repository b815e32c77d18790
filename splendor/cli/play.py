"""``splendor play``, ``pokedex`` and ``replay``: a game in the terminal, a profile's Pokédex, a record stepped
through."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from splendor.bots.base import Forfeit
from splendor.cli.base import (
    STOPPED_BY,
    Terminated,
    app,
    ask,
    check_game,
    chosen_language,
    console,
    fail,
    kids_options,
    terminal_gone,
)
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.core.record import Record
from splendor.games import GAMES, new_game
from splendor.games import replay as replay_record
from splendor.i18n import LANGUAGES, Message, _, _n, translate
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
from splendor.terminal.saving import record_problem, save_asking, unasked_place

RESUMED_FROM_RECORD = ("game", "seed", "max_turns", "short", "mysteries", "board")
"""What a resumed game takes from its record: given on the command line as well, it is refused, not ignored."""


def _resumed(ctx: typer.Context, path: Path, seats: str) -> tuple[Game, list[Seat]]:
    """The game of a saved record, its actions played again, and who sits where: the record's seats, or
    ``--seats`` where given. Refused, with why, when the record cannot be read, is over or ended outside the rules
    (a resignation, a forfeit), or when an option the record fixes is given too."""
    given = [f"--{name.replace('_', '-')}" for name in RESUMED_FROM_RECORD if _given(ctx, name)]
    if given:
        raise fail(f"--resume takes the game and its options from the record; leave out {', '.join(given)}")
    try:
        rec = Record.from_text(path.read_text(encoding="utf-8"))
        g = replay_record(rec)
    except (OSError, ValueError, TypeError, IllegalAction) as e:  # TypeError: options no game takes
        raise fail(f"cannot resume {path}: {e}") from None
    if g.is_over:
        raise fail(f"the game in {path} is over: replay it (splendor replay) or review it (splendor review)")
    if rec.ending() is not None:
        raise fail(
            f"the game in {path} ended after {len(rec.actions)} actions outside its rules (a resignation, an abort, "
            "a clock or a forfeit)"
        )
    try:
        if _given(ctx, "seats"):
            seat_list = parse_seats(seats)
            if len(seat_list) != rec.players:
                raise ValueError(f"the game in {path} has {rec.players} seats; --seats names {len(seat_list)}")
            if rec.game == "pokemon":
                _same_profiles(seat_list, rec.notes)
        else:
            seat_list = seats_from_notes(rec.notes, rec.players)
    except ValueError as e:
        raise fail(str(e)) from None
    return g, seat_list


def _same_profiles(seats: list[Seat], notes: dict[str, Any]) -> None:
    """``ValueError`` where a Pokémon game resumed with ``--seats`` names a Pokédex profile (``name:human``) for a
    seat that someone else played before, as the record's notes say (another profile, a bot, a person without one):
    its Pokédex would be marked with what another caught (ruling 17: each player marks what is in their own play
    area). A seat a profile played may go on unnamed, its Pokédex left unmarked."""
    from splendor.store.names import key_of  # (a Pokémon game opens the store anyway)

    kept = {s.get("seat"): s for s in notes.get("seats") or [] if isinstance(s, dict)}
    for i, now in enumerate(seats):
        then = kept.get(i)
        if now.kind != HUMAN or not now.named or then is None:
            continue
        name = then.get("name") if isinstance(then.get("name"), str) else None
        profile = name if then.get("kind") == HUMAN and name and name != f"player {i}" else None
        if profile is not None and (profile == now.name or key_of(profile) == key_of(now.name) is not None):
            continue  # the same profile, or a name like it (which the profile's own rule then answers)
        played = f"the profile {profile!r}" if profile else repr(name or then.get("bot") or f"player {i}")
        keep = f" {profile}:human, or" if profile else ""
        raise ValueError(
            f"seat {i} was played by {played} so far: a Pokédex is marked only with what its own player caught, "
            f"so the profile {now.name!r} cannot take it over; seat {i} goes on as{keep} human (no Pokédex marked)"
        )


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether an option was given on the command line (or by the environment), not left to its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


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

    language = chosen_language(lang)
    if resume is not None:
        g, seat_list = _resumed(ctx, resume, seats)
        game = g.name
        record = record if record is not None else resume
    else:
        game = check_game(game)
        try:
            seat_list = parse_seats(seats)
            g = new_game(
                game,
                players=len(seat_list),
                seed=seed,
                max_turns=max_turns,
                **kids_options(game, short, mysteries, board),
            )
        except ValueError as e:
            raise fail(str(e)) from None
    try:
        profile_secrets = prove_profiles(game, seat_list, database_url)  # fail now, not after the game
    except ValueError as e:
        raise fail(str(e)) from None
    if record is not None and (problem := record_problem(record)) is not None:  # now, not after the game
        raise fail(f"--record {record}: {problem}")
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
                        f"{i} {s.name}"
                        if s.name.startswith(s.kind)
                        else f"{i} {s.name} ({say(_('human')) if s.kind == HUMAN else s.kind})"
                        for i, s in enumerate(seat_list)
                    ),
                )
            )
        )
    )
    if resume is not None:
        console.print(say(_n("Going on after {n} action.", "Going on after {n} actions.", len(g.history))))
    if any(s.kind == HUMAN for s in seat_list):  # nobody to type in a game of bots
        console.print(
            say(
                _(
                    "Type an action (e.g. {examples}), 'moves' for the legal ones, 'help', 'quit'.",
                    examples=EXAMPLES[game],
                )
            )
        )
    notes: dict[str, Any] = {"seats": seat_notes(seat_list)}  # what the record keeps beside the actions
    stopped: Terminated | None = None  # by SIGTERM or SIGHUP: nobody may be there to answer: saved unasked
    try:
        try:
            play_terminal(g, seat_list, console, ask, seed=g.seed, language=language)
        except KeyboardInterrupt as interrupted:  # Ctrl-C leaves as 'quit' does: the record is saved or offered
            stopped = interrupted if isinstance(interrupted, Terminated) else None
            raise Quit from None
        except OSError as error:  # the terminal gone as the game was drawn (EIO): the hang-up, before its signal
            stopped = terminal_gone(error, sys.stdin)
            raise Quit from None
        console.print(draw(g.view(None), names, language, whole=True))  # the end, all of it once
        over = say(_("Game over."))
        console.print(f"[bold]{over}[/] {escape(describe_result(g, names, language))}")
        try:
            for line in mark_pokedex(g, seat_list, database_url, profile_secrets):
                console.print(line, markup=False)
        except PokedexError as e:
            raise fail(str(e)) from None
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
    if stopped is None and STOPPED_BY:  # the terminal found gone as the game's end was said (a write failed)
        stopped = Terminated(STOPPED_BY[0])
    if stopped is not None and record is None and any(s.kind == HUMAN for s in seat_list):
        record = unasked_place(g)  # a game a person played is never lost, and nobody is asked where
    if record is not None or any(s.kind == HUMAN for s in seat_list):
        try:
            written = save_asking(g, record, notes, ask, say, console)
        except Terminated as hung:  # the terminal closed (or a signal came) at the prompt: kept unasked
            stopped, record = hung, unasked_place(g)
            written = save_asking(g, record, notes, ask, say, console)
        if record is not None and written is None:  # --record asked for it, and nothing was saved: a failure
            raise fail(f"the record was not saved to {record}")
    if written is not None:
        if g.is_over or "forfeit" in notes:
            saved = _("Record saved to {path}. Replay it with: splendor replay {path}", path=str(written))
        else:
            saved = _(
                "Record saved to {path}. Go on with the game later: splendor play --resume {path}", path=str(written)
            )
        console.print(say(saved), markup=False, highlight=False)
    if stopped is not None:  # ended as the signal ends a process, for whatever started it to see
        raise typer.Exit(128 + stopped.signal)


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
        raise fail(str(e)) from None
    console.print(pokedex_table(page))
    if not page.known:  # a typo, or a name never played: said, where an empty page had looked like a real one
        console.print(
            f"No profile is named {profile!r} yet: a profile is made by the first Pokémon game it plays "
            f"(splendor play --game pokemon --seats {profile}:human,greedy).",
            markup=False,
            highlight=False,
        )


def _step_on(prompt: str) -> bool:
    """Whether the replay steps on: Enter does; q, or the input's end (Ctrl-D, a pipe run dry), stops it as q does
    (the input's end had been "Aborted.")."""
    try:
        return ask(prompt).strip().lower() != "q"
    except EOFError:
        console.print()
        return False


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
        raise fail(f"cannot read {file}: {e}") from None
    names = seat_names(rec.notes, rec.players)
    actions = rec.actions if upto is None else rec.actions[:upto]
    if step:  # the deal first, as it stood before the first action
        console.print(draw(g.view(None), names, whole=True))
        if not _step_on("Enter for the first action, q to stop: "):
            return
    for n, text in enumerate(actions, 1):
        seat = g.current_player
        before = g.clone()
        try:
            g.apply(text)
        except IllegalAction as e:
            by = f"by {names[seat]}" if seat is not None else "after the game's end"
            raise fail(f"action {n} of {file}, '{text}' {by}, is illegal: {e}") from None
        did = "; ".join(str(m) for m in what_happened(before, g.history[-1], g))
        console.print(
            f"{n:4}. {names[seat] if seat is not None else '?'}: {text}{' — ' + did if did else ''}", markup=False
        )
        if step:
            console.print(draw(g.view(None), names))
            if not _step_on("Enter for the next action, q to stop: "):
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
