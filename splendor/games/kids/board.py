"""Splendor Kids boards as data: one TOML file per side of a section, checked, and joined into a board.

The published board's layout is not available, so the project ships its own design (six sides in
``boards/``) and says so wherever a board is shown. A player who owns the game can transcribe the printed
board in the same format and check it with ``splendor kids check-board FILE...``.

A side's file (format ``splendor-kids-board/1``)::

    format = "splendor-kids-board/1"
    section = "A1"              # A1 (with the Port), A2 (the middle) or A3 (with the Palace)
    side = "front"              # front or back
    title = "Harbour Road"
    credit = "Designed for the splendor project; not the published board."

    [lanes]                     # where travelers arrive from the previous section (A2 and A3 only)
    west = "ford"               # lane name -> a space of this section
    middle = "mill"
    east = "orchard"

    [[spaces]]
    id = "port"                 # unique within the side
    kind = "port"               # port | city | village | palace
    name = "The Port"
    x = 300                     # drawing coordinates within the section: 0-600 across, 0-360 down;
    y = 330                     # the Palace side is up, so every road must lead to a smaller y

    [[roads]]
    from = "port"
    to = "mill"                 # a space of this side, or "lane:west" etc. to leave the section
    cost = ["black", "red"]     # the banner: 1 to 5 resources of black, red, green, brown, blue

Every side has the three lanes ``west``, ``middle`` and ``east`` (x = 120, 300, 480 on the section's edge), so any
side of A1 fits any side of A2 and of A3, and A1 fits A3 directly for the short game.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from splendor.games.kids.notation import MAX_LEGAL, MOVE_BASE, most_payments
from splendor.i18n import N_

FORMAT = "splendor-kids-board/1"
SECTIONS = ("A1", "A2", "A3")
SIDES = ("front", "back")
SHIPPED_SIDES = tuple(f"{section}-{side}" for section in SECTIONS for side in SIDES)
"""The names of the six sides the project ships: ``A1-front`` … ``A3-back``."""
KINDS = ("port", "city", "village", "palace")
LANES = ("west", "middle", "east")
LANE_X = {"west": 120, "middle": 300, "east": 480}
RESOURCES = ("black", "red", "green", "brown", "blue")
WIDTH, HEIGHT = 600, 360
MAX_COST = 5
MAX_SIDE_ROADS = 24  # three sides then number at most 72 roads, the action index's room
CREDIT = N_("A board of our own design: its sections follow the rules, but it is not the printed board.")
CUSTOM_CREDIT = N_("custom board, transcribed by its owner")
# The two spaces every board has, by the names the shipped sides give them (marked so that the pages and the
# terminal say them in each language).
PORT_NAME, PALACE_NAME = N_("The Port"), N_("Palace of Splendor")
# The shipped sides' titles and their other places' names, marked so that the picture and the pages say them in the
# reader's language (invented names, translated for their meaning). A custom board's names stay as written.
SIDE_TITLES = (
    N_("Harbour Road"),
    N_("Marsh Trail"),
    N_("The Heartlands"),
    N_("Windmill Valley"),
    N_("Palace Heights"),
    N_("Queen's Gardens"),
)
PLACE_NAMES = (
    N_("Millbrook"),
    N_("Wellside"),
    N_("Quayton"),
    N_("Hilltop"),
    N_("Fairmarket"),  # A1-front
    N_("Reedbank"),
    N_("Ferrytown"),
    N_("Standing Stones"),
    N_("Duck Pond"),
    N_("Red Barn"),  # A1-back
    N_("Fordham"),
    N_("Crossways"),
    N_("Elmgrove"),
    N_("Meadowsweet"),
    N_("Abbeyfield"),  # A2-front
    N_("Stonebridge"),
    N_("Watchtower"),
    N_("Wayside Inn"),
    N_("Orchard Hill"),
    N_("Lockgate"),
    N_("Market Square"),
    N_("Vineyard"),
    N_("Windmill"),
    N_("Fenwick"),  # A2-back
    N_("Dairy Farm"),
    N_("Breezy Knoll"),
    N_("Old Keep"),
    N_("Hill Shrine"),
    N_("Lower Gate"),
    N_("Courtyard"),
    N_("Rose Garden"),
    N_("Grand Steps"),
    N_("Guild Hall"),  # A3-front
    N_("West Gate"),
    N_("Outer Court"),
    N_("Kitchen Garden"),
    N_("Fountain Square"),
    N_("Hedge Maze"),  # A3-back
    N_("Terrace"),
)


class BoardError(ValueError):
    """A board file that cannot be played, with every problem found, each explained."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(problems))


@dataclass(frozen=True)
class Space:
    """A space of the assembled board. ``id`` is ``SECTION.local``, e.g. ``A1.port``."""

    id: str
    kind: str
    name: str
    section: str
    x: float
    y: float


@dataclass(frozen=True)
class Road:
    """A one-way road toward the Palace, with the banner of resources it costs (colour indices)."""

    number: int
    start: str
    end: str
    cost: tuple[int, ...]
    section: str


@dataclass(frozen=True)
class Board:
    """The joined board: spaces, numbered roads, and for each space the roads leaving it."""

    sides: tuple[str, ...]
    titles: tuple[str, ...]
    spaces: dict[str, Space]
    roads: tuple[Road, ...]
    custom: bool

    @property
    def port(self) -> str:
        return next(s.id for s in self.spaces.values() if s.kind == "port")

    @property
    def palace(self) -> str:
        return next(s.id for s in self.spaces.values() if s.kind == "palace")

    def roads_from(self, space: str) -> list[Road]:
        """Roads leaving a space, in road-number order."""
        return [r for r in self.roads if r.start == space]

    def villages(self, section: str | None = None) -> list[str]:
        return [s.id for s in self.spaces.values() if s.kind == "village" and (section is None or s.section == section)]

    def as_view(self) -> dict[str, Any]:
        """JSON-ready description for views and clients."""
        return {
            "sides": list(self.sides),
            "titles": list(self.titles),
            "credit": CUSTOM_CREDIT if self.custom else CREDIT,
            "width": WIDTH,
            "height": HEIGHT * len(self.sides),
            "spaces": [
                {"id": s.id, "kind": s.kind, "name": s.name, "section": s.section, "x": s.x, "y": s.y}
                for s in self.spaces.values()
            ],
            "roads": [
                {
                    "number": r.number,
                    "from": r.start,
                    "to": r.end,
                    "cost": [RESOURCES[c] for c in r.cost],
                    "section": r.section,
                }
                for r in self.roads
            ],
            "lanes": dict(LANE_X),
        }


# ----------------------------------------------------------------------------- reading and checking a side


def parse_side(text: str, source: str = "board text") -> dict[str, Any]:
    """A side's data from TOML text, checked; `BoardError` lists every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BoardError(source, [f"not valid TOML: {e}"]) from None
    problems = check_side(data)
    if problems:
        raise BoardError(source, problems)
    return data


def read_side(path: str | Path) -> dict[str, Any]:
    """A side's data from a TOML file, checked; `BoardError` lists every problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        problem = f"cannot read the file: {e.strerror or e}"
        if not Path(path).exists() and "/" not in str(path) and not str(path).endswith(".toml"):
            # a name, not a file: a shipped side misspelt ("A9-front")
            problem += f"; nor is it a side of the game's boards, which are {', '.join(sorted(SHIPPED_SIDES))}"
        raise BoardError(str(path), [problem]) from None
    return parse_side(text, str(path))


def read_sides(parts: list[str]) -> list[str | dict[str, Any]]:
    """A board option from what a person typed: shipped side names stay names, anything else is read as a side
    file (for the command line: the game itself never opens a file). `BoardError` explains a bad file."""
    return [part if part in SHIPPED_SIDES else read_side(part) for part in (p.strip() for p in parts) if part]


def check_side(data: dict[str, Any]) -> list[str]:
    """Every problem of one side's data, explained; an empty list when it is playable."""
    problems: list[str] = []
    if not isinstance(data, dict):
        return ["a side is a TOML table"]
    if data.get("format") != FORMAT:
        problems.append(f'format must be "{FORMAT}" (found {data.get("format")!r})')
    section = data.get("section")
    if section not in SECTIONS:
        problems.append(f"section must be one of {', '.join(SECTIONS)} (found {section!r})")
    if data.get("side") not in SIDES:
        problems.append(f"side must be front or back (found {data.get('side')!r})")
    spaces = data.get("spaces")
    roads = data.get("roads")
    if not isinstance(spaces, list) or not spaces:
        return problems + ["the side has no [[spaces]]"]
    if not isinstance(roads, list):
        roads = []
    ids: dict[str, dict[str, Any]] = {}
    for i, sp in enumerate(spaces, 1):
        sid = sp.get("id") if isinstance(sp, dict) else None
        if not isinstance(sid, str) or not sid or not sid.replace("_", "").replace("-", "").isalnum():
            problems.append(f"space {i} needs an id of letters, digits, - or _")
            continue
        if sid in ids:
            problems.append(f"space id {sid!r} is used twice")
        ids[sid] = sp
        if sp.get("kind") not in KINDS:
            problems.append(f"space {sid!r} has kind {sp.get('kind')!r}; kinds are {', '.join(KINDS)}")
        x, y = sp.get("x"), sp.get("y")
        if (
            not isinstance(x, (int, float))
            or not isinstance(y, (int, float))
            or not (0 <= x <= WIDTH)
            or not (0 <= y <= HEIGHT)
        ):
            problems.append(f"space {sid!r} needs x from 0 to {WIDTH} and y from 0 to {HEIGHT}")
    kinds = [sp.get("kind") for sp in ids.values()]
    if section == "A1" and kinds.count("port") != 1:
        problems.append("section A1 must have exactly one port")
    if section != "A1" and "port" in kinds:
        problems.append(f"only section A1 has the port; {section} has one")
    if section == "A3" and kinds.count("palace") != 1:
        problems.append("section A3 must have exactly one palace")
    if section != "A3" and "palace" in kinds:
        problems.append(f"only section A3 has the palace; {section} has one")
    if section == "A2" and kinds.count("village") > 8:
        problems.append("section A2 may have at most 8 villages (one Village tile each in the Mysteries variant)")
    lanes = data.get("lanes", {})
    if section in ("A2", "A3"):
        for lane in LANES:
            target = lanes.get(lane) if isinstance(lanes, dict) else None
            if target not in ids:
                problems.append(
                    f"lane {lane} does not join: [lanes] {lane} must name a space of this side (found {target!r})"
                )
    elif lanes:
        problems.append("section A1 has no [lanes]: nothing arrives from before the port")
    out_lanes: set[str] = set()
    exits: dict[str, list[str]] = {sid: [] for sid in ids}
    for i, road in enumerate(roads, 1):
        if not isinstance(road, dict):
            problems.append(f"road {i} is not a table")
            continue
        start, end, cost = road.get("from"), road.get("to"), road.get("cost")
        label = f"road {i} ({start} → {end})"
        if start not in ids:
            problems.append(f"{label} starts at an unknown space {start!r}")
            continue
        if ids[start].get("kind") == "palace":
            problems.append(f"{label} leaves the palace; the palace is the end")
        if isinstance(end, str) and end.startswith("lane:"):
            lane = end.removeprefix("lane:")
            if lane not in LANES:
                problems.append(f"{label} leads to an unknown lane {lane!r}; lanes are {', '.join(LANES)}")
            elif section == "A3":
                problems.append(f"{label} leaves section A3, but nothing follows A3")
            else:
                out_lanes.add(lane)
                exits[start].append(end)
        elif end not in ids:
            problems.append(f"{label} leads to an unknown space {end!r}")
        else:
            exits[start].append(end)
            if not ids[end].get("y", 0) < ids[start].get("y", 0):
                problems.append(
                    f"{label} goes backwards: roads lead toward the palace, so its end must be "
                    "higher on the board (a smaller y) than its start"
                )
            if ids[end].get("kind") == "port":
                problems.append(f"{label} leads into the port")
        if not isinstance(cost, list) or not 1 <= len(cost) <= MAX_COST:
            problems.append(
                f"{label} costs {len(cost) if isinstance(cost, list) else cost!r} resources; "
                f"a banner shows 1 to {MAX_COST}"
            )
        if isinstance(cost, list):  # every colour too, however many: each problem said at once
            for c in cost:
                if c not in RESOURCES:
                    problems.append(
                        f"{label} has an unknown colour {c!r}; colours are {', '.join(RESOURCES)}"
                        + (" (gold coins are wild and never on a banner)" if c in ("gold", "yellow") else "")
                    )
    if len(roads) > MAX_SIDE_ROADS:
        problems.append(f"a side has at most {MAX_SIDE_ROADS} roads (found {len(roads)})")
    problems += _too_many_payments(roads)
    if section in ("A1", "A2") and not out_lanes:
        problems.append(f"no road leaves section {section} by a lane, so the palace cannot be reached")
    if not problems:
        problems += _unreachable(str(section), ids, exits, lanes)  # no problems: a name of SECTIONS
    return problems


MOVES_ROOM = MAX_LEGAL - MOVE_BASE
"""The most moves one space may offer at once: the room for legal actions after every action that is not a move."""


def _too_many_payments(roads: list[Any]) -> list[str]:
    """Spaces whose roads could be paid in more ways at once than a position has room for (``MOVES_ROOM``)."""
    ways: dict[str, int] = {}
    for road in roads:
        if isinstance(road, dict) and isinstance(road.get("from"), str) and isinstance(road.get("cost"), list):
            cost = road["cost"]
            if 1 <= len(cost) <= MAX_COST and all(c in RESOURCES for c in cost):
                ways[road["from"]] = ways.get(road["from"], 0) + most_payments(cost)
    return [
        f"the roads from space {sid!r} could be paid in up to {n:,} ways at once, and a space may offer at most "
        f"{MOVES_ROOM:,}: give it fewer roads or banners of fewer colours"
        for sid, n in ways.items()
        if n > MOVES_ROOM
    ]


def _unreachable(
    section: str, ids: dict[str, dict[str, Any]], exits: dict[str, list[str]], lanes: dict[str, str]
) -> list[str]:
    """Spaces from which the palace (A3) or a lane out (A1, A2) cannot be reached, and spaces no road enters."""
    goal = {sid for sid, sp in ids.items() if sp.get("kind") == "palace"}
    done: dict[str, bool] = {}

    def reaches(sid: str) -> bool:
        if sid in done:
            return done[sid]
        ok = sid in goal or any(e.startswith("lane:") or reaches(e) for e in exits[sid])
        done[sid] = ok
        return ok

    problems = [f"the palace cannot be reached from space {sid!r}" for sid in ids if not reaches(sid)]
    entered = {e for ends in exits.values() for e in ends} | set(lanes.values() if isinstance(lanes, dict) else [])
    for sid, sp in ids.items():
        if sp.get("kind") != "port" and sid not in entered:
            problems.append(f"no road or lane leads to space {sid!r}")
    return problems


# ----------------------------------------------------------------------------- shipped sides and assembly


def shipped_sides() -> dict[str, dict[str, Any]]:
    """The six sides the project ships, by name (``A1-front`` … ``A3-back``)."""
    out = {}
    for entry in sorted(files("splendor.games.kids").joinpath("boards").iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".toml"):
            data = parse_side(entry.read_text(encoding="utf-8"), entry.name)
            out[f"{data['section']}-{data['side']}"] = data
    return out


_SHIPPED: dict[str, dict[str, Any]] | None = None


def side_data(ref: str | dict[str, Any]) -> dict[str, Any]:
    """A side by shipped name (``A2-back``), or custom data already read."""
    global _SHIPPED
    if isinstance(ref, dict):
        return ref
    if _SHIPPED is None:
        _SHIPPED = shipped_sides()
    if ref not in _SHIPPED:
        raise ValueError(f"unknown board side {ref!r}; the shipped sides are {', '.join(sorted(_SHIPPED))}")
    return _SHIPPED[ref]


def assemble(refs: list[str | dict[str, Any]]) -> Board:
    """Join sides in order (A1, A2, A3 or A1, A3) into one board; ``ValueError`` when they do not fit."""
    datas = [side_data(r) for r in refs]
    order = [d["section"] for d in datas]
    if order not in (["A1", "A2", "A3"], ["A1", "A3"]):
        raise ValueError(f"a board is sections A1, A2, A3 (or A1, A3 for the short game), not {', '.join(order)}")
    spaces: dict[str, Space] = {}
    n = len(datas)
    for k, d in enumerate(datas):
        offset = (n - 1 - k) * HEIGHT  # A3 at the top, A1 at the bottom
        for sp in d["spaces"]:
            sid = f"{d['section']}.{sp['id']}"
            spaces[sid] = Space(
                id=sid,
                kind=sp["kind"],
                name=str(sp.get("name", sp["id"])),
                section=d["section"],
                x=float(sp["x"]),
                y=float(sp["y"]) + offset,
            )
    roads: list[Road] = []
    for k, d in enumerate(datas):
        nxt = datas[k + 1] if k + 1 < n else None
        for road in d.get("roads", []):
            end = road["to"]
            if end.startswith("lane:"):
                assert nxt is not None
                end_id = f"{nxt['section']}.{nxt['lanes'][end.removeprefix('lane:')]}"
            else:
                end_id = f"{d['section']}.{end}"
            roads.append(
                Road(
                    number=len(roads) + 1,
                    start=f"{d['section']}.{road['from']}",
                    end=end_id,
                    cost=tuple(sorted(RESOURCES.index(c) for c in road["cost"])),
                    section=d["section"],
                )
            )
    names = tuple(f"{d['section']}-{d['side']}" for d in datas)
    return Board(
        sides=names,
        titles=tuple(str(d.get("title", "")) for d in datas),
        spaces=spaces,
        roads=tuple(roads),
        custom=any(isinstance(r, dict) for r in refs),
    )
