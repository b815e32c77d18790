"""The one error a player can cause."""

from __future__ import annotations

from splendor.i18n import Message, translate


class IllegalAction(ValueError):
    """An action the rules forbid, or text that is not an action.

    The message names the rule in the players' words, e.g. ``"take two of one colour needs at least 4 in the
    supply before taking; red has 3"``: ``str()`` says it in English, `explain` in a player's language. The game's
    state is unchanged whenever this is raised.
    """

    def __init__(self, reason: Message | str) -> None:
        super().__init__(str(reason))
        self.reason = reason

    def explain(self, language: str) -> str:
        """The rule, in ``language`` (one of `splendor.i18n.LANGUAGES`)."""
        return translate(self.reason, language)
