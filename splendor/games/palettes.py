"""Every game's tokens in one table: the names its views use, the letters its notation uses, and the word its
table says for one token. Read by the observations (``splendor.envs``), the terminal and the web page (served
with each language's catalog: `token_words`), so none of them restates a game's colours.

>>> TOKENS["pokemon"].word("pink"), TOKENS["kids"].word("brown"), TOKENS["classic"].name("k")
('Heal Ball', 'hazelnut', 'black')
"""

from __future__ import annotations

from dataclasses import dataclass

from splendor.games.classic.cards import PALETTE as CLASSIC
from splendor.games.kids.notation import PALETTE as KIDS
from splendor.games.kids.notation import TOKEN_LETTERS as KIDS_LETTERS
from splendor.games.kids.notation import TOKEN_NAMES as KIDS_NAMES
from splendor.games.pokemon.cards import PALETTE as POKEMON
from splendor.i18n import N_, Message, catalog


@dataclass(frozen=True)
class Tokens:
    """One game's tokens, in its palette's order (the wild one last among the colours, then any other token)."""

    names: tuple[str, ...]
    """As the views name them (``"white"``, ``"pink"``, ``"brown"``)."""
    letters: tuple[str, ...]
    """As the notation writes them (``w``, ``p``, ``h``)."""
    words: tuple[str, ...]
    """One token as the table says it, in English: the msgid each language's catalog translates."""

    def __post_init__(self) -> None:
        if not len(self.names) == len(self.letters) == len(self.words):
            raise ValueError("every token needs a name, a letter and a word")

    def name(self, letter: str) -> str:
        return self.names[self.letters.index(letter)]

    def word(self, name: str) -> str:
        return self.words[self.names.index(name)]


TOKENS: dict[str, Tokens] = {
    "classic": Tokens(CLASSIC.names, CLASSIC.letters, CLASSIC.names),
    "pokemon": Tokens(POKEMON.names, POKEMON.letters, POKEMON.display),
    "kids": Tokens(
        KIDS_NAMES,
        KIDS_LETTERS,
        (N_("mushroom"), N_("apple"), N_("cabbage"), N_("hazelnut"), N_("water"), N_("gold coin"), N_("Treasure")),
    ),
}
"""Each game's tokens, by the game's name."""


def token_words(language: str) -> dict[str, dict[str, dict[str, str]]]:
    """Each game's tokens for the web page, in ``language``: ``letters`` (letter → the colour the views name) and
    ``words`` (colour → one token as the table says it), served with the language's catalog.

    >>> token_words("sl")["kids"]["words"]["brown"], token_words("en")["classic"]["letters"]["k"]
    ('lešnik', 'black')
    """
    said = catalog(language)
    return {
        game: {
            "letters": dict(zip(tokens.letters, tokens.names)),
            "words": {name: said.render(Message(word)) for name, word in zip(tokens.names, tokens.words)},
        }
        for game, tokens in TOKENS.items()
    }


PALETTES = {"classic": CLASSIC, "pokemon": POKEMON, "kids": KIDS}
"""Each game's palette, by the game's name: its colours' words in messages (`Palette.describe`)."""

COLOURS: dict[str, tuple[str, ...]] = {"classic": CLASSIC.names, "pokemon": POKEMON.names, "kids": KIDS.names}
"""Each game's colours as its views name them, in its palette's order (the wild one last)."""
