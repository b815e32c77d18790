"""The search bot's iterations in compiled code, for the games the compiled engine plays (classic, Pokémon).

The same SO-ISMCTS as ``splendor.bots.search`` (read that module first: it is the readable statement of the
algorithm), walked over ``splendor.compiled``'s flat states: each iteration deals the hidden cards anew for the
searching seat (``determinize_into``), walks the tree by PUCT with availability counts and the priors of the
actions' kinds, adds one node, plays out with the market games' playout policy (``playout_action``) for at most
``depth`` decisions and scores the end with ``progress``. The tree lives in flat arrays (``Tree``), one entry a
node, children as linked lists; Python only starts the iterations in chunks to watch the clock and grow the tree.

What differs from the Python search is only the random stream (SplitMix64 here, Python's ``random`` there), so
the two choose alike in distribution, not move for move.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from splendor.compiled import market as m
from splendor.compiled.rng import below, next64, shuffle

GAMES = ("classic", "pokemon")
"""The games searched here; Kids' search runs in Python (its compiled engine is there, its playout policy and
evaluation not yet)."""

_UNIT = 1.0 / 9007199254740992.0              # 2**-53


@njit(cache=True)
def _uniform(rng: np.ndarray) -> float:
    """A uniform float in [0, 1) from the top 53 bits of the next output."""
    return float(next64(rng) >> np.uint64(11)) * _UNIT


# ----------------------------------------------------------------------------- determinization


@njit(cache=True)
def determinize_into(root: np.ndarray, seat: int, rng: np.ndarray, out: np.ndarray, pool: np.ndarray) -> None:
    """``out`` := ``root`` with what ``seat`` cannot see dealt anew: each deck together with the cards the other
    seats reserved face down from it, shuffled and dealt back (as the reference's ``determinize``). The pool is
    sorted before the shuffle, so the deal depends only on what the seat knows, never on the hidden order."""
    out[:] = root
    kind = root[m.KIND]
    players = root[m.PLAYERS]
    for r in range(m.ROW_COUNT[kind]):             # every deck: Pokémon's rare and legendary ones too
        n = 0
        for i in range(root[m.DECK_N + r]):
            pool[n] = root[m.DECKS + r * m.DECK_ROOM + i]
            n += 1
        for s in range(players):
            if s == seat:
                continue
            for i in range(root[m.RESERVED_N + s]):
                cid = root[m.RESERVED + s * m.RESERVE_LIMIT + i]
                if root[m.SECRET + s * m.RESERVE_LIMIT + i] == 1 and m.CARD_ROW[kind, cid] == r:
                    pool[n] = cid
                    n += 1
        pool[:n].sort()
        shuffle(rng, pool, n)
        for s in range(players):
            if s == seat:
                continue
            for i in range(root[m.RESERVED_N + s]):
                cid = root[m.RESERVED + s * m.RESERVE_LIMIT + i]
                if root[m.SECRET + s * m.RESERVE_LIMIT + i] == 1 and m.CARD_ROW[kind, cid] == r:
                    n -= 1
                    out[m.RESERVED + s * m.RESERVE_LIMIT + i] = pool[n]
        for i in range(n):
            out[m.DECKS + r * m.DECK_ROOM + i] = pool[i]


# ----------------------------------------------------------------------------- the playout policy


@njit(cache=True)
def _wanted_colours(s: np.ndarray, want: np.ndarray) -> None:
    """How much the seat to move wants each colour: the shortfalls of its two nearest good cards (the market
    games' ``_wanted_colours``)."""
    kind = s[m.KIND]
    seat = s[m.SEAT]
    first_score, first_card, second_score, second_card = -1.0, -1, -1.0, -1
    n_reserved = s[m.RESERVED_N + seat]
    for k in range(3 * m.SLOTS + n_reserved):
        if k < 3 * m.SLOTS:
            cid = s[m.ROWS + k]
        else:
            cid = s[m.RESERVED + seat * m.RESERVE_LIMIT + k - 3 * m.SLOTS]
        if cid < 0:
            continue
        total = 0
        for c in range(m.WILD):
            d = m.CARD_COST[kind, cid, c] - s[m.BONUS + seat * 5 + c] - s[m.TOKENS + seat * m.COLOURS + c]
            if d > 0:
                total += d
        score = (m.CARD_POINTS[kind, cid] + 1) / (1 + total)
        if score > first_score:
            second_score, second_card = first_score, first_card
            first_score, first_card = score, cid
        elif score > second_score:
            second_score, second_card = score, cid
    want[:] = 0.0
    for j in range(2):
        weight, cid = (first_score, first_card) if j == 0 else (second_score, second_card)
        if cid < 0:
            continue
        for c in range(m.WILD):
            d = m.CARD_COST[kind, cid, c] - s[m.BONUS + seat * 5 + c] - s[m.TOKENS + seat * m.COLOURS + c]
            if d > 0:
                want[c] += weight * d
    want[m.WILD] = 10.0                       # never return a wild token if another will do


@njit(cache=True)
def _card_of_buy(s: np.ndarray, a: int) -> int:
    """The card a legal buy action takes (from the display or the seat's reserved cards)."""
    kind = s[m.KIND]
    if a >= m.BUY_RESERVED[kind]:
        return s[m.RESERVED + s[m.SEAT] * m.RESERVE_LIMIT + a - m.BUY_RESERVED[kind]]
    offset = a - m.BUY
    for r in range(m.ROW_COUNT[kind] - 1, -1, -1):
        if offset >= m.ROW_BUY[kind, r]:
            return s[m.ROWS + r * m.SLOTS + offset - m.ROW_BUY[kind, r]]
    return -1


@njit(cache=True)
def playout_action(s: np.ndarray, mask: np.ndarray, count: int, rng: np.ndarray, want: np.ndarray) -> int:
    """The market games' playout policy (``MarketGame.playout_action``): buy the most valuable card (points
    first); otherwise take the tokens that bring the nearest good cards closest; return what they need least;
    take any follow-up choice at random, evolving rather than declining."""
    kind = s[m.KIND]
    phase = s[m.PHASE]
    if phase == m.MAIN:
        best, best_value = -1, -1.0
        for a in range(m.BUY, m.RETURN[kind]):
            if mask[a]:
                cid = _card_of_buy(s, a)
                value = m.CARD_POINTS[kind, cid] * 3 + m.CARD_BONUS_COUNT[kind, cid] + _uniform(rng)
                if value > best_value:
                    best, best_value = a, value
        if best >= 0:
            return best
        _wanted_colours(s, want)
        for a in range(m.RESERVE):                       # the takes: three colours, fewer, two of one
            if mask[a]:
                total = 0.0
                for k in range(3):
                    c = m.TAKE_COLOURS[a, k]
                    if c >= 0:
                        total += want[c]
                value = total * (2.0 if a >= m.TAKE2 else 1.0) + _uniform(rng) * 0.5
                if value > best_value:
                    best, best_value = a, value
        if best >= 0:
            return best
    elif phase == m.RETURN_PHASE:
        _wanted_colours(s, want)
        best, best_value = -1, math.inf
        for c in range(m.COLOURS):
            a = m.RETURN[kind] + c
            if mask[a]:
                value = want[c] + _uniform(rng) * 0.1
                if value < best_value:
                    best, best_value = a, value
        return best
    elif phase == m.CHOICE and kind == m.POKEMON and count > 1:
        k = below(rng, count - 1)                        # evolving is never worse than declining
        for a in range(m.ACTION_COUNT[kind]):
            if mask[a] and a != m.EVOLVE_NONE:
                if k == 0:
                    return a
                k -= 1
    k = below(rng, count)
    for a in range(m.ACTION_COUNT[kind]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def progress(s: np.ndarray, seat: int, bonus_weight: float, token_weight: float) -> float:
    """Points, plus ``bonus_weight`` points a card bonus and ``token_weight`` a token (the market games'
    ``progress``)."""
    total = float(s[m.POINTS + seat])
    for c in range(m.WILD):
        total += bonus_weight * s[m.BONUS + seat * 5 + c]
    for c in range(m.COLOURS):
        total += token_weight * s[m.TOKENS + seat * m.COLOURS + c]
    return total


@njit(cache=True)
def _values(s: np.ndarray, out: np.ndarray, scale: float, bonus_weight: float, token_weight: float) -> None:
    """Each seat's share of the win: the result when the game is over (a sole winner 1, shared 1/k, none 1/n),
    else a logistic of its progress lead over the best other seat."""
    players = s[m.PLAYERS]
    if s[m.PHASE] == m.OVER:
        winners = s[m.WINNERS_N]
        for p in range(players):
            out[p] = 1.0 / players if winners == 0 else 0.0
        for i in range(winners):
            out[s[m.WINNERS + i]] = 1.0 / winners
        return
    for p in range(players):
        mine = progress(s, p, bonus_weight, token_weight)
        best = -math.inf
        for q in range(players):
            if q != p:
                best = max(best, progress(s, q, bonus_weight, token_weight))
        out[p] = 1.0 / (1.0 + math.exp(-(mine - best) / scale))


# ----------------------------------------------------------------------------- the tree


@njit(cache=True)
def iterate(root: np.ndarray, seat: int, iterations: int, rng: np.ndarray, priors: np.ndarray,
            node_seat: np.ndarray, visits: np.ndarray, totals: np.ndarray, avail: np.ndarray,
            first_child: np.ndarray, next_sibling: np.ndarray, node_action: np.ndarray, nodes: np.ndarray,
            exploration: float, depth: int, scale: float, bonus_weight: float, token_weight: float) -> None:
    """Run ``iterations`` iterations from ``root`` for ``seat``, adding at most one node each to the tree
    (node 0 is the root; ``nodes[0]`` counts the nodes; the caller leaves room for ``iterations`` more)."""
    kind = root[m.KIND]
    actions = m.ACTION_COUNT[kind]
    g = np.empty_like(root)
    pool = np.empty(m.DECK_ROOM + m.MAX_SEATS * m.RESERVE_LIMIT, dtype=np.int64)
    mask = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
    scratch = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
    child_of = np.full(m.MAX_ACTIONS, -1, dtype=np.int64)
    want = np.zeros(m.COLOURS, dtype=np.float64)
    values = np.zeros(m.MAX_SEATS, dtype=np.float64)
    path = np.empty(512, dtype=np.int64)
    for _ in range(iterations):
        determinize_into(root, seat, rng, g, pool)
        node = 0
        visits[0] += 1
        length = 0
        while g[m.PHASE] != m.OVER and length < path.shape[0]:
            count = m.legal_mask_into(g, mask)
            total_prior = 0.0
            for a in range(actions):
                if mask[a]:
                    total_prior += priors[kind, a]
            child = first_child[node]
            while child >= 0:
                child_of[node_action[child]] = child
                child = next_sibling[child]
            explore = exploration * math.sqrt(visits[node])
            best, best_score = -1, -math.inf
            for a in range(actions):
                if not mask[a]:
                    continue
                child = child_of[a]
                if child >= 0:
                    avail[child] += 1
                if child >= 0 and visits[child] > 0:
                    q, n = totals[child] / visits[child], visits[child]
                else:
                    q, n = 0.5, 0
                score = q + explore * priors[kind, a] / total_prior / (1 + n)
                if score > best_score:
                    best, best_score = a, score
            chosen = child_of[best]
            child = first_child[node]
            while child >= 0:
                child_of[node_action[child]] = -1
                child = next_sibling[child]
            mover = g[m.SEAT]
            m.step(g, best, scratch)
            if chosen < 0:
                chosen = nodes[0]
                nodes[0] += 1
                node_seat[chosen], visits[chosen], totals[chosen], avail[chosen] = mover, 0, 0.0, 1
                first_child[chosen], node_action[chosen] = -1, best
                next_sibling[chosen] = first_child[node]
                first_child[node] = chosen
                path[length] = chosen
                length += 1
                break
            path[length] = chosen
            length += 1
            node = chosen
        steps = 0
        while g[m.PHASE] != m.OVER and steps < depth:
            count = m.legal_mask_into(g, mask)
            m.step(g, playout_action(g, mask, count, rng, want), scratch)
            steps += 1
        _values(g, values, scale, bonus_weight, token_weight)
        for i in range(length):
            visits[path[i]] += 1
            totals[path[i]] += values[node_seat[path[i]]]


def _prior_table() -> np.ndarray:
    """The kinds' prior weights (``search.KIND_WEIGHT``, three tokens 2, fewer 1) by [game kind, action index]."""
    from splendor.bots.search import KIND_WEIGHT

    table = np.ones((len(m.TABLES), m.MAX_ACTIONS), dtype=np.float64)
    for kind, actions in enumerate(m.TABLES):
        for a in actions:
            if a.kind == "take":
                table[kind, a.index] = 2.0 if len(a.args) == 3 else 1.0
            else:
                table[kind, a.index] = KIND_WEIGHT.get(a.kind, 1.0)
    return table


PRIORS = _prior_table()


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
        tree = cls(ints[0], ints[1], np.zeros(room, dtype=np.float64), ints[2], ints[3], ints[4], ints[5],
                   np.ones(1, dtype=np.int64))
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


def search(root: np.ndarray, seat: int, seed: int, iterations: int, seconds: float | None = None,
           exploration: float = 3.0, depth: int = 8, scale: float = 2.5, bonus_weight: float = 1.2,
           token_weight: float = 0.05) -> tuple[dict[int, tuple[int, float]], int]:
    """Search from the compiled state ``root`` for ``seat`` for ``iterations`` iterations (at least one) or
    until ``seconds`` have passed; returns each explored root action's (visits, mean value) and the iterations
    run. The same seed and iterations give the same result."""
    rng = np.array([seed], dtype=np.uint64)
    tree = Tree.empty(seat, min(iterations, 1 << 16) + 1)
    deadline = time.perf_counter() + seconds if seconds is not None else math.inf
    done = 0
    while done < iterations and (done == 0 or time.perf_counter() < deadline):
        chunk = min(CHUNK, iterations - done)
        tree.room_for(chunk)
        iterate(root, seat, chunk, rng, PRIORS, tree.node_seat, tree.visits, tree.totals, tree.avail,
                tree.first_child, tree.next_sibling, tree.node_action, tree.nodes, exploration, depth, scale,
                bonus_weight, token_weight)
        done += chunk
    return tree.root_statistics(), done
