"""The vectorised environment's loop for Splendor Kids, in compiled code: as ``market_loop`` does for the card
games, with Kids' own shape: the learner plays the compact action index (``splendor.compiled.kids.compact``,
42,198 actions), listed ascending in ``marked[i]`` (``marked_n[i]`` of them) and marked in the dense ``masks[i]``
when it is kept, by marking and unmarking the legal entries only; and a seat other than the one whose turn it is
may decide (a return after the Kind-Hearted Thief), so the opponents play until the learner itself decides."""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled import kids as k
from splendor.compiled.kids.compact import compact_legal_into, own_index
from splendor.compiled.kids.observe import observe_into
from splendor.compiled.rng import below, next64
from splendor.envs.vector.market_loop import (
    ENDED,
    FINAL_GAME_SEEDS,
    FINAL_REWARDS,
    FINAL_SEATS,
    GAINED,
    GAME_SEEDS,
    ILLEGAL,
    MAX_TURNS_C,
    PLAYERS_C,
    REWARD,
    SCORE_C,
    SEAT_CHOICE_C,
    SEATS,
    SELF_PLAY_C,
    TERMINATED,
    TRUNCATED,
    outcome,
)
from splendor.games.kids.notation import RESOURCE_COUNT
from splendor.search.policies import PLAYOUT, kids_action, kids_board_row

MYSTERIES_C, SHORT_C, DENSE_C = SCORE_C + 1, SCORE_C + 2, SCORE_C + 3
"""Kids' own entries of the packed ``config``."""


@njit(cache=True)
def _in_palace(s: np.ndarray, seat: int) -> int:
    return 1 if s[k.SPACE + seat] == s[k.PALACE_AT] else 0


@njit(cache=True)
def _final_reward(s: np.ndarray, seat: int, score: bool) -> float:
    if score:
        best = -1
        for p in range(s[k.PLAYERS]):
            if p != seat and _in_palace(s, p) > best:
                best = _in_palace(s, p)
        return float(_in_palace(s, seat) - best)
    return outcome(s[k.WINNERS_N], s[k.WINNERS :], seat)


@njit(cache=True)
def _room() -> np.ndarray:
    """Scratch space of the playout policy: what the next road needs (5), then a payment (12)."""
    return np.zeros(RESOURCE_COUNT + 12, dtype=np.int64)


@njit(cache=True)
def _play_opponents(
    s: np.ndarray,
    learner: int,
    codes: np.ndarray,
    legal: np.ndarray,
    rng: np.ndarray,
    distance: np.ndarray,
    next_road: np.ndarray,
    room: np.ndarray,
) -> None:
    """The other seats play until the learner decides or the game ends (``legal`` and ``room``: scratch space)."""
    need, pay = room[:RESOURCE_COUNT], room[RESOURCE_COUNT:]
    while k.phase(s) != k.OVER:
        seat = k.current_player(s)
        if seat == learner:
            return
        count = k.legal_into(s, legal)
        code = codes[seat - 1 if seat > learner else seat]
        row = kids_board_row(s) if code == PLAYOUT else 0
        k.step(s, kids_action(s, legal, count, rng, code, distance[row], next_road[row], need, pay))


@njit(cache=True)
def _new_game(
    states: np.ndarray,
    i: int,
    config: np.ndarray,
    blocks: np.ndarray,
    codes: np.ndarray,
    ints: np.ndarray,
    rngs: np.ndarray,
    legal: np.ndarray,
    distance: np.ndarray,
    next_road: np.ndarray,
) -> None:
    """Deal game ``i`` anew from its stream (its board drawn by the seed), draw the learner's seat, and play the
    opponents before it."""
    rng = rngs[i : i + 1]
    players, seat_choice = config[PLAYERS_C], config[SEAT_CHOICE_C]
    mysteries, short = config[MYSTERIES_C] != 0, config[SHORT_C] != 0
    seed = int(next64(rng) >> np.uint64(1))
    states[i, :] = k.setup(players, seed, 0, config[MAX_TURNS_C], mysteries, short, blocks, True)
    ints[GAME_SEEDS, i] = seed
    ints[SEATS, i] = below(rng, players) if seat_choice < 0 else seat_choice
    if config[SELF_PLAY_C] != 0:
        ints[SEATS, i] = k.current_player(states[i])
    else:
        _play_opponents(states[i], ints[SEATS, i], codes, legal, rng, distance, next_road, _room())


@njit(cache=True)
def _mark(s: np.ndarray, mask: np.ndarray, marked: np.ndarray, marked_n: np.ndarray, i: int, dense: bool) -> None:
    """``marked`` := the compact legal actions of ``s``, ascending; with ``dense``, ``mask`` marks them too,
    touching only the entries that change (a row is 42,198 entries; a game has a few dozen legal actions)."""
    if dense:
        for j in range(marked_n[i]):
            mask[marked[j]] = False
    n = compact_legal_into(s, marked)
    if dense:
        for j in range(n):
            mask[marked[j]] = True
    marked_n[i] = n


@njit(cache=True)
def _is_marked(marked: np.ndarray, n: int, a: int) -> bool:
    """Whether ``a`` is among ``marked[:n]`` (ascending): a binary search."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        if marked[mid] < a:
            lo = mid + 1
        else:
            hi = mid
    return lo < n and marked[lo] == a


@njit(cache=True)
def reset_all(
    states: np.ndarray,
    masks: np.ndarray,
    marked: np.ndarray,
    marked_n: np.ndarray,
    obs: np.ndarray,
    ints: np.ndarray,
    rngs: np.ndarray,
    codes: np.ndarray,
    config: np.ndarray,
    blocks: np.ndarray,
    distance: np.ndarray,
    next_road: np.ndarray,
) -> None:
    """Deal every game anew from its stream (``rngs``, set by the caller from the seed)."""
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    dense = config[DENSE_C] != 0
    for i in range(states.shape[0]):
        _new_game(states, i, config, blocks, codes, ints, rngs, legal, distance, next_road)
        _mark(states[i], masks[i], marked[i], marked_n, i, dense)
        observe_into(states[i], ints[SEATS, i], obs[i])


@njit(cache=True)
def step_all(
    states: np.ndarray,
    actions: np.ndarray,
    masks: np.ndarray,
    marked: np.ndarray,
    marked_n: np.ndarray,
    obs: np.ndarray,
    final_obs: np.ndarray,
    floats: np.ndarray,
    flags: np.ndarray,
    ints: np.ndarray,
    rngs: np.ndarray,
    codes: np.ndarray,
    config: np.ndarray,
    blocks: np.ndarray,
    distance: np.ndarray,
    next_road: np.ndarray,
) -> None:
    """As ``market_loop.step_all`` (the same packed arrays; ``config`` adds Kids' ``mysteries``, ``short`` and
    whether ``masks`` is kept, else only the lists ``marked`` and ``marked_n``): the
    learner's compact action ``actions[i]`` in game ``i``, the opponents, a game that ends dealt anew at once,
    the next mask and observation."""
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    room = _room()
    players, self_play, score = config[PLAYERS_C], config[SELF_PLAY_C] != 0, config[SCORE_C] != 0
    dense = config[DENSE_C] != 0
    seats = ints[SEATS]
    for i in range(states.shape[0]):
        s = states[i]
        a = actions[i]
        floats[REWARD, i], floats[GAINED, i] = 0.0, 0.0
        for p in range(players):
            floats[FINAL_REWARDS + p, i] = 0.0
        flags[TERMINATED, i], flags[TRUNCATED, i], flags[ILLEGAL, i] = False, False, False
        mover = seats[i]
        ended = False
        if not _is_marked(marked[i], marked_n[i], a):
            flags[ILLEGAL, i], flags[TERMINATED, i], ended = True, True, True
            floats[REWARD, i] = -1.0
            floats[FINAL_REWARDS + mover, i] = -1.0
            final_obs[i, :] = obs[i, :]
        else:
            before = _in_palace(s, mover)
            k.step(s, own_index(s, a))
            floats[GAINED, i] = _in_palace(s, mover) - before
            if not self_play:
                _play_opponents(s, mover, codes, legal, rngs[i : i + 1], distance, next_road, room)
            if k.phase(s) == k.OVER:
                ended = True
                floats[REWARD, i] = _final_reward(s, mover, score)
                for p in range(players):
                    floats[FINAL_REWARDS + p, i] = _final_reward(s, p, score)
                flags[TRUNCATED, i] = s[k.CAPPED] != 0
                flags[TERMINATED, i] = s[k.CAPPED] == 0
                observe_into(s, mover, final_obs[i])
            elif self_play:
                seats[i] = k.current_player(s)
        flags[ENDED, i] = ended
        ints[FINAL_SEATS, i], ints[FINAL_GAME_SEEDS, i] = (mover, ints[GAME_SEEDS, i]) if ended else (-1, -1)
        if ended:
            _new_game(states, i, config, blocks, codes, ints, rngs, legal, distance, next_road)
        _mark(s, masks[i], marked[i], marked_n, i, dense)
        observe_into(s, seats[i], obs[i])
