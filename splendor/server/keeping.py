"""Keeping a seat: a signed-in account takes a seat whose link it was sent, or a seat is linked to the Pokédex
profile its holder proves they own.

A kept seat is played from any browser of the account, counts for its rating and, in Pokémon, marks its own
Pokédex. In a rated game a seat is kept only before the first move (`KEPT_BEFORE_PLAY`), so that whether the game
counts is settled before anyone knows how it goes. Each is a conditional write of the store, refused (409) when
another process changed the seat or began the game first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from splendor.i18n import _
from splendor.server import access
from splendor.server.effects import effects_of
from splendor.server.errors import Refused
from splendor.server.moves import GAME_OVER
from splendor.server.seating import proved_profile
from splendor.server.watchers import broadcast
from splendor.store.secrets import new_secret, secret_hash

if TYPE_CHECKING:
    from splendor.server.cache import LiveGame
    from splendor.server.live import GameManager
    from splendor.store.accounts import SignedIn

KEPT_SEAT_POKEDEX = _("this seat is kept in an account: it marks the account's own Pokédex")
"""Why a seat kept in an account is linked to no other Pokédex profile."""
KEPT_BEFORE_PLAY = _(
    "a rated game's seats are kept before its first move, so that whether it counts is settled before anyone "
    "knows how it goes; the link still plays this seat"
)
"""Why a seat of a rated game cannot be kept once the game has begun."""


class SeatKeeping:
    """Seats kept in accounts, and seats linked to Pokédex profiles, in the games of this process."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.store = manager.store

    async def give_seat(
        self, game_id: str, seat: int, token: str | None, account: SignedIn
    ) -> tuple[LiveGame, str | None]:
        """Let the signed-in account hold a seat whose secret it shows (a link a friend sent): from then on it
        plays the seat from any browser, the game counts for its rating, and in Pokémon marks its Pokédex. In a
        rated game only before its first move (409 `KEPT_BEFORE_PLAY` after it): a rated game counts only when
        every person's seat is kept, so a keep later would let a player choose, once they see how the game goes,
        whether it counts.

        The seat gets a new secret, returned (None when the account kept it already): the link that was used
        stops working, and every socket that read the seat by it is closed, so whoever else held the link (the
        game's creator) can neither play the seat nor see its hidden cards any more."""
        live = await self.manager.get(game_id)
        access.check_seat(live, seat, token, account)
        info = live.seats[seat]
        if info.account_id == account.id:
            return live, None
        if info.account_id is not None:
            raise Refused(409, _("this seat is already kept in another account"))
        if any(s.account_id == account.id for s in live.seats):
            raise Refused(409, _("you have a seat in this game already"))  # one person, one seat: as taking one
        if live.over:
            raise Refused(409, GAME_OVER)
        fresh = new_secret()
        caught_up = False  # moves of other processes applied here: told to the watchers even if refused
        try:
            async with live.lock:
                caught_up = await self.manager.catch_up(live)
                if live.rated and live.game.history:
                    raise Refused(409, KEPT_BEFORE_PLAY)
                profile = effects_of(live.game.name).account_profile(account.name)
                if not await self.manager.write_game(
                    live,
                    lambda: self.store.give_seat(
                        game_id, seat, account.id, profile, secret_hash(fresh), account.name, unplayed=live.rated
                    ),
                ):
                    if live.rated and await self.manager.catch_up(live):  # the first move came in meanwhile, elsewhere
                        caught_up = True
                        raise Refused(409, KEPT_BEFORE_PLAY)
                    live.seats = await self.manager.read_store(lambda: self.store.seats(game_id))
                    if any(s.account_id == account.id for s in live.seats):  # kept another seat meanwhile
                        raise Refused(409, _("you have a seat in this game already"))
                    raise Refused(409, _("this seat is already kept in another account"))
                live.seats = await self.manager.read_store(lambda: self.store.seats(game_id))
        except Refused:
            if caught_up:
                self.manager.after_change(live)
            raise
        access.drop_unauthorised_watchers(live)
        broadcast(live)
        return live, fresh

    async def link_profile(
        self,
        game_id: str,
        seat: int,
        token: str | None,
        profile: str,
        secret: str | None,
        account: SignedIn | None = None,
    ) -> LiveGame:
        """Link a seat to the Pokédex profile its holder proves they own: the game marks it when it ends. Not a seat
        kept in an account: it marks the account's own Pokédex, and only such seats do."""
        live = await self.manager.get(game_id)
        access.check_seat(live, seat, token, account)
        async with live.lock:
            if live.over:
                raise Refused(409, _("the game is over: its Pokédex marks are already given"))
            if live.seats[seat].account_id is not None:
                raise Refused(409, KEPT_SEAT_POKEDEX)
            name = await proved_profile(effects_of(live.game.name), seat, profile, secret, self.manager.proved)
            assert name is not None  # a profile was asked for
            if not await self.manager.write_game(live, lambda: self.store.set_profile(game_id, seat, name)):
                raise Refused(409, KEPT_SEAT_POKEDEX)  # kept in an account meanwhile, by another process
            live.seats = [replace(s, profile=name) if s.seat == seat else s for s in live.seats]
        broadcast(live)
        return live
