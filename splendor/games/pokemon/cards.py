"""The Pokémon card data, read from the package's CSV and checked as it loads, and the Pokédex's lines."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib.resources import files

from splendor.core.colours import Palette
from splendor.games.market import Card
from splendor.games.pokemon.names import NATIONAL_DEX
from splendor.i18n import N_

PALETTE = Palette(
    names=("red", "blue", "black", "pink", "yellow", "master"),
    letters=("r", "b", "k", "p", "y", "m"),
    display=(N_("Poké Ball"), N_("Great Ball"), N_("Ultra Ball"), N_("Heal Ball"), N_("Quick Ball"), N_("Master Ball")),
    spoken=(
        N_("Poké Ball (red)"),
        N_("Great Ball (blue)"),
        N_("Ultra Ball (black)"),
        N_("Heal Ball (pink)"),
        N_("Quick Ball (yellow)"),
        N_("Master Ball"),
    ),
    counted_as_nouns=True,
)
BALLS = PALETTE.names
LEVELS = ("1", "2", "3", "rare", "legendary")


@dataclass(frozen=True, slots=True)
class PokemonCard(Card):
    """A Pokémon card: a market card with a name, a level and (levels 1-2) the evolution it leads to.

    ``evolve_bonus`` is a palette index (-1 when the card does not evolve). ``dex`` is the Pokémon's National
    Pokédex number (``names.NATIONAL_DEX``), the same on every copy; ``id`` is the project's own card number.
    """

    name: str
    level: str
    evolves_to: str
    evolve_bonus: int
    evolve_count: int
    dex: int


def load_cards() -> tuple[PokemonCard, ...]:
    """The 90 cards, ids in file order; ``row`` is the level's position in ``LEVELS``."""
    text = files("splendor.games.pokemon").joinpath("data", "cards.csv").read_text(encoding="utf-8")
    cards = []
    for i, row in enumerate(csv.DictReader(io.StringIO(text))):
        evolves = row["evolves_to"].strip()
        cards.append(
            PokemonCard(
                id=i,
                row=LEVELS.index(row["level"]),
                points=int(row["points"]),
                bonus=PALETTE.index(row["bonus"]),
                bonus_count=int(row["bonus_count"]),
                cost=tuple(int(row[b]) for b in BALLS),
                name=row["name"].strip(),
                level=row["level"],
                evolves_to=evolves,
                evolve_bonus=PALETTE.index(row["evolve_bonus"]) if evolves else -1,
                evolve_count=int(row["evolve_count"]) if evolves else 0,
                dex=NATIONAL_DEX.get(row["name"].strip(), 0),
            )
        )
    _check(cards)
    return tuple(cards)


def _check(cards: list[PokemonCard]) -> None:
    counts = [sum(1 for c in cards if c.row == r) for r in range(5)]
    if counts != [35, 30, 15, 5, 5]:
        raise ValueError(f"the Pokémon card data is damaged: levels hold {counts}, expected 35/30/15/5/5")
    if len({c.name for c in cards}) != 55:
        raise ValueError("the Pokémon card data is damaged: expected 55 distinct Pokémon")
    by_name = {c.name: c for c in cards}
    if set(NATIONAL_DEX) != set(by_name) or len(set(NATIONAL_DEX.values())) != len(NATIONAL_DEX):
        raise ValueError("the Pokémon card data is damaged: every Pokémon needs its own National Pokédex number")
    for c in cards:
        if c.evolves_to and (c.evolves_to not in by_name or by_name[c.evolves_to].row != c.row + 1):
            raise ValueError(
                f"the Pokémon card data is damaged: {c.name} evolves to {c.evolves_to!r}, "
                "which is not a card one level up"
            )
        if c.row >= 3 and (c.cost[-1] != 1 or c.bonus_count != 2):
            raise ValueError(
                f"the Pokémon card data is damaged: {c.name} must cost one master ball and give two bonuses"
            )


CARDS = load_cards()


def evolution_lines() -> list[list[str]]:
    """The Pokédex's lines: each level-1 Pokémon with what it evolves into, then the rare and legendary ones,
    in National Pokédex order (the lines by their first Pokémon's number)."""
    by_name = {c.name: c for c in CARDS}
    lines = []
    for name in sorted({c.name for c in CARDS if c.row == 0}, key=NATIONAL_DEX.__getitem__):
        line = [name]
        while by_name[line[-1]].evolves_to:
            line.append(by_name[line[-1]].evolves_to)
        lines.append(line)
    for level in ("rare", "legendary"):
        lines.append(sorted({c.name for c in CARDS if c.level == level}, key=NATIONAL_DEX.__getitem__))
    return lines


POKEMON = tuple(dict.fromkeys(c.name for c in CARDS))
