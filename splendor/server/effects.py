"""What a game does on the server beyond its rules, looked up by the game's registry name.

The generic path (creating a game, keeping a seat, accepting an action) asks a game's `GameEffects` and names no
game. Splendor: Pokémon's is the Pokédex: its seats may be linked to a Pokédex profile, a seat kept in an account
marks the account's own, and a finished game marks the Pokémon each such seat caught, in the transaction of its
last action. A game with nothing of the kind has the plain `GameEffects`.
"""

from __future__ import annotations

from typing import ClassVar

from splendor.core.game import Game
from splendor.server.seating import HUMAN
from splendor.store.games import SeatInfo


class GameEffects:
    """A game without effects beyond its rules."""

    keeps_pokedex: ClassVar[bool] = False
    """Whether a seat of the game marks a Pokédex profile (its own, proved, or its account's)."""

    def account_profile(self, account_name: str) -> str | None:
        """The Pokédex profile a seat kept in the account ``account_name`` marks (None: none)."""
        return account_name if self.keeps_pokedex else None

    def finished(self, seats: list[SeatInfo], after: Game) -> list[tuple[str, list[str]]]:
        """What a finished game marks, written with its last action: (profile, the Pokémon it caught) per seat."""
        return []


class PokedexEffects(GameEffects):
    """Splendor: Pokémon: a finished game marks the Pokédex of the human seats linked to a profile."""

    keeps_pokedex = True

    def finished(self, seats: list[SeatInfo], after: Game) -> list[tuple[str, list[str]]]:
        caught = after.result["pokedex"]
        return [(s.profile, caught[s.seat]) for s in seats if s.kind == HUMAN and s.profile]


PLAIN = GameEffects()
EFFECTS: dict[str, GameEffects] = {"pokemon": PokedexEffects()}
"""Each registry name (`splendor.games.GAMES`) whose game has effects on the server; the others have none."""


def effects_of(game: str) -> GameEffects:
    """The effects of the game named ``game`` in the registry."""
    return EFFECTS.get(game, PLAIN)


def marks_of(seats: list[SeatInfo], after: Game) -> list[tuple[str, list[str]]]:
    """The marks a move that leaves ``after`` writes: its game's, once it is over; none before."""
    return effects_of(after.name).finished(seats, after) if after.is_over else []
