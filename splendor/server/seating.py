"""A new game's seats, from the request as the API's schema read it (`splendor.server.schemas.NewGame`).

The schema has checked every field already (the game is one of the registry's, each seat a person or one of the
server's bots, names by the one rule of names, options of the right kinds); what is left are the checks that need
more than one field, the signed-in account or the store: whether a seed may be chosen, whether the game can be
rated, one seat kept in the account at most, a Pokédex profile only where the game keeps one and only with its
secret. Each person's seat gets a new secret, answered once and stored only as a hash.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from splendor.bots.base import bot_display_name
from splendor.games import game_class
from splendor.i18n import LANGUAGES, Listing, Message, _, translate
from splendor.server.bots import BOT_GAMES, SERVER_BOTS, plays
from splendor.server.errors import Refused
from splendor.store.accounts import SignedIn
from splendor.store.games import SeatInfo
from splendor.store.names import BadName, key_of
from splendor.store.secrets import new_secret, secret_hash

if TYPE_CHECKING:
    from splendor.server.effects import GameEffects
    from splendor.server.schemas import NewGame

HUMAN, BOT, OPEN = "human", "bot", "open"
"""The kinds of seat: a person's, one of the server's bots', or open: a person's seat that nobody holds yet, which
anyone may take (`splendor.server.open_seats`) until the game's ``open_until``."""

KEPT_FOR_REMATCH = _(
    "this seat is kept for whoever played it in the game before: they take it with Accept the rematch, at that "
    "game's end"
)
"""Why nobody else takes, or plays, a rematch's open seat (`splendor.server.rematches`)."""

DEFAULT_BOT = "greedy"
"""A bot seat's bot when the request names none."""

Proved = Callable[[str, str | None], Awaitable[str | None]]
"""Asks the store whether a secret proves a Pokédex profile: the profile's own name if it does, else None."""


def rated_and_seeded(request: NewGame, account: SignedIn | None, allow_chosen_seeds: bool) -> bool:
    """Whether the new game is rated (None in the request: when the signed-in creator keeps a seat and chose no
    seed), once the seed and the rating agree with the seats: a chosen seed only where at most one person plays
    (unless the server allows it everywhere), a rated game dealt by the server and played by someone."""
    people = sum(s.kind in (HUMAN, OPEN) for s in request.seats)
    if request.seed is not None and people > 1 and not allow_chosen_seeds:
        raise Refused(
            400,
            _(
                "a seed may be chosen only when one person plays (practice, puzzles): with two or "
                "more people, whoever chose it would know every deck"
            ),
        )
    rated = request.rated
    if rated is None:
        rated = request.seed is None and account is not None and any(s.mine for s in request.seats)
    if rated and request.seed is not None:
        raise Refused(400, _("a rated game is dealt by the server: choose no seed, or play it unrated"))
    if rated and people == 0:
        raise Refused(400, _("a game between bots only is never rated"))
    if rated and any(s.kind == OPEN for s in request.seats) and not (account and any(s.mine for s in request.seats)):
        # listed as rated, it would be taken by accounts only, and count for nobody unless its creator signed in
        raise Refused(400, _("a rated game with open seats is created signed in, keeping your own seat in it"))
    return rated


async def seats(
    request: NewGame, account: SignedIn | None, effects: GameEffects, proved: Proved
) -> tuple[list[SeatInfo], dict[int, str]]:
    """The seats of the new game, and each person's seat's secret (by seat). A person's seat marked ``mine``
    belongs to the signed-in ``account``: it shows the account's name, is played from any browser, and marks the
    account's Pokédex where the game keeps one."""
    infos: list[SeatInfo] = []
    secrets: dict[int, str] = {}
    for i, spec in enumerate(request.seats):
        if spec.kind == HUMAN:
            display = spec.name
            profile = await proved_profile(effects, i, spec.profile, spec.profile_secret, proved)
            holder = None
            if spec.mine:
                if account is None:
                    raise Refused(401, _("sign in to keep a seat in your account"))
                if any(x.account_id is not None for x in infos):
                    raise Refused(400, _("only one seat of a game can be yours"))
                holder = account.id
                display = account.name  # a seat of an account shows the account's name
                profile = profile or effects.account_profile(account.name)
            secrets[i] = new_secret()
            infos.append(
                SeatInfo(
                    seat=i,
                    kind=HUMAN,
                    bot=None,
                    name=display,
                    token_hash=secret_hash(secrets[i]),
                    profile=profile,
                    account_id=holder,
                )
            )
        elif spec.kind == OPEN:
            if spec.profile is not None or spec.mine or spec.bot is not None or spec.name is not None:
                said = _(
                    "Player {number}'s seat is open: whoever takes it gives its name, account and Pokédex", number=i + 1
                )
                raise Refused(400, said)
            infos.append(SeatInfo(seat=i, kind=OPEN, bot=None, name=None, token_hash=None))
        else:
            if spec.profile is not None or spec.mine:
                said = _(
                    "Player {number}'s seat is a bot: only a person's seat keeps a Pokédex or an account", number=i + 1
                )
                raise Refused(400, said)
            bot = spec.bot or DEFAULT_BOT
            if not plays(bot, request.game.value):
                games = Listing(_(game_class(game).title) for game in BOT_GAMES[bot])
                raise Refused(
                    400,
                    _("Player {number}'s seat: the bot {bot} plays only {games}", number=i + 1, bot=bot, games=games),
                )
            own = bot_display_name(bot)
            if spec.name is not None and is_a_bots_name(spec.name) and key_of(spec.name) != key_of(own):
                # a random bot called "Expert bot" would tell whoever joins a strength it does not have
                raise Refused(
                    400, _("Player {number}'s seat: a bot is called by its own name, {bot}", number=i + 1, bot=own)
                )
            infos.append(SeatInfo(seat=i, kind=BOT, bot=bot, name=spec.name or own, token_hash=None))
    if any(s.kind == OPEN for s in infos) and not any(s.kind == HUMAN for s in infos):
        # nobody could call it off while it waits (a creator's seat does): it would sit in the lobby until its
        # open seats expired, counted against its creator's bound all that time; quick play seats strangers
        raise Refused(400, _("a game with open seats needs a person's seat of its creator's, who may call it off"))
    return infos, secrets


PLAY_UNDER_IT = _("this name belongs to an account: sign in to play under it")
"""Why a guest may not take a seat or seek a game under a name an account holds
(`GameManager.refuse_an_account_name`)."""

A_BOTS_NAME = _("this name is a bot's: choose another")
"""Why an account, a guest taking a seat or seeking a game, or a spectator in the chat may not be called as one of
the server's bots is, in any case or look-alike letters: a person would pass for a bot on the table, in the chat
and on the leaderboard. (A new game's creator may name its own seats as it likes: they are all its; but a bot's
seat is never called by another bot's name, which would tell a joiner a strength the bot does not have.)"""

_BOT_NAME_KEYS = frozenset(
    key_of(translate(Message(bot_display_name(bot)), language)) for bot in SERVER_BOTS for language in LANGUAGES
) - {None}
"""The bots' names as the pages show them, in every language ("Greedy bot", "Požrešni bot", "专家机器人"): an account
called "Strokovni bot" sat as the expert on a Slovenian reader's table."""


def _said(name: str) -> str:
    """A name as it reads: compatibility forms made plain (NFKC), case folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


A_SEATS_NAME = _("this name is how a table calls a seat without a name: choose another")
"""Why no person is called "Player 2" (in any of the pages' languages): they would pass for that seat's person."""

_SEAT_NAMES = frozenset(
    _said(translate(_("Player {number}", number=number), language)) for number in range(1, 5) for language in LANGUAGES
)
"""A table's names of the seats without one, as `_said` writes them. Not by the look-alike key, which drops spaces:
"player1" is a name people take, and reads as a name, not as the first seat."""


def refuse_a_reserved_name(name: str) -> None:
    """Refuse (409) a person's name that would pass for someone else's wherever it shows: a bot's ("Greedy bot", in
    any case or look-alike letters), or a seat's as a table calls one without a name ("Player 2", "Igralec 2", in any
    case). For an account, a Pokédex profile, a guest taking a seat or seeking a game, and a spectator in the chat.

    >>> refuse_a_reserved_name("PLAYER 3")
    Traceback (most recent call last):
    ...
    splendor.server.errors.Refused: this name is how a table calls a seat without a name: choose another
    """
    if is_a_bots_name(name):
        raise Refused(409, A_BOTS_NAME)
    if _said(name) in _SEAT_NAMES:
        raise Refused(409, A_SEATS_NAME)


def is_a_bots_name(name: str) -> bool:
    """Whether ``name`` reads as one of the server's bots' names ("Greedy bot", "GREEDY BOT", ...).

    >>> is_a_bots_name("greedy BOT"), is_a_bots_name("greedy")
    (True, False)
    """
    return key_of(name) in _BOT_NAME_KEYS


def waiting_for_players(seats: list[SeatInfo]) -> bool:
    """Whether a game still has an open seat: then nobody acts, no bot moves and no clock runs."""
    return any(s.kind == OPEN for s in seats)


async def proved_profile(
    effects: GameEffects, seat: int, profile: str | None, secret: str | None, proved: Proved
) -> str | None:
    """The Pokédex profile a seat is linked to, once its secret is checked (None when none is asked)."""
    if profile is None:
        return None
    if not effects.keeps_pokedex:
        raise Refused(400, _("only Splendor: Pokémon keeps a Pokédex"))
    try:
        owned = await proved(profile, secret)  # never an account's profile
    except BadName as e:
        raise Refused(400, _("Player {number}: {reason}", number=seat + 1, reason=e.reason)) from None
    if not owned:
        raise Refused(
            403,
            _("Player {number}: wrong or missing secret for the profile {profile}", number=seat + 1, profile=profile),
        )
    return owned
