"""The compiled engine's kernels as its face (``CompiledGame``, ``Batch``) drives them: one adapter per kernel
(the card-market games' ``market``, Splendor Kids' ``kids``) with the same methods, so the face never asks which
game it plays."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from splendor.compiled import kids as _kids
from splendor.compiled import market as _market

COVERED = ("classic", "pokemon", "kids")
"""The games the compiled engine plays."""

POLICIES = ("random", "buyfirst")
"""Playout policies: uniformly random, or uniformly among the buys (in Kids, the moves) when there are any."""


def _check_covered(name: str) -> None:
    if name not in COVERED:
        raise ValueError(f"the compiled engine plays {', '.join(COVERED)}, not {name!r}")


class Kernel(Protocol):
    """What the face asks of a game's kernel."""

    actions: int
    size: int
    mask: np.ndarray

    def fill_mask(self, state: np.ndarray) -> np.ndarray:
        """The legal actions of ``state`` as a boolean mask over the action space (``mask``, filled in place)."""
        ...

    def indices(self, state: np.ndarray) -> np.ndarray:
        """The legal actions of ``state`` as sorted indices."""
        ...

    def step(self, state: np.ndarray, index: int) -> None:
        """Play the legal action ``index`` on ``state``, in place."""
        ...

    def over(self, state: np.ndarray) -> bool:
        """Whether the game of ``state`` has ended."""
        ...

    def over_all(self, states: np.ndarray) -> np.ndarray:
        """Whether each game of ``states`` (one a row) has ended."""
        ...

    def current_player(self, state: np.ndarray) -> int | None:
        """The seat that decides now in ``state``; None once the game is over."""
        ...

    def winners(self, state: np.ndarray) -> list[int]:
        """The seats that won the finished game of ``state`` (several: they share the victory)."""
        ...

    def scores(self, state: np.ndarray, players: int) -> list[int]:
        """Each seat's score in ``state`` (points; Kids: 1 for a traveler in the Palace, else 0)."""
        ...

    def to_state(self, state: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
        """``state`` as the reference game's state (its JSON-ready data), to convert it back to a `Game`."""
        ...

    def from_state(self, players: int, options: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
        """A reference game's state (JSON-ready data) as this kernel's array."""
        ...

    def setup(self, players: int, seed: int, first: int, cap: int, options: dict[str, Any]) -> np.ndarray:
        """A new game's state, dealt from ``seed`` (SplitMix64), seat ``first`` to move, ``cap`` rounds at most."""
        ...

    def playouts(self, players: int, games: int, seed: int, eager: bool, cap: int, options: dict[str, Any]) -> int:
        """Play ``games`` random games (``eager``: buying first where it can) and return the actions played (the
        engine's speed, `splendor bench`)."""
        ...

    def batch_reset(
        self, states: np.ndarray, players: int, seeds: np.ndarray, cap: int, options: dict[str, Any]
    ) -> None:
        """Deal a new game into each row of ``states``, row ``i`` from ``seeds[i]`` (the vectorised environments)."""
        ...

    def batch_masks(self, states: np.ndarray, masks: np.ndarray) -> None:
        """Fill each row of ``masks`` with the legal actions of the same row of ``states``."""
        ...

    def batch_step(self, states: np.ndarray, actions: np.ndarray) -> None:
        """Play ``actions[i]`` in the game of row ``i`` of ``states``, every row at once."""
        ...


class MarketKernel:
    """The card-market games' kernel, as the face uses it (a legal mask is the kernel's own list)."""

    def __init__(self, name: str) -> None:
        self.kind = _market.KINDS[name]
        self.actions = int(_market.ACTION_COUNT[self.kind])
        self.size = _market.SIZE
        self.mask = np.zeros(_market.MAX_ACTIONS, dtype=np.bool_)
        self.scratch = np.zeros(_market.MAX_ACTIONS, dtype=np.bool_)

    def fill_mask(self, state: np.ndarray) -> np.ndarray:
        _market.legal_mask_into(state, self.mask)
        return self.mask

    def indices(self, state: np.ndarray) -> np.ndarray:
        return np.flatnonzero(self.fill_mask(state)[: self.actions])

    def step(self, state: np.ndarray, index: int) -> None:
        _market.step(state, index, self.scratch)

    def over(self, state: np.ndarray) -> bool:
        return bool(state[_market.PHASE] == _market.OVER)

    def over_all(self, states: np.ndarray) -> np.ndarray:
        over: np.ndarray = states[:, _market.PHASE] == _market.OVER
        return over

    def current_player(self, state: np.ndarray) -> int | None:
        return None if self.over(state) else int(state[_market.SEAT])

    def winners(self, state: np.ndarray) -> list[int]:
        return [int(x) for x in state[_market.WINNERS : _market.WINNERS + state[_market.WINNERS_N]]]

    def scores(self, state: np.ndarray, players: int) -> list[int]:
        return [int(x) for x in state[_market.POINTS : _market.POINTS + players]]

    def to_state(self, state: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
        return _market.to_state(state)

    def from_state(self, players: int, options: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
        return _market.from_state(self.kind, players, options, state)

    def setup(self, players: int, seed: int, first: int, cap: int, options: dict[str, Any]) -> np.ndarray:
        return _market.setup(self.kind, players, seed, first, cap)

    def playouts(self, players: int, games: int, seed: int, eager: bool, cap: int, options: dict[str, Any]) -> int:
        return int(_market.playouts(self.kind, players, games, seed, eager, cap))

    def batch_reset(
        self, states: np.ndarray, players: int, seeds: np.ndarray, cap: int, options: dict[str, Any]
    ) -> None:
        _market.batch_reset(states, self.kind, players, seeds, 0, cap)

    def batch_masks(self, states: np.ndarray, masks: np.ndarray) -> None:
        _market.batch_masks(states, masks)

    def batch_step(self, states: np.ndarray, actions: np.ndarray) -> None:
        _market.batch_step(states, actions)


class KidsKernel:
    """Splendor Kids' kernel, as the face uses it: the kernel lists the legal indices; the mask is built from
    them (the action index has about 439,000 entries)."""

    def __init__(self) -> None:
        self.actions = _kids.ACTION_COUNT
        self.size = _kids.STATE_SIZE
        self.mask = np.zeros(self.actions, dtype=np.bool_)
        self.legal = np.empty(_kids.MAX_LEGAL, dtype=np.int64)
        self._marked = np.empty(0, dtype=np.int64)

    def fill_mask(self, state: np.ndarray) -> np.ndarray:
        self.mask[self._marked] = False
        self._marked = np.empty(0, dtype=np.int64)
        if _kids.phase(state) != _kids.OVER:
            self._marked = self.legal[: _kids.legal_into(state, self.legal)].copy()
            self.mask[self._marked] = True
        return self.mask

    def indices(self, state: np.ndarray) -> np.ndarray:
        self.fill_mask(state)
        return self._marked.copy()

    def step(self, state: np.ndarray, index: int) -> None:
        _kids.step(state, index)

    def over(self, state: np.ndarray) -> bool:
        return bool(_kids.phase(state) == _kids.OVER)

    def over_all(self, states: np.ndarray) -> np.ndarray:
        over: np.ndarray = (states[:, _kids.PENDING_N] > 0) & (states[:, _kids.PENDING] == _kids.OVER)
        return over

    def current_player(self, state: np.ndarray) -> int | None:
        seat = int(_kids.current_player(state))
        return None if seat < 0 else seat

    def winners(self, state: np.ndarray) -> list[int]:
        return [int(x) for x in state[_kids.WINNERS : _kids.WINNERS + state[_kids.WINNERS_N]]]

    def scores(self, state: np.ndarray, players: int) -> list[int]:
        palace = state[_kids.PALACE_AT]
        return [int(state[_kids.SPACE + p] == palace) for p in range(players)]

    @staticmethod
    def tables(state: np.ndarray, options: dict[str, Any]) -> _kids.BoardTables:
        """The board of a state: the sides given in the options, or the shipped sides its seed drew."""
        if options.get("board") is not None:
            return _kids.board_tables(list(options["board"]))
        sides = state[_kids.SIDE_AT : _kids.SIDE_AT + state[_kids.SECTIONS_N]]
        return _kids.board_tables([_kids.SHIPPED_SIDES[int(i)] for i in sides])

    def to_state(self, state: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
        return _kids.to_state(state, self.tables(state, options))

    def from_state(self, players: int, options: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
        return _kids.from_state(players, options, state, _kids.board_tables(state["side_refs"]))

    @staticmethod
    def _blocks(options: dict[str, Any]) -> tuple[np.ndarray, bool]:
        """The boards setup chooses from, and whether the seed draws the sides (no board given)."""
        if options.get("board") is None:
            return _kids.shipped_blocks(options["short"]), True
        return _kids.board_tables(list(options["board"])).block[None, :], False

    def setup(self, players: int, seed: int, first: int, cap: int, options: dict[str, Any]) -> np.ndarray:
        blocks, draw = self._blocks(options)
        return _kids.setup(players, seed, first, cap, options["mysteries"], options["short"], blocks, draw)

    def playouts(self, players: int, games: int, seed: int, eager: bool, cap: int, options: dict[str, Any]) -> int:
        blocks, _ = self._blocks({**options, "board": None})
        return int(_kids.playouts(players, games, seed, eager, cap, options["mysteries"], options["short"], blocks))

    def batch_reset(
        self, states: np.ndarray, players: int, seeds: np.ndarray, cap: int, options: dict[str, Any]
    ) -> None:
        blocks, draw = self._blocks(options)
        _kids.batch_reset(states, players, seeds, cap, options["mysteries"], options["short"], blocks, draw)

    def batch_masks(self, states: np.ndarray, masks: np.ndarray) -> None:
        _kids.batch_masks(states, masks)

    def batch_step(self, states: np.ndarray, actions: np.ndarray) -> None:
        _kids.batch_step(states, actions)


def kernel(name: str) -> Kernel:
    """The kernel of the game ``name`` (a `ValueError` unless the compiled engine plays it)."""
    _check_covered(name)
    return KidsKernel() if name == "kids" else MarketKernel(name)
