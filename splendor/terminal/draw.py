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
    "master": "bold white on purple",
}
LETTERS = {"white": "w", "blue": "b", "green": "g", "red": "r", "black": "k", "gold": "y", "pink": "p",
           "yellow": "y", "master": "m"}

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
        nobles.append(f"[noble {n['id']}: {n['points']}pt needs ")
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
