"""Splendor Kids: travelers, roads, cities and villages, the Palace of Splendor, and the Mysteries variant."""

from splendor.games.kids.game import KidsGame
from splendor.games.kids.svg import svg

__all__ = ["KidsGame", "svg"]
