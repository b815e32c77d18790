"""Drawing a view in the terminal. Each game registers a drawer; colours always carry their letter too, so
nothing is told by colour alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

STYLES = {
    "white": "bold white on grey23", "blue": "bold bright_blue", "green": "bold green", "red": "bold red",
    "black": "bold white on grey11", "gold": "bold yellow", "pink": "bold magenta", "yellow": "bold yellow",
    "master": "bold white on purple", "brown": "bold white on dark_orange3", "treasure": "bold yellow",
}
LETTERS = {"white": "w", "blue": "b", "green": "g", "red": "r", "black": "k", "gold": "y", "pink": "p",
           "yellow": "y", "master": "m", "brown": "h", "treasure": "t"}

Drawer = Callable[[dict[str, Any], list[str]], RenderableType]
DRAWERS: dict[str, Drawer] = {}


def counts(values: dict[str, int], *, skip_zero: bool = True) -> Text:
    """``3w 1b 2y`` with each colour styled."""
    text = Text()
    for colour, n in values.items():
        if n or not skip_zero:
            if text:
                text.append(" ")
            text.append(f"{n}{LETTERS.get(colour, colour[0])}", style=STYLES.get(colour, ""))
    return text if text else Text("-", style="dim")


def draw(view: dict[str, Any], names: list[str]) -> RenderableType:
    """The whole table as one renderable, for the game the view belongs to."""
    drawer = DRAWERS.get(view["game"])
    if drawer is None:
        raise ValueError(f"no terminal drawing for game {view['game']!r}")
    return drawer(view, names)


def classic_card(card: dict[str, Any] | None) -> Text:
    """One development card: points, bonus and cost."""
    if card is None:
        return Text("(empty)", style="dim")
    if card.get("hidden"):
        return Text(f"[tier {card['tier']} card, face down]", style="dim italic")
    text = Text()
    text.append(f"{card['points']}pt " if card["points"] else "    ", style="bold")
    colour = card["bonus"]
    text.append(f"+{LETTERS[colour]}", style=STYLES[colour])
    text.append("  ")
    text.append_text(counts(card["cost"]))
    return text


def draw_classic(view: dict[str, Any], names: list[str]) -> RenderableType:
    """Classic Splendor: nobles, market, supply and every seat."""
    parts: list[RenderableType] = []
    status = f"Splendor · turn {view['turn']} · round {view['round']}"
    if view["final_round"] and not view["is_over"]:
        status += " · FINAL ROUND"
    parts.append(Text(status, style="bold"))

    nobles = Text("Nobles: ", style="bold")
    for n in view["nobles"]:
        nobles.append(f"[noble {n['id']}, {n['name']}: {n['points']}pt needs ")
        nobles.append_text(counts(n["requires"]))
        nobles.append("]  ")
    if not view["nobles"]:
        nobles.append("none left", style="dim")
    parts.append(nobles)

    market = Table(title="Market", show_header=True, header_style="bold", expand=False)
    market.add_column("tier")
    market.add_column("deck", justify="right")
    for s in range(4):
        market.add_column(f"slot {s + 1}")
    for tier in ("3", "2", "1"):
        market.add_row(tier, str(view["decks"][tier]),
                       *[classic_card(c) for c in view["market"][tier]])
    parts.append(market)

    supply = Text("Supply: ", style="bold")
    supply.append_text(counts(view["supply"], skip_zero=False))
    parts.append(supply)

    seats = Table(title="Players", show_header=True, header_style="bold")
    for col in ("seat", "points", "tokens", "bonuses", "cards", "reserved", "nobles"):
        seats.add_column(col)
    for sv in view["seats"]:
        s = sv["seat"]
        marker = "▶ " if s == view["turn_of"] else "  "
        label = f"{marker}{s} {names[s]}"
        reserved = Text()
        for i, card in enumerate(sv["reserved"], 1):
            reserved.append(f"{i}: ")
            reserved.append_text(classic_card(card))
            reserved.append("\n")
        seats.add_row(label, str(sv["points"]), counts(sv["tokens"]), counts(sv["bonuses"]),
                      str(len(sv["cards"])), reserved if sv["reserved"] else Text("-", style="dim"),
                      ", ".join(f"noble {n['id']}" for n in sv["nobles"]) or "-")
    parts.append(seats)
    return Group(*parts)


DRAWERS["classic"] = draw_classic


def pokemon_card(card: dict[str, Any] | None, sep: str = "\n") -> Text:
    """One Pokémon card: id, name, points, bonus, cost and evolution condition (parts joined by ``sep``)."""
    if card is None:
        return Text("(empty)", style="dim")
    if card.get("hidden"):
        return Text(f"[level {card['tier']} card, face down]", style="dim italic")
    text = Text()
    text.append(f"#{card['id']} {card['name']}", style="bold")
    text.append(f" {card['points']}pt " if card["points"] else " ")
    colour = card["bonus"]
    text.append(f"+{LETTERS[colour]}" + ("x2" if card["bonus_count"] == 2 else ""), style=STYLES[colour])
    text.append(f"{sep}cost ")
    text.append_text(counts(card["cost"]))
    if card["evolves_to"]:
        (colour_needed, n), = card["evolve"].items()
        text.append(f"{sep}→ {card['evolves_to']} with {n}")
        text.append(LETTERS[colour_needed], style=STYLES[colour_needed])
    return text


def draw_pokemon(view: dict[str, Any], names: list[str]) -> RenderableType:
    """Splendor: Pokémon: the display (levels, rare, legendary), the supply and every trainer."""
    parts: list[RenderableType] = []
    status = f"Splendor: Pokémon · turn {view['turn']} · round {view['round']} · {view['points_to_win']} points to win"
    if view["final_round"] and not view["is_over"]:
        status += " · FINAL ROUND"
    parts.append(Text(status, style="bold"))
    balls = Text("Balls: ")
    for colour, ball in view["ball_names"].items():
        balls.append(f"{LETTERS[colour]}={ball} ", style=STYLES[colour])
    parts.append(balls)
    display = Table(title="Display", show_header=True, header_style="bold")
    display.add_column("level")
    display.add_column("deck", justify="right")
    for s in range(4):
        display.add_column(f"slot {s + 1}")
    special = [pokemon_card(view["market"][lv][0]) for lv in ("rare", "legendary")]
    display.add_row("rare | legendary", f"{view['decks']['rare']} | {view['decks']['legendary']}",
                    special[0], special[1], "", "")
    for level in ("3", "2", "1"):
        display.add_row(level, str(view["decks"][level]), *[pokemon_card(c) for c in view["market"][level]])
    parts.append(display)
    supply = Text("Supply: ", style="bold")
    supply.append_text(counts(view["supply"], skip_zero=False))
    parts.append(supply)
    parts.append(Text("Trainers", style="bold underline"))
    for sv in view["seats"]:
        s = sv["seat"]
        head = Text("▶ " if s == view["turn_of"] else "  ")
        head.append(f"{s} {names[s]}: {sv['points']} points", style="bold")
        head.append(" · balls ")
        head.append_text(counts(sv["tokens"]))
        head.append(" · bonuses ")
        head.append_text(counts(sv["bonuses"]))
        parts.append(head)
        area = Text("    play area: ")
        for i, c in enumerate(sv["cards"]):
            if i:
                area.append(", ")
            area.append(f"#{c['id']} {c['name']} ")
            area.append(f"+{LETTERS[c['bonus']]}" + ("x2" if c["bonus_count"] == 2 else ""), style=STYLES[c["bonus"]])
            if c["points"]:
                area.append(f" {c['points']}pt")
        if not sv["cards"]:
            area.append("-", style="dim")
        parts.append(area)
        if sv["under_tile"]:
            parts.append(Text("    under the trainer tile: " + ", ".join(c["name"] for c in sv["under_tile"])))
        for i, card in enumerate(sv["reserved"], 1):
            line = Text(f"    reserved {i}: ")
            line.append_text(pokemon_card(card, sep=" · "))
            parts.append(line)
    return Group(*parts)


DRAWERS["pokemon"] = draw_pokemon


KIDS_ICONS = {"port": "⚓ port", "city": "▣ city", "village": "▲ village", "palace": "♛ PALACE"}
KIDS_NAMES = {"black": "mushroom", "red": "apple", "green": "cabbage", "brown": "hazelnut", "blue": "water",
              "gold": "gold coin"}


def _banner_text(cost: list[str]) -> Text:
    text = Text()
    for i, colour in enumerate(cost):
        if i:
            text.append(" ")
        text.append(LETTERS[colour], style=STYLES[colour])
    return text


def draw_kids(view: dict[str, Any], names: list[str]) -> RenderableType:
    """Splendor Kids: the board section by section (spaces, pawns, roads and banners), the purses, and the roads
    the traveler to move can take with what each costs them."""
    board = view["board"]
    parts: list[RenderableType] = []
    status = f"Splendor Kids · turn {view['turn']} · round {view['round']}"
    if view["mysteries"]:
        status += " · Mysteries"
    if view["gates_closed"] and not view["is_over"]:
        status += " · THE GATES ARE CLOSING: last round"
    parts.append(Text(status, style="bold"))
    parts.append(Text(board["credit"], style="dim italic"))
    legend = Text("Resources: ")
    for colour, word in KIDS_NAMES.items():
        legend.append(f"{LETTERS[colour]}={word} ", style=STYLES[colour])
    parts.append(legend)
    pawns: dict[str, list[str]] = {}
    for sv in view["seats"]:
        pawns.setdefault(sv["space"], []).append(f"{sv['seat']}:{names[sv['seat']]}")
    out: dict[str, list[dict[str, Any]]] = {}
    for road in board["roads"]:
        out.setdefault(road["from"], []).append(road)
    space_name = {sp["id"]: sp["name"] for sp in board["spaces"]}
    for side in reversed(board["sides"]):
        section = side[:2]
        parts.append(Text(f"── {side} ──", style="bold"))
        for sp in sorted((s for s in board["spaces"] if s["section"] == section), key=lambda s: (s["y"], s["x"])):
            line = Text(f"  {KIDS_ICONS[sp['kind']]:10} {sp['name']}", style="bold" if sp["kind"] == "palace" else "")
            tile = view["village_tiles"].get(sp["id"])
            if tile:
                line.append(f" [{tile}]", style="green")
            if sp["id"] in pawns:
                line.append("  ◉ " + ", ".join(pawns[sp["id"]]), style="bold cyan")
            parts.append(line)
            for road in out.get(sp["id"], []):
                r = Text(f"      road {road['number']:>2} → {space_name[road['to']]}: ")
                r.append_text(_banner_text(road["cost"]))
                parts.append(r)
    supply = Text("Supply: ", style="bold")
    supply.append_text(counts(view["supply"], skip_zero=False))
    supply.append(f" · City tile stack: {view['city_stack']}")
    if view["marketplace"] is not None:
        supply.append(" · Marketplace: ")
        supply.append_text(_banner_text([c for c in view["marketplace"] if c]) if any(view["marketplace"])
                           else Text("empty"))
    parts.append(supply)
    parts.append(Text("Travelers", style="bold underline"))
    for sv in view["seats"]:
        line = Text("▶ " if sv["seat"] == view["turn_of"] else "  ")
        line.append(f"{sv['seat']} {names[sv['seat']]} at {space_name[sv['space']]}", style="bold")
        line.append(f" · purse {sv['purse_total']}/8: ")
        line.append_text(counts(sv["tokens"]))
        if sv["treasure"]:
            line.append(f" +{sv['treasure']} Treasure", style="yellow")
        line.append(" · City tiles: ")
        tiles = Text()
        for t in sv["city_tiles"]:
            tiles.append(LETTERS[t["colour"]] if t["active"] else f"({LETTERS[t['colour']]})",
                         style=STYLES[t["colour"]] if t["active"] else "dim")
            tiles.append(" ")
        line.append_text(tiles if sv["city_tiles"] else Text("-", style="dim"))
        if sv["medal"]:
            line.append(f" · Queen's Medal {sv['medal']}", style="yellow")
        if sv["queens_gem"]:
            line.append(" · holds the Queen's Gem", style="bold magenta")
        parts.append(line)
    viewer = view["viewer"]
    if viewer is not None and viewer == view["current_player"] and view["decision"] == "action":
        me = view["seats"][viewer]
        moves: dict[int, list[str]] = {}
        for text in view["legal_actions"]:
            if text.startswith("move "):
                number, _, pay = text.removeprefix("move ").partition(" pay ")
                moves.setdefault(int(number), []).append(pay)
        parts.append(Text("Roads from here (used tiles in brackets cannot pay):", style="bold"))
        for road in out.get(me["space"], []):
            r = Text(f"  road {road['number']} → {space_name[road['to']]} costs ")
            r.append_text(_banner_text(road["cost"]))
            pays = moves.get(road["number"], [])
            if pays:
                r.append(f": you can pay, e.g. 'move {road['number']} pay {pays[0]}'"
                         + (f" ({len(pays)} ways)" if len(pays) > 1 else ""), style="green")
            else:
                r.append(": you cannot pay it yet", style="dim")
            parts.append(r)
    return Group(*parts)


DRAWERS["kids"] = draw_kids