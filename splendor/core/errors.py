"""The one error a player can cause."""


class IllegalAction(ValueError):
    """An action the rules forbid, or text that is not an action.

    The message names the rule in the players' words, e.g. ``"take two of one colour needs at least 4 in the
    supply before taking; red has 3"``. The game's state is unchanged whenever this is raised.
    """
