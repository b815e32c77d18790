"""What the search knows of classic Splendor and Splendor: Pokémon, on the reference engine: the playout policy,
its depth and the hand-made progress estimate (``market_compiled`` is the same in compiled code, with these
weights; the expert level's learned estimate is ``splendor.search.learning.features``).

The rules live in ``splendor.games.market``; this is a player's judgement of a position, so it lives with the
search.
"""

from __future__ import annotations

import random
from typing import Any

from splendor.core.actions import Action
from splendor.games.market import MAIN, RETURN

DEPTH = 8
"""Decisions a playout plays before the position is scored with ``progress`` (16 against 8 won 21 of 40
classic games at equal iterations, so the cheaper depth stays)."""

BONUS_WEIGHT, TOKEN_WEIGHT = 1.2, 0.05
"""What ``progress`` counts a card bonus and a token, in points. Set by matches between searches
(docs/bots.md): a bonus worth 1.2 points beat 0.4 in 75% of Pokémon and 72% of classic games, and 1.8 did no
better."""


def progress(game: Any) -> list[float]:
    """Points, plus about a point for each card bonus (the engine that earns later points) and a little for
    each token, in points."""
    return [
        game.points[s] + BONUS_WEIGHT * sum(game.bonuses[s]) + TOKEN_WEIGHT * sum(game.tokens[s])
        for s in range(game.players)
    ]


def playout_action(game: Any, rng: random.Random) -> Action:
    """Buy the most valuable card you can (points first); otherwise take the tokens that bring the nearest good
    card closest; return what that card needs least; take any follow-up decision at random, evolving rather
    than declining. In the main phase only the buys, then the takes, are listed: playouts spend most of the
    search's time."""
    if game.phase == MAIN:
        best: Action | None = None
        best_value = -1.0
        for a in game.buy_actions():
            cid = game.rows[a.args[0]][a.args[1]] if a.kind == "buy" else game.reserved[game.seat][a.args[0]]
            card = game.cards[cid]
            value = card.points * 3 + card.bonus_count + rng.random()
            if value > best_value:
                best, best_value = a, value
        if best is not None:
            return best
        takes: list[Action] = game.take_actions()
        if takes:
            want = wanted_colours(game)
            return max(
                takes, key=lambda a: sum(want[c] for c in a.args) * (2 if a.kind == "take2" else 1) + rng.random() * 0.5
            )
    legal: list[Action] = game.legal_actions()
    if game.phase == RETURN:
        want = wanted_colours(game)
        return min(legal, key=lambda a: want[a.args[0]] + rng.random() * 0.1)
    forward = [a for a in legal if a.kind == "evolve"]
    pool = forward or legal
    return pool[rng.randrange(len(pool))]


def wanted_colours(game: Any) -> list[float]:
    """How much the seat to move wants each colour: the shortfalls of its two nearest good cards."""
    seat = game.seat
    tok, bon = game.tokens[seat], game.bonuses[seat]
    wild = len(tok) - 1
    have = [bon[c] + tok[c] for c in range(wild)]
    cards = game.cards
    first = second = (-1.0, -1)
    for cid in [c for row in game.rows[:3] for c in row if c >= 0] + game.reserved[seat]:
        cost = cards[cid].cost
        total = 0
        for c in range(wild):
            d = cost[c] - have[c]
            if d > 0:
                total += d
        score = (cards[cid].points + 1) / (1 + total)
        if score > first[0]:
            first, second = (score, cid), first
        elif score > second[0]:
            second = (score, cid)
    want = [0.0] * (wild + 1)
    for weight, cid in (first, second):
        if cid >= 0:
            cost = cards[cid].cost
            for c in range(wild):
                d = cost[c] - have[c]
                if d > 0:
                    want[c] += weight * d
    want[wild] = 10.0  # never return a wild token if another will do
    return want
