"""Quick play: choose a game, a player count, a time control and rated or not, and be seated with waiting players
of a similar rating, or with bots of about your rating after a wait you choose.

A player's wish is a *seek* (`splendor.store.seeks`), kept in the store so that every process sees every seek.
Seeks are seated together only within one *pool*: the same game, player count, time control and rated flag. Two
seeks fit when their ratings (on the shown scale, `splendor.store.ratings.shown`; a guest or an account new to
the game counts as 1500) differ by no more than the smaller of their *windows*, and a window widens with the
wait: ``WINDOW_START + WINDOW_PER_SECOND · seconds waited`` (100 points at once, 200 after 10 s, 400 after 30 s,
700 after a minute; see docs/server.md for why). A group is the oldest waiting seek and the fitting seeks nearest
its rating, every two of them fitting, as many as the game seats. A seek that asked for a bot (``bot_after``)
and waited that long unseated is seated with the seeks that fit it and waited out their own ``bot_after`` too
(`with_bots`: in a game of three or four, people who fit sit together), and bots of about their strength fill the
rest (`bot_for`: by the μ of the ratings, not the cautious numbers shown).

Matching runs when a seek arrives and in a periodic sweep of every process (`QuickPlay.sweep`), which also
expires the seeks their players stopped asking about (``Settings.seek_seconds``). It seats each seek exactly once:
the game is written in the same transaction as its seeks' change from ``waiting`` to ``seated`` (conditional, under
an advisory lock on the pool on PostgreSQL; this process's matching runs one at a time, the only writer on SQLite),
and a game whose seeks were seated elsewhere first is not written. The game is made by `GameManager.start_game`,
the path of every new game, so it is a normal game afterwards; each seat's secret is its seek's, whose hash the
seek kept.

Churn is bounded: one waiting seek per account (a new one replaces it), a guest's new seek replaces only the seek
it shows it holds (``replaces``: its id and secret, which the page keeps), at most `GUESTS_WAITING` waiting guest
seeks per client address (guests behind one NAT do not cancel each other), at most ``Settings.seeks_per_minute``
new seeks per client address (429; counted in the transaction that keeps the seek, see `Seeks.add`), and no seek
from an address that has ``Settings.games_per_client`` unfinished games (429): a table with bots is written under
that bound for its first seeker's address (the others' were checked when they sought), so seeking with
``bot_after: 0`` cannot make bot games without end.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from splendor.bots.base import bot_display_name
from splendor.games import new_game
from splendor.i18n import _
from splendor.server import clocks
from splendor.server.bots import BOT_GAMES, BOT_RATINGS, SERVER_BOTS
from splendor.server.effects import effects_of
from splendor.server.errors import Refused
from splendor.server.guards import unfinished_games
from splendor.server.schemas import GameName, Name, WholeNumber
from splendor.server.seating import BOT, HUMAN, PLAY_UNDER_IT, refuse_a_reserved_name
from splendor.store.games import GameBounds, SeatInfo
from splendor.store.names import key_of
from splendor.store.open_seats import account_rating, account_strength
from splendor.store.secrets import new_secret, secret_hash, secret_matches
from splendor.store.seeks import MINUTE, SEATED, WAITING, Pool, SeekGone, SeekInfo, Seeks, TooManySeeks

if TYPE_CHECKING:
    from splendor.server.live import GameManager
    from splendor.store.accounts import SignedIn

log = logging.getLogger("splendor.server")

WINDOW_START = 100.0
"""Rating points two seeks may differ by as soon as they are made."""
WINDOW_PER_SECOND = 10.0
"""Points the window widens by for every second a seek waits."""
MAX_BOT_AFTER = 600
"""The longest wait a player may choose before a bot is seated instead (seconds)."""
GUESTS_WAITING = 4
"""The most waiting guest seeks from one client address (a household or a school behind one NAT)."""


class SeekRef(BaseModel):
    """A seek its player holds: its id and secret."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=32, max_length=32, pattern="^[0-9a-f]{32}$")
    secret: str = Field(min_length=1, max_length=200)


class QuickPlayRequest(BaseModel):
    """What a player wants to play now."""

    model_config = ConfigDict(extra="forbid")
    game: GameName
    players: Annotated[int, Field(ge=2, le=4), WholeNumber] = 2
    clock: str | None = Field(
        default=None, min_length=1, max_length=12, description="the time control (as a new game's), null: untimed"
    )
    rated: StrictBool = Field(default=False, description="only with the signed-in account")
    name: Name | None = Field(default=None, description="a guest's name (the signed-in account's name is used)")
    bot_after: Annotated[int, Field(ge=0, le=MAX_BOT_AFTER), WholeNumber] | None = Field(
        default=None, description="seconds of waiting after which bots of about your rating fill the game instead"
    )
    replaces: SeekRef | None = Field(default=None, description="the player's previous seek, cancelled by this one")


def window(seek: SeekInfo, now: float) -> float:
    """How far the ratings of the seeks ``seek`` may be seated with reach from its own, after its wait."""
    return WINDOW_START + WINDOW_PER_SECOND * max(0.0, now - seek.created)


def rating_of(seek: SeekInfo) -> float:
    """The rating a seeker is matched by: its account's, a guest's a newcomer's (1500)."""
    return seek.rating if seek.rating is not None else 1500.0


def fits(a: SeekInfo, b: SeekInfo, now: float) -> bool:
    """Whether two seeks may sit at one table now: within both of their windows."""
    return abs(rating_of(a) - rating_of(b)) <= min(window(a, now), window(b, now))


def groups(waiting: list[SeekInfo], players: int, now: float) -> list[list[SeekInfo]]:
    """The tables that can be seated now from one pool's ``waiting`` seeks (oldest first): the oldest seek with
    the fitting seeks nearest its rating, every two fitting, ``players`` of them; then again with those left."""
    left = list(waiting)
    tables: list[list[SeekInfo]] = []
    while left:
        anchor, others = left[0], left[1:]
        table = _around(anchor, others, players, now)
        if len(table) == players:
            tables.append(table)
            left = [s for s in left if s not in table]
        else:
            left = others  # nobody fits the oldest yet: the others may still fit one another
    return tables


def with_bots(anchor: SeekInfo, others: list[SeekInfo], players: int, now: float) -> list[SeekInfo]:
    """The people at ``anchor``'s table when its wait for people is over and bots fill the rest: it, and the
    seeks among ``others`` whose own wait for people is over too and that fit it and one another, nearest its
    rating first, as many as there are seats. Two seekers of a game of three are seated together with one bot,
    not each with two; a seek still waiting for people (a longer ``bot_after``) is not sat with bots early."""
    due = [s for s in others if s.bot_after is not None and now - s.created >= s.bot_after]
    return _around(anchor, due, players, now)


def _around(anchor: SeekInfo, others: list[SeekInfo], players: int, now: float) -> list[SeekInfo]:
    """``anchor`` and the seeks of ``others`` nearest its rating that fit it and one another, ``players`` at most,
    no two of one name or of names that read alike ("zoe" and "ZOE": the table and its chat would show two of one
    name, as an open seat's take refuses)."""
    table = [anchor]
    names = {key_of(anchor.name)}
    for seek in sorted(others, key=lambda s: abs(rating_of(s) - rating_of(anchor))):
        if len(table) == players:
            break
        if all(fits(seek, m, now) for m in table) and key_of(seek.name) not in names - {None}:
            table.append(seek)
            names.add(key_of(seek.name))
    return table


def bot_for(strength: float) -> str:
    """The server's bot whose fixed strength (the μ of `BOT_RATINGS`) is nearest ``strength``, a μ, among those
    that play every game (`BOT_GAMES`: not the learned one, which plays classic alone).

    Strengths, not the ratings people see: a shown rating is cautious (μ − 3σ), and a player's σ is far larger
    than a bot's until many games are played, so a newcomer (shown 1500, μ 25) was given the random bot (shown
    1412) when the greedy one (μ 24.2) is its match.

    >>> bot_for(25.0), bot_for(0.0), bot_for(100.0)
    ('greedy', 'random', 'ismcts:expert')
    """
    everywhere = [spec for spec in SERVER_BOTS if spec not in BOT_GAMES]
    return min(everywhere, key=lambda spec: (abs(BOT_RATINGS[spec][0] - strength), spec))


@dataclass(frozen=True)
class Seated:
    """Where a seek was seated."""

    game_id: str
    seat: int


class QuickPlay:
    """Quick play on this process: new seeks, their players' questions, and the matching."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.settings = manager.settings
        self.seeks = Seeks(manager.store.store)
        self._matching = asyncio.Lock()
        """This process matches one pool at a time (on SQLite, the only process, this alone orders it)."""

    async def seek(self, request: QuickPlayRequest, address_key: str, account: SignedIn | None) -> tuple[str, str]:
        """A new waiting seek (its id and secret, shown once), matched at once. Refused with nothing kept: rated
        without an account (401), a guest without a name, a time control or player count the game refuses
        (400), a ``replaces`` whose secret is wrong (403), too many seeks from the address this minute, too many
        guests waiting from it, or as many unfinished games from it as a client may have (429)."""
        name = request.game.value
        if request.rated and account is None:
            raise Refused(401, _("sign in to play rated games"))
        if account is None and request.name is None:
            raise Refused(400, _("give your name to play as a guest"))
        if account is None:
            refuse_a_reserved_name(str(request.name))
            await self.manager.refuse_an_account_name(str(request.name), PLAY_UNDER_IT)
        time_control = clocks.chosen(request.clock, self.settings.allow_short_clocks, 1)
        try:
            new_game(name, players=request.players)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        previous, ref = None, request.replaces
        if ref is not None:
            held = await self.manager.read_store(lambda: self.seeks.get(ref.id))
            if held is not None and not secret_matches(ref.secret, held.token_hash):
                raise Refused(403, _("wrong secret for the quick-play request to replace"))
            previous = ref.id if held is not None else None  # one that is gone (forgotten): nothing to replace
        unfinished, _bots = await self.manager.read_store(lambda: self.manager.store.unfinished_of(address_key))
        if unfinished >= self.settings.games_per_client:
            raise Refused(429, unfinished_games(unfinished))
        now = time.time()
        rating = (
            await self.manager.read_store(lambda: _rating(self.manager, account.id, name))
            if account is not None
            else 1500
        )
        secret = new_secret()
        seek = SeekInfo(
            id=uuid.uuid4().hex,
            pool=Pool(name, request.players, time_control, request.rated),
            name=account.name if account is not None else str(request.name),
            token_hash=secret_hash(secret),
            address_key=address_key,
            created=now,
            seen=now,
            account_id=account.id if account is not None else None,
            rating=float(rating),
            bot_after=request.bot_after,
        )
        replaced: list[list[str]] = []
        try:
            await self.manager.write_store(
                lambda: replaced.append(
                    self.seeks.add(seek, self.settings.seeks_per_minute, GUESTS_WAITING, previous=previous)
                )
            )
        except TooManySeeks as e:
            if e.why == MINUTE:
                raise Refused(
                    429, _("too many quick-play requests from your address: wait a minute"), retry_after=60
                ) from None
            raise Refused(
                429, _("too many guests wait for quick play from your address: wait until one is seated")
            ) from None
        if replaced and replaced[-1]:
            log.info("seek %s replaces %s", seek.id, ", ".join(replaced[-1]))
        log.info("seek %s: %s for %d, %s", seek.id, name, request.players, time_control or "untimed")
        await self.match(seek.pool)
        return seek.id, secret

    async def _mine(self, seek_id: str, token: str | None) -> SeekInfo:
        seek = await self.manager.read_store(lambda: self.seeks.get(seek_id)) if len(seek_id) == 32 else None
        if seek is None:
            raise Refused(404, _("no such quick-play request"))
        if not secret_matches(token, seek.token_hash):
            raise Refused(403, _("wrong or missing secret for this quick-play request"))
        return seek

    async def status(self, seek_id: str, token: str | None) -> dict[str, Any]:
        """Where a seek stands (its secret checked), as ``GET /api/quick-play/{id}`` answers it; a waiting seek
        is marked as asked about (not stale)."""
        seek = await self._mine(seek_id, token)
        now = time.time()
        if seek.status == WAITING:
            await self.manager.write_store(lambda: self.seeks.touch(seek_id, now))
            reach = window(seek, now)
            return {
                "status": WAITING,
                "waited": round(now - seek.created, 1),
                "rating": round(rating_of(seek)),
                "window": [round(rating_of(seek) - reach), round(rating_of(seek) + reach)],
                "bot_in": None if seek.bot_after is None else max(0, round(seek.bot_after - (now - seek.created))),
            }
        if seek.status == SEATED and seek.game_id is not None and seek.seat is not None:
            return {"status": SEATED, "game_id": seek.game_id, "seat": seek.seat}
        return {"status": seek.status}

    async def cancel(self, seek_id: str, token: str | None) -> None:
        """Cancel a waiting seek (its secret checked); 409 once it was seated (the game is there to play or
        resign). Cancelling a seek that expired or was cancelled changes nothing."""
        seek = await self._mine(seek_id, token)
        if seek.status == SEATED:
            raise Refused(409, _("you were seated already: play the game, or resign it"))
        done: list[bool] = []
        await self.manager.write_store(lambda: done.append(self.seeks.cancel(seek_id)))
        if not done[-1]:
            again = await self._mine(seek_id, token)
            if again.status == SEATED:
                raise Refused(409, _("you were seated already: play the game, or resign it"))

    # ----------------------------------------------------------------- matching

    async def sweep(self) -> None:
        """The periodic chore: expire the seeks nobody asked about for ``seek_seconds``, then match every pool
        that has waiting seeks (people with people, then those whose wait for a bot is over)."""
        stale = time.time() - self.settings.seek_seconds
        expired = await self.manager.read_store(lambda: self.seeks.expire(stale))
        if expired:
            log.info("%d quick-play seeks expired", expired)
        for pool in await self.manager.read_store(self.seeks.pools):
            await self.match(pool)

    async def match(self, pool: Pool) -> list[Seated]:
        """Seat what can be seated in ``pool`` now; returns where (each seek exactly once, see the module)."""
        seated: list[Seated] = []
        async with self._matching:
            now = time.time()
            waiting = await self.manager.read_store(lambda: self.seeks.waiting(pool, now - self.settings.seek_seconds))
            tables = groups(waiting, pool.players, now)
            placed = {s.id for table in tables for s in table}
            for seek in waiting:
                if seek.id not in placed and seek.bot_after is not None and now - seek.created >= seek.bot_after:
                    # its wait for people is over: those who fit it sit with it, and bots fill the rest
                    table = with_bots(
                        seek, [s for s in waiting if s.id not in placed and s is not seek], pool.players, now
                    )
                    tables.append(table)
                    placed.update(s.id for s in table)
            for table in tables:
                seated += await self._seat(pool, table)
        return seated

    async def _seat(self, pool: Pool, table: list[SeekInfo]) -> list[Seated]:
        """Start the game of one table (bots filling the seats no seek takes), its seeks seated in the same
        transaction; nothing when one of them is no longer waiting (seated elsewhere, cancelled, expired)."""
        effects = effects_of(pool.game)
        fillers = pool.players - len(table)
        try:
            strength = (
                await self.manager.read_store(lambda: _strength(self.manager, table, pool.game)) if fillers else 0.0
            )
        except Refused as e:  # the store is unavailable: the table waits for the next sweep
            log.warning("a quick-play table could not be seated: %s", e)
            return []
        bot = bot_for(strength)
        order: list[SeekInfo | None] = [*table, *([None] * fillers)]
        secrets.SystemRandom().shuffle(order)  # who sits first is chance's
        infos: list[SeatInfo] = []
        seats: dict[str, int] = {}
        for i, seek in enumerate(order):
            if seek is None:
                infos.append(SeatInfo(seat=i, kind=BOT, bot=bot, name=bot_display_name(bot), token_hash=None))
                continue
            seats[seek.id] = i
            infos.append(
                SeatInfo(
                    seat=i,
                    kind=HUMAN,
                    bot=None,
                    name=seek.name,
                    token_hash=seek.token_hash,  # the seek's secret is its seat's
                    account_id=seek.account_id,
                    profile=effects.account_profile(seek.name) if seek.account_id is not None else None,
                )
            )
        try:
            live = await self.manager.start_game(
                pool.game,
                infos,
                seed=None,
                options={},
                rated=pool.rated,
                owner=table[0].address_key,
                # a table with bots counts against its seeker's bound; one of people only is never refused for
                # a player's count (each was under it when seeking)
                bounds=GameBounds(self.settings.games_per_client, self.settings.bot_games_per_client)
                if len(table) < pool.players
                else None,
                time_control=pool.time_control,
                also=lambda conn, game_id: Seeks.claim(conn, pool, seats, game_id),
            )
        except SeekGone as e:
            log.info("a quick-play table was not seated: seek %s is no longer waiting", e)
            return []
        except Refused as e:
            log.warning("a quick-play table could not be seated: %s", e)
            if e.status == 429:  # the table's first seeker (its bound counted) made games meanwhile, up to it
                lone = table[0].id

                def drop() -> None:
                    self.seeks.cancel(lone)

                await self.manager.write_store(drop)
            return []
        log.info("quick play seated game %s: %s", live.id, ", ".join(s.id for s in table))
        self.manager.pushes.turn_began(live)
        return [Seated(live.id, seat) for seat in seats.values()]


def _strength(manager: GameManager, table: list[SeekInfo], game: str) -> float:
    """The mean strength (μ) in ``game`` of the seekers at ``table``, a guest's a newcomer's."""
    with manager.store.store.engine.connect() as conn:
        return sum(account_strength(conn, seek.account_id, game) for seek in table) / len(table)


def _rating(manager: GameManager, account_id: int, game: str) -> int:
    with manager.store.store.engine.connect() as conn:
        return account_rating(conn, account_id, game)
