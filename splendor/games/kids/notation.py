"""Splendor Kids' action notation and its fixed action index.

  action                                              text                       index
  take 3 different resources                          take k r g                 0-9
  take 2 different (fewer than 3 colours left)        take k r                   10-19
  take 1 (fewer than 3 colours left)                  take g                     20-24
  take 2 of one resource (2+ in the supply)           take h h                   25-29
  take 1 gold coin                                    take y                     30
  return a token (purse over 8)                       return h, return t         31-37
  discard a token (Drought: purse over 5)             discard k                  38-44
  give a token to a traveler (Kind-Hearted Thief)     give r to 2                45-68
  take the City tile on top of the stack              city stack                 69
  take a Marketplace City tile (Mysteries)            city market 2              70-72
  choose a Queen's Medal                              medal 3                    73-76
  pass (in the Palace, or nothing else is legal)      pass                       77
  move along road N, paying as listed                 move 7 pay k k r tile:h    78 onward

Resources: k mushroom (black), r apple (red), g cabbage (green), h hazelnut (brown), b water (blue); y gold coin
(wild), t the Treasure token (wild, Mysteries). Resource names are read too (take mushroom apple cabbage).
A payment lists the tokens spent, then gold coins (y), the Treasure (t), then City tiles (tile:h = an active
hazelnut City tile). ``move 7`` alone is enough when only one payment is possible.

Index of a move: 78 + (road - 1) * 6096 + the payment's number, where the 6096 payments are every way of spending
1 to 5 resources as tokens of each colour, City tiles of each colour, gold coins and at most 2 Treasures, in a
fixed order (by total, then by tokens, tiles, gold, treasure). Roads are numbered 1-72 on the assembled board.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

from splendor.core.actions import ComputedActionTable, number
from splendor.core.colours import Palette
from splendor.core.errors import IllegalAction
from splendor.i18n import N_, Listing, Message, _

PALETTE = Palette(
    names=("black", "red", "green", "brown", "blue", "gold"),
    letters=("k", "r", "g", "h", "b", "y"),
    display=(N_("Mushroom"), N_("Apple"), N_("Cabbage"), N_("Hazelnut"), N_("Water"), N_("Gold coin")),
    spoken=(
        N_("mushroom (black)"),
        N_("apple (red)"),
        N_("cabbage (green)"),
        N_("hazelnut (brown)"),
        N_("water (blue)"),
        N_("gold coin"),
    ),
)
RESOURCE_COUNT = 5
GOLD = 5
TREASURE = 6  # index of the Treasure in a purse-token list (after the palette's colours)
TOKEN_LETTERS = PALETTE.letters + ("t",)
TOKEN_NAMES = PALETTE.names + ("treasure",)
MAX_SEATS = 4
MAX_ROADS = 72
MAX_PAY = 5
MAX_TREASURES = 2  # Treasures spent on one road at most
MAX_LEGAL = 4096
"""The most legal actions a position may offer: the room the compiled engine keeps for them. A board with a space
whose roads could be paid in more ways than that allows is refused (``board.check_side``, by ``most_payments``)."""
MEDALS = 4
MARKET_SLOTS = 3

_WORDS = {
    "mushroom": "k",
    "mushrooms": "k",
    "apple": "r",
    "apples": "r",
    "cabbage": "g",
    "cabbages": "g",
    "hazelnut": "h",
    "hazelnuts": "h",
    "water": "b",
    "coin": "y",
    "coins": "y",
    "gold": "y",
    "treasure": "t",
}

# A payment: tokens spent per resource colour (5), City tiles used per colour (5), gold coins, treasures.
Payment = tuple[int, ...]


def _all_payments() -> list[Payment]:
    found = []
    for total in range(1, MAX_PAY + 1):
        level = []
        for cut in combinations(range(total + 11), 11):  # stars and bars over 12 counts
            parts, prev = [], -1
            for c in cut:
                parts.append(c - prev - 1)
                prev = c
            parts.append(total + 11 - prev - 1)
            if parts[11] <= MAX_TREASURES:
                level.append(tuple(parts))
        found.extend(sorted(level, reverse=True))
    return found


PAYMENTS: tuple[Payment, ...] = tuple(_all_payments())
PAYMENT_CODE = {p: i for i, p in enumerate(PAYMENTS)}
P_COUNT = len(PAYMENTS)

# index layout
_TAKE_SPECS: list[tuple[str, tuple[int, ...]]] = (
    [("take", c) for size in (3, 2, 1) for c in combinations(range(RESOURCE_COUNT), size)]
    + [("take2", (c,)) for c in range(RESOURCE_COUNT)]
    + [("take_gold", ())]
)
FIXED: list[tuple[str, tuple[int, ...]]] = (
    _TAKE_SPECS
    + [("return", (c,)) for c in range(7)]
    + [("discard", (c,)) for c in range(7)]
    + [("give", (c, s)) for c in range(6) for s in range(MAX_SEATS)]
    + [("city_stack", ())]
    + [("city_market", (i,)) for i in range(MARKET_SLOTS)]
    + [("medal", (m,)) for m in range(MEDALS)]
    + [("pass", ())]
)
FIXED_INDEX = {spec: i for i, spec in enumerate(FIXED)}
MOVE_BASE = len(FIXED)
SIZE = MOVE_BASE + MAX_ROADS * P_COUNT


def payment_text(p: Payment) -> str:
    """``k k r y tile:h``: tokens, gold coins, Treasures, then City tiles."""
    words = []
    for c in range(RESOURCE_COUNT):
        words += [PALETTE.letters[c]] * p[c]
    words += ["y"] * p[10] + ["t"] * p[11]
    for c in range(RESOURCE_COUNT):
        words += [f"tile:{PALETTE.letters[c]}"] * p[5 + c]
    return " ".join(words)


def _text(kind: str, args: tuple[int, ...]) -> str:
    L = PALETTE.letters
    if kind == "take":
        return "take " + " ".join(L[c] for c in args)
    if kind == "take2":
        return f"take {L[args[0]]} {L[args[0]]}"
    if kind == "take_gold":
        return "take y"
    if kind in ("return", "discard"):
        return f"{kind} {TOKEN_LETTERS[args[0]]}"
    if kind == "give":
        return f"give {L[args[0]]} to {args[1]}"
    if kind == "city_stack":
        return "city stack"
    if kind == "city_market":
        return f"city market {args[0] + 1}"
    if kind == "medal":
        return f"medal {args[0] + 1}"
    if kind == "pass":
        return "pass"
    road, code = args
    return f"move {road} pay {payment_text(PAYMENTS[code])}"


def decode(index: int) -> tuple[str, tuple[int, ...], str]:
    """An action index of the computed space as its kind, its arguments and its text (a move: the road, the
    payment's code, and "move N pay …")."""
    if index < MOVE_BASE:
        kind, args = FIXED[index]
    else:
        road, code = divmod(index - MOVE_BASE, P_COUNT)
        kind, args = "move", (road + 1, code)
    return kind, args, _text(kind, args)


def encode(kind: str, args: tuple[int, ...]) -> int | None:
    """The index of an action of ``kind`` with ``args`` (`decode`'s inverse), or None for one the space lacks."""
    if kind == "move":
        if len(args) != 2 or not 1 <= args[0] <= MAX_ROADS or not 0 <= args[1] < P_COUNT:
            return None
        return MOVE_BASE + (args[0] - 1) * P_COUNT + args[1]
    return FIXED_INDEX.get((kind, tuple(args)))


def _token(word: str, allow: str) -> int:
    w = _WORDS.get(word, word)
    if w in PALETTE.names:
        w = PALETTE.letters[PALETTE.names.index(w)]
    if w in TOKEN_LETTERS and w in allow:
        return TOKEN_LETTERS.index(w)
    spoken = PALETTE.spoken + (N_("the Treasure"),)
    names = Listing(
        _("{letter}: {colour}", letter=TOKEN_LETTERS[i], colour=Message(spoken[i]))  # "k: mushroom (black)"
        for i in range(7)
        if TOKEN_LETTERS[i] in allow
    )
    raise IllegalAction(_("'{word}' is not a token here; say one of {names}", word=word, names=names))


def read(text: str) -> tuple[str, tuple[int, ...]]:
    """The (kind, args) a text names; `IllegalAction` explains malformed text."""
    words = text.replace(",", " ").lower().split()
    if not words:
        raise IllegalAction(_("type an action, e.g. 'take k r g' or 'move 3'"))
    words = [_WORDS.get(w, w) for w in words]
    verb, rest = words[0], words[1:]
    plain = "krghb"
    if verb == "take":
        if len(rest) == 1 and len(rest[0]) > 1 and all(ch in plain + "y" for ch in rest[0]):
            rest = list(rest[0])
        if rest == ["y"]:
            return "take_gold", ()
        if "t" in rest:  # ruling 25
            raise IllegalAction(
                _(
                    "the Treasure is never taken: a traveler finds it on a village (Mysteries) and pays with it as "
                    "with a gold coin"
                )
            )
        if not rest:
            raise IllegalAction(_("say what to take, e.g. 'take k r g', 'take h h' or 'take y'"))
        cs = sorted(_token(w, plain + "y") for w in rest)
        if GOLD in cs and set(cs) == {GOLD}:  # "take y y": more than one, where no resource was named
            raise IllegalAction(_("a gold coin is taken one at a time"))  # words a click reads too
        if GOLD in cs:
            raise IllegalAction(_("a gold coin is taken alone, never with resources"))
        if len(cs) == 2 and cs[0] == cs[1]:
            return "take2", (cs[0],)
        if len(set(cs)) != len(cs) or len(cs) > 3:
            raise IllegalAction(_("take 3 resources of different colours, 2 of one colour, or 1 gold coin"))
        return "take", tuple(cs)
    if verb in ("return", "discard"):
        if len(rest) != 1:
            raise IllegalAction(_("{verb} one token at a time, e.g. '{verb} k'", verb=verb))
        return verb, (_token(rest[0], plain + "yt"),)
    if verb == "give":
        if rest and rest[0] == "t":  # ruling 25
            raise IllegalAction(
                _("the Kind-Hearted Thief's gift is a resource token or a gold coin, never the Treasure")
            )
        if len(rest) != 3 or rest[1] != "to" or (to := number(rest[2])) is None or to >= MAX_SEATS:
            raise IllegalAction(_("say which token and to which traveler's seat, e.g. 'give r to 2'"))
        return "give", (_token(rest[0], plain + "y"), to)
    if verb == "city":
        if rest == ["stack"]:
            return "city_stack", ()
        if len(rest) == 2 and rest[0] in ("market", "marketplace") and rest[1] in ("1", "2", "3"):
            return "city_market", (int(rest[1]) - 1,)
        raise IllegalAction(_("say 'city stack' or 'city market N' (N from 1 to 3)"))
    if verb == "medal":
        if len(rest) != 1 or rest[0] not in ("1", "2", "3", "4"):
            raise IllegalAction(_("say which medal, e.g. 'medal 2' (1-4)"))
        return "medal", (int(rest[0]) - 1,)
    if verb == "pass":
        return "pass", ()
    if verb == "move":
        if not rest or (road := number(rest[0])) is None:
            raise IllegalAction(_("say which road by its number, e.g. 'move 3' or 'move 3 pay k k r'"))
        if not 1 <= road <= MAX_ROADS:  # as the game says of a number within the range that its board lacks
            raise IllegalAction(_("there is no road {road} on this board", road=road))
        if len(rest) == 1:
            return "move_any", (road,)
        if rest[1] != "pay" or len(rest) < 3:
            raise IllegalAction(_("list the payment after 'pay', e.g. 'move 3 pay k k tile:r y'"))
        p = [0] * 12
        for w in rest[2:]:
            if w.startswith(("tile:", "city:")):
                c = _token(w.split(":", 1)[1], plain)
                p[5 + c] += 1
            else:
                c = _token(w, plain + "yt")
                p[c if c < GOLD else (10 if c == GOLD else 11)] += 1
        code = PAYMENT_CODE.get(tuple(p))
        if code is None:
            raise IllegalAction(_("a payment is 1 to {most} resources, with at most 2 Treasures", most=MAX_PAY))
        return "move", (road, code)
    raise IllegalAction(
        _(
            "'{verb}' is not an action; the actions are take, move, return, discard, give, city, medal and pass",
            verb=verb,
        )
    )


ACTIONS = ComputedActionTable(SIZE, decode, encode, read, "Splendor Kids")


@cache
def banner_counts(cost: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """A banner (sorted colour indices) as (colour, how many) pairs."""
    counts: dict[int, int] = {}
    for c in cost:
        counts[c] = counts.get(c, 0) + 1
    return tuple(sorted(counts.items()))


def most_payments(banner: Sequence[object]) -> int:
    """The most distinct payments a road with this banner can ever have: what ``payments`` lists from holdings rich
    in everything. Each colour's count is split every way between tokens, City tiles and wild; the wild, every way
    between gold coins and at most ``MAX_TREASURES`` Treasures.

    >>> most_payments(["red"]), most_payments(["black", "red"]), most_payments(["red"] * 5)
    (4, 15, 46)
    """
    by_wild = {0: 1}  # the ways of paying the colours counted so far, by how many of them are left to the wild
    for colour in set(banner):
        n = banner.count(colour)
        grown: dict[int, int] = {}
        for wild, ways in by_wild.items():
            for left in range(n + 1):  # the other n - left split between tokens and tiles: n - left + 1 ways
                grown[wild + left] = grown.get(wild + left, 0) + ways * (n - left + 1)
        by_wild = grown
    return sum(ways * (min(wild, MAX_TREASURES) + 1) for wild, ways in by_wild.items())


def payments(cost: tuple[int, ...], tokens: list[int], active: list[int], treasure: int) -> list[int]:
    """The codes of every distinct payment of ``cost`` from these holdings, sorted (ruling 8: never more)."""
    per_colour = []
    for c, n in banner_counts(cost):
        opts = []
        for t in range(min(n, tokens[c]) + 1):
            for k in range(min(n - t, active[c]) + 1):
                opts.append((c, t, k, n - t - k))
        per_colour.append(opts)
    gold = tokens[GOLD]
    codes = []
    for combo in product(*per_colour):
        wild = sum(o[3] for o in combo)
        if wild > gold + treasure:
            continue
        base = [0] * 12
        for c, t, k, _wild in combo:
            base[c] = t
            base[5 + c] = k
        for tr in range(min(treasure, wild, MAX_TREASURES) + 1):
            g = wild - tr
            if g <= gold:
                base[10], base[11] = g, tr
                codes.append(PAYMENT_CODE[tuple(base)])
    codes.sort()
    return codes
