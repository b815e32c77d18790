"""The search's iterations in compiled code, for the three games.

The same SO-ISMCTS as ``splendor.search.reference`` (read that module first: it is the readable statement of the
algorithm), walked over ``splendor.compiled``'s flat states: each iteration deals what the searching seat cannot
see anew, walks the tree by PUCT with availability counts and the priors of the actions' kinds, adds one node,
plays out with the game's playout policy for at most ``depth`` decisions and scores the end. What it knows of the
game comes as one record (``GameKnowledge``: ``market_compiled`` for classic and Pokémon, ``kids_compiled`` for
Kids, or the Kids expert's plan of the race, ``plan``), how it searches as another (``Settings``: exploration,
depth, scale, and ``mix``, how much of a value is the new leaf's own evaluation). The tree lives in flat arrays
(``Tree``), one entry a node, children as linked lists; Python only starts the iterations in chunks to watch
the clock and grow the tree.

What differs from the reference search is only the random stream (SplitMix64 here, Python's ``random`` there), so
the two choose alike in distribution, not move for move.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from splendor.compiled import kids as k
from splendor.compiled import market as m
from splendor.core.game import Game
from splendor.games.kids.notation import RESOURCE_COUNT
from splendor.search import kids_compiled as kd
from splendor.search import market_compiled as mk
from splendor.search import plan as kt
from splendor.search.learning import network as nn
from splendor.search.learning.features import FEATURE_COUNT
from splendor.search.learning.policy import ACTION_FEATURE_COUNT, NO_POLICY, learned_priors_into
from splendor.search.levels import EXPLORATION, SCALE
from splendor.search.market import BONUS_WEIGHT, DEPTH, TOKEN_WEIGHT

GAMES = ("classic", "pokemon", "kids")
"""The games searched here: all three."""

MARKET, KIDS, PLAN = 0, 1, 2
"""What a ``GameKnowledge`` is of: a card-market game (classic, Pokémon), Kids by its route tables, Kids by the
plan of each traveler's race."""

NO_WEIGHTS = np.zeros((0, 0), dtype=np.float64)
"""No learned weights: the market games are scored with the hand-made progress."""

NO_TURNS = np.zeros((0, 0), dtype=np.int8)
"""No turn table: Kids is scored with the route estimate (``kids_compiled.progress``)."""

NO_NETWORK = nn.NO_NETWORK
"""No network: the search scores and explores without one."""

NO_ROUTE = (np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
"""The route arrays' stand-ins for the market games, which have no roads, and for a Kids search by its plan,
which never reads them."""


class GameKnowledge(NamedTuple):
    """What the compiled search knows of the game it searches, in one record: which game it is of (``MARKET``,
    ``KIDS``, ``PLAN``), the hand-made progress's weights and the learned ones (``NO_WEIGHTS``: none), a Kids
    board's route tables (``kids_compiled.Route``) and its plan (``plan.turn_table``), and the learned policy's
    weights that set the priors of the market games' actions (``learning.policy``; ``NO_POLICY``: the priors of
    their kinds), and the market games' policy and value network (``learning.network``; ``NO_NETWORK``: none).
    With a network, the priors of the tree's first nodes are its policy's and a new leaf's own evaluation (a
    ``mix`` of each value, ``Settings``) is its value."""

    game: int
    bonus_weight: float
    token_weight: float
    weights: np.ndarray
    distance: np.ndarray
    moves: np.ndarray
    next_road: np.ndarray
    turns: np.ndarray
    policy: np.ndarray
    network: nn.Network


class Settings(NamedTuple):
    """How the compiled search searches: its exploration constant, its playout depth, the scale of the logistic
    that turns a progress lead into a win chance, and ``mix``, the share of a value that is the new leaf's own
    evaluation rather than the playout's end (as AlphaGo mixes its value network with its rollouts), and
    ``shares``: whether an unfinished game gives each seat its share of every seat's progress rather than the
    logistic of its lead over the best other (``values.win_shares_into``; the same with two players)."""

    exploration: float = EXPLORATION
    depth: int = DEPTH
    scale: float = SCALE
    mix: float = 0.0
    shares: bool = False


def settings(
    exploration: float = EXPLORATION, depth: int = DEPTH, scale: float = SCALE, mix: float = 0.0, shares: bool = False
) -> Settings:
    """``Settings`` with each field of its own type (the compiled code is compiled once for those types)."""
    return Settings(float(exploration), int(depth), float(scale), float(mix), bool(shares))


def market_knowledge(
    weights: np.ndarray = NO_WEIGHTS, policy: np.ndarray = NO_POLICY, network: nn.Network = nn.NO_NETWORK
) -> GameKnowledge:
    """The knowledge of classic and Pokémon: the hand-made progress's weights (``market``), the learned
    ``weights`` when the search scores by them, the learned ``policy`` when it explores by it, and the
    ``network`` when its policy and value guide the search (it takes the place of ``policy``)."""
    distance, moves, next_road = NO_ROUTE
    return GameKnowledge(
        MARKET,
        BONUS_WEIGHT,
        TOKEN_WEIGHT,
        weights,
        distance,
        moves,
        next_road,
        NO_TURNS,
        policy,
        nn.as_compiled(network),
    )


def kids_knowledge(
    route: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None, turns: np.ndarray = NO_TURNS
) -> GameKnowledge:
    """The knowledge of a Kids board: its plan (``turns``, ``turn_table``) if the search plays and scores by it,
    else its ``route_tables``."""
    distance, moves, next_road = route if route is not None else NO_ROUTE
    game = PLAN if turns.shape[0] > 0 else KIDS
    return GameKnowledge(
        game, BONUS_WEIGHT, TOKEN_WEIGHT, NO_WEIGHTS, distance, moves, next_road, turns, NO_POLICY, nn.NO_NETWORK
    )


class Nodes(NamedTuple):
    """A tree's arrays as the compiled code reads them (``Tree``)."""

    seat: np.ndarray
    visits: np.ndarray
    totals: np.ndarray
    avail: np.ndarray
    first_child: np.ndarray
    next_sibling: np.ndarray
    action: np.ndarray
    used: np.ndarray


# ----------------------------------------------------------------------------- each game's part, by its record


@njit(cache=True)
def _deal(root: np.ndarray, seat: int, know: GameKnowledge, rng: np.ndarray, out: np.ndarray, pool: np.ndarray) -> None:
    """``out`` := ``root`` with what ``seat`` cannot see dealt anew."""
    if know.game == MARKET:
        mk.determinize_into(root, seat, rng, out, pool)
    else:
        kd.determinize_into(root, rng, out, pool)


@njit(cache=True)
def _legal(g: np.ndarray, know: GameKnowledge, legal: np.ndarray, mask: np.ndarray) -> int:
    """The legal actions' indices into ``legal`` (ascending); for the market games ``mask`` is set too."""
    if know.game != MARKET:
        return k.legal_into(g, legal)
    m.legal_mask_into(g, mask)
    n = 0
    for a in range(m.ACTION_COUNT[g[m.KIND]]):
        if mask[a]:
            legal[n] = a
            n += 1
    return n


@njit(cache=True)
def _priors(
    g: np.ndarray,
    know: GameKnowledge,
    legal: np.ndarray,
    count: int,
    out: np.ndarray,
    want: np.ndarray,
    features: np.ndarray,
    kept: np.ndarray,
    node: int,
    work: nn.Scratch,
) -> None:
    """The legal actions' priors (unnormalised): the network's (in the tree's first nodes) or the learned
    policy's where the knowledge has one, else from their kinds (``want`` and ``features`` are the policy's
    scratch space, ``work`` the network's). With a network, ``kept`` holds the policy logits of the tree's first
    nodes, filled when the node is made (``iterate``, where the leaf is evaluated: ``mix`` > 0) or first walked
    through, as the deal that reached it then showed it (the inputs hold nothing hidden from the seat to move,
    so the root's row is exact); deeper nodes, and a noble's or an evolution's choice, which the network is not
    trained on, take the kinds' priors. The learned priors of the tree's
    first nodes are kept in ``kept`` (a row a node, by action; NaN: not yet computed), since the top of the tree
    is walked through at nearly every iteration: a node's row is filled the first time and read after. The root's
    row is exact (the searching seat's priors depend only on what it sees); a deeper node's are those of the deal
    that first reached it (a refilled display slot or a hidden reserve may hold another card in another deal),
    as a guide to where to look first."""
    if know.game != MARKET:
        kd.priors_into(legal, count, out)
        return
    network = know.network.hidden.shape[0] > 0  # it takes the place of the learned policy
    if network and node < kept.shape[0] and g[m.PHASE] != m.CHOICE:
        row = kept[node]
        if math.isnan(row[0]):
            nn.evaluate_into(g, know.network, work)
            row[:] = work.policy[: row.shape[0]]
        nn.priors_into(row, legal, count, out)
        return
    if not network and know.policy.shape[0] > 0:
        if node >= kept.shape[0]:
            learned_priors_into(g, legal, count, know.policy, want, features, out)
            return
        row = kept[node]
        missing = False
        for i in range(count):
            out[i] = row[legal[i]]
            missing = missing or math.isnan(out[i])
        if missing:  # the node's first visit, or an action legal in this deal and not in the first
            learned_priors_into(g, legal, count, know.policy, want, features, out)
            for i in range(count):
                if math.isnan(row[legal[i]]):
                    row[legal[i]] = out[i]
                else:
                    out[i] = row[legal[i]]
        return
    kind = g[m.KIND]
    for i in range(count):
        out[i] = mk.PRIORS[kind, legal[i]]


@njit(cache=True)
def _over(g: np.ndarray, know: GameKnowledge) -> bool:
    return g[m.PHASE] == m.OVER if know.game == MARKET else k.phase(g) == k.OVER


@njit(cache=True)
def _mover(g: np.ndarray, know: GameKnowledge) -> int:
    mover: int = g[m.SEAT] if know.game == MARKET else k.current_player(g)
    return mover


@njit(cache=True)
def _players(g: np.ndarray, know: GameKnowledge) -> int:
    players: int = g[m.PLAYERS] if know.game == MARKET else g[k.PLAYERS]
    return players


@njit(cache=True)
def _step(g: np.ndarray, know: GameKnowledge, a: int, scratch: np.ndarray) -> None:
    if know.game == MARKET:
        m.step(g, a, scratch)
    else:
        k.step(g, a)


@njit(cache=True)
def _playout_action(
    g: np.ndarray,
    know: GameKnowledge,
    legal: np.ndarray,
    mask: np.ndarray,
    count: int,
    rng: np.ndarray,
    want: np.ndarray,
    need: np.ndarray,
    pay: np.ndarray,
) -> int:
    """The game's playout policy's action (``want``, ``need`` and ``pay`` are its scratch space)."""
    if know.game == PLAN:
        action: int = kt.playout_action(g, legal, count, rng, know.turns, pay)
    elif know.game == KIDS:
        action = kd.playout_action(g, legal, count, rng, know.distance, know.next_road, need, pay)
    else:
        action = mk.playout_action(g, mask, count, rng, want)
    return action


@njit(cache=True)
def _score(
    g: np.ndarray, know: GameKnowledge, scale: float, shares: bool, out: np.ndarray, features: np.ndarray
) -> None:
    """Each seat's share of the win in ``g``, by the game's evaluation."""
    if know.game == PLAN:
        kt.values_into(g, out, scale, know.turns, shares)
    elif know.game == KIDS:
        kd.values_into(g, out, scale, know.distance, know.moves, shares)
    else:
        mk.values_into(g, out, scale, know.bonus_weight, know.token_weight, know.weights, features, shares)


@njit(cache=True)
def iterate(
    root: np.ndarray,
    seat: int,
    iterations: int,
    rng: np.ndarray,
    tree: Nodes,
    know: GameKnowledge,
    settings: Settings,
    kept: np.ndarray,
) -> None:
    """Run ``iterations`` iterations from ``root`` for ``seat``, adding at most one node each to ``tree`` (node 0
    is the root; ``tree.used[0]`` counts the nodes; the caller leaves room for ``iterations`` more). ``know``
    says which game the state is of and how to play it out and score it; the value of an iteration is
    (1 − mix) · the playout's end + mix · the new leaf (``Settings``); ``kept`` holds the learned priors of the
    tree's first nodes (`prior_rows`)."""
    exploration, depth, scale, mix = settings.exploration, settings.depth, settings.scale, settings.mix
    shares = settings.shares
    node_seat, visits, totals, avail = tree.seat, tree.visits, tree.totals, tree.avail
    first_child, next_sibling, node_action, nodes = tree.first_child, tree.next_sibling, tree.action, tree.used
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
    players = _players(root, know)
    features = np.zeros(FEATURE_COUNT, dtype=np.float64)
    action_features = np.zeros(ACTION_FEATURE_COUNT, dtype=np.float64)
    path = np.empty(512, dtype=np.int64)
    net = know.network
    with_network = net.hidden.shape[0] > 0
    work = nn.scratch(net)
    for _ in range(iterations):
        _deal(root, seat, know, rng, g, pool)
        node = 0
        visits[0] += 1
        length = 0
        while not _over(g, know) and length < path.shape[0]:
            count = _legal(g, know, legal, mask)
            _priors(g, know, legal, count, prior, want, action_features, kept, node, work)
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
            mover = _mover(g, know)
            _step(g, know, action, scratch)
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
        if mix > 0.0 and with_network and not _over(g, know):
            leaf = path[length - 1] if length > 0 else 0
            keep = leaf < kept.shape[0] and math.isnan(kept[leaf, 0])  # its priors, for when it is walked through
            nn.evaluate_into(g, net, work, keep)
            nn.seat_values_into(g, g[m.SEAT], work.value, leaf_values)
            if keep:
                kept[leaf, :] = work.policy[: kept.shape[1]]
        elif mix > 0.0:
            _score(g, know, scale, shares, leaf_values, features)
        steps = 0
        while not _over(g, know) and steps < depth:
            count = _legal(g, know, legal, mask)
            a = _playout_action(g, know, legal, mask, count, rng, want, need, pay)
            _step(g, know, a, scratch)
            steps += 1
        _score(g, know, scale, shares, values, features)
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
        """A tree of its root alone, with room for ``room`` nodes."""
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

    def arrays(self) -> Nodes:
        """The arrays, as ``iterate`` takes them (shared, not copied)."""
        return Nodes(
            self.node_seat,
            self.visits,
            self.totals,
            self.avail,
            self.first_child,
            self.next_sibling,
            self.node_action,
            self.nodes,
        )

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

KEPT_NODES = 2048
"""The most of the tree's first nodes whose learned priors a search keeps (``_priors``): the root and the top of
the tree, walked through at nearly every iteration. A row is one float for each action of the game (classic's
95, Pokémon's 525): at most 1.6 MB (classic) or 8.6 MB (Pokémon) a search, less for a search of fewer nodes."""


def prior_rows(know: GameKnowledge, kind: int = 0, nodes: int = KEPT_NODES) -> np.ndarray:
    """The rows ``iterate`` keeps the learned priors (or the network's policy logits) of the tree's first nodes in
    (at most ``nodes``, each as wide as market game ``kind``'s actions), all unknown (NaN); none when the search
    explores by the kinds' priors, which cost nothing to look up."""
    if know.game != MARKET or (know.policy.shape[0] == 0 and know.network.hidden.shape[0] == 0):
        return np.zeros((0, 0), dtype=np.float64)
    return np.full((min(KEPT_NODES, nodes), int(m.ACTION_COUNT[kind])), np.nan, dtype=np.float64)


def route_tables(game: Game, fast: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays the Kids search needs of a game's board: each space's distance, moves and next road to the
    Palace (``kids_compiled.Route``). ``fast`` is the game already converted (``from_reference``), if it is."""
    from splendor.compiled import from_reference

    fast = from_reference(game) if fast is None else fast
    route = kd.Route(game, fast._kernel.tables(fast.state, fast.options))
    return route.distance, route.moves, route.next_road


def search_state(
    state: np.ndarray,
    seat: int,
    know: GameKnowledge,
    seed: int,
    iterations: int,
    seconds: float | None = None,
    settings: Settings = Settings(),  # noqa: B008 (a tuple: immutable)
) -> tuple[dict[int, tuple[int, float]], int]:
    """Search from a compiled state of the game ``know`` is of, for ``seat``: ``iterations`` iterations (at
    least one) or until ``seconds`` have passed; returns each explored root action's (visits, mean value) and
    the iterations run. The same seed and iterations give the same result."""
    if know.game == KIDS and know.distance.shape[0] == 0:
        raise ValueError("a Kids search needs its board's plan (turns) or its route tables")
    if not 0.0 <= settings.mix <= 1.0:
        raise ValueError(f"mix is the share of a value taken from the leaf itself, from 0 to 1, not {settings.mix}")
    rng = np.array([seed], dtype=np.uint64)
    tree = Tree.empty(seat, min(iterations, 1 << 16) + 1)
    kept = prior_rows(know, int(state[m.KIND]) if know.game == MARKET else 0, iterations + 1)
    deadline = time.perf_counter() + seconds if seconds is not None else math.inf
    done = 0
    while done < iterations and (done == 0 or time.perf_counter() < deadline):
        chunk = min(CHUNK, iterations - done)
        tree.room_for(chunk)
        iterate(state, seat, chunk, rng, tree.arrays(), know, settings, kept)
        done += chunk
    return tree.root_statistics(), done


def search(
    game: Game,
    seat: int,
    seed: int,
    iterations: int,
    seconds: float | None = None,
    settings: Settings = Settings(),  # noqa: B008 (a tuple: immutable)
    weights: np.ndarray = NO_WEIGHTS,
    plan: bool = False,
    policy: np.ndarray = NO_POLICY,
    network: nn.Network = nn.NO_NETWORK,
) -> tuple[dict[int, tuple[int, float]], int]:
    """Search from ``game`` (a reference game: a determinization of what ``seat`` sees; each iteration deals
    its hidden parts anew) as ``search_state`` does; a market game is scored by the learned ``weights`` when
    given, explores by the learned ``policy`` when given and is guided by the ``network`` when given, a Kids
    game is scored by its board's plan of the turns to the Palace when ``plan``."""
    from splendor.compiled import from_reference

    fast = from_reference(game)
    if game.name != "kids":
        know = market_knowledge(weights, policy, network)
    elif plan:
        know = kids_knowledge(turns=turn_table(fast.state))  # a plan needs no route tables
    else:
        know = kids_knowledge(route=route_tables(game, fast))
    return search_state(fast.state, seat, know, seed, iterations, seconds, settings)


def turn_table(state: np.ndarray) -> np.ndarray:
    """``plan.turn_table`` of the board in compiled Kids ``state``, kept for the boards met lately (filling
    one takes about 10 ms, a tenth of a quick move). Searches share it and only read it."""
    return _turn_table_of_board(state[: k.BOARD_END].tobytes())


@functools.lru_cache(maxsize=16)
def _turn_table_of_board(board: bytes) -> np.ndarray:
    return kt.turn_table(np.frombuffer(board, dtype=np.int64))  # the table reads only the board's part


def warm() -> None:
    """Compile the search now (the first time on a machine, up to a minute on one core; then it loads from Numba's
    cache), by a short search of each game it plays."""
    from splendor.games import new_game

    for name in GAMES:
        search(new_game(name, players=2), 0, 0, 2)
