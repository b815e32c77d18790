"""A review of a finished game: the expert's estimate of each move, from the mover's view only.

For every move of the record, the expert (the level that hints, ``hint.HINT_LEVEL``) searches the position
before it for the seat that moved, through that seat's `Decision` (``decision_for``): the search deals anew
every card that seat could not see, so the review knows no more than the mover did. From the root of that
search come the expert's preferred move and the mover's chance with it (``chance_before``) and, for the move
played, the mover's chance after it (``chance_after``); their difference is the move's ``loss``, marked by
`MARKS`.

**The move played.** Its mean value at the root is used when it has at least `PLAYED_VISITS` visits (or is the
preferred move itself, which then loses nothing). A move the
search thought poor has few visits and a noisy mean (biased low, too: a move abandoned after unlucky playouts is
never corrected), so then the position after it is searched from the mover's view as well, once for each of
`AFTER_DEALS` deals of what the mover could not see before moving (the card that refills the display is one of
them, so the move's value is an expectation over it, as the other moves' values are, not a verdict of the luck
of the draw), the root's budget shared out among them. The mover's chance there is the root's value when the
mover decides again (returning tokens, choosing a noble), and one minus the opponent's value in a two-player
game (each seat's values there are shares of one win, so they add up to one). With three or four players the
other seats' values say nothing of the mover's, so then the position before is searched again with
`TOP_UP` times the budget and the played move's visits of both searches are pooled; if it still has none, its
chance is unknown (None: no loss, no mark). A move that ends the game has the result for its value (public,
exact).

**Each seat's chance** after every move (``MoveReview.chances``, the graph): the mover's is its chance after the
move; in a two-player game the other seat's is one minus it; with three or four players each other seat keeps
its last estimate (its chance after its own last move, 1 / players before it has moved), since a search values
the position for the seat that decides only. Each point is the mover's estimate, from the mover's view.

**Which games.** A game over by its rules, or one ended outside them whose record says how (`Record.ending`: a
resignation, an abort, a time out, as the server's records keep them; a bot's forfeit, as the arena's do): then
the moves that were played are reviewed, and nothing hidden is still in play either way (`reviewable`). Each
move's review depends only on the record, the budget, the seed and the move's number (`review_move`), so the
server reviews a game a move at a time in its bot workers and `assemble` makes the same `Review` of them as
`review` does.

    >>> import splendor
    >>> from splendor.bots.greedy import GreedyBot
    >>> from splendor.sim import play_out
    >>> game = play_out(splendor.new_game("classic", players=2, seed=1), [GreedyBot(seed=1), GreedyBot(seed=2)])
    >>> done = review(game, iterations=30)
    >>> len(done.moves) == len(game.history), done.moves[-1].chances == done.final
    (True, True)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from splendor.bots.base import Decision, decision_for
from splendor.bots.hint import HINT_LEVEL, judge
from splendor.core.actions import Action
from splendor.core.game import Game
from splendor.core.record import Record
from splendor.games import replay
from splendor.i18n import Message, _
from splendor.search.reference import SearchResult, outcome

INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
"""The marks' thresholds: how far a move let the mover's win chance fall below the expert's preferred move's.

As lichess marks chess moves by the fall of the winning chances (0.1, 0.2 and 0.3 on its scale of −1 to 1), a fall
of 10, 20 and 30 points of the chance to win makes an inaccuracy, a mistake and a blunder. They are twice
lichess's in probability because a second's search of a card game is a rougher judge than a chess engine (its
estimates move by a few points between seeds, and the luck of the deck is in every value): a mark should be a
fall that a player can see on reflection, not noise."""

MARKS = ((BLUNDER, "blunder"), (MISTAKE, "mistake"), (INACCURACY, "inaccuracy"))
"""Each mark by its threshold, the gravest first."""

MARK_WORDS = {"blunder": _("blunder"), "mistake": _("mistake"), "inaccuracy": _("inaccuracy")}
"""Each mark in words (a message of the catalogs)."""

PLAYED_VISITS = 50
"""The visits from which the played move's mean at the root is its value: with values spread by at most about a
quarter, its standard error is then under 0.04, well under the smallest mark."""

AFTER_DEALS = 4
"""How many deals of what the mover could not see the position after a little-visited move is searched on."""

TOP_UP = 4
"""With three or four players, the budget (times the first) of the second search of a little-visited move."""


def percent(chance: float) -> int:
    """A chance as the whole percent the review and the hint show, in the terminal and on the page alike: from its
    thousandths (as the JSON keeps it), a half rounded up (the page's ``wholePercent`` in ``common.js`` rounds
    the same way; Python's own ``:.0%`` rounds a half to even, and the two showed 62% and 63% for one move).

    >>> percent(0.625), percent(0.6244), percent(0.375), percent(1.0)
    (63, 62, 38, 100)
    """
    return (round(round(chance, 3) * 1000) + 5) // 10


def mark_for(loss: float) -> str | None:
    """The mark of a move that lost ``loss`` of the mover's win chance (None below `INACCURACY`).

    >>> mark_for(0.05), mark_for(0.1), mark_for(0.25), mark_for(0.4)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    for threshold, mark in MARKS:
        if loss >= threshold - 1e-9:
            return mark
    return None


class NotFinished(ValueError):
    """A review asked of a game that is not over: its hidden cards are still in play."""

    def __init__(self) -> None:
        self.reason: Message = _("the game is not over: a review waits for its end, while cards are still hidden")
        super().__init__(str(self.reason))


@dataclass(frozen=True)
class MoveReview:
    """One move in review: its ``number`` (1 for the first action), the ``seat`` that made it, the move
    ``played``; the mover's chance with the expert's preferred move ``best`` (``chance_before``) and after the
    move played (``chance_after``; None when the search could not tell), the ``loss`` between them (never below
    0) and its ``mark``; how the played move's value was found (``source``: ``root`` its mean at the root,
    ``after`` the search of the position after it, ``pooled`` two searches of the position before, ``end`` the
    result of the game it ended, ``unknown``) and its ``visits`` at the root; and each seat's chance after the
    move (``chances``, the graph: see the module)."""

    number: int
    seat: int
    played: str
    best: str
    chance_before: float
    chance_after: float | None
    loss: float
    mark: str | None
    source: str
    visits: int
    chances: list[float] = field(default_factory=list)
    played_card: dict[str, Any] | None = None
    best_card: dict[str, Any] | None = None
    """The card each move takes where everyone sees it (a market's slot, a reserved card played; never one from a
    deck), so that the review names it, not only its slot."""

    @property
    def best_chance(self) -> float:
        """The mover's chance with the expert's preferred move (``chance_before``)."""
        return self.chance_before

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, the chances rounded to three places."""
        return {
            "number": self.number,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "chance_before": round(self.chance_before, 3),
            "chance_after": None if self.chance_after is None else round(self.chance_after, 3),
            "loss": round(self.loss, 3),
            "mark": self.mark,
            "source": self.source,
            "visits": self.visits,
            "chances": [round(c, 3) for c in self.chances],
            "played_card": self.played_card,
            "best_card": self.best_card,
        }


@dataclass(frozen=True)
class Review:
    """A finished game in review: its ``record``, each seat's chance before the first move (``start``), every
    move's `MoveReview`, and how it was searched (``level``, ``iterations`` a position: None for the level's
    own budget, ``seed``)."""

    record: Record
    start: list[float]
    moves: list[MoveReview]
    level: str
    iterations: int | None
    seed: int
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        """How many seats played."""
        return self.record.players

    @property
    def final(self) -> list[float]:
        """Each seat's chance after the last move (its share of the result)."""
        return self.moves[-1].chances if self.moves else list(self.start)

    def graph(self) -> list[list[float]]:
        """Each seat's chance, move by move: ``graph()[seat]`` starts before the first move and has one point
        after each move."""
        points = [self.start, *(m.chances for m in self.moves)]
        return [[p[s] for p in points] for s in range(self.players)]

    def marked(self, seat: int | None = None) -> list[MoveReview]:
        """The marked moves (of ``seat``, or of every seat), in order."""
        return [m for m in self.moves if m.mark is not None and (seat is None or m.seat == seat)]

    def summary(self) -> list[dict[str, Any]]:
        """Per seat: its moves, how many of each mark, and its mean loss a move."""
        out = []
        for s in range(self.players):
            mine = [m for m in self.moves if m.seat == s]
            out.append(
                {
                    "seat": s,
                    "moves": len(mine),
                    **{mark: sum(m.mark == mark for m in mine) for _t, mark in reversed(MARKS)},
                    "mean_loss": round(sum(m.loss for m in mine) / len(mine), 3) if mine else 0.0,
                }
            )
        return out

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: what the page draws (the graph, the marks, the expert's moves) and how it was searched."""
        return {
            "game": self.record.game,
            "players": self.players,
            "seed": self.record.seed,
            "options": self.record.options,
            "result": self.result,
            "level": self.level,
            "iterations": self.iterations,
            "review_seed": self.seed,
            "thresholds": {mark: threshold for threshold, mark in MARKS},
            "start": [round(c, 3) for c in self.start],
            "graph": [[round(c, 3) for c in line] for line in self.graph()],
            "summary": self.summary(),
            "moves": [m.as_dict() for m in self.moves],
        }


def review(
    record_or_game: Record | Game | str,
    iterations: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a finished game (a `Record`, its text, or a `Game`): each move's `MoveReview` by the expert
    (its level's budget a position, about a second, or ``iterations``), reproducible with ``seed``. Each
    position is searched with its own seed (made of ``seed`` and the move's number), so a move's review does not
    depend on the others'. ``progress(done, total)`` is called after each move. `NotFinished` for a game that is
    not over (`reviewable`); `ValueError` (``IllegalAction``) for a record that does not replay."""
    record = record_or_game.record if isinstance(record_or_game, Game) else record_or_game
    if isinstance(record, str):
        record = Record.from_text(record)
    end = replay(record)
    if not reviewable(record, end):
        raise NotFinished
    moves: list[MoveReview] = []
    total = len(end.history)
    for number in range(1, total + 1):
        moves.append(review_move(record, number, iterations=iterations, seed=seed))
        if progress is not None:
            progress(number, total)
    return assemble(record, moves, iterations=iterations, seed=seed)


def reviewable(record: Record, end: Game | None = None) -> bool:
    """Whether ``record`` (replayed: ``end``) may be reviewed: its game is over by the rules, or it was ended
    outside them (its notes say how, `Record.ending`: a resignation, an abort, a time out, a bot's forfeit), so that
    nothing hidden is still in play."""
    end = replay(record) if end is None else end
    return end.is_over or record.ending() is not None


def review_move(record: Record | str, number: int, iterations: int | None = None, seed: int = 0) -> MoveReview:
    """The review of move ``number`` (1 for the first) of ``record``, as `review` makes it (the same seed), with
    ``chances`` left empty (`assemble` fills them): a review's moves may be reviewed one at a time, in any
    order or process, and assembled into the same `Review`."""
    if isinstance(record, str):
        record = Record.from_text(record)
    if not 1 <= number <= len(record.actions):
        raise ValueError(f"move {number} is not in a record of {len(record.actions)} actions")
    game = replay(record, upto=number - 1)
    return review_position(game, record.actions[number - 1], iterations=iterations, seed=_position_seed(seed, number))


def assemble(record: Record, moves: list[MoveReview], iterations: int | None = None, seed: int = 0) -> Review:
    """The `Review` of ``record`` from its moves' reviews (`review_move`, in order): each seat's chance after
    every move (the graph; see the module) and before the first."""
    end = replay(record)
    players = record.players
    last: list[float] = [1.0 / players] * players
    start: list[float] = []
    done: list[MoveReview] = []
    for move in moves:
        if not start:
            start = _chances(players, move.seat, move.chance_before, last)
        chances = outcome(end) if move.source == "end" else _chances(players, move.seat, move.chance_after, last)
        last = chances
        done.append(replace(move, chances=chances))
    result = end.result if end.is_over else {"ending": record.ending(), "actions": len(end.history)}
    return Review(record, start or list(last), done, HINT_LEVEL, iterations, seed, result)


def review_position(
    game: Game, played: Action | str, iterations: int | None = None, seed: int = 0, number: int | None = None
) -> MoveReview:
    """The review of one move: ``played`` by the seat to decide in ``game``, judged by the expert from that
    seat's view only (``chances`` left empty: the graph is the whole review's). ``number`` defaults to the
    move's place in the game's history."""
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: there is no move to review")
    action = game.own_action(played)
    if not game.is_legal(action):
        raise ValueError(f"{action.text} is not legal for seat {seat} here")
    number = len(game.history) + 1 if number is None else number
    rng = random.Random(seed)
    decision = decision_for(game)
    result = _search(decision, rng, iterations)
    best, _v, before = result.actions[0]
    visits, mean = _stats(result, action)
    after: float | None
    ended = game.after(action)
    if ended.is_over:  # who won a finished game is public
        after, source = outcome(ended)[seat], "end"
    elif visits >= PLAYED_VISITS or action == best:  # the preferred move's value is its root mean, as before
        after, source = mean, "root"
    else:
        after, source = _after_search(decision, action, rng, result.iterations), "after"
        if after is None:
            extra = _search(decision, rng, TOP_UP * result.iterations)
            more, more_mean = _stats(extra, action)
            pooled = visits + more
            after = (visits * mean + more * more_mean) / pooled if pooled else None
            source = "pooled" if pooled else "unknown"
    loss = max(0.0, before - after) if after is not None else 0.0
    played_card = _taken_card(game, action, ended, played=True)
    best_card = played_card if best == action else _taken_card(game, best, game.after(best), played=False)
    return MoveReview(
        number=number,
        seat=seat,
        played=action.text,
        best=best.text,
        chance_before=before,
        chance_after=after,
        loss=loss,
        mark=mark_for(loss),
        source=source,
        visits=visits,
        played_card=played_card,
        best_card=best_card,
    )


TAKES_A_CARD = ("buy", "buy_reserved", "reserve")
"""The kinds of action that take a card everyone may see them take (an evolution's card is said by its own words)."""


def _taken_card(game: Game, action: Action, after: Game, played: bool) -> dict[str, Any] | None:
    """The card ``action`` takes in ``game`` as everyone saw it; None for any other action, and for a move not
    ``played`` that buys a card reserved face down from a deck: nobody else ever saw that card, and only the move
    that buys it shows it."""
    if action.kind not in TAKES_A_CARD:
        return None
    if not played and action.kind == "buy_reserved":
        seen = game.view(None)["seats"][game.current_player]["reserved"][action.args[0]]
        if seen.get("hidden"):
            return None
    card: dict[str, Any] | None = game.public_details(action, after).get("card")
    return card


def _search(position: Decision, rng: random.Random, iterations: int | None) -> SearchResult:
    """The expert's search of ``position`` (``iterations``, or the level's budget), seeded from ``rng``."""
    return judge(rng.getrandbits(63), iterations).search(position)


def _redeal(state: Game, seat: int) -> Callable[[random.Random], Game]:
    """A sampler of ``state`` as ``seat`` sees it: what the seat cannot see dealt anew at each call."""
    return lambda rng: state.determinize(seat, rng)


def _after_search(decision: Decision, action: Action, rng: random.Random, budget: int) -> float | None:
    """The mover's chance after ``action``: the position after it searched from the mover's view, on
    `AFTER_DEALS` deals of what the mover could not see before moving, ``budget`` iterations in all; None when
    another seat decides next in a game of more than two (see the module)."""
    assert decision.sample is not None
    seat = decision.seat
    each = max(1, budget // AFTER_DEALS)
    values = []
    for _deal in range(AFTER_DEALS):
        state = decision.sample(rng)
        state.apply(action)  # legal in every deal: what the mover may do depends on what it sees
        if state.is_over:
            values.append(outcome(state)[seat])
            continue
        decider = state.current_player
        assert decider is not None
        if decider != seat and state.players > 2:
            return None
        # The deal after the move, searched from the mover's view: what it cannot see is dealt anew each time.
        after = Decision(state.name, seat, state.view(seat), state.legal_actions(), _redeal(state, seat))
        value = _search(after, rng, each).win_chance
        values.append(value if decider == seat else 1.0 - value)
    return sum(values) / len(values)


def _stats(result: SearchResult, action: Action) -> tuple[int, float]:
    """``action``'s visits and mean value at the root of ``result``."""
    for found, visits, mean in result.actions:
        if found == action:
            return visits, mean
    return 0, 0.0


def _chances(players: int, seat: int, chance: float | None, last: list[float]) -> list[float]:
    """Each seat's chance when ``seat``'s is ``chance`` (None: unchanged) and the others' last were ``last``."""
    out = list(last)
    if chance is not None:
        out[seat] = chance
        if players == 2:
            out[1 - seat] = 1.0 - chance
    return out


def _position_seed(seed: int, number: int) -> int:
    """The search seed of move ``number`` of a review seeded with ``seed``."""
    digest = hashlib.blake2b(f"review:{seed}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
