"""A game in the compiled engine (``CompiledGame``), made anew (``new_game``) or from a reference game
(``from_reference``), and turned back into one (``to_reference``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from splendor.compiled.kernels import Kernel
from splendor.compiled.kernels import kernel as _kernel_of
from splendor.core.errors import IllegalAction
from splendor.core.game import Game


class CompiledGame:
    """A game in the compiled engine: its state is one ``int64`` array, its actions the reference's indices.

    ``state`` is for reading: change the game through ``step`` only (the legal mask it last computed is kept for
    the next ``step``)."""

    def __init__(
        self,
        name: str,
        players: int,
        seed: int,
        options: dict[str, Any],
        state: np.ndarray,
        history: list[int],
        kernel: Kernel | None = None,
    ) -> None:
        self.name, self.players, self.seed, self.options = name, players, seed, options
        self.state = state
        self.history = history
        self._kernel = kernel or _kernel_of(name)
        self._actions = int(self._kernel.actions)
        self._mask_fresh = False  # the kernel's mask is of this very state (legal_mask, then step)

    @property
    def num_actions(self) -> int:
        return self._actions

    def legal_mask(self) -> np.ndarray:
        """A bool array over the game's action indices: true exactly at ``legal_actions()``'s indices."""
        mask = self._kernel.fill_mask(self.state)
        self._mask_fresh = True
        return mask[: self._actions].copy()

    def legal_indices(self) -> np.ndarray:
        """The legal actions' indices, ascending (``legal_actions()``'s indices): cheaper than the mask in Kids,
        whose action index is about 439,000 long."""
        found = self._kernel.indices(self.state)
        self._mask_fresh = True
        return found

    def step(self, index: int) -> None:
        """Play the action with this index; `IllegalAction` (nothing changes) unless it is legal now."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self._actions:
            raise IllegalAction(f"an action index is from 0 to {self._actions - 1}, not {index!r}")
        mask = self._kernel.mask if self._mask_fresh else self._kernel.fill_mask(self.state)
        self._mask_fresh = True
        if not mask[index]:
            raise IllegalAction(f"action {int(index)} is not legal now")
        self._kernel.step(self.state, int(index))
        self._mask_fresh = False
        self.history.append(int(index))

    def clone(self) -> CompiledGame:
        """An independent copy (one array copy)."""
        return CompiledGame(self.name, self.players, self.seed, self.options, self.state.copy(), self.history[:])

    @property
    def is_over(self) -> bool:
        return self._kernel.over(self.state)

    @property
    def current_player(self) -> int | None:
        return self._kernel.current_player(self.state)

    @property
    def winners(self) -> list[int]:
        return self._kernel.winners(self.state)

    @property
    def scores(self) -> list[int]:
        return self._kernel.scores(self.state, self.players)

    def to_reference(self) -> Game:
        """The reference game in exactly this state (its ``to_json()`` is what the reference engine would write)."""
        from splendor.games import game_class

        return game_class(self.name).trusted(
            self.players, self.seed, self.options, self._kernel.to_state(self.state, self.options), list(self.history)
        )

    def __repr__(self) -> str:
        return f"<CompiledGame {self.name} players={self.players} seed={self.seed} actions={len(self.history)}>"


def from_reference(game: Game) -> CompiledGame:
    """The compiled game in the same state as the reference ``game`` (hidden parts included)."""
    kernel = _kernel_of(game.name)
    state = kernel.from_state(game.players, game.options, game._state())
    return CompiledGame(
        game.name, game.players, game.seed, dict(game.options), state, [a.index for a in game.history], kernel
    )


def new_game(
    name: str,
    players: int = 2,
    seed: int = 0,
    max_turns: int | None = None,
    first_player: int | str = 0,
    **options: Any,
) -> CompiledGame:
    """A new compiled game dealt from ``seed`` exactly as ``splendor.new_game`` deals it (with the same options:
    Kids' ``short``, ``mysteries`` and ``board``)."""
    kernel = _kernel_of(name)
    from splendor.games import new_game as reference_game

    checked = reference_game(
        name, players=players, seed=seed, max_turns=max_turns, first_player=first_player, **options
    ).options  # checks players and options
    state = kernel.setup(
        players,
        seed,
        -1 if first_player == "random" else int(first_player),
        -1 if max_turns is None else max_turns,
        checked,
    )
    return CompiledGame(name, players, seed, checked, state, [], kernel)
