"""The terminal's Pokédex: proving the profiles a Pokémon game's seats are named after, marking them at the end,
and drawing a profile's page.

The marks live in the store (``splendor.store.pokedex``), the same Pokédex the web app keeps; the secrets that
prove a profile is this terminal's are kept beside it (`splendor.terminal.profiles`). Every failure is a
`PokedexError` saying what went wrong, for the command line to print.

The store (SQLAlchemy and its migrations, a second to import) is imported only when a Pokédex is opened: a game
of classic or Kids in the terminal never loads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table

from splendor.core.game import Game
from splendor.terminal.play import HUMAN, Seat

if TYPE_CHECKING:
    from splendor.store import Pokedex
    from splendor.store.pokedex import PokedexPage


class PokedexError(ValueError):
    """The Pokédex could not be opened, proved or marked; the message says why."""


def open_pokedex(database_url: str | None) -> Pokedex:
    """The Pokédex kept at ``database_url`` (default: the user's own SQLite store)."""
    from sqlalchemy.exc import SQLAlchemyError

    from splendor.store import Pokedex, open_store

    try:
        return Pokedex(open_store(database_url))
    except SQLAlchemyError as e:
        raise PokedexError(f"could not open the Pokédex store: {e}") from None


def _named_humans(seats: list[Seat]) -> list[tuple[int, str]]:
    return [(s, seat.name) for s, seat in enumerate(seats) if seat.kind == HUMAN and seat.named]


def prove_profiles(game: str, seats: list[Seat], database_url: str | None) -> dict[str, str]:
    """For a Pokémon game, the secret of each profile a human seat is named after: kept by this terminal, or
    claimed now (an error if someone else holds the profile). Nothing for another game."""
    named = [name for _, name in _named_humans(seats)]
    if game != "pokemon" or not named:
        return {}
    from sqlalchemy.exc import SQLAlchemyError

    from splendor.store.pokedex import check_profile_name
    from splendor.terminal.profiles import TerminalProfiles, secrets_file

    for name in named:
        check_profile_name(name)
    profiles = TerminalProfiles(open_pokedex(database_url), secrets_file(database_url))
    try:
        return {name: profiles.secret(name) for name in named}
    except SQLAlchemyError as e:
        raise PokedexError(f"could not open the Pokédex store: {e}") from None


def mark_pokedex(game: Game, seats: list[Seat], database_url: str | None, secrets: dict[str, str]) -> list[str]:
    """Mark the Pokédex of every named human seat of a finished Pokémon game (their profiles proved before the
    game by `prove_profiles`); one line for each, saying what was new."""
    named = _named_humans(seats)
    if game.name != "pokemon" or not named:
        return []
    from sqlalchemy.exc import SQLAlchemyError

    from splendor.store.pokedex import NotYourProfile

    lines = []
    try:
        pokedex = open_pokedex(database_url)
        for s, name in named:
            new = pokedex.mark(name, game.result["pokedex"][s], secrets.get(name))
            done, total = pokedex.page(name).completion
            lines.append(f"Pokédex of {name}: {len(new)} new ({', '.join(new) or 'none'}); {done}/{total} caught.")
    except (ValueError, NotYourProfile, SQLAlchemyError) as e:
        raise PokedexError(f"could not mark the Pokédex: {e}") from None
    return lines


def pokedex_page(profile: str, database_url: str | None) -> PokedexPage:
    """``profile``'s page: every Pokémon by evolution line, and how many games caught each."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        return open_pokedex(database_url).page(profile)
    except SQLAlchemyError as e:
        raise PokedexError(str(e)) from None


def pokedex_table(page: PokedexPage) -> Table:
    """A page as a table: one row of up to three Pokémon per line, ✓ and the number of games where caught."""
    done, total = page.completion
    table = Table(
        title=f"Pokédex of {page.profile}: {done}/{total} caught (✓ caught, with the number of games)",
        show_header=False,
    )
    for _ in range(4):
        table.add_column()
    labels = [f"line {i + 1}" for i in range(len(page.lines) - 2)] + ["rare", "legendary"]
    for label, line in zip(labels, page.lines):
        cells = [f"[green]✓ {p}[/] ({page.marked[p]})" if p in page.marked else f"[dim]· {p}[/]" for p in line]
        for i in range(0, len(cells), 3):
            row = cells[i : i + 3]
            table.add_row(label if i == 0 else "", *row, *[""] * (3 - len(row)))
    return table
