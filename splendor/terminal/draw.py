"""Drawing a view in the terminal. Each game registers a drawer; colours always carry their letter too, so
nothing is told by colour alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from splendor.games.palettes import TOKENS
from splendor.i18n import SOURCE_LANGUAGE, Message, _, _n, translate

STYLES = {
    "white": "bold black on grey85",  # a light chip beside black's dark one: both had been white on a dark grey
    "blue": "bold bright_blue",
    "green": "bold green",
    "red": "bold red",
    "black": "bold white on grey11",
    "gold": "bold yellow",
    "pink": "bold magenta",
    "yellow": "bold yellow",
    "master": "bold white on purple",
    "brown": "bold white on dark_orange3",
    "treasure": "bold yellow",
}
LETTERS = {name: letter for tokens in TOKENS.values() for name, letter in zip(tokens.names, tokens.letters)}
"""Each colour's letter (one letter a colour in every game: the palettes agree)."""

Say = Callable[[Message], str]
"""Renders a message in the reader's language."""
Drawer = Callable[..., RenderableType]
"""``drawer(view, names, say, whole=False)``: ``whole`` asks for everything on the table even where that is long
(the Kids board); the card games' tables are always whole."""
DRAWERS: dict[str, Drawer] = {}


def labelled(label: str) -> str:
    """A label said in the reader's language, ready for what it labels: a space after its colon, but none after a
    full-width one, which holds its own space ("供应区：4r", not "供应区： 4r")."""
    return label if label.endswith("\uff1a") else label + " "


def counts(values: dict[str, int], *, skip_zero: bool = True, bonus: bool = False) -> Text:
    """``3w 1b 2y`` with each colour styled; ``bonus``: ``+3w +1b``, as a card writes its bonus, so that a seat's
    bonuses are never read as its tokens beside them."""
    text = Text()
    for colour, n in values.items():
        if n or not skip_zero:
            if text:
                text.append(" ")
            text.append(f"{'+' if bonus else ''}{n}{LETTERS.get(colour, colour[0])}", style=STYLES.get(colour, ""))
    return text if text else Text("-", style="dim")


class Flow:
    """Pieces of text on as few lines as the width allows, a line broken only between pieces (a noble, a Pokémon
    is never cut in two), each line after the first indented by ``indent``: ``Flow(Text("Nobles:"), noble, noble)``.
    """

    def __init__(self, *pieces: Text, gap: int = 2, indent: int = 0) -> None:
        self.pieces, self.gap, self.indent = pieces, gap, indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        for piece in self.pieces:
            if line.plain.strip() and line.cell_len + self.gap + piece.cell_len > options.max_width:
                yield line
                line = Text(" " * self.indent)
            elif line:
                line.append(" " * self.gap)
            line.append_text(piece)
        yield line  # (a piece wider than the line is left to wrap as text does)


def choices(label: str, actions: list[str]) -> Flow:
    """``label`` and the actions, parted by ``|`` and broken only between actions: ``take w r k`` had been cut
    into ``take`` and ``w r k`` at a line's end."""
    pieces = [Text(label, style="bold")]
    pieces += [Text(action + (" |" if i < len(actions) - 1 else "")) for i, action in enumerate(actions)]
    return Flow(*pieces, gap=1)


def draw(
    view: dict[str, Any], names: list[str], language: str = SOURCE_LANGUAGE, *, whole: bool = False
) -> RenderableType:
    """The table as one renderable in ``language``, for the game the view belongs to. Each turn's table fits an
    80x24 terminal where it can; ``whole`` draws all of it (the Kids board, section by section)."""
    drawer = DRAWERS.get(view["game"])
    if drawer is None:
        raise ValueError(f"no terminal drawing for game {view['game']!r}")
    return drawer(view, names, lambda message: translate(message, language), whole=whole)


def classic_card(card: dict[str, Any] | None, say: Say = str) -> Text:
    """One development card: points, bonus and cost."""
    if card is None:
        return Text(say(_("(empty)")), style="dim")
    if card.get("hidden"):
        return Text(say(_("[tier {tier} card, face down]", tier=card["tier"])), style="dim italic")
    text = Text()
    text.append(f"{card['points']}★ " if card["points"] else "   ", style="bold")
    colour = card["bonus"]
    text.append(f"+{LETTERS[colour]}", style=STYLES[colour])
    text.append(" ")
    text.append_text(counts(card["cost"]))
    return text


FINAL_ROUND = _("FINAL ROUND")


def _status(say: Say, game: Message, view: dict[str, Any], *, final_round: Message = FINAL_ROUND) -> str:
    status = say(_("{game} · turn {turn} · round {round}", game=game, turn=view["turn"], round=view["round"]))
    if view.get("points_to_win"):
        status += " · " + say(_("{points}★ to win", points=view["points_to_win"]))
    if view.get("final_round") and not view["is_over"]:
        status += " · " + say(final_round)
    return status


def _plain_table(say: Say, *columns: Message | str) -> Table:
    """A table with no box: a bold heading row and one space between its columns. Boxes cost a line for each rule
    and three columns' width, and an 80x24 terminal lost the table's top to them."""
    table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, show_edge=False, header_style="bold")
    for column in columns:  # a message in the reader's words, or a mark that needs none ("★")
        table.add_column(say(column) if isinstance(column, Message) else column)
    return table


def draw_classic(view: dict[str, Any], names: list[str], say: Say = str, *, whole: bool = False) -> RenderableType:
    """Classic Splendor: nobles, market, supply and every seat, on 80 columns: a market row is one line (its four
    cards), so the whole table of two players takes about 10 lines and of four about 14 (more while seats hold
    reserved cards, one line each)."""
    parts: list[RenderableType] = [Text(_status(say, _("Splendor"), view), style="bold")]

    nobles = [Text(say(_("Nobles:")), style="bold")]
    for n in view["nobles"]:
        noble = Text(say(_("noble {number} ({points}★):", number=n["id"], points=n["points"])) + " ")
        nobles.append(noble.append_text(counts(n["requires"])))
    if not view["nobles"]:
        nobles.append(Text(say(_("none left")), style="dim"))
    parts.append(Flow(*nobles))

    market = _plain_table(say, _("tier"), _("deck"), *(_("slot {slot}", slot=s + 1) for s in range(4)))
    market.columns[1].justify = "right"
    for tier in ("3", "2", "1"):
        market.add_row(tier, str(view["decks"][tier]), *[classic_card(c, say) for c in view["market"][tier]])
    parts.append(market)

    supply = Text(labelled(say(_("Supply:"))), style="bold")
    supply.append_text(counts(view["supply"], skip_zero=False))
    parts.append(supply)

    seats = _plain_table(say, _("seat"), "★", _("tokens"), _("bonuses"), _("reserved"), _("nobles"))
    seats.columns[1].justify = "right"
    for sv in view["seats"]:
        s = sv["seat"]
        marker = "▶ " if s == view["turn_of"] else "  "
        label = Text(f"{marker}{s} {names[s]}")  # a name is words, never markup
        reserved = Text()
        for i, card in enumerate(sv["reserved"], 1):
            if i > 1:
                reserved.append("\n")  # one line each, and none after the last: it made an empty row
            reserved.append(f"{i}: ")
            reserved.append_text(classic_card(card, say))
        seats.add_row(
            label,
            str(sv["points"]),
            counts(sv["tokens"]),
            counts(sv["bonuses"], bonus=True),
            reserved if sv["reserved"] else Text("-", style="dim"),
            ", ".join(str(n["id"]) for n in sv["nobles"]) or "-",
        )
    parts.append(seats)
    return Group(*parts)


DRAWERS["classic"] = draw_classic


def pokemon_name(card: dict[str, Any], say: Say = str) -> str:
    """``001 Bulbasaur``: the Pokémon's National Pokédex number (when the card has one) and its name. (A card's own
    id, with which an evolution is typed, is written ``[#5]``: two numbers of one look had been three.)"""
    name = say(Message(card["name"]))
    if not card.get("dex"):
        return name
    return str(card["dex"]).zfill(3) + " " + name


def bonus_text(card: dict[str, Any]) -> Text:
    """A card's bonus as the cards write one: ``+p``, and ``+2p`` for a card that gives two."""
    colour, n = card["bonus"], card.get("bonus_count", 1)
    return Text(f"+{n if n > 1 else ''}{LETTERS[colour]}", style=STYLES[colour])


def pokemon_card(card: dict[str, Any] | None, sep: str = "\n", say: Say = str, *, column: bool = False) -> Text:
    """One Pokémon card: Pokédex number, name, points, bonus, cost and evolution condition (parts joined by
    ``sep``). In a ``column`` of the display it takes three short lines: the name; points, bonus and cost (without
    the word); what it evolves into."""
    if card is None:
        return Text(say(_("(empty)")), style="dim")
    if card.get("hidden"):
        return Text(say(_("[level {level} card, face down]", level=card["tier"])), style="dim italic")
    text = Text()
    text.append(pokemon_name(card, say), style="bold")
    lead = sep if column else " "
    text.append(f"{lead}{card['points']}★ " if card["points"] else lead)
    text.append_text(bonus_text(card))
    text.append(" " if column else sep + say(_("cost")) + " ")
    text.append_text(counts(card["cost"]))
    if card["evolves_to"]:
        text.append(sep)
        text.append_text(evolution(card, say))
    return text


def evolution(card: dict[str, Any], say: Say = str) -> Text:
    """What a Pokémon card evolves into and the bonuses that takes: ``→ Ivysaur 3p``."""
    ((needed, n),) = card["evolve"].items()
    text = Text(say(_("→ {pokemon} {n}", pokemon=Message(card["evolves_to"]), n=n)))
    text.append(LETTERS[needed], style=STYLES[needed])
    return text


def draw_pokemon(view: dict[str, Any], names: list[str], say: Say = str, *, whole: bool = False) -> RenderableType:
    """Splendor: Pokémon: the display (rare, legendary, the levels), the supply and every trainer. At a turn each
    trainer is a line, with their reserved cards and, for the seat that reads, the Pokémon they may evolve: the
    display stays on an 80x24 terminal. ``whole`` adds the balls' names and every trainer's play area."""
    parts: list[RenderableType] = [Text(_status(say, _("Splendor: Pokémon"), view), style="bold")]
    if whole:
        balls = [Text(say(_("Balls:")))]
        balls += [Text(f"{LETTERS[c]}={say(Message(ball))}", style=STYLES[c]) for c, ball in view["ball_names"].items()]
        parts.append(Flow(*balls, gap=1))
    for lv, named in (("rare", _("rare")), ("legendary", _("legendary"))):
        # in the reader's words, and as it is typed ('catch rare') where the two differ; with its pile's count
        label = say(named) if say(named) == lv else f"{say(named)} [{lv}]"
        line = Text(f"{label} (" + say(_("deck {left}", left=view["decks"][lv])) + "): ", style="bold")
        line.append_text(pokemon_card(view["market"][lv][0], sep=" · ", say=say))
        parts.append(line)
    display = _plain_table(say, _("level"), *(_("slot {slot}", slot=s + 1) for s in range(4)))
    for level in ("3", "2", "1"):
        here = Text(level, style="bold").append("\n" + say(_("deck {left}", left=view["decks"][level])), style="dim")
        display.add_row(here, *[pokemon_card(c, say=say, column=True) for c in view["market"][level]])
    parts.append(display)
    supply = Text(labelled(say(_("Supply:"))), style="bold")
    supply.append_text(counts(view["supply"], skip_zero=False))
    parts.append(supply)
    if whole:
        parts.append(Text(say(_("Trainers")), style="bold underline"))
    for sv in view["seats"]:
        s = sv["seat"]
        head = Text("▶ " if s == view["turn_of"] else "  ")
        head.append(f"{s} {names[s]}: {sv['points']}★", style="bold")
        head.append(" · " + say(_("balls")) + " ")
        head.append_text(counts(sv["tokens"]))
        head.append(" · " + say(_("bonuses")) + " ")
        head.append_text(counts(sv["bonuses"]))
        head.append(" · " + say(_n("{n} Pokémon", "{n} Pokémon", len(sv["cards"]))))
        parts.append(head)
        shown = sv["cards"] if whole else _ready_to_evolve(view, sv) if s == view["viewer"] else []
        if shown or whole:
            area = [Text("    " + say(_("play area:") if whole else _("ready to evolve:")))]
            for i, c in enumerate(shown):
                card = Text(say(Message(c["name"])) + " ")  # (the Pokédex's number is in the display and the reserve)
                if c["evolves_to"]:  # the card's id, as 'evolve ID ...' is typed
                    card.append(f"[#{c['id']}] ", style="dim")
                card.append_text(bonus_text(c))
                if c["points"]:
                    card.append(f" {c['points']}★")
                if c["evolves_to"]:  # its next stage, in sight as the rules lay it out (and as the display says it)
                    card.append(" ")
                    card.append_text(evolution(c, say))
                area.append(card.append("," if i < len(shown) - 1 else ""))
            if not shown:
                area.append(Text("-", style="dim"))
            parts.append(Flow(*area, gap=1, indent=6))
        if sv["under_tile"] and whole:
            under = ", ".join(say(Message(c["name"])) for c in sv["under_tile"])
            parts.append(Text("    " + say(_("under the trainer tile: {pokemon}", pokemon=under))))
        for i, card in enumerate(sv["reserved"], 1):
            line = Text("    " + say(_("reserved {number}:", number=i)) + " ")
            line.append_text(pokemon_card(card, sep=" · ", say=say))
            parts.append(line)
    return Group(*parts)


def _ready_to_evolve(view: dict[str, Any], seat: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's Pokémon that may evolve at the end of a turn, as the rules' two conditions say: its bonuses
    suffice, and the card it becomes is in the display or in the seat's reserve (the web table's ✓)."""
    in_sight = {c["name"] for row in view["market"].values() for c in row if c and not c.get("hidden")}
    in_sight |= {c["name"] for c in seat["reserved"] if not c.get("hidden")}
    return [
        c
        for c in seat["cards"]
        if c["evolves_to"] in in_sight and all(seat["bonuses"].get(k, 0) >= n for k, n in c["evolve"].items())
    ]


DRAWERS["pokemon"] = draw_pokemon


KIDS_ICONS = {
    "port": ("⚓", _("port")),
    "city": ("▣", _("city")),
    "village": ("▲", _("village")),
    "palace": ("♛", _("PALACE")),
}
KIDS_NAMES = {
    name: Message(word) for name, word in zip(TOKENS["kids"].names, TOKENS["kids"].words) if name != "treasure"
}
TILE_NAMES = {
    "Tornado": _("Tornado"),
    "Treasure": _("Treasure"),
    "Drought": _("Drought"),
    "Kind-Hearted Thief": _("Kind-Hearted Thief"),
    "Queen's Gem": _("Queen's Gem"),
    "face down": _("face down"),  # a Village tile not flipped yet (Mysteries)
}


def _banner_text(cost: list[str]) -> Text:
    text = Text()
    for i, colour in enumerate(cost):
        if i:
            text.append(" ")
        text.append(LETTERS[colour], style=STYLES[colour])
    return text


def draw_kids(view: dict[str, Any], names: list[str], say: Say = str, *, whole: bool = False) -> RenderableType:
    """Splendor Kids: the places where the travelers stand and their roads (``whole``: the board section by section,
    every space, pawn, road and banner), the purses, and the roads the traveler to move can take with what each
    costs them."""
    board = view["board"]
    parts: list[RenderableType] = []
    closing = _("THE GATES ARE CLOSING: last round")  # Kids' final round, said once ("FINAL ROUND · ...last round")
    status = _status(say, _("Splendor Kids"), view, final_round=closing)
    if view["gates_closed"] and not view["is_over"] and not view.get("final_round"):
        status += " · " + say(closing)
    if view["mysteries"]:
        status += " · " + say(_("Mysteries"))
    parts.append(Text(status, style="bold"))
    if whole:
        parts.append(Text(say(Message(board["credit"])), style="dim italic"))
    legend = [Text(say(_("Resources:")))]
    legend += [Text(f"{LETTERS[colour]}={say(word)}", style=STYLES[colour]) for colour, word in KIDS_NAMES.items()]
    if view["mysteries"]:  # the Treasure, held in a purse and paid as 't'
        legend.append(Text(f"{LETTERS['treasure']}={say(TILE_NAMES['Treasure'])}", style=STYLES["treasure"]))
    parts.append(Flow(*legend, gap=1))
    pawns: dict[str, list[str]] = {}
    for sv in view["seats"]:
        pawns.setdefault(sv["space"], []).append(f"{sv['seat']}:{names[sv['seat']]}")
    out: dict[str, list[dict[str, Any]]] = {}
    for road in board["roads"]:
        out.setdefault(road["from"], []).append(road)
    space_name = {sp["id"]: say(Message(sp["name"])) for sp in board["spaces"]}
    # where a road leads, with its kind's mark: a village (▲) gives another turn, a city (▣) a City tile
    marked = {sp["id"]: f"{KIDS_ICONS[sp['kind']][0]} {space_name[sp['id']]}" for sp in board["spaces"]}

    viewer = view["viewer"]
    choosing = viewer is not None and viewer == view["current_player"] and view["decision"] == "action"

    def road_text(road: dict[str, Any]) -> Text:
        text = Text(say(_("road {road} → {place}:", road=road["number"], place=marked[road["to"]])) + " ")
        text.append_text(_banner_text(road["cost"]))
        return text

    def space_lines(sp: dict[str, Any], *, roads: bool = True) -> list[Text]:
        icon, kind = KIDS_ICONS[sp["kind"]]
        words = space_name[sp["id"]] if say(kind).casefold() == space_name[sp["id"]].casefold() else None
        named = words or f"{say(kind)} · {space_name[sp['id']]}"  # Korean's port is "항구 · 항구" else
        line = Text(f"  {icon} {named}", style="bold" if sp["kind"] == "palace" else "")
        tile = view["village_tiles"].get(sp["id"])
        if tile:
            line.append(f" [{say(TILE_NAMES[tile]) if tile in TILE_NAMES else tile}]", style="green")
        if sp["id"] in pawns:
            line.append("  ◉ " + ", ".join(pawns[sp["id"]]), style="bold cyan")
        return [line] + [Text("      ").append_text(road_text(road)) for road in out.get(sp["id"], []) if roads]

    if whole:
        for side in reversed(board["sides"]):
            section = side[:2]
            parts.append(Text(f"── {side} ──", style="bold"))
            for sp in sorted((s for s in board["spaces"] if s["section"] == section), key=lambda s: (s["y"], s["x"])):
                parts.extend(space_lines(sp))
    else:  # the whole board is some 75 lines: drawn every turn, a terminal of 24 showed its last quarter
        parts.append(Text(say(_("Where the travelers stand ('board' draws the whole board):")), style="bold"))
        for sp in board["spaces"]:
            if sp["id"] in pawns:  # your own roads are listed below, with what each costs you
                parts.extend(space_lines(sp, roads=not (choosing and sp["id"] == view["seats"][viewer]["space"])))
    supply = Text(labelled(say(_("Supply:"))), style="bold")
    supply.append_text(counts(view["supply"], skip_zero=False))
    supply.append(" · " + say(_("City tile stack: {left}", left=view["city_stack"])))
    if view["marketplace"] is not None:
        supply.append(" · " + labelled(say(_("Marketplace:"))))
        supply.append_text(
            _banner_text([c for c in view["marketplace"] if c]) if any(view["marketplace"]) else Text(say(_("empty")))
        )
    parts.append(supply)
    parts.append(Text(say(_("Travelers")), style="bold underline"))
    for sv in view["seats"]:
        line = Text("▶ " if sv["seat"] == view["turn_of"] else "  ")
        line.append(
            say(_("{seat} {name} at {place}", seat=sv["seat"], name=names[sv["seat"]], place=space_name[sv["space"]])),
            style="bold",
        )
        line.append(" · " + say(_("purse {held}/8:", held=sv["purse_total"])) + " ")
        line.append_text(counts(sv["tokens"]))
        if sv["treasure"]:
            line.append(" " + say(_n("+{n} Treasure", "+{n} Treasures", sv["treasure"])), style="yellow")
        line.append(" · " + labelled(say(_("City tiles:"))))
        tiles = Text()
        for t in sv["city_tiles"]:
            tiles.append(
                LETTERS[t["colour"]] if t["active"] else f"({LETTERS[t['colour']]})",
                style=STYLES[t["colour"]] if t["active"] else "dim",
            )
            tiles.append(" ")
        tiles.rstrip()  # no space of the last tile's before the next " · "
        line.append_text(tiles if sv["city_tiles"] else Text("-", style="dim"))
        if sv["medal"]:
            line.append(" · " + say(_("Queen's Medal {medal}", medal=sv["medal"])), style="yellow")
        if sv["queens_gem"]:
            line.append(" · " + say(_("holds the Queen's Gem")), style="bold magenta")
        parts.append(line)
    if choosing:
        me = view["seats"][viewer]
        moves: dict[int, list[str]] = {}
        for text in view["legal_actions"]:
            if text.startswith("move "):
                number, _sep, pay = text.removeprefix("move ").partition(" pay ")
                moves.setdefault(int(number), []).append(pay)
        parts.append(Text(say(_("Roads from here (used tiles in brackets cannot pay):")), style="bold"))
        for road in out.get(me["space"], []):
            r = Text("  " + say(_("road {road} → {place} costs", road=road["number"], place=marked[road["to"]])) + " ")
            r.append_text(_banner_text(road["cost"]))
            r.append(":")
            pays = moves.get(road["number"], [])
            example = f"move {road['number']} pay {pays[0]}" if pays else ""
            if len(pays) > 1:
                words = _n(
                    "you can pay, e.g. '{example}' ({n} way)",
                    "you can pay, e.g. '{example}' ({n} ways)",
                    len(pays),
                    example=example,
                )
                can = Text(say(words), style="green")
            elif pays:
                can = Text(say(_("you can pay, e.g. '{example}'", example=example)), style="green")
            else:
                can = Text(say(_("you cannot pay it yet")), style="dim")
            parts.append(Flow(r, can, gap=1, indent=6))  # an example to type is never cut at a line's end
            onward = out.get(road["to"], [])
            if onward:  # one road ahead: what the next move from there would cost, a road never cut in two
                then = [Text("      " + say(_("then:")), style="dim")]
                then += [road_text(r).append(" ·" if i < len(onward) - 1 else "") for i, r in enumerate(onward)]
                parts.append(Flow(*then, gap=1, indent=8))
    return Group(*parts)


DRAWERS["kids"] = draw_kids
