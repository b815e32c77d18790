"""Environments for reinforcement learning over the three games (the ``rl`` extra: ``pip install 'splendor[rl]'``).

Importing this package registers the Gymnasium environments ``splendor/Classic-v0``, ``splendor/Pokemon-v0`` and
``splendor/Kids-v0`` (see `splendor.envs.gymnasium_env`); ``pettingzoo_env(game, players=...)`` makes the
PettingZoo AEC environment, every seat an agent (`splendor.envs.pettingzoo_aec`). The same ids make vectorised
environments at the compiled engine's speed with ``gymnasium.make_vec(id, num_envs=N,
vectorization_mode="vector_entry_point")``; ``splendor.envs.vector.VectorGames`` is the same without Gymnasium.
The observation vectors
(`splendor.envs.observe`) and the action indices (`splendor.envs.actions`) need only NumPy; ``docs/rl.md``
documents both field by field.
"""

from __future__ import annotations

from splendor.envs.actions import ActionIndex
from splendor.envs.observe import Field, layout, observe, size

ENV_IDS = {"classic": "splendor/Classic-v0", "pokemon": "splendor/Pokemon-v0", "kids": "splendor/Kids-v0"}

try:
    import gymnasium
except ImportError:  # the rl extra is not installed: the vectors and indices still work
    gymnasium = None  # type: ignore[assignment]  # None says the extra is missing

if gymnasium is not None:
    for _game, _id in ENV_IDS.items():
        if _id not in gymnasium.registry:
            gymnasium.register(
                id=_id,
                entry_point="splendor.envs.gymnasium_env:SplendorEnv",
                vector_entry_point="splendor.envs.vector.gymnasium_vector:SplendorVectorEnv",
                kwargs={"game": _game},
            )
        _compiled = _id.replace("-v0", "Compiled-v0")
        if _compiled not in gymnasium.registry:
            gymnasium.register(
                id=_compiled,
                entry_point="splendor.envs.vector.gymnasium_vector:CompiledSplendorEnv",
                kwargs={"game": _game},
            )


def pettingzoo_env(game: str = "classic", players: int = 2, **settings: object) -> object:
    """The PettingZoo AEC environment of ``game`` (see `splendor.envs.pettingzoo_aec.pettingzoo_env`)."""
    from splendor.envs.pettingzoo_aec import pettingzoo_env as make

    return make(game, players, **settings)


__all__ = ["ENV_IDS", "ActionIndex", "Field", "layout", "observe", "pettingzoo_env", "size"]
