"""What the search knows of Splendor Kids, on the reference engine: the route tables of a board, the playout
policy, its depth and the progress estimate (``kids_compiled`` is the same in compiled code, with these
constants).

The rules live in ``splendor.games.kids``; this is a player's judgement of a position, so it lives with the
search: how far each space is from the Palace, which road to take next, and which resources that road asks.
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass
from typing import Any

from splendor.core.actions import Action
from splendor.games.kids.board import Board, Road
from splendor.games.kids.notation import ACTIONS, GOLD, PAYMENT_CODE, RESOURCE_COUNT, TREASURE, banner_counts

DEPTH = 30
"""Decisions a playout plays before the position is scored: a race of about 9 turns a traveler, so playouts
mostly reach the Palace (30 against 8 at equal time won 22, shared 15 and lost 3 of 40 games)."""

TURN_WEIGHT = 2.5
"""What ``progress`` counts a turn, so that one turn weighs about what a couple of points do in the card games."""

TAKE_YIELD = 2.5
"""The resources a turn of taking brings, about."""

ARRIVED, LATE = 10.0, 0.01
"""A traveler in the Palace: ``ARRIVED`` turns ahead, less ``LATE`` a turn the game has lasted."""


@dataclass(frozen=True)
class Routes:
    """A board's route tables: each space's cheapest resource cost to the Palace (a village on the way counts 2
    less, a city 1 less), the moves that route takes (a village's extra turn gives one back), and its next
    road."""

    distance: dict[str, float]
    moves: dict[str, int]
    next_road: dict[str, Road]

    @classmethod
    def of(cls, board: Board) -> Routes:
        """The tables of ``board`` (computed once a board; clones of a game share their board)."""
        known = _ROUTES.get(id(board))
        if known is None:
            known = _ROUTES[id(board)] = cls._compute(board)
            weakref.finalize(board, _ROUTES.pop, id(board), None)
        return known

    @classmethod
    def _compute(cls, board: Board) -> Routes:
        discount = {"village": 2.0, "city": 1.0}
        roads_from = {sid: board.roads_from(sid) for sid in board.spaces}
        towards = sorted(board.spaces, key=lambda k: board.spaces[k].y)  # the Palace side first
        distance: dict[str, float] = {}
        for sid in towards:
            distance[sid] = (
                0.0
                if sid == board.palace
                else min(
                    (
                        len(r.cost) - discount.get(board.spaces[r.end].kind, 0.0) + distance[r.end]
                        for r in roads_from[sid]
                    ),
                    default=99.0,
                )
            )
        moves: dict[str, int] = {}
        next_road: dict[str, Road] = {}
        for sid in towards:
            if sid == board.palace:
                moves[sid] = 0
                continue
            best = min(
                roads_from[sid],
                key=lambda r: len(r.cost) - discount.get(board.spaces[r.end].kind, 0.0) + distance[r.end],
            )
            next_road[sid] = best
            moves[sid] = (0 if board.spaces[best.end].kind == "village" else 1) + moves[best.end]
        return cls(distance, moves, next_road)


_ROUTES: dict[int, Routes] = {}
"""Route tables by the identity of their board, each forgotten when its board is."""


def needs(game: Any, seat: int) -> list[int]:
    """What the next road of the cheapest route still asks of this traveler, per resource colour."""
    road = Routes.of(game.board).next_road.get(game.space[seat])
    need = [0] * RESOURCE_COUNT
    if road is not None:
        for c in road.cost:
            need[c] += 1
        for c in range(RESOURCE_COUNT):
            need[c] = max(0, need[c] - game.purse[seat][c] - game.active[seat][c])
    return need


def plain_payment(road: Road, purse: list[int], active: list[int]) -> int:
    """The payment code of a road this traveler can pay: tokens of each colour first, then City tiles, then
    gold coins, then treasure."""
    pay = [0] * 12
    wild = 0
    for c, n in banner_counts(road.cost):
        t = min(n, purse[c])
        k = min(n - t, active[c])
        pay[c], pay[5 + c] = t, k
        wild += n - t - k
    pay[10] = min(wild, purse[GOLD])
    pay[11] = wild - pay[10]
    return PAYMENT_CODE[tuple(pay)]


def nearest_affordable_road(game: Any, seat: int, rng: random.Random) -> Road | None:
    """Of the roads this traveler can pay now, one whose end is nearest the Palace (ties at random)."""
    purse, active = game.purse[seat], game.active[seat]
    wild = purse[GOLD] + purse[TREASURE]
    distance = Routes.of(game.board).distance
    best, best_key = None, (float("inf"), 0.0)
    for road in game.roads_from(game.space[seat]):
        short = 0
        for c, n in banner_counts(road.cost):
            short += max(0, n - purse[c] - active[c])
        if short <= wild:
            key = (distance[road.end], rng.random())
            if key < best_key:
                best, best_key = road, key
    return best


def take_value(action: Action, need: list[int]) -> float:
    """The resources a take brings toward ``need``, plus a little for each resource."""
    kind, args = action.kind, action.args
    if kind == "take":
        return sum(1 for c in args if need[c]) + 0.1 * len(args)
    if kind == "take2":
        return min(2, need[args[0]]) + 0.2
    return 0.9 if any(need) else 0.1  # a gold coin


def playout_action(game: Any, rng: random.Random) -> Action:
    """Move along the road that gets closest to the Palace when you can pay it (nine times in ten); else take
    the tokens the next road of the cheapest route needs. Only the chosen road's one payment is built, which
    makes the search about twice as fast as listing every legal action."""
    seat = game.seat
    if game.phase == "action" and game.space[seat] != game.board.palace:
        purse, active = game.purse[seat], game.active[seat]
        if rng.random() < 0.9:
            road = nearest_affordable_road(game, seat, rng)
            if road is not None:
                move: Action = ACTIONS.get("move", road.number, plain_payment(road, purse, active))
                return move
        takes: list[Action] = game.take_actions()
        if takes:
            need = needs(game, seat)
            return max(takes, key=lambda a: take_value(a, need) + rng.random() * 0.3)
    legal: list[Action] = game.legal_actions()
    if game.phase in ("return", "drought"):
        need = needs(game, game.pending[0][1])
        return min(legal, key=lambda a: (need[a.args[0]] if a.args[0] < RESOURCE_COUNT else 5) + rng.random() * 0.3)
    return legal[rng.randrange(len(legal))]


def progress(game: Any) -> list[float]:
    """Minus the estimated turns a traveler still needs to reach the Palace, times ``TURN_WEIGHT``. A turn of
    taking brings ``TAKE_YIELD`` resources; the resources already held (tokens and active City tiles) count toward
    the cheapest remaining cost; each move is a turn, and a village on the way gives one back (already in the
    distance)."""
    routes = Routes.of(game.board)
    out = []
    for s in range(game.players):
        space = game.space[s]
        if space == game.board.palace:
            out.append(TURN_WEIGHT * (ARRIVED - LATE * game.turns))
            continue
        held = sum(game.purse[s]) + sum(game.active[s])
        turns = routes.moves[space] + max(0.0, routes.distance[space] - held) / TAKE_YIELD
        out.append(-TURN_WEIGHT * turns)
    return out
