"""The game-agnostic kernel: colours and tokens, payment with wilds, a seeded RNG, actions and their
notation, `IllegalAction`, game records and the `Game` protocol. It imports nothing else of the project.

Importing it first has Numba cache the package's compiled functions in a folder named by the sources they are
compiled from (`compile_cache`), before any of them is defined, so that no stale compiled code is ever loaded."""

from splendor.core.actions import Action, ActionTable
from splendor.core.colours import Palette
from splendor.core.compile_cache import use_keyed_cache
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.core.record import Record
from splendor.core.rng import Rng

use_keyed_cache()

__all__ = ["Action", "ActionTable", "Game", "IllegalAction", "Palette", "Record", "Rng"]
