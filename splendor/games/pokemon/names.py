"""The names of the 55 Pokémon on the cards, marked for the catalogs.

The card data (``data/cards.csv``) holds each card's English name; this list lets every language name them
(Korean and Chinese by their official names). ``tests/test_i18n.py`` checks it holds exactly the cards' names.
``NATIONAL_DEX`` gives each its National Pokédex number (``tests/pokemon/test_dex.py`` checks it).
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

NATIONAL_DEX: dict[str, int] = {
    "Bulbasaur": 1, "Ivysaur": 2, "Venusaur": 3, "Charmander": 4, "Charmeleon": 5, "Charizard": 6,
    "Squirtle": 7, "Wartortle": 8, "Blastoise": 9, "Caterpie": 10, "Metapod": 11, "Butterfree": 12,
    "Weedle": 13, "Kakuna": 14, "Beedrill": 15, "Pidgey": 16, "Pidgeotto": 17, "Pidgeot": 18,
    "Nidoran": 29, "Nidorina": 30, "Nidoqueen": 31, "Oddish": 43, "Gloom": 44, "Vileplume": 45,
    "Poliwag": 60, "Poliwhirl": 61, "Poliwrath": 62, "Abra": 63, "Kadabra": 64, "Alakazam": 65,
    "Machop": 66, "Machoke": 67, "Machamp": 68, "Bellsprout": 69, "Weepinbell": 70, "Victreebel": 71,
    "Geodude": 74, "Graveler": 75, "Golem": 76, "Gastly": 92, "Haunter": 93, "Gengar": 94,
    "Lapras": 131, "Ditto": 132, "Eevee": 133, "Aerodactyl": 142, "Snorlax": 143,
    "Articuno": 144, "Zapdos": 145, "Moltres": 146, "Dratini": 147, "Dragonair": 148, "Dragonite": 149,
    "Mewtwo": 150, "Mew": 151,
}
"""Each Pokémon's National Pokédex number, the franchise's own numbering (public knowledge, the same in every
language's games). The cards' Nidoran is Nidoran♀ (No. 29): it evolves into Nidorina. A card carries its
Pokémon's number as ``dex``; the project's card ids (``evolve 12 2.3``) are a different thing."""
