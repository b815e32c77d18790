"""Vectorised environments at the compiled engine's speed: N games of one kind stepped in one call, observations,
masks, rewards and automatic reset computed inside compiled code, the opponents played there too.

- `VectorGames` (``games``): the plain NumPy face, for learners that want no framework;
- `SplendorVectorEnv` (``gymnasium_vector``): the same as a Gymnasium ``VectorEnv``
  (``gymnasium.make_vec("splendor/Classic-v0", num_envs=N, vectorization_mode="vector_entry_point")``);
- ``market_loop`` and ``kids_loop``: the compiled loops; the opponents' policies (``random``, ``buyfirst``,
  ``playout``) are the search's (`splendor.search.policies`), which `splendor.bots.policy` also seats in the arena.

``docs/rl.md`` says what each array holds and why the rules are exactly the reference engine's
(``tests/test_vector_env.py`` plays both side by side).
"""

from __future__ import annotations

from splendor.envs.vector.games import GAMES, VectorGames
from splendor.search.policies import OPPONENTS

__all__ = ["GAMES", "OPPONENTS", "VectorGames"]
