// Splendor Kids on the table: the board in the middle (the server's SVG picture, drawn to fit, its payable roads
// outlined and clickable), the supply and the Marketplace beside it, the travelers around, and the roads from
// your place with their payments in the dock.
import { chip, el, emblem, keyed, on, playedOnMark, steadyChoices, travelsFrom } from "/static/common.js";
import { language, t } from "/static/i18n.js";
import { actionLabel, tokenName } from "/static/words.js";
import { cancelTake, choosing, colourOf, confirmTake, notYourTurn, pickByKey, placeNote, supply, takeOptions }
  from "/static/supply.js";

const named = (colour) => ({ title: tokenName("kids", colour) });

// The board's picture after each action, fetched once: the table is drawn from the cache at once (so an update
// never replaces the board with a placeholder under the pointer), and drawn again when a new picture arrives.
// The boards are drawn side by side, the shape of a screen held sideways; a phone pans over them.
const svgCache = { key: null, text: "", loading: null };

// Which picture the table shows now: after the latest action, or at a replay's step.
function boardKey(c) {
  const upto = c.mode === "replay" ? c.state.upto : null;        // a replay draws the board as it stood then
  return upto === null ? `${c.gameId}:${c.state.payload.actions}` : `${c.gameId}:replay:${upto}`;
}

function boardSvg(c) {
  const upto = c.mode === "replay" ? c.state.upto : null;
  const key = boardKey(c);
  if (svgCache.key === key) return svgCache.text;
  if (svgCache.loading !== key) {
    svgCache.loading = key;
    const at = upto === null ? "" : `&upto=${upto}`;
    fetch(`/api/games/${c.gameId}/board.svg?lang=${language}${at}`).then((r) => {
      if (!r.ok) throw new Error(String(r.status));          // a refusal's words are no picture: try again later
      return r.text();
    }).then((text) => {
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

function openRoad(c, n) {
  c.state.road = String(n);
  c.state.note = null;                      // a reason said for another road is gone with the choice of this one
  c.state.focusNext = "#payments button";
  c.render();
}

// On a phone the board is drawn at its own size (every road a finger's width) and panned, centred on your pawn;
// a button shows the whole board at the screen's width instead, and back. A tablet shows the whole board first,
// drawn smaller than its own size (its words 8 px high on a tablet held sideways), and the same button draws it at
// its own size (12 px) in the same box, panned the same way.
function zoomed(c) { return phone() ? c.state.boardZoom !== false : tablet() && c.state.boardZoom === true; }

function zoomButton(c) {
  if (!phone() && !tablet()) return null;
  return el("button", { type: "button", id: "board-zoom", "data-key": "board-zoom", "aria-pressed": String(zoomed(c)),
    onclick: () => {
      c.state.boardZoom = !zoomed(c);
      c.state.centred = null;
      if (c.state.note && c.state.note.key.startsWith("road:")) c.state.note = null;  // it pointed at the old scale
      c.render();
    } }, zoomed(c) ? t("Whole board") : t("Zoom in"));
}

function board(c) {
  const box = el("section", { class: `panel board${zoomed(c) ? " zoomed" : ""}`, id: "board" });
  const text = boardSvg(c);
  if (text === null) { box.append(t("loading the board…")); return box; }
  box.innerHTML = text;
  const roads = movesByRoad(c);
  for (const node of box.querySelectorAll(".road")) {
    const n = node.getAttribute("data-road");
    node.setAttribute("data-key", `road:${n}`);
    if (roads[n] && choosing(c)) {
      node.classList.add("can-pay");
      if (c.state.road === n) node.classList.add("chosen");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", t("road {road}: move", { road: n }));
      on(node, "click", () => openRoad(c, n));
      on(node, "keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); openRoad(c, n); } });
    } else if (choosing(c)) {             // a road you cannot take says why, as a refused token does
      on(node, "click", () => whyNotRoad(c, n));
    } else {
      const early = notYourTurn(c, `road:${n}`);
      if (early) on(node, "click", early);
    }
  }
  const note = c.state.note;             // said on the board, beside the road clicked (placed by `after`)
  if (note && note.key.startsWith("road:")) {
    box.append(el("p", { class: "note-beside road-note", id: "road-note", role: "status",
      "data-road": note.key.slice(5) }, note.text));
  }
  return box;
}

// The reason a road cannot be taken, beside that road: over the board, under its banner, kept inside the board.
function placeRoadNote(box) {
  const note = box.querySelector("#road-note");
  const road = note && box.querySelector(`.road[data-road="${note.dataset.road}"]`);
  if (!road) return;
  const frame = box.getBoundingClientRect();
  const at = (road.querySelector("rect.banner") || road).getBoundingClientRect();   // its numbered banner
  const left = at.left + at.width / 2 - frame.left + box.scrollLeft - note.offsetWidth / 2;
  const most = box.scrollLeft + box.clientWidth - note.offsetWidth - 4;
  note.style.left = `${Math.max(box.scrollLeft + 4, Math.min(left, most))}px`;
  note.style.top = `${at.bottom - frame.top + box.scrollTop + 4}px`;
}

function whyNotRoad(c, n) {
  const at = c.state.payload.actions;
  const move = `move ${n}`;
  c.explain([move]).then((r) => {
    if (c.state.payload.actions === at) c.note(`road:${n}`, r[move] || t("that road cannot be taken now"));
  });
}

// The roads from your place, with what each costs: on a phone under the board, elsewhere in the dock.
function roadChoices(c) {
  const roads = movesByRoad(c);
  const here = c.view.seats[c.me ?? 0];
  const names = Object.fromEntries(c.view.board.spaces.map((s) => [s.id, t(s.name)]));
  const out = c.view.board.roads.filter((r) => here && r.from === here.space);
  const rows = out.map((r) => el("div", { class: "row road-row", "data-road": r.number },
    el("strong", {}, t("Road {road} → {place}:", { road: r.number, place: names[r.to] })),
    el("span", { class: "road-cost" }, ...r.cost.map((col) => chip(col, null, named(col)))),  // one piece: unbroken
    roads[r.number] ? el("button", { "data-key": `road-move:${r.number}`, onclick: () => openRoad(c, r.number) },
      t("move"))
      : el("span", { class: "small" }, " ", t("(you cannot pay it yet)"))));
  return el("section", { id: "roads" }, el("h2", {}, t("Roads from here")), ...rows);
}

// The payments of the road chosen (on the board or in the list): each one a button, and a way back.
function payments(c) {
  const roads = movesByRoad(c);
  if (!c.state.road || !roads[c.state.road]) return null;
  // where it leads, said here too: on a phone the payments cover the road tapped (a phone player's find)
  const road = c.view.board.roads.find((r) => String(r.number) === c.state.road);
  const place = road ? c.view.board.spaces.find((s) => s.id === road.to) : null;
  return el("div", { class: "prompt", id: "payments" }, el("strong", {}, place
    ? t("Pay road {road} to {place}:", { road: c.state.road, place: t(place.name) })
    : t("Pay road {road}:", { road: c.state.road })), ...roads[c.state.road].map((a) => el("button", { class: "primary",
    "data-action": a, "data-key": `act:${a}`, "data-sends": a, onclick: () => { c.state.road = null; c.send(a); } },
  ...paymentChips(c, a), el("span", { "aria-hidden": "true" }, " ", t("move")),  // what the tap does, in words
  el("span", { class: "sr-only" }, actionLabel("kids", a, c.seatName)))),
  el("button", { "data-key": "cancel-road", onclick: () => {
    c.state.focusNext = `[data-key='road-move:${c.state.road}']`;   // back to the list, where the road was
    c.state.road = null;
    c.render();
  } }, t("Cancel")));
}

// A payment as what it gives up, counted, in pictures a child reads: "★ 4" for four gold coins, a square for a City
// tile (its words are there for a screen reader; "gold coin, gold coin, gold coin and gold coin" was a wall).
function paymentChips(c, action) {
  const counts = new Map();
  for (const part of action.split(" ").slice(3)) counts.set(part, (counts.get(part) || 0) + 1);
  return [...counts].map(([part, n]) => {
    const tile = part.startsWith("tile:");
    const colour = tile ? colourOf(c, part.slice(5)) : part === "t" ? "treasure" : colourOf(c, part);
    const piece = chip(colour, n, named(colour));
    // a tile said in a word too: its square beside a round token was all that told two payments apart, and a
    // player spent both City tiles meaning to spend a token
    return tile ? [hidden(cityTile(piece)), el("span", { class: "small", "aria-hidden": "true" }, " ", t("tile"))]
      : hidden(piece);
  }).flat();
}

const phone = () => matchMedia("(max-width: 600px)").matches;
const tablet = () => matchMedia("(min-width: 601px) and (max-width: 1199px)").matches;

// A decision's button: a token to give up shows its chip, as the purse does; a Marketplace tile shows what it is
// (the face-up tiles are everyone's to see).
function decisionLabel(c, action) {
  const w = action.split(" ");
  if (["return", "discard", "give"].includes(w[0])) {      // the token given up, as the purse shows it
    const colour = w[1] === "t" ? "treasure" : colourOf(c, w[1]);
    if (colour) return [hidden(chip(colour, null, named(colour))), " ", actionLabel("kids", action, c.seatName)];
  }
  const tile = w[0] === "city" && w[1] === "market" ? (c.view.marketplace || [])[Number(w[2]) - 1] : null;
  if (!tile) return actionLabel("kids", action, c.seatName);
  return [hidden(cityTile(chip(tile, null, named(tile)))), " ",
    t("Take Marketplace tile {slot} ({resource})", { slot: w[2], resource: tokenName("kids", tile) })];
}

// A chip beside words that say it already: seen, not read twice.
function hidden(node) { node.setAttribute("aria-hidden", "true"); return node; }

// A City tile: square, as a tile is, so it is never taken for a resource token (round) beside it.
function cityTile(node) { node.classList.add("city-tile"); return node; }

function marketplace(c) {
  return [c.view.marketplace ? el("div", { class: "row marketplace" }, t("Marketplace:"),
    ...c.view.marketplace.map((tile) => tile ? cityTile(chip(tile, null,
      { title: t("a City tile ({resource})", { resource: tokenName("kids", tile) }) })) : el("span", {}, "—"))) : null,
  el("div", { class: "small" }, t("City tile stack: {left}", { left: c.view.city_stack }))];
}

function traveler(c, s, names) {
  const last = s.seat === c.me ? null : c.lastMoveOf(s.seat);
  return el("div", { class: `panel seat${s.seat === c.me ? " own" : " other"}${s.seat === c.view.turn_of ? " turn" : ""}`,
    "data-seat": s.seat, "data-key": `seat:${s.seat}` },
  el("h2", { class: "seat-name" }, emblem(s.seat), " ", el("span", { class: "who" }, c.seatName(s.seat)),
    ...playedOnMark(c, s.seat)),
  el("div", { class: "place", "data-key": `seat:${s.seat}:space` }, t("at {place}", { place: names[s.space] })),
  el("div", { class: "row tokens" }, el("span", { class: "label" }, t("purse {held}/8", { held: s.purse_total })), " ",
    ...Object.entries(s.tokens).filter(([, n]) => n).map(([col, n]) =>
      travelsFrom(keyed(chip(col, n, named(col)), `seat:${s.seat}:token:${col}`), `supply:${col}`)),
    s.treasure ? chip("treasure", s.treasure, named("treasure")) : null),
  el("div", { class: "row tiles" }, el("span", { class: "label" }, t("City tiles")), " ", ...tileChips(s),
    s.city_tiles.length ? null : el("span", { class: "none" }, "—")),
  s.medal ? el("div", {}, t("Queen's Medal {medal}", { medal: s.medal })) : null,
  s.queens_gem ? el("div", {}, t("holds the Queen's Gem")) : null,
  last ? el("p", { class: "small last", title: last }, t("last: {move}", { move: last })) : null);
}

// A traveler's City tiles, each a chip of its resource; a used one greyed and said so ("used", in words on the seat).
function tileChips(s, { words = true } = {}) {
  return s.city_tiles.map((tile) => {
    const resource = tokenName("kids", tile.colour);
    const node = cityTile(chip(tile.colour, null, { title: tile.active ? t("{resource} City tile, active", { resource })
      : t("{resource} City tile, used", { resource }) }));
    if (!tile.active) { node.classList.add("used"); if (words) node.append(" ", t("used")); }
    return node;
  });
}

// Your purse and your City tiles, in the phone's strip: a road's payment may name a tile, which must be in sight.
function strip(c) {
  if (c.me === null) return [];
  const s = c.view.seats[c.me];
  return [emblem(s.seat), el("strong", {}, t("purse {held}/8", { held: s.purse_total })),
    ...Object.entries(s.tokens).filter(([, n]) => n).map(([col, n]) => keyed(chip(col, n, named(col)),
      `strip:token:${col}`)),
    s.treasure ? keyed(chip("treasure", s.treasure, named("treasure")), "strip:token:treasure") : null,  // it pays
    s.city_tiles.length ? el("span", { class: "strip-bonus strip-tiles" }, el("span", { class: "strip-label" },
      t("City tiles")), ...tileChips(s, { words: false })) : null];
}

export function draw(c) {
  const names = Object.fromEntries(c.view.board.spaces.map((s) => [s.id, t(s.name)]));
  const heading = choosing(c) && takeOptions(c).length ? t("Supply — pick resources to take") : t("Supply");
  const others = c.view.seats.filter((s) => s.seat !== c.me).map((s) => traveler(c, s, names));
  const mine = c.me === null ? [] : [traveler(c, c.view.seats[c.me], names)];
  const roads = choosing(c) ? roadChoices(c) : null;
  if (choosing(c)) steadyChoices(c, null, []);   // no decision made again and again: a return's buttons go
  // a road chosen: its payments in the list's place (below the list, eight of them had run off a tablet's screen)
  const paying = payments(c);
  const prompt = choosing(c) ? [phone() || paying ? null : roads, paying] : kidsPrompt(c);
  return { table: [supply(c, heading, ...marketplace(c)), zoomButton(c), board(c), phone() ? roads : null,
    el("p", { class: "small credit" }, t(c.view.board.credit))], mine, others, strip: strip(c), prompt };
}

function kidsPrompt(c) {
  const decision = c.view.decision;
  if (!c.mine || decision === "action") return steadyChoices(c, null, []);   // lets go of a return's buttons
  const held = c.view.seats[c.me].purse_total;
  const title = { return: t("Your purse holds {held} tokens, 8 at most: return {n}, one at a time.", { held, n: held - 8 }),
    drought: t("Drought! Discard down to 5 tokens."),
    thief: t("The Kind-Hearted Thief: give one token to another traveler."),
    city: t("You reached a city: take a City tile."),
    medal: t("You reached the Palace: choose a Queen's Medal.") }[decision]
    || t("Choose ({decision}).", { decision });
  const choices = steadyChoices(c, decision, c.view.legal_actions);
  const button = (a, label, more = {}) => el("button", { class: "primary", "data-action": a, "data-key": `act:${a}`,
    "data-sends": a, disabled: !c.legal.has(a), onclick: () => c.send(a), ...more }, label);
  const rows = decision === "thief" ? giftRows(c, choices, button)
    : [el("div", { class: "row" }, ...choices.map((a) => button(a, decisionLabel(c, a))))];
  // what the thing chosen does, said where it is chosen (a newcomer took a City tile and a Medal not knowing)
  const why = { city: t("A City tile pays for one resource of its colour on a road, then lies face down until "
      + "you reach a city again, which turns all your tiles face up."),
    medal: medalWords(c) }[decision];
  return [el("section", { class: "prompt", id: "decision", role: "group", "aria-labelledby": "decision-title" },
    el("h2", { id: "decision-title", "aria-live": "polite" }, title),
    why ? el("p", { class: "small", "data-key": "decision:why" }, why) : null, ...rows)];
}

// The Kind-Hearted Thief's gifts, a row for each other traveler: "To Ben:" and a token for each resource the giver
// holds, its words in its name. A button of words for each pair (eight with two travelers and four resources) had
// run below a tablet's screen, the heading scrolled away to reach them.
function giftRows(c, choices, button) {
  const to = new Map();
  for (const a of choices) {
    const seat = Number(a.split(" ")[3]);
    to.set(seat, [...(to.get(seat) || []), a]);
  }
  return [...to].map(([seat, gifts]) => el("div", { class: "row gifts", "data-key": `gifts:${seat}` },
    el("span", { class: "gifts-to" }, t("To {player}:", { player: c.seatName(seat) })), ...gifts.map((a) => {
      const w = a.split(" ");
      const colour = w[1] === "t" ? "treasure" : colourOf(c, w[1]);
      const said = actionLabel("kids", a, c.seatName);
      return button(a, hidden(chip(colour, null, named(colour))), { class: "primary gift", "aria-label": said,
        title: said });
    })));
}


// What a Medal changes (nothing: ruling 23), and who wins: every traveler in the Palace when the game ends, unless
// the holder of the Queen's Gem (Mysteries) reaches it, who then wins alone. (It had said the victory was shared to
// the Gem's holder, who wins alone.)
function medalWords(c) {
  const gem = c.view.seats.find((s) => s.queens_gem);
  if (gem && gem.seat === c.me) return t("Any Medal will do: you hold the Queen's Gem, so you win alone.");
  if (gem) {
    return t("Any Medal will do: every traveler in the Palace when the game ends shares the victory, unless "
      + "{player}, who holds the Queen's Gem, reaches it too: then they win alone.", { player: c.seatName(gem.seat) });
  }
  return t("Any Medal will do: every traveler in the Palace when the game ends shares the victory.");
}

// The places a move touched: the road travelled and where the traveler is now, the resources taken or returned.
function touched(c, text, s) {
  const w = text.split(" ");
  const keys = [];
  if (w[0] === "move") keys.push(`road:${w[1]}`, `seat:${s}:space`);
  if (w[0] === "take" || w[0] === "return" || w[0] === "discard") {
    for (const l of w.slice(1)) { const col = colourOf(c, l); if (col) keys.push(`supply:${col}`, `seat:${s}:token:${col}`); }
  }
  return keys;
}

// Every road of the board in words, folded under "How to play": its number, the places it leads from and to, what it
// costs. The board's picture named a road "road 1: move" alone, and only the roads from your place were in words,
// so a player who cannot see the picture could not plan a route. Made once: a game's board never changes, and the
// reader's open or closed stays theirs.
function roadList(c) {
  const help = document.getElementById("help");
  if (!help || document.getElementById("road-list")) return;
  const names = Object.fromEntries(c.view.board.spaces.map((s) => [s.id, t(s.name)]));
  help.append(el("details", { class: "panel road-list", id: "road-list" }, el("summary", {}, t("Every road, in words")),
    el("ul", {}, ...c.view.board.roads.map((r) => el("li", { "data-road": r.number },
      t("Road {road}: {from} → {to}; it costs", { road: r.number, from: names[r.from], to: names[r.to] }), " ",
      ...r.cost.map((col) => chip(col, null, named(col))))))));
}

// After the table is drawn: a refusal about a token or a road is placed beside it (supply.placeNote, placeRoadNote),
// and a zoomed board is scrolled to your pawn when it moves (not at every update, so a player who panned away stays
// where they panned).
export function after(c) {
  roadList(c);
  placeNote();
  const box = document.getElementById("board");
  if (box) placeRoadNote(box);
  if (!zoomed(c)) { c.state.centred = null; return; }   // zoomed again (or on another screen): centred again
  const pawn = box ? box.querySelector(`.pawn[data-seat="${c.me ?? 0}"]`) : null;
  // the old picture is drawn while the new one loads: its pawn still stands where it stood
  if (!pawn || svgCache.key !== boardKey(c)) return;
  const here = c.view.seats[c.me ?? 0].space;     // not every new picture: a board panned away stays where it is
  if (c.state.centred === here) return;
  c.state.centred = here;
  const at = pawn.getBoundingClientRect();
  const frame = box.getBoundingClientRect();
  // centred in the part of the board in sight: a phone's fixed dock covers the board's foot
  const dock = document.getElementById("dock");
  const dockTop = dock && getComputedStyle(dock).position === "fixed" ? dock.getBoundingClientRect().top : Infinity;
  const top = Math.max(frame.top, 0);
  const bottom = Math.min(frame.bottom, dockTop);
  const middle = bottom - top > at.height * 2 ? (top + bottom) / 2 : frame.top + frame.height / 2;
  box.scrollLeft += at.left + at.width / 2 - (frame.left + frame.width / 2);
  box.scrollTop += at.top + at.height / 2 - middle;
}

export function moveMarks(c, entry) { return touched(c, entry.action, entry.seat); }
export function hintMarks(c, action) { return touched(c, action, c.me); }

// Keys: a resource's letter picks it; a road's number (typed within a second) opens its payments; on a prompt
// with one button per resource, its letter.
export function key(c, k) {
  if (c.view.decision !== "action") {          // the letter finds the token's button; Enter sends it
    const button = document.querySelector(`#decision button[data-action="return ${k}"]:not([disabled]), `
      + `#decision button[data-action="discard ${k}"]:not([disabled])`);
    if (button) { button.focus(); return true; }
    return false;
  }
  if (/^[0-9]$/.test(k)) {
    clearTimeout(c.state.roadTimer);
    c.state.roadDigits = `${c.state.roadDigits || ""}${k}`;
    const typed = c.state.roadDigits;
    const roads = movesByRoad(c);
    const go = () => {
      c.state.roadDigits = "";
      if (roads[typed]) openRoad(c, typed);
      else c.note("keys", t("You cannot move along road {road} now.", { road: typed }));
    };
    const longer = Object.keys(roads).some((n) => n !== typed && n.startsWith(typed));
    if (longer) c.state.roadTimer = setTimeout(go, 900); else go();
    return true;
  }
  const colour = colourOf(c, k);
  if (colour) { pickByKey(c, colour); return true; }
  return false;
}

export function confirm(c) { return confirmTake(c); }
export function cancel(c) { return cancelTake(c); }
