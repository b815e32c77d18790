"""Clocks on the server: the time controls a new game may choose, and the clock as every answer shows it.

A game's clock is chosen at creation (`NewGame.clock`) and kept in the store, which alone counts time
(`splendor.store.clocks`): real-time ``M+S`` (a bank of M minutes per seat, 1-180, and S seconds added after each
of its turns, 0-180; the lobby offers 3+2, 5+10, 10+5 and 15+10) or correspondence ``1d``, ``2d``, ``3d`` (days a
move). A bank of seconds (``10s+0``) is for tests, only where the server allows it (``--allow-short-clocks``).
When the person to move runs out of time the clock sweep (`GameManager`) ends the game, once, by a conditional
write: with two players that person loses; with three or four a bot plays the seat on and it ranks last.
"""

from __future__ import annotations

from typing import Any

from splendor.core.record import TIME
from splendor.i18n import _
from splendor.server.errors import Refused
from splendor.store.clocks import CORRESPONDENCE, DAY, REALTIME, ClockState, TimeControl, parse

PRESETS = ("3+2", "5+10", "10+5", "15+10", "1d", "2d", "3d")
"""The time controls the lobby offers (any ``M+S`` within the bounds may be asked for)."""
MAX_MINUTES, MAX_INCREMENT, MAX_DAYS, MAX_SHORT_SECONDS = 180, 180, 3, 600
RULE = _("M+S (minutes 1-180, seconds 0-180 added a move, e.g. 5+10) or 1d, 2d, 3d (days a move)")
"""What a refused time control is told to choose instead, in the reader's language."""


def chosen(text: str | None, allow_short: bool, people: int) -> str | None:
    """The time control a new game asked for, as it is kept (None: untimed), or `Refused` (400) saying why not:
    one the rules above do not allow, a bank of seconds where the server does not allow one, or a clock in a game
    no person plays (no clock would ever run)."""
    if text is None:
        return None
    try:
        control = parse(text.strip())
    except ValueError:
        raise Refused(400, _("not a time control: {text}; choose {rule}", text=repr(text), rule=RULE)) from None
    if not _within_bounds(control):
        raise Refused(400, _("time control out of bounds: {text}; choose {rule}", text=repr(text), rule=RULE))
    if control.short and not allow_short:
        raise Refused(
            400, _("a clock of seconds is for tests: this server does not allow one; choose {rule}", rule=RULE)
        )
    if people == 0:
        raise Refused(400, _("a game between bots only has no clock: nobody's time would be counted"))
    return control.text


def _within_bounds(control: TimeControl) -> bool:
    if control.kind == CORRESPONDENCE:
        return 1 <= control.per_turn / DAY <= MAX_DAYS
    most = MAX_SHORT_SECONDS if control.short else MAX_MINUTES * 60
    return 1 <= control.per_turn <= most and 0 <= control.increment <= MAX_INCREMENT


def payload(clock: ClockState | None) -> dict[str, Any] | None:
    """The clock as every answer shows it (None: untimed): ``control`` (its text), ``kind`` (``realtime`` or
    ``correspondence``), ``per_turn`` and ``increment`` (seconds), ``banks`` (each seat's bank in seconds, as it
    stood when its last turn began or ended; null for bots and in correspondence), ``running`` (the seat whose
    clock runs, or null) and ``left``: the seconds it has left, counted by the server when this is sent, so that
    the reader's own clock never matters (it counts down from here)."""
    if clock is None:
        return None
    left = clock.left_now()
    return {
        "control": clock.control.text,
        "kind": clock.control.kind,
        "per_turn": clock.control.per_turn,
        "increment": clock.control.increment,
        "banks": [None if b is None else round(b, 1) for b in clock.banks],
        "running": clock.running,
        "left": None if left is None else round(left, 1),
    }


__all__ = ["CORRESPONDENCE", "PRESETS", "REALTIME", "TIME", "chosen", "payload"]
