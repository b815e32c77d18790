"""The game-agnostic kernel: colours and tokens, payment with wilds, a seeded RNG, actions and their
notation, `IllegalAction`, game records and the `Game` protocol. It imports nothing else of the project."""

from splendor.core.actions import Action, ActionTable
from splendor.core.colours import Palette
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.core.record import Record
from splendor.core.rng import Rng

__all__ = ["Action", "ActionTable", "Game", "IllegalAction", "Palette", "Record", "Rng"]
