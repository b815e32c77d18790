"""Names of people: accounts, Pokédex profiles and seats. One rule, checked wherever a name comes in (the API's
schemas, the server, the store, the terminal), and one key by which two names that look alike are the same name.

A name is normalised first (NFKC: fullwidth and mathematical letters become plain ones, a combining accent joins
its letter; runs of spaces become one; the ends are stripped), then checked: 1 to 40 characters, only letters
(with their combining marks), digits, spaces and ``.'-_``, starting with a letter or a digit. Invisible characters
are refused with a reason of their own: default-ignorable code points (zero-width joiners and spaces, bidi
controls, variation selectors, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the blank braille pattern
U+2800), format and control characters. A name that is only fillers would show as blank; one with a joiner would
show as another.

Two names are one when their keys are equal: the UTS #39 confusable skeleton (ICU's ``SpoofChecker``, the
reference implementation, with its data) of the casefolded name without its spaces and punctuation, casefolded
again. So "Alice" and "alice", Latin "a" and Cyrillic "а", "rn" and "m", "0" and "O", "Mary Ann", "Mary_Ann" and
"Mary Ann." all meet (migration 0012 keyed the names kept before the punctuation was left out). The key is kept,
unique, beside each account's and each profile's name. Casefolding comes first, so "ILYA" and "ilya" meet; the
price is that a capital I, whose skeleton is "l", no longer meets "l" once folded to "i" ("Ilya" and "llya" are two
names).
"""

from __future__ import annotations

import re
import threading
import unicodedata

import icu

from splendor.i18n import Message, _

MAX_NAME = 40
"""A name's length, in characters, once normalised."""
MAX_TYPED = 100
"""The longest text read as a name at all (before normalisation: a decomposed accent is two characters)."""
MAX_MARKS = 4
"""Combining marks in a row on one letter: enough for any script's writing, not for a tower of accents."""
KEY_LENGTH = 400
"""The width of the stored key: a skeleton can be longer than its name (a Hangul syllable maps to up to seven)."""
PUNCTUATION = frozenset(" .'-_")
_WITHOUT_PUNCTUATION = str.maketrans("", "", "".join(sorted(PUNCTUATION)))
NAME_RULE = (
    "a name is 1-40 letters, digits, spaces or .'-_, starting with a letter or digit, without invisible characters"
)
"""The rule in one sentence, for the API's schema and its 422 answers."""
LOOSE_NAME = re.compile(r"^[^\x00-\x1f\x7f/]{1,100}$")
"""A first look that any name passes (no control character, no slash): for a URL's path, which cannot hold a
validator; what passes is then checked by `check_name`."""

_IGNORABLE = icu.UnicodeSet("[[:Default_Ignorable_Code_Point:][:Cf:]\u115f\u1160\u3164\uffa0\u2800]")
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_SOFT_DOTTED = icu.UnicodeSet("[:Soft_Dotted:]")
"""Letters drawn with a dot of their own (i, j, Cyrillic і, ...), which a mark above replaces: a dot above on one
(U+0307) shows nothing more, so "Vi\u0307ctor" would stand beside "Victor" looking the same."""
DOT_ABOVE = "\u0307"
DOTLESS = "\u0131\u0237"
"""The dotless i and j, which a dot above makes look like i and j themselves."""
_spoof = icu.SpoofChecker()
_spoof_lock = threading.Lock()  # one checker, shared by the server's threads


class BadName(ValueError):
    """A refused name, with the reason in words a person can act on (``reason``, a translatable message)."""

    def __init__(self, name: str, reason: Message) -> None:
        super().__init__(f"{name!r} is not a profile name: {reason}")
        self.reason = reason


def _invisible(c: str) -> bool:
    """Whether ``c`` has no place in a name: it shows nothing (`shows_nothing`), or it is a control, a private-use
    character or a line or paragraph separator."""
    return unicodedata.category(c) in _INVISIBLE_CATEGORIES or shows_nothing(c)


def shows_nothing(c: str) -> bool:
    """Whether ``c`` shows nothing where it is written: a zero-width character, a direction control, a variation
    selector, a filler (U+3164, U+2800)."""
    return bool(_IGNORABLE.contains(c))


def check_name(name: str) -> str:
    """The name as it is kept and shown (normalised, see the module's rule); `BadName` says why it is refused.

    The same function serves every place a name comes in, so the API's schema, the server and the store never
    disagree (a name that one accepts and another refuses was a 500)."""
    if not isinstance(name, str):
        raise BadName(str(name), _("a name is text"))
    if len(name) > MAX_TYPED:
        raise BadName(name[:MAX_NAME] + "…", _("a name is 1 to {high} characters", high=MAX_NAME))
    if any(_invisible(c) for c in name):
        raise BadName(
            name,
            _("a name may not hold invisible characters (zero-width joiners or spaces, direction controls, fillers)"),
        )
    text = re.sub(" +", " ", unicodedata.normalize("NFKC", name)).strip()
    if any(_invisible(c) for c in text):  # NFKC of a visible character is visible, but be sure
        raise BadName(
            name,
            _("a name may not hold invisible characters (zero-width joiners or spaces, direction controls, fillers)"),
        )
    if not 1 <= len(text) <= MAX_NAME:
        raise BadName(name, _("a name is 1 to {high} characters", high=MAX_NAME))
    marks = 0
    for i, c in enumerate(text):
        kind = unicodedata.category(c)
        if kind[0] == "M":
            marks += 1
            if i == 0 or marks > MAX_MARKS or text[i - 1] in PUNCTUATION:
                raise BadName(name, _("a combining mark belongs on a letter"))
            if c == DOT_ABOVE and (_SOFT_DOTTED.contains(text[i - marks]) or text[i - marks] in DOTLESS):
                raise BadName(name, _("a dot above an i or a j shows nothing more: write the letter alone"))
            continue
        marks = 0
        if not (kind[0] == "L" or kind == "Nd" or c in PUNCTUATION):
            raise BadName(name, _("use only letters, digits, spaces and .'-_ in a name"))
    if not (unicodedata.category(text[0])[0] == "L" or unicodedata.category(text[0]) == "Nd"):
        raise BadName(name, _("a name starts with a letter or a digit"))
    return text


def name_key(name: str) -> str:
    """The key by which names that look alike are one name: the UTS #39 skeleton of the casefolded normalised
    name without its spaces and punctuation (which tell no two people apart: "Mary Ann." is "Mary_Ann"),
    casefolded again (and decomposed, so it has one spelling). ``name`` must have passed `check_name`."""
    folded = name.casefold().translate(_WITHOUT_PUNCTUATION)
    with _spoof_lock:
        skeleton = _spoof.getSkeleton(0, folded)
    # and after: letters that look like the marks (ʼ, ꓸ, Arabic-Indic zero) become them in the skeleton
    return unicodedata.normalize("NFD", skeleton.casefold().translate(_WITHOUT_PUNCTUATION))


def key_of(name: str) -> str | None:
    """The key of a stored name, or None for an old name that today's rule refuses (it then has no key)."""
    try:
        return name_key(check_name(name))
    except BadName:
        return None
