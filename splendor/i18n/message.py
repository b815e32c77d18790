"""Words for people, kept as messages until someone reads them in a language.

A `Message` holds an English text from the catalogs (its msgid) and the values that fill it. It is rendered as late
as possible: ``str(message)`` is English (logs, tests, the API's plain clients), and `splendor.i18n.translate`
renders it in a player's language. Values that are themselves words (a colour, a tier) are messages too, so a
sentence is never glued from English pieces; lists are joined by each language's own rule (`Listing`).

>>> str(_("there is no {colour} token left in the supply", colour=_("red")))
'there is no red token left in the supply'
>>> str(_n("{n} token", "{n} tokens", 3))
'3 tokens'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Render = Callable[["Message"], str]


class Message:
    """An English text (one msgid, or a singular and plural pair chosen by ``n``) with the values it names."""

    __slots__ = ("n", "params", "plural", "text")

    def __init__(self, text: str, plural: str | None = None, n: int | None = None, /, **params: Any) -> None:
        self.text = text
        self.plural = plural
        self.n = n
        self.params = params

    def fill(self, template: str, render: Render, language: str) -> str:
        """``template`` (this message in some language) with each value rendered in that language."""
        values: dict[str, object] = {k: render_value(v, render, language) for k, v in self.params.items()}
        if self.n is not None:
            values.setdefault("n", self.n)
        return template.format(**values)

    def english(self) -> str:
        template = self.text if self.plural is None or self.n == 1 else self.plural
        return self.fill(template, Message.english, "en")

    __str__ = english

    def __repr__(self) -> str:
        return f"Message({self.english()!r})"


class Listing:
    """Several values joined as a language joins a list: "red, blue and green", "빨강, 파랑 및 초록"."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = list(items)

    def __str__(self) -> str:
        return render_value(self, Message.english, "en")


class Series:
    """Several values set side by side with commas, no "and": the parts of one description, "1★, blue bonus,
    costs 3 white" (Chinese writes its own comma, as the web's ``COMMA`` does)."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = list(items)

    def __str__(self) -> str:
        return render_value(self, Message.english, "en")


def render_value(value: Any, render: Render, language: str) -> str:
    """A message's value in ``language``: a message rendered, a list joined by the language's rule, else as it is."""
    if isinstance(value, Message):
        return render(value)
    if isinstance(value, Series):
        return ("，" if language == "zh" else ", ").join(render_value(v, render, language) for v in value.items)
    if isinstance(value, Listing):
        from babel.lists import format_list

        locale = "en_GB" if language == "en" else language  # the project writes British English
        return (
            format_list([render_value(v, render, language) for v in value.items], locale=locale) if value.items else ""
        )
    return str(value)


def _(text: str, /, **params: Any) -> Message:
    """A message to translate, e.g. ``_("the game is over")``; the name the extractor looks for."""
    return Message(text, **params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """A message whose words follow a number ``n`` (``{n}`` in the text), by each language's plural rule."""
    return Message(singular, plural, n, **params)


def N_(text: str) -> str:
    """Marks a constant for the catalogs without translating it here (tables of names); ``_(name)`` reads it."""
    return text
