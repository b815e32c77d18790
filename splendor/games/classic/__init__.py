"""Classic Splendor: gems, development cards, nobles, 15 points."""

from splendor.games.classic.game import ClassicGame

__all__ = ["ClassicGame"]
