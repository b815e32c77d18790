"""The games, and the registry that names them.

A new game is a folder here plus one line in ``GAMES``; every bot, the arena, the CLI and the server find it
through this registry and the Game protocol.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from splendor.core.errors import IllegalAction
from splendor.core.game import STATE_FORMAT, STATE_FORMATS, Game
from splendor.core.record import Record, upgraded_options

GAMES: dict[str, str] = {
    "classic": "splendor.games.classic:ClassicGame",
    "pokemon": "splendor.games.pokemon:PokemonGame",
    "kids": "splendor.games.kids:KidsGame",
}


def game_class(name: object) -> type[Game]:
    """The class of a game by its registry name (``ValueError`` listing the known names, for anything else)."""
    path = GAMES.get(name) if isinstance(name, str) else None
    if path is None:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
    module, _, attr = path.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module), attr)
    return cls


def new_game(name: str, players: int = 2, seed: int | None = None, **options: Any) -> Game:
    """A new game: ``new_game("classic", players=3, seed=42, max_turns=200)``."""
    return game_class(name)(players=players, seed=seed, **options)


def load(text: str) -> Game:
    """A game from ``game.to_json()`` text, exactly as it was.

    The state is proven by replaying the saved history from the saved header (see ``Game.from_state``):
    ``ValueError`` says what is wrong with damaged, edited or impossible text.
    """
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as e:
        raise ValueError(f"not a saved game: {e}") from None
    except RecursionError:
        raise ValueError("not a saved game: its JSON is nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") not in STATE_FORMATS:
        raise ValueError(f'not a saved game: expected JSON with "format": "{STATE_FORMAT}"')
    if isinstance(data.get("options"), dict):  # a game saved under earlier rules replays under them
        version = STATE_FORMATS.index(data["format"]) + 1
        data["options"] = upgraded_options(str(data.get("game")), data["options"], version)
    return game_class(data.get("game")).from_state(data)


def replay(record: Record | str, upto: int | None = None) -> Game:
    """Replay a record (or its text) from its header, checking every action; the game after ``upto`` actions.

    An action the rules refuse raises `IllegalAction` naming its line number and the rule.
    """
    if isinstance(record, str):
        record = Record.from_text(record)
    game = new_game(record.game, players=record.players, seed=record.seed, **record.options)
    actions = record.actions if upto is None else record.actions[:upto]
    for n, text in enumerate(actions, 1):
        try:
            game.apply(text)
        except IllegalAction as e:
            raise IllegalAction(f"action {n} of the record, '{text}', is illegal: {e}") from None
    return game
