"""Kids positions for rule tests: a small hand-written board (also proof that a custom board plays), and helpers
that move tokens and City tiles while keeping them conserved."""

from __future__ import annotations

from typing import Any

import splendor
from splendor.games.kids.board import parse_side
from splendor.games.kids.game import KidsGame
from splendor.games.kids.notation import PALETTE

K, R, G, H, B, Y, T = range(7)

TEST_A1 = """
format = "splendor-kids-board/1"
section = "A1"
side = "front"
title = "Test road"

[[spaces]]
id = "port"
kind = "port"
x = 300
y = 340

[[spaces]]
id = "village"
kind = "village"
name = "Little Village"
x = 150
y = 220

[[spaces]]
id = "city"
kind = "city"
name = "Big City"
x = 450
y = 220

[[spaces]]
id = "hamlet"
kind = "village"
name = "Hamlet"
x = 150
y = 100

[[roads]]
from = "port"
to = "village"
cost = ["black", "black", "red", "brown"]

[[roads]]
from = "port"
to = "city"
cost = ["green", "green", "blue", "blue", "blue"]

[[roads]]
from = "village"
to = "hamlet"
cost = ["red"]

[[roads]]
from = "hamlet"
to = "lane:west"
cost = ["green"]

[[roads]]
from = "city"
to = "lane:east"
cost = ["blue"]

[[roads]]
from = "port"
to = "lane:middle"
cost = ["red", "red", "green", "green", "brown"]
"""

TEST_A3 = """
format = "splendor-kids-board/1"
section = "A3"
side = "front"
title = "Test palace"

[lanes]
west = "gate"
middle = "court"
east = "garden"

[[spaces]]
id = "gate"
kind = "city"
x = 120
y = 320

[[spaces]]
id = "court"
kind = "village"
x = 300
y = 320

[[spaces]]
id = "garden"
kind = "city"
x = 480
y = 320

[[spaces]]
id = "palace"
kind = "palace"
x = 300
y = 40

[[roads]]
from = "gate"
to = "palace"
cost = ["red"]

[[roads]]
from = "court"
to = "palace"
cost = ["blue"]

[[roads]]
from = "garden"
to = "palace"
cost = ["black"]
"""

# roads on the test board: 1 port→village, 2 port→city, 3 village→hamlet, 4 hamlet→A3.gate,
# 5 city→A3.garden, 6 port→A3.court, 7 gate→palace, 8 court→palace, 9 garden→palace


def with_rainbow_roads(count: int) -> str:
    """The test A3 side with ``count`` more roads from its gate to the palace, each of all five colours: the space
    that offers the most payments at once (``board.MOVES_ROOM``)."""
    road = '\n[[roads]]\nfrom = "gate"\nto = "palace"\ncost = ["black", "red", "green", "brown", "blue"]\n'
    return TEST_A3 + road * count


def test_board() -> list[dict[str, Any]]:
    return [parse_side(TEST_A1, "test A1"), parse_side(TEST_A3, "test A3")]


def new(players: int = 3, seed: int = 1, **options: Any) -> KidsGame:
    if "board" not in options and not options.get("mysteries"):
        options = {"board": test_board(), "short": True, **options}
    game = splendor.new_game("kids", players=players, seed=seed, **options)
    assert isinstance(game, KidsGame)
    return game


def give_tokens(game: KidsGame, seat: int, **by_colour: int) -> None:
    """Move tokens from the supply to a purse: give_tokens(g, 0, black=2, gold=1)."""
    for name, n in by_colour.items():
        c = PALETTE.index(name)
        assert game.supply[c] >= n, f"the supply has only {game.supply[c]} {name}"
        game.supply[c] -= n
        game.purse[seat][c] += n


def give_tiles(game: KidsGame, seat: int, active: tuple[str, ...] = (), used: tuple[str, ...] = ()) -> None:
    """Hand a traveler City tiles taken out of the stack."""
    for names, into in ((active, game.active[seat]), (used, game.used[seat])):
        for name in names:
            c = PALETTE.index(name)
            game.stack.remove(c)
            into[c] += 1


def tokens_total(game: KidsGame) -> list[int]:
    return [game.supply[c] + sum(p[c] for p in game.purse) for c in range(6)]


def tiles_total(game: KidsGame) -> list[int]:
    out = [0] * 5
    for c in game.stack + [t for t in game.market if t >= 0] + game.boxed_tiles:
        out[c] += 1
    for s in range(game.players):
        for c in range(5):
            out[c] += game.active[s][c] + game.used[s][c]
    return out
