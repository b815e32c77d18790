"""Game records: a header and one action per line, readable, diffable and replayable (as PGN is for chess).

The text form is a JSON header line followed by the actions in notation; lines starting with ``#`` are
comments::

    {"format": "splendor-record/2", "game": "classic", "players": 2, "seed": 42, "options": {}}
    take w b g
    buy 1.3
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

FORMAT = "splendor-record/2"
"""The format records are written in. Records of format 1 are read too, as `UPGRADES` says."""
FORMATS = ("splendor-record/1", FORMAT)
"""Every format a record may be read in, oldest first: a record keeps the rules it was played under."""

UPGRADES: dict[int, dict[str, dict[str, Any]]] = {
    1: {"pokemon": {"evolve_only_when_open": True}},
}
"""The rules an earlier format's games were played under, as the options that keep them, by format version and
game. Format 1 is every game before 2026-12-06, when Splendor: Pokémon began to ask a seat whether to evolve
whenever its hidden card might be the evolution (ruling 5); until then it asked only when one was open, and its
records replay so."""

LEGACY_OPTIONS = frozenset(name for games in UPGRADES.values() for options in games.values() for name in options)
"""Options that only replay games of an earlier format: a game dealt now (a rematch of an old game) leaves them
out."""


def upgraded_options(game: str, options: dict[str, Any], version: int) -> dict[str, Any]:
    """``options`` of a ``game`` saved in format ``version``, with the options that keep the rules it was played
    under (`UPGRADES`).

    >>> upgraded_options("pokemon", {"max_turns": None}, 1)
    {'max_turns': None, 'evolve_only_when_open': True}
    >>> upgraded_options("classic", {}, 1), upgraded_options("pokemon", {}, 2)
    ({}, {})
    """
    kept = dict(options)
    for later in range(version, len(FORMATS)):
        for name, value in UPGRADES.get(later, {}).get(game, {}).items():
            kept.setdefault(name, value)
    return kept


@dataclass
class Record:
    """What is needed to replay a game exactly: which game, its options and seed, and the actions in order.

    ``notes`` carries facts that are not actions (a forfeit and its reason, who played which seat).
    """

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)

    def header(self) -> dict[str, Any]:
        """The header as JSON-ready data."""
        head: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
        }
        if self.notes:
            head["notes"] = self.notes
        return head

    def ending(self) -> dict[str, Any] | None:
        """How the game ended outside its rules, as its notes keep it (`ending_in_notes`), or None."""
        return ending_in_notes(self.notes)

    def to_text(self) -> str:
        """The record as text: the header line, then one action a line."""
        lines = [json.dumps(self.header(), sort_keys=True, ensure_ascii=False)]
        lines.extend(self.actions)
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    @classmethod
    def from_text(cls, text: str) -> Record:
        """Read a record's text; ``ValueError`` says what is wrong with it."""
        lines = [ln.strip() for ln in text.splitlines()]
        lines = [ln for ln in lines if ln and not ln.startswith("#")]
        if not lines:
            raise ValueError("the record is empty: it needs a header line")
        try:
            head = json.loads(lines[0])
        except json.JSONDecodeError as e:
            raise ValueError(f"the record's first line is not a JSON header: {e}") from None
        if not isinstance(head, dict) or head.get("format") not in FORMATS:
            raise ValueError(f'the record\'s header must be a JSON object with "format": "{FORMAT}"')
        missing = [k for k in ("game", "players", "seed") if k not in head]
        if missing:
            raise ValueError(f"the record's header lacks {', '.join(missing)}")
        if not isinstance(head["players"], int) or not isinstance(head["seed"], int):
            raise ValueError("the record's players and seed must be whole numbers")
        options = head.get("options", {})
        if not isinstance(options, dict):
            raise ValueError("the record's options must be a JSON object")
        notes = head.get("notes")
        notes = {} if notes is None else notes
        if not isinstance(notes, dict):
            raise ValueError("the record's notes must be a JSON object")
        return cls(
            game=str(head["game"]),
            players=head["players"],
            seed=head["seed"],
            options=upgraded_options(str(head["game"]), options, FORMATS.index(head["format"]) + 1),
            actions=lines[1:],
            notes=notes,
        )


RESIGNED = "resigned"
"""A game of two a seat resigned (it lost); with three or four, how its seat forfeited (a bot plays it on)."""
TIME = "time"
"""A game of two whose person to move ran out of time (they lost); with three or four, how their seat forfeited."""
IDLE = "idle"
"""A game whose person to move did not move within the server's idle limit; with three or four, how their seat
forfeited."""
ABORTED = "aborted"
"""A game a seat called off before its first move: nobody won or lost."""
NO_START = "no_start"
"""A game of two whose person ran out of time, or sat idle past the limit, before their first move: called off as
an abort is."""
EXPIRED = "expired"
"""A game whose open seats nobody took in time: no winner."""
ABANDONED = "abandoned"
"""A game without a clock that no idle forfeit ends (unrated, or its seat to move keeps no account) whose person to
move did not move within the server's limit for abandoned games (a practice game left, a tutorial not finished):
called off, nobody won or lost."""
FORFEIT = "forfeit"
"""A bot's forfeit, as the arena, the terminal and ``simulate`` keep it: a program late or wrong loses its game."""
CALLED_OFF = (ABORTED, NO_START, EXPIRED, ABANDONED)
"""The endings that call a game off: nobody won or lost, nothing is rated."""


def ending_in_notes(notes: dict[str, Any]) -> dict[str, Any] | None:
    """How a game ended outside its rules, as a record's ``notes`` keep it, or None: the server's ``ending``
    (``by``: resigned, time, aborted, ...; the ``seat`` that left), or a bot's ``forfeit`` as the arena, the terminal
    and ``simulate`` keep it, given as ``{"by": "forfeit", "seat", "bot", "reason"}``. Either way the game is over,
    and nothing hidden is still in play.

    >>> ending_in_notes({"forfeit": {"seat": 0, "bot": "cmd:x", "reason": "late"}})
    {'by': 'forfeit', 'seat': 0, 'bot': 'cmd:x', 'reason': 'late'}
    """
    ending, forfeit = notes.get("ending"), notes.get("forfeit")
    if isinstance(ending, dict) and ending:
        return ending
    if isinstance(forfeit, dict) and forfeit:
        return {"by": FORFEIT, **forfeit}
    return None
