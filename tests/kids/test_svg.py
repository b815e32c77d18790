"""The board's picture, measured as it is drawn: on every board the game deals, in every language and both
arrangements, no road is drawn over another road's banner or over a place's name, no two banners or names
overlap, roads that run side by side are drawn apart, and the landscape picture is readable at the table's size
(text at least 12 CSS px, pawns at least 24 px, every road a 44 × 44 px tap target).

The measures read the SVG document itself (its paths, rectangles, circles and texts), not the code that placed
them; a text's box is `svg.text_box`, the model the drawing is planned with (checked against a real browser by
hand: DejaVu Sans and Noto CJK draw narrower than it)."""

from __future__ import annotations

import itertools
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import splendor
from splendor.games.kids.board import SECTIONS, SIDES
from splendor.games.kids.svg import LANDSCAPE, PAWN, PAWN_INK, _overlap, banner_boxes, space_boxes, svg, text_box
from splendor.i18n import translate
from splendor.i18n.message import Message

BOARDS = [
    [f"{s}-{side}" for s, side in zip(sections, sides)]
    for sections in (SECTIONS, ("A1", "A3"))
    for sides in itertools.product(SIDES, repeat=len(sections))
]
"""Every board the game deals: a side of each section, A1-A2-A3, or A1-A3 for the short game."""
LANGUAGES = ["en", "sl", "ko", "zh"]
LAYOUTS = ["wide", "tall"]
NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]
Point = tuple[float, float]


# ----------------------------------------------------------------------------- reading a picture back


@dataclass
class Road:
    number: int
    line: list[Point]  # the road's centre line, a curve sampled finely
    stroke: float
    banner: Box
    hit: Box  # the largest rectangle of the road's group: what a finger taps


@dataclass
class Drawing:
    width: float
    height: float
    roads: dict[int, Road] = field(default_factory=dict)
    labels: list[tuple[str, Box]] = field(default_factory=list)  # every word outside the roads and pawns
    owner: list[str] = field(default_factory=list)  # the place each word names, or ""
    shapes: dict[str, Box] = field(default_factory=dict)  # each place's mark, by its id
    pawns: list[tuple[int, float, float, float, str, str, str]] = field(default_factory=list)
    font_sizes: list[float] = field(default_factory=list)


def _numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", text)]


def _path_points(d: str) -> list[Point]:
    """The points along an SVG path of M, L and C commands (absolute), each cubic sampled 40 times."""
    points: list[Point] = []
    for command, args in re.findall(r"([MLC])([^MLC]*)", d):
        n = _numbers(args)
        if command in "ML":
            points += list(zip(n[0::2], n[1::2]))
        else:
            for k in range(0, len(n), 6):
                p0, (c1x, c1y, c2x, c2y, x, y) = points[-1], n[k : k + 6]
                for i in range(1, 41):
                    t = i / 40
                    a, b, c, e = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t**2, t**3
                    points.append((a * p0[0] + b * c1x + c * c2x + e * x, a * p0[1] + b * c1y + c * c2y + e * y))
    return points


def _shape_box(node: ET.Element) -> Box | None:
    a = {k: float(v) for k, v in node.attrib.items() if k in ("x", "y", "width", "height", "cx", "cy", "r")}
    if node.tag == NS + "rect":
        return a["x"], a["y"], a["width"], a["height"]
    if node.tag == NS + "circle":
        return a["cx"] - a["r"], a["cy"] - a["r"], 2 * a["r"], 2 * a["r"]
    return None


def _text(node: ET.Element) -> tuple[str, Box, float]:
    size = float(node.get("font-size", "16"))
    words = "".join(node.itertext())
    return (
        words,
        text_box(float(node.get("x", "0")), float(node.get("y", "0")), words, size, node.get("text-anchor", "start")),
        size,
    )


def read(picture: str) -> Drawing:
    root = ET.fromstring(picture)
    _, _, width, height = _numbers(root.get("viewBox", ""))
    drawing = Drawing(width, height)

    def walk(node: ET.Element, owner: str) -> None:
        kind = node.get("class", "").split()
        if node.tag == NS + "g" and "road" in kind:
            line, stroke, rects = [], 5.0, []
            for part in node.iter():
                if part.tag == NS + "line":
                    (x1, y1), (x2, y2) = ((float(part.get(f"x{i}", 0)), float(part.get(f"y{i}", 0))) for i in (1, 2))
                    line = [(x1 + (x2 - x1) * i / 40, y1 + (y2 - y1) * i / 40) for i in range(41)]
                    stroke = float(part.get("stroke-width", 1))
                elif part.tag == NS + "path" and "way" in part.get("class", "").split():
                    line, stroke = _path_points(part.get("d", "")), float(part.get("stroke-width", 1))
                elif part.tag == NS + "rect":
                    rects.append((part.get("class", ""), _shape_box(part)))
                elif part.tag == NS + "text":
                    drawing.font_sizes.append(_text(part)[2])
            banner = next((b for c, b in rects if c == "banner"), rects[0][1])
            hit = max((b for _, b in rects), key=lambda b: min(b[2], b[3]))
            drawing.roads[int(node.get("data-road", "0"))] = Road(
                int(node.get("data-road", "0")), line, stroke, banner, hit
            )
            return
        if node.tag == NS + "g" and "pawn" in kind:
            circle = next(node.iter(NS + "circle"))
            number = next(node.iter(NS + "text"))
            drawing.font_sizes.append(_text(number)[2])
            drawing.pawns.append(
                (
                    int(node.get("data-seat", "-1")),
                    float(circle.get("cx", 0)),
                    float(circle.get("cy", 0)),
                    float(circle.get("r", 0)),
                    circle.get("fill", ""),
                    number.get("fill", ""),
                    "".join(number.itertext()),
                )
            )
            return
        if node.tag == NS + "g" and "space" in kind:
            boxes = [b for part in node if (b := _shape_box(part)) is not None]
            if boxes:
                x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
                drawing.shapes[node.get("data-space", "")] = (
                    x0,
                    y0,
                    max(b[0] + b[2] for b in boxes) - x0,
                    max(b[1] + b[3] for b in boxes) - y0,
                )
            owner = node.get("data-space", "")
        if node.tag == NS + "text":
            words, box, size = _text(node)
            drawing.labels.append((words, box))
            drawing.owner.append(owner)
            drawing.font_sizes.append(size)
            return
        for child in node:
            walk(child, owner)

    walk(root, "")
    return drawing


def _grown(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + 2 * by, box[3] + 2 * by


def _segment_meets_box(p: Point, q: Point, box: Box) -> bool:
    """Whether the segment p-q passes through the box (Liang-Barsky clipping)."""
    x0, y0, w, h = box
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for edge_p, edge_q in ((-dx, p[0] - x0), (dx, x0 + w - p[0]), (-dy, p[1] - y0), (dy, y0 + h - p[1])):
        if edge_p == 0:
            if edge_q < 0:
                return False
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _extent(line: list[Point]) -> Box:
    xs, ys = [p[0] for p in line], [p[1] for p in line]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def crosses(line: list[Point], box: Box) -> bool:
    if _overlap(_extent(line), box, 0.01) == 0:
        return False
    return any(_segment_meets_box(p, q, box) for p, q in itertools.pairwise(line))


@cache
def drawing(sides: tuple[str, ...], language: str, layout: str) -> Drawing:
    view = splendor.new_game(
        "kids", players=4, seed=1, board=list(sides), short=len(sides) == 2, mysteries=len(sides) == 3
    ).view(None)
    return read(svg(view, language=language, layout=layout))


def _board_view(sides: list[str]) -> dict:
    return splendor.new_game(
        "kids", players=4, seed=1, board=sides, short=len(sides) == 2, mysteries=len(sides) == 3
    ).view(None)


CASES = [
    pytest.param(tuple(b), language, layout, id=f"{'+'.join(b)}-{language}-{layout}")
    for layout in LAYOUTS
    for language in LANGUAGES
    for b in BOARDS
]


# ----------------------------------------------------------------------------- what is drawn where


@pytest.mark.parametrize(("sides", "language", "layout"), CASES)
def test_no_road_is_drawn_over_a_banner_a_name_or_a_place(sides: tuple[str, ...], language: str, layout: str) -> None:
    """Each road's line (grown by half its stroke) misses every other road's banner, every word on the board
    (places' names, Village tiles, sections' titles, the credit) and every place but the two it joins."""
    d = drawing(sides, language, layout)
    view = _board_view(list(sides))
    ends = {r["number"]: (r["from"], r["to"]) for r in view["board"]["roads"]}
    assert len(d.roads) == len(ends)
    problems = []
    for road in d.roads.values():
        half = road.stroke / 2
        for other in d.roads.values():
            if other is not road and crosses(road.line, _grown(other.banner, half)):
                problems.append(f"road {road.number} is drawn over road {other.number}'s banner")
        for words, box in d.labels:
            if crosses(road.line, _grown(box, half)):
                problems.append(f"road {road.number} is drawn over the words {words!r}")
        for space, box in d.shapes.items():
            if space not in ends[road.number] and crosses(road.line, _grown(box, half)):
                problems.append(f"road {road.number} is drawn over the place {space}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("sides", "language", "layout"), CASES)
def test_no_two_banners_or_words_overlap(sides: tuple[str, ...], language: str, layout: str) -> None:
    """Banners, words and places' marks never overlap; only the Palace says its name on its own mark."""
    d = drawing(sides, language, layout)
    banners = [(f"road {r.number}'s banner", r.banner, "") for r in d.roads.values()]
    words = [(w, box, owner) for (w, box), owner in zip(d.labels, d.owner)]
    marks = [(f"the place {s}", b, s) for s, b in d.shapes.items()]
    palace = next(s for s in d.shapes if s.endswith(".palace"))
    problems = [
        f"{a} overlaps {b}"
        for (a, one, x), (b, other, y) in itertools.combinations(banners + words + marks, 2)
        if _overlap(one, other, 0) > 0
        and not (a.startswith("the place") and b.startswith("the place"))
        and not (x == y == palace)
    ]
    assert not problems, "\n".join(problems)
    outside = [
        a for a, (x, y, w, h), _ in banners + words + marks if x < 0 or y < 0 or x + w > d.width or y + h > d.height
    ]
    assert outside == [], "drawn outside the picture"


@pytest.mark.parametrize(("sides", "language", "layout"), CASES)
def test_roads_that_run_side_by_side_are_drawn_apart(sides: tuple[str, ...], language: str, layout: str) -> None:
    """Outside the places' marks, no more than 24 px of a road runs within 12 px of another road heading the same
    way (within 20°): two strokes that close cannot be told apart. Roads that cross at a fair angle are fine."""
    d = drawing(sides, language, layout)
    view = _board_view(list(sides))
    ends = {r["number"]: (r["from"], r["to"]) for r in view["board"]["roads"]}
    centre = {s: (b[0] + b[2] / 2, b[1] + b[3] / 2) for s, b in d.shapes.items()}
    problems = []
    for a, b in itertools.permutations(d.roads.values(), 2):
        if _overlap(_grown(_extent(a.line), 12), _extent(b.line), 0) == 0:
            continue
        marks = np.array([centre[s] for s in set(ends[a.number] + ends[b.number])])
        close = _run_along(np.array(a.line), np.array(b.line), marks)
        if close > 24:
            problems.append(f"roads {a.number} and {b.number} run side by side for {close:.0f} px")
    assert not problems, "\n".join(problems)


def _run_along(a: np.ndarray, b: np.ndarray, marks: np.ndarray) -> float:
    """How long line ``a`` runs within 12 px of line ``b`` heading the same way (within 20°), counting each piece
    of ``a`` from where it starts, outside 26 px of the places' centres ``marks``."""
    p, v = a[:-1], a[1:] - a[:-1]
    s, w = b[:-1], b[1:] - b[:-1]
    keep = (np.hypot(*(p[:, None, :] - marks[None]).transpose(2, 0, 1)) >= 26).all(axis=1) & (np.hypot(*v.T) > 0)
    ww = np.maximum((w * w).sum(axis=1), 1e-12)
    rel = p[:, None, :] - s[None]  # (a's pieces, b's pieces, 2)
    t = np.clip((rel * w[None]).sum(axis=2) / ww[None], 0, 1)
    gap = np.hypot(rel[..., 0] - t * w[None, :, 0], rel[..., 1] - t * w[None, :, 1])
    turn = np.degrees(np.arctan2(v[:, 1], v[:, 0])[:, None] - np.arctan2(w[:, 1], w[:, 0])[None]) % 180
    along = ((gap < 12) & (np.minimum(turn, 180 - turn) < 20) & ((w * w).sum(axis=1) > 0)[None]).any(axis=1)
    return float(np.hypot(*v.T)[along & keep].sum())


# ----------------------------------------------------------------------------- readable at the table's size


@pytest.mark.parametrize("sides", BOARDS, ids=lambda b: "+".join(b))
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_landscape_picture_is_readable_in_the_tables_box(sides: list[str], language: str) -> None:
    """Shown in an 820 × 640 CSS px box (the table at 1280 × 800), the picture is drawn at its full width; then
    every text is at least 12 px high, each pawn at least 24 px across and each road's tap target 44 × 44 px,
    and no road's tap target covers another road's banner."""
    d = drawing(tuple(sides), language, "wide")
    scale = min(LANDSCAPE[0] / d.width, LANDSCAPE[1] / d.height)
    assert scale == pytest.approx(LANDSCAPE[0] / d.width)  # the width is what binds
    assert 1.25 <= d.width / d.height <= 1.65 or len(sides) == 2
    assert min(d.font_sizes) * scale >= 12
    assert min(2 * r for _, _, _, r, *_ in d.pawns) * scale >= 24
    for road in d.roads.values():
        assert min(road.hit[2], road.hit[3]) * scale >= 44, road.number
        for other in d.roads.values():
            assert other is road or _overlap(road.hit, other.banner, 0) == 0, (road.number, other.number)


def test_the_tall_picture_is_readable_at_its_own_size() -> None:
    """The tall arrangement is for a portrait phone that zooms and pans: at its natural size (1 unit = 1 CSS px)
    its text is at least 12 px and a road's tap target 44 px, and it is taller than wide."""
    d = drawing(tuple(BOARDS[0]), "en", "tall")
    assert d.height > d.width and min(d.font_sizes) >= 12 and min(2 * p[3] for p in d.pawns) >= 24
    assert all(min(r.hit[2], r.hit[3]) >= 44 for r in d.roads.values())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pawns_have_their_seats_colours_and_numbers_and_never_hide_each_other(players: int) -> None:
    view = splendor.new_game("kids", players=players, seed=1, board=BOARDS[0]).view(None)
    assert len({s["space"] for s in view["seats"]}) == 1  # everyone starts at the Port
    for layout in LAYOUTS:
        pawns = read(svg(view, layout=layout)).pawns
        assert sorted(p[0] for p in pawns) == list(range(players))
        for seat, _, _, _, fill, ink, number in pawns:
            assert (fill, ink, number) == (PAWN[seat], PAWN_INK[seat], str(seat + 1))
        assert PAWN == ("#e53935", "#1e88e5", "#fdd835", "#8e24aa") and PAWN_INK[2] != "#fff"
        for a, b in itertools.combinations(pawns, 2):
            assert math.dist(a[1:3], b[1:3]) >= a[3] + b[3], (a, b)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_pawns_on_any_place_cover_no_banner_and_no_name(layout: str) -> None:
    """Four pawns on any one place (the Palace too) hide no banner, no word, and not each other."""
    view = _board_view(BOARDS[0])
    d = read(svg(view, layout=layout))
    for space in view["board"]["spaces"]:
        pawns = read(svg({**view, "seats": [{**s, "space": space["id"]} for s in view["seats"]]}, layout=layout)).pawns
        boxes = [(x - r, y - r, 2 * r, 2 * r) for _, x, y, r, *_ in pawns]
        for a, b in itertools.combinations(pawns, 2):
            assert math.dist(a[1:3], b[1:3]) >= a[3] + b[3], (space["id"], a, b)
        for box in boxes:
            assert all(_overlap(box, r.banner, 0) == 0 for r in d.roads.values()), space["id"]
            assert all(_overlap(box, words, 0) == 0 for _, words in d.labels), space["id"]


def test_every_road_stays_a_clickable_group_with_its_cost_in_pips_and_shapes() -> None:
    """kids.js makes each ``g.road[data-road]`` clickable; a banner shows each resource as a coloured pip with
    the resource's shape inside, so colour is never the only cue."""
    view = _board_view(BOARDS[0])
    root = ET.fromstring(svg(view))
    groups = [g for g in root.iter(NS + "g") if g.get("class") == "road"]
    assert sorted(int(g.get("data-road", 0)) for g in groups) == [r["number"] for r in view["board"]["roads"]]
    for g, road in zip(groups, view["board"]["roads"]):
        pips = [p for p in g.iter(NS + "g") if "pip" in p.get("class", "").split()]
        assert [p.get("data-resource") for p in pips] == road["cost"]
        assert all(p.find(NS + "path") is not None for p in pips)


# ----------------------------------------------------------------------------- the planner's own boxes


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("sides", BOARDS, ids=lambda b: "+".join(b))
def test_no_label_on_the_board_overlaps_another(sides: list[str], language: str, layout: str) -> None:
    """The planner's own boxes: no banner covers another, a place's mark, the box its pawns stand in, a line of
    its name or its Village tile's name; no two places' boxes overlap (in every language: the names are said in
    it, so their widths differ)."""
    view = _board_view(sides)
    banners = list(banner_boxes(view, language, layout).values())
    spaces = list(space_boxes(view, language, layout).values())
    assert len(banners) == len(view["board"]["roads"])
    for a, b in itertools.combinations(banners, 2):
        assert _overlap(a, b, 0) == 0, (a, b)
    for banner in banners:
        for marks in spaces:
            assert all(_overlap(banner, mark, 0) == 0 for mark in marks), (banner, marks)
    for one, other in itertools.combinations(spaces, 2):
        assert all(_overlap(a, b, 0) == 0 for a in one for b in other), (one, other)


def test_the_picture_says_the_games_words_and_the_places_names_in_its_language() -> None:
    """Issue 32: in Chinese the places' names stayed English while the Port and the Palace were translated."""
    view = splendor.new_game("kids", players=2, seed=1, board=BOARDS[0], mysteries=True).view(None)
    picture = svg(view, language="zh")
    assert "港口" in picture and "璀璨宫殿" in picture and "本版图为自行设计" in picture
    assert "The Port" not in picture and "Palace of Splendor" not in picture
    assert "磨坊溪" in picture and "Millbrook" not in picture
    words = " ".join(w for w, _ in read(picture).labels)
    for space in view["board"]["spaces"]:
        said = translate(Message(space["name"]), "zh")
        assert said != space["name"] and said in words


def test_the_picture_draws_each_banner_where_it_was_placed() -> None:
    view = splendor.new_game("kids", players=2, seed=1, board=BOARDS[0], mysteries=True).view(None)
    d = read(svg(view))
    for number, box in banner_boxes(view).items():
        assert d.roads[number].banner == pytest.approx(box)


def test_the_tall_layout_is_asked_for_by_name_and_an_unknown_one_is_refused() -> None:
    view = _board_view(BOARDS[0])
    wide, tall = read(svg(view)), read(svg(view, layout="tall"))
    assert wide.width > wide.height and tall.height > tall.width
    with pytest.raises(ValueError, match="layout"):
        svg(view, layout="sideways")


def test_the_picture_command_still_draws_a_board(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    done = subprocess.run(
        [str(Path(sys.executable).parent / "splendor"), "kids", "picture", str(out), "--sides", "A1-back,A3-front"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(read(out.read_text(encoding="utf-8")).roads) > 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_face_down_village_tile_is_said_in_words_and_one_turned_up_in_grey(language: str) -> None:
    """A parent's find: a face-down Village tile was a small green "?", unseen by a child, and a tile turned up
    read as if still there ("Treasure" after the token was taken). Face down it says "? secret" in bold purple on a
    white halo, no wider than the widest tile's name (the room the board's plan reserves); turned up, its name is
    grey and slanted, as past."""
    from splendor.games.kids.svg import SMALL_SIZE, TILES, tile_label

    widest = max(text_box(0, 0, tile_label(t, language), SMALL_SIZE)[2] for t in TILES)
    assert text_box(0, 0, tile_label("face down", language), SMALL_SIZE)[2] <= widest
    view = splendor.new_game("kids", players=2, seed=1, board=BOARDS[0], mysteries=True).view(None)
    first, *_ = view["village_tiles"]
    view["village_tiles"][first] = "Treasure"
    tiles = [t for t in ET.fromstring(svg(view, language=language)).iter(NS + "text") if t.get("class") == "tile"]
    looks = {("".join(t.itertext()), t.get("fill"), t.get("font-style")) for t in tiles}
    assert looks == {
        (tile_label("face down", language), "#6a1b9a", None),
        (tile_label("Treasure", language), "#6b604a", "italic"),
    }, looks
