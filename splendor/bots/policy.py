"""The compiled playout policies as bots (``policy:random``, ``policy:buyfirst``, ``policy:playout``, and in
classic ``policy:greedy``): the very opponents the vectorised environments play inside compiled code
(`splendor.search.policies`), seated in the arena and the tournament so that what a learner trained against can be
measured against every other bot.

A policy reads the whole state, so the bot plays it on a deal consistent with its seat's view (the decision's
``sample``: the hidden cards dealt anew), never on the real hidden state; the policies look only at what the seat
may see (the display, the supply, its own cards), so the deal does not change their choice.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from splendor.bots.base import Decision
from splendor.core.actions import Action
from splendor.search.policies import OPPONENTS, kids_action, market_action, policy_code


class PolicyBot:
    """Plays one of the compiled playout policies (``random``, ``buyfirst``, ``playout``, ``greedy``)."""

    def __init__(self, policy: str, seed: int = 0) -> None:
        if policy not in OPPONENTS:
            raise ValueError(f"a policy bot plays one of {', '.join(OPPONENTS)}, not {policy!r}")
        self.policy, self.code = policy, policy_code(policy)
        self.name = f"policy:{policy}"
        self._sampler = random.Random(seed)
        self._rng = np.array([seed], dtype=np.uint64)

    def check_game(self, game: str) -> None:
        """``ValueError`` for a game this policy does not play (``greedy`` plays classic only)."""
        policy_code(self.policy, game)

    def choose(self, decision: Decision) -> Action:
        self.check_game(decision.game)  # a clear error for a game the policy does not play
        if decision.sample is None:
            raise ValueError("a policy bot needs the decision's sampler (a deal consistent with its view)")
        from splendor.compiled import from_reference

        game = decision.sample(self._sampler)
        fast = from_reference(game)
        index = self._kids(game, fast) if decision.game == "kids" else self._market(fast)
        for action in decision.legal:
            if action.index == index:
                return action
        raise AssertionError(f"policy {self.policy} chose action {index}, which is not legal")  # a kernel defect

    def _market(self, fast: Any) -> int:
        from splendor.compiled import market as m

        mask = np.zeros(m.MAX_ACTIONS, dtype=np.bool_)
        count = m.legal_mask_into(fast.state, mask)
        want = np.zeros(m.COLOURS, dtype=np.float64)
        return market_action(fast.state, mask, count, self._rng, self.code, want)

    def _kids(self, game: Any, fast: Any) -> int:
        from splendor.compiled import kids as k
        from splendor.games.kids.notation import RESOURCE_COUNT
        from splendor.search.compiled import route_tables

        legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
        count = k.legal_into(fast.state, legal)
        distance, _moves, next_road = route_tables(game, fast)
        need = np.zeros(RESOURCE_COUNT, dtype=np.int64)
        pay = np.zeros(12, dtype=np.int64)
        return kids_action(fast.state, legal, count, self._rng, self.code, distance, next_road, need, pay)
