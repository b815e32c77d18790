// Shared helpers of the browser client: building and morphing elements, API calls, colours (each with a letter
// and a symbol), plain words.
import morphdom from "/static/vendor/morphdom.js";
import { N_, language, t } from "/static/i18n.js";

export const LETTER = { white: "w", blue: "b", green: "g", red: "r", black: "k", gold: "y", pink: "p",
  yellow: "y", master: "m", brown: "h", treasure: "t" };
export const SYMBOL = { white: "◇", blue: "●", green: "▲", red: "♦", black: "■", gold: "★", pink: "♥",
  yellow: "✦", master: "M", brown: "⬢", treasure: "✪" };
// Each colour's plain name, a token's label when its caller gives none.
const COLOUR_WORD = { white: N_("white"), blue: N_("blue"), green: N_("green"), red: N_("red"), black: N_("black"),
  gold: N_("gold"), pink: N_("pink"), yellow: N_("yellow"), master: N_("Master Ball"), brown: N_("brown"),
  treasure: N_("Treasure") };

// A node's handlers live in node._on and are called through one listener per event type that reads them at the
// time of the event. When morph() keeps an element and drops its freshly built twin, it moves the twin's handlers
// onto the kept element: the element under the pointer or the focus stays, and does what the new page says.
// An element marked aria-disabled (an action is in flight) ignores its handlers.
function wire(node, type) {
  node._wired = node._wired || new Set();
  if (node._wired.has(type)) return;
  node._wired.add(type);
  node.addEventListener(type, (event) => {
    const handler = node._on && node._on[type];
    if (handler && node.getAttribute("aria-disabled") !== "true") handler(event);
  });
}

export function on(node, type, handler) {
  node._on = node._on || {};
  node._on[type] = handler;
  wire(node, type);
  return node;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) { if (v) on(node, k.slice(2), v); }
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c.nodeType ? c : String(c));
  return node;
}

// Elements are matched across updates by id, else by data-key (what they show), so an update changes the page
// in place: the same card, chip or button stays the same element.
function nodeKey(node) {
  if (node.nodeType !== 1) return undefined;
  return node.id || node.getAttribute("data-key") || undefined;
}

function keepHandlers(from, to) {
  from._on = to._on;
  for (const type of Object.keys(to._on || {})) wire(from, type);
  return true;
}

export function keyed(node, key) { node.setAttribute("data-key", key); return node; }

// The choices of a decision made several times over (returning tokens one at a time, a drought's discards): the
// ones offered when it began, in their places, so that a second tap where a button was never lands on another
// colour (the buttons after an emptied colour moved up, and two quick taps returned the wrong token). A choice
// no longer offered stays, greyed (`c.legal` says which). Any other decision lets them go.
const REPEATED = new Set(["return", "drought"]);    // the decisions (not their actions' verbs: a drought discards)
export function steadyChoices(c, decision, actions) {
  const kept = c.state.steady;
  if (!REPEATED.has(decision)) { c.state.steady = null; return actions; }
  if (!kept || kept.decision !== decision || actions.some((a) => !kept.actions.includes(a))) {
    c.state.steady = { decision, actions: [...actions] };
  }
  return c.state.steady.actions;
}

// When this element's count grows after another seat's move, a picture of the element keyed ``from`` flies to it.
export function travelsFrom(node, from) { node.setAttribute("data-travel", from); return node; }

// Make target's children those given, changing only what differs. With highlight, the keyed elements that are
// new or whose text changed are marked "changed" for a moment (the innermost ones: the token count, not its seat).
// pieces: where the movable pieces were before this update (piecesNow(), taken once before the table's parts are
// morphed), so that a piece can fly from one part of the table to another.
export function morph(target, children, highlight = false, pieces = null) {
  const fresh = target.cloneNode(false);
  for (const c of [children].flat(2)) if (c !== null && c !== undefined) fresh.append(c.nodeType ? c : String(c));
  const before = new Map();
  if (highlight) for (const node of target.querySelectorAll("[data-key]")) before.set(node.dataset.key, node.textContent);
  const places = highlight && moving() ? pieces || piecesNow() : null;
  morphdom(target, fresh, { childrenOnly: true, getNodeKey: nodeKey, onBeforeElUpdated: keepHandlers });
  if (!highlight || !before.size) return;
  const changed = [...target.querySelectorAll("[data-key]")].filter((node) =>
    before.get(node.dataset.key) !== node.textContent);
  for (const node of changed) {
    if (changed.some((other) => other !== node && node.contains(other))) continue;
    node.classList.remove("changed");
    void node.offsetWidth;                         // restart the animation when it changes again
    node.classList.add("changed");
    setTimeout(() => node.classList.remove("changed"), 2500);
  }
  if (places) travel(target, changed, before, places);
}

// Chips travel from the supply to the seat that took them, and a bought card to its buyer's stack: a picture of
// the piece flies from where it was to where it went. The pictures never take a click (pointer-events: none),
// and nothing moves for a reader who asked for reduced motion.
function moving() { return !matchMedia("(prefers-reduced-motion: reduce)").matches; }

export function piecesNow() {
  if (!moving()) return null;
  const places = new Map();
  for (const node of document.querySelectorAll("[data-key^='supply:'], [data-key^='card:']")) {
    const rect = node.getBoundingClientRect();
    if (rect.width) places.set(node.dataset.key, { rect, picture: node.cloneNode(true), bonus: node.dataset.bonus });
  }
  return places;
}

function count(text) { const n = Number((text || "").match(/\d+/g)?.pop()); return Number.isFinite(n) ? n : 0; }

function travel(root, changed, before, places) {
  const here = new Set([...document.querySelectorAll("[data-key^='card:']")].map((node) => node.dataset.key));
  for (const node of changed) {
    const from = node.dataset.travel;
    if (!from) continue;
    let source = null;
    if (from.startsWith("card-of:")) {
      const colour = from.slice(8);
      source = [...places.entries()].find(([key, p]) => key.startsWith("card:") && !here.has(key)
        && p.bonus === colour)?.[1];
    } else if (count(node.textContent) > count(before.get(node.dataset.key))) {
      source = places.get(from);
    }
    if (source) fly(source, node.getBoundingClientRect());
  }
}

function fly(source, to) {
  const { rect, picture } = source;
  picture.classList.remove("changed", "selected", "affordable", "evolve-target");
  picture.classList.add("traveller");
  for (const left of picture.querySelectorAll(".n, .picked")) left.remove();  // a token flies, not its pile's count
  picture.removeAttribute("data-key");
  picture.removeAttribute("id");
  picture.setAttribute("aria-hidden", "true");
  Object.assign(picture.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`,
    height: `${rect.height}px` });
  document.body.append(picture);
  const dx = to.left + to.width / 2 - (rect.left + rect.width / 2);
  const dy = to.top + to.height / 2 - (rect.top + rect.height / 2);
  const scale = Math.max(0.3, Math.min(1, to.width / rect.width));
  const flight = picture.animate([{ transform: "translate(0, 0) scale(1)", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.7 }],
  { duration: 700, easing: "ease-in-out" });
  flight.onfinish = () => picture.remove();
  setTimeout(() => picture.remove(), 1500);          // gone even if the animation never ran
}

// Whether this device has a mouse or a trackpad, so likely a keyboard to type a colour's letter with. A phone or a
// tablet has neither: there a letter is only a riddle ("k" on a mushroom, to a child).
const TYPING = matchMedia("(any-pointer: fine)").matches;

// What a token shows besides its colour: its shape symbol, and in English, where a keyboard can type it, also its
// letter, the one the typed notation uses ("◇w"). Other languages name the colours with other letters ("b" is
// bela, white, in Slovenian), so there the symbol stands alone.
export function tokenMark(colour) {
  const symbol = SYMBOL[colour] || "";
  return language === "en" && TYPING ? `${symbol}${LETTER[colour] || ""}` || colour : symbol || colour;
}

// A token. With opts.button it is always a button (aria-disabled while it cannot be picked), so it stays the same
// element, focusable, whether or not it is the seat's turn.
export function chip(colour, count = null, opts = {}) {
  const label = tokenMark(colour);
  const tag = opts.onclick || opts.button ? "button" : "span";
  const title = opts.title || (COLOUR_WORD[colour] ? t(COLOUR_WORD[colour]) : colour);
  // a span's aria-label is heard only with a role: a screen reader had read the symbols ("♦r 3")
  const node = el(tag, { class: `chip c-${colour}`, title, "data-colour": colour, role: tag === "span" ? "img" : null,
    "aria-label": `${title}${count !== null ? " " + count : ""}`, onclick: opts.onclick,
    type: tag === "button" ? "button" : null, "aria-disabled": tag === "button" && !opts.onclick ? "true" : null },
    label);
  if (count !== null) node.append(el("span", { class: "n" }, ` ${count}`));
  return node;
}

// Why an action was not played, in words: the rules' refusal ("Not allowed: …"), or, where the server could not
// answer (no connection, a store that did not answer), that it is not known to be played, so that nobody reads a
// lost connection as a rule.
export function notPlayed(error) {
  if (error.unsent) {          // not sent, or sent and its answer lost: the table, once back, says which
    return t("No answer: the connection to the server is lost. Once it is back, look at the table, then try again.");
  }
  return error.status >= 500 ? t("Not confirmed: {reason}", { reason: error.message })
    : t("Not allowed: {reason}", { reason: error.message });
}

export async function api(path, options = {}) {
  const { headers = {}, ...rest } = options;
  let response;
  try {
    response = await fetch(path, { ...rest, headers: { "content-type": "application/json",
      "accept-language": language, ...headers } });        // refusals come back in the reader's language
  } catch (e) {
    if (e.name === "AbortError") throw e;
    const lost = new Error(t("there is no connection to the server"));   // not the server's refusal: unsent
    lost.unsent = true;
    throw lost;
  }
  const text = await response.text();
  let body = text;
  try { body = JSON.parse(text); } catch (e) { /* plain text */ }
  if (!response.ok) {
    const detail = body && body.detail ? (typeof body.detail === "string" ? body.detail
      : body.detail.map((d) => d.msg).join("; ")) : text;
    const refused = new Error(detail);
    refused.status = response.status;
    refused.retryAfter = Number(response.headers.get("retry-after")) || 0;   // seconds to wait, after a 429
    throw refused;
  }
  return body;
}

// Who is signed in in this browser: the account as GET /api/me tells it, or null for a guest. Asked of GET
// /api/session, which answers a guest without an error: /api/me's 401 had shown as a failed request in the console
// of every page a guest opened.
export async function signedIn() { return (await api("/api/session")).account; }

// A seat's name as every page shows it: the name it was given, its account's, or "Player N"; a bot by its level;
// a seat nobody holds yet as open. ``info`` is a seat as the server lists it (seat, kind, bot, name).
export function seatLabel(info) {
  const number = info.seat + 1;
  if (info.kind === "open") {                       // kept: a rematch's, for its person of the game before
    return info.kept ? t("{player} (invited)", { player: info.name || t("Player {number}", { number }) })
      : t("Player {number} (open seat)", { number });
  }
  if (info.name) return info.kind === "bot" ? t(info.name) : info.name;
  return info.kind === "bot" ? info.bot : t("Player {number}", { number });
}

// Every seat's name as the pages show it, two seats of one name told apart by their numbers ("Greedy bot 2",
// "Greedy bot 3"): the table, the log and the lobby's lists alike.
export function seatLabels(seats) {
  const plain = seats.map(seatLabel);
  return plain.map((name, i) => (plain.filter((n) => n === name).length > 1 ? `${name} ${i + 1}` : name));
}

// A chance (0 to 1) as the whole percent every face shows, the hint's and the review's alike: from its thousandths
// (as the server's JSON keeps them), a half rounded up, as the terminal does (splendor.bots.review.percent).
export function wholePercent(chance) { return Math.floor((Math.round(chance * 1000) + 5) / 10); }

// Beside a seat's name on its panel, where its person resigned, ran out of time or sat idle in a game of three or
// four (c.playedOn, table.js): "a bot plays on", not only in the log.
export function playedOnMark(c, seat) {
  return c.playedOn(seat) ? [" ", el("span", { class: "badge played-on", "data-key": `seat:${seat}:played-on` },
    t("a bot plays on"))] : [];
}

// The server's bound of a name (an account's, a guest's, a profile's, a spectator's in the chat), checked before
// sending: a box that stopped the typing at it cut a name short without a word.
const NAME_MAX = 40;
export function nameProblem(name) {
  if (!name) return t("Write a name.");
  const counted = name.normalize("NFKC").replace(/\s+/g, " ");     // as the server counts it (store/names.py)
  return [...counted].length > NAME_MAX ? t("A name is at most {max} characters.", { max: NAME_MAX }) : null;
}

const TITLES = { classic: N_("Splendor"), pokemon: N_("Splendor: Pokémon"), kids: N_("Splendor Kids") };

// A game's name in the reader's language, with the variant it is dealt in where it has one (a Kids game's
// ``short`` or ``mysteries`` option, or its view's): "Splendor Kids (Mysteries variant)". Whoever joins or
// watches a game from a list knows which game it is before sitting down.
export function gameTitle(game, options = {}) {
  const name = TITLES[game] ? t(TITLES[game]) : game;
  const variant = options?.mysteries ? t("Mysteries variant") : options?.short ? t("short game") : null;
  return variant ? t("{game} ({variant})", { game: name, variant }) : name;
}

// A select that this browser remembers: its last choice comes back at the next visit (a player of Pokémon had
// chosen it again after every game), told to the page by a change event; a choice it no longer offers is let go.
export function remembered(select, key) {
  const kept = localStorage.getItem(key);
  if (kept !== null && [...select.options].some((o) => o.value === kept && !o.disabled) && select.value !== kept) {
    select.value = kept;
    select.dispatchEvent(new Event("change"));
  }
  select.addEventListener("change", () => localStorage.setItem(key, select.value));
}

export function params() { return new URLSearchParams(location.search); }

// The Pokédex profile this browser claimed: its name and its secret, kept here only (the server keeps a hash).
const PROFILE_KEY = "splendor-profile";

export function myProfile() {
  try {
    const kept = JSON.parse(localStorage.getItem(PROFILE_KEY) || "null");
    return kept && typeof kept.name === "string" && typeof kept.secret === "string" ? kept : null;
  } catch (e) { return null; }
}

export function keepProfile(name, secret) { localStorage.setItem(PROFILE_KEY, JSON.stringify({ name, secret })); }

export function forgetProfile() { localStorage.removeItem(PROFILE_KEY); }

// The games this browser plays, newest first (at most 30): each seat's link holds its secret, so it stays here.
const GAMES_KEY = "splendor-my-games";

export function myGames() {
  try {
    const kept = JSON.parse(localStorage.getItem(GAMES_KEY) || "[]");
    return Array.isArray(kept) ? kept.filter((g) => g && typeof g.id === "string" && typeof g.link === "string") : [];
  } catch (e) { return []; }
}

// The seat this browser played in a game, by its kept link ("Your games"): its number and its secret's header, or
// null. Watching a game it resigned, or its replay, a browser is still that seat's person (the chat's players'
// room, the end panel's rematch).
export function keptSeat(gameId) {
  const kept = myGames().find((g) => g.id === gameId && g.seat !== null && g.seat !== undefined);
  if (!kept) return null;
  const token = linkToken(kept.link);
  return { seat: kept.seat, headers: token ? { "x-seat-token": token } : {} };
}

// The seat's secret a kept link carries, or null (a seat kept in an account is opened without one).
export function linkToken(link) {
  return new URLSearchParams((link || "").split("?")[1] || "").get("token");
}

// Signing out: the seats kept in the account leave this browser's "Your games" (the next person at it is not
// shown them as theirs).
export function forgetAccountGames() {
  localStorage.setItem(GAMES_KEY, JSON.stringify(myGames().filter((g) => !g.account)));
}

// Keep a seat's link in this browser's "Your games" (the newest 30), first in the list.
export function keepGame(entry) {
  const others = myGames().filter((g) => !(g.id === entry.id && g.seat === entry.seat));
  localStorage.setItem(GAMES_KEY, JSON.stringify([entry, ...others].slice(0, 30)));
}

// Each seat's own colour and emblem (its number on a disc of that colour), the same on the seats, the log, the
// marks of its last move and, in Kids, its pawn.
export const SEAT_COLOUR = ["#e53935", "#1e88e5", "#fdd835", "#8e24aa"];

export function emblem(seat) {
  return el("span", { class: `emblem seat-${seat}`, "aria-hidden": "true" }, String(seat + 1));
}
