// Cards, nobles and each seat's bought cards drawn as the project's own SVG pictures (no published art): large
// points, the bonus as its gem with its letter, costs as round pips, the tier's (level's) colour, a Pokémon's
// name and evolution. The pictures are decoration (aria-hidden): each one's words are given beside it.
import { tokenMark } from "/static/common.js";
import { t } from "/static/i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const FILL = { white: "#fafafa", blue: "#2b6cb0", green: "#2f855a", red: "#c53030", black: "#1a1a1a",
  gold: "#ecc94b", yellow: "#ecc94b", pink: "#ed64a6", master: "#6b46c1", brown: "#8b5a2b", treasure: "#f6e05e" };
const INK = { white: "#222", gold: "#222", yellow: "#222", pink: "#222", treasure: "#222" };
const TIER = { 1: "#dcefe2", 2: "#fbeccb", 3: "#dbe6f8", rare: "#e9dcfa", legendary: "#fbdede" };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c.nodeType ? c : document.createTextNode(String(c)));
  return node;
}

function picture(width, height, ...children) {
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "picture", "aria-hidden": "true",
    focusable: "false" }, ...children);
}

// Each colour's shape, the one its symbol shows (◇ ● ▲ ♦ ■ ★ …), so that no colour is told by colour alone.
const SHAPE = { white: "diamond", blue: "circle", green: "triangle", red: "diamond", black: "square", gold: "star",
  yellow: "star4", pink: "heart", master: "pentagon", brown: "hexagon", treasure: "pentagon" };

function points(list) { return list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "); }

function ring(cx, cy, n, outer, inner, turn = -Math.PI / 2) {
  const out = [];
  for (let i = 0; i < n * 2; i++) {
    const r = i % 2 ? inner : outer;
    const a = turn + (i * Math.PI) / n;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

// A gem of ``colour``, of radius about r, centred on (cx, cy); in its colour, unless ``paint`` says otherwise.
export function gemShape(colour, cx, cy, r, paint = { fill: FILL[colour] || "#999", stroke: "#333",
  "stroke-width": 1.2, "stroke-linejoin": "round" }) {
  switch (SHAPE[colour]) {
    case "square": return svg("rect", { x: cx - r * 0.88, y: cy - r * 0.88, width: r * 1.76, height: r * 1.76, rx: 2,
      ...paint });
    case "diamond": return svg("polygon", { points: points([[cx, cy - r * 1.12], [cx + r * 1.12, cy],
      [cx, cy + r * 1.12], [cx - r * 1.12, cy]]), ...paint });
    case "triangle": return svg("polygon", { points: points([[cx, cy - r * 1.2], [cx + r * 1.2, cy + r * 0.85],
      [cx - r * 1.2, cy + r * 0.85]]), ...paint });
    case "hexagon": return svg("polygon", { points: points(ring(cx, cy, 3, r * 1.08, r * 1.08, 0)), ...paint });
    case "pentagon": return svg("polygon", { points: points(ring(cx, cy, 5, r * 1.12, r * 1.12 * Math.cos(Math.PI / 5))),
      ...paint });
    case "star": return svg("polygon", { points: points(ring(cx, cy, 5, r * 1.25, r * 0.62)), ...paint });
    case "star4": return svg("polygon", { points: points(ring(cx, cy, 4, r * 1.2, r * 0.55)), ...paint });
    case "heart": return svg("path", { d: `M${cx},${cy + r} C${cx - r * 1.6},${cy - r * 0.1} ${cx - r * 0.7},`
      + `${cy - r * 1.3} ${cx},${cy - r * 0.45} C${cx + r * 0.7},${cy - r * 1.3} ${cx + r * 1.6},${cy - r * 0.1} `
      + `${cx},${cy + r}Z`, ...paint });
    default: return svg("circle", { cx, cy, r, ...paint });
  }
}

// A cost pip: the colour's gem with its count in it (large enough to read on a phone's card).
function pip(colour, n, cx, cy, r = 9) {
  const ink = INK[colour] || "#fff";
  const low = SHAPE[colour] === "triangle" ? r * 0.3 : 0;
  return svg("g", {}, gemShape(colour, cx, cy, r),
    svg("text", { x: cx, y: cy + r * 0.45 + low, "text-anchor": "middle", "font-size": r * 1.3, "font-weight": 800,
      fill: ink }, n));
}

// The bonus a card gives: its gem in its colour with its mark (the symbol; in English the letter too), "×2" for a
// double bonus.
function gem(colour, count, cx, cy) {
  const parts = [gemShape(colour, cx, cy, 11),
    svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
      fill: INK[colour] || "#fff" }, tokenMark(colour))];
  if (count > 1) {
    parts.push(svg("text", { x: cx - 15, y: cy + 4, "text-anchor": "end", "font-size": 11, "font-weight": 800 },
      `×${count}`));
  }
  return svg("g", {}, ...parts);
}

// Costs along the bottom, four to a row (a fifth, the Master Ball of a rare card, above), each wholly inside the
// card: the Quick Ball's star reaches 1.2 radii from its middle (at 13 it poked past the card's left edge).
function costPips(cost, y) {
  return Object.entries(cost || {}).filter(([, n]) => n)
    .map(([colour, n], i) => pip(colour, n, 14.5 + (i % 4) * 23.7, y - Math.floor(i / 4) * 25, 10.5));
}

// A face-up card: 100 × 120 units, drawn at the width of its place.
export function cardPicture(game, card) {
  const tier = TIER[card.tier] || "#eee";
  const parts = [svg("rect", { x: 0, y: 0, width: 100, height: 120, rx: 8, fill: tier }),
    svg("rect", { x: 0, y: 0, width: 100, height: 30, rx: 8, fill: "#fff", "fill-opacity": 0.55 }),
    gem(card.bonus, card.bonus_count || 1, 84, 15)];
  if (game !== "pokemon") {                          // the card's gem, large and faint, as the printed cards show it
    const art = gemShape(card.bonus, 50, 64, 22);
    art.setAttribute("fill-opacity", "0.22");
    art.setAttribute("stroke-opacity", "0.3");
    parts.push(art);
  }
  if (card.points) {
    parts.push(svg("text", { x: 6, y: 24, "font-size": 22, "font-weight": 800, fill: "#222" }, card.points));
  }
  if (game === "pokemon") {
    const name = svg("text", { x: 5, y: 57, "font-size": 11, "font-weight": 700, fill: "#222" }, t(card.name));
    if (t(card.name).length > 11) {                    // a long name is squeezed to the card's width
      name.setAttribute("textLength", 90);
      name.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    if (card.dex) parts.push(svg("text", { x: 5, y: 44, "font-size": 9, fill: "#555" }, `#${card.dex}`));
    parts.push(name);
    if (card.evolves_to) {
      const [[colour, n]] = Object.entries(card.evolve);
      parts.push(svg("text", { x: 5, y: 74, "font-size": 9, fill: "#553c9a" }, `→ ${t(card.evolves_to)}`),
        pip(colour, n, 88, 71, 9));
    }
  }
  parts.push(...costPips(card.cost, 107));
  return picture(100, 120, ...parts);
}

// A face-down card: the back of its tier's deck.
export function cardBack(game, tierLabel) {
  return picture(100, 120, svg("rect", { x: 0, y: 0, width: 100, height: 120, rx: 8, fill: TIER[tierLabel] || "#ddd",
    stroke: "#9c8b63", "stroke-dasharray": "4 3" }), svg("text", { x: 50, y: 68, "text-anchor": "middle",
    "font-size": 26, "font-weight": 800, fill: "#7a6f57" }, tierLabel));
}

// A noble's tile: its points at the top left and, as large pips, the bonuses it asks for in the rest of the square
// (along the foot, the third at the top right): pips in a column at the edge had left its numbers 7 px tall.
const NOBLE_PIPS = [[[43, 43]], [[17, 43], [43, 43]], [[43, 17], [17, 43], [43, 43]]];
export function noblePicture(noble) {
  const asks = Object.entries(noble.requires).filter(([, n]) => n);
  const places = NOBLE_PIPS[asks.length - 1] || asks.map((_, i) => [49, 8 + i * 14]);  // (no noble asks for four)
  const r = asks.length <= 3 ? 12.5 : 7;
  return picture(60, 60, svg("rect", { x: 0, y: 0, width: 60, height: 60, rx: 6, fill: "#f3e6c8", stroke: "#9c8b63" }),
    svg("text", { x: 6, y: 20, "font-size": 16, "font-weight": 800, fill: "#222" }, noble.points),
    ...asks.map(([colour, n], i) => pip(colour, n, places[i][0], places[i][1], r)));
}

// A seat's bought cards of one colour, stacked: as many edges as cards (up to `deepest` drawn), the top card
// showing the colour's gem shape and the count, large enough to read across the table.
export function stackPicture(colour, count, deepest = 6) {
  const shown = Math.min(count, deepest);
  const edges = [];
  for (let i = shown - 1; i >= 0; i--) {
    edges.push(svg("rect", { x: 1.5, y: 1.5 + i * 3, width: 33, height: 27, rx: 4, fill: FILL[colour] || "#999",
      stroke: "#333", "stroke-width": 1.5 }));
  }
  // the top card: its gem's shape in the ink of its colour (so that no colour is told by colour alone), then the count
  const ink = INK[colour] || "#fff";
  const mark = colour === "white" ? { fill: "none", stroke: ink, "stroke-width": 1.8 } : { fill: ink, stroke: "none" };
  const gem = gemShape(colour, 9.5, 15, 4.6, mark);   // white's ◇ hollow beside red's ♦
  gem.setAttribute("class", "gem");
  return picture(36, 30 + (shown - 1) * 3, ...edges, gem,
    svg("text", { x: 24.5, y: 20.5, "text-anchor": "middle", "font-size": 16, "font-weight": 800, fill: ink }, count));
}
