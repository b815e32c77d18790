// Splendor Kids: the board (the server's SVG picture, roads clickable), purses, City tiles, the Marketplace.
import { chip, el, keyed, LETTER, morph, on, travelsFrom } from "/static/common.js";
import { language, t } from "/static/i18n.js";
import { actionLabel, tokenName } from "/static/words.js";

const named = (colour) => ({ title: tokenName("kids", colour) });

// The board's picture after each action, fetched once: the table is drawn from the cache at once (so an update
// never replaces the board with a placeholder under the pointer), and drawn again when a new picture arrives.
const svgCache = { key: null, text: "", loading: null };

function boardSvg(c) {
  const key = `${c.gameId}:${c.state.payload.actions}`;
  if (svgCache.key === key) return svgCache.text;
  if (svgCache.loading !== key) {
    svgCache.loading = key;
    fetch(`/api/games/${c.gameId}/board.svg?lang=${language}`).then((r) => r.text()).then((text) => {
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
  if (text === null) { box.append(t("loading the board…")); return box; }
  box.innerHTML = text;
  const roads = movesByRoad(c);
  for (const node of box.querySelectorAll(".road")) {
    const n = node.getAttribute("data-road");
    node.setAttribute("data-key", `road:${n}`);
    if (roads[n] && c.view.decision === "action") {
      node.classList.add("can-pay");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", t("road {road}: move", { road: n }));
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
  const names = Object.fromEntries(c.view.board.spaces.map((s) => [s.id, t(s.name)]));
  const out = c.view.board.roads.filter((r) => here && r.from === here.space);
  const rows = out.map((r) => el("div", { class: "row", "data-road": r.number },
    el("strong", {}, t("Road {road} → {place}:", { road: r.number, place: names[r.to] })),
    ...r.cost.map((col) => chip(col, null, named(col))),
    roads[r.number] ? el("button", { "data-key": `road-move:${r.number}`, onclick: () => {
      c.state.road = String(r.number); c.state.focusNext = "#payments button"; c.render(); } }, t("move"))
      : el("span", {}, " ", t("(you cannot pay it yet)"))));
  const parts = [el("h2", {}, t("Roads from here")), ...rows];
  if (c.state.road && roads[c.state.road]) {
    const pays = roads[c.state.road];
    parts.push(el("div", { class: "prompt panel", id: "payments" }, el("strong", {},
      t("Pay road {road}:", { road: c.state.road })), ...pays.map((a) => el("button", { class: "primary",
      "data-action": a, "data-key": `act:${a}`, "data-sends": a, onclick: () => { c.state.road = null; c.send(a); } },
      actionLabel("kids", a, c.seatName))),
    el("button", { "data-key": "cancel-road", onclick: () => { c.state.road = null; c.render(); } }, t("Cancel"))));
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
    const node = chip(colour, n, { title: tokenName("kids", colour), onclick: can ? () => pick(colour) : null,
      button: true });
    node.setAttribute("data-key", `supply:${colour}`);
    if (c.state.selection.includes(colour)) node.classList.add("selected");
    return el("span", { class: "named" }, node, el("span", { class: "caption" }, tokenName("kids", colour)));
  });
  const sel = c.state.selection;
  const current = "take " + sel.map((x) => LETTER[x]).join(" ");
  const extra = sel.length ? [el("button", { class: "primary", "data-key": "take", disabled: !c.legal.has(current),
    "data-sends": current, onclick: () => c.send(current) }, t("Take")), el("button", { "data-key": "clear",
    onclick: () => { c.state.selection = []; c.render(); } }, t("Clear"))] : [];
  const market = c.view.marketplace ? el("div", { class: "row" }, t("Marketplace:"),
    ...c.view.marketplace.map((tile) => tile ? chip(tile, null,
      { title: t("a {resource} City tile", { resource: tokenName("kids", tile) }) }) : el("span", {}, "—"))) : null;
  return el("section", { class: "panel", id: "supply" }, el("h2", {}, choosing ? t("Supply — pick resources to take")
    : t("Supply")), el("div", { class: "row" }, ...chips, ...extra),
    el("div", {}, t("City tile stack: {left}", { left: c.view.city_stack })), market);
}

function travelers(c) {
  const names = Object.fromEntries(c.view.board.spaces.map((s) => [s.id, t(s.name)]));
  return el("section", { class: "seats" }, ...c.view.seats.map((s) => el("div", {
    class: `panel seat${s.seat === c.view.turn_of ? " turn" : ""}`, "data-seat": s.seat, "data-key": `seat:${s.seat}` },
    el("h2", {}, el("span", { class: `pawn-mark pawn-${s.seat}`, "aria-hidden": "true" }, s.seat + 1), " ",
      `${c.seatName(s.seat)} — ${names[s.space]}`),
    el("div", { class: "row" }, t("purse {held}/8", { held: s.purse_total }), " ",
      ...Object.entries(s.tokens).filter(([, n]) => n).map(([col, n]) =>
        travelsFrom(keyed(chip(col, n, named(col)), `seat:${s.seat}:token:${col}`), `supply:${col}`)),
      s.treasure ? chip("treasure", s.treasure, named("treasure")) : null),
    el("div", { class: "row" }, t("City tiles"), " ", ...s.city_tiles.map((tile) => {
      const resource = tokenName("kids", tile.colour);
      const node = chip(tile.colour, null, { title: tile.active ? t("{resource} City tile, active", { resource })
        : t("{resource} City tile, used", { resource }) });
      if (!tile.active) { node.style.opacity = ".45"; node.append(" ", t("used")); }
      return node;
    })),
    s.medal ? el("div", {}, t("Queen's Medal {medal}", { medal: s.medal })) : null,
    s.queens_gem ? el("div", {}, t("holds the Queen's Gem")) : null)));
}

export function renderKids(root, c) {
  const parts = [el("p", { class: "small" }, t(c.view.board.credit))];
  if (c.mine && c.view.decision === "action") parts.push(roadChoices(c));
  parts.push(supply(c), board(c), travelers(c));
  morph(root, parts, c.moved);
}

export function kidsPrompt(c) {
  const decision = c.view.decision;
  if (!c.mine || decision === "action") return [];
  const title = { return: t("Your purse holds more than 8: choose a token to return."),
    drought: t("Drought! Discard down to 5 tokens."),
    thief: t("The Kind-Hearted Thief: give one token to another traveler."),
    city: t("You reached a city: take a City tile."),
    medal: t("You reached the Palace: choose a Queen's Medal.") }[decision]
    || t("Choose ({decision}).", { decision });
  const buttons = c.view.legal_actions.map((a) => el("button", { class: "primary", "data-action": a,
    "data-key": `act:${a}`, "data-sends": a, onclick: () => c.send(a) }, actionLabel("kids", a, c.seatName)));
  return [el("section", { class: "panel prompt", id: "decision" }, el("h2", {}, title), el("div", { class: "row" }, ...buttons))];
}
