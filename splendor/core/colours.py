"""Colours of a game: names, one-letter codes and display names, in a fixed order.

Every game keeps token counts as plain tuples or lists indexed by colour, in its palette's order; the wild
colour (gold, master ball, gold coin) is always the last index. The palette turns indices into words and back.
"""

from __future__ import annotations

from dataclasses import dataclass

from splendor.i18n import Listing, Message, _, _n


@dataclass(frozen=True)
class Palette:
    """The ordered colours of one game, the last one wild.

    >>> p = Palette(("white", "blue", "gold"), ("w", "b", "y"), ("White", "Blue", "Gold"))
    >>> p.index("b"), p.index("gold"), p.wild
    (1, 2, 2)
    """

    names: tuple[str, ...]
    letters: tuple[str, ...]
    display: tuple[str, ...]
    spoken: tuple[str, ...] = ()
    """How rule messages name each colour (defaults to ``names``), e.g. ``Heal Ball (pink)``."""
    counted_as_nouns: bool = False
    """Whether a count names each colour by its display name as a noun ("4 Great Balls"), not as an adjective
    ("4 red"): the web table's words for a cost (``tokensOf`` in words.js), from the same message."""

    def __post_init__(self) -> None:
        if not (len(self.names) == len(self.letters) == len(self.display)):
            raise ValueError("a palette needs one letter and one display name per colour")
        if self.spoken and len(self.spoken) != len(self.names):
            raise ValueError("a palette's spoken names need one per colour")
        if len(set(self.letters)) != len(self.letters) or len(set(self.names)) != len(self.names):
            raise ValueError("palette names and letters must be distinct")

    @property
    def wild(self) -> int:
        """Index of the wild colour (always the last)."""
        return len(self.names) - 1

    @property
    def plain(self) -> range:
        """Indices of the non-wild colours."""
        return range(len(self.names) - 1)

    def index(self, word: str) -> int:
        """The index of a colour given by its name or its letter (any case); ``KeyError`` if unknown."""
        w = word.strip().lower()
        if w in self.letters:
            return self.letters.index(w)
        if w in self.names:
            return self.names.index(w)
        raise KeyError(word)

    def word(self, i: int) -> Message:
        """The colour as rule messages say it, a message each language says in its words (the palettes mark
        their names for the catalogs)."""
        return Message(self.spoken[i] if self.spoken else self.names[i])

    def counts(self, values: tuple[int, ...] | list[int], *, skip_zero: bool = False) -> dict[str, int]:
        """A colour-name → count mapping of a tuple indexed by colour (JSON-ready)."""
        return {n: v for n, v in zip(self.names, values) if v or not skip_zero}

    def describe(self, values: tuple[int, ...] | list[int]) -> Message | Listing:
        """Counts in players' words, e.g. ``"2 red and 1 blue"`` or ``"4 Great Balls"``; ``"nothing"`` when all are
        zero."""
        if self.counted_as_nouns:
            parts = [
                _n("{n} {ball}", "{n} {ball}s", v, ball=Message(self.display[i])) for i, v in enumerate(values) if v
            ]
        else:
            parts = [_("{n} {colour}", n=v, colour=self.word(i)) for i, v in enumerate(values) if v]
        return Listing(parts) if parts else _("nothing")
