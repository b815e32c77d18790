"""What a person types in the terminal: an action, its tokens named in the player's language, in the game's notation;
and the answer to a [y/N] question.

The notation is one in every language (``take w b g``), and its colours may be written in full in English
(``take white blue green``, ``take mushroom apple cabbage``). A refusal of a word that is no colour lists the colours
by their names in the player's language ("'bela' ni barva; barve so: w (bela), b (modra), ..."), so a Slovenian
player typed ``take bela modra zelena`` and was refused the very names it listed. Those names are read here.

>>> in_notation("take bela, modra zelena", "classic", "sl")
'take w, b g'
>>> in_notation("take 흰색 파란색 초록색", "classic", "ko")
'take w b g'
>>> in_notation("take Great Ball heal ball", "pokemon", "en")
'take b p'
>>> in_notation("buy 1.2", "classic", "sl")
'buy 1.2'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from splendor.games.palettes import PALETTES, TOKENS
from splendor.i18n import SOURCE_LANGUAGE, Message, _, translate


@cache
def _names(game: str, language: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """Every way ``language`` (and English) names each of ``game``'s tokens, lower-cased, with its letter: the table's
    word for one token ("Heal Ball", "lešnik"), the colour ("pink", "rjava") and the palette's display name; and a
    pattern that finds them as whole words, the longest first ("Heal Ball" before "ball")."""
    tokens, palette = TOKENS[game], PALETTES[game]
    letters: dict[str, str] = {}
    for i, (name, letter, word) in enumerate(zip(tokens.names, tokens.letters, tokens.words)):
        said = [word, name, *((palette.display[i],) if i < len(palette.display) else ())]
        for source in said:
            for lang in dict.fromkeys((language, SOURCE_LANGUAGE)):
                letters.setdefault(translate(Message(source), lang).lower(), letter)
    names = sorted((n for n in letters if n not in tokens.letters), key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)", re.IGNORECASE)
    return pattern, letters


def in_notation(text: str, game: str, language: str) -> str:
    """``text`` with each token named in full, in ``language`` or in English, written as its letter; its first word
    (the verb) and everything else as typed."""
    verb, _, rest = text.strip().partition(" ")
    if not rest:
        return text
    pattern, letters = _names(game, language)
    return f"{verb} " + pattern.sub(lambda m: letters[m.group(0).lower()], rest)


def is_yes(answer: str, say: Callable[[Message], str]) -> bool:
    """Whether a [y/N] question was answered yes: ``y`` or ``yes``, or the word in the player's language.

    >>> is_yes(" Y ", str), is_yes("", str)
    (True, False)
    """
    return answer.strip().lower() in ("y", "yes", say(_("yes")).lower())
