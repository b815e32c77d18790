"""The shapes of what the API takes and answers, as pydantic models: they are its OpenAPI schema, so the schema
says exactly what is accepted (names, bots, options, whole numbers), and what is refused and why."""

from __future__ import annotations

import math
from enum import Enum
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool
from pydantic_core import PydanticCustomError

from splendor.core.game import SEED_BITS
from splendor.games import GAMES
from splendor.games.kids.board import SHIPPED_SIDES
from splendor.i18n import LANGUAGES
from splendor.server.bots import SERVER_BOTS
from splendor.store.names import MAX_TYPED, NAME_RULE, BadName, check_name


def _whole_number(value: Any) -> Any:
    """JSON's idea of a whole number: an integer, or a number with no fraction (``7.0``); never text or a bool."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a whole number")
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise ValueError("must be a whole number")
        return int(value)
    return value


WholeNumber = BeforeValidator(_whole_number)
"""Makes an integer field read what JSON Schema calls an integer (``7``, ``7.0``) and refuse ``"7"``, ``true`` and
``7.5``."""


def _digits(value: Any) -> Any:
    """A whole number in a query string, written as one: digits only (``7``; not ``7.0``, ``+7`` or ``7e0``)."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        raise ValueError("must be a whole number of 0 or more, written in digits (7, not -7, 7.0 or +7)")
    return value


QueryWhole = BeforeValidator(_digits)
"""Makes an integer query parameter refuse what lax parsing would read as one (``upto=1.0`` was taken as 1): the
docs' 422 for a number that is not whole, as a JSON body's `WholeNumber` refuses ``7.5``."""
SeatInPath = Annotated[int, Path(ge=0, le=3), QueryWhole]
"""A seat in a route's path (``/seats/{seat}/...``), written in digits as a query's numbers are: ``1.0`` and ``+1``
had been read as seat 1 (``01`` is digits, and seat 1)."""

# mypy takes an Enum's members only from a literal; these are made from the lists they name.
Language = Enum("Language", {code: code for code in LANGUAGES}, type=str)  # type: ignore[misc]  # from a list
"""A language the project speaks, by its code: en, sl, ko, zh."""
GameName = Enum("GameName", {name: name for name in GAMES}, type=str)  # type: ignore[misc]  # from the registry
"""A game of the registry (`splendor.games.GAMES`), by its name: classic, pokemon, kids."""

Seed = Annotated[int, Field(ge=0, le=2**SEED_BITS - 1), WholeNumber]  # exact in JSON numbers and JavaScript alike
SeatNumber = Annotated[int, Field(ge=0, le=3), WholeNumber]
MaxTurns = Annotated[int, Field(ge=1, le=100_000), WholeNumber]
ActionCount = Annotated[int, Field(ge=0), WholeNumber]
"""A number of actions a client saw: a whole number, as every number of a body is (``7`` or ``7.0``; not ``7.5``,
``"7"`` or ``true``). It alone had refused ``7.0``, where the seat beside it in the same request took ``1.0``."""
ActionText = Annotated[str, Field(min_length=1, max_length=80)]
"""An action in the game's notation, e.g. ``take r b k``."""


class Problem(BaseModel):
    """Why a request was refused, in words a person can act on. Nothing changed."""

    detail: str


_WHY = {
    400: "Malformed: bad options, an unknown bot, malformed action text.",
    401: "Not signed in, or a wrong name or password.",
    403: "A wrong or missing secret (a seat's or a profile's); acting for a bot's seat.",
    404: "No such game or seat.",
    409: "Refused by the rules or the game's state (the rule's words), out of turn, `expect` behind the game.",
    413: "The request body is over the server's limit.",
    429: "Too many requests from this address, or too many unfinished games created by it.",
    503: "The store is unavailable (locked, full, unreachable or silent): try again. A write that got no answer in "
    "time may still have been saved: reload to see.",
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of a route's refusals; every route can also meet 413, 429 and 503."""
    return {
        status: {
            "model": Problem,
            "description": _WHY[status],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        for status in sorted({*statuses, 413, 429, 503})
    }


CROSS_SITE = "Sent with the session cookie from another site's page (`SameOriginMiddleware`)."
"""Why any state-changing request may be refused (403), whatever its route."""
_ALSO_CROSS_SITE = f" Or: {CROSS_SITE[0].lower()}{CROSS_SITE[1:]}"


def with_cross_site_refusals(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (an OpenAPI document) with the 403 that every POST, PUT, PATCH and DELETE may get, from the
    middleware rather than the route, in each such operation's refusals (said again where a route has its own 403)."""
    for operations in schema.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in ("post", "put", "patch", "delete"):
                continue
            responses = operation.setdefault("responses", {})
            if "403" in responses:
                if _ALSO_CROSS_SITE not in responses["403"]["description"]:  # the schema is kept: said once
                    responses["403"]["description"] += _ALSO_CROSS_SITE
            else:
                responses["403"] = {
                    "description": CROSS_SITE,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
                }
    return schema


def _valid_name(value: str) -> str:
    """The name normalised as the store keeps it, or a 422 that says why not: the very rule the server and the
    store apply (`splendor.store.names.check_name`), so a name the schema takes is never refused later."""
    try:
        return check_name(value)
    except BadName as e:
        # the reason is kept whole in the context, so that the 422 says it in the reader's language (api.invalid)
        raise PydanticCustomError("name", "{reason} ({rule})", {"reason": e.reason, "rule": NAME_RULE}) from None


Name = Annotated[str, Field(min_length=1, max_length=MAX_TYPED, description=NAME_RULE), AfterValidator(_valid_name)]
"""A seat's, a profile's or an account's name: 1-40 letters, digits, spaces or .'-_, starting with a letter or
digit, no invisible characters (`splendor.store.names`); normalised (NFKC) once read."""
# NAME_RULE (imported above) is what a name refused by a URL path's pattern is told in a 422.

# mypy reads a Literal's values only when they are written out; these are the tuples that list them.
BotName = Literal[SERVER_BOTS]  # type: ignore[valid-type]  # the tuple lists them
SideName = Literal[SHIPPED_SIDES]  # type: ignore[valid-type]  # the tuple lists them


class SeatSpec(BaseModel):
    """One seat of a new game."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot", "open"] = Field(
        description="a person's seat, a bot's, or open: a seat nobody holds yet, which anyone may take "
        "(POST /api/games/{id}/seats/{seat}/take) until the game's open seats expire"
    )
    bot: BotName | None = Field(default=None, description="a bot seat's bot (greedy when left out)")
    name: Name | None = Field(default=None, description="shown to the others")
    profile: Name | None = Field(
        default=None, description="Pokémon: the Pokédex profile this seat marks when the game ends (with its secret)"
    )
    profile_secret: str | None = Field(
        default=None, max_length=100, description="the profile's secret, from POST /api/profiles"
    )
    mine: StrictBool = Field(
        default=False,
        description="the seat belongs to the signed-in account (one seat "
        "at most): it plays it from any browser, the game counts "
        "for its rating and marks its Pokédex",
    )


class GameOptions(BaseModel):
    """A new game's options. Which ones a game has is its rules' business: one it has not is refused (400)."""

    model_config = ConfigDict(extra="forbid")
    max_turns: MaxTurns | None = Field(
        default=None, description="a turn cap: the game ends there as truncated, with no winner (ruling 4)"
    )
    first_player: Literal["random"] | SeatNumber = Field(
        default=0, description="the seat that starts, or random (ruling 1)"
    )
    short: StrictBool = Field(default=False, description="Kids: the short game, sections A1 and A3")
    mysteries: StrictBool = Field(default=False, description="Kids: the Mysteries in the Kingdom variant")
    board: list[SideName] | None = Field(
        default=None,
        min_length=2,
        max_length=3,
        description="Kids: the board's sides in order, e.g. A1-front, A2-back, A3-front (random when left out)",
    )


class NewGame(BaseModel):
    """A game to create: which game, its seats in order, its options."""

    model_config = ConfigDict(extra="forbid")
    game: GameName
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    options: GameOptions = Field(default_factory=GameOptions)
    seed: Seed | None = Field(
        default=None,
        description="only for a game with at most one person (practice, puzzles): whoever "
        "chooses the seed knows every deck",
    )
    rated: StrictBool | None = Field(
        default=None,
        description="whether the game can change ratings: dealt by the server (no seed), no "
        "hints, a person idle past the limit loses; by default when the signed-in "
        "creator keeps a seat and chooses no seed",
    )
    clock: str | None = Field(
        default=None,
        min_length=1,
        max_length=12,
        description="the time control (none: untimed): M+S, a bank of M minutes a seat (1-180) and S seconds added "
        "after each of its turns (0-180), e.g. 5+10; or 1d, 2d, 3d, days a move (correspondence). The server "
        "alone counts time; the person to move who runs out loses (two players) or is played on by a bot",
    )


class Move(BaseModel):
    """An action in the game's notation, and how many actions its sender saw: what every action carries, sent by
    HTTP (`ActionRequest`) or on a game's WebSocket (`SocketAction`), read by this one model."""

    action: ActionText
    expect: ActionCount | None = Field(
        default=None, description="the number of actions you saw; refused if the game has moved on since"
    )


class ActionRequest(Move):
    """An action for a seat, in the game's notation."""

    model_config = ConfigDict(extra="forbid")
    seat: SeatNumber


class SocketAction(Move):
    """An action sent on a seat's WebSocket (the socket's seat plays it): ``{"type": "action", "action", "expect"?}``;
    other keys are ignored."""

    type: Literal["action"]


class Leave(BaseModel):
    """A seat resigning or aborting its game, and how many actions its sender saw (optional): refused if the game
    has moved on since, so that a click made on an older position does nothing."""

    model_config = ConfigDict(extra="forbid")
    expect: ActionCount | None = Field(
        default=None, description="the number of actions you saw; refused if the game has moved on since"
    )


class ExplainRequest(BaseModel):
    """Actions a seat is thinking of, to be told why each would be refused now."""

    model_config = ConfigDict(extra="forbid")
    actions: list[ActionText] = Field(min_length=1, max_length=32)


class ProfileRequest(BaseModel):
    """A Pokédex profile to claim."""

    model_config = ConfigDict(extra="forbid")
    name: Name


class ProfileLink(BaseModel):
    """A Pokédex profile for a seat, with the secret that proves it is the seat holder's."""

    model_config = ConfigDict(extra="forbid")
    profile: Name
    secret: str = Field(min_length=1, max_length=100)


class SignUp(BaseModel):
    """A new account."""

    model_config = ConfigDict(extra="forbid")
    name: Name
    password: str = Field(min_length=8, max_length=200)
    pokedex_secret: str | None = Field(
        default=None,
        max_length=100,
        description="the secret of a Pokédex profile of the same name claimed before, to make it the account's",
    )


class SignIn(BaseModel):
    """A name and its password."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=MAX_TYPED)  # any text: a name that is no name is a 401
    password: str = Field(min_length=1, max_length=200)


class NewPassword(BaseModel):
    """A new password, with the one it replaces."""

    model_config = ConfigDict(extra="forbid")
    old: str = Field(min_length=1, max_length=200)
    new: str = Field(min_length=8, max_length=200)


class AccountDeletion(BaseModel):
    """The password of the account to delete, shown again."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(min_length=1, max_length=200)


RATING_SCALE = (
    "an Elo-like number: 1500 for a newcomer, and a difference of 200 between two settled players means "
    "the stronger wins about 76 games in 100 (the OpenSkill ordinal μ − 3σ mapped linearly: "
    "`splendor.store.ratings.shown`)"
)


class GameRating(BaseModel):
    """An account's rating in one game."""

    rating: int = Field(description=RATING_SCALE)
    games: int = Field(description="the rated games it played")


class Me(BaseModel):
    """Who is signed in."""

    name: str
    ratings: dict[str, GameRating] = Field(description="by game (classic, pokemon, kids), only those played rated")
    games: list[dict[str, Any]] = Field(
        description="the games whose seats the account keeps, those where it is its turn first (the least time "
        "left first), then newest first: id, game, seat (0-based), status, actions, created_at, your_turn, to_move "
        "(the seat to move), time_control, seconds_left (the person to move's time, by the server's clock; null "
        "when untimed)"
    )


class Session(BaseModel):
    """Who is signed in in this browser, if anyone: what the pages ask, where a guest is no error."""

    account: Me | None = Field(description="as `GET /api/me` answers; null for a guest")


class LeaderboardLine(BaseModel):
    """One account on a leaderboard."""

    rank: int = Field(description="1 for the best")
    name: str
    rating: int = Field(description=RATING_SCALE)
    games: int = Field(description="the rated games it played")


class Leaderboard(BaseModel):
    """The best-rated accounts of a game, best first."""

    game: GameName
    players: list[LeaderboardLine]


class RatingChangeLine(BaseModel):
    """What a finished game did to one seat's account."""

    seat: int = Field(description="the seat's index, 0-based (people see seat 0 as Player 1)")
    name: str = Field(description="the account's name")
    before: int = Field(description=RATING_SCALE + ", before the game")
    after: int = Field(description="the same, after it")
    change: int = Field(description="after − before")


class RatingChanges(BaseModel):
    """What a finished game did to its accounts' ratings."""

    over: bool
    rated: bool = Field(
        description="false when it counted for none (a person without an account, no winner, not "
        "created rated), or is not over"
    )
    unplayed: bool = Field(
        default=False,
        description="a rated game not rated because one of its people left it (resigned, ran out of time, sat "
        "idle) before their fifth move, or saw it end before their first, as an aborted game is not",
    )
    changes: list[RatingChangeLine]
