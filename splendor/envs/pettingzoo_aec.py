"""Splendor as a PettingZoo AEC environment: every seat an agent (``player_0`` … ``player_3``).

``splendor.envs.pettingzoo_env("classic", players=3)``, as PettingZoo's classic games are made: the observation
of an agent is ``{"observation": its view as a float32 vector, "action_mask": int8}`` (the mask is all zeros when
it is not that agent's decision); actions are the integers of `splendor.envs.actions.ActionIndex`. The agent to
act is the game's ``current_player``, who may act several times in a row (returning tokens, choosing a noble,
evolving). At the end each agent's reward is +1 for a sole winner, 0 for a shared victory or a game with no
winner, -1 for the others; a game that reaches ``max_turns`` is truncated for every agent. An illegal action ends
the game with -1 for the agent that played it (PettingZoo's ``TerminateIllegalWrapper``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from splendor.core.game import Game
from splendor.envs.actions import ActionIndex
from splendor.envs.observe import observe, size
from splendor.envs.result import check_max_turns, outcome, player_count
from splendor.envs.text import table_text
from splendor.games import GAMES, new_game


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class SplendorAEC(AECEnv):
    """The raw environment (no wrappers); `pettingzoo_env` gives the wrapped one."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "splendor_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str = "classic",
        players: int = 2,
        max_turns: int | None = 200,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; the games are {', '.join(sorted(GAMES))}")
        players = player_count(players)
        check_max_turns(players, max_turns)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.game_name, self.players, self.max_turns, self.options = game, players, max_turns, options
        self.render_mode = render_mode
        self.game: Game = new_game(game, players=players, seed=0, max_turns=max_turns, **options)
        self.index = ActionIndex(self.game)
        self.possible_agents = [agent_name(s) for s in range(players)]
        self.agents = self.possible_agents[:]
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(size(game),), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.index.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {a: spaces.Discrete(self.index.size) for a in self.possible_agents}
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.index.size, dtype=np.int8)
        if not self.game.is_over and self.game.current_player == seat:
            mask[self.index.mask(self.game)] = 1
        return {"observation": observe(self.game.view(seat)), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, 2**31 - 1))
        self.game = new_game(
            self.game_name, players=self.players, seed=game_seed, max_turns=self.max_turns, **self.options
        )
        self.index = ActionIndex(self.game)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        assert self.game.current_player is not None  # a new game is never over
        self.agent_selection = agent_name(self.game.current_player)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None  # None is for a dead agent's step only
        self._clear_rewards()
        self.game.apply(self.index.action(int(action)))  # the wrapper has refused an illegal one already
        if self.game.is_over:
            truncated = self.game.status == "truncated"
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = outcome(self.game, seat)
                self.terminations[name] = not truncated
                self.truncations[name] = truncated
            self._accumulate_rewards()
            self.agent_selection = self.possible_agents[0]
            return
        assert self.game.current_player is not None  # the game is not over
        self.agent_selection = agent_name(self.game.current_player)
        self._accumulate_rewards()

    def render(self) -> str | None:
        return table_text(self.game, None) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def pettingzoo_env(game: str = "classic", players: int = 2, **settings: Any) -> AECEnv:
    """``game`` for ``players`` agents, wrapped as PettingZoo's classic games are (illegal actions end the game)."""
    env: AECEnv = SplendorAEC(game, players, **settings)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
