"""Splendor Kids: travelers race from the Port to the Palace of Splendor, paying resources along one-way roads.

Every rule of ``shared/rules/kids-rulebook.txt`` (with the "Mysteries in the Kingdom of Splendor" variant) and
rulings 1-8 and 18-25. A turn is one main action (take tokens, or move along one road paying its banner), then
whatever it sets off, each decision taken by the seat it belongs to: returning tokens over the purse's 8 (the
receiver of a Kind-Hearted Thief's gift included), a Drought's discards, the Thief's gift, a Marketplace City
tile, a Queen's Medal; a village grants an extra turn within the same turn.

The steps still to happen are a queue (``pending``): each is either automatic or waits for one seat's decision,
so an action never has to know what follows it.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations
from typing import Any, ClassVar

from splendor.core.actions import Action
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.core.rng import Rng
from splendor.games.kids import notation
from splendor.games.kids.board import SECTIONS, SHIPPED_SIDES, SIDES, Board, BoardError, Road, assemble, check_side
from splendor.games.kids.notation import (
    ACTIONS,
    GOLD,
    MARKET_SLOTS,
    MAX_TREASURES,
    MEDALS,
    PALETTE,
    PAYMENTS,
    RESOURCE_COUNT,
    TREASURE,
    banner_counts,
    payments,
)
from splendor.i18n import N_, Listing, Message, _, _n

PURSE_LIMIT = 8
DROUGHT_LIMIT = 5
CITY_TILES_PER_COLOUR = 4
VILLAGE_TILES = ("tornado", "treasure", "treasure", "drought", "drought", "thief", "thief", "queens_gem")
EFFECT_NAMES = {
    "tornado": "Tornado",
    "treasure": "Treasure",
    "drought": "Drought",
    "thief": "Kind-Hearted Thief",
    "queens_gem": "Queen's Gem",
}


def _board_option(board: Any) -> list[Any] | None:
    """Normalise the ``board`` option: None, or a list of sides, each a shipped side name (``A1-front``) or a
    side's data (a dict, as ``board.read_side`` reads it from a file), checked here.

    The game never opens a file: a caller that may read files (the command line) reads them first, so the record
    carries the data and replays without them, and nothing given to a game (over the server, say) names a path.
    """
    if board is None:
        return None
    if isinstance(board, str):
        board = [p for p in board.split(",") if p.strip()]
    if not isinstance(board, (list, tuple)) or not board:
        raise ValueError("board must be a list of sides: shipped names like A1-front, or sides' data")
    refs: list[Any] = []
    for item in board:
        if isinstance(item, dict):
            problems = check_side(item)
            if problems:
                raise BoardError("a board side", problems)
            refs.append(item)
        elif isinstance(item, str) and item.strip() in SHIPPED_SIDES:
            refs.append(item.strip())
        elif isinstance(item, str):
            raise ValueError(
                f"unknown board side {item.strip()[:40]!r}; the shipped sides are {', '.join(SHIPPED_SIDES)}"
            )
        else:
            raise ValueError(f"a board side is a shipped side name like A1-front, not {type(item).__name__}")
    return refs


@cache
def _takes(avail: int, pairs: int, gold: bool) -> tuple[Action, ...]:
    """The take actions when the colours in bit mask ``avail`` have a token, those in ``pairs`` at least two,
    and ``gold`` says whether a gold coin is left."""
    get = ACTIONS.get
    colours = [c for c in range(RESOURCE_COUNT) if avail >> c & 1]
    acts = []
    if len(colours) >= 3:
        acts += [get("take", *combo) for combo in combinations(colours, 3)]
    else:
        acts += [get("take", *colours)] if len(colours) == 2 else []
        acts += [get("take", c) for c in colours]
    acts += [get("take2", c) for c in range(RESOURCE_COUNT) if pairs >> c & 1]
    if gold:
        acts.append(get("take_gold"))
    return tuple(acts)


class KidsGame(Game):
    """Splendor Kids for 2-4 travelers.

    >>> import splendor
    >>> g = splendor.new_game("kids", players=2, seed=1)
    >>> g.apply("take k r g"); g.current_player
    1
    """

    name = "kids"
    title = N_("Splendor Kids")
    actions = ACTIONS
    notation_help = notation.__doc__ or ""
    palette = PALETTE
    tokens_per_colour: ClassVar[dict[int, int]] = {2: 3, 3: 5, 4: 7}
    gold_coins = 7

    board: Board
    side_refs: list[Any]
    supply: list[int]
    purse: list[list[int]]  # per seat: 5 resources, gold coins, Treasures
    active: list[list[int]]  # per seat: active City tiles by colour
    used: list[list[int]]  # per seat: used City tiles by colour
    space: list[str]
    stack: list[int]  # City tiles, top last
    market: list[int]  # the Marketplace (Mysteries): colours, -1 where empty
    market_open: bool
    village_tiles: dict[str, str]  # face-down tiles on A2 villages (Mysteries)
    flipped: dict[str, str]  # village → effect, once flipped
    aside: list[str]  # unused Village tiles, unseen
    boxed_tiles: list[int]  # City tiles a Tornado swept away
    boxed_treasures: int  # Treasures spent or returned
    medals_left: list[int]
    medal: list[int | None]
    gem: int | None
    seat: int
    pending: list[list[Any]]
    turns: int
    first: int
    gates_closed: bool
    capped: bool
    _winners: list[int]

    # ----------------------------------------------------------------- options and setup

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        common = self._turn_options(options)
        short = options.pop("short", False)
        mysteries = options.pop("mysteries", False)
        board = options.pop("board", None)
        if options:
            raise ValueError(
                f"Splendor Kids has no option {', '.join(sorted(options))}; its options are short, "
                "mysteries, board, max_turns and first_player"
            )
        if not isinstance(short, bool) or not isinstance(mysteries, bool):
            raise ValueError("short and mysteries are true or false")
        if short and mysteries:
            raise ValueError("the Mysteries variant uses all three sections, so it cannot be short")
        try:
            refs = _board_option(board)
        except BoardError as e:
            raise ValueError(str(e)) from None
        if refs is not None:
            sections = [r["section"] if isinstance(r, dict) else r[:2] for r in refs]
            want = ["A1", "A3"] if short else ["A1", "A2", "A3"]
            if sections != want:
                raise ValueError(
                    f"this game needs the sides of sections {', '.join(want)} in that order, not {', '.join(sections)}"
                )
        return {**common, "short": short, "mysteries": mysteries, "board": refs}

    def _setup(self) -> None:
        rng = Rng(self.seed)
        opts = self.options
        if opts["board"] is None:
            sections = ("A1", "A3") if opts["short"] else SECTIONS
            self.side_refs = [f"{s}-{SIDES[rng.below(2)]}" for s in sections]
        else:
            self.side_refs = list(opts["board"])
        self.board = assemble(self.side_refs)
        self._index_board()
        per = self.tokens_per_colour[self.players]
        self.supply = [per] * RESOURCE_COUNT + [self.gold_coins]
        self.purse = [[0] * 7 for _ in range(self.players)]
        self.active = [[0] * RESOURCE_COUNT for _ in range(self.players)]
        self.used = [[0] * RESOURCE_COUNT for _ in range(self.players)]
        self.space = [self.board.port] * self.players
        self.stack = [c for c in range(RESOURCE_COUNT) for _ in range(CITY_TILES_PER_COLOUR)]
        rng.shuffle(self.stack)
        self.market, self.market_open = [], False
        self.village_tiles, self.flipped, self.aside = {}, {}, []
        if opts["mysteries"]:
            self.market = [self.stack.pop() for _ in range(MARKET_SLOTS)]
            self.market_open = True
            tiles = list(VILLAGE_TILES)
            rng.shuffle(tiles)
            for village in self.board.villages("A2"):
                self.village_tiles[village] = tiles.pop()
            self.aside = tiles
        self.boxed_tiles, self.boxed_treasures = [], 0
        self.medals_left = list(range(MEDALS))
        self.medal = [None] * self.players
        self.gem = None
        first = opts["first_player"]
        self.first = rng.below(self.players) if first == "random" else first
        self.seat = self.first
        self.pending = []
        self.turns = 0
        self.gates_closed = False
        self.capped = False
        self._winners = []

    def _index_board(self) -> None:
        """Lookups derived from the board, shared by clones: the roads by the space they leave and by number."""
        self._roads_from: dict[str, list[Road]] = {sid: self.board.roads_from(sid) for sid in self.board.spaces}
        self._road_by_number = {r.number: r for r in self.board.roads}

    def roads_from(self, space: str) -> list[Road]:
        """The roads leaving ``space``, in road-number order."""
        return self._roads_from[space]

    # ----------------------------------------------------------------- protocol

    @property
    def current_player(self) -> int | None:
        if self.is_over:
            return None
        if self.pending and self.pending[0][0] in ("return", "drought"):
            seat: int = self.pending[0][1]
            return seat
        return self.seat

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def phase(self) -> str:
        """``action`` (the main action), ``return``, ``drought``, ``thief``, ``city``, ``medal`` or ``over``."""
        if self.pending:
            step: str = self.pending[0][0]
            return step
        return "action"

    @property
    def scores(self) -> list[int]:
        """1 for each traveler in the Palace, else 0."""
        return [1 if self.space[s] == self.board.palace else 0 for s in range(self.players)]

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def truncated(self) -> bool:
        return self.capped

    def parse(self, text: str) -> Action:
        """Read an action; ``move N`` alone names the road's only legal payment, if there is just one."""
        if isinstance(text, str) and text.split()[:1] == ["move"] and len(text.split()) == 2:
            kind, args = notation.read(text)
            if kind == "move_any":
                options = [a for a in self.legal_actions() if a.kind == "move" and a.args[0] == args[0]]
                if len(options) == 1:
                    return options[0]
                if not options:
                    raise IllegalAction(self._why_no_move(args[0]))
                raise IllegalAction(
                    _(
                        "road {road} can be paid in {ways} ways; say which: {choices}",
                        road=args[0],
                        ways=len(options),
                        choices=Listing(f"'{a.text}'" for a in options),
                    )
                )
        return self.actions.parse(text)

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        get = ACTIONS.get
        if phase == "action":
            acts = self._main_actions()
            return acts if acts else [get("pass")]
        if phase in ("return", "drought"):
            seat = self.pending[0][1]
            kind = "return" if phase == "return" else "discard"
            return [get(kind, c) for c, n in enumerate(self.purse[seat]) if n]
        if phase == "thief":
            return [
                get("give", c, s)
                for c in range(6)
                if self.purse[self.seat][c]
                for s in range(self.players)
                if s != self.seat
            ]
        if phase == "city":
            acts = [get("city_stack")] if self.stack else []
            return acts + [get("city_market", i) for i, t in enumerate(self.market) if t >= 0]
        if phase == "medal":
            return [get("medal", m) for m in self.medals_left]
        return []

    def _main_actions(self) -> list[Action]:
        seat = self.seat
        if self.space[seat] == self.board.palace:
            return []
        get = ACTIONS.get
        acts = self.take_actions()
        purse, active = self.purse[seat], self.active[seat]
        for road in self._roads_from[self.space[seat]]:
            for code in payments(road.cost, purse, active, purse[TREASURE]):
                acts.append(get("move", road.number, code))
        acts.sort(key=lambda a: a.index)
        return acts

    def take_actions(self) -> list[Action]:
        """The ways to take resources this turn (three colours, two of one colour, a gold coin)."""
        sup = self.supply
        avail = sum(1 << c for c in range(RESOURCE_COUNT) if sup[c])
        pairs = sum(1 << c for c in range(RESOURCE_COUNT) if sup[c] >= 2)
        return list(_takes(avail, pairs, sup[GOLD] > 0))

    # ----------------------------------------------------------------- legality, in players' words

    def why_illegal(self, action: Action) -> Message | None:
        if self.is_over:
            return _("the game is over")
        kind = action.kind
        phase = self.phase
        if phase in ("return", "drought"):
            seat = self.pending[0][1]
            want = "return" if phase == "return" else "discard"
            held = sum(self.purse[seat])
            if kind != want:
                if phase == "return":
                    return _(
                        "you hold {held} tokens and must return down to {most} before anything else",
                        held=held,
                        most=PURSE_LIMIT,
                    )
                return _(
                    "you hold {held} tokens and must discard down to {most} before anything else",
                    held=held,
                    most=DROUGHT_LIMIT,
                )
            if not self.purse[seat][action.args[0]]:
                if phase == "return":
                    return _("you hold no {token} to return", token=self._token_word(action.args[0]))
                return _("you hold no {token} to discard", token=self._token_word(action.args[0]))
            return None
        if phase == "thief" and kind != "give":
            return _("the Kind-Hearted Thief: give one of your tokens to another traveler first ('give r to 2')")
        if phase == "city" and kind not in ("city_stack", "city_market"):
            if not self.stack:
                return _("you reached a city: take a City tile from the Marketplace first ('city market N')")
            return _("you reached a city: take the top City tile ('city stack') or one from the Marketplace first")
        if phase == "medal" and kind != "medal":
            return _("you reached the Palace: choose a Queen's Medal first ('medal N')")
        if phase == "action" and kind in ("return", "discard", "give", "city_stack", "city_market", "medal"):
            return {
                "return": _("tokens are returned only when a purse holds more than {most}", most=PURSE_LIMIT),
                "discard": _("tokens are discarded only in a Drought"),
                "give": _("a token is given only when you find the Kind-Hearted Thief"),
                "medal": _("a medal is chosen only on reaching the Palace"),
            }.get(kind, _("a City tile is taken only on reaching a city"))
        check = getattr(self, f"_check_{kind}")
        reason: Message | None = check(action.args)
        return reason

    def _token_word(self, c: int) -> Message:
        return _("Treasure") if c == TREASURE else PALETTE.word(c)

    def _in_palace(self) -> Message | None:
        if self.space[self.seat] == self.board.palace:
            return _("you are in the Palace: travelers there pass")
        return None

    def _check_take(self, args: tuple[int, ...]) -> Message | None:
        p = self._in_palace()
        if p:
            return p
        for c in args:
            if not self.supply[c]:
                return _("there is no {resource} left in the supply", resource=PALETTE.word(c))
        left = sum(1 for c in range(RESOURCE_COUNT) if self.supply[c])
        if len(args) < 3 and left >= 3:
            return _(
                "take 3 resources of different colours; fewer only when fewer than 3 colours are left "
                "(there are {left})",
                left=left,
            )
        return None

    def _check_take2(self, args: tuple[int, ...]) -> Message | None:
        p = self._in_palace()
        if p:
            return p
        c = args[0]
        if self.supply[c] < 2:
            return _(
                "take two of one colour needs 2 in the supply; {resource} has {left}",
                resource=PALETTE.word(c),
                left=self.supply[c],
            )
        return None

    def _check_take_gold(self, args: tuple[int, ...]) -> Message | None:
        p = self._in_palace()
        if p:
            return p
        if not self.supply[GOLD]:
            return _("there is no gold coin left in the supply")
        return None

    def _why_no_move(self, number: int) -> Message:
        road = self._road_by_number.get(number)
        if road is None:
            return _("there is no road {road} on this board", road=number)
        if self.is_over or self.phase != "action":  # another decision comes first (a City tile, a return, ...)
            return self.why_illegal(ACTIONS.get("pass")) or _("you cannot move now")
        palace = self._in_palace()
        if palace:
            return palace
        if road.start != self.space[self.seat]:
            here = self.board.spaces[self.space[self.seat]].name
            return _(
                "road {road} leaves {start}, not {here}, where you are",
                road=number,
                start=Message(self.board.spaces[road.start].name),  # a place's name, in the reader's language
                here=Message(here),
            )
        need = Listing(  # "2 water (blue) tokens", not "water (blue) and water (blue)": counted, as a child counts
            _n("{n} {resource} token", "{n} {resource} tokens", n, resource=PALETTE.word(c))
            for c, n in banner_counts(road.cost)
        )
        purse, active = self.purse[self.seat], self.active[self.seat]
        lacking = {c: n - purse[c] - active[c] for c, n in banner_counts(road.cost) if n > purse[c] + active[c]}
        wild = purse[GOLD] + min(purse[TREASURE], MAX_TREASURES)
        if sum(lacking.values()) > wild:
            missing = Listing(
                _n("{n} {resource} token", "{n} {resource} tokens", n, resource=PALETTE.word(c))
                for c, n in lacking.items()
            )
            if not wild:
                return _("road {road} costs {banner}: you lack {lacking}", road=number, banner=need, lacking=missing)
            if not purse[GOLD]:
                return _(
                    "road {road} costs {banner}: you lack {lacking}, and your Treasures (at most two a road) stand in "
                    "for only {n} of them",
                    n=wild,
                    road=number,
                    banner=need,
                    lacking=missing,
                )
            if not purse[TREASURE]:
                return _n(
                    "road {road} costs {banner}: you lack {lacking}, and your one gold coin stands in for only one "
                    "of them",
                    "road {road} costs {banner}: you lack {lacking}, and your {n} gold coins stand in for only {n} "
                    "of them",
                    wild,
                    road=number,
                    banner=need,
                    lacking=missing,
                )
            return _(
                "road {road} costs {banner}: you lack {lacking}, and your gold coins and Treasures (at most two "
                "Treasures a road) stand in for only {n} of them",
                n=wild,
                road=number,
                banner=need,
                lacking=missing,
            )
        return _(
            "road {road} costs {banner}: you cannot pay it yet with your tokens, gold coins and City tiles not yet "
            "used",
            road=number,
            banner=need,
        )

    def _check_move(self, args: tuple[int, ...]) -> Message | None:
        p = self._in_palace()
        if p:
            return p
        number, code = args
        road = self._road_by_number.get(number)
        if road is None or road.start != self.space[self.seat]:
            return self._why_no_move(number)
        pay = PAYMENTS[code]
        purse, active = self.purse[self.seat], self.active[self.seat]
        banner = [0] * RESOURCE_COUNT
        for c in road.cost:
            banner[c] += 1
        wild = 0
        for c in range(RESOURCE_COUNT):
            covered = pay[c] + pay[5 + c]
            if covered > banner[c]:
                return _(
                    "road {road}'s banner asks {asked} {resource}; you would pay {covered}: a traveler pays "
                    "exactly the banner, never more",
                    road=number,
                    asked=banner[c],
                    resource=PALETTE.word(c),
                    covered=covered,
                )
            wild += banner[c] - covered
            if pay[c] > purse[c]:
                return _n(
                    "you hold {n} {resource} token, not {named}",
                    "you hold {n} {resource} tokens, not {named}",
                    purse[c],
                    resource=PALETTE.word(c),
                    named=pay[c],
                )
            if pay[5 + c] > active[c]:
                return _n(
                    "you have {n} active {resource} City tile, not {named}",
                    "you have {n} active {resource} City tiles, not {named}",
                    active[c],
                    resource=PALETTE.word(c),
                    named=pay[5 + c],
                )
        if pay[10] + pay[11] != wild:
            return _(
                "this payment leaves {wild} of the banner to gold coins or the Treasure, but names {named}: a "
                "traveler pays exactly the banner",
                wild=wild,
                named=pay[10] + pay[11],
            )
        if pay[10] > purse[GOLD]:
            return _n(
                "you hold {n} gold coin, not {named}",
                "you hold {n} gold coins, not {named}",
                purse[GOLD],
                named=pay[10],
            )
        if pay[11] > purse[TREASURE]:
            return _n(
                "you hold {n} Treasure, not {named}",
                "you hold {n} Treasures, not {named}",
                purse[TREASURE],
                named=pay[11],
            )
        return None

    def _check_pass(self, args: tuple[int, ...]) -> Message | None:
        if self.phase != "action" or self._main_actions():
            return _("pass is allowed only in the Palace or when you have no other legal action")
        return None

    def _check_give(self, args: tuple[int, ...]) -> Message | None:
        c, to = args
        if to == self.seat:
            return _("the Thief's gift goes to another traveler, not to yourself")
        if to >= self.players:
            return _("there is no traveler {seat}; seats are 0 to {last}", seat=to, last=self.players - 1)
        if not self.purse[self.seat][c]:
            return _("you hold no {resource} to give", resource=PALETTE.word(c))
        return None

    def _check_city_stack(self, args: tuple[int, ...]) -> Message | None:
        if not self.stack:
            return _("the City tile stack is empty; take one from the Marketplace")
        return None

    def _check_city_market(self, args: tuple[int, ...]) -> Message | None:
        if not self.market_open:
            return (
                _("there is no Marketplace in this game")
                if not self.options["mysteries"]
                else _("a Tornado swept the Marketplace away; take the top of the stack")
            )
        if self.market[args[0]] < 0:
            return _("Marketplace slot {slot} is empty", slot=args[0] + 1)
        return None

    def _check_medal(self, args: tuple[int, ...]) -> Message | None:
        if args[0] not in self.medals_left:
            return _("medal {medal} has already been given", medal=args[0] + 1)
        return None

    # ----------------------------------------------------------------- carrying out

    def _do(self, action: Action) -> None:
        getattr(self, f"_do_{action.kind}")(action.args)
        self._advance()

    def _gain(self, seat: int, c: int, n: int = 1) -> None:
        self.supply[c] -= n
        self.purse[seat][c] += n

    def _do_take(self, args: tuple[int, ...]) -> None:
        for c in args:
            self._gain(self.seat, c)
        self._after_take()

    def _do_take2(self, args: tuple[int, ...]) -> None:
        self._gain(self.seat, args[0], 2)
        self._after_take()

    def _do_take_gold(self, args: tuple[int, ...]) -> None:
        self._gain(self.seat, GOLD)
        self._after_take()

    def _after_take(self) -> None:
        self.pending = [["return", self.seat], ["end_turn"]]

    def _do_move(self, args: tuple[int, ...]) -> None:
        number, code = args
        seat = self.seat
        pay = PAYMENTS[code]
        purse, active, used = self.purse[seat], self.active[seat], self.used[seat]
        for c in range(RESOURCE_COUNT):
            if pay[c]:
                purse[c] -= pay[c]
                self.supply[c] += pay[c]
            if pay[5 + c]:
                active[c] -= pay[5 + c]
                used[c] += pay[5 + c]
        purse[GOLD] -= pay[10]
        self.supply[GOLD] += pay[10]
        purse[TREASURE] -= pay[11]
        self.boxed_treasures += pay[11]
        road = self._road_by_number[number]
        self.space[seat] = road.end
        kind = self.board.spaces[road.end].kind
        if kind == "city":
            self.pending = [["city"], ["end_turn"]]
        elif kind == "palace":
            self.gates_closed = True
            self.pending = [["medal"], ["end_turn"]]
        else:
            self.pending = self._village_steps(road.end) + [["extra_turn"]]

    def public_details(self, action: Action, after: Game) -> dict[str, Any]:
        o: Any = after
        seat = self.seat
        details: dict[str, Any] = {}
        if action.kind == "move":
            space = self.board.spaces[self._road_by_number[action.args[0]].end]
            details["to"] = {"name": space.name, "kind": space.kind}
            if space.kind == "village":
                details["extra_turn"] = True
            flipped = [v for v in o.flipped if v not in self.flipped]
            if flipped:
                details["village_tile"] = EFFECT_NAMES[o.flipped[flipped[0]]]
        gained = []  # City tiles, chosen or taken by themselves on arrival
        for c in range(RESOURCE_COUNT):
            more = o.active[seat][c] + o.used[seat][c] - self.active[seat][c] - self.used[seat][c]
            gained += [PALETTE.names[c]] * max(0, more)
        if gained:
            details["city_tiles"] = gained
        if o.medal[seat] != self.medal[seat]:
            details["medal"] = o.medal[seat] + 1  # as the view numbers them, from 1
        return details

    def _village_steps(self, village: str) -> list[list[Any]]:
        """Flip a face-down Village tile (Mysteries) and apply it; the steps it sets off."""
        effect = self.village_tiles.pop(village, None)
        if effect is None:
            return []
        self.flipped[village] = effect
        seat = self.seat
        if effect == "tornado":
            self.boxed_tiles += [t for t in self.market if t >= 0]
            self.market = [-1] * MARKET_SLOTS
            self.market_open = False
            return []
        if effect == "treasure":
            self.purse[seat][TREASURE] += 1
            return [["return", seat]]
        if effect == "drought":
            return [["drought", (seat + i) % self.players] for i in range(self.players)]
        if effect == "thief":
            return [["thief"]]
        self.gem = seat
        return []

    def _do_return(self, args: tuple[int, ...]) -> None:
        self._give_back(self.pending[0][1], args[0])

    def _do_discard(self, args: tuple[int, ...]) -> None:
        self._give_back(self.pending[0][1], args[0])

    def _give_back(self, seat: int, c: int) -> None:
        self.purse[seat][c] -= 1
        if c == TREASURE:
            self.boxed_treasures += 1
        else:
            self.supply[c] += 1

    def _do_give(self, args: tuple[int, ...]) -> None:
        c, to = args
        self.purse[self.seat][c] -= 1
        self.purse[to][c] += 1
        self.pending[0] = ["return", to]

    def _take_city_tile(self, colour: int) -> None:
        seat = self.seat
        self.active[seat][colour] += 1
        for c in range(RESOURCE_COUNT):
            self.active[seat][c] += self.used[seat][c]
            self.used[seat][c] = 0

    def _do_city_stack(self, args: tuple[int, ...]) -> None:
        self.pending.pop(0)
        self._take_city_tile(self.stack.pop())

    def _do_city_market(self, args: tuple[int, ...]) -> None:
        self.pending.pop(0)
        colour = self.market[args[0]]
        self.market[args[0]] = self.stack.pop() if self.stack else -1
        self._take_city_tile(colour)

    def _do_medal(self, args: tuple[int, ...]) -> None:
        self.pending.pop(0)
        self.medals_left.remove(args[0])
        self.medal[self.seat] = args[0]

    def _do_pass(self, args: tuple[int, ...]) -> None:
        self.pending = [["end_turn"]]

    def _advance(self) -> None:
        """Carry out the automatic steps at the head of the queue until one waits for a decision."""
        while self.pending:
            step = self.pending[0]
            kind = step[0]
            if kind == "return":
                if sum(self.purse[step[1]]) > PURSE_LIMIT:
                    return
            elif kind == "drought":
                if sum(self.purse[step[1]]) > DROUGHT_LIMIT:
                    return
            elif kind == "thief":
                if any(self.purse[self.seat][:6]) and self.players > 1:
                    return
            elif kind == "city":
                if self.market_open and any(t >= 0 for t in self.market):
                    return
                self.pending.pop(0)
                if self.stack:
                    self._take_city_tile(self.stack.pop())
                else:
                    self._take_city_tile_none()
                continue
            elif kind == "medal":
                if len(self.medals_left) > 1:
                    return
                self.pending.pop(0)
                if self.medals_left:
                    self.medal[self.seat] = self.medals_left.pop()
                continue
            elif kind == "extra_turn":
                self.pending.pop(0)
                return
            elif kind == "end_turn":
                self.pending.pop(0)
                self._end_turn()
                return
            elif kind == "over":
                return
            self.pending.pop(0)

    def _take_city_tile_none(self) -> None:
        """An empty stack gives no tile; the used tiles are made active all the same (ruling 22)."""
        seat = self.seat
        for c in range(RESOURCE_COUNT):
            self.active[seat][c] += self.used[seat][c]
            self.used[seat][c] = 0

    def _end_turn(self) -> None:
        self.turns += 1
        nxt = (self.seat + 1) % self.players
        if self.gates_closed and nxt == self.first:
            self._finish()
            return
        cap = self.options["max_turns"]
        if cap is not None and self.turns >= cap:
            self.capped = True
            self.pending = [["over"]]
            self._winners = []
            return
        self.seat = nxt

    def _finish(self) -> None:
        """The gates have closed and the round is complete: everyone in the Palace wins, unless the holder of the
        Queen's Gem is there, who wins alone. (The supply always holds tokens that a traveler outside the Palace
        may take, so the game cannot stall before someone arrives.)"""
        self.pending = [["over"]]
        arrived = [s for s in range(self.players) if self.space[s] == self.board.palace]
        self._winners = [self.gem] if self.gem in arrived else arrived

    def _result_details(self) -> dict[str, Any]:
        details: dict[str, Any] = {
            "in_palace": [self.space[s] == self.board.palace for s in range(self.players)],
            "medals": [None if m is None else m + 1 for m in self.medal],
            "queens_gem": self.gem,
        }
        if self.is_over and self.gem is not None and self._winners == [self.gem] and sum(details["in_palace"]) > 1:
            details["tie_break"] = N_("the traveler holding the Queen's Gem reached the Palace and wins alone")
        return details

    # ----------------------------------------------------------------- search

    def determinize(self, seat: int | None, rng: random.Random) -> Game:
        """The City stack and the face-down (and set-aside) Village tiles dealt anew; every seat sees the same."""
        g: Any = self.clone()
        g.stack = sorted(self.stack)
        rng.shuffle(g.stack)
        tiles = sorted(list(self.village_tiles.values()) + self.aside)
        rng.shuffle(tiles)
        g.village_tiles = {v: tiles.pop() for v in self.village_tiles}
        g.aside = tiles
        game: Game = g
        return game

    # ----------------------------------------------------------------- views and state

    def view(self, seat: int | None) -> dict[str, Any]:
        self._check_seat(seat)
        names = PALETTE.names
        over = self.is_over
        current = self.current_player
        seats = []
        for s in range(self.players):
            tiles = [
                {"colour": names[c], "active": True} for c in range(RESOURCE_COUNT) for _ in range(self.active[s][c])
            ]
            tiles += [
                {"colour": names[c], "active": False} for c in range(RESOURCE_COUNT) for _ in range(self.used[s][c])
            ]
            medal = self.medal[s]
            seats.append(
                {
                    "seat": s,
                    "space": self.space[s],
                    "in_palace": self.space[s] == self.board.palace,
                    "tokens": dict(zip(names, self.purse[s][:6])),
                    "treasure": self.purse[s][TREASURE],
                    "purse_total": sum(self.purse[s]),
                    "city_tiles": tiles,
                    "medal": None if medal is None else medal + 1,
                    "queens_gem": self.gem == s,
                }
            )
        v: dict[str, Any] = {
            "game": self.name,
            "players": self.players,
            "viewer": seat,
            "current_player": current,
            "turn_of": None if over else self.seat,
            "decision": "none" if over else self.phase,
            "turn": self.turns + (0 if over else 1),
            "round": self.turns // self.players + (0 if over else 1),
            "first_player": self.first,
            "final_round": self.gates_closed,
            "gates_closed": self.gates_closed,
            "is_over": over,
            "short": self.options["short"],
            "mysteries": self.options["mysteries"],
            "supply": dict(zip(names, self.supply)),
            "board": self.board.as_view(),
            "seats": seats,
            "city_stack": len(self.stack),
            "marketplace": ([None if t < 0 else names[t] for t in self.market] if self.market_open else None),
            "village_tiles": {
                **dict.fromkeys(self.village_tiles, "face down"),
                **{v: EFFECT_NAMES[e] for v, e in self.flipped.items()},
            },
            "village_tiles_aside": len(self.aside),
            "medals_left": [m + 1 for m in self.medals_left],
            "legal_actions": [a.text for a in self.legal_actions()] if seat is not None and seat == current else [],
        }
        if over:
            v["result"] = self.result
        return v

    _SCALARS = ("seat", "turns", "first", "gates_closed", "capped", "gem", "market_open", "boxed_treasures")
    _LISTS = (
        "supply",
        "purse",
        "active",
        "used",
        "space",
        "stack",
        "market",
        "aside",
        "boxed_tiles",
        "medals_left",
        "medal",
        "pending",
        "_winners",
    )

    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = {k: getattr(self, k) for k in self._SCALARS}
        for k in self._LISTS:
            state[k.lstrip("_")] = getattr(self, k)
        state["side_refs"] = self.side_refs
        state["village_tiles"] = self.village_tiles
        state["flipped"] = self.flipped
        return state

    def _restore(self, state: dict[str, Any]) -> None:
        for k in self._SCALARS:
            setattr(self, k, state[k])
        for k in self._LISTS:
            setattr(self, k, [list(x) if isinstance(x, list) else x for x in state[k.lstrip("_")]])
        self.side_refs = list(state["side_refs"])
        self.village_tiles = dict(state["village_tiles"])
        self.flipped = dict(state["flipped"])
        self.board = assemble(self.side_refs)
        self._index_board()

    def _copy_state(self, other: Game) -> None:
        o: Any = other
        o.board, o.side_refs = self.board, self.side_refs
        o._roads_from, o._road_by_number = self._roads_from, self._road_by_number
        for k in self._SCALARS:
            setattr(o, k, getattr(self, k))
        o.supply = self.supply[:]
        o.purse = [p[:] for p in self.purse]
        o.active = [a[:] for a in self.active]
        o.used = [u[:] for u in self.used]
        o.space = self.space[:]
        o.stack = self.stack[:]
        o.market = self.market[:]
        o.aside = self.aside[:]
        o.boxed_tiles = self.boxed_tiles[:]
        o.medals_left = self.medals_left[:]
        o.medal = self.medal[:]
        o.pending = [p[:] for p in self.pending]
        o._winners = self._winners[:]
        o.village_tiles = dict(self.village_tiles)
        o.flipped = dict(self.flipped)
