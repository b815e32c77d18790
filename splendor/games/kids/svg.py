"""An SVG picture of a Splendor Kids board and its pawns, drawn from a view (as python-chess draws a position).

>>> import splendor
>>> from splendor.games.kids import svg
>>> svg(splendor.new_game("kids", players=2, seed=1).view(None)).startswith("<svg")
True
"""

from __future__ import annotations

import unicodedata
from html import escape
from typing import Any

from splendor.i18n import SOURCE_LANGUAGE, Message, N_, translate

FILL = {"black": "#2f2f2f", "red": "#d8432e", "green": "#4f9d3a", "brown": "#8b5a2b", "blue": "#3a78c9",
        "gold": "#e2b93b"}
LETTER = {"black": "k", "red": "r", "green": "g", "brown": "h", "blue": "b", "gold": "y"}
INK = {"black": "#fff", "red": "#fff", "green": "#fff", "brown": "#fff", "blue": "#fff", "gold": "#000"}
PAWN = ("#e53935", "#1e88e5", "#fdd835", "#8e24aa")     # seat 0 to 3; the pawn shows the player's number, from 1
PAWN_INK = ("#fff", "#fff", "#000", "#fff")
MARGIN = 20


def _said(text: str, language: str) -> str:
    """A word of the picture in ``language``: the catalogs' words (the Port, a tile); a place's own name as it is."""
    return translate(Message(text), language)


def text_width(text: str, per_char: float) -> float:
    """How wide ``text`` is drawn: a wide (CJK) character counts as two narrow ones."""
    return per_char * sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _space_shape(space: dict[str, Any], x: float, y: float, language: str) -> str:
    name = escape(_said(space["name"], language))
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


Box = tuple[float, float, float, float]          # x, y, width, height


def _overlap(a: Box, b: Box, gap: float = 2.0) -> float:
    """The area two boxes share, each grown by ``gap`` (0 when they are apart)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) + gap
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) + gap
    return w * h if w > 0 and h > 0 else 0.0


SPACE_HALF = {"city": (16, 14), "village": (15, 15), "palace": (34, 22), "port": (24, 14)}


TILE_WORDS = {"Kind-Hearted Thief": N_("Thief")}  # a Village tile's name as the board shows it, where it is long
TILES = ("Tornado", "Treasure", "Drought", "Kind-Hearted Thief", "Queen's Gem")


def tile_label(tile: str, language: str) -> str:
    """What a Village tile shows on the board: ``?`` face down, else its (short) name in ``language``."""
    return "?" if tile == "face down" else _said(TILE_WORDS.get(tile, tile), language)


def tile_label_width(language: str) -> float:
    """The longest Village tile's name on the board in ``language``, at font size 10."""
    return max(text_width(tile_label(t, language), 6.0) for t in TILES)


def pawn_y(space: dict[str, Any], y: float) -> float:
    """The height of the row of pawns standing on a space: just above its shape."""
    return y - SPACE_HALF.get(space["kind"], (24, 14))[1] - 10


def space_boxes(view: dict[str, Any], language: str = SOURCE_LANGUAGE) -> dict[str, list[Box]]:
    """Each space's shape, its name, the row its pawns stand in, and (Mysteries) the name its Village tile will
    show, as boxes in the picture's coordinates: what no banner may cover, whatever the state."""
    out = {}
    tiles = view.get("village_tiles") or {}
    tile_w = tile_label_width(language)
    for space in view["board"]["spaces"]:
        x, y = space["x"] + MARGIN, space["y"] + MARGIN
        hw, hh = SPACE_HALF.get(space["kind"], (24, 14))
        label_y = y + (34 if space["kind"] == "palace" else 28)
        text_w = text_width(_said(space["name"], language), 6.2)
        boxes = [(x - hw, y - hh, 2 * hw, 2 * hh), (x - text_w / 2, label_y - 10, text_w, 13),
                 (x - 25, pawn_y(space, y) - 7, 12 * 3 + 14, 14)]
        if space["id"] in tiles:
            boxes.append((x + 27, y - 24, tile_w, 12))
        out[space["id"]] = boxes
    return out


CANDIDATES = [(t, d) for d in (0.0, 13.0, -13.0, 24.0, -24.0, 36.0, -36.0)
              for t in (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8, 0.14, 0.86)]
"""Where a banner may sit: a fraction of its road's length, and an offset across the road (pixels)."""


def banner_boxes(view: dict[str, Any], language: str = SOURCE_LANGUAGE) -> dict[int, Box]:
    """Where each road's banner goes: the first place along its road (middle first, then outward, then beside
    it) that covers no space, no name and no banner already placed; the least covered place if none is free. A
    road into the next section keeps its banner in its own section."""
    board = view["board"]
    pos = {s["id"]: (s["x"] + MARGIN, s["y"] + MARGIN) for s in board["spaces"]}
    section = {s["id"]: s["section"] for s in board["spaces"]}
    taken: list[Box] = [box for boxes in space_boxes(view, language).values() for box in boxes]
    placed: dict[int, Box] = {}
    for road in sorted(board["roads"], key=lambda r: (len(r["cost"]), r["number"]), reverse=True):
        (x1, y1), (x2, y2) = pos[road["from"]], pos[road["to"]]
        across = section[road["from"]] != section[road["to"]]
        length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length          # across the road
        width = 16 * len(road["cost"]) + 22
        best, best_cover = None, float("inf")
        for t, d in CANDIDATES:
            if across and t > 0.42:
                continue
            mx, my = x1 + (x2 - x1) * t + nx * d, y1 + (y2 - y1) * t + ny * d
            box = (mx - width / 2, my - 10, width, 20)
            cover = sum(_overlap(box, other) for other in taken)
            if cover < best_cover:
                best, best_cover = box, cover
            if cover == 0:
                break
        assert best is not None
        placed[road["number"]] = best
        taken.append(best)
    return placed


def _banner(road: dict[str, Any], x1: float, y1: float, x2: float, y2: float, box: Box) -> str:
    cost = road["cost"]
    bx, by, width, _ = box
    my = by + 10
    parts = [f'<g class="road" data-road="{road["number"]}">',
             f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#a1887f" stroke-width="5" '
             f'stroke-linecap="round"/>',
             f'<rect x="{bx}" y="{by}" width="{width}" height="20" rx="5" fill="#fffdf6" stroke="#8d6e63"/>',
             f'<text x="{bx + 4}" y="{my + 4}" font-size="10" font-weight="bold" fill="#5d4037">'
             f'{road["number"]}</text>']
    for i, colour in enumerate(cost):
        cx = bx + 24 + 16 * i
        parts.append(f'<circle cx="{cx}" cy="{my}" r="7" fill="{FILL[colour]}"/>'
                     f'<text x="{cx}" y="{my + 3.5}" text-anchor="middle" font-size="9" fill="{INK[colour]}">'
                     f'{LETTER[colour]}</text>')
    parts.append("</g>")
    return "".join(parts)


def svg(view: dict[str, Any], size: int | None = None, language: str = SOURCE_LANGUAGE) -> str:
    """The board of a Kids view as an SVG document: sections, roads with banners, spaces, and pawns.

    ``size`` sets the picture's width in pixels (the height follows); the drawing says the board is the
    project's own design (or a custom one) wherever it is shown. The game's words (the Port, the Palace, the
    Village tiles, the credit) are in ``language``; places keep their own names.
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
    boxes = banner_boxes(view, language)
    for road in board["roads"]:
        (x1, y1), (x2, y2) = pos[road["from"]], pos[road["to"]]
        out.append(_banner(road, x1, y1, x2, y2, boxes[road["number"]]))
    for space in board["spaces"]:
        x, y = pos[space["id"]]
        out.append(_space_shape(space, x, y, language))
        tile = view.get("village_tiles", {}).get(space["id"])
        if tile:
            label = escape(tile_label(tile, language))
            out.append(f'<text x="{x + 27}" y="{y - 14}" font-size="10" fill="#33691e">{label}</text>')
    by_space: dict[str, list[int]] = {}
    for seat in view["seats"]:
        by_space.setdefault(seat["space"], []).append(seat["seat"])
    spaces = {s["id"]: s for s in board["spaces"]}
    for space, seats in by_space.items():
        x, y = pos[space]
        for i, s in enumerate(seats):
            px, py = x - 18 + 12 * i, pawn_y(spaces[space], y)
            out.append(f'<g class="pawn" data-seat="{s}"><circle cx="{px}" cy="{py}" r="7" fill="{PAWN[s]}" '
                       f'stroke="#000"/><text x="{px}" y="{py + 3.5}" text-anchor="middle" font-size="9" '
                       f'fill="{PAWN_INK[s]}">{s + 1}</text></g>')
    credit = escape(_said(board["credit"], language))
    out.append(f'<text x="{MARGIN}" y="{height - 10}" font-size="11" fill="#7a6f57">{credit}'
               '</text></svg>')
    return "".join(out)
