"""The message catalogs: one gettext ``.po`` file per language under ``locale/``, read with Babel.

English is the language the code is written in, so it has no catalog: a message's msgid is its English text.
`translate` renders a `Message` (or a plain string, which is shown as it is) in a language; the web reads the same
catalogs as JSON (`web_catalog`), with each language's plural rule given as the CLDR category of each plural form,
which the browser's ``Intl.PluralRules`` names.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.pofile import read_po

from splendor.i18n.languages import LANGUAGES, SOURCE_LANGUAGE
from splendor.i18n.message import Listing, Message, render_value

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "splendor"


def catalog_path(language: str) -> Path:
    """Where the gettext catalog of ``language`` is kept in the package."""
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@dataclass(frozen=True)
class Catalog:
    """One language's translations: msgid → text, or msgid → the plural forms."""

    language: str
    texts: dict[str, str | tuple[str, ...]]
    plural_index: Callable[[int], int]

    def template(self, message: Message) -> str:
        found = self.texts.get(message.text)
        if message.plural is None:
            return found if isinstance(found, str) and found else message.text
        if isinstance(found, tuple) and all(found):
            return found[min(self.plural_index(message.n or 0), len(found) - 1)]
        return message.text if message.n == 1 else message.plural

    def render(self, message: Message) -> str:
        return message.fill(self.template(message), self.render, self.language)


@cache
def catalog(language: str) -> Catalog:
    """The catalog of ``language`` (one of `LANGUAGES`), read once."""
    if language not in LANGUAGES:
        raise ValueError(f"no catalog for language {language!r}; the languages are {', '.join(LANGUAGES)}")
    if language == SOURCE_LANGUAGE:
        return Catalog(language, {}, lambda n: 0 if n == 1 else 1)
    path = catalog_path(language)
    try:
        f = path.open("rb")
    except FileNotFoundError:
        raise FileNotFoundError(f"the {language} catalog is missing: {path} (an incomplete install?)") from None
    with f:
        po = read_po(f, locale=language, domain=DOMAIN)
    texts: dict[str, str | tuple[str, ...]] = {}
    for m in po:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, (tuple, list)):
            texts[m.id[0]] = tuple(m.string or ())
        elif isinstance(m.string, str):
            texts[m.id] = m.string
    return Catalog(language, texts, gettext.c2py(po.plural_expr))


def translate(words: Message | Listing | str, language: str = SOURCE_LANGUAGE) -> str:
    """``words`` in ``language``: a message rendered from its catalog; a plain string (a name) as it is.

    >>> from splendor.i18n.message import _
    >>> translate(_("the game is over"), "sl")
    'igre je konec'
    """
    if isinstance(words, Message):
        return catalog(language).render(words)
    if isinstance(words, Listing):
        return render_value(words, catalog(language).render, language)
    return str(words)


@cache
def plural_categories(language: str) -> dict[str, int]:
    """Each CLDR plural category of ``language`` → its gettext plural form, checked to agree on 0..1000.

    The web picks a plural form with ``Intl.PluralRules(language).select(n)``, whose answer is a CLDR category.
    """
    rule = Locale.parse(language).plural_form
    index = catalog(language).plural_index
    out: dict[str, int] = {}
    for n in range(1001):
        category, form = rule(n), index(n)
        if out.setdefault(category, form) != form:
            raise ValueError(f"{language}: the plural category {category} is forms {out[category]} and {form}")
    return out


@cache
def web_catalog(language: str) -> dict[str, Any]:
    """What the browser needs to speak ``language``: its texts and its plural categories (built once; not to be
    changed by its readers). The server adds each game's tokens (`splendor.games.palettes.token_words`).

    >>> web_catalog("sl")["plurals"]["few"], web_catalog("sl")["language"]
    (2, 'sl')
    """
    c = catalog(language)
    return {
        "language": language,
        "plurals": plural_categories(language),
        "messages": {k: list(v) if isinstance(v, tuple) else v for k, v in c.texts.items() if v and all(v)},
    }
