"""The levels of the search: one ``Level`` record per game and level, what each spends and how it searches.

>>> level("kids", "hard").iterations, level("kids", "hard").compiled_iterations
(2000, 20000)
>>> level_iterations("hard", "classic"), level_iterations("hard", "classic", compiled=True)
(2500, 60000)
>>> level("classic", "expert").evaluation, level("kids", "expert").evaluation
('learned', 'plan')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

EXPLORATION = 3.0
"""The exploration constant c of PUCT (``Q + c·P·√N / (1 + n)``), where a level does not set its own."""

SCALE = 2.5
"""The scale of the logistic that turns a lead in the hand-made progress into a win chance."""

Evaluation = Literal["playouts", "learned", "plan"]
"""How a search scores where a playout stops: the game's hand-made ``progress`` (``playouts``), the evaluation
learned by self-play (``learned``, classic and Pokémon: ``splendor.search.learning``), or the exact plan of each
traveler's race (``plan``, Kids: ``splendor.search.plan``)."""


@dataclass(frozen=True)
class Level:
    """A level of one game: the iterations a decision spends on the reference engine (``iterations``) and on the
    compiled one (``compiled_iterations``), and how the compiled search searches: its exploration constant, its
    evaluation, its playout depth (None: the game's own, ``splendor.search.knowledge``), the scale of the
    logistic that turns a lead into a win chance (None: the evaluator's), and how much of an iteration's value is
    the new leaf's own evaluation rather than the playout's end (``mix``; 0: the playout's end alone), and whether
    an unfinished game of three or four values each seat by its share of every seat's progress rather than by its
    lead over the best other (``shares``; ``splendor.search.values``: with two players they agree), and whether
    its PUCT explores by the policy learned from the expert's own search (``policy``, classic and Pokémon:
    ``splendor.search.learning.policy``) rather than by the priors of the actions' kinds, and whether the policy
    and value network trained by self-play guides it (``network``, classic and Pokémon:
    ``splendor.search.learning.network``: its priors in the tree's first nodes, its value as the new leaf's own
    evaluation, ``mix`` of each value). The reference search spends ``iterations`` with the hand-made evaluation
    and c = 3 at every level (the learned evaluation, the learned policy, the network and the plan need the
    compiled search)."""

    iterations: int
    compiled_iterations: int
    exploration: float = EXPLORATION
    evaluation: Evaluation = "playouts"
    depth: int | None = None
    scale: float | None = None
    mix: float = 0.0
    shares: bool = False
    policy: bool = False
    network: bool = False

    @property
    def learned(self) -> bool:
        """Whether it scores positions with the evaluation learned by self-play."""
        return self.evaluation == "learned"

    @property
    def plan(self) -> bool:
        """Whether it plays out and scores Kids by the plan of each traveler's turns to the Palace."""
        return self.evaluation == "plan"


LEVEL_NAMES = ("easy", "medium", "hard", "advanced", "expert")
"""The levels, weakest first."""

COMMON_GAME = "classic"
"""The game whose levels stand for the search's levels in general (a bot's budget before it knows its game)."""

_CARD_GAMES = {
    "easy": Level(40, 40),
    "medium": Level(250, 250),
    "hard": Level(2500, 60000),
    "expert": Level(2500, 110000, exploration=1.5, evaluation="learned"),
}
_CARD_GAMES["advanced"] = replace(_CARD_GAMES["expert"], compiled_iterations=25000)

_POKEMON_EXPERT = Level(2500, 75000, exploration=1.5, evaluation="learned", mix=0.5)
_KIDS_EXPERT = Level(2500, 60000, exploration=1.5, evaluation="plan", depth=8, scale=0.7)

LEVELS: dict[tuple[str, str], Level] = {
    **{("classic", name): lv for name, lv in _CARD_GAMES.items()},
    ("pokemon", "easy"): _CARD_GAMES["easy"],
    ("pokemon", "medium"): _CARD_GAMES["medium"],
    ("pokemon", "hard"): _CARD_GAMES["hard"],
    ("pokemon", "advanced"): replace(_POKEMON_EXPERT, compiled_iterations=17000),
    ("pokemon", "expert"): _POKEMON_EXPERT,
    ("kids", "easy"): Level(10, 10),
    ("kids", "medium"): Level(60, 60),
    ("kids", "hard"): Level(2000, 20000),
    ("kids", "advanced"): replace(_KIDS_EXPERT, compiled_iterations=14000),
    ("kids", "expert"): _KIDS_EXPERT,
}
"""Every game's levels (docs/bots.md: what each choice won in matches). Each level stays under one second a
move on one core. On the compiled engine hard spends its speed on 24 times the Python budget in the card games
and ten times in Kids (whose playouts run to the Palace); easy and medium keep their budgets, so they stay the
gentle opponents they were. Kids sets its lower levels further apart, since two good travelers often reach the
Palace in the same round and share the win (with 40 and 250, medium beat easy outright in 31 of 60 games and hard
beat medium in 27, the rest mostly shared). A Pokémon iteration costs about a fifth more than a classic one (and
its expert also values each new leaf itself, half and half with the playout's end), so its expert spends fewer.

The expert searches with less exploration and its own evaluation: learned in the card games, the exact plan of
the race in Kids (a lead of one round worth a win chance of about four in five). Without the compiled search
the expert searches as hard does, with its Python budget.

Advanced, for a fair fight with a strong player, searches as the expert does with under a quarter of its
iterations (a quarter of the time a move): between hard and expert on the ladder (docs/bots.md)."""


def level(game: str | None, name: str) -> Level:
    """The level ``name`` of ``game`` (a game without levels of its own, or None, has ``COMMON_GAME``'s);
    `ValueError` for an unknown level."""
    if name not in LEVEL_NAMES:
        raise ValueError(f"unknown level {name!r}; the levels are {', '.join(LEVEL_NAMES)}")
    found = LEVELS.get((game or COMMON_GAME, name))
    return found if found is not None else LEVELS[COMMON_GAME, name]


def level_iterations(name: str, game: str | None = None, compiled: bool = False) -> int:
    """The iterations level ``name`` spends on one decision of ``game`` (on the compiled engine if
    ``compiled``)."""
    found = level(game, name)
    return found.compiled_iterations if compiled else found.iterations
