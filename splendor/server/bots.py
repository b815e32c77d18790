"""Bots on the server: which may sit at a table, and the worker function that thinks in another process."""

from __future__ import annotations

import hashlib

from splendor.bots.base import decide, make_bot
from splendor.games import load

SERVER_BOTS = ("random", "greedy", "ismcts:easy", "ismcts:medium", "ismcts:hard")
"""Bots a game on the server may seat (never an outside program: the server runs no command it is sent)."""


def bot_seed(game_id: str, action_number: int) -> int:
    """A bot's seed for one decision: the same after a restart, so a resumed game plays on identically."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{action_number}".encode()).digest()[:6], "big")


def bot_move(state: str, spec: str, seed: int) -> str:
    """In a worker process: load the game, let the bot decide for the seat to move (it sees only that seat's
    view and samples of what it cannot see), and return the action's text."""
    game = load(state)
    return decide(make_bot(spec, seed=seed), game).text
