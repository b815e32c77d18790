"""Do the bots still play the same moves? Record every move of every level from fixed seeds, and compare records.

A refactoring of the search or the bots must not change how they play. This plays ``--games`` games of each game,
at 2, 3 and 4 players in turn, with the seats drawn in rotation from every bot level (random, greedy, and the
search's easy, medium, hard and expert on the compiled engine, and easy and medium on the reference engine), each
bot and each deal seeded from the game's number, and writes every game's moves to a JSON record. Two records of
the same options compared (``--compare OLD NEW``) must be equal, game by game.

``--scale`` multiplies every search budget (``--scale 0.02``: hard and expert search 2% of their iterations), so
that a hundred games of each game take minutes, not hours; the search's code path, its settings and its random
streams are the same at any budget, so equal moves at a small budget and at the full one (a few games at
``--scale 1``) show that the levels play as before.

    python benchmarks/same_moves.py --games 100 --scale 0.02 --out moves.json
    python benchmarks/same_moves.py --compare before.json after.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SPECS = (
    "random",
    "greedy",
    "ismcts:easy",
    "ismcts:medium",
    "ismcts:hard",
    "ismcts:expert",
    "ismcts:easy@reference",
    "ismcts:medium@reference",
)
GAMES = ("classic", "pokemon", "kids")
MAX_TURNS = 200
"""A cap on each game (ruling 4): two near-random searchers can wander the Kids board for ever."""


def scale_budgets(scale: float) -> None:
    """Multiply every level's iterations by ``scale`` (at least 1), in whichever shape the budgets have."""
    if scale == 1:
        return

    def scaled(n: int) -> int:
        return max(1, round(n * scale))

    from splendor.bots import search as module

    search: Any = module  # an older checkout's shape of the budgets, read by name
    if not hasattr(search, "COMPILED_LEVELS"):  # the search as its own layer: one Level record per game and level
        from splendor.search import levels

        for key, found in list(levels.LEVELS.items()):
            levels.LEVELS[key] = dataclasses.replace(
                found, iterations=scaled(found.iterations), compiled_iterations=scaled(found.compiled_iterations)
            )
        return
    for table in (search.LEVELS, search.COMPILED_LEVELS):
        for name in table:
            table[name] = scaled(table[name])
    for per_game in (search.GAME_LEVELS, search.COMPILED_GAME_LEVELS):
        for table in per_game.values():
            for name in table:
                table[name] = scaled(table[name])


def play(game_name: str, number: int) -> dict[str, Any]:
    """One game: its seats, and every move as the engine's action string."""
    from splendor.bots.base import decide, make_bot
    from splendor.games import new_game

    players = 2 + number % 3
    seats = [SPECS[(number + 3 * seat) % len(SPECS)] for seat in range(players)]
    bots = [make_bot(spec, seed=1000 * number + seat) for seat, spec in enumerate(seats)]
    game = new_game(game_name, players=players, seed=number, max_turns=MAX_TURNS)
    moves = []
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        action = decide(bots[seat], game)
        moves.append(str(action))
        game.apply(action)
    return {"seats": seats, "moves": moves, "winners": sorted(game.winners)}


def record(games: int, scale: float, only: list[str]) -> dict[str, Any]:
    scale_budgets(scale)
    from splendor.bots import search

    budget: Callable[..., int] | None = getattr(search, "level_iterations", None)
    if budget is None:
        from splendor.search.levels import level_iterations

        budget = level_iterations
    print(f"the expert's budget in classic: {budget('expert', 'classic', compiled=True)} iterations", file=sys.stderr)
    out: dict[str, Any] = {"games": games, "scale": scale, "record": {}}
    for name in only:
        start = time.perf_counter()
        out["record"][name] = [play(name, number) for number in range(games)]
        moves = sum(len(g["moves"]) for g in out["record"][name])
        print(f"{name}: {games} games, {moves} moves, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return out


def compare(old: dict[str, Any], new: dict[str, Any]) -> int:
    """Print, per game, how many games are equal move for move; the number that differ."""
    differ = 0
    if (old["games"], old["scale"]) != (new["games"], new["scale"]):
        print(
            f"the records were made with other options: {old['games']}/{old['scale']} and {new['games']}/{new['scale']}"
        )
        return 1
    for name, games in old["record"].items():
        other = new["record"].get(name, [])
        same = sum(1 for a, b in zip(games, other) if a == b)
        moves = sum(len(g["moves"]) for g in games)
        print(f"{name}: {same} of {len(games)} games the same, {moves} moves")
        for number, (a, b) in enumerate(zip(games, other)):
            if a != b:
                differ += 1
                at = next((i for i, (x, y) in enumerate(zip(a["moves"], b["moves"])) if x != y), None)
                print(f"  game {number} ({', '.join(a['seats'])}) differs at move {at}")
        differ += abs(len(games) - len(other))
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--scale", type=float, default=0.02)
    parser.add_argument("--only", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"))
    args = parser.parse_args()
    if args.compare:
        old, new = (json.loads(path.read_text(encoding="utf-8")) for path in args.compare)
        sys.exit(1 if compare(old, new) else 0)
    result = record(args.games, args.scale, args.only)
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
