// Splendor Kids: the board (the server's SVG picture, roads clickable), purses, City tiles, the Marketplace.
import { chip, el, KIDS_WORD, LETTER, morph, on } from "/static/common.js";
import { describe } from "/static/words.js";

// The board's picture after each action, fetched once: the table is drawn from the cache at once (so an update
// never replaces the board with a placeholder under the pointer), and drawn again when a new picture arrives.
const svgCache = { key: null, text: "", loading: null };

function boardSvg(c) {
  const key = `${c.gameId}:${c.state.payload.actions}`;
  if (svgCache.key === key) return svgCache.text;
  if (svgCache.loading !== key) {
    svgCache.loading = key;
    fetch(`/api/games/${c.gameId}/board.svg`).then((r) => r.text()).then((text) => {
      if (svgCache.loading !== key) return;
      Object.assign(svgCache, { key, text, loading: null });
      c.render();
    }).catch(() => { svgCache.loading = null; });
  }
  return svgCache.text || null;
}

function movesByRoad(c) {
  const roads = {};
  for (const a of c.legal) {
    if (a.startsWith("move ")) { const n = a.split(" ")[1]; (roads[n] = roads[n] || []).push(a); }
  }
  return roads;
}

function board(c) {
  const box = el("section", { class: "panel board", id: "board" });
  const text = boardSvg(c);
  if (text === null) { box.append("loading the board…"); return box; }
  box.innerHTML = text;
  const roads = movesByRoad(c);
  for (const node of box.querySelectorAll(".road")) {
    const n = node.getAttribute("data-road");
    node.setAttribute("data-key", `road:${n}`);
    if (roads[n] && c.view.decision === "action") {
      node.classList.add("can-pay");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", `road ${n}: move`);
      const open = () => { c.state.road = n; c.state.focusNext = "#payments button"; c.render(); };
      on(node, "click", open);
      on(node, "keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(); } });
    }
  }
  return box;
}

function roadChoices(c) {
  const roads = movesByRoad(c);
  const here = c.view.seats[c.me ?? 0];
  const names = Object.fromEntries(c.view.board.spaces.map((s) => [s.id, s.name]));
  const out = c.view.board.roads.filter((r) => here && r.from === here.space);
  const rows = out.map((r) => el("div", { class: "row", "data-road": r.number },
    el("strong", {}, `Road ${r.number} → ${names[r.to]}:`), ...r.cost.map((col) => chip(col, null, { title: KIDS_WORD[col] })),
    roads[r.number] ? el("button", { "data-key": `road-move:${r.number}`, onclick: () => {
      c.state.road = String(r.number); c.state.focusNext = "#payments button"; c.render(); } }, "move")
      : el("span", {}, " (you cannot pay it yet)")));
  const parts = [el("h2", {}, "Roads from here"), ...rows];
  if (c.state.road && roads[c.state.road]) {
    const pays = roads[c.state.road];
    parts.push(el("div", { class: "prompt panel", id: "payments" }, el("strong", {},
      `Pay road ${c.state.road}:`), ...pays.map((a) => el("button", { class: "primary", "data-action": a,
      "data-key": `act:${a}`, "data-sends": a, onclick: () => { c.state.road = null; c.send(a); } },
      describe("kids", a).replace(/^moves along road \d+, /, ""))),
    el("button", { "data-key": "cancel-road", onclick: () => { c.state.road = null; c.render(); } }, "Cancel")));
  }
  return el("section", { class: "panel", id: "roads" }, ...parts);
}

function supply(c) {
  const takes = [...c.legal].filter((a) => a.startsWith("take "));
  const choosing = c.view.decision === "action" && takes.length;
  const order = Object.keys(c.view.supply);
  const pick = (colour) => {
    if (colour === "gold") { c.send("take y"); return; }
    const sel = [...c.state.selection, colour].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const text = "take " + sel.map((x) => LETTER[x]).join(" ");
    const longer = takes.some((t) => t.split(" ").length > sel.length + 1 && sel.every((x) => t.includes(` ${LETTER[x]}`)));
    if (takes.includes(text) && !longer) { c.state.selection = []; c.send(text); return; }
    c.state.selection = sel;
    c.render();
  };
  const chips = Object.entries(c.view.supply).map(([colour, n]) => {
    const can = choosing && takes.some((t) => t.split(" ").includes(LETTER[colour]));
    const node = chip(colour, n, { title: KIDS_WORD[colour], onclick: can ? () => pick(colour) : null, button: true });
    node.setAttribute("data-key", `supply:${colour}`);
    if (c.state.selection.includes(colour)) node.classList.add("selected");
    return el("span", { class: "named" }, node, el("span", { class: "caption" }, KIDS_WORD[colour]));
  });
  const sel = c.state.selection;
  const current = "take " + sel.map((x) => LETTER[x]).join(" ");
  const extra = sel.length ? [el("button", { class: "primary", "data-key": "take", disabled: !c.legal.has(current),
    "data-sends": current, onclick: () => c.send(current) }, "Take"), el("button", { "data-key": "clear",
    onclick: () => { c.state.selection = []; c.render(); } }, "Clear")] : [];
  const market = c.view.marketplace ? el("div", { class: "row" }, "Marketplace:",
    ...c.view.marketplace.map((t) => t ? chip(t, null, { title: `${KIDS_WORD[t]} City tile` }) : el("span", {}, "—"))) : null;
  return el("section", { class: "panel", id: "supply" }, el("h2", {}, choosing ? "Supply — pick resources to take"
    : "Supply"), el("div", { class: "row" }, ...chips, ...extra),
    el("div", {}, `City tile stack: ${c.view.city_stack}`), market);
}

function travelers(c) {
  const names = Object.fromEntries(c.view.board.spaces.map((s) => [s.id, s.name]));
  return el("section", { class: "seats" }, ...c.view.seats.map((s) => el("div", {
    class: `panel seat${s.seat === c.view.turn_of ? " turn" : ""}`, "data-seat": s.seat, "data-key": `seat:${s.seat}` },
    el("h2", {}, el("span", { class: `pawn-mark pawn-${s.seat}`, "aria-hidden": "true" }, s.seat + 1), " ",
      `${c.seatName(s.seat)} — ${names[s.space]}`),
    el("div", { class: "row" }, `purse ${s.purse_total}/8 `, ...Object.entries(s.tokens).filter(([, n]) => n)
      .map(([col, n]) => chip(col, n, { title: KIDS_WORD[col] })), s.treasure ? chip("treasure", s.treasure) : null),
    el("div", { class: "row" }, "City tiles ", ...s.city_tiles.map((t) => {
      const node = chip(t.colour, null, { title: `${KIDS_WORD[t.colour]} tile, ${t.active ? "active" : "used"}` });
      if (!t.active) { node.style.opacity = ".45"; node.append(" used"); }
      return node;
    })),
    s.medal ? el("div", {}, `Queen's Medal ${s.medal}`) : null,
    s.queens_gem ? el("div", {}, "holds the Queen's Gem") : null)));
}

export function renderKids(root, c) {
  const parts = [el("p", { class: "small" }, c.view.board.credit)];
  if (c.mine && c.view.decision === "action") parts.push(roadChoices(c));
  parts.push(supply(c), board(c), travelers(c));
  morph(root, parts, c.moved);
}

export function kidsPrompt(c) {
  const decision = c.view.decision;
  if (!c.mine || decision === "action") return [];
  const title = { return: "Your purse holds more than 8: choose a token to return.",
    drought: "Drought! Discard down to 5 tokens.", thief: "The Kind-Hearted Thief: give one token to another traveler.",
    city: "You reached a city: take a City tile.", medal: "You reached the Palace: choose a Queen's Medal." }[decision]
    || `Choose (${decision}).`;
  const buttons = c.view.legal_actions.map((a) => el("button", { class: "primary", "data-action": a,
    "data-key": `act:${a}`, "data-sends": a, onclick: () => c.send(a) },
    describe("kids", a, null, c.seatName).replace(/^\w/, (x) => x.toUpperCase())));
  return [el("section", { class: "panel prompt", id: "decision" }, el("h2", {}, title), el("div", { class: "row" }, ...buttons))];
}
