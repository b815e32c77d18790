"""What Splendor and Splendor: Pokémon share: a token supply, rows of face-up cards fed by their own decks,
taking tokens, reserving, buying (catching), returning tokens down to the limit, the final round.

`MarketGame` holds that state and those rules; a game subclasses it with its card data, its palette, its
notation words and what happens after the action (classic: nobles; Pokémon: evolution). Counts are plain
lists indexed by palette colour, the wild colour last; cards are integer ids into the game's card table.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from splendor.core.actions import Action
from splendor.core.colours import Palette
from splendor.core.game import Game
from splendor.core.rng import Rng
from splendor.core.tokens import payment, shortfall
from splendor.i18n import Message, _, _n

if TYPE_CHECKING:  # the notation imports the limits below from here: a name for the annotations only
    from splendor.games.market_notation import MarketLayout, MarketLookup

# Decision phases of a market game's turn. Games add their own from EXTRA_PHASE on.
MAIN, RETURN, OVER, EXTRA_PHASE = 0, 1, 2, 3

TOKEN_LIMIT = 10
RESERVE_LIMIT = 3
TAKE2_MINIMUM = 4  # tokens of a colour the supply must hold for taking two of it

Check = Callable[[Any, tuple[int, ...]], Message | None]
"""A rule check of one action kind: why the action with these arguments is illegal now, or None."""
Handler = Callable[[Any, tuple[int, ...]], None]
"""Carrying out one action kind with these arguments."""


@dataclass(frozen=True, slots=True)
class Card:
    """A card of a market game: where it is dealt, what it gives and what it costs.

    ``cost`` is indexed by palette colour; its last (wild) entry is paid with wild tokens only.
    """

    id: int
    row: int
    points: int
    bonus: int
    bonus_count: int
    cost: tuple[int, ...]


class MarketGame(Game):
    """The shared rules of the card-market games. See the module docstring."""

    palette: ClassVar[Palette]
    layout: ClassVar[MarketLayout]
    cards: ClassVar[tuple[Card, ...]]
    lookup: ClassVar[MarketLookup]
    buy_word: ClassVar[str] = "buy"
    win_points: ClassVar[int]
    tokens_per_colour: ClassVar[dict[int, int]]
    wild_tokens: ClassVar[int]

    # state
    supply: list[int]
    tokens: list[list[int]]
    bonuses: list[list[int]]
    points: list[int]
    bought: list[list[int]]
    reserved: list[list[int]]
    secret: set[int]
    rows: list[list[int]]
    decks: list[list[int]]
    seat: int
    phase: int
    turns: int
    final_round: bool
    first: int
    passes: int
    capped: bool
    stalled: bool
    _winners: list[int]

    # ----------------------------------------------------------------- options and setup

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        common = self._turn_options(options)
        if options:
            raise ValueError(
                f"{self.title} has no option {', '.join(sorted(options))}; its options are max_turns and first_player"
            )
        return common

    def _setup(self) -> None:
        rng = Rng(self.seed)
        n_colours = len(self.palette.names)
        per = self.tokens_per_colour[self.players]
        self.supply = [per] * (n_colours - 1) + [self.wild_tokens]
        self.tokens = [[0] * n_colours for _ in range(self.players)]
        self.bonuses = [[0] * (n_colours - 1) for _ in range(self.players)]
        self.points = [0] * self.players
        self.bought = [[] for _ in range(self.players)]
        self.reserved = [[] for _ in range(self.players)]
        self.secret = set()
        self.decks = []
        self.rows = []
        for r, size in enumerate(self.layout.sizes):
            deck = [c.id for c in self.cards if c.row == r]
            rng.shuffle(deck)
            self.rows.append([deck.pop() if deck else -1 for _ in range(size)])
            self.decks.append(deck)
        first = self.options["first_player"]
        self.first = rng.below(self.players) if first == "random" else first
        self.seat = self.first
        self.phase = MAIN
        self.turns = 0
        self.final_round = False
        self.passes = 0
        self.capped = False
        self.stalled = False
        self._winners = []
        self._setup_extra(rng)

    def _setup_extra(self, rng: Rng) -> None:
        """Lay out what the game adds to the market (classic: nobles)."""

    # ----------------------------------------------------------------- protocol

    @property
    def current_player(self) -> int | None:
        """In the market games every decision of a turn is made by the seat whose turn it is."""
        return None if self.phase == OVER else self.seat

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> list[int]:
        return list(self.points)

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def truncated(self) -> bool:
        return self.capped

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == MAIN:
            acts = self._main_actions()
            return acts if acts else [self.lookup.pass_]
        if phase == RETURN:
            give = self.lookup.give_back
            return [give[c] for c, n in enumerate(self.tokens[self.seat]) if n]
        if phase == OVER:
            return []
        return self._extra_actions()

    def _main_actions(self) -> list[Action]:
        return self.take_actions() + self._reserve_actions() + self.buy_actions()

    def take_actions(self) -> list[Action]:
        """Three tokens of different colours (fewer when fewer colours are left), or two of a colour with 4+."""
        lk = self.lookup
        sup = self.supply
        mask = 0
        for c in range(len(sup) - 1):
            if sup[c]:
                mask |= 1 << c
        acts = list(lk.take_by_mask[mask])
        for c in range(len(sup) - 1):
            if sup[c] >= TAKE2_MINIMUM:
                acts.append(lk.take2[c])
        return acts

    def _reserve_actions(self) -> list[Action]:
        lk = self.lookup
        acts: list[Action] = []
        if len(self.reserved[self.seat]) < RESERVE_LIMIT:
            rows, decks = self.rows, self.decks
            for r in self.layout.reservable:
                row = rows[r]
                res = lk.reserve[r]
                for s in range(len(row)):
                    if row[s] >= 0:
                        acts.append(res[s])
                if decks[r]:
                    acts.append(lk.reserve_deck[r])
        return acts

    def buy_actions(self) -> list[Action]:
        """The cards of the market and of the seat's reservations that it can pay for now."""
        lk = self.lookup
        seat = self.seat
        tok = self.tokens[seat]
        bon = self.bonuses[seat]
        wild = len(tok) - 1
        gold = tok[wild]
        have = [bon[c] + tok[c] for c in range(wild)]
        cards = self.cards

        def affordable(cid: int) -> bool:  # core.tokens.can_afford, unrolled over what is held (hot path)
            cost = cards[cid].cost
            need = cost[wild]
            for c in range(wild):
                d = cost[c] - have[c]
                if d > 0:
                    need += d
            return need <= gold

        acts = []
        buy = lk.buy
        rows = self.rows
        for r in range(len(rows)):
            row = rows[r]
            for s in range(len(row)):
                if row[s] >= 0 and affordable(row[s]):
                    acts.append(buy[r][s])
        for i, cid in enumerate(self.reserved[seat]):
            if affordable(cid):
                acts.append(lk.buy_reserved[i])
        return acts

    def _extra_actions(self) -> list[Action]:
        """Legal actions in a game's own phases."""
        raise AssertionError(f"no actions for phase {self.phase}")

    # ----------------------------------------------------------------- legality, in players' words

    def why_illegal(self, action: Action) -> Message | None:
        if self.phase == OVER:
            return _("the game is over")
        check = self._checks.get(action.kind)
        if check is None:
            return _("'{action}' is not an action of {game}", action=action.text, game=Message(self.title))
        return check(self, action.args)

    def _phase_problem(self, kind: str) -> Message | None:
        """Why an action of ``kind`` is out of place in the current phase, if it is."""
        phase = self.phase
        if phase == RETURN and kind != "return":
            n = sum(self.tokens[self.seat])
            if self.palette.counted_as_nouns:  # Pokémon's tokens are balls, as its rulebook says
                return _("you hold {n} balls; return balls down to {most} before anything else", n=n, most=TOKEN_LIMIT)
            return _("you hold {n} tokens; return tokens down to {most} before anything else", n=n, most=TOKEN_LIMIT)
        if phase == MAIN and kind == "return":
            if self.palette.counted_as_nouns:
                return _("balls are returned only when you hold more than {most} after your action", most=TOKEN_LIMIT)
            return _("tokens are returned only when you hold more than {most} after your action", most=TOKEN_LIMIT)
        if phase >= EXTRA_PHASE:
            return self._extra_phase_problem(kind)
        return None

    def _extra_phase_problem(self, kind: str) -> Message | None:
        return None

    def _check_take(self, args: tuple[int, ...]) -> Message | None:
        p = self._phase_problem("take")
        if p:
            return p
        for c in args:
            if not self.supply[c]:
                if self.palette.counted_as_nouns:
                    return _("there is no {ball} left in the supply", ball=self.palette.word(c))
                return _("there is no {colour} token left in the supply", colour=self.palette.word(c))
        if len(args) < 3:
            left = sum(1 for c in self.palette.plain if self.supply[c])
            if left >= 3 and self.palette.counted_as_nouns:
                return _(
                    "take 3 balls of different colours; fewer only when fewer than 3 colours are left in "
                    "the supply (there are {left})",
                    left=left,
                )
            if left >= 3:
                return _(
                    "take 3 tokens of different colours; fewer only when fewer than 3 colours are left in "
                    "the supply (there are {left})",
                    left=left,
                )
        return None

    def _check_take2(self, args: tuple[int, ...]) -> Message | None:
        p = self._phase_problem("take2")
        if p:
            return p
        c = args[0]
        if self.supply[c] < TAKE2_MINIMUM:
            return _(
                "take two of one colour needs at least 4 in the supply before taking; {colour} has {left}",
                colour=self.palette.word(c),
                left=self.supply[c],
            )
        return None

    def _row_word(self, r: int) -> Message:
        if self.layout.levels:  # Pokémon's rows are levels
            return _("level {level}", level=self.layout.labels[r])
        return _("tier {tier}", tier=self.layout.labels[r])

    def _check_reserve_limit(self) -> Message | None:
        if len(self.reserved[self.seat]) >= RESERVE_LIMIT:
            return _("you already hold {most} reserved cards, the most allowed", most=RESERVE_LIMIT)
        return None

    def _check_reserve(self, args: tuple[int, ...]) -> Message | None:
        r, s = args
        p = self._phase_problem("reserve") or self._check_reserve_limit()
        if p:
            return p
        if self.rows[r][s] < 0:
            return _("there is no card at {slot} to reserve", slot=self.layout.slot_text(r, s))
        return None

    def _check_reserve_deck(self, args: tuple[int, ...]) -> Message | None:
        p = self._phase_problem("reserve") or self._check_reserve_limit()
        if p:
            return p
        if not self.decks[args[0]]:
            return _("the {row} deck is empty", row=self._row_word(args[0]))
        return None

    def _cannot_afford(self, cid: int) -> Message | None:
        card = self.cards[cid]
        seat = self.seat
        tok, bon = self.tokens[seat], self.bonuses[seat]
        wild = self.palette.wild
        missing = shortfall(card.cost, bon, tok) - tok[wild]
        if missing <= 0:
            return None
        balls = self.palette.counted_as_nouns  # Pokémon: balls, and a card is caught
        if card.cost[wild] > tok[wild] and balls:
            return _n(
                "this Pokémon's cost includes {n} {wild}, which no bonus replaces; you hold {held}",
                "this Pokémon's cost includes {n} {wild}s, which no bonus replaces; you hold {held}",
                card.cost[wild],
                wild=self.palette.word(wild),
                held=tok[wild],
            )
        if card.cost[wild] > tok[wild]:
            return _n(
                "this card's cost includes {n} {wild} token, which no bonus replaces; you hold {held}",
                "this card's cost includes {n} {wild} tokens, which no bonus replaces; you hold {held}",
                card.cost[wild],
                wild=self.palette.word(wild),
                held=tok[wild],
            )
        if balls:
            return _n(
                "you cannot catch that Pokémon yet: it costs {cost}; after your bonuses you are {n} ball short",
                "you cannot catch that Pokémon yet: it costs {cost}; after your bonuses you are {n} balls short",
                missing,
                cost=self.palette.describe(card.cost),
            )
        return _n(
            "you cannot afford that card: it costs {cost}; after your bonuses you are {n} token short",
            "you cannot afford that card: it costs {cost}; after your bonuses you are {n} tokens short",
            missing,
            cost=self.palette.describe(card.cost),
        )

    def _check_buy(self, args: tuple[int, ...]) -> Message | None:
        r, s = args
        p = self._phase_problem("buy")
        if p:
            return p
        cid = self.rows[r][s]
        if cid < 0:
            return _("there is no card at {slot}", slot=self.layout.slot_text(r, s))
        return self._cannot_afford(cid)

    def _check_buy_reserved(self, args: tuple[int, ...]) -> Message | None:
        p = self._phase_problem("buy")
        if p:
            return p
        hand = self.reserved[self.seat]
        if args[0] >= len(hand):
            if not hand:
                return _("you have no reserved card {number}; you hold none", number=args[0] + 1)
            return _("you have no reserved card {number}; you hold {held}", number=args[0] + 1, held=len(hand))
        return self._cannot_afford(hand[args[0]])

    def _check_return(self, args: tuple[int, ...]) -> Message | None:
        p = self._phase_problem("return")
        if p:
            return p
        if not self.tokens[self.seat][args[0]]:
            if self.palette.counted_as_nouns:
                return _("you hold no {ball} to return", ball=self.palette.word(args[0]))
            return _("you hold no {colour} token to return", colour=self.palette.word(args[0]))
        return None

    def _check_pass(self, args: tuple[int, ...]) -> Message | None:
        if self.phase != MAIN or self._main_actions():
            return _("pass is allowed only when you have no other legal action")
        return None

    # ----------------------------------------------------------------- carrying out

    def _do(self, action: Action) -> None:
        self._handlers[action.kind](self, action.args)

    def _do_take(self, args: tuple[int, ...]) -> None:
        sup, tok = self.supply, self.tokens[self.seat]
        for c in args:
            sup[c] -= 1
            tok[c] += 1
        self._after_main()

    def _do_take2(self, args: tuple[int, ...]) -> None:
        c = args[0]
        self.supply[c] -= 2
        self.tokens[self.seat][c] += 2
        self._after_main()

    def _take_from_row(self, r: int, s: int) -> int:
        """Take the card at (r, s) and refill the slot from its deck at once."""
        row, deck = self.rows[r], self.decks[r]
        cid = row[s]
        row[s] = deck.pop() if deck else -1
        return cid

    def _reserve_card(self, cid: int) -> None:
        self.reserved[self.seat].append(cid)
        wild = self.palette.wild
        if self.supply[wild]:
            self.supply[wild] -= 1
            self.tokens[self.seat][wild] += 1

    def _do_reserve(self, args: tuple[int, ...]) -> None:
        self._reserve_card(self._take_from_row(*args))
        self._after_main()

    def _do_reserve_deck(self, args: tuple[int, ...]) -> None:
        cid = self.decks[args[0]].pop()
        self.secret.add(cid)
        self._reserve_card(cid)
        self._after_main()

    def _pay_for(self, cid: int) -> None:
        seat = self.seat
        card = self.cards[cid]
        tok = self.tokens[seat]
        paid = payment(card.cost, self.bonuses[seat], tok)
        assert paid is not None, "an unaffordable purchase passed its check"
        sup = self.supply
        for c, n in enumerate(paid):
            if n:
                tok[c] -= n
                sup[c] += n
        self.bought[seat].append(cid)
        self.bonuses[seat][card.bonus] += card.bonus_count
        self.points[seat] += card.points

    def _do_buy(self, args: tuple[int, ...]) -> None:
        self._pay_for(self._take_from_row(*args))
        self._after_main()

    def _do_buy_reserved(self, args: tuple[int, ...]) -> None:
        cid = self.reserved[self.seat].pop(args[0])
        self.secret.discard(cid)
        self._pay_for(cid)
        self._after_main()

    def _do_return(self, args: tuple[int, ...]) -> None:
        c = args[0]
        self.tokens[self.seat][c] -= 1
        self.supply[c] += 1
        if sum(self.tokens[self.seat]) <= TOKEN_LIMIT:
            self._after_returns()

    def _do_pass(self, args: tuple[int, ...]) -> None:
        self.passes += 1
        self._after_returns()

    def _after_main(self) -> None:
        self.passes = 0
        if sum(self.tokens[self.seat]) > TOKEN_LIMIT:
            self.phase = RETURN
        else:
            self._after_returns()

    def _after_returns(self) -> None:
        """What follows the action and the returns (a game's nobles or evolution); then the turn ends."""
        self._end_turn()

    def _still_to_come(self) -> bool:
        """Whether the game can still change with no seat taking an action (a noble due at a seat's next turn's
        end): then a round of passes does not stall it (ruling 4: a stalled game can never move again)."""
        return False

    def _end_turn(self) -> None:
        """End the seat's turn: the final round, the end of the game, the turn cap, the next seat."""
        seat = self.seat
        if self.points[seat] >= self.win_points:
            self.final_round = True
        self.turns += 1
        nxt = (seat + 1) % self.players
        if self.final_round and nxt == self.first:
            self._finish()
            return
        if self.passes >= self.players and not self.final_round and not self._still_to_come():
            # ruling 4: nobody can ever move again and nobody reached the target, so no winner. A seat that
            # reached it in the round of passes (a noble's visit) wins once the round is completed (ruling 2).
            self.stalled = True
            self.phase = OVER
            self._winners = []
            return
        cap = self.options["max_turns"]
        if cap is not None and self.turns >= cap:
            self.capped = True
            self.phase = OVER
            self._winners = []
            return
        self.seat = nxt
        self.phase = MAIN

    def _finish(self) -> None:
        self.phase = OVER
        self._winners = self._decide_winners()

    @abstractmethod
    def _decide_winners(self) -> list[int]:
        """The winning seats by the game's order of tie-breaks."""

    # ----------------------------------------------------------------- search

    def determinize(self, seat: int | None, rng: random.Random) -> Game:
        g: Any = self.clone()
        unseen = {c for s in range(self.players) if s != seat for c in self.reserved[s] if c in self.secret}
        for r in range(len(self.decks)):
            pool = sorted(self.decks[r] + [c for c in unseen if self.cards[c].row == r])
            rng.shuffle(pool)
            for s in range(self.players):
                if s == seat:
                    continue
                hand = g.reserved[s]
                for i, c in enumerate(hand):
                    if c in unseen and self.cards[c].row == r:
                        hand[i] = pool.pop()
            g.decks[r] = pool
        g.secret = {
            g.reserved[s][i] for s in range(self.players) for i, c in enumerate(self.reserved[s]) if c in self.secret
        }  # a secret slot stays secret, whichever card it now holds
        game: Game = g
        return game

    # ----------------------------------------------------------------- views

    def public_details(self, action: Action, after: Game) -> dict[str, Any]:
        """The card bought or reserved (never one from a deck), with the tokens a buy paid (``paid``: the wild
        ones where they stood in, which the card's cost does not say) and the wild token a reserve received
        (``received``): every seat sees the tokens change hands."""
        details: dict[str, Any] = {}
        if action.kind in ("buy", "reserve"):
            details["card"] = self._card_view(self.rows[action.args[0]][action.args[1]])
        elif action.kind == "buy_reserved":
            details["card"] = self._card_view(self.reserved[self.seat][action.args[0]])
        held, now = self.tokens[self.seat], cast(MarketGame, after).tokens[self.seat]
        if action.kind in ("buy", "buy_reserved"):
            details["paid"] = {n: held[c] - now[c] for c, n in enumerate(self.palette.names) if held[c] > now[c]}
        elif action.kind in ("reserve", "reserve_deck") and now[-1] > held[-1]:
            details["received"] = {self.palette.names[-1]: now[-1] - held[-1]}
        return details

    @abstractmethod
    def _card_view(self, cid: int) -> dict[str, Any]:
        """A card as JSON-ready data."""

    def _reserved_view(self, owner: int, viewer: int | None) -> list[dict[str, Any]]:
        out = []
        for cid in self.reserved[owner]:
            if cid in self.secret and viewer != owner:
                out.append({"hidden": True, "tier": self.cards[cid].row + 1})
            else:
                out.append(self._card_view(cid))
        return out

    def _market_view(self) -> tuple[dict[str, list[dict[str, Any] | None]], dict[str, int]]:
        market = {}
        decks = {}
        for r, lab in enumerate(self.layout.labels):
            market[lab] = [self._card_view(c) if c >= 0 else None for c in self.rows[r]]
            decks[lab] = len(self.decks[r])
        return market, decks

    def _base_view(self, seat: int | None) -> dict[str, Any]:
        """The keys every market game's view shares."""
        self._check_seat(seat)
        names = self.palette.names
        market, decks = self._market_view()
        seats = []
        for s in range(self.players):
            seats.append(
                {
                    "seat": s,
                    "tokens": dict(zip(names, self.tokens[s])),
                    "bonuses": dict(zip(names, self.bonuses[s])),
                    "points": self.points[s],
                    "cards": [self._card_view(c) for c in self.bought[s]],
                    "reserved": self._reserved_view(s, seat),
                }
            )
        current = self.current_player
        view: dict[str, Any] = {
            "game": self.name,
            "players": self.players,
            "viewer": seat,
            "current_player": current,
            "turn_of": None if self.phase == OVER else self.seat,
            "decision": self._decision_name(),
            "turn": self.turns + (0 if self.phase == OVER else 1),
            "round": self.turns // self.players + (0 if self.phase == OVER else 1),
            "first_player": self.first,
            "points_to_win": self.win_points,
            "final_round": self.final_round,
            "is_over": self.phase == OVER,
            "supply": dict(zip(names, self.supply)),
            "market": market,
            "decks": decks,
            "seats": seats,
            "legal_actions": ([a.text for a in self.legal_actions()] if seat is not None and seat == current else []),
        }
        if self.phase == OVER:
            view["result"] = self.result
        return view

    def _decision_name(self) -> str:
        return {MAIN: "action", RETURN: "return", OVER: "none"}.get(self.phase) or self._extra_decision_name()

    def _extra_decision_name(self) -> str:
        raise AssertionError(f"unknown phase {self.phase}")

    # ----------------------------------------------------------------- serialisation

    _SCALARS = ("seat", "phase", "turns", "final_round", "first", "passes", "capped", "stalled")
    _LISTS = ("supply", "tokens", "bonuses", "points", "bought", "reserved", "rows", "decks", "_winners")

    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = {k: getattr(self, k) for k in self._SCALARS}
        for k in self._LISTS:
            state[k.lstrip("_")] = getattr(self, k)
        state["secret"] = sorted(self.secret)
        return state

    def _restore(self, state: dict[str, Any]) -> None:
        for k in self._SCALARS:
            setattr(self, k, state[k])
        for k in self._LISTS:
            setattr(self, k, [list(x) if isinstance(x, list) else x for x in state[k.lstrip("_")]])
        self.secret = set(state["secret"])

    def _copy_state(self, other: Game) -> None:
        o: Any = other
        o.supply = self.supply[:]
        o.tokens = [t[:] for t in self.tokens]
        o.bonuses = [b[:] for b in self.bonuses]
        o.points = self.points[:]
        o.bought = [b[:] for b in self.bought]
        o.reserved = [r[:] for r in self.reserved]
        o.secret = set(self.secret)
        o.rows = [r[:] for r in self.rows]
        o.decks = [d[:] for d in self.decks]
        o.seat = self.seat
        o.phase = self.phase
        o.turns = self.turns
        o.final_round = self.final_round
        o.first = self.first
        o.passes = self.passes
        o.capped = self.capped
        o.stalled = self.stalled
        o._winners = self._winners[:]

    # kind → rule check / handler; games extend these dicts with their own kinds
    _checks: ClassVar[dict[str, Check]] = {
        "take": _check_take,
        "take2": _check_take2,
        "reserve": _check_reserve,
        "reserve_deck": _check_reserve_deck,
        "buy": _check_buy,
        "buy_reserved": _check_buy_reserved,
        "return": _check_return,
        "pass": _check_pass,
    }
    _handlers: ClassVar[dict[str, Handler]] = {
        "take": _do_take,
        "take2": _do_take2,
        "reserve": _do_reserve,
        "reserve_deck": _do_reserve_deck,
        "buy": _do_buy,
        "buy_reserved": _do_buy_reserved,
        "return": _do_return,
        "pass": _do_pass,
    }


def winners_by(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """The seats whose key is greatest (several when tied): keys encode the game's tie-break order."""
    best = max(keys)
    return [s for s, k in enumerate(keys) if k == best]
