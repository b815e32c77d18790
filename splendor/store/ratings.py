"""Ratings: an OpenSkill (Plackett–Luce) rating per account and per game, updated once when a rated game ends.

A game is rated when it was created to be rated (a seed the server chose, no hints: `splendor.server.live`), every
person's seat belongs to an account (at least one, each account once) and it has a winner; bots take part with fixed
ratings that games never change, so a game against them counts as well. The update is written in the transaction that
commits the game's last action, so it happens exactly once, whichever process accepts that action.

What players see is not (μ, σ) but one number on an Elo-like scale (`shown`): 1500 for a newcomer, and rating
differences that read like Elo differences. It is the conservative ordinal μ − 3σ mapped linearly, so it is a
cautious estimate: a newcomer's 1500 says "not known yet", and a player who keeps the same strength still climbs a
little as the games make the server surer (σ shrinks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce
from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from splendor.store.database import Store
from splendor.store.models import Account, RatingChange, RatingRow

MODEL = PlackettLuce()
NEW = (MODEL.mu, MODEL.sigma)
"""A newcomer's (μ, σ): 25 and 25/3."""

NEWCOMER = 1500
"""What a newcomer's rating shows: the Elo-like scale's start."""

ELO_PER_POINT = 400 / (math.log(10) * math.sqrt(2) * MODEL.beta)
"""How many points of the shown scale one point of OpenSkill's ordinal (μ − 3σ) is worth: about 29.5.

OpenSkill's Plackett–Luce model, which makes the updates, says a player A beats B with probability
``1 / (1 + exp(-(μA − μB) / c))``, ``c = sqrt(2β² + σA² + σB²)``; for settled ratings (σ small beside the
default β = 25/6) ``c`` is ``√2·β``. Elo says ``1 / (1 + 10^(-D / 400)) = 1 / (1 + exp(-D·ln 10 / 400))`` for a
difference of ``D`` points. The two agree when ``D = Δμ · 400 / (ln 10 · √2 · β)``: so with this factor, 200
points between two settled players mean what they mean in Elo (the stronger wins about 76 games in 100).
"""


def elo_like(ordinal: float) -> int:
    """An OpenSkill ordinal (μ − 3σ) on the Elo-like scale people know: ``1500 + ELO_PER_POINT · ordinal``,
    rounded to a whole number. A newcomer's ordinal is 0 (25 − 3 · 25/3), so a newcomer shows 1500.

    >>> elo_like(0), elo_like(-3), elo_like(10)
    (1500, 1412, 1795)
    """
    return round(NEWCOMER + ELO_PER_POINT * ordinal)


def shown(mu: float, sigma: float) -> int:
    """The rating people see: the conservative ordinal μ − 3σ on the Elo-like scale (`elo_like`).

    >>> shown(*NEW)
    1500
    """
    return elo_like(mu - 3 * sigma)


@dataclass(frozen=True)
class RatedSeat:
    """A seat of a finished game as rating sees it: an account, or a bot with its fixed rating."""

    seat: int
    account_id: int | None = None
    bot_rating: tuple[float, float] | None = None
    forfeited: bool = False
    """The person left (idle past the limit): the seat ranks last, whatever a bot made of it afterwards."""


def rated(seats: list[RatedSeat], winners: list[int]) -> bool:
    """Whether a finished game changes ratings: a winner, every seat an account or a bot, each account once."""
    accounts = [s.account_id for s in seats if s.account_id is not None]
    return (
        bool(winners)
        and bool(accounts)
        and len(set(accounts)) == len(accounts)
        and all(s.account_id is not None or s.bot_rating is not None for s in seats)
    )


def rate_game(conn: Connection, game_id: str, game: str, seats: list[RatedSeat], winners: list[int]) -> None:
    """Within the transaction that ends the game: update its accounts' ratings and record each change (nothing
    when the game is not rated). The winners rank first, together; the others second; a seat that forfeited,
    last.

    A newcomer's row is first written with the newcomer's rating if it is missing (``ON CONFLICT DO NOTHING``),
    then every row is read locked and updated: two games of one new account ending at once take turns on its
    row instead of both inserting it, which refused the second game's last action (a duplicate key)."""
    if not rated(seats, winners):
        return
    accounts = sorted(s.account_id for s in seats if s.account_id is not None)  # locked in one order: no deadlock
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(
        dialect.insert(RatingRow)
        .values([{"account_id": a, "game": game, "mu": NEW[0], "sigma": NEW[1], "games": 0} for a in accounts])
        .on_conflict_do_nothing()
    )
    query = select(RatingRow).where(RatingRow.game == game, RatingRow.account_id.in_(accounts))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()  # two games ending at once read the same ratings in turn
    known = {r.account_id: (r.mu, r.sigma) for r in conn.execute(query)}
    before: list[tuple[float, float]] = []
    for s in seats:
        rating = known[s.account_id] if s.account_id is not None else s.bot_rating
        assert rating is not None, "rated() admits only accounts and bots with fixed ratings"
        before.append(rating)
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[3 if s.forfeited else 1 if s.seat in winners else 2 for s in seats])
    for s, (mu0, sigma0), (new,) in zip(seats, before, after):
        if s.account_id is None:
            continue  # a bot's rating is fixed
        conn.execute(
            update(RatingRow)
            .where(RatingRow.account_id == s.account_id, RatingRow.game == game)
            .values(mu=new.mu, sigma=new.sigma, games=RatingRow.games + 1)
        )
        conn.execute(
            insert(RatingChange).values(
                game_id=game_id,
                seat=s.seat,
                account_id=s.account_id,
                mu_before=mu0,
                sigma_before=sigma0,
                mu_after=new.mu,
                sigma_after=new.sigma,
            )
        )


class Ratings:
    """Reads ratings: the leaderboard of a game, an account's ratings, what a game changed."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def leaderboard(self, game: str, limit: int = 100) -> list[dict[str, object]]:
        """The best-rated accounts of ``game``, best first: name, rating, games."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(Account.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .join(Account, Account.id == RatingRow.account_id)
                .where(RatingRow.game == game)
                .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), Account.name)
                .limit(limit)
            )
            return [
                {"rank": i + 1, "name": name, "rating": shown(mu, sigma), "games": games}
                for i, (name, mu, sigma, games) in enumerate(rows)
            ]

    def of_account(self, account_id: int) -> dict[str, dict[str, int]]:
        """An account's rating in each game it has played rated: ``{game: {"rating", "games"}}``."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
                    RatingRow.account_id == account_id
                )
            )
            return {game: {"rating": shown(mu, sigma), "games": games} for game, mu, sigma, games in rows}

    def changes(self, game_id: str) -> list[dict[str, object]]:
        """What a finished game did to its accounts' ratings, by seat (empty when it was not rated)."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(
                    RatingChange.seat,
                    Account.name,
                    RatingChange.mu_before,
                    RatingChange.sigma_before,
                    RatingChange.mu_after,
                    RatingChange.sigma_after,
                )
                .join(Account, Account.id == RatingChange.account_id)
                .where(RatingChange.game_id == game_id)
                .order_by(RatingChange.seat)
            )
            out = []
            for seat, name, mu0, s0, mu1, s1 in rows:
                old, new = shown(mu0, s0), shown(mu1, s1)
                out.append({"seat": seat, "name": name, "before": old, "after": new, "change": new - old})
            return out
