"""splendor: one exact, fast engine for the Splendor family of board games.

>>> import splendor
>>> game = splendor.new_game("classic", players=2, seed=42)
>>> game.apply("take w b g")
>>> game.current_player
1
"""

from splendor.core import Action, Game, IllegalAction, Record
from splendor.games import GAMES, game_class, load, new_game, replay

__all__ = ["GAMES", "Action", "Game", "IllegalAction", "Record", "game_class", "load", "new_game", "replay"]
__version__ = "0.3.0.dev0"  # after 0.2.0: the unreleased rounds of CHANGELOG.md
