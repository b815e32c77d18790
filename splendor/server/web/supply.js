// The supply of every game, and taking from it: clicks (or a colour's letter) choose tokens, Take (or Enter) sends
// the choice, Clear (or Escape) lets it go. Nothing is sent by a click on a token. A token that cannot join the
// choice leaves it as it was and the rule that forbids it is said beside the supply, as the server words it.
import { chip, el, LETTER } from "/static/common.js";
import { list, t } from "/static/i18n.js";
import { tokenName } from "/static/words.js";

export function takeOptions(c) { return [...c.legal].filter((a) => a.startsWith("take ")); }
function takeText(sel) { return `take ${sel.map((x) => LETTER[x]).join(" ")}`; }
// Whether the seat is to choose its turn's action now (not a return, a noble or another decision).
export const choosing = (c) => c.mine && c.view.decision === "action";

const DOUBLE_CLICK_MS = 600;   // a click this soon after sending a move is the same click's second half

// A click on a token, a card, a deck or a road while another seat is to play: said beside it ("It is bob's turn.";
// with no key, in the dock), where it had done nothing and said nothing. Null where there is nothing to say: your
// turn, a spectator, the end, a game still waiting for players, a seat a bot plays on.
export function notYourTurn(c, key) {
  const who = c.view.current_player;
  if (c.mode !== "play" || c.mine || c.view.is_over || who === null || who === undefined || who === c.me) return null;
  const seats = c.state.payload.seats || [];
  if (seats.some((s) => s.kind === "open") || seats[c.me]?.forfeit) return null;   // not begun; a bot plays it on
  // the second click of a double click that sent your move, landing after the table moved on: not a new click to
  // answer (it had said "Not yet: it is bob's turn." of the move just made, on a busy machine)
  if (Date.now() - (c.state.sentAt || 0) < DOUBLE_CLICK_MS) return null;
  const text = t("Not yet: it is {player}'s turn.", { player: c.seatName(who) });
  if (key) return () => c.note(key, text);
  // no place beside it (a card, a deck): said in the dock, in sight on a phone scrolled away from the supply
  return () => c.showError(text);
}

// A colour of the supply by its notation letter ("r" → "red").
export function colourOf(c, letter) { return Object.keys(c.view.supply).find((col) => LETTER[col] === letter); }

// Whether a take (its letters) holds every chosen token.
function holds(take, sel) {
  const left = take.split(" ").slice(1);
  return sel.every((x) => { const i = left.indexOf(LETTER[x]); if (i < 0) return false; left.splice(i, 1); return true; });
}

// Whether the chosen tokens can still become a legal take (some legal take holds them all).
function partOfATake(c, sel) { return takeOptions(c).some((a) => holds(a, sel)); }

// What a choice that is not yet a take still needs, said beside Take so that a greyed Take is never a riddle: the
// fewest more tokens a legal take holding the chosen ones has, and for a lone token whether two of it is a take.
function stillNeeded(c, sel) {
  const distinct = takeOptions(c).filter((a) => new Set(a.split(" ")).size === a.split(" ").length && holds(a, sel));
  const more = Math.min(...distinct.map((a) => a.split(" ").length - 1 - sel.length));
  if (!Number.isFinite(more) || more <= 0) return "";
  const twice = sel.length === 1 && c.legal.has(takeText([sel[0], sel[0]]));
  const need = t("Take needs {n} more, each of another colour", { n: more });
  return twice ? `${need} ${t("(or pick this one again for two of it)")}` : need;
}

// A colour's letter: that token is picked, as by a click, and the focus leaves the card, road or button it was on
// (a card's menu closed by Escape gives it back its card), so that the next Enter sends the tokens chosen and
// not that card's menu, whose Reserve or Buy a second Enter would have sent.
export function pickByKey(c, colour) {
  const focused = document.activeElement;
  if (focused instanceof HTMLElement && focused !== document.body && !focused.closest("#supply")) focused.blur();
  pick(c, colour);
}

// A click on a colour: added to the tokens being chosen; a chosen one clicked again becomes two of it when it was
// alone, else it is put back.
export function pick(c, colour) {
  if (!choosing(c)) return;
  const order = Object.keys(c.view.supply);
  const sel = c.state.selection;
  let next;
  if (sel.includes(colour)) {
    next = sel.length === 1 ? [colour, colour] : sel.filter((x) => x !== colour);
  } else {
    next = [...sel, colour].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }
  const attempt = takeText(next);
  // A lone token clicked again when two of it cannot be taken: it is put back, and why not two is said.
  const back = sel.length === 1 && sel[0] === colour && !partOfATake(c, next);
  if (back) { c.state.selection = []; c.render(); }
  else if (next.length === 0 || partOfATake(c, next)) {
    c.state.selection = next;
    c.state.note = null;
    c.render();
    return;
  }
  const at = c.state.payload.actions;
  c.explain([attempt]).then((r) => {
    if (c.state.payload.actions !== at) return;
    const why = r[attempt] || t("that cannot be taken now");     // the choice changed too: said first
    c.note(`supply:${colour}`, back ? t("{token} put back: {why}", { token: tokenName(c.game, colour), why }) : why);
  });
}

// The tokens chosen so far in words: "green, blue and red"; two of one colour, "two green tokens" (not "green and
// green", which reads as a slip).
function chosenWords(game, sel) {
  return sel.length === 2 && sel[0] === sel[1] ? t("two {token} tokens", { token: tokenName(game, sel[0]) })
    : list(sel.map((x) => tokenName(game, x)));
}

// Said while a take is chosen that brings the seat past what it may hold (10 tokens; a Kids purse, 8): how many it
// will return, before it is sent, not found out after (a newcomer's take of three at 10 came back as a chore).
function overTheLimit(c, taking) {
  const me = c.view.seats[c.me];
  const held = c.game === "kids" ? me.purse_total : Object.values(me.tokens).reduce((a, b) => a + b, 0);
  const most = c.game === "kids" ? 8 : 10;
  const back = held + taking - most;
  return back > 0 ? t("you will hold {n}, {most} at most: you will return {back}", { n: held + taking, most, back }) : "";
}

export function supply(c, heading, ...extra) {
  const counts = {};
  for (const x of c.state.selection) counts[x] = (counts[x] || 0) + 1;
  const chips = Object.entries(c.view.supply).map(([colour, n]) => {
    const node = chip(colour, n, { title: tokenName(c.game, colour),
      onclick: choosing(c) ? () => pick(c, colour) : null, button: true });
    node.setAttribute("data-key", `supply:${colour}`);
    if (!n) node.classList.add("empty");
    node.setAttribute("data-left", n);
    if (counts[colour]) {
      node.classList.add("selected");
      node.setAttribute("aria-pressed", "true");
      node.append(el("span", { class: "picked", "aria-hidden": "true" }, counts[colour] > 1 ? "✓✓" : "✓"));
    }
    // on another's turn the token stays disabled (to a screen reader too): a click on it says why, from around it
    return el("span", { class: "named", onclick: choosing(c) ? null : notYourTurn(c, `supply:${colour}`) }, node,
      el("span", { class: "caption" }, tokenName(c.game, colour)));
  });
  const sel = c.state.selection;
  const current = takeText(sel);
  const needed = sel.length && !c.legal.has(current) ? stillNeeded(c, sel) : "";
  const over = sel.length ? overTheLimit(c, sel.length) : "";
  const choice = sel.length ? el("div", { class: "choice", id: "take-choice" },
    el("span", { class: "chosen-words" }, t("chosen: {tokens}", { tokens: chosenWords(c.game, sel) })),
    needed || over ? el("span", { class: "needs" },
      needed ? el("span", { class: "still-needed", id: "take-needs" }, needed) : null,
      over ? el("span", { class: "still-needed", id: "take-over" }, over) : null) : null,
    el("div", { class: "row" }, el("button", { class: "primary", "data-key": "take", disabled: !c.legal.has(current),
      "data-sends": current, onclick: () => c.send(current) }, t("Take")),
    el("button", { "data-key": "clear", onclick: () => { c.state.selection = []; c.state.note = null; c.render(); } },
      t("Clear")))) : null;
  return el("section", { class: "panel supply", id: "supply" }, el("h2", {}, heading),
    el("div", { class: "chips" }, ...chips), choice,
    el("p", { class: "note-beside", id: "supply-note", role: "status",
      "data-beside": c.state.note && c.state.note.key.startsWith("supply:") ? c.state.note.key : null },
    c.state.note && !c.state.note.key.startsWith("road:") ? c.state.note.text : ""),   // a road's: on the board
    ...extra);
}

// Enter: send the chosen tokens, when they make a legal take.
export function confirmTake(c) {
  const current = takeText(c.state.selection);
  if (c.state.selection.length && c.legal.has(current)) { c.send(current); return true; }
  return false;
}

// Escape: let go of what is being built (the tokens, an open menu or road, a note).
export function cancelTake(c) {
  clearTimeout(c.state.roadTimer);
  c.state.roadDigits = "";
  if (!c.state.selection.length && !c.state.menu && !c.state.note && !c.state.road) return false;
  c.state.selection = [];
  c.state.note = null;
  c.state.menu = null;
  c.state.road = null;
  c.render();
  return true;
}

// After the table is drawn: a refusal about a token is said beside that token, where the supply is a column (the
// stylesheet floats it there, over the market's edge, taking no click); at the column's foot it could be a
// screen's height away from the click, or below the screen. A resized screen is drawn again, so placed again.
export function placeNote() {
  const note = document.getElementById("supply-note");
  const key = note && note.dataset.beside;
  const token = key && document.querySelector(`#supply [data-key="${key}"]`);
  if (!token) return;
  const supply = document.getElementById("supply").getBoundingClientRect();
  const at = token.getBoundingClientRect();
  note.style.setProperty("--at", `${Math.round(at.top - supply.top)}px`);
  // where the supply is a row above the market the note hangs under the token instead, kept inside the row
  note.style.setProperty("--x", `${Math.round(at.left + at.width / 2 - supply.left)}px`);
  note.style.setProperty("--w", `${Math.round(supply.width)}px`);
  // and where the supply scrolls (Pokémon's, on a laptop), from the screen's edge: a note inside a scrolling box is
  // cut at its edge, and only the arrow's tip had shown
  note.style.setProperty("--vx", `${Math.round(supply.right + 6)}px`);
  note.style.setProperty("--vy", `${Math.round(at.top)}px`);
}
