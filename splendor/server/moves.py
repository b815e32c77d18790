"""One move on the server: the turn's checks, the action judged once by the engine, and what the move writes.

`step` is the one path from a game and an action to the game after it and its log entry: the server takes it for
an action it accepts, for the actions other processes committed (catching up), and for a stored game it replays
(rebuilding); `Game.after` judges the action, copying the game only when it is legal, so the game the server
holds is never touched before the store has the action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from splendor.core.actions import Action
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.i18n import Message, _, _n
from splendor.server.bots import BOT_RATINGS
from splendor.server.errors import Refused
from splendor.server.seating import BOT, waiting_for_players
from splendor.store.games import Ending
from splendor.store.ratings import RatedSeat, rate_game

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame


def log_entry(number: int, before: Game, action: Action, after: Game) -> dict[str, Any]:
    """One line of a game's log: who did what, and what everyone saw of it (``Game.public_details``)."""
    return {
        "n": number,
        "seat": before.current_player,
        "action": action.text,
        "details": before.public_details(action, after),
    }


LOG_KEPT = 60
"""How many of a game's last log entries a payload carries, and a replay's step with them (a whole long game's log
would grow every message)."""


def step(game: Game, action: Action | str) -> tuple[Game, dict[str, Any]]:
    """The game after ``action`` (or its text) and the action's log entry; ``game`` is left as it is.
    `IllegalAction` (with the rule's words) when the action is not legal now."""
    after = game.after(action)
    return after, log_entry(len(after.history), game, after.history[-1], after)


def parsed(game: Game, text: str) -> Action:
    """The action ``text`` names in ``game``'s notation, or `Refused` (400) saying what is malformed."""
    try:
        return game.parse(text)
    except IllegalAction as e:
        raise Refused(400, e.reason) from None


def judged(game: Game, action: Action) -> tuple[Game, dict[str, Any]]:
    """`step` for an action a client sent: the rule it breaks is a `Refused` (409) in the rule's words."""
    try:
        return step(game, action)
    except IllegalAction as e:
        raise Refused(409, e.reason) from None


WAITING = _("waiting for players: the game starts when its open seats are taken")
"""Why nobody acts (nor resigns) while a seat is open."""
GAME_OVER = _("the game is over")
"""Why nothing is done in a finished game: no move, no resignation, no hint."""


def not_your_decision(deciding: int) -> Message:
    """What a seat is told when another decides now (people count seats from 1)."""
    return _("it is not your decision: Player {number} decides now", number=deciding + 1)


def whose_turn(live: LiveGame, seat: int, expect: int | None = None) -> None:
    """Refuse (409) a move for ``seat`` when the game is over, has moved past the ``expect`` actions its sender
    saw, or waits for another seat's decision."""
    still_as_seen(live, expect)
    if waiting_for_players(live.seats):
        raise Refused(409, WAITING)
    deciding = live.game.current_player
    if deciding is not None and seat != deciding:  # None: over, refused above
        raise Refused(409, not_your_decision(deciding))


def still_as_seen(live: LiveGame, expect: int | None = None) -> None:
    """Refuse (409) a seat's request when the game is over, or has moved past the ``expect`` actions its sender
    saw (a move, a resignation, an abort alike)."""
    if live.over or live.game.current_player is None:
        raise Refused(409, GAME_OVER)
    if expect is not None and expect != len(live.game.history):
        raise Refused(409, moved_on(len(live.game.history), expect))


def moved_on(actions: int, expected: int) -> Message:
    """Why a request made after ``expected`` actions is refused when the game has ``actions``."""
    return _n(
        "the game has moved on: {n} action, not {expected}",
        "the game has moved on: {n} actions, not {expected}",
        actions,
        expected=expected,
    )


RATED_AFTER_MOVES = 5
"""A person who leaves a rated game (resigns, runs out of time, sits idle) before this many moves of their own (any
action of theirs: a token returned or a noble chosen counts too) has not played it out, and it changes no rating,
as an abort does not. Nothing is decided in a Splendor game's first few turns, and a second account that left
after one move, game after game, farmed a rating from it."""


def left_too_soon(live: LiveGame, ending: Ending | None = None) -> bool:
    """Whether one of the game's accounts' people left it (resigned, ran out of time, sat idle; or ended it so,
    ``ending``) before their `RATED_AFTER_MOVES`-th move, or saw it end before their first: then it was not played
    by them, and a rated game changes no rating (`rating`)."""
    return any(s.account_id is not None and live.left_too_soon(s, ending) for s in live.seats)


def may_leave(live: LiveGame, seat: int, expect: int | None = None, aborting: bool = False) -> None:
    """Refuse (409) a seat's resignation, or with ``aborting`` its abort, when the game is over or has moved past
    the ``expect`` actions its sender saw; an abort, also once the seat has made a move (it may resign then), or
    while the game waits for players by a seat that took an open one (the game is its creator's to call off)."""
    still_as_seen(live, expect)
    if waiting_for_players(live.seats):
        if not aborting:
            raise Refused(409, WAITING)  # nobody to lose to yet: the seat may abort (call the game off) instead
        if live.seats[seat].joined:
            raise Refused(409, _("only the game's creator can call it off while it waits for players"))
    if aborting and live.has_moved(live.seats[seat]):
        raise Refused(409, _("a game can be aborted only before your first move: you may resign instead"))


def rating(live: LiveGame, after: Game, ending: Ending | None = None) -> Callable[[Connection], None] | None:
    """What the game's last action, or its ``ending``, also writes: the ratings of its accounts, when it was
    created to be rated. A game ended by an `Ending` is won by every seat but the one that lost by it. A game one
    of whose accounts' people left it (resigned, ran out of time, sat idle) before their fifth move
    (`RATED_AFTER_MOVES`), or never moved, was not played out by them, and changes no rating, as an abort does
    not: second accounts that resigned at once, or after one move, game after game, farmed a rating from it, in
    games of two and, their seats ranked last, of three or four. A game of three or four that the rules end is
    otherwise rated whoever left it: a seat that left ranks last."""
    if not live.rated:
        return None
    if left_too_soon(live, ending):
        return None
    seats = [
        RatedSeat(
            s.seat,
            account_id=s.account_id,
            forfeited=s.forfeited or (ending is not None and s.seat == ending.seat),
            bot_rating=BOT_RATINGS.get(s.bot or "") if s.kind == BOT and not s.forfeited else None,
        )
        for s in live.seats
    ]  # a forfeited seat is its person's, never a bot's
    winners = list(after.winners) if ending is None else [s.seat for s in live.seats if s.seat != ending.seat]
    return lambda conn: rate_game(conn, live.id, after.name, seats, winners)
