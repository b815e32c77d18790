"""The vectorised environment's loop for classic Splendor and Splendor: Pokémon, in compiled code: one call steps
every game: the learner's action, the opponents' turns, the end of a game (its reward, its last observation kept,
a new game dealt at once) and the learner's next mask and observation.

The arrays are the environment's (`splendor.envs.vector.games.VectorGames`): one row a game. ``seats[i]`` is the
learner's seat in game ``i`` (in self-play, the seat deciding now); ``codes`` the opponents' policies by their
place among the other seats (`splendor.search.policies`); ``rngs[i]`` game ``i``'s own SplitMix64 stream,
which deals its games and plays its opponents, so a seed replays every game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from splendor.compiled import market as m
from splendor.compiled.market.observe import observe_into
from splendor.compiled.rng import below, next64
from splendor.search.policies import market_action

MAX_ACTIONS = m.MAX_ACTIONS


@njit(cache=True)
def outcome(winners_n: int, winners: np.ndarray, seat: int) -> float:
    """+1 for the sole winner, 0 for a shared victory or none (stalled, capped), -1 for a seat that lost."""
    if winners_n == 0:
        return 0.0
    for w in range(winners_n):
        if winners[w] == seat:
            return 1.0 if winners_n == 1 else 0.0
    return -1.0


@njit(cache=True)
def _final_reward(s: np.ndarray, seat: int, score: bool) -> float:
    if score:
        best = -1
        for p in range(s[m.PLAYERS]):
            if p != seat and s[m.POINTS + p] > best:
                best = s[m.POINTS + p]
        return float(s[m.POINTS + seat] - best)
    return outcome(s[m.WINNERS_N], s[m.WINNERS :], seat)


@njit(cache=True)
def _play_opponents(
    s: np.ndarray,
    learner: int,
    codes: np.ndarray,
    mask: np.ndarray,
    scratch: np.ndarray,
    rng: np.ndarray,
    want: np.ndarray,
) -> None:
    """The other seats play until the learner decides or the game ends (``mask``, ``scratch``, ``want``: room)."""
    while s[m.PHASE] != m.OVER and s[m.SEAT] != learner:
        seat = s[m.SEAT]
        count = m.legal_mask_into(s, mask)
        code = codes[seat - 1 if seat > learner else seat]
        m.step(s, market_action(s, mask, count, rng, code, want), scratch)


# The per-game outputs a step writes, packed by kind so that a call passes few arrays (each array costs the call
# its unboxing, which is most of what one game's step costs): ``floats`` rows, ``flags`` rows, ``ints`` rows and
# the ``config`` entries.
REWARD, GAINED, FINAL_REWARDS = range(3)  # FINAL_REWARDS + seat: each seat's result where a game ended
TERMINATED, TRUNCATED, ILLEGAL, ENDED = range(4)
SEATS, GAME_SEEDS, FINAL_SEATS, FINAL_GAME_SEEDS = range(4)  # FINAL_: the ended game's, -1 where none ended
PLAYERS_C, MAX_TURNS_C, SEAT_CHOICE_C, SELF_PLAY_C, SCORE_C = range(5)


@njit(cache=True)
def _new_game(
    states: np.ndarray,
    i: int,
    kind: int,
    config: np.ndarray,
    codes: np.ndarray,
    ints: np.ndarray,
    rngs: np.ndarray,
    mask: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """Deal game ``i`` anew from its stream, draw the learner's seat, and play the opponents before it."""
    rng = rngs[i : i + 1]
    players, seat_choice = config[PLAYERS_C], config[SEAT_CHOICE_C]
    seed = int(next64(rng) >> np.uint64(1))
    states[i, :] = m.setup(kind, players, seed, 0, config[MAX_TURNS_C])
    ints[GAME_SEEDS, i] = seed
    ints[SEATS, i] = below(rng, players) if seat_choice < 0 else seat_choice
    if config[SELF_PLAY_C] != 0:
        ints[SEATS, i] = states[i, m.SEAT]
    else:
        _play_opponents(states[i], ints[SEATS, i], codes, mask, scratch, rng, np.empty(m.COLOURS, dtype=np.float64))


@njit(cache=True)
def reset_all(
    states: np.ndarray,
    masks: np.ndarray,
    obs: np.ndarray,
    ints: np.ndarray,
    rngs: np.ndarray,
    codes: np.ndarray,
    kind: int,
    config: np.ndarray,
) -> None:
    """Deal every game anew from its stream (``rngs``, set by the caller from the seed)."""
    scratch = np.zeros(MAX_ACTIONS, dtype=np.bool_)
    for i in range(states.shape[0]):
        _new_game(states, i, kind, config, codes, ints, rngs, masks[i], scratch)
        m.legal_mask_into(states[i], masks[i])
        observe_into(states[i], ints[SEATS, i], obs[i])


@njit(cache=True)
def step_all(
    states: np.ndarray,
    actions: np.ndarray,
    masks: np.ndarray,
    obs: np.ndarray,
    final_obs: np.ndarray,
    floats: np.ndarray,
    flags: np.ndarray,
    ints: np.ndarray,
    rngs: np.ndarray,
    codes: np.ndarray,
    config: np.ndarray,
) -> None:
    """Play ``actions[i]`` for the learner in game ``i`` and everything up to its next decision; a game that ends
    is dealt anew at once (its last observation in ``final_obs[i]``). An action that is not legal ends its game as
    a loss (reward -1, the ``ILLEGAL`` flag), the state untouched, as the single environment does."""
    scratch = np.zeros(MAX_ACTIONS, dtype=np.bool_)
    want = np.empty(m.COLOURS, dtype=np.float64)
    players, self_play, score = config[PLAYERS_C], config[SELF_PLAY_C] != 0, config[SCORE_C] != 0
    seats = ints[SEATS]
    for i in range(states.shape[0]):
        s = states[i]
        kind = s[m.KIND]
        a = actions[i]
        floats[REWARD, i], floats[GAINED, i] = 0.0, 0.0
        for p in range(players):
            floats[FINAL_REWARDS + p, i] = 0.0
        flags[TERMINATED, i], flags[TRUNCATED, i], flags[ILLEGAL, i] = False, False, False
        mover = seats[i]
        ended = False
        if a < 0 or a >= m.ACTION_COUNT[kind] or not masks[i, a]:
            flags[ILLEGAL, i], flags[TERMINATED, i], ended = True, True, True
            floats[REWARD, i] = -1.0
            floats[FINAL_REWARDS + mover, i] = -1.0
            final_obs[i, :] = obs[i, :]
        else:
            before = s[m.POINTS + mover]
            m.step(s, a, scratch)
            floats[GAINED, i] = s[m.POINTS + mover] - before
            if not self_play:
                _play_opponents(s, mover, codes, masks[i], scratch, rngs[i : i + 1], want)
            if s[m.PHASE] == m.OVER:
                ended = True
                floats[REWARD, i] = _final_reward(s, mover, score)
                for p in range(players):
                    floats[FINAL_REWARDS + p, i] = _final_reward(s, p, score)
                flags[TRUNCATED, i] = s[m.CAPPED] != 0
                flags[TERMINATED, i] = s[m.CAPPED] == 0
                observe_into(s, mover, final_obs[i])
            elif self_play:
                seats[i] = s[m.SEAT]
        flags[ENDED, i] = ended
        ints[FINAL_SEATS, i], ints[FINAL_GAME_SEEDS, i] = (mover, ints[GAME_SEEDS, i]) if ended else (-1, -1)
        if ended:
            _new_game(states, i, kind, config, codes, ints, rngs, masks[i], scratch)
        m.legal_mask_into(s, masks[i])
        observe_into(s, seats[i], obs[i])


@njit(cache=True)
def policy_actions(states: np.ndarray, masks: np.ndarray, code: int, rng: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` := the action policy ``code`` would play at game ``i``'s decision now (drawing from ``rng``, a
    stream of its own, so that the games' deals are not disturbed)."""
    want = np.empty(m.COLOURS, dtype=np.float64)
    for i in range(states.shape[0]):
        count = 0
        for a in range(m.ACTION_COUNT[states[i, m.KIND]]):
            if masks[i, a]:
                count += 1
        out[i] = market_action(states[i], masks[i], count, rng, code, want)
