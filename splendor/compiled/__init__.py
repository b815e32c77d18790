"""The compiled engine: the rules of ``splendor.games`` as flat integer arrays and Numba-compiled functions, for
search playouts, self-play and RL, where the reference engine's Python is the bottleneck.

The reference engine stays the one readable statement of the rules; the compiled one is proven equal to it
(``tests/test_compiled.py`` plays both side by side and compares the legal actions and the whole state after every
action). It covers the three games: classic Splendor and Splendor: Pokémon in one kernel (``market.py``), Splendor
Kids in its own (``kids.py``, the board inside the state).

    >>> import splendor, splendor.compiled as compiled
    >>> game = splendor.new_game("classic", players=2, seed=1)
    >>> fast = compiled.from_reference(game)
    >>> fast.step(int(fast.legal_mask().nonzero()[0][0])); fast.to_reference().history
    [Action('take w b g')]

Numba compiles on first use and caches what it compiled in a folder named by the sources it was compiled from
(`splendor.core.compile_cache`), so only the very first start, or the first after an edit, pays it (see
``docs/benchmarks.md``).
"""

from __future__ import annotations

from splendor.compiled.batch import Batch, playouts
from splendor.compiled.game import CompiledGame, from_reference, new_game
from splendor.compiled.kernels import COVERED, POLICIES

__all__ = ["COVERED", "POLICIES", "Batch", "CompiledGame", "from_reference", "new_game", "playouts"]
