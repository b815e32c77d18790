"""The Bot protocol and the registry of bots by name."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol

from splendor.core.actions import Action
from splendor.core.game import Game


@dataclass(frozen=True)
class Decision:
    """What a bot is shown when it must decide: its seat's view and the legal actions, nothing hidden."""

    game: str
    seat: int
    view: dict[str, Any]
    legal: list[Action]


class Bot(Protocol):
    """Anything with a name that picks one of the legal actions from what its seat may see."""

    name: str

    def choose(self, decision: Decision) -> Action:
        """One action from ``decision.legal``."""
        ...


BOTS: dict[str, str] = {
    "random": "splendor.bots.random_bot:RandomBot",
    "greedy": "splendor.bots.greedy:GreedyBot",
}


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name, e.g. ``make_bot("greedy", seed=3)`` (``ValueError`` naming the known bots)."""
    name = spec.strip().lower()
    if name not in BOTS:
        raise ValueError(f"unknown bot {spec!r}; the bots are {', '.join(sorted(BOTS))}")
    module, _, attr = BOTS[name].partition(":")
    cls = getattr(importlib.import_module(module), attr)
    bot: Bot = cls(seed=seed)
    return bot


def decide(bot: Bot, game: Game) -> Action:
    """Ask ``bot`` for the current player's action, showing it only that seat's view."""
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: nobody has a decision to make")
    decision = Decision(game=game.name, seat=seat, view=game.view(seat), legal=game.legal_actions())
    action = bot.choose(decision)
    if action not in decision.legal:
        raise ValueError(f"bot {bot.name} chose {action}, which is not legal now")
    return action
