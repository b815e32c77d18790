"""What the search knows of classic Splendor and Splendor: Pokémon, in compiled code: dealing the hidden cards anew
for a seat, the playout policy, the progress estimate and the priors of the actions' kinds, as
``splendor.games.market`` (determinizing), ``splendor.search.market`` and ``splendor.search.priors`` (the rest)
state them for the reference search."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from splendor.compiled import market as m
from splendor.compiled.rng import below, shuffle, uniform
from splendor.search.learning.features import learned_progress
from splendor.search.priors import TAKE3_WEIGHT, TAKE_WEIGHT, kind_weight
from splendor.search.values import result_into, win_shares_into

# ----------------------------------------------------------------------------- determinization


@njit(cache=True)
def determinize_into(root: np.ndarray, seat: int, rng: np.ndarray, out: np.ndarray, pool: np.ndarray) -> None:
    """``out`` := ``root`` with what ``seat`` cannot see dealt anew: each deck together with the cards the other
    seats reserved face down from it, shuffled and dealt back (as the reference's ``determinize``). The pool is
    sorted before the shuffle, so the deal depends only on what the seat knows, never on the hidden order."""
    out[:] = root
    kind = root[m.KIND]
    players = root[m.PLAYERS]
    for r in range(m.ROW_COUNT[kind]):  # every deck: Pokémon's rare and legendary ones too
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
def wanted_colours(s: np.ndarray, want: np.ndarray) -> None:
    """How much the seat to move wants each colour: the shortfalls of its two nearest good cards (the market
    games' ``market.wanted_colours``)."""
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
    want[m.WILD] = 10.0  # never return a wild token if another will do


@njit(cache=True)
def card_of_buy(s: np.ndarray, a: int) -> int:
    """The card a legal buy action takes (from the display or the seat's reserved cards)."""
    kind = s[m.KIND]
    if a >= m.BUY_RESERVED[kind]:
        reserved: int = s[m.RESERVED + s[m.SEAT] * m.RESERVE_LIMIT + a - m.BUY_RESERVED[kind]]
        return reserved
    offset = a - m.BUY
    for r in range(m.ROW_COUNT[kind] - 1, -1, -1):
        if offset >= m.ROW_BUY[kind, r]:
            shown: int = s[m.ROWS + r * m.SLOTS + offset - m.ROW_BUY[kind, r]]
            return shown
    return -1


@njit(cache=True)
def playout_action(s: np.ndarray, mask: np.ndarray, count: int, rng: np.ndarray, want: np.ndarray) -> int:
    """The market games' playout policy (``market.playout_action``): buy the most valuable card (points
    first); otherwise take the tokens that bring the nearest good cards closest; return what they need least;
    take any follow-up choice at random, evolving rather than declining."""
    kind = s[m.KIND]
    phase = s[m.PHASE]
    if phase == m.MAIN:
        best, best_value = -1, -1.0
        for a in range(m.BUY, m.RETURN[kind]):
            if mask[a]:
                cid = card_of_buy(s, a)
                value = m.CARD_POINTS[kind, cid] * 3 + m.CARD_BONUS_COUNT[kind, cid] + uniform(rng)
                if value > best_value:
                    best, best_value = a, value
        if best >= 0:
            return best
        wanted_colours(s, want)
        for a in range(m.RESERVE):  # the takes: three colours, fewer, two of one
            if mask[a]:
                total = 0.0
                if a >= m.TAKE2:  # two of one colour (``TAKE_COLOURS`` lists the colours of the other takes)
                    total = 2.0 * want[a - m.TAKE2]
                for k in range(3):
                    c = m.TAKE_COLOURS[a, k]
                    if c >= 0:
                        total += want[c]
                value = total + uniform(rng) * 0.5
                if value > best_value:
                    best, best_value = a, value
        if best >= 0:
            return best
    elif phase == m.RETURN_PHASE:
        wanted_colours(s, want)
        best, best_value = -1, math.inf
        for c in range(m.COLOURS):
            a = m.RETURN[kind] + c
            if mask[a]:
                value = want[c] + uniform(rng) * 0.1
                if value < best_value:
                    best, best_value = a, value
        return best
    elif phase == m.CHOICE and kind == m.POKEMON and count > 1:
        k = below(rng, count - 1)  # evolving is never worse than declining
        for a in range(m.ACTION_COUNT[kind]):
            if mask[a] and a != m.EVOLVE_NONE:
                if k == 0:
                    return a
                k -= 1
    return m.nth_legal(mask, m.ACTION_COUNT[kind], below(rng, count))


@njit(cache=True)
def progress(s: np.ndarray, seat: int, bonus_weight: float, token_weight: float) -> float:
    """Points, plus ``bonus_weight`` points a card bonus and ``token_weight`` a token (``market.progress``, whose
    ``BONUS_WEIGHT`` and ``TOKEN_WEIGHT`` the search passes in)."""
    total = float(s[m.POINTS + seat])
    for c in range(m.WILD):
        total += bonus_weight * s[m.BONUS + seat * 5 + c]
    for c in range(m.COLOURS):
        total += token_weight * s[m.TOKENS + seat * m.COLOURS + c]
    return total


@njit(cache=True)
def values_into(
    s: np.ndarray,
    out: np.ndarray,
    scale: float,
    bonus_weight: float,
    token_weight: float,
    weights: np.ndarray,
    scratch: np.ndarray,
    shares: bool = False,
) -> None:
    """Each seat's share of the win: the result when the game is over, else from the seats' progress (a logistic
    of its lead, or with ``shares`` its share of everyone's: ``values.win_shares_into``); the progress is the
    learned one (``learning.features``, its features written into ``scratch``) when ``weights`` has its two rows,
    else the hand-made one."""
    players = s[m.PLAYERS]
    if s[m.PHASE] == m.OVER:
        result_into(s[m.WINNERS : m.WINNERS + s[m.WINNERS_N]], players, out)
        return
    estimate = np.empty(players, dtype=np.float64)
    if weights.shape[0] == 2:
        for p in range(players):
            estimate[p] = learned_progress(s, p, weights, scratch)
        win_shares_into(estimate, players, 1.0, shares, out)
        return
    for p in range(players):
        estimate[p] = progress(s, p, bonus_weight, token_weight)
    win_shares_into(estimate, players, scale, shares, out)


def _prior_table() -> np.ndarray:
    """The kinds' prior weights (``priors.kind_priors``, unnormalised) by [game kind, action index]."""
    table = np.ones((len(m.TABLES), m.MAX_ACTIONS), dtype=np.float64)
    for kind, actions in enumerate(m.TABLES):
        for a in actions:
            if a.kind == "take":
                table[kind, a.index] = TAKE3_WEIGHT if len(a.args) == 3 else TAKE_WEIGHT
            else:
                table[kind, a.index] = kind_weight(a.kind)
    return table


PRIORS = _prior_table()
