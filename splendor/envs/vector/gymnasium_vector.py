"""The vectorised environments as a Gymnasium ``VectorEnv``: ``gymnasium.make_vec("splendor/Classic-v0",
num_envs=N, vectorization_mode="vector_entry_point", opponents=["playout"])`` (and ``splendor/Pokemon-v0``,
``splendor/Kids-v0``) once ``splendor.envs`` is imported; the settings are `VectorGames`'.

It autoresets in the same step (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``), as Gymnasium's own
vector environments do in that mode: a game that ends is dealt anew at once, its last observation in
``info["final_obs"]`` (the rows ``info["_final_obs"]`` marks). The masks are ``info["action_mask"]`` and
``action_masks()``. `CompiledSplendorEnv` is one such game as a plain Gymnasium ``Env``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from splendor.envs.actions import whole_action
from splendor.envs.vector.games import VectorGames


class SplendorVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of ``game`` stepped in compiled code (`VectorGames`, whose settings it takes). Unlike
    `VectorGames`, it hands back copies (``copy=True``, Gymnasium's default), so a learner may keep them."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012  # Gymnasium's VectorEnv declares it so

    def __init__(self, num_envs: int = 1, game: str = "classic", copy: bool = True, **settings: Any) -> None:
        self.games = VectorGames(game, num_envs=num_envs, **settings)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(self.games.observation_size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.games.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self.closed = False

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every game anew (one seed for all of them: a list is not taken, the games' streams come from it)."""
        if isinstance(seed, list):
            raise ValueError("give one seed: each game's stream is drawn from it")
        obs, info = self.games.reset(seed=seed)
        return self._out(obs), self._info(info)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.games.step(np.asarray(actions))
        return self._out(obs), self._out(reward), self._out(terminated), self._out(truncated), self._info(info)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the observations last returned (sb3-contrib's name for them)."""
        return self._out(self.games.action_masks())

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _info(self, info: dict[str, np.ndarray]) -> dict[str, Any]:
        return {key: self._out(value) for key, value in info.items()}


class CompiledSplendorEnv(gymnasium.Env[np.ndarray, int]):
    """One game at the compiled engine's speed as a plain Gymnasium ``Env`` (``gymnasium.make(
    "splendor/ClassicCompiled-v0")``, ``PokemonCompiled``, ``KidsCompiled``): `VectorGames` with one game, the
    episode ending as Gymnasium's single environments do (``reset()`` starts the next one). It takes
    `VectorGames`' settings; its opponents are the compiled ones, where ``splendor/Classic-v0`` seats any bot."""

    metadata = {"render_modes": []}  # noqa: RUF012  # Gymnasium's Env declares it so

    def __init__(self, game: str = "classic", **settings: Any) -> None:
        self.games = VectorGames(game, num_envs=1, **settings)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self.games.observation_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.games.num_actions)  # type: ignore[assignment]  # NumPy ints
        self._action = np.zeros(1, dtype=np.int64)
        self._ended = True
        self._started = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or not self._started or not self._ended:
            # the stream of games comes from the seed; without one, from the environment's own generator (a game
            # that ended has its successor dealt already; one left unfinished is dealt anew)
            self.games.reset(seed=seed if seed is not None else int(self.np_random.integers(0, 2**62)))
            self._started = True
        self._ended = False
        return self._seen()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise RuntimeError("the episode has ended: call reset() to start the next one")
        number = whole_action(action)
        self._action[0] = number if number is not None and 0 <= number < self.games.num_actions else -1
        obs, reward, terminated, truncated, info = self.games.step(self._action)
        done = bool(terminated[0] or truncated[0])
        self._ended = done
        seen = (info["final_obs"] if done else obs)[0].copy()
        out = {
            "action_mask": self.games.action_masks()[0].copy() if not done else np.zeros(self.games.num_actions, bool),
            "seat": int(info["final_seat" if done else "seat"][0]),
            "points_gained": float(info["points_gained"][0]),
        }
        if info["illegal"][0]:
            out["illegal"] = (
                f"action {number} is not legal now"
                if self._action[0] >= 0
                else f"an action is an integer from 0 to {self.games.num_actions - 1}, not {action!r}"
            )
        return seen, float(reward[0]), bool(terminated[0]), bool(truncated[0]), out

    def action_masks(self) -> np.ndarray:
        """The legal actions now (none once the episode has ended), as sb3-contrib's MaskablePPO asks."""
        if self._ended:
            return np.zeros(self.games.num_actions, dtype=bool)
        return self.games.action_masks()[0].copy()

    def _seen(self) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.games._returned[0], self.games._info
        return obs[0].copy(), {"action_mask": self.games.action_masks()[0].copy(), "seat": int(info["seat"][0])}
