"""The search bot's iterations in compiled code, for the three games.

The same SO-ISMCTS as ``splendor.bots.search`` (read that module first: it is the readable statement of the
algorithm), walked over ``splendor.compiled``'s flat states: each iteration deals what the searching seat cannot
see anew (``determinize_into``), walks the tree by PUCT with availability counts and the priors of the actions'
kinds, adds one node, plays out with the game's playout policy for at most ``depth`` decisions and scores the
end with its ``progress`` (``compiled_market`` for classic and Pokémon, ``compiled_kids`` for Kids; the expert
plays out and scores Kids by its plan of the race instead, ``compiled_kids_turns``, and in Pokémon blends the new
leaf's own evaluation into the end's, ``mix``). The tree lives in flat arrays (``Tree``), one entry a node,
children as linked lists; Python only starts the iterations in chunks to watch the clock and grow the tree.

What differs from the Python search is only the random stream (SplitMix64 here, Python's ``random`` there), so
the two choose alike in distribution, not move for move.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from splendor.bots import compiled_kids as kd
from splendor.bots import compiled_kids_turns as kt
from splendor.bots import compiled_market as mk
from splendor.bots.market_value import FEATURE_COUNT
from splendor.compiled import kids as k
from splendor.compiled import market as m
from splendor.core.game import Game
from splendor.games.kids.notation import RESOURCE_COUNT

GAMES = ("classic", "pokemon", "kids")
"""The games searched here: all three."""


# ----------------------------------------------------------------------------- the tree, for either kernel


@njit(cache=True)
def _legal(g: np.ndarray, kids: bool, legal: np.ndarray, mask: np.ndarray) -> int:
    """The legal actions' indices into ``legal`` (ascending); for the market games ``mask`` is set too."""
    if kids:
        return k.legal_into(g, legal)
    m.legal_mask_into(g, mask)
    n = 0
    for a in range(m.ACTION_COUNT[g[m.KIND]]):
        if mask[a]:
            legal[n] = a
            n += 1
    return n


@njit(cache=True)
def _over(g: np.ndarray, kids: bool) -> bool:
    return k.phase(g) == k.OVER if kids else g[m.PHASE] == m.OVER


@njit(cache=True)
def _mover(g: np.ndarray, kids: bool) -> int:
    return k.current_player(g) if kids else g[m.SEAT]


@njit(cache=True)
def _step(g: np.ndarray, kids: bool, a: int, scratch: np.ndarray) -> None:
    if kids:
        k.step(g, a)
    else:
        m.step(g, a, scratch)


@njit(cache=True)
def _score(
    g: np.ndarray,
    kids: bool,
    planned: bool,
    out: np.ndarray,
    scale: float,
    bonus_weight: float,
    token_weight: float,
    weights: np.ndarray,
    features: np.ndarray,
    distance: np.ndarray,
    moves: np.ndarray,
    turns: np.ndarray,
) -> None:
    """Each seat's share of the win in ``g``, by the evaluation the search was given (``iterate``)."""
    if kids and planned:
        kt.values_into(g, out, scale, turns)
    elif kids:
        kd.values_into(g, out, scale, distance, moves)
    else:
        mk.values_into(g, out, scale, bonus_weight, token_weight, weights, features)


@njit(cache=True)
def iterate(
    root: np.ndarray,
    seat: int,
    kids: bool,
    iterations: int,
    rng: np.ndarray,
    node_seat: np.ndarray,
    visits: np.ndarray,
    totals: np.ndarray,
    avail: np.ndarray,
    first_child: np.ndarray,
    next_sibling: np.ndarray,
    node_action: np.ndarray,
    nodes: np.ndarray,
    exploration: float,
    depth: int,
    scale: float,
    bonus_weight: float,
    token_weight: float,
    distance: np.ndarray,
    moves: np.ndarray,
    next_road: np.ndarray,
    weights: np.ndarray,
    turns: np.ndarray,
    mix: float,
) -> None:
    """Run ``iterations`` iterations from ``root`` for ``seat``, adding at most one node each to the tree
    (node 0 is the root; ``nodes[0]`` counts the nodes; the caller leaves room for ``iterations`` more).
    ``kids`` says which kernel the state is of; the market games use the progress weights (or the learned
    ``weights``, when they have their two rows), Kids the route tables (``compiled_kids.Route``), or, when
    ``turns`` holds a board's plan (``compiled_kids_turns.turn_table``), the plan for both its playouts and
    its scores.

    ``mix`` blends the evaluation of the new leaf itself into the value of the playout's end, as AlphaGo mixes
    its value network with its rollouts: value = (1 − mix) · end + mix · leaf (0: the playout's end alone)."""
    g = np.empty_like(root)
    pool = np.empty(m.DECK_ROOM + m.MAX_SEATS * m.RESERVE_LIMIT, dtype=np.int64)
    mask = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
    scratch = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    prior = np.empty(k.MAX_LEGAL, dtype=np.float64)
    child_at = np.full(k.MAX_LEGAL, -1, dtype=np.int64)  # a legal action's child, by its place in ``legal``
    want = np.zeros(m.COLOURS, dtype=np.float64)
    need = np.zeros(RESOURCE_COUNT, dtype=np.int64)
    pay = np.zeros(12, dtype=np.int64)
    values = np.zeros(m.MAX_SEATS, dtype=np.float64)
    leaf_values = np.zeros(m.MAX_SEATS, dtype=np.float64)
    players = root[k.PLAYERS] if kids else root[m.PLAYERS]
    features = np.zeros(FEATURE_COUNT, dtype=np.float64)
    path = np.empty(512, dtype=np.int64)
    kind = 0 if kids else root[m.KIND]
    planned = turns.shape[0] > 0
    for _ in range(iterations):
        if kids:
            kd.determinize_into(root, rng, g, pool)
        else:
            mk.determinize_into(root, seat, rng, g, pool)
        node = 0
        visits[0] += 1
        length = 0
        while not _over(g, kids) and length < path.shape[0]:
            count = _legal(g, kids, legal, mask)
            if kids:
                kd.priors_into(legal, count, prior)
            else:
                for i in range(count):
                    prior[i] = mk.PRIORS[kind, legal[i]]
            total_prior = 0.0
            for i in range(count):
                total_prior += prior[i]
            child = first_child[node]
            while child >= 0:  # children whose action is legal in this deal
                at = np.searchsorted(legal[:count], node_action[child])
                if at < count and legal[at] == node_action[child]:
                    child_at[at] = child
                child = next_sibling[child]
            explore = exploration * math.sqrt(visits[node])
            best, best_score = -1, -math.inf
            for i in range(count):
                child = child_at[i]
                if child >= 0:
                    avail[child] += 1
                if child >= 0 and visits[child] > 0:
                    q, n = totals[child] / visits[child], visits[child]
                else:
                    q, n = 0.5, 0
                score = q + explore * prior[i] / total_prior / (1 + n)
                if score > best_score:
                    best, best_score = i, score
            chosen = child_at[best]
            action = legal[best]
            child_at[:count] = -1
            mover = _mover(g, kids)
            _step(g, kids, action, scratch)
            if chosen < 0:
                chosen = nodes[0]
                nodes[0] += 1
                node_seat[chosen], visits[chosen], totals[chosen], avail[chosen] = mover, 0, 0.0, 1
                first_child[chosen], node_action[chosen] = -1, action
                next_sibling[chosen] = first_child[node]
                first_child[node] = chosen
                path[length] = chosen
                length += 1
                break
            path[length] = chosen
            length += 1
            node = chosen
        if mix > 0.0:
            _score(
                g,
                kids,
                planned,
                leaf_values,
                scale,
                bonus_weight,
                token_weight,
                weights,
                features,
                distance,
                moves,
                turns,
            )
        steps = 0
        while not _over(g, kids) and steps < depth:
            count = _legal(g, kids, legal, mask)
            if kids and planned:
                a = kt.playout_action(g, legal, count, rng, turns, pay)
            elif kids:
                a = kd.playout_action(g, legal, count, rng, distance, next_road, need, pay)
            else:
                a = mk.playout_action(g, mask, count, rng, want)
            _step(g, kids, a, scratch)
            steps += 1
        _score(g, kids, planned, values, scale, bonus_weight, token_weight, weights, features, distance, moves, turns)
        if mix > 0.0:
            for p in range(players):
                values[p] = (1.0 - mix) * values[p] + mix * leaf_values[p]
        for i in range(length):
            visits[path[i]] += 1
            totals[path[i]] += values[node_seat[path[i]]]


@dataclass
class Tree:
    """A search tree in flat arrays, one entry a node (node 0 the root), grown as the search needs."""

    node_seat: np.ndarray
    visits: np.ndarray
    totals: np.ndarray
    avail: np.ndarray
    first_child: np.ndarray
    next_sibling: np.ndarray
    node_action: np.ndarray
    nodes: np.ndarray

    @classmethod
    def empty(cls, seat: int, room: int) -> Tree:
        ints = [np.zeros(room, dtype=np.int64) for _ in range(6)]
        tree = cls(
            ints[0],
            ints[1],
            np.zeros(room, dtype=np.float64),
            ints[2],
            ints[3],
            ints[4],
            ints[5],
            np.ones(1, dtype=np.int64),
        )
        tree.node_seat[0], tree.first_child[0], tree.next_sibling[0], tree.node_action[0] = seat, -1, -1, -1
        return tree

    def room_for(self, more: int) -> None:
        """Make sure ``more`` nodes can still be added."""
        need = int(self.nodes[0]) + more
        if need <= self.visits.shape[0]:
            return
        size = max(need, 2 * self.visits.shape[0])
        for name in ("node_seat", "visits", "totals", "avail", "first_child", "next_sibling", "node_action"):
            old = getattr(self, name)
            new = np.zeros(size, dtype=old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def root_statistics(self) -> dict[int, tuple[int, float]]:
        """Each explored root action's visits and mean value for the searching seat."""
        out = {}
        child = int(self.first_child[0])
        while child >= 0:
            n = int(self.visits[child])
            out[int(self.node_action[child])] = (n, float(self.totals[child]) / n if n else 0.0)
            child = int(self.next_sibling[child])
        return out


CHUNK = 256
"""Iterations between looks at the clock (a few milliseconds)."""


NO_WEIGHTS = np.zeros((0, 0), dtype=np.float64)
"""No learned weights: the market games are scored with the hand-made progress."""


def route_tables(game: Game, fast: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays the Kids search needs of a game's board: each space's distance, moves and next road to the
    Palace (``compiled_kids.Route``). ``fast`` is the game already converted (``from_reference``), if it is."""
    from splendor.compiled import from_reference

    fast = from_reference(game) if fast is None else fast
    route = kd.Route(game, fast._kernel.tables(fast.state, fast.options))
    return route.distance, route.moves, route.next_road


NO_TURNS = np.zeros((0, 0), dtype=np.int8)
"""No turn table: Kids is scored with the route estimate (``compiled_kids.progress``)."""

NO_ROUTE = (np.zeros(1), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
"""The route arrays' stand-ins for the market games, which have no roads, and for a Kids search by its plan,
which never reads them."""


def search_state(
    state: np.ndarray,
    seat: int,
    kids: bool,
    seed: int,
    iterations: int,
    seconds: float | None = None,
    exploration: float = 3.0,
    depth: int = 8,
    scale: float = 2.5,
    bonus_weight: float = 1.2,
    token_weight: float = 0.05,
    weights: np.ndarray = NO_WEIGHTS,
    route: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    turns: np.ndarray = NO_TURNS,
    mix: float = 0.0,
) -> tuple[dict[int, tuple[int, float]], int]:
    """Search from a compiled state (``kids`` says which kernel's) for ``seat``: ``iterations`` iterations (at
    least one) or until ``seconds`` have passed; returns each explored root action's (visits, mean value) and
    the iterations run. ``turns`` is a Kids board's plan if the search should play and score by it
    (``turn_table``); without it a Kids search needs ``route``, the board's ``route_tables``. ``mix`` weighs the
    new leaf's own evaluation into its value (``iterate``). The same seed and iterations give the same result."""
    if kids and route is None and turns.shape[0] == 0:
        raise ValueError("a Kids search needs its board's plan (turns) or its route tables")
    if not 0.0 <= mix <= 1.0:
        raise ValueError(f"mix is the share of a value taken from the leaf itself, from 0 to 1, not {mix}")
    distance, moves, next_road = route if route is not None else NO_ROUTE
    rng = np.array([seed], dtype=np.uint64)
    tree = Tree.empty(seat, min(iterations, 1 << 16) + 1)
    deadline = time.perf_counter() + seconds if seconds is not None else math.inf
    done = 0
    while done < iterations and (done == 0 or time.perf_counter() < deadline):
        chunk = min(CHUNK, iterations - done)
        tree.room_for(chunk)
        iterate(
            state,
            seat,
            kids,
            chunk,
            rng,
            tree.node_seat,
            tree.visits,
            tree.totals,
            tree.avail,
            tree.first_child,
            tree.next_sibling,
            tree.node_action,
            tree.nodes,
            exploration,
            depth,
            scale,
            bonus_weight,
            token_weight,
            distance,
            moves,
            next_road,
            weights,
            turns,
            mix,
        )
        done += chunk
    return tree.root_statistics(), done


def search(
    game: Game,
    seat: int,
    seed: int,
    iterations: int,
    seconds: float | None = None,
    exploration: float = 3.0,
    depth: int = 8,
    scale: float = 2.5,
    bonus_weight: float = 1.2,
    token_weight: float = 0.05,
    weights: np.ndarray = NO_WEIGHTS,
    plan: bool = False,
    mix: float = 0.0,
) -> tuple[dict[int, tuple[int, float]], int]:
    """Search from ``game`` (a reference game: a determinization of what ``seat`` sees; each iteration deals
    its hidden parts anew) as ``search_state`` does; ``plan``: a Kids search plays and scores by its board's
    plan of the turns to the Palace; ``mix`` as in ``iterate``."""
    from splendor.compiled import from_reference

    fast = from_reference(game)
    kids = game.name == "kids"
    turns = turn_table(fast.state) if kids and plan else NO_TURNS
    route = route_tables(game, fast) if kids and not plan else None  # a plan needs no route tables
    return search_state(
        fast.state,
        seat,
        kids,
        seed,
        iterations,
        seconds,
        exploration,
        depth,
        scale,
        bonus_weight,
        token_weight,
        weights,
        route,
        turns,
        mix,
    )


def turn_table(state: np.ndarray) -> np.ndarray:
    """``compiled_kids_turns.turn_table`` of the board in compiled Kids ``state``, kept for the boards met
    lately (filling one takes about 10 ms, a tenth of a quick move). Searches share it and only read it."""
    return _turn_table_of_board(state[: k.BOARD_END].tobytes())


@functools.lru_cache(maxsize=16)
def _turn_table_of_board(board: bytes) -> np.ndarray:
    return kt.turn_table(np.frombuffer(board, dtype=np.int64))  # the table reads only the board's part
