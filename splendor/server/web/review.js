// The expert's review of a finished game, in its replay: asked of the server once (it runs in the bot workers and
// is kept), then drawn as each seat's win chance move by move (an SVG line a seat, in its colour), with the moves
// where a player's chance fell most marked as inaccuracy, mistake or blunder, on the graph and in a list. Choosing
// a marked move steps the replay to the position before it and marks on the table the move played and the
// expert's preferred move. The list is the graph's text: every mark, with the chances, in words.
import { el, emblem, morph, on, SEAT_COLOUR, wholePercent } from "/static/common.js";
import { language, N_, t } from "/static/i18n.js";
import { advice, cardInSight, describe } from "/static/words.js";

const MARK_WORDS = { inaccuracy: N_("inaccuracy"), mistake: N_("mistake"), blunder: N_("blunder") };
// Each mark's sign (the chess annotator's) and its shape on the graph: three shapes, told apart without colour.
const MARK_SIGN = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const DASHES = ["", "7 4", "2 3", "9 3 2 3"];          // each seat's line, told apart without colour too
const POLL_MS = 1500;
const PAD = { left: 46, right: 10, top: 10, bottom: 22 };

// page: { gameId, go(upto), seatName(seat), game(), view(), upto(), render() }
let page = null;
const review = { status: "idle", data: null, progress: null, error: null, chosen: null, timer: null };

export function setupReview(p) {
  page = p;
  const asked = new URLSearchParams(location.search).has("review");
  look(asked);
}

// The marks of the chosen move on the table, while the replay stands just before it: the move played (in its
// seat's colour) and the expert's preferred move (the hint's mark). [{ action, seat, cls }]
export function reviewMarks(upto) {
  const m = review.chosen;
  if (!m || upto !== m.number - 1) return [];
  const marks = [{ action: m.played, seat: m.seat, cls: "review-played" }];
  if (m.best !== m.played) marks.push({ action: m.best, seat: m.seat, cls: "hinted" });
  return marks;
}

async function call(method) {
  const response = await fetch(`/api/games/${page.gameId}/review`, { method,
    headers: { "content-type": "application/json", "accept-language": language } });
  let body = null;
  try { body = await response.json(); } catch (e) { /* not JSON */ }
  return { status: response.status, body };
}

// What the server has: a kept review (drawn), one running (polled), or none (a button to ask; asked at once when
// the page was opened to review).
async function look(ask = false) {
  clearTimeout(review.timer);
  try {
    const { status, body } = await call(ask ? "POST" : "GET");
    if (status === 200) Object.assign(review, { status: "done", data: body, error: null });
    else if (status === 202) {
      Object.assign(review, { status: "running", progress: body, error: null });
      review.timer = setTimeout(() => look(false), POLL_MS);
    } else if (status === 204) {
      // None kept or running; after a running one, gone without a review kept: it failed (or its process stopped).
      review.error = review.status === "running" ? t("The review could not be finished. Try again.") : null;
      review.status = "idle";
    } else {
      const detail = (body && body.detail) || t("The review could not be asked for.");
      Object.assign(review, { status: "idle", error: detail });
    }
  } catch (e) {
    Object.assign(review, { status: "idle", error: t("The review could not be asked for.") });
  }
  draw();
}

// A mark chosen: the replay steps to just before its move, and the table's marks of it (the move played, the
// expert's) come into view: the review's panel above had pushed them under the screen's edge.
function choose(m) {
  review.chosen = m;
  Promise.resolve(page.go(m.number - 1)).then(() => {
    const dock = document.getElementById("dock");    // a phone's dock is fixed over the page's foot
    const fixed = getComputedStyle(dock).position === "fixed";
    const foot = fixed ? dock.getBoundingClientRect().top : innerHeight;
    const away = [...document.querySelectorAll(".review-played, .hinted")].filter((node) => {
      const r = node.getBoundingClientRect(); return r.bottom > foot || r.top < 0; });
    if (!away.length) return;
    // a wide screen: the table's top to the screen's, both marks in sight; a phone (one column, the seats under the
    // market): the move played, where it was made (its first mark: the card, the tokens), to the middle of what the
    // dock leaves. Scrolling to the first mark out of sight could take that one out of sight in turn (a buy's card
    // at the top, the buyer's stack far below).
    if (fixed) (document.querySelector(".review-played") || away[0]).scrollIntoView({ block: "center" });
    else document.getElementById("tabletop").scrollIntoView({ block: "start" });
  });
  draw();
}

function percent(x) { return x === null || x === undefined ? "?" : `${wholePercent(x)}%`; }

function moveWords(action, seat, details = null) { return describe(page.game(), action, details, page.seatName, seat); }

// The expert's preferred move as advice to the mover ("Take red, blue and green"): said as "bob takes…", it read
// as if the seat were the expert. With the card it takes when the table shows it.
function bestWords(m, details = null) { return advice(page.game(), m.best, page.seatName, details); }

// Which move the review has chosen, while the replay stands just before it (null otherwise): the table says
// "before move N" then, not the action that led there.
export function chosenAt(upto) {
  const m = review.chosen;
  return m && upto === m.number - 1 ? m : null;
}

function markLabel(m) {
  // two chances of one search, the move played's and the expert's move's: not a before and an after (the next
  // move's chances are another player's, from another view)
  const words = N_("Move {number}, {player}: {mark}. Played: {played} (chance {after}). The expert: {best} (chance {best_chance}).");
  return t(words, {
    number: m.number, player: page.seatName(m.seat), mark: t(MARK_WORDS[m.mark]),
    played: moveWords(m.played, m.seat, named(m.played_card)), after: percent(m.chance_after),
    best: bestWords(m, named(m.best_card)), best_chance: percent(m.chance_before) });
}

// The card a reviewed move takes, as the review names it (a review written before it did names none).
function named(card) {
  return card ? { card } : null;
}

function shape(mark, x, y) {
  const attrs = { class: `mark-shape mark-${mark}`, "data-mark": mark };
  if (mark === "inaccuracy") return svg("circle", { ...attrs, cx: x, cy: y, r: 5 });
  if (mark === "mistake") return svg("rect", { ...attrs, x: x - 5, y: y - 5, width: 10, height: 10 });
  return svg("path", { ...attrs, d: `M${x} ${y - 7}L${x + 7} ${y + 5}L${x - 7} ${y + 5}Z` });
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c.nodeType ? c : document.createTextNode(String(c)));
  return node;
}

// The graph: x the moves (0 the start), y each seat's chance; the 50% line; the marks on the mover's line; the
// replay's position as a vertical line. A click steps the replay to the nearest move.
function graph(data) {
  // drawn at about its size on the screen, so that its words stay legible: wide on a desk, narrow on a phone
  const W = window.matchMedia("(max-width: 600px)").matches ? 380 : 900;
  const H = 220;
  const lines = data.graph;
  const n = Math.max(1, lines[0].length - 1);
  const x = (i) => PAD.left + (i / n) * (W - PAD.left - PAD.right);
  const y = (c) => PAD.top + (1 - c) * (H - PAD.top - PAD.bottom);
  const summary = lines.map((line, s) => t("{player}: {start} at the start, {end} at the end", {
    player: page.seatName(s), start: percent(line[0]), end: percent(line[line.length - 1]) })).join("; ");
  const parts = [svg("title", { id: "review-graph-title" }, t("Each player's win chance, move by move")),
    svg("desc", { id: "review-graph-desc" }, [summary, t("The marked moves are listed with the graph.")].join(". "))];
  for (const c of [0, 0.5, 1]) {
    const grid = { class: c === 0.5 ? "grid half" : "grid", x1: PAD.left, x2: W - PAD.right, y1: y(c), y2: y(c) };
    parts.push(svg("line", grid),
      svg("text", { class: "axis", x: PAD.left - 4, y: y(c) + 4, "text-anchor": "end" }, `${c * 100}%`));
  }
  parts.push(svg("text", { class: "axis", x: W - PAD.right, y: H - 4, "text-anchor": "end" },
    t("move {number}", { number: n })));
  const upto = page.upto();
  parts.push(svg("line", { class: "now", x1: x(upto), x2: x(upto), y1: PAD.top, y2: H - PAD.bottom }));
  lines.forEach((line, s) => {
    const points = line.map((c, i) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`).join(" ");
    parts.push(svg("polyline", { class: "halo", points }));
    parts.push(svg("polyline", { class: "seat-line", "data-seat": s, points, stroke: SEAT_COLOUR[s],
      "stroke-dasharray": DASHES[s] }));
  });
  for (const m of data.moves.filter((mv) => mv.mark)) {
    const node = shape(m.mark, x(m.number), y(lines[m.seat][m.number]));
    node.setAttribute("data-number", m.number);
    node.style.setProperty("--mover", SEAT_COLOUR[m.seat]);
    if (review.chosen && review.chosen.number === m.number) node.classList.add("chosen");
    on(node, "click", (event) => { event.stopPropagation(); choose(m); });
    parts.push(node);
  }
  const picture = svg("svg", { id: "review-graph", class: "review-graph", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-labelledby": "review-graph-title review-graph-desc", "data-points": JSON.stringify(lines) }, ...parts);
  on(picture, "click", (event) => {
    const box = picture.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * W;
    page.go(Math.max(0, Math.min(n, Math.round(((at - PAD.left) / (W - PAD.left - PAD.right)) * n))));
  });
  return picture;
}

function legend(data) {
  return el("ul", { class: "review-legend" }, data.graph.map((_, s) => el("li", {},
    svg("svg", { class: "legend-line", viewBox: "0 0 28 8", "aria-hidden": "true" },
      svg("line", { x1: 0, x2: 28, y1: 4, y2: 4, stroke: SEAT_COLOUR[s], "stroke-width": 3,
        "stroke-dasharray": DASHES[s] })),
    emblem(s), " ", page.seatName(s))));
}

function markList(data) {
  const marked = data.moves.filter((m) => m.mark);
  if (!marked.length) return el("p", { class: "note", id: "review-marks" }, t("No move lost much: no marks."));
  return el("ol", { class: "review-marks", id: "review-marks" }, marked.map((m) => el("li", {},
    el("button", { type: "button", class: `review-mark mark-${m.mark}`, "data-number": m.number, "data-mark": m.mark,
      "aria-pressed": review.chosen && review.chosen.number === m.number ? "true" : "false",
      onclick: () => choose(m) },
    el("span", { class: `mark-sign mark-${m.mark}`, "aria-hidden": "true" }, MARK_SIGN[m.mark]), " ",
    emblem(m.seat), " ", markLabel(m)))));
}

function chosenWords() {
  const m = review.chosen;
  if (!m || page.upto() !== m.number - 1) return null;
  return el("div", { class: "review-chosen", id: "review-chosen", role: "status" },
    el("p", {}, el("span", { class: "swatch played", "aria-hidden": "true",
      style: `border-color: ${SEAT_COLOUR[m.seat]}` }), " ",
    t("Played: {move} — chance after it: {chance}", { move: moveWords(m.played, m.seat, cardInSight(page.view(), m.seat, m.played)),
      chance: percent(m.chance_after) })),
    el("p", {}, el("span", { class: "swatch best", "aria-hidden": "true" }), " ",
      t("The expert prefers: {move} — chance: {chance}", { move: bestWords(m, cardInSight(page.view(), m.seat, m.best)),
        chance: percent(m.chance_before) })));
}

function summary(data) {
  const rows = data.summary.map((r) => el("tr", {},
    el("th", { scope: "row" }, emblem(r.seat), " ", page.seatName(r.seat)),
    el("td", {}, r.inaccuracy), el("td", {}, r.mistake), el("td", {}, r.blunder)));
  return el("table", { class: "list review-summary" }, el("thead", {}, el("tr", {}, el("th", {}, t("player")),
    el("th", { title: t("inaccuracy") }, "?!"), el("th", { title: t("mistake") }, "?"),
    el("th", { title: t("blunder") }, "??"))),
  el("tbody", {}, rows));
}

export function draw() {
  const box = document.getElementById("review");
  if (!box || !page || !page.game()) return;            // drawn once the replay has its first position
  box.hidden = false;
  const items = [el("h2", { id: "review-title" }, t("The expert's review"))];
  if (review.status === "done") {
    const data = review.data;
    items.push(el("p", { class: "note" }, t(
      "Each move judged from the mover's view only (no peeking at hidden cards): a chance is the mover's own estimate, so two players' chances of one moment need not add up. Marked: a fall of the mover's win chance of {inaccuracy} points (inaccuracy ?!), {mistake} (mistake ?), {blunder} (blunder ??).", {
      inaccuracy: wholePercent(data.thresholds.inaccuracy), mistake: wholePercent(data.thresholds.mistake),
      blunder: wholePercent(data.thresholds.blunder) })));
    items.push(el("div", { class: "review-body" }, el("div", { class: "review-figure" }, graph(data), legend(data)),
      el("div", { class: "review-side" }, chosenWords(), markList(data), summary(data))));
  } else if (review.status === "running") {
    const p = review.progress || { done: 0, total: 0 };
    items.push(el("p", { role: "status", id: "review-progress" },
      t("The expert is reviewing… {done} of {total} moves", p)),
      el("progress", { max: Math.max(1, p.total), value: p.done, "aria-label": t("The expert's review") }));
  } else {
    if (review.error) items.push(el("p", { class: "error", role: "alert" }, review.error));
    items.push(el("button", { type: "button", id: "review-start", class: "primary", onclick: () => look(true) },
      t("Review with the expert")));
  }
  morph(box, items.filter(Boolean));
  document.body.dataset.review = review.status;
}
