"""A policy learned with masked PPO (sb3-contrib) as a bot: ``ppo:path/to/model.zip``.

It sees what any bot sees (its seat's view and the legal actions), turns the view into the observation vector
the environments give (`splendor.envs.observe`) and the legal actions into their mask, and plays the policy's
most likely legal action. It needs the ``learn`` extra (PyTorch, stable-baselines3, sb3-contrib); the spec names a
file the person running the arena chose, so the server never seats it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from splendor.bots.base import Decision
from splendor.core.actions import Action


@cache
def _model(path: str) -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        raise ValueError("a ppo bot needs the learn extra: pip install 'splendor[learn]'") from e
    if not Path(path).is_file():
        raise ValueError(f"no trained model at {path}")
    return MaskablePPO.load(path, device="cpu")


class PPOBot:
    """Plays a masked-PPO policy trained on one game's environment."""

    def __init__(self, path: str, seed: int = 0) -> None:
        self.path = path
        self.name = f"ppo:{Path(path).name}"
        self.model = _model(path)

    def check_game(self, game: str) -> None:
        """``ValueError`` unless the model reads ``game``'s observation (of layout 2, or of 1: without the turn
        order): refused before a tournament, where its first decision had said it."""
        from splendor.envs.observe import ORDER, size

        if self.model.observation_space.shape not in ((size(game),), (size(game) - ORDER.size,)):
            raise ValueError(f"{self.path} was trained on another game than {game}")

    def choose(self, decision: Decision) -> Action:
        from splendor.envs.actions import ActionIndex
        from splendor.envs.observe import observe

        self.check_game(decision.game)
        index = ActionIndex(decision.view)
        seen = observe(decision.view)[: self.model.observation_space.shape[0]]  # layout 1: all but the turn order
        action, _ = self.model.predict(seen, action_masks=index.mask_of(decision.legal), deterministic=True)
        return index.action(int(action))
