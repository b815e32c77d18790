"""The names of the 55 Pokémon on the cards, marked for the catalogs.

The card data (``data/cards.csv``) holds each card's English name; this list lets every language name them
(Korean and Chinese by their official names). ``tests/test_i18n.py`` checks it holds exactly the cards' names.
"""

from splendor.i18n import N_

POKEMON_NAMES: tuple[str, ...] = (
    N_("Bulbasaur"), N_("Charmander"), N_("Squirtle"), N_("Caterpie"), N_("Weedle"), N_("Pidgey"), N_("Nidoran"),
    N_("Oddish"), N_("Poliwag"), N_("Abra"), N_("Machop"), N_("Bellsprout"), N_("Geodude"), N_("Gastly"),
    N_("Dratini"), N_("Ivysaur"), N_("Charmeleon"), N_("Wartortle"), N_("Metapod"), N_("Kakuna"), N_("Pidgeotto"),
    N_("Nidorina"), N_("Gloom"), N_("Poliwhirl"), N_("Kadabra"), N_("Machoke"), N_("Weepinbell"), N_("Graveler"),
    N_("Haunter"), N_("Dragonair"), N_("Venusaur"), N_("Charizard"), N_("Blastoise"), N_("Butterfree"),
    N_("Beedrill"), N_("Pidgeot"), N_("Nidoqueen"), N_("Vileplume"), N_("Poliwrath"), N_("Alakazam"), N_("Machamp"),
    N_("Victreebel"), N_("Golem"), N_("Gengar"), N_("Dragonite"), N_("Lapras"), N_("Ditto"), N_("Eevee"),
    N_("Aerodactyl"), N_("Snorlax"), N_("Articuno"), N_("Zapdos"), N_("Moltres"), N_("Mewtwo"), N_("Mew"),
)
