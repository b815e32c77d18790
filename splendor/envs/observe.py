"""A seat's observation as a flat float32 vector, built only from what that seat may see (``game.view(seat)``).

Every vector is laid out by a list of `Field`s (name, size, meaning), the same list ``docs/rl.md`` prints, so the
layout is documented where it is made. Seats are written from the viewer's place: the viewer first, then the
seats after it in turn order, padded to four seats with zeros. Counts are divided by a fixed bound, so each value
lies in [0, 1].

>>> import splendor
>>> g = splendor.new_game("classic", players=2, seed=1)
>>> v = observe(g.view(0))
>>> v.shape, v.dtype, float(v.min()) >= 0.0, float(v.max()) <= 1.0
((469,), dtype('float32'), True, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from splendor.games.palettes import COLOURS
from splendor.games.pokemon.cards import LEVELS
from splendor.games.pokemon.names import POKEMON_NAMES

MAX_SEATS = 4
CLASSIC_COLOURS = COLOURS["classic"]
BALLS = COLOURS["pokemon"]
KIDS_COLOURS = COLOURS["kids"]
KIDS_DECISIONS = ("action", "return", "drought", "thief", "city", "medal")
SPACE_KINDS = ("port", "city", "village", "palace")
VILLAGE_EFFECTS = ("Tornado", "Treasure", "Drought", "Kind-Hearted Thief", "Queen's Gem")
MAX_SPACES = 40
MAX_ROADS = 72


@dataclass(frozen=True)
class Field:
    """One part of an observation vector: its name, how many values, and what they mean."""

    name: str
    size: int
    meaning: str


class Writer:
    """Appends values to a vector in the order of a layout, checking each part's size as it goes."""

    def __init__(self, fields: list[Field]) -> None:
        self.fields = fields
        self.out = np.zeros(sum(f.size for f in fields), dtype=np.float32)
        self.at = 0
        self.index = 0

    def put(self, values: list[float]) -> None:
        field = self.fields[self.index]
        if len(values) != field.size:
            raise AssertionError(f"field {field.name} has {len(values)} values, not {field.size}")
        self.out[self.at : self.at + field.size] = np.clip(np.asarray(values, dtype=np.float32), 0.0, 1.0)
        self.at += field.size
        self.index += 1

    def done(self) -> np.ndarray:
        if self.index != len(self.fields):
            raise AssertionError("not every field of the layout was written")
        return self.out


def one_hot(value: Any, options: tuple[Any, ...] | list[Any]) -> list[float]:
    return [1.0 if value == o else 0.0 for o in options]


def _seats_from(view: dict[str, Any]) -> list[dict[str, Any] | None]:
    """The seats from the viewer's place (the viewer first), padded to four."""
    seats = view["seats"]
    first = view["viewer"] if view["viewer"] is not None else 0
    ordered: list[dict[str, Any] | None] = [seats[(first + i) % len(seats)] for i in range(len(seats))]
    return ordered + [None] * (MAX_SEATS - len(ordered))


def _header(view: dict[str, Any], decisions: tuple[str, ...], w: Writer) -> None:
    mine = 1.0 if view["viewer"] is not None and view["current_player"] == view["viewer"] else 0.0
    w.put(one_hot(view["players"], (2, 3, 4)))
    w.put([view["round"] / 50])
    w.put([float(bool(view.get("final_round")))])
    w.put(one_hot(view["decision"], decisions))
    w.put([mine])


def _header_fields(decisions: tuple[str, ...]) -> list[Field]:
    return [
        Field("players", 3, "one-hot: 2, 3 or 4 players"),
        Field("round", 1, "the round / 50"),
        Field("final_round", 1, "1 when the final round is being played"),
        Field("decision", len(decisions), "one-hot: " + ", ".join(decisions)),
        Field("my_decision", 1, "1 when the viewer decides now"),
    ]


# ----------------------------------------------------------------- classic Splendor

CLASSIC_CARD = 12


def _classic_card(card: dict[str, Any] | None) -> list[float]:
    if card is None or card.get("hidden"):
        return [0.0] * CLASSIC_CARD
    return [
        1.0,
        card["points"] / 5,
        *one_hot(card["bonus"], CLASSIC_COLOURS[:5]),
        *(card["cost"].get(c, 0) / 7 for c in CLASSIC_COLOURS[:5]),
    ]


def _classic_layout() -> list[Field]:
    card = "present, points / 5, bonus one-hot (white blue green red black), cost in each colour / 7"
    fields = _header_fields(("action", "return", "noble"))
    fields += [
        Field("supply", 6, "tokens in the supply / 7: white blue green red black gold"),
        Field("decks", 3, "cards left in the tier 1, 2, 3 decks / 40"),
    ]
    fields += [
        Field(f"market_{tier}_{slot}", CLASSIC_CARD, f"the face-up card at tier {tier}, slot {slot}: {card}")
        for tier in (1, 2, 3)
        for slot in (1, 2, 3, 4)
    ]
    fields += [
        Field(f"noble_{i}", 7, "present, points / 3, bonuses required / 4 (white blue green red black)")
        for i in range(5)
    ]
    for s in range(MAX_SEATS):
        who = "the viewer" if s == 0 else f"the seat {s} after the viewer"
        fields += [
            Field(
                f"seat_{s}",
                16,
                f"{who}: present, points / 15, tokens / 7 (6 colours), bonuses / 7 "
                "(5 colours), cards bought / 20, nobles / 3, reserved cards / 3",
            )
        ]
        fields += [
            Field(
                f"seat_{s}_reserved_{r}",
                5 + CLASSIC_CARD,
                f"{who}'s reserved card {r + 1}: present, face down to the viewer, tier one-hot; {card} "
                "(zeros when face down)",
            )
            for r in range(3)
        ]
    return fields


def _classic(view: dict[str, Any], w: Writer) -> None:
    _header(view, ("action", "return", "noble"), w)
    w.put([view["supply"][c] / 7 for c in CLASSIC_COLOURS])
    w.put([view["decks"][t] / 40 for t in ("1", "2", "3")])
    for tier in ("1", "2", "3"):
        for slot in range(4):
            row = view["market"][tier]
            w.put(_classic_card(row[slot] if slot < len(row) else None))
    for i in range(5):
        noble = view["nobles"][i] if i < len(view["nobles"]) else None
        w.put(
            [0.0] * 7
            if noble is None
            else [1.0, noble["points"] / 3, *(noble["requires"].get(c, 0) / 4 for c in CLASSIC_COLOURS[:5])]
        )
    for seat in _seats_from(view):
        if seat is None:
            w.put([0.0] * 16)
            for _r in range(3):
                w.put([0.0] * (5 + CLASSIC_CARD))
            continue
        w.put(
            [
                1.0,
                seat["points"] / 15,
                *(seat["tokens"].get(c, 0) / 7 for c in CLASSIC_COLOURS),
                *(seat["bonuses"].get(c, 0) / 7 for c in CLASSIC_COLOURS[:5]),
                len(seat["cards"]) / 20,
                len(seat["nobles"]) / 3,
                len(seat["reserved"]) / 3,
            ]
        )
        for r in range(3):
            card = seat["reserved"][r] if r < len(seat["reserved"]) else None
            if card is None:
                w.put([0.0] * (5 + CLASSIC_CARD))
            else:
                w.put([1.0, float(bool(card.get("hidden"))), *one_hot(card["tier"], (1, 2, 3)), *_classic_card(card)])


# ----------------------------------------------------------------- Splendor: Pokémon

POKEMON_CARD = 26


def _pokemon_card(card: dict[str, Any] | None) -> list[float]:
    if card is None or card.get("hidden"):
        return [0.0] * POKEMON_CARD
    evolve = next(iter((card.get("evolve") or {}).items()), (None, 0))
    return [
        1.0,
        card["points"] / 5,
        *one_hot(card["bonus"], BALLS[:5]),
        card["bonus_count"] / 2,
        *(card["cost"].get(c, 0) / 7 for c in BALLS),
        float(bool(card.get("evolves_to"))),
        *one_hot(evolve[0], BALLS[:5]),
        evolve[1] / 4,
        *one_hot(str(card["level"]), LEVELS),
    ]


def _pokemon_layout() -> list[Field]:
    card = (
        "present, points / 5, bonus one-hot (red blue black pink yellow), bonus count / 2, cost / 7 (red blue "
        "black pink yellow master), evolves, evolution bonus one-hot, evolution bonus count / 4, level one-hot "
        "(1 2 3 rare legendary)"
    )
    fields = _header_fields(("action", "return", "evolve"))
    fields += [
        Field("supply", 6, "balls in the supply / 7: red blue black pink yellow master"),
        Field("decks", 5, "cards left in the level 1, 2, 3, rare, legendary decks / 40"),
    ]
    fields += [
        Field(f"market_{level}_{slot}", POKEMON_CARD, f"the face-up card at level {level}, slot {slot}: {card}")
        for level in (1, 2, 3)
        for slot in (1, 2, 3, 4)
    ]
    fields += [Field(f"market_{row}", POKEMON_CARD, f"the face-up {row} card: {card}") for row in ("rare", "legendary")]
    for s in range(MAX_SEATS):
        who = "the viewer" if s == 0 else f"the seat {s} after the viewer"
        fields += [
            Field(
                f"seat_{s}",
                16,
                f"{who}: present, points / 18, balls / 7 (6 colours), bonuses / 7 "
                "(5 colours), Pokémon in play / 20, cards under the trainer tile / 10, "
                "reserved cards / 3",
            )
        ]
        fields += [
            Field(
                f"seat_{s}_reserved_{r}",
                7 + POKEMON_CARD,
                f"{who}'s reserved card {r + 1}: present, face down to the viewer, level one-hot; {card} "
                "(zeros when face down)",
            )
            for r in range(3)
        ]
        fields += [
            Field(
                f"seat_{s}_pokemon",
                len(POKEMON_NAMES),
                f"{who}'s Pokémon in play, by name in the order of splendor.games.pokemon.names / 2",
            )
        ]
    return fields


def _pokemon(view: dict[str, Any], w: Writer) -> None:
    _header(view, ("action", "return", "evolve"), w)
    w.put([view["supply"][c] / 7 for c in BALLS])
    w.put([view["decks"][row] / 40 for row in LEVELS])
    for level in ("1", "2", "3"):
        for slot in range(4):
            row = view["market"][level]
            w.put(_pokemon_card(row[slot] if slot < len(row) else None))
    for row_name in ("rare", "legendary"):
        row = view["market"][row_name]
        w.put(_pokemon_card(row[0] if row else None))
    for seat in _seats_from(view):
        if seat is None:
            w.put([0.0] * 16)
            for _r in range(3):
                w.put([0.0] * (7 + POKEMON_CARD))
            w.put([0.0] * len(POKEMON_NAMES))
            continue
        w.put(
            [
                1.0,
                seat["points"] / 18,
                *(seat["tokens"].get(c, 0) / 7 for c in BALLS),
                *(seat["bonuses"].get(c, 0) / 7 for c in BALLS[:5]),
                len(seat["cards"]) / 20,
                len(seat["under_tile"]) / 10,
                len(seat["reserved"]) / 3,
            ]
        )
        for r in range(3):
            card = seat["reserved"][r] if r < len(seat["reserved"]) else None
            if card is None:
                w.put([0.0] * (7 + POKEMON_CARD))
            else:
                w.put(
                    [
                        1.0,
                        float(bool(card.get("hidden"))),
                        *one_hot(str(card.get("level", card["tier"])), LEVELS),
                        *_pokemon_card(card),
                    ]
                )
        owned = [0.0] * len(POKEMON_NAMES)
        for card in seat["cards"]:
            owned[POKEMON_NAMES.index(card["name"])] += 0.5
        w.put(owned)


# ----------------------------------------------------------------- Splendor Kids


def _kids_layout() -> list[Field]:
    fields = _header_fields(KIDS_DECISIONS)
    fields += [
        Field("options", 3, "the Mysteries variant, the short game, the gates are closed"),
        Field("supply", 6, "tokens in the supply / 8: mushroom apple cabbage hazelnut water gold coin"),
        Field("city_stack", 1, "City tiles left in the stack / 20"),
        Field(
            "marketplace",
            15,
            "each of the 3 Marketplace slots: one-hot of its tile's resource "
            "(zeros when empty or without a Marketplace)",
        ),
        Field("medals_left", 4, "1 for each Queen's Medal (1-4) not yet given"),
    ]
    fields += [
        Field(
            f"space_{i}",
            11,
            f"the board's space {i} (in the order of view['board']['spaces']): present, "
            "kind one-hot (port city village palace), a face-down Village tile, the "
            "turned-up tile one-hot (Tornado Treasure Drought Kind-Hearted-Thief "
            "Queen's-Gem)",
        )
        for i in range(MAX_SPACES)
    ]
    fields += [
        Field(
            f"road_{n}",
            8,
            f"road {n}: present, its start and end as space numbers / {MAX_SPACES}, its banner's "
            "resources / 5 (mushroom apple cabbage hazelnut water)",
        )
        for n in range(1, MAX_ROADS + 1)
    ]
    for s in range(MAX_SEATS):
        who = "the viewer" if s == 0 else f"the seat {s} after the viewer"
        fields += [Field(f"seat_{s}_at", MAX_SPACES, f"{who}'s pawn: one-hot over the spaces")]
        fields += [
            Field(
                f"seat_{s}",
                24,
                f"{who}: present, in the Palace, purse / 8 (6 kinds), Treasures / 2, "
                "active City tiles / 4 (5 resources), used City tiles / 4, Queen's Medal "
                "one-hot (1-4), holds the Queen's Gem",
            )
        ]
    return fields


def _kids(view: dict[str, Any], w: Writer) -> None:
    board = view["board"]
    spaces = [s["id"] for s in board["spaces"]]
    if len(spaces) > MAX_SPACES:
        raise ValueError(f"this board has {len(spaces)} spaces; observations hold at most {MAX_SPACES}")
    _header(view, KIDS_DECISIONS, w)
    w.put([float(bool(view["mysteries"])), float(bool(view["short"])), float(bool(view["gates_closed"]))])
    w.put([view["supply"][c] / 8 for c in KIDS_COLOURS])
    w.put([view["city_stack"] / 20])
    market = view["marketplace"] or []
    w.put([v for i in range(3) for v in one_hot(market[i] if i < len(market) else None, KIDS_COLOURS[:5])])
    w.put([1.0 if m in view["medals_left"] else 0.0 for m in (1, 2, 3, 4)])
    tiles = view["village_tiles"]
    for i in range(MAX_SPACES):
        if i >= len(spaces):
            w.put([0.0] * 11)
            continue
        space = board["spaces"][i]
        tile = tiles.get(space["id"])
        w.put([1.0, *one_hot(space["kind"], SPACE_KINDS), float(tile == "face down"), *one_hot(tile, VILLAGE_EFFECTS)])
    roads = {r["number"]: r for r in board["roads"]}
    for n in range(1, MAX_ROADS + 1):
        road = roads.get(n)
        if road is None:
            w.put([0.0] * 8)
            continue
        w.put(
            [
                1.0,
                spaces.index(road["from"]) / MAX_SPACES,
                spaces.index(road["to"]) / MAX_SPACES,
                *(road["cost"].count(c) / 5 for c in KIDS_COLOURS[:5]),
            ]
        )
    for seat in _seats_from(view):
        if seat is None:
            w.put([0.0] * MAX_SPACES)
            w.put([0.0] * 24)
            continue
        w.put(one_hot(seat["space"], spaces) + [0.0] * (MAX_SPACES - len(spaces)))
        active = [sum(1 for t in seat["city_tiles"] if t["active"] and t["colour"] == c) / 4 for c in KIDS_COLOURS[:5]]
        used = [
            sum(1 for t in seat["city_tiles"] if not t["active"] and t["colour"] == c) / 4 for c in KIDS_COLOURS[:5]
        ]
        w.put(
            [
                1.0,
                float(bool(seat["in_palace"])),
                *(seat["tokens"].get(c, 0) / 8 for c in KIDS_COLOURS),
                seat["treasure"] / 2,
                *active,
                *used,
                *one_hot(seat["medal"], (1, 2, 3, 4)),
                float(bool(seat["queens_gem"])),
            ]
        )


_LAYOUTS: dict[str, Callable[[], list[Field]]] = {
    "classic": _classic_layout,
    "pokemon": _pokemon_layout,
    "kids": _kids_layout,
}
_WRITERS: dict[str, Callable[[dict[str, Any], Writer], None]] = {
    "classic": _classic,
    "pokemon": _pokemon,
    "kids": _kids,
}


ORDER = Field(
    "order",
    MAX_SEATS,
    "one-hot: the first seat written (the viewer; a spectator's, seat 0)'s place in the turn order, 0 for the first "
    "player: how many seats still play before the round ends, which decides whether reaching the target ends the "
    "game at once (ruling 2)",
)
"""The last field of every layout. It came last (observation layout 2): a policy trained on layout 1, without it,
reads the first values alone (`splendor.bots.learned.Policy`)."""


def layout(game: str) -> list[Field]:
    """The fields of ``game``'s observation vector, in order (the same for every player count)."""
    if game not in _LAYOUTS:
        raise ValueError(f"no observation for game {game!r}; the games are {', '.join(_LAYOUTS)}")
    return [*_LAYOUTS[game](), ORDER]


def grouped(game: str) -> list[tuple[str, int, int, str]]:
    """``game``'s layout with repeated fields folded (as ``docs/rl.md`` shows it): (name with ``N`` for the
    numbers that vary, how many, values each, meaning of the first)."""
    out: list[tuple[str, int, int, str]] = []
    for f in layout(game):
        pattern = re.sub(r"\d+", "N", f.name)
        if out and out[-1][0] == pattern and out[-1][2] == f.size:
            out[-1] = (pattern, out[-1][1] + 1, f.size, out[-1][3])
        else:
            out.append((pattern, 1, f.size, f.meaning))
    return out


def size(game: str) -> int:
    """How many values ``game``'s observation vector holds."""
    return sum(f.size for f in layout(game))


def observe(view: dict[str, Any]) -> np.ndarray:
    """The flat float32 observation of a seat's view (``game.view(seat)``), laid out as `layout` says."""
    w = Writer(layout(view["game"]))
    _WRITERS[view["game"]](view, w)
    first = view["viewer"] if view["viewer"] is not None else 0
    w.put(one_hot((first - view["first_player"]) % view["players"], list(range(MAX_SEATS))))
    return w.done()
