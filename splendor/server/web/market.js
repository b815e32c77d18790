// Classic Splendor and Splendor: Pokémon: the market, nobles or rare and legendary rows, the supply, the seats.
import { chip, el, keyed, LETTER, morph, travelsFrom } from "/static/common.js";
import { t, tn } from "/static/i18n.js";
import { cardBack, cardPicture, noblePicture, stackPicture } from "/static/cards.js";
import { actionLabel, cardWords, tokenName } from "/static/words.js";

const BUY = { classic: "buy", pokemon: "catch" };

function slotText(row, i) { return row === "rare" || row === "legendary" ? row : `${row}.${i + 1}`; }

// A card as a picture (cards.js), with its words beside it for screen readers and for copying the page's text.
function cardFace(c, card) {
  if (!card) return el("div", { class: "card empty" }, t("empty"));
  if (card.hidden) {
    return el("div", { class: "card back" }, cardBack(c.game, card.tier), el("span", { class: "sr-only" },
      c.game === "pokemon" ? t("face-down level {tier}", { tier: card.tier })
        : t("face-down tier {tier}", { tier: card.tier })));
  }
  let words = cardWords(c.game, card);
  if (card.evolves_to) {
    const [[colour, n]] = Object.entries(card.evolve);
    words += ` → ${t(card.evolves_to)} (${tn("evolves with {n} {colour} bonus", "evolves with {n} {colour} bonuses", n,
      { colour: tokenName(c.game, colour) })})`;
  }
  return [cardPicture(c.game, card), el("span", { class: "sr-only" }, words)];
}

// A card in its place: always a "slot" (the card, and its menu of actions below it when open, above any
// neighbour), so opening or closing a menu, or any update, keeps the card's element where it was.
function cardButton(c, card, slot, where) {
  const buy = where === "reserved" ? `${BUY[c.game]} reserved ${slot}` : `${BUY[c.game]} ${slot}`;
  const reserve = where === "market" ? `reserve ${slot}` : null;
  const options = [[buy, c.game === "pokemon" ? t("Catch") : t("Buy")], [reserve, t("Reserve")]]
    .filter(([a]) => a && c.legal.has(a));
  const menuKey = `${where}:${slot}`;
  const open = c.state.menu === menuKey;
  const key = card && !card.hidden ? `card:${card.id}` : `card:${where}:${slot}`;
  const target = c.view.decision === "evolve" && card && !card.hidden
    && Object.values(evolutions(c)).some((e) => e.target.id === card.id);
  const tier = card ? ` tier-${card.tier}` : "";
  const attrs = { class: `card${tier}${c.legal.has(buy) ? " affordable" : ""}${target ? " evolve-target" : ""}`,
    "data-slot": slot, "data-where": where, "data-key": key, "data-bonus": card && !card.hidden ? card.bonus : null,
    "data-label": target ? t("evolves here") : null };
  const wrap = (...inner) => el("div", { class: "slot", "data-key": `slot:${menuKey}` }, ...inner);
  if (!card || card.hidden) {
    const face = cardFace(c, card);
    for (const name of ["data-slot", "data-where", "data-key"]) face.setAttribute(name, attrs[name]);
    return wrap(face);
  }
  if (!options.length) {           // a button still, so that it stays the same element when it becomes yours to act on
    return wrap(el("button", { ...attrs, type: "button", "aria-disabled": "true" }, ...cardFace(c, card)));
  }
  attrs.onclick = () => {
    c.state.menu = open ? null : menuKey;
    c.state.focusNext = open ? null : `[data-key="menu:${menuKey}"] button`;
    c.render();
  };
  attrs["aria-label"] = tn("{card}, {n} point: {choices}", "{card}, {n} points: {choices}", card.points,
    { card: card.name ? t(card.name) : t("card"), choices: options.map((o) => o[1]).join(" / ") });
  attrs["aria-expanded"] = open ? "true" : "false";
  const node = el("button", attrs, ...cardFace(c, card));
  if (!open) return wrap(node);
  const close = () => { c.state.menu = null; c.state.focusNext = `[data-key="${key}"]`; c.render(); };
  return wrap(node, el("div", { class: "menu", "data-key": `menu:${menuKey}`, role: "group",
    onkeydown: (e) => { if (e.key === "Escape") close(); } },
    ...options.map(([action, label]) => el("button", { class: "primary", "data-key": `act:${action}`,
      "data-sends": action, onclick: () => { c.state.menu = null; c.send(action); } }, label)),
    el("button", { "data-key": `cancel:${menuKey}`, onclick: close }, t("Cancel"))));
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
    const node = chip(colour, n, { title: tokenName(c.game, colour),
      onclick: can ? () => pick(c, colour) : null, button: true });
    node.setAttribute("data-key", `supply:${colour}`);
    if (c.state.selection.includes(colour)) node.classList.add("selected");
    return el("span", { class: "named" }, node, el("span", { class: "caption" }, tokenName(c.game, colour)));
  });
  const sel = c.state.selection;
  const current = "take " + sel.map((x) => LETTER[x]).join(" ");
  const extra = sel.length ? [el("span", {}, t("chosen: {tokens}",
    { tokens: sel.map((x) => tokenName(c.game, x)).join(", ") })),
    el("button", { class: "primary", "data-key": "take", disabled: !c.legal.has(current), "data-sends": current,
      onclick: () => c.send(current) }, t("Take")),
    el("button", { "data-key": "clear", onclick: () => { c.state.selection = []; c.render(); } }, t("Clear"))] : [];
  return el("section", { class: "panel", id: "supply" }, el("h2", {}, choosing
    ? (c.game === "pokemon" ? t("Supply — pick balls to take") : t("Supply — pick tokens to take")) : t("Supply")),
    el("div", { class: "row" }, ...chips, ...extra));
}

function market(c) {
  const rows = ["3", "2", "1"];                 // the highest tier on top, as on the table
  const grid = [];
  for (const row of rows) {
    const deckAction = `reserve deck ${row}`;
    grid.push(c.legal.has(deckAction)
      ? el("button", { class: "deck", "data-key": `deck:${row}`, "data-sends": deckAction,
        onclick: () => c.send(deckAction), "aria-label": t("reserve from the {row} deck", { row }),
        title: t("reserve the top card of this deck") }, `${row}`, el("br"), t("deck {left}", { left: c.view.decks[row] }))
      : el("div", { class: "deck", "data-key": `deck:${row}` }, `${row}`, el("br"),
        t("deck {left}", { left: c.view.decks[row] })));
    c.view.market[row].forEach((card, i) => grid.push(cardButton(c, card, slotText(row, i), "market")));
  }
  const parts = [];
  if (c.game === "pokemon") {
    parts.push(el("div", { class: "row", id: "specials" }, ...["rare", "legendary"].map((r) =>
      el("div", {}, el("div", {}, r === "rare" ? t("rare (deck {left})", { left: c.view.decks[r] })
        : t("legendary (deck {left})", { left: c.view.decks[r] })), cardButton(c, c.view.market[r][0], r, "market")))));
  } else {
    parts.push(el("div", { class: "row", id: "nobles" }, el("strong", {}, t("Nobles:")), ...c.view.nobles.map((n) =>
      el("span", { class: "noble", "data-noble": n.id, "data-key": `noble:${n.id}`,
        title: n.name ? t(n.name) : t("noble {number}", { number: n.id }) }, noblePicture(n),
        el("span", { class: "noble-name" }, n.name ? t(n.name) : t("noble {number}", { number: n.id })),
        el("span", { class: "sr-only" }, `${t("{points}★ for bonuses", { points: n.points })} `,
          Object.entries(n.requires).map(([col, k]) => t("{n} {colour}", { n: k, colour: tokenName(c.game, col) }))
            .join(", "))))));
  }
  parts.push(el("div", { class: "market", id: "market" }, ...grid));
  return el("section", { class: "panel" }, ...parts);
}

// A seat's bought cards stacked by their bonus colour, as players lay them out; a stack takes the card bought.
function stacks(c, s) {
  const by = {};
  for (const card of s.cards) by[card.bonus] = (by[card.bonus] || 0) + 1;
  return Object.keys(s.bonuses).filter((col) => by[col]).map((col) => el("span", {
    class: "stack", "data-key": `seat:${s.seat}:stack:${col}`, "data-travel": `card-of:${col}`,
    title: tn("{n} card with the {colour} bonus", "{n} cards with the {colour} bonus", by[col],
      { colour: tokenName(c.game, col) }) }, stackPicture(col, by[col])));
}

function seats(c) {
  return el("section", { class: "seats" }, ...c.view.seats.map((s) => {
    const mine = s.seat === c.me;
    const named = (col) => ({ title: tokenName(c.game, col) });
    const body = [el("h2", { "data-key": `seat:${s.seat}:points` }, `${c.seatName(s.seat)} — ${s.points}★`),
      el("div", { class: "row" }, c.game === "pokemon" ? t("balls") : t("tokens"), " ",
        ...Object.entries(s.tokens).filter(([, n]) => n).map(([col, n]) =>
          travelsFrom(keyed(chip(col, n, named(col)), `seat:${s.seat}:token:${col}`), `supply:${col}`))),
      el("div", { class: "row" }, t("bonuses"), " ", ...Object.entries(s.bonuses).filter(([, n]) => n).map(([col, n]) =>
        keyed(chip(col, n, named(col)), `seat:${s.seat}:bonus:${col}`))),
      el("div", { class: "row stacks", "data-key": `seat:${s.seat}:stacks` }, ...stacks(c, s),
        el("span", {}, c.game === "pokemon" ? tn("{n} Pokémon", "{n} Pokémon", s.cards.length)
          : tn("{n} card", "{n} cards", s.cards.length)))];
    if (c.game === "pokemon") {
      body.push(el("div", { class: "small" }, t("play area: {cards}",
        { cards: s.cards.map((k) => `#${k.id} ${t(k.name)}`).join(", ") || "—" })));
      body.push(el("div", { class: "small" }, t("trainer tile: {cards}",
        { cards: s.under_tile.map((k) => t(k.name)).join(", ") || "—" })));
    } else if (s.nobles.length) {
      body.push(el("div", {}, t("visited by {nobles}",
        { nobles: s.nobles.map((n) => (n.name ? t(n.name) : t("noble {number}", { number: n.id }))).join(", ") })));
    }
    if (s.reserved.length) {
      body.push(el("div", {}, t("reserved:")), el("div", { class: "row" }, ...s.reserved.map((card, i) =>
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
    if (decision === "return") {
      const colour = Object.keys(c.view.supply).find((col) => LETTER[col] === a.split(" ")[1]);
      return [chip(colour, null, { title: tokenName(c.game, colour) }), " ", actionLabel(c.game, a, c.seatName)];
    }
    if (evolving[a]) {
      return t("Evolve {pokemon} into {into}", { pokemon: t(evolving[a].source.name), into: t(evolving[a].target.name) });
    }
    if (a.startsWith("noble ")) {
      const noble = c.view.nobles.find((n) => String(n.id) === a.split(" ")[1]);
      if (noble && noble.name) return t(noble.name);
    }
    return actionLabel(c.game, a, c.seatName);
  };
  const buttons = c.view.legal_actions.map((a) => el("button", { class: "primary", onclick: () => c.send(a),
    "data-action": a, "data-key": `act:${a}`, "data-sends": a }, label(a)));
  const title = { return: t("You hold more than 10 tokens: choose one to return."),
    noble: t("Several nobles may visit you: choose one."),
    evolve: t("You may evolve one Pokémon (or not).") }[decision] || t("Choose ({decision}).", { decision });
  return [el("section", { class: "panel prompt", id: "decision" }, el("h2", {}, title), el("div", { class: "row" }, ...buttons))];
}
