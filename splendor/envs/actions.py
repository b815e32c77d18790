"""Actions as integers for learning, with a mask of the legal ones at every step.

Classic Splendor and Splendor: Pokémon use the game's own fixed action index (``game.actions``): 77 and 525
actions, whatever the player count. Splendor Kids' own index has 438,990 actions (every road times every way of
paying 1 to 5 resources), too many for a mask a learner can use, so Kids has a compact index:

- indices 0 to 77 are the game's own actions 0 to 77 (taking, returning, discarding, giving, City tiles, medals,
  passing);
- index ``78 + (road - 1) * 585 + k`` is moving along ``road`` with the ``k``-th way of paying its banner, the
  ways being every payment that banner allows (resources, active City tiles, gold coins, at most 2 Treasures),
  in the order of their codes in the game's own index. No banner has more than 585 ways (five different
  resources), so the index has 78 + 72 × 585 = 42,198 entries.

It is exact: every legal action has exactly one index, and every index the mask marks is legal.

>>> import splendor
>>> g = splendor.new_game("kids", players=2, seed=1)
>>> index = ActionIndex(g)
>>> index.size, all(index.action(i) in g.legal_actions() for i in index.mask(g).nonzero()[0])
(42198, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from splendor.core.actions import Action, ActionTable
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.games import game_class
from splendor.games.kids.compact import COMPACT_COUNT, WAYS_PER_ROAD, banner_ways
from splendor.games.kids.notation import ACTIONS as KIDS_ACTIONS
from splendor.games.kids.notation import MOVE_BASE, PALETTE

__all__ = ["WAYS_PER_ROAD", "ActionIndex", "action_count", "banner_ways"]


def action_count(game: str) -> int:
    """How many integers a learner's actions in ``game`` range over (Kids: the compact index)."""
    return COMPACT_COUNT if game == "kids" else len(game_class(game).actions)


def whole_action(action: Any) -> int | None:
    """A learner's action as an ``int``: a Python or NumPy integer, or a NumPy array of no dimensions holding one
    (what ``model.predict(obs)[0]`` gives for one observation, and what ``Discrete.contains`` accepts); None for
    anything else, a bool included (True is no action number).

    >>> whole_action(np.int64(3)), whole_action(np.array(3)), whole_action(True), whole_action(3.0)
    (3, 3, None, None)
    """
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    return None


class ActionIndex:
    """The integers a learner plays in one game: the game's own index, or Kids' compact one for its board."""

    def __init__(self, game: Game | dict[str, Any]) -> None:
        """For a game, or for any seat's view of it (what a bot is shown: Kids' roads are on every view)."""
        self.game_name: str = game["game"] if isinstance(game, dict) else game.name
        self.kids = self.game_name == "kids"
        self.size = action_count(self.game_name)
        if not self.kids:
            return
        self.ways: dict[int, tuple[int, ...]] = {}
        roads = (game if isinstance(game, dict) else game.view(None))["board"]["roads"]
        for road in roads:
            banner = tuple(sorted(PALETTE.names.index(c) for c in road["cost"]))
            ways = banner_ways(banner)
            if len(ways) > WAYS_PER_ROAD:
                raise AssertionError(f"road {road['number']} has {len(ways)} ways to pay, over {WAYS_PER_ROAD}")
            self.ways[road["number"]] = ways
        self.rank = {road: {code: k for k, code in enumerate(ways)} for road, ways in self.ways.items()}

    @property
    def own(self) -> ActionTable:
        """The game's own action table (looked up, not kept: an index pickles as plain data)."""
        return game_class(self.game_name).actions

    def index(self, action: Action) -> int:
        """The learner's integer for one of this game's actions."""
        if not self.kids or action.index < MOVE_BASE:
            return action.index
        road, code = action.args
        return MOVE_BASE + (road - 1) * WAYS_PER_ROAD + self.rank[road][code]

    def action(self, index: int) -> Action:
        """The game's action for a learner's integer; `IllegalAction` for an integer that names none."""
        number = whole_action(index)
        if number is None or not 0 <= number < self.size:
            raise IllegalAction(f"an action is an integer from 0 to {self.size - 1}, not {index!r}")
        index = number
        if not self.kids or index < MOVE_BASE:
            return self.own[index]
        road, k = divmod(index - MOVE_BASE, WAYS_PER_ROAD)
        ways = self.ways.get(road + 1, ())
        if k >= len(ways):
            raise IllegalAction(f"action {index} names no payment of road {road + 1} on this board")
        return KIDS_ACTIONS.get("move", road + 1, ways[k])

    def mask(self, game: Game) -> np.ndarray:
        """A boolean vector marking the legal actions now (all False once the game is over)."""
        return self.mask_of([] if game.is_over else game.legal_actions())

    def mask_of(self, legal: list[Action]) -> np.ndarray:
        """A boolean vector marking ``legal`` (the actions a bot's decision offers)."""
        out = np.zeros(self.size, dtype=bool)
        out[[self.index(a) for a in legal]] = True
        return out
