"""An SVG picture of a Splendor Kids board and its pawns, drawn from a view (as python-chess draws a position).

>>> import splendor
>>> from splendor.games.kids import svg
>>> svg(splendor.new_game("kids", players=2, seed=1).view(None)).startswith("<svg")
True
"""

from __future__ import annotations

from html import escape
from typing import Any

FILL = {"black": "#2f2f2f", "red": "#d8432e", "green": "#4f9d3a", "brown": "#8b5a2b", "blue": "#3a78c9",
        "gold": "#e2b93b"}
LETTER = {"black": "k", "red": "r", "green": "g", "brown": "h", "blue": "b", "gold": "y"}
INK = {"black": "#fff", "red": "#fff", "green": "#fff", "brown": "#fff", "blue": "#fff", "gold": "#000"}
PAWN = ("#e53935", "#1e88e5", "#fdd835", "#8e24aa")
MARGIN = 20


def _space_shape(space: dict[str, Any], x: float, y: float) -> str:
    name = escape(space["name"])
    kind = space["kind"]
    if kind == "city":
        shape = f'<rect x="{x - 16}" y="{y - 14}" width="32" height="28" rx="4" fill="#f4e2c1" stroke="#6d4c2f"/>' \
                f'<path d="M{x - 12},{y - 2} l12,-10 l12,10" fill="none" stroke="#6d4c2f" stroke-width="2"/>'
    elif kind == "village":
        shape = f'<circle cx="{x}" cy="{y}" r="15" fill="#dcedc8" stroke="#33691e"/>' \
                f'<path d="M{x - 8},{y + 6} l8,-13 l8,13 z" fill="#33691e"/>'
    elif kind == "palace":
        shape = f'<rect x="{x - 34}" y="{y - 22}" width="68" height="44" rx="6" fill="#fff3c4" stroke="#b8860b" ' \
                f'stroke-width="3"/><path d="M{x - 20},{y + 8} v-16 l10,8 l10,-14 l10,14 l10,-8 v16 z" ' \
                f'fill="#e2b93b" stroke="#b8860b"/>'
    else:
        shape = f'<rect x="{x - 24}" y="{y - 14}" width="48" height="28" rx="12" fill="#b3e5fc" stroke="#01579b"/>' \
                f'<path d="M{x - 10},{y + 4} q10,8 20,0 M{x},{y - 8} v14" fill="none" stroke="#01579b" ' \
                f'stroke-width="2"/>'
    label_y = y + (34 if kind == "palace" else 28)
    return (f'<g class="space {kind}" data-space="{escape(space["id"])}">{shape}'
            f'<text x="{x}" y="{label_y}" text-anchor="middle" font-size="11" fill="#333">{name}</text></g>')


def _banner(road: dict[str, Any], x1: float, y1: float, x2: float, y2: float, across: bool) -> str:
    cost = road["cost"]
    t = 0.3 if across else 0.5          # a road into the next section shows its banner in its own section
    mx, my = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
    width = 16 * len(cost) + 22
    parts = [f'<g class="road" data-road="{road["number"]}">',
             f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#a1887f" stroke-width="5" '
             f'stroke-linecap="round"/>',
             f'<rect x="{mx - width / 2}" y="{my - 10}" width="{width}" height="20" rx="5" fill="#fffdf6" '
             f'stroke="#8d6e63"/>',
             f'<text x="{mx - width / 2 + 4}" y="{my + 4}" font-size="10" font-weight="bold" fill="#5d4037">'
             f'{road["number"]}</text>']
    for i, colour in enumerate(cost):
        cx = mx - width / 2 + 24 + 16 * i
        parts.append(f'<circle cx="{cx}" cy="{my}" r="7" fill="{FILL[colour]}"/>'
                     f'<text x="{cx}" y="{my + 3.5}" text-anchor="middle" font-size="9" fill="{INK[colour]}">'
                     f'{LETTER[colour]}</text>')
    parts.append("</g>")
    return "".join(parts)


def svg(view: dict[str, Any], size: int | None = None) -> str:
    """The board of a Kids view as an SVG document: sections, roads with banners, spaces, and pawns.

    ``size`` sets the picture's width in pixels (the height follows); the drawing says the board is the
    project's own design (or a custom one) wherever it is shown.
    """
    board = view["board"]
    width, height = board["width"] + 2 * MARGIN, board["height"] + 2 * MARGIN + 24
    pos = {s["id"]: (s["x"] + MARGIN, s["y"] + MARGIN) for s in board["spaces"]}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
           + (f' width="{size}" height="{round(size * height / width)}"' if size else "")
           + ' font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="#f7f3e8"/>']
    n = len(board["sides"])
    for k, side in enumerate(board["sides"]):
        top = (n - 1 - k) * 360 + MARGIN
        out.append(f'<rect x="{MARGIN}" y="{top}" width="600" height="360" fill="{"#eef5e4" if k % 2 else "#f1ead8"}"'
                   f' stroke="#c8bfa8" stroke-dasharray="6 4"/>'
                   f'<text x="{MARGIN + 8}" y="{top + 16}" font-size="12" fill="#7a6f57">{escape(side)} · '
                   f'{escape(board["titles"][k])}</text>')
    section = {s["id"]: s["section"] for s in board["spaces"]}
    for road in board["roads"]:
        (x1, y1), (x2, y2) = pos[road["from"]], pos[road["to"]]
        out.append(_banner(road, x1, y1, x2, y2, section[road["from"]] != section[road["to"]]))
    for space in board["spaces"]:
        x, y = pos[space["id"]]
        out.append(_space_shape(space, x, y))
        tile = view.get("village_tiles", {}).get(space["id"])
        if tile:
            label = "?" if tile == "face down" else escape(tile)
            out.append(f'<text x="{x + 18}" y="{y - 14}" font-size="10" fill="#33691e">{label}</text>')
    by_space: dict[str, list[int]] = {}
    for seat in view["seats"]:
        by_space.setdefault(seat["space"], []).append(seat["seat"])
    for space, seats in by_space.items():
        x, y = pos[space]
        for i, s in enumerate(seats):
            px, py = x - 18 + 12 * i, y - 24
            out.append(f'<g class="pawn" data-seat="{s}"><circle cx="{px}" cy="{py}" r="7" fill="{PAWN[s]}" '
                       f'stroke="#000"/><text x="{px}" y="{py + 3.5}" text-anchor="middle" font-size="9" '
                       f'fill="#fff">{s}</text></g>')
    out.append(f'<text x="{MARGIN}" y="{height - 10}" font-size="11" fill="#7a6f57">{escape(board["credit"])}'
               '</text></svg>')
    return "".join(out)
