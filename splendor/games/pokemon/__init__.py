"""Splendor: Pokémon: ball tokens, master balls, evolution, rare and legendary Pokémon, 18 points."""

from splendor.games.pokemon.game import PokemonGame

__all__ = ["PokemonGame"]
