// Classic Splendor and Splendor: Pokémon on the table: the supply, the nobles (or the rare and legendary Pokémon),
// the three rows and their decks in the middle; the other seats beside; your own seat below. An action is built
// by clicks (tokens chosen, a card's or a deck's menu opened) and sent only when confirmed: Take, Buy, Reserve.
// What cannot be part of a legal action says why, next to it, in the rules' words.
import { chip, el, emblem, keyed, on, playedOnMark, steadyChoices, travelsFrom } from "/static/common.js";
import { COMMA, list, sentence, t, tn } from "/static/i18n.js";
import { cardBack, cardPicture, noblePicture, stackPicture } from "/static/cards.js";
import { actionLabel, cardWords, costWords, tokenName, tokensOf } from "/static/words.js";
import { cancelTake, choosing, colourOf, confirmTake, notYourTurn, pickByKey, placeNote, supply, takeOptions }
  from "/static/supply.js";

const BUY = { classic: "buy", pokemon: "catch" };
const SPECIAL = ["rare", "legendary"];

function slotText(row, i) { return SPECIAL.includes(row) ? row : `${row}.${i + 1}`; }
function wildOf(c) { return Object.keys(c.view.supply).pop(); }

// A card as a picture (cards.js), with its words beside it for screen readers and for copying the page's text.
function cardFace(c, card) {
  if (!card) return el("div", { class: "card empty" }, t("empty"));
  if (card.hidden) {
    return el("div", { class: "card back" }, cardBack(c.game, card.tier), el("span", { class: "sr-only" },
      c.game === "pokemon" ? t("face-down level {tier}", { tier: card.tier })
        : t("face-down tier {tier}", { tier: card.tier })));
  }
  return [cardPicture(c.game, card), el("span", { class: "sr-only" }, faceWords(c, card))];
}

// A face-up card in words, as a screen reader says it: what it is worth and costs, and what it evolves into.
function faceWords(c, card) {
  const words = cardWords(c.game, card, { alone: true });
  if (!card.evolves_to) return words;
  const [[colour, n]] = Object.entries(card.evolve);
  return `${words} → ${t(card.evolves_to)} (${tn("evolves with {n} {colour} bonus", "evolves with {n} {colour} bonuses",
    n, { colour: tokenName(c.game, colour) })})`;
}

// What a seat still lacks to buy a card: per colour, after its bonuses and tokens (gold/Master Balls not counted).
function missing(c, card) {
  const me = c.view.seats[c.me];
  const wild = wildOf(c);
  const out = [];
  for (const [colour, cost] of Object.entries(card.cost || {})) {
    const short = colour === wild ? cost - me.tokens[colour]
      : Math.max(0, cost - (me.bonuses[colour] || 0)) - me.tokens[colour];
    if (short > 0) out.push([colour, short]);
  }
  return out;
}

// What buying a card the seat can afford spends, per colour: the tokens of each colour its bonuses leave to pay,
// then gold (or Master Balls) for the rest, as the rules pay (coloured tokens always before wild ones).
function payment(c, card) {
  const me = c.view.seats[c.me];
  const wild = wildOf(c);
  const out = [];
  let wilds = 0;
  for (const [colour, cost] of Object.entries(card.cost || {})) {
    if (colour === wild) { wilds += cost; continue; }
    const owed = Math.max(0, cost - (me.bonuses[colour] || 0));
    const own = Math.min(owed, me.tokens[colour] || 0);
    if (own) out.push([colour, own]);
    wilds += owed - own;
  }
  if (wilds) out.push([wild, wilds]);
  return out;
}

// Tokens as chips, named: [colour, count] pairs, as `missing` and `payment` give them.
function tokenChips(c, pairs) {
  return pairs.map(([colour, n]) => chip(colour, n, { title: tokenName(c.game, colour) }));
}

function paying(c, card) {
  const spent = payment(c, card);
  return el("span", { class: "lacking paying", "data-key": "paying" },
    spent.length ? [t("pays:"), " ", ...tokenChips(c, spent)] : t("free: your bonuses pay it all"));
}

// A menu of every action on a card or a deck: the legal ones as buttons, the others greyed with the rule that
// forbids them (asked of the server once, when the menu opens).
function menu(c, menuKey, options, close, note = null) {
  const reasons = c.state.reasons.at === c.state.payload.actions ? c.state.reasons.of : {};
  const asking = options.filter(([a]) => !c.legal.has(a) && !(a in reasons)).map(([a]) => a);
  if (asking.length && !c.state.asking) {
    c.state.asking = true;
    c.explain(asking).catch(() => null).finally(() => {
      c.state.asking = false;
      c.render();
      // the rules' words grew the menu after it was scrolled into view: on a phone its Cancel had gone under the dock
      const open = document.querySelector(`[data-key="menu:${menuKey}"]`);
      if (open && open.contains(document.activeElement)) open.scrollIntoView({ block: "nearest" });
    });
  }
  return el("div", { class: "menu", "data-key": `menu:${menuKey}`, role: "group",
    onkeydown: (e) => { if (e.key === "Escape") { e.stopPropagation(); close(); } } },
  ...options.map(([action, label, extra], i) => {
    if (c.legal.has(action)) {
      const button = el("button", { class: "primary", "data-key": `act:${action}`, "data-sends": action,
        onclick: () => { c.state.menu = null; c.send(action); } }, label);
      return extra ? el("div", { class: "can" }, button, extra) : button;
    }
    const why = reasons[action];
    return el("div", { class: "refused", "data-key": `why:${action}`, "data-refused": action },
      el("button", { "aria-disabled": "true", disabled: true, "aria-describedby": `why-${i}` }, label),
      el("span", { class: "why", id: `why-${i}` }, why ? sentence(why) : t("checking…")), extra || null);
  }),
  note ? el("p", { class: "why menu-note" }, note) : null,
  el("button", { "data-key": `cancel:${menuKey}`, onclick: close }, t("Cancel")));
}

// A card in its place: always a "slot" (the card, and its menu of actions below it when open, above any
// neighbour), so opening or closing a menu, or any update, keeps the card's element where it was.
function cardButton(c, card, slot, where) {
  const buy = where === "reserved" ? `${BUY[c.game]} reserved ${slot}` : `${BUY[c.game]} ${slot}`;
  const reserve = where === "market" && !SPECIAL.includes(slot) ? `reserve ${slot}` : null;
  const buyWord = c.game === "pokemon" ? t("Catch") : t("Buy");
  const menuKey = `${where}:${slot}`;
  const open = c.state.menu === menuKey;
  const key = card && !card.hidden ? `card:${card.id}` : `card:${where}:${slot}`;
  const target = c.view.decision === "evolve" && card && !card.hidden
    && Object.values(evolutions(c)).some((e) => e.target.id === card.id);
  const tier = card ? ` tier-${card.tier}` : "";
  const attrs = { class: `card${tier}${c.legal.has(buy) ? " affordable" : ""}${target ? " evolve-target" : ""}`,
    "data-slot": slot, "data-where": where, "data-key": key, "data-bonus": card && !card.hidden ? card.bonus : null,
    "data-label": target ? t("evolves here") : null,
    // the ✓ of a card you can take now, said in words where a pointer rests (a newcomer guessed at it)
    title: !c.legal.has(buy) ? null : c.game === "pokemon" ? t("✓ you can catch it now") : t("✓ you can buy it now") };
  const wrap = (...inner) => el("div", { class: "slot", "data-key": `slot:${menuKey}` }, ...inner);
  if (!card || card.hidden) {
    const face = cardFace(c, card);
    for (const name of ["data-slot", "data-where", "data-key"]) face.setAttribute(name, attrs[name]);
    return wrap(face);
  }
  const options = [[buy, buyWord]];
  if (reserve) options.push([reserve, t("Reserve")]);
  if (!choosing(c)) {             // a button still, so that it stays the same element when it becomes yours to act on
    const slot = wrap(el("button", { ...attrs, type: "button", "aria-disabled": "true" }, ...cardFace(c, card)));
    const early = notYourTurn(c, null);          // on the slot: a button marked disabled ignores its handlers
    return early ? on(slot, "click", early) : slot;
  }
  attrs.onclick = () => {
    c.state.menu = open ? null : menuKey;
    c.state.focusNext = open ? null : `[data-key="menu:${menuKey}"] button:not([disabled])`;
    c.render();
  };
  const can = options.filter(([a]) => c.legal.has(a)).map((o) => o[1]);
  const choices = can.length ? can.join(" / ") : t("see why not");
  // the label replaces the button's words for a screen reader: it says them all (a classic card had been "card,
  // 4 points", its colour and cost unsaid), then what may be done with it
  attrs["aria-label"] = t("{card}: {choices}", { card: faceWords(c, card), choices });
  attrs["aria-expanded"] = open ? "true" : "false";
  const node = el("button", attrs, ...cardFace(c, card));
  if (!open) return wrap(node);
  const close = () => { c.state.menu = null; c.state.focusNext = `[data-key="${key}"]`; c.render(); };
  const short = missing(c, card);
  // The shortfall is counted before gold (or Master Balls): say how much of it they pay, as the rules' words count it.
  const wild = wildOf(c);
  const spare = Math.max(0, (c.view.seats[c.me].tokens[wild] || 0) - ((card.cost || {})[wild] || 0));  // after its own
  const paid = Math.min(spare, short.reduce((sum, [colour, n]) => sum + (colour === wild ? 0 : n), 0));
  const lacking = short.length ? el("span", { class: "lacking" }, t("missing:"), " ",
    ...tokenChips(c, short),
    paid ? ` ${t("(your {wild} pays {n} of it)", { wild: tokenName(c.game, wild), n: paid })}` : null) : null;
  const said = c.legal.has(buy) ? paying(c, card) : lacking;
  // the rare and the legendary Pokémon are caught from the table or not at all: the rules forbid reserving them
  const note = where === "market" && SPECIAL.includes(slot)
    ? t("Rare and legendary Pokémon cannot be reserved.") : null;
  return wrap(node, menu(c, menuKey, options.map(([a, label]) => [a, label, a === buy ? said : null]), close, note));
}

function deckButton(c, row) {
  const action = `reserve deck ${row}`;
  const menuKey = `deck:${row}`;
  const open = c.state.menu === menuKey;
  const words = [el("span", { class: "deck-tier" }, row), el("span", { class: "deck-left" },
    t("deck {left}", { left: c.view.decks[row] }))];
  if (!choosing(c)) return el("div", { class: "slot deck-slot", "data-key": `slot:deck:${row}` },
    el("div", { class: "deck", "data-key": `deck:${row}`, onclick: notYourTurn(c, null) }, ...words));
  const close = () => { c.state.menu = null; c.state.focusNext = `[data-key="deck:${row}"]`; c.render(); };
  const node = el("button", { class: "deck", type: "button", "data-key": `deck:${row}`,
    "aria-label": c.game === "pokemon" ? t("reserve from the level {level} deck", { level: row })
      : t("reserve from the tier {tier} deck", { tier: row }), "aria-expanded": open ? "true" : "false",
    title: t("reserve the top card of this deck"), onclick: () => {
      c.state.menu = open ? null : menuKey;
      c.state.focusNext = open ? null : `[data-key="menu:${menuKey}"] button:not([disabled])`;
      c.render();
    } }, ...words);
  return el("div", { class: "slot deck-slot", "data-key": `slot:deck:${row}` }, node,
    open ? menu(c, menuKey, [[action, t("Reserve the top card")]], close) : null);
}

function nobles(c) {
  return el("div", { class: "row", id: "nobles" }, el("strong", { class: "sr-only" }, t("Nobles:")),
    ...c.view.nobles.map((n) => el("span", { class: "noble", "data-noble": n.id, "data-key": `noble:${n.id}`,
      title: n.name ? t(n.name) : t("noble {number}", { number: n.id }) }, noblePicture(n),
    el("span", { class: "noble-name" }, n.name ? t(n.name) : t("noble {number}", { number: n.id })),
    el("span", { class: "sr-only" }, t("{points}★ for bonuses of {needs}", { points: n.points,
      needs: list(Object.entries(n.requires).map(([col, k]) => tokensOf(c.game, col, k))) })))));
}

function specials(c) {
  return el("div", { class: "specials", id: "specials" }, ...SPECIAL.map((r) => el("div", { class: "special" },
    el("div", { class: "special-label", title: r === "rare" ? t("rare (deck {left})", { left: c.view.decks[r] })
      : t("legendary (deck {left})", { left: c.view.decks[r] }) },
    r === "rare" ? t("rare") : t("legendary"), " ", el("span", { class: "deck-left" }, `(${c.view.decks[r]})`)),
    cardButton(c, c.view.market[r][0], r, "market"))));
}

function market(c) {
  const grid = [];
  for (const row of ["3", "2", "1"]) {                // the highest tier on top, as on the table
    grid.push(deckButton(c, row));
    c.view.market[row].forEach((card, i) => grid.push(cardButton(c, card, slotText(row, i), "market")));
  }
  const rows = el("div", { class: "market", id: "market" }, ...grid);
  return el("section", { class: "panel market-panel" }, c.game === "pokemon" ? null : nobles(c),
    el("div", { class: "market-row" }, rows, c.game === "pokemon" ? specials(c) : null));
}

// A seat's bought cards stacked by their bonus colour, as players lay them out; a stack takes the card bought.
// Another seat's stacks show at most three edges (their number says the rest), so that its row keeps one height.
function stacks(c, s) {
  const by = {};
  for (const card of s.cards) by[card.bonus] = (by[card.bonus] || 0) + 1;
  return Object.keys(s.bonuses).filter((col) => by[col]).map((col) => {
    const words = tn("{n} card with the {colour} bonus", "{n} cards with the {colour} bonus", by[col],
      { colour: tokenName(c.game, col) });
    return el("span", { class: "stack", "data-key": `seat:${s.seat}:stack:${col}`, "data-travel": `card-of:${col}`,
      title: words, role: "img", "aria-label": words },    // a picture named: a screen reader had heard no colour
    stackPicture(col, s.bonuses[col] || by[col], s.seat === c.me ? 6 : 3));
  });
}

function seatHeading(c, s) {
  return el("h2", { "data-key": `seat:${s.seat}:points`, class: "seat-name" }, emblem(s.seat), " ",
    el("span", { class: "who" }, c.seatName(s.seat)), ...playedOnMark(c, s.seat), " ",
    el("span", { class: "points" }, `${s.points}★`));
}

function seatRows(c, s) {
  const named = (col) => ({ title: tokenName(c.game, col) });
  const held = tokensHeld(s);
  return [
    el("div", { class: "row tokens" }, el("span", { class: "label" }, c.game === "pokemon"
      ? t("balls ({n})", { n: held }) : t("tokens ({n})", { n: held })), " ",
    ...Object.entries(s.tokens).filter(([, n]) => n).map(([col, n]) =>
      travelsFrom(keyed(chip(col, n, named(col)), `seat:${s.seat}:token:${col}`), `supply:${col}`))),
    el("div", { class: "row stacks", "data-key": `seat:${s.seat}:stacks` }, el("span", { class: "label" },
      t("bonuses")), " ", ...stacks(c, s),
    el("span", { class: "small card-count" }, c.game === "pokemon" ? tn("{n} Pokémon", "{n} Pokémon", s.cards.length)
      : tn("{n} card", "{n} cards", s.cards.length))),
  ];
}

// How many tokens a seat holds, of every colour (the limit of ten counts them all).
function tokensHeld(s) { return Object.values(s.tokens).reduce((a, b) => a + b, 0); }

// A Pokémon by its National Pokédex number and its name: "#25 Pikachu".
function pokemonName(card) {
  const name = t(card.name);
  return card.dex ? `#${card.dex} ${name}` : name;
}

// Your Pokémon, each with what it evolves into and the bonuses that takes ("#13 Weedle → Kakuna (♦ 3 bonuses)"),
// copies counted once ("×2"), and marked ✓ when it can evolve at the end of a turn: your bonuses suffice and the
// card it becomes is on the table or in your hand (the rules' two conditions), and the game goes on. Another seat's
// are listed by name.
function playArea(c, s) {
  if (!s.cards.length) return "—";
  if (s.seat !== c.me) return s.cards.map(pokemonName).join(", ");     // another's, as a list of names: compact
  const shown = (cards) => cards.filter((x) => x && !x.hidden).map((x) => x.name);
  const onOffer = new Set([...["1", "2", "3"].flatMap((row) => shown(c.view.market[row] || [])),
    ...shown(s.reserved || [])]);
  const copies = new Map();
  for (const card of s.cards) copies.set(card.name, [...(copies.get(card.name) || []), card]);
  return [...copies.values()].flatMap(([card, ...more], i) => {
    const parts = [pokemonName(card), more.length ? ` ×${more.length + 1}` : null];
    let ready = false;
    if (card.evolves_to && card.evolve) {
      const [[colour, n]] = Object.entries(card.evolve);
      const enough = (s.bonuses[colour] || 0) >= n;
      ready = enough && onOffer.has(card.evolves_to) && !c.view.is_over;      // no turn is left to evolve at
      const needs = tn("evolves with {n} {colour} bonus", "evolves with {n} {colour} bonuses", n,
        { colour: tokenName(c.game, colour) });
      const mark = chip(colour, null, { title: needs });
      mark.classList.add("need");                  // a bonus needed: square, as bonuses are drawn
      mark.setAttribute("aria-hidden", "true");    // the words after it say it
      parts.push(" → ", t(card.evolves_to), " (", mark, " ", tn("{n} bonus", "{n} bonuses", n), ")",
        ready ? el("span", { class: "ready", title: t("it can evolve at the end of your turn") }, " ✓") : null,
        el("span", { class: "sr-only" }, `: ${needs}${ready ? `; ${t("it can evolve at the end of your turn")}`
          : enough && !c.view.is_over ? `; ${t("bonuses enough, but {pokemon} is not on the table or in your hand",
            { pokemon: t(card.evolves_to) })}` : ""}`));
    }
    const ids = [card, ...more].map((k) => k.id);     // not shown on the table: what an evolution is typed with
    const entry = el("span", { class: `pokemon-entry${ready ? " ready-to-evolve" : ""}`, "data-dex": card.dex,
      title: card.evolves_to ? tn("card {ids}: type 'evolve {id} …' to evolve it",
        "cards {ids}: type 'evolve {id} …' to evolve one", ids.length, { ids: ids.join(", "), id: ids[0] }) : null },
    ...parts);
    return i ? [", ", entry] : [entry];                   // the line may break between two Pokémon, never inside one
  });
}

function seatExtras(c, s) {
  const out = [];
  if (c.game === "pokemon") {
    const area = [playArea(c, s)].flat();
    out.push(el("div", { class: "small play-area", title: s.seat === c.me ? null : area.join("") },
      t("play area:"), " ", ...area));
    const tile = s.under_tile.map((k) => t(k.name)).join(", ");   // whole in its tooltip: it may break a tie
    out.push(el("div", { class: "small under-tile", title: tile || null }, t("trainer tile: {cards}",
      { cards: tile || "—" })));
  } else if (s.nobles.length) {
    out.push(el("div", { class: "small", "data-key": `seat:${s.seat}:nobles` }, t("visited by {nobles}",
      // a noble's name has commas and "and" of its own ("Patron of Diamonds, Sapphires and Onyx"): a dot between
      { nobles: s.nobles.map((n) => (n.name ? t(n.name) : t("noble {number}", { number: n.id }))).join(" · ") })));
  }
  return out;
}

// A card small, as another seat's reserved card is seen across the table: its picture (or its deck's back) and
// its words for screen readers. Too small to read its cost, it says its words on a hover, and on a tap or a click
// under the seat's reserved cards (a touch screen has no hover).
function miniCard(c, card) {
  if (card.hidden) {
    return el("div", { class: `card mini tier-${card.tier}` }, cardBack(c.game, card.tier), el("span",
      { class: "sr-only" }, c.game === "pokemon" ? t("face-down level {tier}", { tier: card.tier })
        : t("face-down tier {tier}", { tier: card.tier })));
  }
  const shown = c.state.shownMini === card.id;
  return el("button", { type: "button", class: `card mini tier-${card.tier}`, "data-key": `mini:${card.id}`,
    title: cardWords(c.game, card, { alone: true }), "aria-expanded": String(shown),
    onclick: () => { c.state.shownMini = shown ? null : card.id; c.render(); } }, ...cardFace(c, card));
}

// The words of another seat's reserved card tapped, under its reserved cards; null when none of its is.
function miniWords(c, s) {
  const card = (s.reserved || []).find((x) => !x.hidden && x.id === c.state.shownMini);
  return card ? el("p", { class: "small mini-words", "data-key": `mini-words:${s.seat}` },
    cardWords(c.game, card, { alone: true })) : null;
}

// Another seat, in brief: points, tokens, bonuses, reserved cards (face up where everyone saw them), its last move.
function otherSeat(c, s) {
  const last = c.lastMoveOf(s.seat);
  return el("div", { class: `panel seat other${s.seat === c.view.turn_of ? " turn" : ""}`, "data-seat": s.seat,
    "data-key": `seat:${s.seat}`, style: `--seat: var(--seat-${s.seat})` }, seatHeading(c, s), ...seatRows(c, s),
  ...seatExtras(c, s),
  el("div", { class: "row reserved-row", "data-key": `seat:${s.seat}:reserved` }, el("span", { class: "label" },
    t("reserved: {n}", { n: s.reserved.length })), ...s.reserved.map((card) => miniCard(c, card))),
  miniWords(c, s),
  last ? el("p", { class: "small last", title: last }, t("last: {move}", { move: last })) : null);
}

// Your own seat, in full: your reserved cards are buttons (buy them from here).
function mySeat(c, s) {
  return el("div", { class: `panel seat own${s.seat === c.view.turn_of ? " turn" : ""}`, "data-seat": s.seat,
    "data-key": `seat:${s.seat}` },
  el("div", { class: "own-summary" }, seatHeading(c, s), ...seatRows(c, s), ...seatExtras(c, s)),
  el("div", { class: "own-reserved", "data-key": `seat:${s.seat}:reserved` }, el("div", { class: "label" },
    t("reserved:"), ` ${s.reserved.length}/3`), el("div", { class: "row" },
    ...s.reserved.map((card, i) => cardButton(c, card, i + 1, "reserved")))));
}

// Your tokens, bonuses and points in one line: on a phone it stays on screen at every scroll position.
function strip(c) {
  if (c.me === null) return [];
  const s = c.view.seats[c.me];
  return [emblem(s.seat), el("strong", {}, `${s.points}★`),
    ...Object.entries(s.tokens).filter(([, n]) => n).map(([col, n]) => keyed(chip(col, n,
      { title: tokenName(c.game, col) }), `strip:token:${col}`)),
    // the bonuses after their word, with square corners: a token and a bonus of one colour are never mistaken
    Object.values(s.bonuses).some((n) => n) ? el("span", { class: "strip-bonus" }, el("span", { class: "strip-label" },
      t("bonuses")), ...Object.entries(s.bonuses).filter(([, n]) => n).map(([col, n]) =>
      keyed(chip(col, n, { title: t("{colour} bonus", { colour: tokenName(c.game, col) }) }), `strip:bonus:${col}`)))
      : null];
}

export function draw(c) {
  const others = c.view.seats.filter((s) => s.seat !== c.me).map((s) => otherSeat(c, s));
  const mine = c.me === null ? [] : [mySeat(c, c.view.seats[c.me])];
  const heading = choosing(c) && takeOptions(c).length
    ? (c.game === "pokemon" ? t("Supply — pick balls to take") : t("Supply — pick tokens to take")) : t("Supply");
  return { table: [supply(c, heading), market(c)], mine, others, strip: strip(c), prompt: marketPrompt(c) };
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
    out[a] = { source, target, where: w[2] === "reserved" ? t("your reserved card {number}", { number: w[3] })
      : t("level {tier}, slot {slot}", { tier: w[2].split(".")[0], slot: w[2].split(".")[1] }) };
  }
  return out;
}

function marketPrompt(c) {
  const decision = c.view.decision;
  if (!c.mine || decision === "action") return steadyChoices(c, null, []);   // lets go of a return's buttons
  const evolving = decision === "evolve" ? evolutions(c) : {};
  const targets = {};                 // the cards each evolution of one name into another could take
  for (const e of Object.values(evolving)) {
    const words = `${t(e.source.name)}→${t(e.target.name)}`;
    (targets[words] = targets[words] || new Set()).add(e.target.id);
  }
  const label = (a) => {
    if (decision === "return") {
      const colour = colourOf(c, a.split(" ")[1]);
      return [chip(colour, null, { title: tokenName(c.game, colour) }), " ", actionLabel(c.game, a, c.seatName)];
    }
    const e = evolving[a];
    if (e) {
      const words = t("Evolve {pokemon} into {into}", { pokemon: t(e.source.name), into: t(e.target.name) });
      // copies told apart by where they lie and by what they cost, as the table shows them (the one left stays
      // to be caught)
      return targets[`${t(e.source.name)}→${t(e.target.name)}`].size > 1
        ? `${words} (${e.where}${COMMA}${costWords(c.game, e.target)})` : words;
    }
    if (a.startsWith("noble ")) {
      const noble = c.view.nobles.find((n) => String(n.id) === a.split(" ")[1]);
      if (noble && noble.name) return t(noble.name);
    }
    return actionLabel(c.game, a, c.seatName);
  };
  // Two evolutions of copies of one Pokémon into one card are the same move to a player: one button says it.
  const said = new Set();
  const offered = c.view.legal_actions.filter((a) => {
    const words = [label(a)].flat().map((x) => (typeof x === "string" ? x : x.textContent)).join("");
    if (said.has(words)) return false;
    said.add(words);
    return true;
  });
  // "Do not evolve" plain beside the evolutions, so that a tap meant for one is not mistaken for it
  const buttons = steadyChoices(c, decision, offered).map((a) => el("button", {
    class: a === "evolve none" ? "" : "primary", onclick: () => c.send(a), disabled: !c.legal.has(a),
    "data-action": a, "data-key": `act:${a}`, "data-sends": a },
  label(a)));
  const held = tokensHeld(c.view.seats[c.me]);
  const title = { return: c.game === "pokemon"
    ? t("You hold {held} balls, 10 at most: return {n}, one at a time.", { held, n: held - 10 })
    : t("You hold {held} tokens, 10 at most: return {n}, one at a time.", { held, n: held - 10 }),
    noble: t("Several nobles may visit you: choose one."),
    evolve: Object.keys(evolving).length ? t("You may evolve one Pokémon (or not).")
      : t("None of your Pokémon can evolve now. You are asked anyway, so that the others cannot tell what you reserved from a deck.") }[decision] || t("Choose ({decision}).", { decision });
  // a group named by its question, which a screen reader says as the focus enters it, and again as it changes
  // ("return 2", then "return 1": a return had been heard as nothing)
  return [el("section", { class: "prompt", id: "decision", role: "group", "aria-labelledby": "decision-title" },
    el("h2", { id: "decision-title", "aria-live": "polite" }, title), el("div", { class: "row" }, ...buttons))];
}

// The places on the table an action touched, for the marks of a seat's last move (and of a hint): the tokens
// taken and where they went, the card's place and its buyer's stack, the deck, the noble.
function touched(c, text, s, details) {
  const w = text.split(" ");
  const d = details || {};
  const keys = [];
  const slotKey = (slot) => (slot === "reserved" ? null : `slot:market:${slot}`);
  switch (w[0]) {
    case "take":
      for (const l of w.slice(1)) { const col = colourOf(c, l); keys.push(`supply:${col}`, `seat:${s}:token:${col}`); }
      break;
    case "return": { const col = colourOf(c, w[1]); keys.push(`seat:${s}:token:${col}`, `supply:${col}`); break; }
    case "reserve":
      keys.push(w[1] === "deck" ? `deck:${w[2]}` : slotKey(w[1]), `seat:${s}:reserved`);
      break;
    case "buy": case "catch":
      keys.push(w[1] !== "reserved" ? slotKey(w[1]) : s === c.me ? `slot:reserved:${w[2]}` : `seat:${s}:reserved`);
      if (d.card) keys.push(`seat:${s}:stack:${d.card.bonus}`);
      break;
    case "noble": keys.push(`noble:${w[1]}`, `seat:${s}:nobles`); break;
    case "evolve":
      if (w[1] !== "none") {
        keys.push(w[2] !== "reserved" ? slotKey(w[2]) : s === c.me ? `slot:reserved:${w[3]}` : `seat:${s}:reserved`,
          `seat:${s}:stacks`);
      }
      break;
    default: break;
  }
  for (const noble of d.nobles || []) keys.push(`seat:${s}:nobles`, `noble:${noble.id}`);
  return keys.filter(Boolean);
}

export function moveMarks(c, entry) { return touched(c, entry.action, entry.seat, entry.details); }
export function hintMarks(c, action) { return touched(c, action, c.me, null); }

// Keys: a colour's letter picks it; a tier (1–3; 4 the rare and legendary row; 0 your reserved cards) then a slot
// (1–4) opens that card's menu, a tier then "d" its deck's; on a prompt, a colour's letter returns that token.
export function key(c, k) {
  if (c.view.decision === "return") {          // the letter finds the token's button; Enter sends it
    const button = document.querySelector(`#decision button[data-action="return ${k}"]:not([disabled])`);
    if (button) { button.focus(); return true; }
    return false;
  }
  if (!choosing(c)) return false;
  const pending = c.state.pendingTier;
  if (pending !== undefined && pending !== null) {
    c.state.pendingTier = null;
    let menuKey = null;
    if (k === "d" && ["1", "2", "3"].includes(pending)) menuKey = `deck:${pending}`;
    else if (/^[1-4]$/.test(k)) {
      if (pending === "0") menuKey = `reserved:${k}`;
      else if (pending === "4") menuKey = c.game === "pokemon" && Number(k) <= 2 ? `market:${SPECIAL[Number(k) - 1]}` : null;
      else menuKey = `market:${pending}.${k}`;
    }
    if (menuKey && document.querySelector(`[data-key="slot:${menuKey}"] button`)) {
      c.state.menu = menuKey;
      c.state.focusNext = `[data-key="menu:${menuKey}"] button:not([disabled])`;
      c.state.note = null;
      c.render();
      return true;
    }
    c.note("keys", t("No card there."));
    return true;
  }
  if (/^[0-4]$/.test(k)) {
    c.state.pendingTier = k;
    c.note("keys", k === "0" ? t("Your reserved card: its number (1–3)?")
      : t("Tier {tier}: the card's slot (1–4), or d for the deck?", { tier: k }));
    return true;
  }
  const colour = colourOf(c, k);
  if (colour) { pickByKey(c, colour); return true; }
  return false;
}

export function confirm(c) { return confirmTake(c); }

export function cancel(c) {
  const focus = c.state.menu ? `[data-key="slot:${c.state.menu}"] > button` : null;
  c.state.pendingTier = null;
  if (!cancelTake(c)) return false;
  c.state.focusNext = focus;
  c.render();
  return true;
}

export function after() { placeNote(); }
