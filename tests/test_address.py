"""One form of address per language (issue 32, item 7): the Slovenian catalog speaks to the player as "ti"
(informal: "vpiši", "izberi", "tvoj"), as games and the table do, never as "vi" ("vpišite", "izberite", "vaš");
the Korean one keeps one polite style (합니다체 statements, -세요 requests: no 해요체 "-어요" or plain "-어라"
mixed in); the Chinese one says 你, never 您."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import splendor.i18n

LOCALE = Path(splendor.i18n.__file__).parent / "locale"

# Slovenian "vi" (the polite plural): its pronouns, "ste" (you are), the plural participle of "signed in", the
# second person plural imperative of -aj/-ej verbs ("počakajte", "poglejte", "plačajte"), and the -ite/-ete forms of
# the verbs a game and its pages say to the player ("vpišite", "poskusite", "izberete"). The informal singular says
# "vpiši", "poskusi", "počakaj", "izbereš" and "tvoj". (A suffix rule for -ite or -ste would take "iste" and "ceste"
# and "Dragonite" for verbs, hence the word list.) "vas" is also the noun "village": counted as the pronoun only
# where the English says nothing of villages.
SL_PRONOUNS = re.compile(
    r"\b(vaš|vaša|vaše|vašega|vašemu|vašem|vašim|vašo|vaših|vašima|vašimi|vam|vami|ste|"
    r"niste|boste|prijavljeni kot)\b",
    re.IGNORECASE,
)
SL_AJTE = re.compile(r"\b\w+(?:ajte|ejte|ijte|ujte)\b", re.IGNORECASE)
SL_VERBS = re.compile(
    r"\b(?:vpiš|izber|poskus|prijav|odjav|shran|pošlj|osvež|vid|vnes|uporab|spremen|klikn|odpr|"
    r"pojd|ustvar|vzem|kup|vrn|podar|premakn|ujem|zavrz|pozab|prebe|pritisn|izpust|počist|"
    r"preklič|prenes|ponov|nastav|označ|izbr|zber|reš)(?:ite|ete)\b",
    re.IGNORECASE,
)
SL_VAS = re.compile(r"\bvas\b", re.IGNORECASE)

KO_HAEYO = re.compile(r"(?<!세)(?<!필)요(?=[.?!…]|\s*$)|(?:아라|어라|거라|와라|워라|해라|하라|여라)(?=[.?!]|\s*$)")
"""A 해요체 ending ("-어요", "-을까요", "-니까요": 세요 is the polite request both styles share) or a plain
imperative ("-어라"), at the end of a sentence."""


def _entries(language: str) -> list[tuple[str, str]]:
    """(English, each translated form) of every message of a language's catalog."""
    with open(LOCALE / language / "LC_MESSAGES" / "splendor.po", "rb") as f:
        catalog = read_po(f)
    out = []
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        out += [(english, form) for form in forms if form]
    return out


def formal_slovenian(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The entries whose Slovenian addresses the reader as "vi"."""
    found = []
    for english, text in entries:
        if (
            SL_PRONOUNS.search(text)
            or SL_AJTE.search(text)
            or SL_VERBS.search(text)
            or (SL_VAS.search(text) and "village" not in english)
        ):
            found.append((english, text))
    return found


def mixed_korean(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The entries whose Korean leaves the catalog's polite style (합니다체 with -세요 requests)."""
    return [(english, text) for english, text in entries if KO_HAEYO.search(text)]


def chinese_nin(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The entries whose Chinese says 您 where the catalog says 你."""
    return [(english, text) for english, text in entries if "您" in text]


def test_the_checks_tell_formal_from_informal_address() -> None:
    assert formal_slovenian(
        [
            ("x", "Vpišite dejanje"),
            ("x", "poskusite znova"),
            ("x", "Vaš račun"),
            ("x", "niste prijavljeni"),
            ("x", "namesto vas"),
            ("x", "izberete"),
        ]
    ) == [
        ("x", "Vpišite dejanje"),
        ("x", "poskusite znova"),
        ("x", "Vaš račun"),
        ("x", "niste prijavljeni"),
        ("x", "namesto vas"),
        ("x", "izberete"),
    ]
    assert (
        formal_slovenian(
            [
                ("x", "Vpiši dejanje"),
                ("x", "poskusi znova"),
                ("x", "Tvoj račun"),
                ("x", "nisi prijavljen"),
                ("village", "vas"),
                ("x", "izbereš karte"),
            ]
        )
        == []
    )
    assert mixed_korean([("x", "잊을까요?"), ("x", "되니까요"), ("x", "가져와라")]) == [
        ("x", "잊을까요?"),
        ("x", "되니까요"),
        ("x", "가져와라"),
    ]
    assert mixed_korean([("x", "고르세요."), ("x", "끝났습니다"), ("x", "→ 필요: {n}"), ("x", "잊겠습니까?")]) == []
    assert chinese_nin([("x", "请您登录")]) == [("x", "请您登录")] and chinese_nin([("x", "请你登录")]) == []


@pytest.mark.parametrize(("language", "check"), [("sl", formal_slovenian), ("ko", mixed_korean), ("zh", chinese_nin)])
def test_each_language_addresses_the_player_one_way(language: str, check: object) -> None:
    found = check(_entries(language))  # type: ignore[operator]
    assert found == [], "\n".join(f"{english!r}: {text!r}" for english, text in found)
