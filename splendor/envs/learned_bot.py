"""A learned policy as a bot: ``learned`` (the policy shipped for the game, `splendor.bots.learned.SHIPPED`) or
``learned:PATH.npz`` (a policy file, as ``examples/ppo_classic.py`` writes it).

It sees what any bot sees (its seat's view and the legal actions), turns the view into the observation vector
the environments give (`splendor.envs.observe`) and the legal actions into their mask, and plays the policy's
most likely legal action: the same move in the same position, with NumPy alone. It lives in the rl layer because
the observation is built here; ``splendor.bots.base`` finds it by name, so the bots import no env.
"""

from __future__ import annotations

from pathlib import Path

from splendor.bots.base import Decision
from splendor.bots.learned import Policy, load_policy, shipped_policy
from splendor.core.actions import Action
from splendor.envs.actions import ActionIndex
from splendor.envs.observe import observe


class LearnedBot:
    """Plays a policy learned for one game (`splendor.bots.learned.Policy`)."""

    def __init__(self, path: str = "", seed: int = 0) -> None:
        """``path`` empty: the shipped policy of the game each decision is of; else the policy file at ``path``,
        read (and checked) now, so that a wrong file is refused before any game starts. The policy plays the
        same move in the same position: ``seed`` changes nothing."""
        self.path = path
        self.name = f"learned:{Path(path).name}" if path else "learned"
        self.policy: Policy | None = load_policy(path) if path else None

    def check_game(self, game: str) -> Policy:
        """The policy this bot plays ``game`` with; ``ValueError`` for a game it was not trained on."""
        policy = self.policy if self.policy is not None else shipped_policy(game)
        if policy.game != game:
            raise ValueError(f"{self.name} was trained on {policy.game}, not {game}")
        return policy

    def choose(self, decision: Decision) -> Action:
        policy = self.check_game(decision.game)
        index = ActionIndex(decision.view)
        action = policy.act(observe(decision.view), index.mask_of(decision.legal))
        return index.action(action)
