"""Words shown to people in their language: messages, catalogs, and the choice of a language.

Code says what it means with `_` (and `_n` where a number picks the words); whoever shows it to a person calls
`translate` with that person's language. The catalogs are gettext ``.po`` files under ``locale/``, kept current by
``python -m splendor.i18n.extract``.
"""

from splendor.i18n.catalogs import catalog, plural_categories, translate, web_catalog
from splendor.i18n.languages import LANGUAGES, SOURCE_LANGUAGE, from_environment, negotiate
from splendor.i18n.message import N_, Listing, Message, Series, _, _n

__all__ = [
    "LANGUAGES",
    "N_",
    "SOURCE_LANGUAGE",
    "Listing",
    "Message",
    "Series",
    "_",
    "_n",
    "catalog",
    "from_environment",
    "negotiate",
    "plural_categories",
    "translate",
    "web_catalog",
]
