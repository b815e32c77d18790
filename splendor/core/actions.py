"""Actions, their text notation and their fixed integer index.

Each game has a finite table of every action it can ever offer (for its player count). An action is one
interned, immutable `Action` in that table: ``legal_actions()`` hands out these objects, ``apply`` takes them
(or their text), and the position in the table is the action's index for bots and RL. Because the text form
is canonical and unique, ``table.parse(str(a)) is a``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from splendor.core.errors import IllegalAction
from splendor.i18n import Message, _


def number(word: str) -> int | None:
    """The whole number a word of notation spells in ASCII digits (at most 6), else None.

    ``str.isdigit`` is not enough: it is true of ``²`` and ``⑧``, which ``int`` then refuses.

    >>> number("12"), number("²"), number("-1")
    (12, None, None)
    """
    if 0 < len(word) <= 6 and word.isascii() and word.isdigit():
        return int(word)
    return None


class Action:
    """One decision a player can make, e.g. ``take w b g`` or ``buy 2.3``.

    ``kind`` names the sort of decision; ``args`` are its small integer parameters (colour indices, tiers,
    slots); ``index`` is its place in the game's action table; ``text`` its notation.
    """

    __slots__ = ("args", "index", "kind", "text")

    def __init__(self, index: int, kind: str, args: tuple[int, ...], text: str) -> None:
        self.index = index
        self.kind = kind
        self.args = args
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Action):
            return self.kind == other.kind and self.args == other.args
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.kind, self.args))

    def __reduce__(self) -> tuple[type, tuple[int, str, tuple[int, ...], str]]:
        return (Action, (self.index, self.kind, self.args, self.text))


class ActionTable:
    """Every action of a game, built at once, in index order, with the parser that reads their notation.

    ``normalise`` turns what a person typed into the canonical text (or raises `IllegalAction` saying what is
    malformed); the table then looks the text up.
    """

    def __init__(
        self, specs: Iterable[tuple[str, tuple[int, ...], str]], normalise: Callable[[str], str], game_title: str
    ) -> None:
        self.actions: tuple[Action, ...] = tuple(
            Action(i, kind, args, text) for i, (kind, args, text) in enumerate(specs)
        )
        self._by_text = {a.text: a for a in self.actions}
        if len(self._by_text) != len(self.actions):
            raise ValueError("two actions share one text")
        self._by_key = {(a.kind, a.args): a for a in self.actions}
        self._normalise = normalise
        self._title = game_title

    def __len__(self) -> int:
        return len(self.actions)

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions)

    def __getitem__(self, index: int) -> Action:
        return self.actions[index]

    def get(self, kind: str, *args: int) -> Action:
        """The action of that kind and arguments (``KeyError`` if the game has none)."""
        return self._by_key[(kind, args)]

    def own(self, action: Action) -> Action | None:
        """This table's own action that ``action`` stands for, or None when it is not one of this game's.

        An action is this game's when its index names, in this table, an action of the same kind, arguments
        and text: a hand-built ``Action`` or one parsed by another game is refused, while a copy of this
        game's own action (one that crossed a process boundary, say) is accepted as the original.
        """
        index = action.index
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self):
            return None
        mine = self[index]
        if mine is action or (mine.kind == action.kind and mine.args == action.args and mine.text == action.text):
            return mine
        return None

    def parse(self, text: str) -> Action:
        """The action a text names, in canonical or loose form; `IllegalAction` explains malformed text."""
        if not isinstance(text, str):
            raise IllegalAction(_("an action is text or an Action, not {kind}", kind=type(text).__name__))
        canonical = self._normalise(text)
        action = self._by_text.get(canonical)
        if action is None:
            raise IllegalAction(_("'{text}' is not an action of {game}", text=text.strip(), game=Message(self._title)))
        return action


class ComputedActionTable(ActionTable):
    """An action space too large to build at once (Splendor Kids: every road times every payment).

    ``decode(index)`` gives ``(kind, args, text)``; ``encode(kind, args)`` the index, or None when no action has
    them; ``read(text)`` the ``(kind, args)`` a text names, or raises `IllegalAction` saying what is malformed.
    Actions are made on first use and kept, so they are still interned: ``parse(str(a)) is a``.
    """

    def __init__(
        self,
        size: int,
        decode: Callable[[int], tuple[str, tuple[int, ...], str]],
        encode: Callable[[str, tuple[int, ...]], int | None],
        read: Callable[[str], tuple[str, tuple[int, ...]]],
        game_title: str,
    ) -> None:
        self._size = size
        self._decode = decode
        self._encode = encode
        self._read = read
        self._title = game_title
        self._made: dict[int, Action] = {}

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Action]:
        return (self[i] for i in range(self._size))

    def __getitem__(self, index: int) -> Action:
        action = self._made.get(index)
        if action is None:
            if not 0 <= index < self._size:
                raise IndexError(index)
            kind, args, text = self._decode(index)
            action = self._made[index] = Action(index, kind, args, text)
        return action

    def get(self, kind: str, *args: int) -> Action:
        index = self._encode(kind, args)
        if index is None:
            raise KeyError((kind, args))
        return self[index]

    def parse(self, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(_("an action is text or an Action, not {kind}", kind=type(text).__name__))
        kind, args = self._read(text)
        index = self._encode(kind, args)
        if index is None:
            raise IllegalAction(_("'{text}' is not an action of {game}", text=text.strip(), game=Message(self._title)))
        return self[index]
