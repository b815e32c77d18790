"""Token arithmetic the games share: what a purchase costs after bonuses, and how it is paid.

Counts are tuples or lists indexed by palette colour, the wild colour last. A cost may ask for the wild colour
itself (a Pokémon master ball); that part is paid with wild tokens only and no bonus covers it.
"""

from __future__ import annotations

from collections.abc import Sequence


def shortfall(cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]) -> int:
    """How many wild tokens a purchase needs beyond the coloured tokens held, counting a cost's own wild part.

    ``bonuses`` and ``tokens`` are indexed like ``cost``; ``bonuses`` may be one shorter (no wild bonus).

    >>> shortfall((3, 0, 1, 0), (1, 0, 0), (1, 0, 0, 2))   # 3 white - 1 bonus - 1 token = 1, plus 1 wild
    2
    """
    wild = len(cost) - 1
    need = cost[wild]
    for c in range(wild):
        left = cost[c] - bonuses[c] - tokens[c]
        if left > 0:
            need += left
    return need


def can_afford(cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]) -> bool:
    """True when the tokens held, with bonuses, pay the cost (wild tokens standing in for any colour)."""
    return shortfall(cost, bonuses, tokens) <= tokens[len(cost) - 1]


def payment(cost: Sequence[int], bonuses: Sequence[int], tokens: Sequence[int]) -> tuple[int, ...] | None:
    """The tokens that pay ``cost``: coloured tokens first, wild ones for the rest (ruling 8); None if unaffordable.

    >>> payment((3, 2, 0), (1, 0), (1, 5, 3))
    (1, 2, 1)
    """
    wild = len(cost) - 1
    paid = [0] * (wild + 1)
    wild_needed = cost[wild]
    for c in range(wild):
        due = cost[c] - bonuses[c]
        if due > 0:
            held = tokens[c]
            if held >= due:
                paid[c] = due
            else:
                paid[c] = held
                wild_needed += due - held
    if wild_needed > tokens[wild]:
        return None
    paid[wild] = wild_needed
    return tuple(paid)
