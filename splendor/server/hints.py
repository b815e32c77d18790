"""Advice for a seat in its decision: what the strongest bot would play (a hint), and why an action it is thinking
of would be refused (an explanation). Neither plays anything; both are for the seat alone (its secret checked by
the caller), since they can speak of its hidden cards.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from splendor.core.errors import IllegalAction
from splendor.i18n import Message, _
from splendor.server.bots import BotPool, WorkersStopped, bot_seed
from splendor.server.errors import Refused
from splendor.server.moves import GAME_OVER, WAITING, not_your_decision, whose_turn
from splendor.server.seating import waiting_for_players

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame

log = logging.getLogger("splendor.server")


async def hint(live: LiveGame, seat: int, pool: BotPool, client: str) -> dict[str, Any]:
    """What the strongest bot would play for ``seat`` in its decision now, and its estimated chance of winning. A
    position is searched once: asking again, or from another tab, gets the same answer, so hints cannot be used
    to load the search workers. None in a rated game (409)."""
    game = live.game
    if live.over:
        raise Refused(409, GAME_OVER)
    if live.rated:
        raise Refused(409, _("no hints in a rated game: the expert's advice would play it for you"))
    whose_turn(live, seat)
    number = len(game.history)
    known = live.hints.get(seat)
    if known is None or known[0] != number:
        task = asyncio.ensure_future(pool.hint(client, game.record.to_text(), bot_seed(live.id, number, live.bot_salt)))
        known = live.hints[seat] = (number, task)
    try:
        advice = await asyncio.shield(known[1])
    except Exception as e:
        if live.hints.get(seat) is known:  # asked again later, not for a newer position
            del live.hints[seat]
        if not isinstance(e, WorkersStopped):  # (the server stops: no failure)
            log.exception("game %s: the hint failed", live.id)
        raise Refused(503, _("no hint can be given now; try again in a moment")) from e
    return {**advice, "actions": number}


def explain(live: LiveGame, seat: int, texts: list[str]) -> dict[str, Message | str | None]:
    """Why each of ``texts`` would be refused for ``seat`` now, in the rules' words (None where it is legal),
    playing none of them: the table says why a click cannot make an action, next to what was clicked."""
    game = live.game
    reasons: dict[str, Message | str | None] = {}
    for text in texts:
        deciding = game.current_player
        if live.over or deciding is None:
            reasons[text] = GAME_OVER
        elif waiting_for_players(live.seats):
            reasons[text] = WAITING  # as acting would answer: nobody acts while a seat is open
        elif seat != deciding:
            reasons[text] = not_your_decision(deciding)
        else:
            try:
                reasons[text] = game.why_illegal(game.parse(text))
            except IllegalAction as e:
                reasons[text] = e.reason
    return reasons
