"""The greedy bot's heuristic in compiled code, for classic Splendor: `splendor.bots.greedy.MarketPlanner` read
off the compiled state, so that a learner can meet the greedy bot inside the vectorised environments (the
opponent ``greedy``) at the engine's speed, and be measured against the reference bot it copies.

It scores every legal action exactly as the planner does, in the same order of floating-point operations, and
plays one of the best at random (the planner's ties, within 1e-9): the action it plays is always one the
reference greedy bot could play in the same position (``tests/test_vector_env.py`` checks it at every step of
whole games). Like the planner it reads only what the seat may see: the display, the nobles, the supply and its
own tokens, bonuses, points and reserved cards.

Splendor: Pokémon's greedy bot also weighs evolutions; that part is not compiled, and the vectorised
environments refuse the ``greedy`` opponent there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled import market as m
from splendor.compiled.rng import below
from splendor.search.market_compiled import card_of_buy

TIE = 1e-9
"""Scores this close are equal, as the planner compares them."""
PLAIN = m.WILD


@njit(cache=True)
def _need(s: np.ndarray, seat: int, cid: int, extra: np.ndarray) -> int:
    """Tokens still missing to buy card ``cid`` after bonuses, tokens (plus ``extra``) and wild tokens
    (``MarketPlanner.need``)."""
    kind = s[m.KIND]
    short = 0
    for c in range(PLAIN):
        d = m.CARD_COST[kind, cid, c] - s[m.BONUS + seat * PLAIN + c] - s[m.TOKENS + seat * m.COLOURS + c] - extra[c]
        if d > 0:
            short += d
    wild: int = s[m.TOKENS + seat * m.COLOURS + m.WILD] + extra[m.WILD]
    return max(0, short - wild)


@njit(cache=True)
def _card_value(s: np.ndarray, seat: int, cid: int, demand: np.ndarray) -> float:
    """What a card is worth to the seat (``MarketPlanner.card_value``): its points, what its bonus does for the
    nobles on display, and early on how much the display asks for its colour."""
    kind = s[m.KIND]
    value: float = float(m.CARD_POINTS[kind, cid])
    colour = m.CARD_BONUS[kind, cid]
    count = m.CARD_BONUS_COUNT[kind, cid]
    for k in range(s[m.NOBLES_N]):
        noble = s[m.NOBLES_AT + k]
        if m.NOBLE_REQUIRES[noble, colour] > s[m.BONUS + seat * PLAIN + colour]:
            missing = 0
            for c in range(PLAIN):
                d = m.NOBLE_REQUIRES[noble, c] - s[m.BONUS + seat * PLAIN + c]
                if d > 0:
                    missing += d
            value += 3.0 * count / (missing + 1)
    early: float = max(0.0, 1.0 - s[m.POINTS + seat] / m.WIN_POINTS[kind])
    value += 1.5 * early * count * demand[colour] * PLAIN
    return value


@njit(cache=True)
def _visible(s: np.ndarray, seat: int, cards: np.ndarray) -> int:
    """The cards the seat sees that it could aim for, as the planner lists them: the display row by row, then its
    reserved cards; their number."""
    kind = s[m.KIND]
    n = 0
    for r in range(m.ROW_COUNT[kind]):
        for slot in range(m.ROW_SIZE[kind, r]):
            cid = s[m.ROWS + r * m.SLOTS + slot]
            if cid >= 0:
                cards[n] = cid
                n += 1
    for i in range(s[m.RESERVED_N + seat]):
        cards[n] = s[m.RESERVED + seat * m.RESERVE_LIMIT + i]
        n += 1
    return n


@njit(cache=True)
def _card_to_reserve(s: np.ndarray, a: int) -> int:
    """The card a reserve action takes from the display (-1 for a reserve from a deck)."""
    row, slot = divmod(a - m.RESERVE, 5)
    if slot == 4:
        return -1
    displayed: int = s[m.ROWS + row * m.SLOTS + slot]
    return displayed


@njit(cache=True)
def greedy_action(s: np.ndarray, mask: np.ndarray, count: int, rng: np.ndarray) -> int:
    """The action the greedy bot plays in a classic position, ``mask`` holding its ``count`` legal actions: the
    best by ``MarketPlanner.score``, ties broken at random."""
    kind = s[m.KIND]
    seat = s[m.SEAT]
    n_actions = m.ACTION_COUNT[kind]
    if count == 1:
        return m.nth_legal(mask, n_actions, 0)
    cards = np.empty(3 * m.SLOTS * m.MAX_ROWS + m.RESERVE_LIMIT, dtype=np.int64)
    n = _visible(s, seat, cards)
    demand = np.zeros(PLAIN, dtype=np.float64)
    for j in range(n):
        for c in range(PLAIN):
            d = m.CARD_COST[kind, cards[j], c] - s[m.BONUS + seat * PLAIN + c]
            if d > 0:
                demand[c] += d
    total = 0.0
    for c in range(PLAIN):
        total += demand[c]
    if total == 0.0:
        total = 1.0
    for c in range(PLAIN):
        demand[c] = demand[c] / total
    zero = np.zeros(m.COLOURS, dtype=np.int64)
    # the two targets: the best by value / (1 + need) ** 1.3, the first listed among equals (a stable sort)
    target = np.full(2, -1, dtype=np.int64)
    target_value = np.zeros(2, dtype=np.float64)
    best_score = np.full(2, -np.inf)
    for j in range(n):
        value = _card_value(s, seat, cards[j], demand)
        score = value / (1 + _need(s, seat, cards[j], zero)) ** 1.3
        if score > best_score[0]:
            target[1], target_value[1], best_score[1] = target[0], target_value[0], best_score[0]
            target[0], target_value[0], best_score[0] = cards[j], value, score
        elif score > best_score[1]:
            target[1], target_value[1], best_score[1] = cards[j], value, score
    weights = (1.0, 0.5)
    tokens = 0
    for c in range(m.COLOURS):
        tokens += s[m.TOKENS + seat * m.COLOURS + c]
    gained = np.zeros(m.COLOURS, dtype=np.int64)
    chosen = np.empty(count, dtype=np.int64)
    ties = 0
    best = -np.inf
    for a in range(n_actions):
        if not mask[a]:
            continue
        score = 0.0
        if a >= m.BUY and a < m.RETURN[kind]:
            cid = card_of_buy(s, a)
            spent = 0
            for c in range(PLAIN):
                d = m.CARD_COST[kind, cid, c] - s[m.BONUS + seat * PLAIN + c]
                if d > 0:
                    spent += d
            score = 100 + 10 * m.CARD_POINTS[kind, cid] + 3 * _card_value(s, seat, cid, demand) - 0.2 * spent
        elif a < m.RESERVE:  # the takes: three colours, fewer, two of one
            gained[:] = 0
            taken = 0
            shown = 0.0
            if a >= m.TAKE2:
                gained[a - m.TAKE2] = 2
                shown += demand[a - m.TAKE2]
            for k in range(3):
                c = m.TAKE_COLOURS[a, k]
                if c >= 0:
                    gained[c] = 1
                    shown += demand[c]
            for c in range(m.COLOURS):
                taken += gained[c]
            for t in range(2):
                if target[t] >= 0:
                    closer = _need(s, seat, target[t], zero) - _need(s, seat, target[t], gained)
                    score += weights[t] * closer * (1 + target_value[t])
            score += 0.1 * shown
            over = tokens + taken - 10
            if over > 0:
                score = score - 0.6 * over
            score = score + 0.01 * taken
        elif a < m.BUY:  # reserves
            gold = 0.6 if s[m.SUPPLY + m.WILD] > 0 and tokens < 10 else 0.0
            cid = _card_to_reserve(s, a)
            if cid < 0:
                score = gold - 0.8
            elif m.CARD_POINTS[kind, cid] >= 3 and _need(s, seat, cid, zero) >= 3:
                score = gold + 0.4 * _card_value(s, seat, cid, demand)
            else:
                score = gold + -0.5
        elif a >= m.RETURN[kind] and a < m.RETURN[kind] + m.COLOURS:
            c = a - m.RETURN[kind]
            if c == m.WILD:
                score = -5.0
            else:
                gained[:] = 0
                gained[c] = -1
                loss = 0.0
                for t in range(2):
                    if target[t] >= 0:
                        loss += weights[t] * (_need(s, seat, target[t], gained) - _need(s, seat, target[t], zero))
                score = -loss - demand[c] + 0.05 * s[m.TOKENS + seat * m.COLOURS + c]
        # a noble's choice and a pass score 0: any is fine
        if score > best + TIE:
            best = score
            chosen[0] = a
            ties = 1
        elif abs(score - best) <= TIE:
            chosen[ties] = a
            ties += 1
    return int(chosen[below(rng, ties)])
