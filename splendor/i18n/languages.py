"""The languages the project speaks, and which one a reader gets."""

from __future__ import annotations

from collections.abc import Mapping

SOURCE_LANGUAGE = "en"

# Each language with its own name for itself (what a language switch shows). These are the languages of the
# rulebooks this project comes from.
LANGUAGES: dict[str, str] = {"en": "English", "sl": "Slovenščina", "ko": "한국어", "zh": "中文"}


def negotiate(accept: str | None) -> str:
    """The best of `LANGUAGES` for an HTTP ``Accept-Language`` value (or a bare tag); English when none fits.

    >>> negotiate("ko-KR,ko;q=0.9,en;q=0.8")
    'ko'
    >>> negotiate("zh-Hans-CN"), negotiate("de, sl;q=0.5"), negotiate(None)
    ('zh', 'sl', 'en')
    """
    if not accept:
        return SOURCE_LANGUAGE
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept.split(",")[:32]):
        tag, _, weight = part.strip().partition(";")
        try:
            q = float(weight.strip()[2:]) if weight.strip().startswith("q=") else 1.0
        except ValueError:
            q = 0.0
        base = tag.strip().lower().split("-")[0].split("_")[0]
        if base in LANGUAGES and q > 0:
            ranked.append((-q, i, base))
    return min(ranked)[2] if ranked else SOURCE_LANGUAGE


def from_environment(environ: Mapping[str, str]) -> str:
    """The language a terminal's locale asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext
    reads them), among `LANGUAGES`; English when none fits.

    >>> from_environment({"LANG": "sl_SI.UTF-8"}), from_environment({"LANGUAGE": "ko:en", "LANG": "C.UTF-8"})
    ('sl', 'ko')
    """
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            for tag in value.split(":"):
                base = tag.split(".")[0].split("@")[0].replace("_", "-")
                if negotiate(base) != SOURCE_LANGUAGE or base.lower().startswith(SOURCE_LANGUAGE):
                    return negotiate(base)
            if name != "LANGUAGE":
                return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE
