"""`VectorGames`: N games of one kind stepped together in compiled code, for learners that want plain NumPy
arrays and no framework (the Gymnasium face is `splendor.envs.vector.gymnasium_vector`).

    >>> env = VectorGames("classic", num_envs=4, opponents=("random",))
    >>> obs, info = env.reset(seed=1)
    >>> obs.shape, info["action_mask"].shape
    ((4, 469), (4, 77))
    >>> obs, reward, terminated, truncated, info = env.step(info["action_mask"].argmax(axis=1))
    >>> reward.tolist(), bool(terminated.any())
    ([0.0, 0.0, 0.0, 0.0], False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from splendor.compiled import kids as k
from splendor.compiled import market as m
from splendor.envs.actions import action_count
from splendor.envs.observe import size as observation_size
from splendor.envs.result import check_max_turns
from splendor.envs.vector import kids_loop, market_loop
from splendor.search.policies import OPPONENTS, SELF, kids_routes, policy_code

GAMES = ("classic", "pokemon", "kids")
REWARDS = ("win", "score")


def _whole(value: Any) -> Any:
    """A NumPy integer as a Python int (anything else as it is, for the checks that follow)."""
    return int(value) if isinstance(value, np.integer) else value


def _policy(name: Any, game: str) -> int:
    """An opponent's code: ``random``, ``buyfirst``, ``playout``, ``greedy`` (classic only), or the same as a bot
    spec (``policy:playout``, which the single environments also seat)."""
    if isinstance(name, str) and name.startswith("policy:"):
        name = name.partition(":")[2]
    if name not in OPPONENTS:
        raise ValueError(
            f"an opponent of the vectorised environments is one of {', '.join(OPPONENTS)} (or policy:NAME), played "
            f"in compiled code, not {name!r}; other bots sit in the single environments (vectorization_mode='sync')"
        )
    return policy_code(name, game)


class VectorGames:
    """``num_envs`` games of ``game`` for ``players`` seats, the learner at ``seat`` (an int, or None: drawn anew
    each game) and ``opponents`` at the others in seat order: each ``random``, ``buyfirst``, ``playout`` (the
    default) or, in classic, ``greedy`` (the greedy bot's heuristic) (`splendor.search.policies`), played inside
    compiled code; or ``opponents="self"``: the learner plays
    every seat, and ``info["seat"]`` says whose decision each observation is.

    Every array ``reset`` and ``step`` return is the environment's own buffer, overwritten by the next call: copy
    what you keep. ``step`` takes one action a game (Kids: the compact index of `splendor.envs.actions`). A game
    that ends is dealt anew in the same call (Gymnasium's same-step autoreset): its row of the returned
    observation is then the new game's first, and ``info["final_obs"]`` holds the ended game's last (rows where
    ``terminated | truncated``). Rewards come at the end: +1 for the sole winner, 0 for a shared victory or none,
    -1 for a loss (``reward="score"``: the learner's score minus the best other's). A game capped by
    ``max_turns`` is ``truncated``; a stalled game (ruling 4) is ``terminated`` with no winner. An action that is
    not legal ends its game as a loss (reward -1, ``info["illegal"]``), as the single environment does.

    Kids' action index is 42,198 wide, so ``info`` also lists its legal actions: ``legal_actions[i, :legal_count[i]]``
    (ascending); ``dense_masks=False`` keeps only those lists, which spares writing and reading the wide masks.

    ``info`` holds ``action_mask`` (bool, one row a game), ``final_obs`` and ``_final_obs`` (the rows it holds,
    Gymnasium's convention), ``seat`` (the learner's seat, or in self-play the seat deciding now), ``final_rewards``
    (where a game ended: every seat's result, one row a game, a column a seat: in self-play, what the other seats'
    last moves earned), ``points_gained`` (the mover's points gained by its action; Kids: 1 on reaching the
    Palace), ``illegal`` and ``game_seed`` (the seed ``splendor.new_game`` deals each game from). Where a game
    ended, the new game's ``seat`` and ``game_seed`` are already in those rows: the ended game's are
    ``final_seat`` (whose view ``final_obs`` is, and whose result ``reward`` is) and ``final_game_seed``
    (-1 in the rows where no game ended).
    """

    def __init__(
        self,
        game: str = "classic",
        num_envs: int = 1,
        players: int = 2,
        opponents: Sequence[str] | str | None = None,
        seat: int | None = 0,
        reward: str = "win",
        max_turns: int | None = 200,
        short: bool = False,
        mysteries: bool = False,
        dense_masks: bool = True,
    ) -> None:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
        num_envs, players, seat, max_turns = (_whole(x) for x in (num_envs, players, seat, max_turns))
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs is a whole number of 1 or more, not {num_envs!r}")
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise ValueError(f"a game has 2 to 4 players, not {players!r}")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"the learner's seat is 0 to {players - 1} or None (drawn each game), not {seat!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        check_max_turns(players, max_turns)
        if game != "kids" and (short or mysteries):
            raise ValueError("short and mysteries are Splendor Kids' options")
        self.self_play = opponents == "self"
        if opponents is None:
            opponents = ("playout",) * (players - 1)
        elif isinstance(opponents, str) and not self.self_play:  # one name: every other seat plays it
            opponents = (opponents,) * (players - 1)
        if self.self_play:
            codes = [SELF] * (players - 1)
        else:
            if len(opponents) != players - 1:
                raise ValueError(
                    f"{players} players need {players - 1} opponents (each one of {', '.join(OPPONENTS)}), "
                    f"or 'self', not {opponents!r}"
                )
            codes = [_policy(o, game) for o in opponents]
        self.game, self.num_envs, self.players, self.seat = game, num_envs, players, seat
        self.opponents = "self" if self.self_play else tuple(opponents)
        self.reward_kind, self.max_turns, self.short, self.mysteries = reward, max_turns, short, mysteries
        from splendor.games import new_game

        kids_options = {"short": short, "mysteries": mysteries} if game == "kids" else {}
        self._options = new_game(game, players=players, max_turns=max_turns, **kids_options).options
        self.observation_size = observation_size(game)
        self.num_actions = action_count(game)
        self._codes = np.array(codes + [0], dtype=np.int64)  # never empty, for Numba's typing
        self._kids = game == "kids"
        self._cap = -1 if max_turns is None else max_turns
        self._seat_choice = -1 if seat is None else seat
        n = num_envs
        if self._kids:
            self._states = np.zeros((n, k.STATE_SIZE), dtype=np.int64)
            self._marked = np.zeros((n, k.MAX_LEGAL), dtype=np.int64)
            self._marked_n = np.zeros(n, dtype=np.int64)
            self._blocks = k.shipped_blocks(short)
            self._distance, self._next_road = kids_routes(short)
        else:
            self._states = np.zeros((n, m.SIZE), dtype=np.int64)
            self._kind = m.KINDS[game]
        self.dense_masks = dense_masks or not self._kids
        self._masks = np.zeros((n, self.num_actions if self.dense_masks else 1), dtype=np.bool_)
        self._obs = np.zeros((n, self.observation_size), dtype=np.float32)
        self._final_obs = np.zeros_like(self._obs)
        self._floats = np.zeros((2 + players, n), dtype=np.float32)  # REWARD, GAINED, FINAL_REWARDS + seat
        self._flags = np.zeros((4, n), dtype=np.bool_)  # TERMINATED, TRUNCATED, ILLEGAL, ENDED
        self._ints = np.full((4, n), -1, dtype=np.int64)  # SEATS, GAME_SEEDS, FINAL_SEATS, FINAL_GAME_SEEDS
        self._rngs = np.zeros(n, dtype=np.uint64)
        self._teacher_rng = np.zeros(1, dtype=np.uint64)  # policy_actions' stream
        self._config = np.array(
            [players, self._cap, self._seat_choice, self.self_play, reward == "score", mysteries, short, dense_masks],
            dtype=np.int64,
        )
        self._ready = False
        self._info: dict[str, np.ndarray] = {
            "action_mask": self._masks,
            "final_obs": self._final_obs,
            "final_rewards": self._floats[market_loop.FINAL_REWARDS :].T,
            "_final_obs": self._flags[market_loop.ENDED],
            "seat": self._ints[market_loop.SEATS],
            "points_gained": self._floats[market_loop.GAINED],
            "illegal": self._flags[market_loop.ILLEGAL],
            "game_seed": self._ints[market_loop.GAME_SEEDS],
            "final_seat": self._ints[market_loop.FINAL_SEATS],
            "final_game_seed": self._ints[market_loop.FINAL_GAME_SEEDS],
        }
        if self._kids:
            self._info["legal_actions"], self._info["legal_count"] = self._marked, self._marked_n
            if not self.dense_masks:
                del self._info["action_mask"]
        self._returned = (
            self._obs,
            self._floats[market_loop.REWARD],
            self._flags[market_loop.TERMINATED],
            self._flags[market_loop.TRUNCATED],
            self._info,
        )

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Deal all ``num_envs`` games anew; the same ``seed`` deals the same games and, given the same actions,
        replays them exactly (None: a seed from the operating system)."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**63)  # type: ignore[operator]  # an int here
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"a seed is a whole number of 0 or more, not {seed!r}")
        self._rngs[:] = np.random.SeedSequence(int(seed)).generate_state(self.num_envs, np.uint64)
        self._teacher_rng[:] = np.random.SeedSequence([int(seed), 1]).generate_state(1, np.uint64)
        if self._kids:
            kids_loop.reset_all(
                self._states, self._masks, self._marked, self._marked_n, self._obs, self._ints, self._rngs,
                self._codes, self._config, self._blocks, self._distance, self._next_road,
            )  # fmt: skip
        else:
            market_loop.reset_all(
                self._states, self._masks, self._obs, self._ints, self._rngs, self._codes, self._kind, self._config
            )
        self._final_obs[:] = 0.0
        self._ints[market_loop.FINAL_SEATS :] = -1
        self._floats[:] = 0.0
        self._flags[:] = False
        self._ready = True
        return self._obs, self._info

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Play one action in every game (see the class): observations, rewards, terminated, truncated, info."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        given = actions if isinstance(actions, np.ndarray) and actions.dtype == np.int64 else np.asarray(actions)
        if given.shape != (self.num_envs,) or given.dtype.kind not in "iu":
            raise ValueError(f"give one whole-number action for each of the {self.num_envs} games, as an array")
        if given.dtype != np.int64:  # out of int64's range: refused as illegal by the loop
            given = np.clip(given, -1, self.num_actions).astype(np.int64)
        if self._kids:
            kids_loop.step_all(
                self._states, given, self._masks, self._marked, self._marked_n, self._obs, self._final_obs,
                self._floats, self._flags, self._ints, self._rngs, self._codes, self._config, self._blocks,
                self._distance, self._next_road,
            )  # fmt: skip
        else:
            market_loop.step_all(
                self._states, given, self._masks, self._obs, self._final_obs, self._floats, self._flags,
                self._ints, self._rngs, self._codes, self._config,
            )  # fmt: skip
        return self._returned

    def action_masks(self) -> np.ndarray:
        """The legal actions of the observations last returned, one row a game (the buffer ``info`` holds; Kids
        without dense masks: built from the lists, a new array)."""
        if self.dense_masks:
            return self._masks
        masks = np.zeros((self.num_envs, self.num_actions), dtype=np.bool_)
        for i in range(self.num_envs):
            masks[i, self._marked[i, : self._marked_n[i]]] = True
        return masks

    def policy_actions(self, policy: str = "greedy") -> np.ndarray:
        """The action each game's decision now would get from one of the compiled opponents' policies (`OPPONENTS`:
        ``greedy`` plays as the greedy bot), one a game, e.g. as a teacher's labels to imitate before learning by
        reward. Its random choices come from a stream of their own (seeded by ``reset``), so asking does not
        change the games. The card-market games only: Kids' policies play its own index, not the compact one."""
        if self._kids:
            raise ValueError("policy_actions is for the card-market games: Kids' policies play its own index")
        if not self._ready:
            raise RuntimeError("call reset() before policy_actions()")
        out = np.empty(self.num_envs, dtype=np.int64)
        market_loop.policy_actions(self._states, self._masks, _policy(policy, self.game), self._teacher_rng, out)
        return out

    def state(self, i: int) -> np.ndarray:
        """Game ``i``'s compiled state (a copy): ``splendor.compiled.CompiledGame`` and ``to_reference`` read it."""
        return self._states[i].copy()

    def reference_game(self, i: int) -> Any:
        """Game ``i`` now as a reference game (`splendor.core.game.Game`), hidden parts included: for checking
        and for showing a game (its history is not kept)."""
        from splendor.compiled.game import CompiledGame

        fast = CompiledGame(
            self.game, self.players, int(self._ints[market_loop.GAME_SEEDS, i]), dict(self._options), self.state(i), []
        )
        return fast.to_reference()
