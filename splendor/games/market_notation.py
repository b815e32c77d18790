"""The notation the card-market games share (Splendor and Splendor: Pokémon): the rows as written (``MarketLayout``:
``2.3``, ``rare``), every market action in index order (``market_action_specs``), the reading of loose text into
canonical notation (``market_normaliser``), and the actions arranged for fast legal-move generation
(``MarketLookup``). Each game's ``notation.py`` builds its table from these; the rules are in ``market.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from splendor.core.actions import Action, ActionTable, number
from splendor.core.colours import Palette
from splendor.core.errors import IllegalAction
from splendor.games.market import RESERVE_LIMIT
from splendor.i18n import Listing, Message, _


@dataclass(frozen=True)
class MarketLayout:
    """The rows of face-up cards: a label and a number of slots each, and which rows may be reserved from."""

    labels: tuple[str, ...]
    sizes: tuple[int, ...]
    reservable: tuple[int, ...]
    levels: bool = False
    """Whether the rows are levels, as Pokémon calls them, not tiers: how a refusal names them."""

    def slot_text(self, row: int, slot: int) -> str:
        """How a slot is written: ``2.3`` (tier 2, third card) or just ``rare`` for a one-card row."""
        return self.labels[row] if self.sizes[row] == 1 else f"{self.labels[row]}.{slot + 1}"


def market_action_specs(
    palette: Palette, layout: MarketLayout, buy_word: str
) -> list[tuple[str, tuple[int, ...], str]]:
    """The actions every market game has, in index order: take, reserve, buy, return."""
    letters = palette.letters
    plain = list(palette.plain)
    specs: list[tuple[str, tuple[int, ...], str]] = []
    for size in (3, 2, 1):
        for combo in combinations(plain, size):
            specs.append(("take", combo, "take " + " ".join(letters[c] for c in combo)))
    for c in plain:
        specs.append(("take2", (c,), f"take {letters[c]} {letters[c]}"))
    for r in layout.reservable:
        for s in range(layout.sizes[r]):
            specs.append(("reserve", (r, s), f"reserve {layout.slot_text(r, s)}"))
        specs.append(("reserve_deck", (r,), f"reserve deck {layout.labels[r]}"))
    for r in range(len(layout.sizes)):
        for s in range(layout.sizes[r]):
            specs.append(("buy", (r, s), f"{buy_word} {layout.slot_text(r, s)}"))
    for i in range(RESERVE_LIMIT):
        specs.append(("buy_reserved", (i,), f"{buy_word} reserved {i + 1}"))
    for c in range(len(letters)):
        specs.append(("return", (c,), f"return {letters[c]}"))
    return specs


def market_normaliser(
    palette: Palette,
    layout: MarketLayout,
    buy_word: str,
    extra: Callable[[list[str]], str | None] | None = None,
    extra_verbs: tuple[str, ...] = (),
) -> Callable[[str], str]:
    """A function from loose text (``"Take Red, blue black"``, ``"buy 2 3"``) to canonical notation.

    It raises `IllegalAction` with the reason when the text is malformed; ``extra`` handles a game's own verbs.
    """
    row_of = {lab: r for r, lab in enumerate(layout.labels)}
    balls = palette.counted_as_nouns  # Pokémon: its tokens are balls, its rows levels (as its rulebook says them)

    def named(i: int) -> Message:
        """A colour's letter and name; "r: Poké Ball (red)" where the name has brackets of its own ("r (Poké Ball
        (red))" had nested them)."""
        if palette.spoken:
            return _("{letter}: {colour}", letter=palette.letters[i], colour=palette.word(i))
        return _("{letter} ({colour})", letter=palette.letters[i], colour=palette.word(i))

    colours = Listing(named(i) for i in palette.plain)
    with_wild = Listing(named(i) for i in (*palette.plain, palette.wild))

    def colour(word: str, wild: bool = False) -> int:
        """The colour ``word`` names; refused naming the colours that may be said there (``wild``: gold too, as a
        return may give it back)."""
        try:
            return palette.index(word)
        except KeyError:
            named = with_wild if wild else colours
            raise IllegalAction(
                _("'{word}' is not a colour; the colours are {colours}", word=word, colours=named)
            ) from None

    def slot(words: list[str], verb: str) -> str:
        if len(words) == 1 and "." in words[0]:
            words = words[0].split(".")
        if len(words) == 1 and words[0] in row_of and layout.sizes[row_of[words[0]]] == 1:
            return words[0]
        single = words and words[0] in row_of and layout.sizes[row_of[words[0]]] == 1  # "catch rare 2"
        if single and (verb != "reserve" or row_of[words[0]] in layout.reservable):  # (never advice refused next)
            raise IllegalAction(_("{row} is a single card: say '{verb} {row}'", row=words[0], verb=verb))
        if len(words) != 2 or words[0] not in row_of or number(words[1]) is None:
            rows = [r for r in range(len(layout.labels)) if verb != "reserve" or r in layout.reservable]
            tiers, slots = ", ".join(layout.labels[r] for r in rows), max(layout.sizes[r] for r in rows)
            raise IllegalAction(
                _(
                    "say which card to {verb} as level.slot, e.g. '{verb} 2.3' (levels {tiers}, slots 1-{slots})",
                    verb=verb,
                    tiers=tiers,
                    slots=slots,
                )
                if layout.levels
                else _(
                    "say which card to {verb} as tier.slot, e.g. '{verb} 2.3' (tiers {tiers}, slots 1-{slots})",
                    verb=verb,
                    tiers=tiers,
                    slots=slots,
                )
            )
        r, s = row_of[words[0]], int(words[1])  # ASCII digits, checked above
        if not 1 <= s <= layout.sizes[r]:
            raise IllegalAction(
                _("level {tier} has slots 1-{slots}, not {slot}", tier=words[0], slots=layout.sizes[r], slot=s)
                if layout.levels
                else _("tier {tier} has slots 1-{slots}, not {slot}", tier=words[0], slots=layout.sizes[r], slot=s)
            )
        return layout.slot_text(r, s - 1)

    def normalise(text: str) -> str:
        words = text.replace(",", " ").lower().split()
        if not words:
            raise IllegalAction(_("type an action, e.g. '{example}'", example="take " + " ".join(palette.letters[:3])))
        if extra is not None:
            own = extra(words)  # may also rewrite game-specific words in place
            if own is not None:
                return own
        verb, rest = words[0], words[1:]
        if verb == "take":
            if len(rest) == 1 and len(rest[0]) > 1 and all(ch in palette.letters for ch in rest[0]):
                rest = list(rest[0])
            cs = sorted(colour(w) for w in rest)
            if palette.wild in cs:
                wild = palette.word(palette.wild)
                raise IllegalAction(
                    _("a {wild} cannot be taken; one comes with a reservation", wild=wild)
                    if balls
                    else _("{wild} tokens cannot be taken; one comes with a reservation", wild=wild)
                )
            if not cs:
                raise IllegalAction(
                    _("say which colours to take, e.g. '{example}'", example="take " + " ".join(palette.letters[:3]))
                )
            if len(cs) == 2 and cs[0] == cs[1]:
                return f"take {palette.letters[cs[0]]} {palette.letters[cs[0]]}"
            if len(set(cs)) != len(cs) or len(cs) > 3:
                raise IllegalAction(
                    _("take either up to 3 balls of different colours, or 2 of one colour")
                    if balls
                    else _("take either up to 3 tokens of different colours, or 2 of one colour")
                )
            return "take " + " ".join(palette.letters[c] for c in cs)
        if verb == "reserve":
            if rest and rest[0] == "deck":
                if (
                    len(rest) != 2
                    or rest[1] not in row_of
                    or rest[1] not in {layout.labels[r] for r in layout.reservable}
                ):
                    raise IllegalAction(
                        _(
                            "say which deck to reserve from, e.g. 'reserve deck 1' (decks {decks})",
                            decks=", ".join(layout.labels[r] for r in layout.reservable),
                        )
                    )
                return f"reserve deck {rest[1]}"
            return "reserve " + slot(rest, "reserve")
        if verb == buy_word:
            if rest and rest[0] in ("reserved", "hand"):
                if len(rest) != 2 or not 1 <= (number(rest[1]) or 0) <= RESERVE_LIMIT:
                    raise IllegalAction(
                        _(
                            "say which reserved card to {verb}, e.g. '{verb} reserved 1' (1-{most})",
                            verb=buy_word,
                            most=RESERVE_LIMIT,
                        )
                    )
                return f"{buy_word} reserved {int(rest[1])}"
            return f"{buy_word} " + slot(rest, buy_word)
        if verb == "return":
            if len(rest) != 1:
                example = "return " + palette.letters[0]
                raise IllegalAction(
                    _("return one ball at a time, e.g. '{example}'", example=example)
                    if balls
                    else _("return one token at a time, e.g. '{example}'", example=example)
                )
            return f"return {palette.letters[colour(rest[0], wild=True)]}"
        if verb == "pass":
            return "pass"
        verbs = ", ".join(("take", "reserve", buy_word, "return") + extra_verbs)
        raise IllegalAction(_("'{verb}' is not an action; the actions are {verbs} and pass", verb=verb, verbs=verbs))

    return normalise


class MarketLookup:
    """The market actions arranged for fast legal-move generation (built once per game class)."""

    def __init__(self, table: ActionTable, palette: Palette, layout: MarketLayout) -> None:
        plain = list(palette.plain)
        take_actions = [a for a in table if a.kind == "take"]
        self.take_by_mask: list[list[Action]] = []
        for mask in range(1 << len(plain)):
            avail = [c for c in plain if mask >> c & 1]
            if len(avail) >= 3:
                acts = [a for a in take_actions if len(a.args) == 3 and all(mask >> c & 1 for c in a.args)]
            else:
                acts = [a for a in take_actions if all(mask >> c & 1 for c in a.args)]
            self.take_by_mask.append(acts)
        self.take2 = [table.get("take2", c) for c in plain]
        self.reserve = [
            [table.get("reserve", r, s) for s in range(layout.sizes[r])] if r in layout.reservable else []
            for r in range(len(layout.sizes))
        ]
        self.reserve_deck = {r: table.get("reserve_deck", r) for r in layout.reservable}
        self.buy = [[table.get("buy", r, s) for s in range(layout.sizes[r])] for r in range(len(layout.sizes))]
        self.buy_reserved = [table.get("buy_reserved", i) for i in range(RESERVE_LIMIT)]
        self.give_back = [table.get("return", c) for c in range(len(palette.names))]
        self.pass_ = table.get("pass")
