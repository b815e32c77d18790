"""How promising each kind of action is before any search: the priors of PUCT, for the reference search
(``kind_priors``) and, as tables of the same numbers, for the compiled one (``market_compiled.PRIORS``,
``kids_compiled.priors_into``).

    >>> from splendor.core.actions import Action
    >>> kind_priors([Action(0, "buy", (0, 0), "buy 1.1"), Action(1, "reserve", (0, 0), "reserve 1.1")])
    [0.8695652173913044, 0.13043478260869565]
"""

from __future__ import annotations

from collections.abc import Sequence

from splendor.core.actions import Action

KIND_WEIGHT: dict[str, float] = {
    "buy": 4.0,
    "buy_reserved": 4.0,
    "evolve": 4.0,
    "move": 6.0,
    "take2": 1.5,
    "reserve": 0.6,
    "reserve_deck": 0.3,
    "evolve_none": 0.5,
}
"""Progress first (buying, evolving, moving on), two of one token next, reserving least; a kind not named
weighs ``OTHER_WEIGHT``."""

TAKE3_WEIGHT, TAKE_WEIGHT, OTHER_WEIGHT = 2.0, 1.0, 1.0
"""A take of three different tokens, a take of fewer, and any kind ``KIND_WEIGHT`` does not name."""


def kind_weight(kind: str) -> float:
    """The prior weight of an action of ``kind`` (not a take: a take's weight is its number of tokens')."""
    return KIND_WEIGHT.get(kind, OTHER_WEIGHT)


def kind_priors(legal: Sequence[Action]) -> list[float]:
    """Priors from the kinds of the actions alone (three different tokens weigh more than fewer). The ways of
    paying one road share that road's weight, so a road with many payments is not favoured over one with few."""
    per_road: dict[int, int] = {}
    for a in legal:
        if a.kind == "move":
            per_road[a.args[0]] = per_road.get(a.args[0], 0) + 1
    weights = []
    for a in legal:
        if a.kind == "take":
            weights.append(TAKE3_WEIGHT if len(a.args) == 3 else TAKE_WEIGHT)
        elif a.kind == "move":
            weights.append(KIND_WEIGHT["move"] / per_road[a.args[0]])
        else:
            weights.append(kind_weight(a.kind))
    total = sum(weights)
    return [w / total for w in weights]
