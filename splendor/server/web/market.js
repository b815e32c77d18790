// Classic Splendor and Splendor: Pokémon: the market, nobles or rare and legendary rows, the supply, the seats.
import { chip, el, keyed, LETTER, morph } from "/static/common.js";
import { colourName, count, describe } from "/static/words.js";

const BUY = { classic: "buy", pokemon: "catch" };

function slotText(row, i) { return row === "rare" || row === "legendary" ? row : `${row}.${i + 1}`; }

function costChips(cost) {
  return el("span", { class: "cost" }, ...Object.entries(cost).filter(([, n]) => n).map(([c, n]) => chip(c, n)));
}

function cardFace(c, card, extra = {}) {
  if (!card) return el("div", { class: "card empty" }, "empty");
  if (card.hidden) return el("div", { class: "card" }, `face-down ${c.game === "pokemon" ? "level" : "tier"} ${card.tier}`);
  const face = [el("span", {}, el("span", { class: "pts" }, card.points ? `${card.points}★ ` : ""),
    chip(card.bonus, card.bonus_count > 1 ? `×${card.bonus_count}` : null, { title: `bonus ${card.bonus}` }))];
  if (c.game === "pokemon") {
    face.unshift(el("span", { class: "name" }, `#${card.id} ${card.name}`));
    if (card.evolves_to) {
      const [[colour, n]] = Object.entries(card.evolve);
      face.push(el("span", {}, `→ ${card.evolves_to}: `, chip(colour, n, { title: `evolves with ${n} ${colour}` })));
    }
  }
  face.push(costChips(card.cost));
  return face;
}

// A card in its place: always a "slot" (the card, and its menu of actions below it when open, above any
// neighbour), so opening or closing a menu, or any update, keeps the card's element where it was.
function cardButton(c, card, slot, where) {
  const buy = where === "reserved" ? `${BUY[c.game]} reserved ${slot}` : `${BUY[c.game]} ${slot}`;
  const reserve = where === "market" ? `reserve ${slot}` : null;
  const options = [[buy, c.game === "pokemon" ? "Catch" : "Buy"], [reserve, "Reserve"]]
    .filter(([a]) => a && c.legal.has(a));
  const menuKey = `${where}:${slot}`;
  const open = c.state.menu === menuKey;
  const key = card && !card.hidden ? `card:${card.id}` : `card:${where}:${slot}`;
  const target = c.view.decision === "evolve" && card && !card.hidden
    && Object.values(evolutions(c)).some((e) => e.target.id === card.id);
  const tier = card ? ` tier-${card.tier}` : "";
  const attrs = { class: `card${tier}${c.legal.has(buy) ? " affordable" : ""}${target ? " evolve-target" : ""}`,
    "data-slot": slot, "data-where": where, "data-key": key };
  const wrap = (...inner) => el("div", { class: "slot", "data-key": `slot:${menuKey}` }, ...inner);
  if (!card || card.hidden) return wrap(el("div", attrs, ...[].concat(cardFace(c, card))));
  if (!options.length) {           // a button still, so that it stays the same element when it becomes yours to act on
    return wrap(el("button", { ...attrs, type: "button", "aria-disabled": "true" }, ...cardFace(c, card)));
  }
  attrs.onclick = () => {
    c.state.menu = open ? null : menuKey;
    c.state.focusNext = open ? null : `[data-key="menu:${menuKey}"] button`;
    c.render();
  };
  attrs["aria-label"] = `${card.name || "card"} ${card.points} points; ${options.map((o) => o[1]).join(" or ")}`;
  attrs["aria-expanded"] = open ? "true" : "false";
  const node = el("button", attrs, ...cardFace(c, card));
  if (!open) return wrap(node);
  const close = () => { c.state.menu = null; c.state.focusNext = `[data-key="${key}"]`; c.render(); };
  return wrap(node, el("div", { class: "menu", "data-key": `menu:${menuKey}`, role: "group",
    onkeydown: (e) => { if (e.key === "Escape") close(); } },
    ...options.map(([action, label]) => el("button", { class: "primary", "data-key": `act:${action}`,
      "data-sends": action, onclick: () => { c.state.menu = null; c.send(action); } }, label)),
    el("button", { "data-key": `cancel:${menuKey}`, onclick: close }, "Cancel")));
}

function takeOptions(c) { return [...c.legal].filter((a) => a.startsWith("take ")); }

function pick(c, colour) {
  const order = Object.keys(c.view.supply);
  const sel = [...c.state.selection, colour].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const text = "take " + sel.map((x) => LETTER[x]).join(" ");
  const takes = takeOptions(c);
  const extendable = takes.some((t) => t !== text && t.startsWith("take ") && t.split(" ").length > sel.length + 1
    && sel.every((x) => t.split(" ").includes(LETTER[x])));
  if (takes.includes(text) && !extendable) { c.state.selection = []; c.send(text); return; }
  const possible = takes.some((t) => { const w = t.split(" ").slice(1); const left = [...w];
    return sel.every((x) => { const i = left.indexOf(LETTER[x]); if (i < 0) return false; left.splice(i, 1); return true; }); });
  c.state.selection = possible ? sel : [colour].filter(() => takes.some((t) => t.split(" ").includes(LETTER[colour])));
  c.render();
}

function supply(c) {
  const takes = takeOptions(c);
  const choosing = c.view.decision === "action" && takes.length;
  const wild = Object.keys(c.view.supply).pop();
  const chips = Object.entries(c.view.supply).map(([colour, n]) => {
    const can = choosing && colour !== wild && takes.some((t) => t.split(" ").includes(LETTER[colour]));
    const node = chip(colour, n, { title: `${colourName(c.game, LETTER[colour])} (${colour})`,
      onclick: can ? () => pick(c, colour) : null, button: true });
    node.setAttribute("data-key", `supply:${colour}`);
    if (c.state.selection.includes(colour)) node.classList.add("selected");
    return el("span", { class: "named" }, node, el("span", { class: "caption" }, colourName(c.game, LETTER[colour])));
  });
  const sel = c.state.selection;
  const current = "take " + sel.map((x) => LETTER[x]).join(" ");
  const extra = sel.length ? [el("span", {}, `chosen: ${sel.map((x) => colourName(c.game, LETTER[x])).join(", ")}`),
    el("button", { class: "primary", "data-key": "take", disabled: !c.legal.has(current), "data-sends": current,
      onclick: () => c.send(current) }, "Take"),
    el("button", { "data-key": "clear", onclick: () => { c.state.selection = []; c.render(); } }, "Clear")] : [];
  return el("section", { class: "panel", id: "supply" }, el("h2", {}, choosing ? "Supply — pick tokens to take" : "Supply"),
    el("div", { class: "row" }, ...chips, ...extra));
}

function market(c) {
  const rows = ["3", "2", "1"];                 // the highest tier on top, as on the table
  const grid = [];
  for (const row of rows) {
    const deckAction = `reserve deck ${row}`;
    grid.push(c.legal.has(deckAction)
      ? el("button", { class: "deck", "data-key": `deck:${row}`, "data-sends": deckAction,
        onclick: () => c.send(deckAction), "aria-label": `reserve from the ${row} deck`,
        title: "reserve the top card of this deck" }, `${row}`, el("br"), `deck ${c.view.decks[row]}`)
      : el("div", { class: "deck", "data-key": `deck:${row}` }, `${row}`, el("br"), `deck ${c.view.decks[row]}`));
    c.view.market[row].forEach((card, i) => grid.push(cardButton(c, card, slotText(row, i), "market")));
  }
  const parts = [];
  if (c.game === "pokemon") {
    parts.push(el("div", { class: "row", id: "specials" }, ...["rare", "legendary"].map((r) =>
      el("div", {}, el("div", {}, `${r} (deck ${c.view.decks[r]})`), cardButton(c, c.view.market[r][0], r, "market")))));
  } else {
    parts.push(el("div", { class: "row", id: "nobles" }, el("strong", {}, "Nobles:"), ...c.view.nobles.map((n) =>
      el("span", { class: "noble", "data-noble": n.id, "data-key": `noble:${n.id}` },
        el("strong", {}, n.name || `noble ${n.id}`), ` · ${n.points}★ for bonuses `,
        ...Object.entries(n.requires).map(([col, k]) => chip(col, k))))));
  }
  parts.push(el("div", { class: "market", id: "market" }, ...grid));
  return el("section", { class: "panel" }, ...parts);
}

function seats(c) {
  return el("section", { class: "seats" }, ...c.view.seats.map((s) => {
    const mine = s.seat === c.me;
    const body = [el("h2", { "data-key": `seat:${s.seat}:points` }, `${c.seatName(s.seat)} — ${s.points}★`),
      el("div", { class: "row" }, "tokens ", ...Object.entries(s.tokens).filter(([, n]) => n).map(([col, n]) =>
        keyed(chip(col, n), `seat:${s.seat}:token:${col}`))),
      el("div", { class: "row" }, "bonuses ", ...Object.entries(s.bonuses).filter(([, n]) => n).map(([col, n]) =>
        keyed(chip(col, n), `seat:${s.seat}:bonus:${col}`))),
      el("div", {}, c.game === "pokemon" ? `${s.cards.length} Pokémon` : count(s.cards.length, "card"))];
    if (c.game === "pokemon") {
      body.push(el("div", { class: "small" }, "play area: " + (s.cards.map((k) => `#${k.id} ${k.name}`).join(", ") || "—")));
      body.push(el("div", { class: "small" }, "trainer tile: " + (s.under_tile.map((k) => k.name).join(", ") || "—")));
    } else if (s.nobles.length) {
      body.push(el("div", {}, "visited by " + s.nobles.map((n) => n.name || `noble ${n.id}`).join(", ")));
    }
    if (s.reserved.length) {
      body.push(el("div", {}, "reserved:"), el("div", { class: "row" }, ...s.reserved.map((card, i) =>
        mine ? cardButton(c, card, i + 1, "reserved") : el("div", { class: "card" }, ...[].concat(cardFace(c, card))))));
    }
    return el("div", { class: `panel seat${s.seat === c.view.turn_of ? " turn" : ""}`, "data-seat": s.seat,
      "data-key": `seat:${s.seat}` }, ...body);
  }));
}

export function renderMarket(root, c) {
  morph(root, [supply(c), market(c), seats(c)], c.moved);
}

// Pokémon: the cards an evolution open now would take: {source id, target card} for each legal evolve action.
function evolutions(c) {
  const me = c.view.seats[c.me];
  const out = {};
  for (const a of c.legal) {
    const w = a.split(" ");
    if (w[0] !== "evolve" || w[1] === "none") continue;
    const source = me.cards.find((k) => String(k.id) === w[1]);
    const target = w[2] === "reserved" ? me.reserved[Number(w[3]) - 1]
      : c.view.market[w[2].split(".")[0]][Number(w[2].split(".")[1]) - 1];
    out[a] = { source, target };
  }
  return out;
}

export function marketPrompt(c) {
  const decision = c.view.decision;
  if (!c.mine || decision === "action") return [];
  const evolving = decision === "evolve" ? evolutions(c) : {};
  const label = (a) => {
    if (decision === "return") return [chip(Object.keys(c.view.supply).find((col) => LETTER[col] === a.split(" ")[1]),
      null), " return"];
    if (evolving[a]) return `Evolve ${evolving[a].source.name} into ${evolving[a].target.name}`;
    return describe(c.game, a).replace(/^\w/, (x) => x.toUpperCase());
  };
  const buttons = c.view.legal_actions.map((a) => el("button", { class: "primary", onclick: () => c.send(a),
    "data-action": a, "data-key": `act:${a}`, "data-sends": a }, label(a)));
  const title = { return: "You hold more than 10 tokens: choose one to return.",
    noble: "Several nobles may visit you: choose one.",
    evolve: "You may evolve one Pokémon (or not)." }[decision] || `Choose (${decision}).`;
  return [el("section", { class: "panel prompt", id: "decision" }, el("h2", {}, title), el("div", { class: "row" }, ...buttons))];
}
