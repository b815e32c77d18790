"""Keep the catalogs current: gather every message of the code and the web pages, and check the translations.

``python -m splendor.i18n.extract`` rewrites each language's ``.po`` with the messages the sources hold now:
translations of kept messages stay, new ones arrive empty, gone ones are dropped. ``--check`` changes nothing
and lists what is wrong (what `tests/test_i18n.py` asserts is empty): a message with no translation, a translation
whose ``{placeholders}`` differ from the English, a catalog that is not current.

Messages are found by Babel's extractors: in Python, ``_("...")``, ``_n("...", "...", n)`` and ``N_("...")``; in the
web's JavaScript, ``t("...")``, ``tn("...", "...", n)`` and ``N_("...")``; in the HTML pages, the text of each
element marked ``data-t``.
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import UTC, datetime
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from splendor.i18n.catalogs import DOMAIN, catalog_path
from splendor.i18n.languages import LANGUAGES, SOURCE_LANGUAGE

PACKAGE = Path(__file__).resolve().parent.parent
WEB = PACKAGE / "server" / "web"
PYTHON_KEYWORDS = {"_": None, "_n": (1, 2), "N_": None}
WEB_KEYWORDS = {"t": None, "tn": (1, 2), "N_": None}
PLACEHOLDER = re.compile(r"\{(\w*)\}")
# Fixed dates and header keep a catalog's bytes the same from run to run: only a changed message changes the file.
STABLE_DATE = datetime(2026, 11, 30, tzinfo=UTC)
HEADER = "# The splendor project's {language} messages.\n# Kept current by python -m splendor.i18n.extract."


def _new_catalog(language: str) -> Catalog:
    return Catalog(
        locale=language,
        domain=DOMAIN,
        project="splendor",
        version="1",
        copyright_holder="",
        msgid_bugs_address="",
        creation_date=STABLE_DATE,
        revision_date=STABLE_DATE,
        fuzzy=False,
        header_comment=HEADER.format(language=LANGUAGES.get(language, language)),
        last_translator="the splendor project",
        language_team=LANGUAGES.get(language, language),
    )


class _MarkedText(HTMLParser):
    """The text of each element marked ``data-t`` in an HTML page, and the attributes its ``data-t-attr`` names."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in (values.get("data-t-attr") or "").split():
            if values.get(name):
                self.found.append((self.getpos()[0], values[name] or ""))
        if "data-t" in values:
            self._open.append((tag, self.getpos()[0], []))

    def handle_data(self, data: str) -> None:
        for _, _, parts in self._open:
            parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            self.found.append((line, " ".join("".join(parts).split())))


def html_text(html: str) -> list[tuple[int, str]]:
    """(line, text) of each ``data-t`` element; the text with its white space collapsed, as the web reads it."""
    parser = _MarkedText()
    parser.feed(html)
    return parser.found


def gather() -> Catalog:
    """Every message of the sources, in a template catalog (English)."""
    template = _new_catalog(SOURCE_LANGUAGE)
    python = extract_from_dir(
        str(PACKAGE),
        method_map=[("**/migrations/**", "ignore"), ("**.py", "python")],
        keywords=PYTHON_KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    web = extract_from_dir(
        str(WEB),
        method_map=[("vendor/**", "ignore"), ("**.js", "javascript"), ("**.html", "ignore")],
        options_map={"**.js": {"parse_template_string": "true"}},
        keywords=WEB_KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for root, found in ((PACKAGE, python), (WEB, web)):
        for filename, line, message, comments, context in found:
            where = str((root / filename).relative_to(PACKAGE))
            template.add(message, locations=[(where, line)], auto_comments=comments, context=context)
    for page in sorted(WEB.glob("*.html")):
        for line, text in html_text(page.read_text(encoding="utf-8")):
            template.add(text, locations=[(str(page.relative_to(PACKAGE)), line)])
    return template


def _read(language: str) -> Catalog:
    path = catalog_path(language)
    if not path.exists():
        return _new_catalog(language)
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def _write(po: Catalog) -> bytes:
    out = BytesIO()
    write_po(
        out,
        po,
        width=116,
        omit_header=False,
        sort_output=False,
        ignore_obsolete=True,
        include_previous=False,
        include_lineno=False,
    )  # files, not lines: an edit elsewhere changes nothing
    return out.getvalue()


def updated(language: str, template: Catalog) -> Catalog:
    """``language``'s catalog with the template's messages: kept translations, new ones empty, gone ones out."""
    po = _read(language)
    po.update(template, no_fuzzy_matching=True, update_header_comment=False)
    po.obsolete.clear()
    return po


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def problems(template: Catalog | None = None) -> list[str]:
    """What is wrong with the catalogs now, one line each; empty when every message reads in every language."""
    template = template or gather()
    out: list[str] = []
    for language in LANGUAGES:
        if language == SOURCE_LANGUAGE:
            continue
        path = catalog_path(language)
        if not path.exists():
            out.append(f"{language}: no catalog at {path}")
            continue
        po = updated(language, template)
        if _write(po) != path.read_bytes():
            out.append(f"{language}: the catalog is not current: run python -m splendor.i18n.extract")
        for m in po:
            if not m.id:
                continue
            english = tuple(m.id) if isinstance(m.id, (tuple, list)) else (m.id,)
            texts = tuple(m.string) if isinstance(m.string, (tuple, list)) else (m.string or "",)
            name = english[0]
            if m.fuzzy or not all(texts):
                out.append(f"{language}: no translation of {name!r}")
                continue
            wanted = set().union(*(_placeholders(e) for e in english))
            for text in texts:
                if _placeholders(text) - wanted or (len(english) == 1 and _placeholders(text) != wanted):
                    out.append(
                        f"{language}: {name!r} has placeholders {sorted(_placeholders(text))}, "
                        f"the English {sorted(wanted)}"
                    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m splendor.i18n.extract", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; list what is wrong")
    args = parser.parse_args(argv)
    template = gather()
    if args.check:
        found = problems(template)
        print("\n".join(found) or f"{len(template)} messages, translated in every language")
        return 1 if found else 0
    for language in LANGUAGES:
        if language == SOURCE_LANGUAGE:
            continue
        path = catalog_path(language)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_write(updated(language, template)))
        print(f"{path.relative_to(PACKAGE.parent)}: {len(template)} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
