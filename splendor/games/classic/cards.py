"""The classic card and noble data, read from the package's CSV files and checked as they load."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib.resources import files

from splendor.core.colours import Palette
from splendor.games.market import Card
from splendor.i18n import N_

PALETTE = Palette(
    names=(N_("white"), N_("blue"), N_("green"), N_("red"), N_("black"), N_("gold")),
    letters=("w", "b", "g", "r", "k", "y"),
    display=(
        N_("White (diamond)"),
        N_("Blue (sapphire)"),
        N_("Green (emerald)"),
        N_("Red (ruby)"),
        N_("Black (onyx)"),
        N_("Gold (joker)"),
    ),
)
GEMS = PALETTE.names[:5]


@dataclass(frozen=True, slots=True)
class Noble:
    """A noble tile: its points and the card bonuses it requires (tokens do not count)."""

    id: int
    points: int
    requires: tuple[int, ...]


def _rows(name: str) -> list[dict[str, str]]:
    text = files("splendor.games.classic").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def load_cards() -> tuple[Card, ...]:
    """The 90 development cards, ids in file order; the ``row`` of a card is its tier - 1."""
    cards = []
    for i, row in enumerate(_rows("cards.csv")):
        cost = tuple(int(row[g]) for g in GEMS) + (0,)
        cards.append(
            Card(
                id=i,
                row=int(row["tier"]) - 1,
                points=int(row["points"]),
                bonus=PALETTE.index(row["bonus"]),
                bonus_count=1,
                cost=cost,
            )
        )
    _check_cards(cards)
    return tuple(cards)


def load_nobles() -> tuple[Noble, ...]:
    """The 10 noble tiles, ids in file order."""
    nobles = tuple(
        Noble(id=i, points=int(row["points"]), requires=tuple(int(row[g]) for g in GEMS))
        for i, row in enumerate(_rows("nobles.csv"))
    )
    if len(nobles) != 10 or any(sorted(n.requires) not in ([0, 0, 0, 4, 4], [0, 0, 3, 3, 3]) for n in nobles):
        raise ValueError("the classic noble data is damaged: expected 10 nobles of 4+4 or 3+3+3")
    return nobles


def _check_cards(cards: list[Card]) -> None:
    per_tier = {0: 8, 1: 6, 2: 4}
    for tier, n in per_tier.items():
        for colour in range(5):
            got = sum(1 for c in cards if c.row == tier and c.bonus == colour)
            if got != n:
                raise ValueError(
                    f"the classic card data is damaged: tier {tier + 1} has {got} {GEMS[colour]} cards, expected {n}"
                )
    if len(cards) != 90 or sum(c.points for c in cards) != 140:
        raise ValueError("the classic card data is damaged: expected 90 cards worth 140 points")


CARDS = load_cards()
NOBLES = load_nobles()
