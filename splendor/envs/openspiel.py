"""The three games as OpenSpiel Python games: ``import splendor.envs.openspiel`` registers
``python_splendor_classic``, ``python_splendor_pokemon`` and ``python_splendor_kids`` with ``pyspiel``.

The model: sequential turns, imperfect information, explicit chance. The one chance event is the deal at the
start, one of ``deals`` (a game parameter, default 1000) equally likely seeds of the engine's shuffles (the decks,
the nobles, Kids' board and tiles); the players never see which. Actions are the integers of
`splendor.envs.actions.ActionIndex` (Kids: the compact index). Returns at the end: +1 for the sole winner, 0 in
a shared victory or a game with no winner, -1 for the others; ``max_turns`` (default 200) ends a game with no
winner. Observation tensors are the seat's vectors of `splendor.envs.observe`. The information state string has
perfect recall: the seat's view and every action so far as the seats saw them (a deck reservation by another
seat is "reserve deck 2", whatever the card). The information state tensor is the seat's vector too: everything
a seat saw that bears on play is still on its view (cards bought and reserved, tiers of hidden reserves, nobles,
tiles), so it does not tell apart histories that lead to the same view. ``resample`` deals a state consistent
with a seat's information (for IS-MCTS: ``ISMCTSBot.set_resampler``).

>>> import pyspiel, splendor.envs.openspiel
>>> game = pyspiel.load_game("python_splendor_classic", {"players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 77)
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from splendor.core.game import Game
from splendor.envs.actions import ActionIndex, action_count
from splendor.envs.observe import observe, size
from splendor.envs.result import check_max_turns, outcome
from splendor.games import new_game

DEFAULTS = {"players": 2, "deals": 1000, "max_turns": 200}
VARIANTS: dict[str, dict[str, Any]] = {"classic": {}, "pokemon": {}, "kids": {"short": False, "mysteries": False}}
"""Each game's own options, as parameters beside ``DEFAULTS`` (Kids' short game and its Mysteries variant)."""


def _game_type(name: str, players: int | None = None) -> pyspiel.GameType:
    """The game's type; a game of two is zero-sum (+1 and −1, or 0 and 0), one of three or four general-sum."""
    return pyspiel.GameType(
        short_name=f"python_splendor_{name}",
        long_name=f"Python splendor: {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if players == 2 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**DEFAULTS, **VARIANTS[name]},
    )


class SplendorGame(pyspiel.Game):
    """One of the three games for ``players`` (2-4), dealt from ``deals`` seeds, capped at ``max_turns``."""

    name = "classic"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **VARIANTS[self.name], **(params or {})}
        self.players, self.deals = int(params["players"]), int(params["deals"])
        self.max_turns = int(params["max_turns"])
        self.options = {key: bool(params[key]) for key in VARIANTS[self.name]}
        new_game(self.name, players=self.players, seed=0, max_turns=self.max_turns, **self.options)  # refused now,
        # not at the deal: Kids' short game and its Mysteries do not go together
        if not 2 <= self.players <= 4 or self.deals < 1:
            raise ValueError("players is 2 to 4, deals at least 1")
        check_max_turns(self.players, self.max_turns, uncapped=False)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(self.name),
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.players == 2 else None,  # zero-sum at two (`_game_type`)
            max_game_length=self.max_turns * self.players * 6 + 1,
        )
        super().__init__(_game_type(self.name, self.players), info, params)

    def new_initial_state(self) -> SplendorState:
        return SplendorState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SplendorObserver:
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SplendorObserver(self.name, perfect)


class SplendorState(pyspiel.State):
    """A game before its deal (a chance node), then the engine's game."""

    def __init__(self, game: SplendorGame) -> None:
        super().__init__(game)
        self.name, self.players, self.deals, self.max_turns = game.name, game.players, game.deals, game.max_turns
        self.options = game.options
        self.engine: Game | None = None
        self.index: ActionIndex | None = None
        self.moves: list[str] = []  # every action as the seats saw it (the texts hide no card)

    def current_player(self) -> int:
        if self.engine is None:
            return pyspiel.PlayerId.CHANCE
        if self.engine.is_over:
            return pyspiel.PlayerId.TERMINAL
        player = self.engine.current_player
        assert player is not None
        return player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None and self.index is not None
        return sorted(int(i) for i in np.flatnonzero(self.index.mask(self.engine)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.deals
        return [(d, p) for d in range(self.deals)]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.engine = new_game(
                self.name, players=self.players, seed=int(action), max_turns=self.max_turns, **self.options
            )
            self.index = ActionIndex(self.engine)
            return
        assert self.index is not None
        chosen = self.index.action(int(action))
        self.engine.apply(chosen)
        self.moves.append(chosen.text)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        assert self.index is not None  # players act only after the deal
        return self.index.action(int(action)).text

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def returns(self) -> list[float]:
        if self.engine is None:
            return [0.0] * self.players
        return [outcome(self.engine, s) for s in range(self.players)]

    def resample(self, player: int, rng: random.Random | None = None) -> SplendorState:
        """A state consistent with everything ``player`` knows, its hidden parts dealt anew (for IS-MCTS)."""
        assert self.engine is not None
        other = self.clone()
        other.engine = self.engine.determinize(player, rng or random.Random())
        return other

    def __str__(self) -> str:
        if self.engine is None:
            return "before the deal"
        return json.dumps(self.engine.view(None), sort_keys=True, separators=(",", ":"))


class SplendorObserver:
    """What a seat observes: its vector and its view as a string; with perfect recall, the actions it saw too."""

    def __init__(self, name: str, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size(name), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SplendorState, player: int) -> None:
        self.tensor[:] = 0.0 if state.engine is None else observe(state.engine.view(player))

    def string_from(self, state: SplendorState, player: int) -> str:
        if state.engine is None:
            return f"seat {player}, before the deal"
        view = state.engine.view(player)
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        return text + "|" + " ; ".join(state.moves) if self.perfect_recall else text


def _game_class(game: str) -> type[SplendorGame]:
    return type(f"Splendor{game.capitalize()}Game", (SplendorGame,), {"name": game})


GAME_CLASSES = {game: _game_class(game) for game in ("classic", "pokemon", "kids")}
for _name, _cls in GAME_CLASSES.items():
    pyspiel.register_game(_game_type(_name, DEFAULTS["players"]), _cls)  # as load_game gives it by default
