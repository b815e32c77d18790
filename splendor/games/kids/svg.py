"""An SVG picture of a Splendor Kids board and its pawns, drawn from a view (as python-chess draws a position).

Two arrangements (``layout``):

``wide`` (the default) is for a landscape table. The sections stand side by side, A1 (with the Port) on the left,
the Palace on the right, so a traveller goes from left to right. The table gives the board a box of about
820 × 640 CSS px at 1280 × 800 (`LANDSCAPE`) and scales the picture to it (its viewBox, ``preserveAspectRatio``
meet). The viewBox is 850 × 663.4 units (`WIDE`), the box's own shape, so the picture fills it and is drawn at
**820 / 850 = 0.965 CSS px a unit**. At that scale every text is at least 12 CSS px high (12.5 units: the
places' names, the banners' numbers, the Village tiles, the credit; a pawn's number 14), a pawn is 24.1 px
across (25 units), and each road's tap target (its banner, with a transparent rectangle around a small one) is
at least 44.4 × 44.4 px (46 units). In a smaller box everything shrinks in proportion: a narrower screen should
take the ``tall`` picture.

``tall`` is for a portrait phone that shows the board zoomed in and lets the player pan it: the sections are
stacked, A1 at the bottom, the Palace on top, 600 units wide and about 1,000 high; drawn at its natural size
(one unit, one CSS pixel) its sizes are those of ``wide`` or a little larger.

Each place is drawn with its mark (city, village, Port, Palace) and its name in the reader's language (the
catalogs say the shipped boards' places; a long name takes two lines) beside it, below or above it, where it
fits; the Palace says its name on its own mark, under its crown. In the Mysteries variant a village's tile is
named under the village's name (``?`` face down). Pawns stand on a place in fixed slots, one per seat (seat 1
top left, 2 top right, 3 bottom left, 4 bottom right; on the Palace a row over its crown), in the seats' colours
with their numbers, so pawns sharing a place never hide each other. Each road is a ``<g class="road"
data-road="N">`` (the web table makes it clickable) holding its tap target (``rect.hit``), its line
(``path.way``, drawn from mark to mark) and its banner (``rect.banner``): the road's number and its cost as
coloured pips, each with its resource's shape (■ black, ◆ red, ▲ green, ⬢ brown, ● blue), so that colour is
never the only cue. The sections' titles are their tooltips (``<title>``).

Where things go is planned (`plan`): each place stands where the board's file puts it, turned so that the way
runs across the picture (``wide``) or up it (``tall``), its sections' places spread evenly along the way. Each
place's name, each road's curve (straight, bowed to either side, S-shaped, leaving or arriving along the way) and
its banner's place along the curve are then chosen together so that no road's line crosses another road's banner,
a name or another place, no banner or name covers another or a place or the box its pawns stand in, no tap target
covers another road's banner, and no two roads run side by side (see `_place_roads`). The plan depends only on
the board, the language and the arrangement, so it is computed once (a second or two) and kept.

>>> import splendor
>>> from splendor.games.kids import svg
>>> svg(splendor.new_game("kids", players=2, seed=1).view(None)).startswith("<svg")
True
"""

from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any

import numpy as np

from splendor.i18n import N_, SOURCE_LANGUAGE, Message, translate

FILL = {
    "black": "#2f2f2f",
    "red": "#d8432e",
    "green": "#3f8a2c",
    "brown": "#8b5a2b",
    "blue": "#2f6fc0",
    "gold": "#e2b93b",
}
INK = {"black": "#fff", "red": "#fff", "green": "#fff", "brown": "#fff", "blue": "#fff", "gold": "#000"}
PAWN = ("#e53935", "#1e88e5", "#fdd835", "#8e24aa")  # seat 0 to 3; the pawn shows the player's number, from 1
PAWN_INK = ("#fff", "#fff", "#000", "#fff")
LAYOUTS = ("wide", "tall")
LANDSCAPE = (820, 640)
"""The table's box for the board at 1280 × 800, in CSS px: the ``wide`` picture is planned for it."""
WIDE = (850.0, 850.0 * LANDSCAPE[1] / LANDSCAPE[0])
"""The ``wide`` picture's size in its own units: the landscape box's shape, drawn 820 / 850 = 0.965 CSS px a unit."""
TALL_WIDTH = 600
MARGIN = 6
NAME_SIZE, SMALL_SIZE, NUMBER_SIZE, PAWN_SIZE = 12.5, 12.5, 12.5, 14  # the words' sizes: 12.06 px and more
LINE = 15.0  # between the lines of a place's name
NAME_WIDTH = {"wide": 76.0, "tall": 110.0}  # a longer name is said on two lines
PALACE_NAME_WIDTH = 100.0  # the Palace's name, said inside its mark
PAWN_R = 12.5  # 25 px across
PAWN_STEP = 25.5  # between the slots' centres: pawns never overlap
HIT = 46.0  # a road's tap target, at least this wide and high
STROKE = 5.0
PIP_R, PIP_STEP = 8.0, 17.0  # as large as the boards' banners allow, a unit apart (a child reads them)
NUMBER_W = 20.0  # the road's number, left of the pips
PALACE_NAME_Y = 12.0  # the first line of the Palace's name, from its centre
PALACE_PAWNS_Y = -15.0  # the Palace's row of pawns, from its centre
PALACE_STEP = 0.4  # how much further on the Palace stands (in steps between places)
SPACE_HALF = {"city": (19, 16), "village": (17, 17), "palace": (53, 36), "port": (27, 16)}

Box = tuple[float, float, float, float]  # x, y, width, height
Point = tuple[float, float]


def _said(text: str, language: str) -> str:
    """A word of the picture in ``language``, from the catalogs: the places' names, the Port, a tile, the credit."""
    return translate(Message(text), language)


def text_width(text: str, per_char: float) -> float:
    """How wide ``text`` is drawn: a wide (CJK) character counts as two narrow ones."""
    return per_char * sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def text_box(x: float, y: float, text: str, size: float, anchor: str = "start") -> Box:
    """The box a text drawn at (``x``, ``y``) (its baseline) takes, at font ``size``: 0.6 em a narrow character
    (sans-serif fonts draw narrower), 1.2 em a wide one, from 0.92 em above the baseline to 0.26 em below."""
    width = text_width(text, 0.6 * size)
    left = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
    return left, y - 0.92 * size, width, 1.18 * size


def _overlap(a: Box, b: Box, gap: float = 2.0) -> float:
    """The area two boxes share, each grown by ``gap`` (0 when they are apart)."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) + gap
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) + gap
    return w * h if w > 0 and h > 0 else 0.0


TILE_WORDS = {"Kind-Hearted Thief": N_("Thief"), "Queen's Gem": N_("Gem")}  # a Village tile's short name
TILES = ("Tornado", "Treasure", "Drought", "Kind-Hearted Thief", "Queen's Gem")
FACE_DOWN = N_("? secret")
"""What a face-down Village tile shows: a ``?`` alone, small, had gone unseen by a child. (In every language no
wider than the widest tile's name, which the board's plan reserves room for.)"""


def tile_label(tile: str, language: str) -> str:
    """What a Village tile shows on the board: `FACE_DOWN` face down, else its (short) name in ``language``."""
    return _said(FACE_DOWN if tile == "face down" else TILE_WORDS.get(tile, tile), language)


def tile_label_width(language: str) -> float:
    """The longest Village tile's label on the board in ``language`` (face down too), at the small font size."""
    return max(text_box(0, 0, tile_label(t, language), SMALL_SIZE)[2] for t in (*TILES, "face down"))


# ----------------------------------------------------------------------------- geometry helpers


def _r(v: float) -> float:
    return round(v, 1)


def _rbox(b: Box) -> Box:
    return _r(b[0]), _r(b[1]), _r(b[2]), _r(b[3])


def _grow(b: Box, by: float) -> Box:
    return b[0] - by, b[1] - by, b[2] + 2 * by, b[3] + 2 * by


def _inside(b: Box, outer: Box) -> bool:
    return (
        b[0] >= outer[0]
        and b[1] >= outer[1]
        and b[0] + b[2] <= outer[0] + outer[2]
        and b[1] + b[3] <= outer[1] + outer[3]
    )


def _bounds(points: list[Point]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


@dataclass
class Curve:
    """A road's line: a cubic Bézier, sampled."""

    p0: Point
    c1: Point
    c2: Point
    p3: Point
    points: list[Point]
    box: Box
    bend: float  # how far it strays from the straight line (a cost)

    def at(self, t: float) -> Point:
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3
        return (
            a * self.p0[0] + b * self.c1[0] + c * self.c2[0] + d * self.p3[0],
            a * self.p0[1] + b * self.c1[1] + c * self.c2[1] + d * self.p3[1],
        )

    @property
    def d(self) -> str:
        f = _r
        return (
            f"M{f(self.p0[0])},{f(self.p0[1])} C{f(self.c1[0])},{f(self.c1[1])} "
            f"{f(self.c2[0])},{f(self.c2[1])} {f(self.p3[0])},{f(self.p3[1])}"
        )


def _split(p: list[Point], t: float) -> tuple[list[Point], list[Point]]:
    """A cubic's control points cut at ``t`` into two cubics (de Casteljau)."""

    def mix(a: Point, b: Point) -> Point:
        return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t

    ab, bc, cd = mix(p[0], p[1]), mix(p[1], p[2]), mix(p[2], p[3])
    abc, bcd = mix(ab, bc), mix(bc, cd)
    m = mix(abc, bcd)
    return [p[0], ab, abc, m], [m, bcd, cd, p[3]]


def _curve(p0: Point, c1: Point, c2: Point, p3: Point, bend: float, start: Mark, end: Mark) -> Curve:
    """A road's curve, cut where it enters the marks of the places it joins (it is drawn from mark to mark)."""
    whole = Curve(p0, c1, c2, p3, [], (0, 0, 0, 0), bend)
    t0, t1 = 0.0, 1.0
    for _ in range(18):  # the last moment in the start's mark
        t = (t0 + t1) / 2
        t0, t1 = (t, t1) if _in_mark(start, whole.at(t)) else (t0, t)
    leave = t0
    t0, t1 = leave, 1.0
    for _ in range(18):  # the first moment in the end's mark
        t = (t0 + t1) / 2
        t0, t1 = (t0, t) if _in_mark(end, whole.at(t)) else (t, t1)
    arrive = t1
    piece = _split([p0, c1, c2, p3], arrive)[0]
    piece = _split(piece, leave / arrive)[1] if arrive > 0 else piece
    q0, q1, q2, q3 = ((_r(x), _r(y)) for x, y in piece)
    c = Curve(q0, q1, q2, q3, [], (0, 0, 0, 0), bend)
    c.points = [c.at(i / 16) for i in range(17)]
    c.box = _bounds(c.points)
    return c


Mark = tuple[str, float, float]  # a place's kind and centre


def _in_mark(mark: Mark, point: Point) -> bool:
    kind, x, y = mark
    hw, hh = SPACE_HALF.get(kind, (24, 14))
    if kind == "village":
        return math.hypot(point[0] - x, point[1] - y) < hw - 1
    return abs(point[0] - x) < hw - 1 and abs(point[1] - y) < hh - 1


def _rot(v: Point, degrees: float) -> Point:
    a = math.radians(degrees)
    return v[0] * math.cos(a) - v[1] * math.sin(a), v[0] * math.sin(a) + v[1] * math.cos(a)


def _unit(v: Point) -> Point:
    n = math.hypot(*v) or 1.0
    return v[0] / n, v[1] / n


def _curves(start: Mark, end: Mark, flow: Point) -> list[Curve]:
    """The shapes a road from the place ``start`` to ``end`` may take: straight first, then bowed either side,
    S-shaped, and leaving and arriving along the direction of travel (``flow``)."""
    p0, p3 = (start[1], start[2]), (end[1], end[2])
    length = math.dist(p0, p3) or 1.0
    e = _unit((p3[0] - p0[0], p3[1] - p0[1]))
    out = []

    def add(t0: Point, t1: Point, bend: float, k: float = 0.38) -> None:
        out.append(
            _curve(
                p0,
                (p0[0] + k * length * t0[0], p0[1] + k * length * t0[1]),
                (p3[0] - k * length * t1[0], p3[1] - k * length * t1[1]),
                p3,
                bend,
                start,
                end,
            )
        )

    add(e, e, 0.0)
    for phi in (14, -14, 26, -26, 38, -38, 52, -52):
        add(_rot(e, phi), _rot(e, -phi), abs(phi) / 10)
    for phi in (70, -70):
        add(_rot(e, phi), _rot(e, -phi), 9.0, 0.55)
    if length < 150:  # a short road may bow out wide for its banner
        for phi in (80, -80):
            add(_rot(e, phi), _rot(e, -phi), 14.0, 0.95)
    for phi in (22, -22):
        add(_rot(e, phi), _rot(e, phi), 3.0)
    for w in (0.5, 1.0):
        t = _unit((flow[0] * w + e[0] * (1 - w), flow[1] * w + e[1] * (1 - w)))
        add(t, t, 1.5 + 2 * w)
    if flow[0] * e[0] + flow[1] * e[1] > 0.2:  # a road along the way: leave or arrive along it
        add(flow, e, 3.0, 0.45)
        add(e, flow, 3.0, 0.45)
    return out


# ----------------------------------------------------------------------------- banners and pips


def banner_size(cost: int) -> tuple[float, float]:
    """A banner's width and height for a cost of ``cost`` resources: the number, then the pips in one row (up to
    3) or two rows (4 and 5)."""
    cols = cost if cost <= 3 else (cost + 1) // 2
    rows = 1 if cost <= 3 else 2
    return 3 + NUMBER_W + PIP_STEP * cols + 3, 4 + PIP_STEP * rows


def _hit(box: Box) -> Box:
    x, y, w, h = box
    hw, hh = max(w, HIT), max(h, HIT)
    return x - (hw - w) / 2, y - (hh - h) / 2, hw, hh


_K = PIP_R / 7.5  # the shapes were drawn for pips of 7.5: they grow with the pip
SYMBOL_PATH = {
    "black": lambda x, y: f"M{_r(x - 3.8 * _K)},{_r(y - 3.8 * _K)}h{_r(7.6 * _K)}v{_r(7.6 * _K)}h{_r(-7.6 * _K)}z",
    "red": lambda x, y: (
        f"M{_r(x)},{_r(y - 5.2 * _K)}l{_r(4.2 * _K)},{_r(5.2 * _K)}l{_r(-4.2 * _K)},{_r(5.2 * _K)}"
        f"l{_r(-4.2 * _K)},{_r(-5.2 * _K)}z"
    ),
    "green": lambda x, y: f"M{_r(x)},{_r(y - 4.8 * _K)}l{_r(5 * _K)},{_r(8.4 * _K)}h{_r(-10 * _K)}z",
    "brown": lambda x, y: (
        "M"
        + "L".join(
            f"{_r(x + 4.8 * _K * math.cos(math.radians(a)))},{_r(y + 4.8 * _K * math.sin(math.radians(a)))}"
            for a in range(30, 390, 60)
        )
        + "z"
    ),
    "blue": lambda x, y: (
        f"M{_r(x - 3.6 * _K)},{_r(y)}a{_r(3.6 * _K)},{_r(3.6 * _K)} 0 1,0 {_r(7.2 * _K)},0"
        f"a{_r(3.6 * _K)},{_r(3.6 * _K)} 0 1,0 {_r(-7.2 * _K)},0z"
    ),
}
"""Each resource's shape inside its pip, as the web's chips show it (■ ◆ ▲ ⬢ ●)."""


def _pip(colour: str, x: float, y: float) -> str:
    shape = SYMBOL_PATH.get(colour)
    return (
        f'<g class="pip" data-resource="{escape(colour)}"><circle cx="{_r(x)}" cy="{_r(y)}" r="{PIP_R}" '
        f'fill="{FILL.get(colour, "#999")}" stroke="#fff" stroke-width="1"/>'
        + (f'<path d="{shape(x, y)}" fill="{INK.get(colour, "#fff")}"/>' if shape else "")
        + "</g>"
    )


# ----------------------------------------------------------------------------- the plan


@dataclass
class Place:
    """A place as drawn: its centre, its mark's box, the box its pawns stand in, its name's lines and where they
    go, and (Mysteries) where its Village tile's name goes."""

    id: str
    kind: str
    x: float
    y: float
    shape: Box
    pawns: Box
    name: str
    lines: list[str] = field(default_factory=list)  # the name, on one or two lines
    name_at: tuple[float, float, str] = (0.0, 0.0, "middle")  # x, first line's baseline, anchor
    name_box: Box = (0.0, 0.0, 0.0, 0.0)  # all its lines
    name_boxes: list[Box] = field(default_factory=list)  # each line
    tile_at: tuple[float, float, str] | None = None
    tile_box: Box | None = None
    section: int = 0  # its section's index in the plan's frames


@dataclass
class Plan:
    """Where everything of a board's picture goes, in the picture's units."""

    layout: str
    width: float
    height: float
    places: dict[str, Place]
    frames: list[tuple[Box, str]]  # each section: its frame, its title
    credit: list[tuple[str, float, float, Box]]  # lines of the credit: text, x, baseline, box
    curves: dict[int, Curve] = field(default_factory=dict)
    banners: dict[int, Box] = field(default_factory=dict)


def slots(kind: str) -> list[Point]:
    """Where each seat's pawn stands on a place, from its centre: a square of four (seat 1 top left, 2 top right,
    3 bottom left, 4 bottom right); on the Palace a row over its crown, above its name."""
    h = PAWN_STEP / 2
    if kind == "palace":
        return [(PAWN_STEP * (i - 1.5), PALACE_PAWNS_Y) for i in range(4)]
    return [(-h, -h), (h, -h), (-h, h), (h, h)]


def _pawn_box(kind: str, x: float, y: float) -> Box:
    where = slots(kind)
    x0, x1 = min(dx for dx, _ in where) - PAWN_R, max(dx for dx, _ in where) + PAWN_R
    y0, y1 = min(dy for _, dy in where) - PAWN_R, max(dy for _, dy in where) + PAWN_R
    return _rbox((x + x0, y + y0, x1 - x0, y1 - y0))


def _wrap(text: str, size: float, width: float) -> list[str]:
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_box(0, 0, lines[-1] + " " + word, size)[2] <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _name_lines(name: str, width: float) -> list[str]:
    """A place's name on one line, or on two (split at the space that balances them best) when it is wider than
    ``width``."""
    if text_box(0, 0, name, NAME_SIZE)[2] <= width or " " not in name:
        return [name]
    words = name.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return list(min(splits, key=lambda ab: max(text_box(0, 0, t, NAME_SIZE)[2] for t in ab)))


def plan(view: dict[str, Any], language: str = SOURCE_LANGUAGE, layout: str = "wide") -> Plan:
    """Where the places, names, roads and banners of ``view``'s board go, in ``language`` and ``layout``."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; the layouts are {', '.join(LAYOUTS)}")
    tiles = tuple(sorted(view.get("village_tiles") or {}))
    return _plan(json.dumps(view["board"], sort_keys=True), language, layout, tiles)


@lru_cache(maxsize=256)  # more than the boards' shapes (with their tiles flipped) times languages and layouts (160)
def _plan(board_json: str, language: str, layout: str, tiles: tuple[str, ...]) -> Plan:
    board = json.loads(board_json)
    p = _frame(board, language, layout, set(tiles))
    _place_roads(p, board, layout)
    return p


def _frame(board: dict[str, Any], language: str, layout: str, tiles: set[str]) -> Plan:
    """The sections' frames and titles, the credit, and each place's position, mark and pawns' box."""
    sides = list(board["sides"])
    sections = [s.split("-")[0] for s in sides]
    n = len(sides)
    section_h = board["height"] / max(n, 1)
    local = {}
    for s in board["spaces"]:
        k = sections.index(s["section"]) if s["section"] in sections else 0
        local[s["id"]] = (k, s["x"], s["y"] - (n - 1 - k) * section_h)
    xs = [v[1] for v in local.values()]
    x_lo, x_hi = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    along: dict[int, tuple[float, float]] = {}  # each section's span of its own y
    for k in range(n):
        ys = [v[2] for v in local.values() if v[0] == k] or [0.0]
        along[k] = (min(ys), max(ys) if max(ys) > min(ys) else min(ys) + 1)
    pawn_hw = pawn_hh = PAWN_STEP / 2 + PAWN_R
    width = WIDE[0] if layout == "wide" else TALL_WIDTH
    credit_text = _said(board["credit"], language)
    credit_lines = _wrap(credit_text, SMALL_SIZE, width - 2 * MARGIN)
    credit_h = 16 * len(credit_lines) + 6
    titles = [f"{side} · {_said(title, language)}" if title else side for side, title in zip(sides, board["titles"])]
    frames = []
    pos: dict[str, Point] = {}
    palace = {local[sp["id"]][0] for sp in board["spaces"] if sp["kind"] == "palace"}

    kind = {sp["id"]: sp["kind"] for sp in board["spaces"]}

    def level(sid: str) -> float:
        """Where a place stands along the way, in steps: each section is two steps deep (its nearest places to
        the Port at 0, its farthest at 2) and the next section starts one step further; the Palace, the biggest
        mark, stands a little further on, so that the roads into it have room for their banners."""
        k, _, y = local[sid]
        lo, hi = along[k]
        return float(3 * k + 2 * (hi - y) / (hi - lo) + (PALACE_STEP if kind[sid] == "palace" else 0.0))

    last = 3 * n - 1 + (PALACE_STEP if palace else 0.0)
    first_pad, last_pad = 4 + pawn_hw, 4 + (SPACE_HALF["palace"][0] if palace else pawn_hw)
    if layout == "wide":
        height = WIDE[1]
        top, bottom = 4.0, height - credit_h
        step = (width - 2 * MARGIN - first_pad - last_pad) / last
        cuts = [MARGIN] + [MARGIN + first_pad + step * (3 * k - 0.5) for k in range(1, n)] + [width - MARGIN]
        frames = [(cuts[k], top, cuts[k + 1] - cuts[k], bottom - top) for k in range(n)]
        y_top, y_bottom = top + 4 + pawn_hh + LINE, bottom - 4 - pawn_hh - 3 * LINE - 2
        for sid, (_, x, _) in local.items():
            pos[sid] = (MARGIN + first_pad + step * level(sid), y_top + (x - x_lo) / (x_hi - x_lo) * (y_bottom - y_top))
    else:
        step = 100.0
        top = 4.0
        upper = top + 4 + SPACE_HALF["palace"][1] + 4  # the Palace, on top
        lower = upper + step * last
        bottom = lower + pawn_hh + 2 * LINE + 8
        height = bottom + credit_h
        cuts = [top] + [upper + step * (last - 3 * k + 0.5) for k in range(n - 1, 0, -1)] + [bottom]
        frames = [(MARGIN, cuts[n - 1 - k], width - 2 * MARGIN, cuts[n - k] - cuts[n - 1 - k]) for k in range(n)]
        for sid, (_, x, _) in local.items():
            left, right = MARGIN + 44, width - MARGIN - 44
            pos[sid] = (left + (x - x_lo) / (x_hi - x_lo) * (right - left), lower - step * level(sid))
    framed = list(zip(frames, titles))  # a section's title is its tooltip: the picture has no room for it
    credit: list[tuple[str, float, float, Box]] = []
    for i, line in enumerate(credit_lines):
        y = height - credit_h + 16 * (i + 1)
        credit.append((line, MARGIN + 2, y, _rbox(text_box(MARGIN + 2, y, line, SMALL_SIZE))))
    places = {}
    for s in board["spaces"]:
        x, y = (_r(v) for v in pos[s["id"]])
        hw, hh = SPACE_HALF.get(s["kind"], (24, 14))
        place = Place(
            s["id"],
            s["kind"],
            x,
            y,
            (x - hw, y - hh, 2 * hw, 2 * hh),
            _pawn_box(s["kind"], x, y),
            _said(s["name"], language),
        )
        place.lines = _name_lines(place.name, PALACE_NAME_WIDTH if s["kind"] == "palace" else NAME_WIDTH[layout])
        place.section = local[s["id"]][0]
        if s["id"] in tiles:
            place.tile_box = (0, 0, tile_label_width(language), SMALL_SIZE * 1.18)
        places[s["id"]] = place
    return Plan(layout, width, height, places, framed, credit)


def _name_boxes(place: Place, x: float, y: float, anchor: str) -> list[Box]:
    """The boxes of a place's name's lines, the first line's baseline at ``y``."""
    return [_rbox(text_box(x, y + LINE * i, line, NAME_SIZE, anchor)) for i, line in enumerate(place.lines)]


def _union(boxes: list[Box]) -> Box:
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    return _rbox((x0, y0, max(b[0] + b[2] for b in boxes) - x0, max(b[1] + b[3] for b in boxes) - y0))


def _name_options(
    p: Plan, place: Place, layout: str
) -> list[tuple[tuple[float, float, str], list[Box], tuple[float, float, str] | None, Box | None]]:
    """Where a place's name may go: below or above its mark, to its right or left (``tall`` prefers the sides);
    each as (where the first line is drawn, the boxes of its lines, where the tile's name is drawn, its box)."""
    if place.kind == "palace":  # inside its mark, under the crown
        y = place.y + PALACE_NAME_Y + (LINE / 2 if len(place.lines) == 1 else 0.0)
        boxes = _name_boxes(place, place.x, y, "middle")
        return [((place.x, y, "middle"), boxes, None, None)]
    hh = max(place.shape[3], place.pawns[3]) / 2
    hw = max(place.shape[2], place.pawns[2]) / 2
    tall = LINE * (len(place.lines) - 1) + (LINE + 1 if place.tile_box is not None else 0.0)
    below = (place.x, place.y + hh + 2 + 0.92 * NAME_SIZE, "middle")
    above = (place.x, place.y - hh - 2 - 0.26 * NAME_SIZE - tall, "middle")
    mid = place.y + 0.33 * NAME_SIZE - tall / 2
    right, left = (place.x + hw + 3, mid, "start"), (place.x - hw - 3, mid, "end")
    corners = [
        (place.x + hw * 0.45, below[1], "start"),
        (place.x - hw * 0.45, below[1], "end"),
        (place.x + hw * 0.45, above[1], "start"),
        (place.x - hw * 0.45, above[1], "end"),
    ]
    out = []
    for x, y, anchor in ([below, above, right, left] if layout == "wide" else [right, left, below, above]) + corners:
        box = _union(_name_boxes(place, x, y, anchor))
        x += max(0.0, MARGIN + 2 - box[0]) - max(0.0, box[0] + box[2] - p.width + MARGIN + 2)
        boxes = _name_boxes(place, x, y, anchor)
        tile_at = tile_box = None
        if place.tile_box is not None:
            w = place.tile_box[2]
            ty = y + LINE * len(place.lines) + 1
            start = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
            tile_at, tile_box = (x, ty, anchor), _rbox((start, ty - 0.92 * SMALL_SIZE, w, 1.18 * SMALL_SIZE))
        out.append(((x, y, anchor), boxes, tile_at, tile_box))
    return out


HARD, MEDIUM = 10000.0, 300.0
"""What covering something costs a choice (a name, a banner, a place covered; two roads side by side), and what
a lesser fault costs (a road over the box a place's pawns stand in, a banner outside its road's section)."""
ATTEMPTS, SWEEPS, HEAT = 12, 100, 10000.0
"""The annealing: at most so many attempts while something is still covered, of so many sweeps, cooling from
so high a temperature."""
TS = (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82)
"""Where along its road a banner may sit: the middle first, then outward."""
SHIFTS = ((0.0, 0.0), (0.25, 0.0), (-0.25, 0.0), (0.0, 0.25), (0.0, -0.25))
"""How far a banner may sit off its road's point (in its width and height): the road still runs through it."""


def _segments_meet(points: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """For each box (rows of x, y, width, height), whether the polyline through ``points`` (points, 2) passes
    through it; for a stack of polylines (lines, points, 2), a row per polyline (Liang-Barsky clipping, for the
    pairs whose extents meet)."""
    single = points.ndim == 2
    lines = points[None] if single else points
    out = np.zeros((len(lines), len(boxes)), dtype=bool)
    if len(boxes) and len(lines):
        extent = np.concatenate([lines.min(axis=1), lines.max(axis=1) - lines.min(axis=1)], axis=1)
        li, bi = np.nonzero(_overlaps(extent, boxes, 1.0))  # a straight road has no width
        if len(li):
            pts, bx = lines[li], boxes[bi]  # (pairs, points, 2), (pairs, 4)
            p, d = pts[:, :-1], pts[:, 1:] - pts[:, :-1]
            x0, y0 = bx[:, None, 0], bx[:, None, 1]
            x1, y1 = x0 + bx[:, None, 2], y0 + bx[:, None, 3]
            t0, t1 = np.zeros(p.shape[:2]), np.ones(p.shape[:2])
            ok = np.ones(p.shape[:2], dtype=bool)
            with np.errstate(divide="ignore", invalid="ignore"):
                for ep, eq in (
                    (-d[..., 0], p[..., 0] - x0),
                    (d[..., 0], x1 - p[..., 0]),
                    (-d[..., 1], p[..., 1] - y0),
                    (d[..., 1], y1 - p[..., 1]),
                ):
                    ok &= ~((ep == 0) & (eq < 0))
                    t = eq / ep
                    t0 = np.where(ep < 0, np.maximum(t0, t), t0)
                    t1 = np.where(ep > 0, np.minimum(t1, t), t1)
            out[li, bi] = (ok & (t0 <= t1)).any(axis=1)
    return out[0] if single else out


def _overlaps(a: np.ndarray, b: np.ndarray, gap: float) -> np.ndarray:
    """(len a, len b): whether each box of ``a`` overlaps each of ``b``, both grown by ``gap`` / 2."""
    w = (
        np.minimum(a[:, None, 0] + a[:, None, 2], b[None, :, 0] + b[None, :, 2])
        - np.maximum(a[:, None, 0], b[None, :, 0])
        + gap
    )
    h = (
        np.minimum(a[:, None, 1] + a[:, None, 3], b[None, :, 1] + b[None, :, 3])
        - np.maximum(a[:, None, 1], b[None, :, 1])
        + gap
    )
    meet: np.ndarray = (w > 0) & (h > 0)
    return meet


SIN_SAME_WAY = math.sin(math.radians(22)) ** 2


def _runs(a: np.ndarray, b: np.ndarray, away: np.ndarray) -> np.ndarray:
    """For each polyline of ``a`` (lines, points, 2), about how long it runs within 12 px of the polyline of
    ``b`` of the same row (``b`` is (lines, points, 2) too) heading the same way (within 20°), outside the marks
    of the places either joins (``away``, their centres): two strokes that close cannot be told apart. (Each
    piece of ``a`` is measured from its middle to the nearest point of ``b``, which is finely enough sampled.)"""
    mid, v = (a[:, :-1] + a[:, 1:]) / 2, a[:, 1:] - a[:, :-1]
    keep = (((mid[..., None, :] - away) ** 2).sum(axis=-1) >= 26**2).all(axis=-1)
    heading = np.empty_like(b)  # b's direction at each of its points
    heading[:, 1:-1] = b[:, 2:] - b[:, :-2]
    heading[:, 0], heading[:, -1] = b[:, 1] - b[:, 0], b[:, -1] - b[:, -2]
    dx = mid[:, :, None, 0] - b[:, None, :, 0]
    dy = mid[:, :, None, 1] - b[:, None, :, 1]
    gap = dx * dx + dy * dy  # (lines, pieces, b's points)
    nearest = gap.argmin(axis=-1)
    close = np.take_along_axis(gap, nearest[..., None], axis=-1)[..., 0] < 13**2
    w = np.take_along_axis(heading, nearest[..., None], axis=1)
    cross = v[..., 0] * w[..., 1] - v[..., 1] * w[..., 0]
    same_way = cross**2 < SIN_SAME_WAY * (v * v).sum(axis=-1) * (w * w).sum(axis=-1)
    run: np.ndarray = (np.hypot(v[..., 0], v[..., 1]) * (close & same_way & keep)).sum(axis=1)
    return run


@dataclass
class _Road:
    """A road's choices: its curves, and for each option (a curve and a place along it) the banner, the tap
    target and the cost against what never moves."""

    number: int
    ends: list[Point]
    curves: list[Curve]
    curve_of: np.ndarray  # option -> its curve's index
    banners: np.ndarray  # option -> banner box
    hits: np.ndarray  # option -> tap target
    fixed: np.ndarray  # option -> cost
    lined: list[np.ndarray] = field(default_factory=list)  # each curve's points, grown-stroke tests


def _options(p: Plan, road: dict[str, Any], frame: Box, words: np.ndarray, flow: Point) -> _Road:
    a, b = p.places[road["from"]], p.places[road["to"]]
    half = STROKE / 2 + 1
    bounds = (0.0, 0.0, p.width, p.height)
    others = [q for q in p.places.values() if q.id not in (a.id, b.id)]
    shapes = np.array([_grow(q.shape, half) for q in others] or np.zeros((0, 4)))
    pawns = np.array([q.pawns for q in others] or np.zeros((0, 4)))
    marks = np.array([box for q in p.places.values() for box in (q.shape, q.pawns)])
    w, h = banner_size(len(road["cost"]))
    grown_words = words + np.array([-half, -half, 2 * half, 2 * half])
    curves = _curves((a.kind, a.x, a.y), (b.kind, b.x, b.y), flow)
    stack = np.array([c.points for c in curves])  # (curves, points, 2)
    line_cost = np.array([c.bend * 6 for c in curves])
    line_cost += HARD * _segments_meet(stack, grown_words).sum(axis=1)
    line_cost += HARD * _segments_meet(stack, shapes).sum(axis=1)
    line_cost += MEDIUM / 6 * _segments_meet(stack, pawns).sum(axis=1)
    out = (
        (stack[..., 0].min(axis=1) < half)
        | (stack[..., 1].min(axis=1) < half)
        | (stack[..., 0].max(axis=1) > p.width - half)
        | (stack[..., 1].max(axis=1) > p.height - half)
    )
    line_cost += HARD * out
    ts, shifts = np.array(TS), np.array(SHIFTS)
    basis = np.stack([(1 - ts) ** 3, 3 * (1 - ts) ** 2 * ts, 3 * (1 - ts) * ts**2, ts**3], axis=1)
    control = np.array([[c.p0, c.c1, c.c2, c.p3] for c in curves])  # (curves, 4, 2)
    centre = np.einsum("tk,ckd->ctd", basis, control)  # (curves, places along, 2)
    x = centre[:, :, None, 0] + shifts[None, None, :, 0] * w - w / 2
    y = centre[:, :, None, 1] + shifts[None, None, :, 1] * h - h / 2
    shape = x.shape  # (curves, places along, shifts)
    boxes = np.round(np.stack([x, y, np.full(shape, w), np.full(shape, h)], axis=-1).reshape(-1, 4), 1)
    curve_of = np.repeat(np.arange(len(curves)), len(TS) * len(SHIFTS))
    costs = (
        line_cost[:, None, None]
        + 0.5 * np.arange(len(TS))[None, :, None]
        + 1.0 * (np.abs(shifts).sum(axis=1) > 0)[None, None, :]
    ).reshape(-1)

    def inside(outer: tuple[float, float, float, float]) -> np.ndarray:
        return (
            (boxes[:, 0] >= outer[0])
            & (boxes[:, 1] >= outer[1])
            & (boxes[:, 0] + boxes[:, 2] <= outer[0] + outer[2])
            & (boxes[:, 1] + boxes[:, 3] <= outer[1] + outer[3])
        )

    costs += HARD * ~inside(bounds) + MEDIUM / 3 * ~inside(frame)
    costs += HARD * _overlaps(boxes, words, 2.0).sum(axis=1) + HARD * _overlaps(boxes, marks, 2.0).sum(axis=1)
    hw, hh = max(w, HIT), max(h, HIT)
    hits = np.round(
        np.stack(
            [boxes[:, 0] - (hw - w) / 2, boxes[:, 1] - (hh - h) / 2, np.full(len(boxes), hw), np.full(len(boxes), hh)],
            axis=1,
        ),
        1,
    )
    return _Road(
        road["number"],
        [(a.x, a.y), (b.x, b.y)],
        curves,
        np.array(curve_of),
        boxes,
        hits,
        costs,
        [np.asarray(c.points) for c in curves],
    )


def _prune(r: _Road, keep: int = 140) -> _Road:
    """A road's options without the hopeless ones: those that cover a name or a place when others do not."""
    order = np.argsort(r.fixed, kind="stable")
    best = r.fixed[order[0]]
    if best < HARD:
        order = order[r.fixed[order] < best + HARD]
    per_curve: dict[int, int] = {}
    kept = []
    for i in order:  # a few places along each curve, the best first
        c = int(r.curve_of[i])
        if per_curve.get(c, 0) < 8:
            per_curve[c] = per_curve.get(c, 0) + 1
            kept.append(i)
    order = np.array(kept[:keep])
    used = sorted({int(c) for c in r.curve_of[order]})
    renumber = {c: i for i, c in enumerate(used)}
    return _Road(
        r.number,
        r.ends,
        [r.curves[c] for c in used],
        np.array([renumber[int(c)] for c in r.curve_of[order]]),
        r.banners[order],
        r.hits[order],
        r.fixed[order],
        [r.lined[c] for c in used],
    )


def _owners(options: list[np.ndarray]) -> np.ndarray:
    """(boxes, options): 1 where a box (of all the options' boxes, in order) belongs to an option."""
    sizes = [len(bs) for bs in options]
    owner: np.ndarray = np.repeat(np.eye(len(options)), sizes, axis=0)
    return owner


def _pair_costs(a: _Road, b: _Road) -> np.ndarray:
    """What each option of road ``a`` costs with each option of road ``b``: banners that overlap (or a tap
    target over the other's banner), a road drawn over the other's banner, roads that run side by side."""
    half = STROKE / 2 + 1
    grow = np.array([-half, -half, 2 * half, 2 * half])
    clash = _overlaps(a.banners, b.banners, 4.0) | _overlaps(a.hits, b.banners, 0.5) | _overlaps(a.banners, b.hits, 0.5)
    out = HARD * clash.astype(np.float32)
    a_lines, b_lines = np.array(a.lined), np.array(b.lined)
    out += HARD * _segments_meet(a_lines, b.banners + grow)[a.curve_of]  # a's road over b's banner
    out += HARD * _segments_meet(b_lines, a.banners + grow)[b.curve_of].T  # b's road over a's banner
    a_box, b_box = np.array([c.box for c in a.curves]), np.array([c.box for c in b.curves])
    pairs_a, pairs_b = np.nonzero(_overlaps(a_box, b_box, 26.0))
    side = np.zeros((len(a.curves), len(b.curves)))
    if len(pairs_a):
        run = _side_by_side_pairs(a_lines[pairs_a], b_lines[pairs_b], np.array(a.ends + b.ends))
        side[pairs_a, pairs_b] = np.where(run > 6, 40 * run, 0.0) + np.where(run > 10, HARD, 0.0)
    out += side[a.curve_of][:, b.curve_of]
    return np.asarray(out, dtype=np.float32)


def _side_by_side_pairs(a: np.ndarray, b: np.ndarray, away: np.ndarray) -> np.ndarray:
    """For each row, the longer of line a's run along line b and b's along a (see `_runs`)."""
    longer: np.ndarray = np.maximum(_runs(a, b, away), _runs(b, a, away))
    return longer


def _place_roads(p: Plan, board: dict[str, Any], layout: str) -> None:
    """Where each place's name goes and each road's curve and banner (see the module's description).

    Every choice (a name's place, a road's option: its curve and its banner's place along it) is scored against
    what never moves (the places' marks and the boxes their pawns stand in, the credit, the picture's edges), and
    the choices of every two nearby things against each other (a road over a banner or a name, banners and names
    that overlap, roads that run side by side). The choices start where each costs least given those made before
    (the names, then the biggest banners first); then, sweep after sweep, each thing takes an option with a
    chance that falls with its cost as the sweeps cool down (annealing, from a fixed seed: the same board gives
    the same picture); the best set seen is kept and settled (each thing to its best option while that helps)."""
    flow = (1.0, 0.0) if layout == "wide" else (0.0, -1.0)
    section_of = {s["id"]: s["section"] for s in board["spaces"]}
    sections = [s.split("-")[0] for s in board["sides"]]
    half = STROKE / 2 + 1
    grow = np.array([-half, -half, 2 * half, 2 * half])
    bounds = (0.0, 0.0, p.width, p.height)
    words = np.array([c[3] for c in p.credit])
    marks = {q.id: [q.shape, q.pawns] for q in p.places.values()}

    # the names: each place's options, what each costs alone, the boxes each takes
    names: dict[str, list[Any]] = {}
    fixed: dict[Any, np.ndarray] = {}
    reach: dict[Any, Box] = {}
    name_boxes: dict[str, list[np.ndarray]] = {}
    for place in p.places.values():
        options = _name_options(p, place, layout)
        others = np.array(
            [b for q, bs in marks.items() if q != place.id or place.kind != "palace" for b in bs] + list(words)
        )
        costs, boxes = [], []
        for rank, (_, lines, _, tile_box) in enumerate(options):
            bs = np.array(lines + ([tile_box] if tile_box is not None else []))
            c = rank * 4.0 + HARD * _overlaps(bs, others, 1.0).sum()
            c += sum(HARD for b in bs if not _inside(tuple(b), bounds))
            costs.append(c)
            boxes.append(bs)
        names[place.id] = options
        fixed[place.id] = np.array(costs)
        name_boxes[place.id] = boxes
        reach[place.id] = _union([tuple(b) for bs in boxes for b in bs])

    # the roads: their options, pruned of the hopeless ones
    roads: dict[int, _Road] = {}
    for road in board["roads"]:
        k = sections.index(section_of[road["from"]]) if section_of[road["from"]] in sections else 0
        roads[road["number"]] = _prune(_options(p, road, p.frames[min(k, len(p.frames) - 1)][0], words, flow))
        fixed[road["number"]] = roads[road["number"]].fixed
        reach[road["number"]] = _grow(_bounds([pt for c in roads[road["number"]].curves for pt in c.points]), 50)

    # what two things cost together
    things = list(names) + sorted(roads)
    near: dict[Any, list[Any]] = {t: [] for t in things}
    pair: dict[tuple[Any, Any], np.ndarray] = {}
    for i, a in enumerate(things):
        for b in things[i + 1 :]:
            if not _overlap(reach[a], reach[b], 0):
                continue
            if a in roads and b in roads:
                m = _pair_costs(roads[a], roads[b])
            elif a in roads or b in roads:
                the_road, named = (roads[int(a)], str(b)) if a in roads else (roads[int(b)], str(a))
                lined = np.array(the_road.lined)
                every = np.concatenate(name_boxes[named])
                which = np.repeat(np.arange(len(name_boxes[named])), [len(bs) for bs in name_boxes[named]])
                over = _segments_meet(lined, every + grow)  # (curves, boxes)
                cover = _overlaps(the_road.banners, every, 2.0)  # (options, boxes)
                m = np.zeros((len(name_boxes[named]), len(the_road.banners)), dtype=np.float32)
                for k in range(len(name_boxes[named])):
                    m[k] = HARD * (
                        over[:, which == k].sum(axis=1)[the_road.curve_of] + cover[:, which == k].sum(axis=1)
                    )
                if a in roads:
                    m = m.T
            else:  # every option of a's name against every option of b's: how many of their boxes overlap
                hits = _overlaps(np.concatenate(name_boxes[str(a)]), np.concatenate(name_boxes[str(b)]), 2.0)
                m = (HARD * (_owners(name_boxes[str(a)]).T @ hits @ _owners(name_boxes[str(b)]))).astype(np.float32)
                if not m.any():
                    continue
            pair[(a, b)], pair[(b, a)] = m, m.T
            near[a].append(b)
            near[b].append(a)

    chosen: dict[Any, int] = {}
    field = {t: fixed[t].astype(np.float64) for t in things}  # what each option costs given the others' choice
    # what each option of t adds to each neighbour u's options: pair[(u, t)]'s columns, as rows read at once
    adds = {t: [(field[u], np.ascontiguousarray(pair[(u, t)].T, dtype=np.float64)) for u in near[t]] for t in things}

    def choose(t: Any, o: int) -> None:
        old = chosen.get(t)
        if old == o:
            return
        for costs, added in adds[t]:
            if old is not None:
                costs -= added[old]
            costs += added[o]
        chosen[t] = o

    def energy() -> float:
        return float(sum(field[t][o] + fixed[t][o] for t, o in chosen.items()) / 2)

    def settle() -> None:
        for _ in range(20):
            changed = False
            for t in things:
                c = field[t]
                best = int(np.argmin(c))
                if c[best] < c[chosen[t]] - 1e-6:
                    choose(t, best)
                    changed = True
            if not changed:
                return

    def pairs() -> None:
        """Two things in trouble together move together, each to its best option given the other's."""
        for _ in range(4):
            moved = False
            for t in things:
                if field[t][chosen[t]] < MEDIUM / 3:
                    continue
                for u in near[t]:
                    m = pair[(t, u)]
                    alone_t = field[t] - m[:, chosen[u]]
                    alone_u = field[u] - pair[(u, t)][:, chosen[t]]
                    total = alone_t[:, None] + alone_u[None, :] + m
                    i, j = np.unravel_index(int(np.argmin(total)), total.shape)
                    if total[i, j] < total[chosen[t], chosen[u]] - 1e-6:
                        choose(t, int(i))
                        choose(u, int(j))
                        moved = True
            settle()
            if not moved:
                return

    # a first guess: each name where it covers least of the straight roads, then the roads one by one
    straight = np.array(
        [
            [(p.places[r["from"]].x, p.places[r["from"]].y), (p.places[r["to"]].x, p.places[r["to"]].y)]
            for r in board["roads"]
        ]
    )
    for place in p.places.values():
        crossing = np.array([_segments_meet(straight, bs + grow).sum() for bs in name_boxes[place.id]])
        choose(place.id, int(np.argmin(field[place.id] + 300 * crossing)))
    for n in sorted(roads, key=lambda n: (-float(roads[n].banners[0][2] * roads[n].banners[0][3]), n)):
        choose(n, int(np.argmin(field[n])))
    settle()
    best_energy, best = energy(), dict(chosen)
    first = dict(chosen)
    for attempt in range(ATTEMPTS):  # anneal from the first guess, until nothing covers anything
        if best_energy < HARD / 2:
            break
        rng = np.random.default_rng(20261202 + attempt)
        for t in things:
            choose(t, first[t])
        now = energy()
        for sweep in range(SWEEPS):
            heat = HEAT * (0.5 / HEAT) ** (sweep / (SWEEPS - 1))
            for k in rng.permutation(len(things)):
                t = things[k]
                c = field[t]
                weights = np.cumsum(np.exp(-(c - c.min()) / heat))
                o = min(int(np.searchsorted(weights, rng.random() * weights[-1])), len(c) - 1)
                if o != chosen[t]:
                    now += c[o] - c[chosen[t]]
                    choose(t, o)
                    if now < best_energy - 1e-6:
                        best_energy, best = now, dict(chosen)
        for t in things:
            choose(t, best[t])
        settle()
        pairs()
        best_energy, best = energy(), dict(chosen)
    for t in things:
        choose(t, best[t])
    for pid, options in names.items():
        at, lines, tile_at, tile_box = options[chosen[pid]]
        place = p.places[pid]
        place.name_at, place.name_box, place.tile_at, place.tile_box = at, _union(lines), tile_at, tile_box
        place.name_boxes = list(lines)
    for n, r in roads.items():
        i = chosen[n]
        x, y, w, h = (float(v) for v in r.banners[i])
        p.curves[n], p.banners[n] = r.curves[r.curve_of[i]], (x, y, w, h)


# ----------------------------------------------------------------------------- what the tests and the CLI read


def space_boxes(view: dict[str, Any], language: str = SOURCE_LANGUAGE, layout: str = "wide") -> dict[str, list[Box]]:
    """Each space's mark, the box its pawns stand in, the lines of its name, and (Mysteries) the name its Village
    tile will show, as boxes in the picture's coordinates: what no banner may cover, whatever the state. (The
    Palace says its name on its own mark.)"""
    out = {}
    for place in plan(view, language, layout).places.values():
        out[place.id] = [place.shape, place.pawns, *place.name_boxes] + ([place.tile_box] if place.tile_box else [])
    return out


def banner_boxes(view: dict[str, Any], language: str = SOURCE_LANGUAGE, layout: str = "wide") -> dict[int, Box]:
    """Where each road's banner goes (see `plan`)."""
    return dict(plan(view, language, layout).banners)


# ----------------------------------------------------------------------------- drawing


def _space_shape(place: Place) -> str:
    x, y = place.x, place.y
    kind = place.kind
    hw, hh = SPACE_HALF.get(kind, (24, 14))
    if kind == "city":
        shape = (
            f'<rect x="{_r(x - hw)}" y="{_r(y - hh)}" width="{2 * hw}" height="{2 * hh}" rx="5" '
            f'fill="#f4e2c1" stroke="#6d4c2f" stroke-width="1.5"/><path d="M{_r(x - 11)},{_r(y + 10)} v-11 '
            f'l11,-10 l11,10 v11 z" fill="#c98b58" stroke="#6d4c2f"/>'
        )
    elif kind == "village":  # a fir tree on its trunk: a plain triangle had been taken for the cabbage's token
        shape = (
            f'<circle cx="{x}" cy="{y}" r="{hw}" fill="#dcedc8" stroke="#33691e" stroke-width="1.5"/>'
            f'<path d="M{_r(x - 9)},{_r(y + 5)} l9,-10 l9,10 z M{_r(x - 7)},{_r(y - 1)} l7,-10 l7,10 z" '
            f'fill="#33691e"/><rect x="{_r(x - 2)}" y="{_r(y + 5)}" width="4" height="6" fill="#6d4c2f"/>'
        )
    elif kind == "palace":
        cy = y + PALACE_PAWNS_Y
        shape = (
            f'<rect x="{_r(x - hw)}" y="{_r(y - hh)}" width="{2 * hw}" height="{2 * hh}" rx="8" '
            f'fill="#fff3c4" stroke="#b8860b" stroke-width="3"/><path d="M{_r(x - 22)},{_r(cy + 9)} v-17 '
            f'l11,8 l11,-13 l11,13 l11,-8 v17 z" fill="#e2b93b" stroke="#b8860b"/>'
        )
    else:
        shape = (
            f'<rect x="{_r(x - hw)}" y="{_r(y - hh)}" width="{2 * hw}" height="{2 * hh}" rx="14" '
            f'fill="#b3e5fc" stroke="#01579b" stroke-width="1.5"/><path d="M{_r(x - 11)},{_r(y + 4)} '
            f'q11,9 22,0 M{x},{_r(y - 10)} v17 M{_r(x - 6)},{_r(y - 6)} h12" fill="none" stroke="#01579b" '
            'stroke-width="2.5"/>'
        )
    nx, ny, anchor = place.name_at
    return f'<g class="space {kind}" data-space="{escape(place.id)}">{shape}' + "".join(
        f'<text class="name" x="{_r(nx)}" y="{_r(ny + LINE * i)}" text-anchor="{anchor}" '
        f'font-size="{NAME_SIZE}" fill="#2b2b2b">{escape(line)}</text>'
        for i, line in enumerate(place.lines)
    )


def _tile(place: Place, tile: str, language: str) -> str:
    if place.tile_at is None:
        return ""
    tx, ty, anchor = place.tile_at
    # face down: in purple, bold, on a white halo, to be found; turned up: what it was, in grey, as past
    look = (
        'font-weight="bold" fill="#6a1b9a" stroke="#fff" stroke-width="3" paint-order="stroke"'
        if tile == "face down"
        else 'fill="#6b604a" font-style="italic"'
    )
    return (
        f'<text class="tile" x="{_r(tx)}" y="{_r(ty)}" text-anchor="{anchor}" font-size="{SMALL_SIZE}" '
        f"{look}>{escape(tile_label(tile, language))}</text>"
    )


def _road(road: dict[str, Any], curve: Curve, box: Box) -> str:
    cost = road["cost"]
    bx, by, width, height = box
    hx, hy, hw, hh = _rbox(_hit(box))
    parts = [
        f'<g class="road" data-road="{road["number"]}">',
        f'<rect class="hit" x="{hx}" y="{hy}" width="{hw}" height="{hh}" fill="#000" fill-opacity="0"/>',
        f'<path class="way" d="{curve.d}" fill="none" stroke="#a1887f" stroke-width="{STROKE}" '
        f'stroke-linecap="round"/>',
        f'<rect class="banner" x="{bx}" y="{by}" width="{width}" height="{height}" rx="6" fill="#fffdf6" '
        f'stroke="#8d6e63" stroke-width="1.5"/>',
        f'<text x="{_r(bx + 3 + NUMBER_W / 2)}" y="{_r(by + height / 2 + 0.36 * NUMBER_SIZE)}" '
        f'text-anchor="middle" font-size="{NUMBER_SIZE}" font-weight="bold" fill="#4e342e">{road["number"]}'
        "</text>",
    ]
    n = len(cost)
    cols = n if n <= 3 else (n + 1) // 2
    for i, colour in enumerate(cost):
        row, col = (0, i) if n <= 3 else divmod(i, cols)
        parts.append(
            _pip(colour, bx + 3 + NUMBER_W + PIP_STEP / 2 + PIP_STEP * col, by + 2 + PIP_STEP / 2 + PIP_STEP * row)
        )
    parts.append("</g>")
    return "".join(parts)


def svg(view: dict[str, Any], size: int | None = None, language: str = SOURCE_LANGUAGE, layout: str = "wide") -> str:
    """The board of a Kids view as an SVG document: sections, roads with banners, places, and pawns.

    ``size`` sets the picture's width in pixels (the height follows); ``layout`` is ``wide`` (sections side by
    side, for a landscape table) or ``tall`` (stacked, for a phone that pans); see the module's description. The
    words (the places' names, the Village tiles, the credit: the drawing says the board is the project's own
    design, or a custom one) are in ``language``.
    """
    p = plan(view, language, layout)
    board = view["board"]
    width, height = p.width, p.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="kids-board {layout}" viewBox="0 0 {_r(width)} '
        f'{_r(height)}"'
        + (f' width="{size}" height="{round(size * height / width)}"' if size else "")
        + ' font-family="sans-serif">',
        f'<rect width="{_r(width)}" height="{_r(height)}" fill="#f7f3e8"/>',
    ]
    for k, (frame, title) in enumerate(p.frames):
        x, y, w, h = (_r(v) for v in frame)
        out.append(
            f'<g class="section"><title>{escape(title)}</title><rect x="{x}" y="{y}" width="{w}" '
            f'height="{h}" rx="10" fill="{"#eef5e4" if k % 2 else "#f1ead8"}" stroke="#c8bfa8" '
            'stroke-dasharray="6 4"/></g>'
        )
    for road in board["roads"]:
        out.append(_road(road, p.curves[road["number"]], p.banners[road["number"]]))
    tiles = view.get("village_tiles") or {}
    for place in p.places.values():
        out.append(
            _space_shape(place) + (_tile(place, tiles[place.id], language) if place.id in tiles else "") + "</g>"
        )
    for seat in view["seats"]:
        s = seat["seat"]
        standing = p.places.get(seat["space"])
        if standing is None:
            continue
        dx, dy = slots(standing.kind)[s % 4]
        px, py = _r(standing.x + dx), _r(standing.y + dy)
        out.append(
            f'<g class="pawn" data-seat="{s}"><circle cx="{px}" cy="{py}" r="{PAWN_R}" fill="{PAWN[s % 4]}" '
            f'stroke="#212121" stroke-width="2"/><text x="{px}" y="{_r(py + 0.36 * PAWN_SIZE)}" '
            f'text-anchor="middle" font-size="{PAWN_SIZE}" font-weight="bold" fill="{PAWN_INK[s % 4]}">'
            f"{s + 1}</text></g>"
        )
    for line, x, y, _ in p.credit:
        out.append(f'<text x="{_r(x)}" y="{_r(y)}" font-size="{SMALL_SIZE}" fill="#6b604a">{escape(line)}</text>')
    out.append("</svg>")
    return "".join(out)
