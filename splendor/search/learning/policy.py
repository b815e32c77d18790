"""A learned policy for classic and Pokémon, in compiled code: the priors the expert's PUCT explores by.

The search's priors were set by hand from each action's kind alone (``splendor.search.priors``: buying weighs 4,
reserving 0.6). That cannot tell a winning buy from a useless one, nor a take that brings the next card
within reach from one that will have to be given back. This policy scores each legal action by what it does
(``ACTION_FEATURES``, computed from the state before the action, without playing it) and the prior of an
action is ``exp(w · features)``:

    prior(a) ∝ exp(Σ_i w_i · feature_i(state, a))

The first feature is the log of the hand-made kind prior, so the weights (1, 0, 0, …) are exactly the old
priors; the rest are fitted by expert iteration: the search plays itself, and the weights are those whose
softmax comes nearest the share of the search's visits each root action received (``fit_policy``, a
multinomial logistic regression). They ship as JSON beside this module (``weights/<game>_policy.json``).

    >>> ACTION_FEATURES[:3]
    ('kind_prior', 'buy', 'buy_points')
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from splendor.compiled import market as m
from splendor.games.market import TOKEN_LIMIT
from splendor.search.learning.features import stage
from splendor.search.market_compiled import PRIORS, card_of_buy, wanted_colours

ACTION_FEATURES = (
    "kind_prior",
    "buy",
    "buy_points",
    "buy_wins",
    "buy_wanted",
    "buy_goals",
    "buy_cost",
    "buy_wild",
    "buy_tier",
    "buy_reserved",
    "buy_points_late",
    "take_wanted",
    "take_overflow",
    "take_count",
    "take_two",
    "reserve",
    "reserve_points",
    "reserve_wild",
    "reserve_denies",
    "reserve_near",
    "reserve_deck",
    "return",
    "return_wanted",
)
"""What the policy sees of an action of the seat to move, in this order:

- ``kind_prior``: the log of the hand-made prior of its kind (``priors.KIND_WEIGHT``);
- a buy (from the display or its reserve): ``buy`` 1; ``buy_points``, the card's points / 3; ``buy_wins``, 1
  when its points reach the points that win; ``buy_wanted``, how much the seat's nearest good cards want its
  bonus's colour (a share of all it wants); ``buy_goals``, what the bonus brings the seat's goals (classic: the
  nobles on display that still lack that colour, by their points over one plus what they lack; Pokémon: its
  Pokémon whose evolution still lacks that colour); ``buy_cost``, the tokens it pays / 5; ``buy_wild``, the gold
  or master balls among them / 2; ``buy_tier``, its tier from 0 (first) to 1 (last); ``buy_reserved``, 1 for a
  card from the reserve; ``buy_points_late``, its points / 3 times the stage of the game (``features.stage``);
- a take: ``take_wanted``, the share of what the seat wants among the colours taken (twice its colour's for two
  of one colour, as the playout scores it); ``take_overflow``, the
  tokens it will have to give back (over ten) / 3; ``take_count``, the tokens taken / 3; ``take_two``, 1 for
  two of one colour;
- a reserve: ``reserve`` 1; ``reserve_points``, the card's points / 3 (0 from a deck); ``reserve_wild``, 1 when
  a gold or master ball comes with it and does not have to be given back; ``reserve_denies``, 1 when another
  seat could buy the card now; ``reserve_near``, the card's points plus one over one plus what the seat lacks to
  buy it; ``reserve_deck``, 1 for the top of a deck;
- giving a token back: ``return`` 1; ``return_wanted``, the share of what the seat wants of that colour (1 for
  the wild one).

A noble's or an evolution's choice has only its ``kind_prior``.
"""

ACTION_FEATURE_COUNT = len(ACTION_FEATURES)

HAND_MADE = np.zeros(ACTION_FEATURE_COUNT, dtype=np.float64)
HAND_MADE[0] = 1.0
"""The weights that give exactly the hand-made priors of the kinds."""

NO_POLICY = np.zeros(0, dtype=np.float64)
"""No learned policy: the search explores by the hand-made priors of the kinds."""

LOG_PRIORS = np.log(PRIORS)
"""The ``kind_prior`` feature of every action, by [game kind, action index]."""

LOGIT_BOUND = 30.0
"""The bound on an action's score before ``exp`` (a prior's ratio to another's stays finite)."""


@njit(cache=True)
def wanted_shares(s: np.ndarray, share: np.ndarray) -> None:
    """``share`` := how much the seat to move wants each plain colour, as a share of all it wants (the playout's
    ``market_compiled.wanted_colours``: the shortfalls of its two nearest good cards); the wild colour's is 1."""
    wanted_colours(s, share)
    total = 0.0
    for c in range(m.WILD):
        total += share[c]
    for c in range(m.WILD):
        share[c] = share[c] / total if total > 0.0 else 0.0
    share[m.WILD] = 1.0


@njit(cache=True)
def _card_of_reserve(s: np.ndarray, a: int) -> int:
    """The display card a reserve action takes (-1 for the top of a deck)."""
    offset = a - m.RESERVE
    if offset % 5 == 4:
        return -1
    cid: int = s[m.ROWS + (offset // 5) * m.SLOTS + offset % 5]
    return cid


@njit(cache=True)
def _lack(s: np.ndarray, seat: int, cid: int) -> int:
    """What ``seat`` still lacks to buy card ``cid`` with its bonuses, tokens and wild tokens."""
    kind = s[m.KIND]
    short = m.CARD_COST[kind, cid, m.WILD]
    for c in range(m.WILD):
        d = m.CARD_COST[kind, cid, c] - s[m.BONUS + seat * 5 + c] - s[m.TOKENS + seat * m.COLOURS + c]
        if d > 0:
            short += d
    lacking: int = max(0, short - s[m.TOKENS + seat * m.COLOURS + m.WILD])
    return lacking


@njit(cache=True)
def _goals(s: np.ndarray, seat: int, colour: int) -> float:
    """What one more bonus of ``colour`` brings ``seat``'s goals (the ``buy_goals`` feature)."""
    kind = s[m.KIND]
    total = 0.0
    if kind == m.POKEMON:
        for i in range(s[m.BOUGHT_N + seat]):
            src = s[m.BOUGHT + seat * m.CARD_ROOM + i]
            if (
                m.EVOLVES_TO[src] >= 0
                and m.EVOLVE_BONUS[src] == colour
                and s[m.BONUS + seat * 5 + colour] < m.EVOLVE_COUNT[src]
            ):
                total += 1.0
        return total
    for i in range(s[m.NOBLES_N]):
        noble = s[m.NOBLES_AT + i]
        if m.NOBLE_REQUIRES[noble, colour] <= s[m.BONUS + seat * 5 + colour]:
            continue
        lack = 0
        for c in range(m.WILD):
            d = m.NOBLE_REQUIRES[noble, c] - s[m.BONUS + seat * 5 + c]
            if d > 0:
                lack += d
        total += m.NOBLE_POINTS[noble] / (1.0 + lack)
    return total


@njit(cache=True)
def action_features_into(s: np.ndarray, a: int, share: np.ndarray, progress: float, out: np.ndarray) -> None:
    """``out`` := the features of legal action ``a`` of the seat to move in ``s`` (``ACTION_FEATURES``);
    ``share`` holds `wanted_shares` of ``s`` and ``progress`` its ``features.stage``."""
    kind = s[m.KIND]
    seat = s[m.SEAT]
    out[:] = 0.0
    out[0] = LOG_PRIORS[kind, a]
    phase = s[m.PHASE]
    if phase == m.RETURN_PHASE:
        c = a - m.RETURN[kind]
        if c < m.COLOURS:
            out[21] = 1.0
            out[22] = share[c]
        return
    if phase != m.MAIN:
        return
    held = 0
    for c in range(m.COLOURS):
        held += s[m.TOKENS + seat * m.COLOURS + c]
    if a < m.RESERVE:  # a take
        taken = 0
        wanted = 0.0
        for k in range(3):
            c = m.TAKE_COLOURS[a, k]
            if c >= 0:
                wanted += share[c]
                taken += 1
        if a >= m.TAKE2:  # two of one colour (``TAKE_COLOURS`` lists the colours of the other takes)
            taken = 2
            wanted = 2.0 * share[a - m.TAKE2]
        out[11] = wanted
        out[12] = max(0, held + taken - TOKEN_LIMIT) / 3.0
        out[13] = taken / 3.0
        out[14] = 1.0 if a >= m.TAKE2 else 0.0
        return
    if a < m.BUY:  # a reserve
        out[15] = 1.0
        if s[m.SUPPLY + m.WILD] > 0 and held < TOKEN_LIMIT:
            out[17] = 1.0
        cid = _card_of_reserve(s, a)
        if cid < 0:
            out[20] = 1.0
            return
        points = m.CARD_POINTS[kind, cid]
        out[16] = points / 3.0
        for p in range(s[m.PLAYERS]):
            if p != seat and _lack(s, p, cid) == 0:
                out[18] = 1.0
        out[19] = (points + 1.0) / (1.0 + _lack(s, seat, cid))
        return
    if a < m.RETURN[kind]:  # a buy, from the display or the reserve
        cid = card_of_buy(s, a)
        points = m.CARD_POINTS[kind, cid]
        out[1] = 1.0
        out[2] = points / 3.0
        out[3] = 1.0 if s[m.POINTS + seat] + points >= m.WIN_POINTS[kind] else 0.0
        if m.CARD_BONUS_COUNT[kind, cid] > 0:
            colour = m.CARD_BONUS[kind, cid]
            out[4] = share[colour] * m.CARD_BONUS_COUNT[kind, cid]
            out[5] = _goals(s, seat, colour) / 3.0
        paid, wild = m.CARD_COST[kind, cid, m.WILD], m.CARD_COST[kind, cid, m.WILD]
        for c in range(m.WILD):
            d = m.CARD_COST[kind, cid, c] - s[m.BONUS + seat * 5 + c]
            if d > 0:
                paid += d
                wild += max(0, d - s[m.TOKENS + seat * m.COLOURS + c])
        out[6] = paid / 5.0
        out[7] = wild / 2.0
        out[8] = m.CARD_ROW[kind, cid] / max(1, m.ROW_COUNT[kind] - 1)
        out[9] = 1.0 if a >= m.BUY_RESERVED[kind] else 0.0
        out[10] = points / 3.0 * progress


@njit(cache=True)
def learned_priors_into(
    s: np.ndarray,
    legal: np.ndarray,
    count: int,
    policy: np.ndarray,
    share: np.ndarray,
    features: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[i]`` := the learned prior (unnormalised) of ``legal[i]``, for the first ``count`` legal actions of
    the seat to move in ``s`` (``share`` and ``features`` are scratch space)."""
    wanted_shares(s, share)
    t = stage(s)
    for i in range(count):
        action_features_into(s, legal[i], share, t, features)
        logit = 0.0
        for f in range(ACTION_FEATURE_COUNT):
            logit += policy[f] * features[f]
        out[i] = math.exp(min(LOGIT_BOUND, max(-LOGIT_BOUND, logit)))


def legal_features(s: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The features of each of the ``legal`` actions of the seat to move in ``s``, one row an action (for
    training: the compiled search computes them one at a time)."""
    share = np.zeros(m.COLOURS, dtype=np.float64)
    wanted_shares(s, share)
    t = float(stage(s))
    rows = np.zeros((len(legal), ACTION_FEATURE_COUNT), dtype=np.float64)
    for i, a in enumerate(legal):
        action_features_into(s, int(a), share, t, rows[i])
    return rows
