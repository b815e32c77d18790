// A game's table: live over a WebSocket (reconnecting), drawn from the seat's view, played by clicking or by keys.
// The table is one screen: the other seats on one side, the game in the middle, your own seat below it, and the
// dock (whose turn, the decision being built, its errors, the hint) beside it with the log.
import { api, el, emblem, notPlayed, gameTitle, keepGame, linkToken, morph, myGames, myProfile, params, piecesNow,
  SEAT_COLOUR, seatLabels, signedIn, wholePercent } from "/static/common.js";
import { N_, SEMICOLON, capital, language, sentence, speak, t, tn } from "/static/i18n.js";
import { howToPlay } from "/static/rules.js";
import { advice as adviceWords, cardInSight, describe, turnWords } from "/static/words.js";
import {
  RATED_AFTER_MOVES, calledOff, endFolded, endingWords, forfeitWords, mayCountForNobody, renderEnd, verdictWords,
} from "/static/endgame.js";
import { days, renderClocks } from "/static/clocks.js";
import { handleKey, keyForOthers } from "/static/keys.js";
import { makeTutorial, tutorialOn } from "/static/tutorial.js";
import { makeChat } from "/static/chat.js";
import * as marketTable from "/static/market.js";
import * as kidsTable from "/static/kids.js";
import { announceTurn, setupTurnControls } from "/static/yourturn.js";
import { chosenAt, draw as drawReview, reviewMarks, setupReview } from "/static/review.js";

const parts = location.pathname.split("/");
const mode = parts[1];                       // play | watch | replay
const gameId = parts[2];
const query = params();
const seat = mode === "play" ? Number(query.get("seat")) : null;
const token = query.get("token");
// The seat's secret when the link has one; a seat kept in the signed-in account needs none (the session cookie).
const auth = token ? { "x-seat-token": token } : {};
const state = { payload: null, selection: [], busy: false, upto: 0, total: 0, retry: 500, menu: null, road: null,
  focusNext: null, me: null, ratings: null, note: null, error: null, commandError: null, hint: null, reasons: {} };

// The guide of a first game, when the table was opened from the lobby's "Learn to play".
const tutorial = mode === "play" && tutorialOn() ? makeTutorial(gameId) : null;

function table() { return state.payload.game === "kids" ? kidsTable : marketTable; }

// A seat's name as every page shows it (common.js: two seats of the same name told apart by their numbers), and
// yours said as yours.
function seatName(s) {
  const name = seatLabels(state.payload.seats)[s];
  return s === seat ? t("{name} (you)", { name }) : name;
}

// The goal and the round, in the game's words: "first to 15★ · round 3".
function goal(view) {
  const target = state.payload.game === "kids" ? t("first to the Palace of Splendor")
    : t("first to {points}★", { points: view.points_to_win });
  return `${target} · ${t("round {round}", { round: view.round })}`;
}

// Take a state from the server (the answer to an action, or a push), unless one already shown is newer.
function accept(payload) {
  if (!state.payload || payload.actions >= state.payload.actions) state.payload = payload;
  if (mode === "play" && !state.keptHere) keepSeat();
}

// The seat in this browser's "Your games", once the server has shown it to us (its secret, or the account keeping
// it, accepted): an address that was refused, or copied without its secret, is never kept, and never replaces a
// kept link that carries the secret.
function keepSeat() {
  state.keptHere = true;
  const before = myGames().find((g) => g.id === gameId && g.seat === seat);
  if (!token && before && linkToken(before.link)) return;
  keepGame({ id: gameId, game: state.payload.game, seat, link: location.pathname + location.search });
}

// Send one action. While it is in flight every control of the table is marked aria-disabled and ignores clicks,
// so a double click sends once; the answer carries the new state, drawn at once. A typed action's refusal is
// said under the box it was typed in, a click's in the dock beside the table. Whether the server took it.
export async function send(action, typed = false) {
  if (state.busy || state.replaced) return false;   // replaced: another tab plays the seat now
  if (tutorial && !tutorial.allows(ctx(), action)) return false;
  state.error = null;
  state.commandError = null;
  state.note = null;
  state.selection = [];
  state.menu = null;
  state.road = null;
  state.busy = true;
  state.sentAt = Date.now();        // (a double click's second click, after the table moved on, is no new click)
  render();                         // the tokens picked for the action are cleared now, not when the answer comes
  const late = new AbortController();                 // a table never stays locked: no answer in 20 s, try again
  const timer = setTimeout(() => late.abort(), 20000);
  const at = state.payload.actions;
  let taken = false;
  try {
    accept(await api(`/api/games/${gameId}/actions`, { method: "POST", headers: auth,
      body: JSON.stringify({ seat, action, expect: at }), signal: late.signal }));
    taken = true;
  } catch (e) {
    let now = at;
    if (e.status === 409) {     // moved on meanwhile (another tab of this seat, a clock): the refusal is said with
      try {                     // the position that moved on, not dropped when that position's push comes
        accept(await api(`/api/games/${gameId}?seat=${seat}`, { headers: auth }));
        now = state.payload.actions;
      } catch (again) { /* the push brings it; the refusal goes with the position it was made in */ }
    }
    const text = late.signal.aborted ? t("The server did not answer in time: look at the table, then try again.")
      : notPlayed(e);
    if (typed) state.commandError = { text, at: now }; else state.error = { text, at: now };
  } finally {
    clearTimeout(timer);
    state.busy = false;
    render();
  }
  return taken;
}

// Why each of these actions would be refused now, in the rules' words (null where legal): asked of the server,
// which judges exactly as it would judge the action, once per position.
async function explain(actions) {
  const at = state.payload.actions;
  if (state.reasons.at !== at) state.reasons = { at, of: {} };
  const known = state.reasons.of;
  const asking = actions.filter((a) => !(a in known));
  if (asking.length && mode === "play") {
    try {
      const answer = await api(`/api/games/${gameId}/seats/${seat}/explain`, { method: "POST", headers: auth,
        body: JSON.stringify({ actions: asking.slice(0, 32) }) });
      if (state.reasons.at === at) Object.assign(known, answer.reasons);
    } catch (e) {            // said once for this position, never asked again in a loop
      if (state.reasons.at === at) for (const a of asking) known[a] = t("not possible now");
    }
  }
  return Object.fromEntries(actions.map((a) => [a, known[a] ?? null]));
}

// An error said in the dock until the game moves on (every error of the page goes this way, so a redraw never
// wipes one that was just said).
function showError(text) {
  state.error = { text, at: state.payload ? state.payload.actions : null };
  if (state.payload) render(); else document.getElementById("error").textContent = text;
}

// A short word next to what was clicked ("gold tokens cannot be taken; …"), gone when the game moves on or the
// next click says something else.
function note(key, text) {
  state.note = text ? { key, text, at: state.payload.actions } : null;
  render();
}

function ctx() {
  const view = state.payload.view;
  const legal = new Set(view.legal_actions);
  // moved: the game went on since the table was last drawn (not merely a menu opened), so what changed is marked
  const moved = mode !== "replay" && state.drawn !== undefined && state.payload.actions !== state.drawn;
  return { view, game: state.payload.game, me: seat, legal, mine: legal.size > 0, send, state, render, gameId,
           seatName, moved, explain, note, showError, mode, lastMoveOf, playedOn };
}

// A seat whose person resigned, ran out of time or sat idle in a game of three or four: a bot plays it on (in a
// replay, from the move it left). Its panel says so, not only the log.
function playedOn(s) {
  const left = state.payload.seats[s] && state.payload.seats[s].forfeit;
  return Boolean(left) && (mode !== "replay" || left.at <= state.upto);
}

function renderStatus() {
  const { view } = state.payload;
  const status = document.getElementById("status");
  document.body.classList.toggle("replaced", Boolean(state.replaced));
  if (state.replaced) {          // a newer tab has the seat: this one shows what it last heard, and plays nothing
    status.classList.remove("mine");
    morph(status, [t("This seat is open in another tab."), " ", el("button", { type: "button", id: "play-here",
      onclick: () => { state.replaced = false; render(); connect(); } }, t("Play here"))]);
    return;
  }
  status.classList.toggle("mine", view.legal_actions.length > 0);
  let text;
  if (mode === "replay") {
    const chosen = chosenAt(state.upto);      // a move the review chose: the table stands just before it
    text = chosen ? t("Review: before move {n} of {total}, {player} to play", { n: chosen.number, total: state.total,
      player: seatName(chosen.seat) })
      : state.upto === 0 ? t("Replay: the start") :
        t("Replay: action {n} of {total} — {what}", { n: state.upto, total: state.total,
          what: describe(state.payload.game, state.lastAction, state.lastDetails, seatName, state.lastSeat) });
    // then: a seat that left here (resigned, or idle past the limit), and how the game ended if no rule ended it
    const left = state.payload.seats.filter((s) => s.forfeit && s.forfeit.at === state.upto);
    const ending = state.replayEnding;
    const then = [...left.map((s) => forfeitWords(s, seatName, mayCountForNobody(state))),
      ...(ending && ending.at === state.upto ? [endingWords(ending, state.payload.seats, seatName)] : [])];
    if (then.length) text = `${sentence(text)} ${then.join(" ")}`;   // "…paying cabbage. ann resigned: bob wins."
  } else if (state.payload.ending) {
    text = endingWords(state.payload.ending, view.seats, seatName, seat);
  } else if (state.payload.seats.some((s) => s.kind === "open")) {       // open seats: nobody plays yet
    text = state.payload.rematch_of      // a rematch's seats wait for the people of the game before, told there
      ? t("Waiting for the other players to accept the rematch: the game starts when they take their seats.")
      : t("Waiting for players: the game starts when every open seat is taken (the lobby lists it).");
  } else if (view.is_over) {
    text = verdictWords(state, seatName, seat) || t("The game is over.");
  } else if (view.legal_actions.length) {
    text = view.decision === "action" ? againAfterVillage() || t("Your turn.")
      : t("Your decision: {decision}.", { decision: decisionWords(view.decision) });
  } else {
    const player = seatName(view.current_player);
    text = view.decision === "action" ? t("{player} is playing…", { player })
      : t("{player} is deciding ({decision})…", { player,
        decision: decisionWords(view.decision) });
  }
  if (view.final_round && !view.is_over) text += ` ${t("Last round!")}`;
  // the goal and the round follow, quieter: what to do now comes first
  const aim = !view.is_over && mode !== "replay" ? el("span", { class: "goal" }, goal(view)) : null;
  const chosen = mode === "replay" ? chosenAt(state.upto) : null;
  const mover = chosen ? chosen.seat : mode === "replay" ? state.lastSeat : view.current_player;
  const still = !chosen && (mode === "replay" && state.upto === 0 || view.is_over);   // nobody's move to mark
  // the end panel folded away to see the final table: shown again from here
  const unfold = view.is_over && endFolded(state) ? el("button", { type: "button", id: "end-show",
    onclick: () => { state.endFolded = null; render(); window.scrollTo({ top: 0 }); } },   // the page's top
  t("Show the result")) : null;
  morph(status, [still ? null : emblem(mover), el("span", { class: "status-text" }, text), aim, unfold]);
}

// Your turn again because your last move reached a village (Kids): said, where "Your turn." alone left a newcomer
// wondering why the bot did not play.
function againAfterVillage() {
  const log = state.payload.log || [];
  let i = log.length - 1;                 // past what a Mysteries tile asked for since (a thief's gift, a treasure's
  while (i >= 0 && /^(give|return|discard) /.test(log[i].action)) i--;         // return, a drought's discards)
  const move = log[i];
  if (!move || move.seat !== seat || !move.details || !move.details.extra_turn) return null;
  const again = t("Your turn again: {place} is a village.", { place: t(move.details.to.name) });
  // the Tornado's effect lasts and shows only as a Marketplace gone: said where the turn is said, not only in the log
  return move.details.village_tile === "Tornado"
    ? `${again} ${t("It turned up the Tornado: the Marketplace's tiles are gone for the rest of the game.")}` : again;
}

const EXAMPLES = { classic: "take w b g, buy 1.2, reserve deck 3", pokemon: "take r b k, catch 2.1, reserve 1.3",
  kids: "take k r g, move 3, take y" };

// A decision in the game's words (Pokémon returns balls, not tokens).
function decisionWords(decision) {
  if (decision === "return" && state.payload.game === "pokemon") return t("balls to return");
  return DECISIONS[decision] ? t(DECISIONS[decision]) : decision;
}

const DECISIONS = { return: N_("tokens to return"), noble: N_("which noble visits"), evolve: N_("whether to evolve"),
  drought: N_("tokens to discard in the Drought"), thief: N_("whom to give a token"), city: N_("which City tile"),
  medal: N_("which Queen's Medal") };

// A seat's last turn in the log, in words ("Greedy bot 2 takes two red"), or null: every action of it, as a take and
// the return it asked for ("… takes one white, one blue and one green; … returns one black": the return alone
// had hidden what was taken).
function lastMoveOf(s) {
  const log = state.payload.log || [];
  let i = log.length - 1;
  while (i >= 0 && log[i].seat !== s) i--;
  const turn = [];
  for (; i >= 0 && log[i].seat === s; i--) turn.unshift(log[i]);
  return turn.length ? turnWords(state.payload.game, turn, seatName).join(SEMICOLON) : null;
}

function said(e) { return sentence(describe(state.payload.game, e.action, e.details, seatName, e.seat)); }

// What no action says, told in the log where it happened: a seat taken from the lobby (before the first action), a
// seat whose person left (a bot played on) and how the game ended when no rule ended it (a resignation, an abort, a
// clock), each after the action it followed.
function leavings() {
  const upto = mode === "replay" ? state.upto : Infinity;
  const out = [];
  for (const s of state.payload.seats) {
    if (s.forfeit && s.forfeit.at <= upto) {
      out.push({ at: s.forfeit.at, text: forfeitWords(s, seatName, mayCountForNobody(state)) });
    }
  }
  const ending = mode === "replay" ? state.replayEnding : state.payload.ending;
  if (ending && ending.at <= upto) {
    out.push({ at: ending.at, text: endingWords(ending, state.payload.seats, seatName, seat) });
  }
  for (const s of state.payload.seats) {   // a seat taken from the lobby, before anyone acted: the host is told (drawn
    if (s.joined) {
      out.push({ at: 0, text: state.payload.rematch_of ? t("{player} accepted the rematch.", { player: seatName(s.seat) })
        : t("{player} joined from the lobby.", { player: seatName(s.seat) }) });
    }
  }                                        // below what happened at 0 since, newest first)
  return out;
}

function renderLog() {
  const log = document.getElementById("log");
  const entries = (state.payload.log || []).slice().reverse();
  // A screen reader hears what the others did since the last update (the live region), not the whole log.
  const fresh = entries.filter((e) => state.heard !== undefined && e.n > state.heard && e.seat !== seat).reverse();
  // (a replay's step is said by the status, a live region too: it had been heard twice)
  if (fresh.length && mode !== "replay") document.getElementById("announce").textContent = fresh.map(said).join(" ");
  state.heard = entries.length ? entries[0].n : 0;
  const told = leavings();
  const after = (n) => told.filter((x) => x.at === n)               // newest first: above the action they followed
    .map((x) => el("li", { class: "log-leaving", "data-key": `log:left:${n}:${x.text}` }, x.text));
  // what happened before the first action goes at the foot, unless the log is cut to its last moves (the payload
  // keeps 60): then it would sit under a move far later than it
  const cut = entries.length > 0 && entries[entries.length - 1].n > 1;
  morph(log, [...entries.flatMap((e) => [...after(e.n),
    el("li", { value: e.n, "data-key": `log:${e.n}`, "data-by": e.seat,    // a declined evolution, said quietly
      class: e.action === "evolve none" ? "log-quiet" : "" }, emblem(e.seat), " ", said(e))]),
  ...(cut ? [] : after(0))]);
}

// The moves the others made since this seat's own last one (a spectator: since the seat to play last played, and
// at the end the last round, from the last mover's move before its last; a replay: the move just stepped to). Each
// stays marked on the table, in its seat's colour, until then.
function lastMoves() {
  const log = state.payload.log || [];
  if (mode === "replay") {               // (a review's chosen move marks its own two moves instead)
    return state.upto > 0 && log.length && !reviewMarks(state.upto).length ? [log[log.length - 1]] : [];
  }
  const ref = mode === "play" ? seat : state.payload.view.turn_of;
  if (ref === null || ref === undefined) {        // nobody is to play: the game is over
    if (!log.length) return [];
    const last = log[log.length - 1].seat;
    let i = log.length - 1;
    while (i >= 0 && log[i].seat === last) i--;   // the last mover's final turn (a take and a return, a move and a
    while (i >= 0 && log[i].seat !== last) i--;   // City tile, a village's turn again), then the others' since its
    return log.slice(i + 1);                       // turn before
  }
  let since = 0;
  for (const e of log) if (e.seat === ref) since = e.n;
  return log.filter((e) => e.n > since && e.seat !== ref);
}

function markAll(keys, cls, bySeat = false) {
  for (const [key, who] of keys) {
    for (const node of document.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) {
      node.classList.add(cls);
      if (bySeat) {
        // a token taken by two seats since your turn shows both: the earlier's ring inside the later's
        // (a seat's second mark of it, "take r r", adds nothing)
        const before = node.dataset.movedBy;
        const last = before ? before.split(" ").pop() : null;
        if (last === String(who + 1)) continue;
        if (last) node.style.setProperty("--mover-before", SEAT_COLOUR[Number(last) - 1]);
        node.style.setProperty("--mover", SEAT_COLOUR[who]);
        node.dataset.movedBy = last ? `${before} ${who + 1}` : String(who + 1);
      }
    }
  }
}

function renderMarks() {
  for (const node of document.querySelectorAll(".moved-last, .hinted, .review-played")) {
    node.classList.remove("moved-last", "hinted", "review-played");
    node.style.removeProperty("--mover");
    node.style.removeProperty("--mover-before");
    delete node.dataset.movedBy;
  }
  const c = ctx();
  const moves = lastMoves();
  const keys = moves.flatMap((e) => table().moveMarks(c, e).map((k) => [k, e.seat]));
  markAll(keys, "moved-last", true);
  // a line a turn: a seat's moves in a row (a move and a village's turn again, a take and a return) are one line,
  // so an upright tablet, which shows the last line only (the log is beside it), still says the whole last turn
  const turns = [];
  for (const e of mode === "replay" ? [] : moves) {
    if (turns.length && turns[turns.length - 1][0].seat === e.seat) turns[turns.length - 1].push(e);
    else turns.push([e]);
  }
  morph(document.getElementById("last-move"), turns.slice(-3).map((turn) => el("span", { class: "move-line",
    "data-key": `last:${turn[0].n}` }, emblem(turn[0].seat), " ",
    turnWords(state.payload.game, turn, seatName).map(sentence).join(" "))));
  if (state.hint && state.hint.action && state.hint.at === state.payload.actions) {
    markAll(table().hintMarks(c, state.hint.action).map((k) => [k, seat]), "hinted");
  }
  // a review's chosen move: the move played and the expert's preferred one, on the position before it
  for (const m of mode === "replay" ? reviewMarks(state.upto) : []) {
    markAll(table().moveMarks(c, { action: m.action, seat: m.seat }).map((k) => [k, m.seat]), m.cls, true);
  }
}

export function render() {
  if (!state.payload) return;
  const trail = focusTrail();
  draw();
  keepFocus(trail);
}

// The rated badge. A rated game without a clock is lost by a person who does not move within the server's limit
// (payload.idle_limit): the badge says that limit and its title the rule, where two friends playing by the day had
// lost a rated game after an hour with nothing on the table to warn them.
function renderRated(calledOffNow) {
  const badge = document.getElementById("rated");
  badge.hidden = !state.payload.rated || calledOffNow;
  const limit = mode === "play" ? state.payload.idle_limit : null;
  const time = limit ? days(limit) : "";
  badge.querySelector(".long").textContent = limit ? t("rated game · {time} a move", { time }) : t("rated game");
  badge.querySelector(".short").textContent = limit ? t("rated · {time}", { time }) : t("rated");
  if (limit) {
    badge.title = t("Rated, without a clock: a player who does not move within {time} forfeits.", { time });
  } else badge.removeAttribute("title");
}

// Where the keyboard's focus is, as the places that hold it, nearest first (by data-key or id, four at most): a
// redraw that removes the focused control (Take once sent, a card's menu once chosen, a decision's button, a
// control disabled under it) hands the focus to what stands in its place, where it had fallen to the page's start.
// The trail stops at the table's own parts (#table, #mine, #prompt): a control outside them (keeping the seat in an
// account) hands the focus to the status, never to whatever button its column holds (Resign).
const TABLE_PARTS = new Set(["table", "mine", "prompt"]);
function focusTrail() {
  const trail = [];
  for (let n = document.activeElement; n && n !== document.body && trail.length < 4; n = n.parentElement) {
    if (n.dataset && n.dataset.key) trail.push(`[data-key="${CSS.escape(n.dataset.key)}"]`);
    else if (n.id) trail.push(`#${CSS.escape(n.id)}`);
    if (TABLE_PARTS.has(n.id)) break;
  }
  if (trail.length && !TABLE_PARTS.has((document.activeElement.closest("#table, #mine, #prompt") || {}).id)) {
    return ["#status"];
  }
  return trail;
}

// Where this hand put the focus is its own until the player moves it (a click, a key): then it is theirs, and a
// decision asked later does not take it from there.
document.addEventListener("pointerdown", () => { state.focusHanded = null; }, true);
document.addEventListener("keydown", () => { state.focusHanded = null; }, true);

function keepFocus(trail) {
  const now = document.activeElement;
  // parked: fallen to the page, or where this hand put it (after Take, the answer's decision is asked next)
  const parked = !now || now === document.body || now.id === "status" || now === state.focusHanded;
  if (!parked) return;
  if (now && now === state.focusHanded) trail = [];
  const usable = (n) => n && !n.disabled && n.getClientRects().length > 0;
  const asked = document.querySelector("#decision button:not([disabled])");   // a decision asked now comes first
  if (asked && (trail.length || (now && (now.id === "status" || now === state.focusHanded)))) {
    asked.focus({ preventScroll: true });
    state.focusHanded = null;
    return;
  }
  for (const selector of trail) {
    const place = document.querySelector(selector);
    if (!place || selector === "#status") continue;
    const target = [place, ...place.querySelectorAll("button, a[href], input, select, [tabindex]")]
      .find((n) => usable(n) && (n.tabIndex >= 0 || n === place && n.matches("button, a[href], input, select")));
    if (target) {
      target.focus({ preventScroll: true });
      state.focusHanded = target;
      return;
    }
  }
  if (trail.length) {                       // nothing stands there now: the status says what happens next
    const status = document.getElementById("status");
    status.tabIndex = -1;
    status.focus({ preventScroll: true });
    state.focusHanded = status;
  }
}

function draw() {
  renderKeep();
  renderInvite();
  const at = state.payload.actions;
  for (const name of ["error", "commandError", "note"]) {            // feedback lasts until the game moves on
    if (state[name] && state[name].at !== at) state[name] = null;
  }
  if (state.building !== at) {             // what was being built belongs to the position it was built in
    state.building = at;
    clearTimeout(state.roadTimer);
    Object.assign(state, { selection: [], menu: null, road: null, pendingTier: null, roadDigits: "" });
  }
  document.getElementById("title").textContent = ` ${gameTitle(state.payload.game, state.payload.view)}`;
  const ending = mode === "replay" ? state.replayEnding : state.payload.ending;   // called off: it counted for none
  renderRated(calledOff(ending));
  const help = document.getElementById("help");
  if (!help.childElementCount) help.append(howToPlay(state.payload.game));   // once: its open state is the reader's
  renderStatus();
  const c = ctx();
  announceTurn({ mine: c.mine, game: c.game, mode, seen: state.drawn !== undefined });   // yourturn.js
  document.body.dataset.game = c.game;
  document.body.dataset.players = String(c.view.seats.length);
  document.body.dataset.mode = mode;
  const drawn = table().draw(c);
  const pieces = c.moved ? piecesNow() : null;                 // so a piece can fly from the market to a seat
  morph(document.getElementById("table"), drawn.table, c.moved, pieces);
  morph(document.getElementById("mine"), drawn.mine, c.moved, pieces);
  morph(document.getElementById("others"), drawn.others, c.moved, pieces);
  morph(document.getElementById("me-strip"), drawn.strip);
  morph(document.getElementById("prompt"), drawn.prompt);
  document.getElementById("mine").hidden = !drawn.mine.length;
  document.getElementById("error").textContent = state.error ? state.error.text : "";
  document.getElementById("command-error").textContent = state.commandError ? state.commandError.text : "";
  renderLog();
  renderEnd({ state, gameId, mode, seat, auth, seatName, render, showError });
  renderMarks();
  if (table().after) table().after(c);
  renderClocks(state.payload, seatName, state.payload.over || state.payload.view.is_over, mode === "play" ? seat : null);
  if (tutorial) tutorial.render(c);
  for (const control of document.querySelectorAll("#tabletop button, #tabletop [role=button]")) {
    if (state.busy && control.closest("#table, #mine, #prompt")) control.setAttribute("aria-disabled", "true");
  }
  document.body.classList.toggle("busy", state.busy);
  // A card's menu stays inside the screen: on a narrow one it is shifted sideways by what would overflow.
  for (const menu of document.querySelectorAll(".menu")) {
    menu.style.transform = "";
    const box = menu.getBoundingClientRect(), room = document.documentElement.clientWidth;
    const shift = box.right > room - 4 ? room - 4 - box.right : box.left < 4 ? 4 - box.left : 0;
    if (shift) menu.style.transform = `translateX(${Math.round(shift)}px)`;
  }
  if (state.focusNext) {
    const target = document.querySelector(state.focusNext);
    state.focusNext = null;
    if (target) {
      target.focus();
      const dock = document.getElementById("dock");
      const docked = getComputedStyle(dock).position === "fixed";   // a phone's: the payments are in it already
      const menu = target.closest(".menu") || (docked ? null : target.closest("#payments"));
      // every choice of a card's menu (or a road's payments) in view, Cancel too, clear of a phone's dock (the
      // page's scroll padding there is the dock's height: app.css)
      if (menu) menu.scrollIntoView({ block: "nearest" });
    }
  }
  state.drawn = state.payload.actions;
  document.body.dataset.actions = state.payload.actions;
  document.body.dataset.over = state.payload.view.is_over;
  document.getElementById("command").hidden = !(mode === "play" && c.mine);
  document.getElementById("hint-box").hidden = !(mode === "play" && c.mine);
  document.getElementById("hint").disabled = Boolean(state.payload.rated);
  const hintText = document.getElementById("hint-text");
  if (state.payload.rated) hintText.textContent = t("A rated game gives no hints.");
  else if (state.hint && state.hint.at !== state.payload.actions) { state.hint = null; hintText.textContent = ""; }
  // the box shows one example whole (a list of three was cut to "e.g. take" in a dock's column), its title all three
  const box = document.getElementById("command-text");
  box.placeholder = t("e.g. {example}", { example: EXAMPLES[c.game].split(", ")[0] });
  box.title = t("e.g. {example}", { example: EXAMPLES[c.game] });
  renderLeave();
}

// Resign (at any time) and abort (before this seat's first move): only for a seat of an unfinished game, never
// for a spectator or a replay. The payload's log holds the last 60 actions: a seat whose first move is older
// than that has moved.
function movedYet() {
  const log = state.payload.log || [];
  return log.length < state.payload.actions || log.some((e) => e.seat === seat);
}

function renderLeave() {
  const open = mode === "play" && !state.payload.view.is_over && !state.payload.over && !tutorial;
  const seats = state.payload.seats;
  // While seats are open, a seat taken from the lobby may not call the game off: it is its creator's.
  const waiting = seats.some((s) => s.kind === "open");
  const joinedWhileWaiting = waiting && Boolean(seats[seat] && seats[seat].joined);
  // nobody to lose to before the game begins: the server refuses a resignation then (409), so none is offered
  document.getElementById("leave-box").hidden = !open || joinedWhileWaiting;
  document.getElementById("abort").hidden = !open || movedYet() || joinedWhileWaiting;
  document.getElementById("resign").hidden = waiting;
}

// Each asks again first, in a dialog (Cancel has the focus; Escape closes it), saying what it does.
function askLeave(what) {
  const dialog = document.getElementById("leave-dialog");
  const two = state.payload.seats.length === 2;
  const words = what === "abort" ? [t("Abort this game?"), t("It ends with no winner and is not rated."), t("Abort")]
    : [t("Resign this game?"), two ? t("You lose the game. This cannot be undone.")
      : t("A bot plays your seat on and you rank last. This cannot be undone."), t("Resign")];
  const mine = state.payload.seats[seat];
  if (what === "resign" && state.payload.rated && mine && mine.has_account && mine.moves < RATED_AFTER_MOVES) {
    words[1] += " " + tn("You have made fewer than {n} move, so the game will count for nobody's rating.",
      "You have made fewer than {n} moves, so the game will count for nobody's rating.", RATED_AFTER_MOVES);
  }
  document.getElementById("leave-title").textContent = words[0];
  document.getElementById("leave-words").textContent = words[1];
  const confirm = document.getElementById("leave-confirm");
  confirm.textContent = words[2];
  confirm.dataset.what = what;
  dialog.showModal();
  document.getElementById("leave-cancel").focus();
}

// Resign or abort the game as it stands when the person confirms (not when the dialog opened: bots move every
// second or so, and a person reading the dialog was refused "the game has moved on"); if it moved on between the
// click and the server, it is asked once more of the game as it then stands.
async function leave(what) {
  if (state.busy) return;
  state.busy = true;
  let sent;                  // the position asked on (a push may move the table on before the answer comes)
  const ask = () => {
    sent = state.payload.actions;
    return api(`/api/games/${gameId}/seats/${seat}/${what}`, { method: "POST", headers: auth,
      body: JSON.stringify({ expect: sent }) });
  };
  try {
    let answer;
    try {
      answer = await ask();
    } catch (e) {
      if (e.status !== 409) throw e;
      accept(await api(`/api/games/${gameId}?seat=${seat}`, { headers: auth }));
      // asked again only where the game moved on and goes on (not for an abort after a move, say)
      if (state.payload.actions === sent || state.payload.over || state.payload.view.is_over) throw e;
      answer = await ask();
    }
    if (!answer.over) { location.href = `/watch/${gameId}`; return; }    // three or four: a bot plays on
    accept(answer);
  } catch (e) {
    state.error = { text: notPlayed(e), at: state.payload.actions };
  } finally {
    state.busy = false;
    render();
  }
}

// While the game waits for players, its creator gets a link to send: the lobby, with this game's open seat to
// join (the address bar holds the creator's own seat and its secret, which must never be sent).
function renderInvite() {
  const box = document.getElementById("invite");
  const seats = state.payload.seats;
  const creator = mode === "play" && !state.payload.over && !state.payload.view.is_over && !state.payload.rematch_of
    && seats.some((s) => s.kind === "open") && !(seats[seat] && seats[seat].joined);
  box.hidden = !creator;
  if (!creator || box.childElementCount) return;
  const link = `${location.origin}/?open=${gameId}`;
  const field = el("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("link to this game") });
  box.replaceChildren(t("Invite someone: send them this link to join."), " ", field, " ",
    el("button", { type: "button", id: "invite-copy", "aria-live": "polite", onclick: async (event) => {
      const button = event.currentTarget;             // says it was copied, on itself, for two seconds
      try { await navigator.clipboard.writeText(link); } catch (e) { field.select(); return; }
      button.textContent = t("Copied.");
      setTimeout(() => { button.textContent = t("Copy"); }, 2000);
    } }, t("Copy")));
}

// A seat the signed-in account keeps is played by the account, not by a secret: the address bar and the browser's
// list of games lose it, so that an address copied to a friend plays nothing, and signing out forgets the game here.
function forgetSecret() {
  if (state.secretForgotten) return;       // once a page: not a read of the browser's list at every redraw
  state.secretForgotten = true;
  const here = new URL(location.href);
  const before = myGames().find((g) => g.id === gameId && g.seat === seat);
  if (!here.searchParams.has("token") && before && before.account === state.me.name) return;
  here.searchParams.delete("token");
  history.replaceState(null, "", here.pathname + here.search);
  keepGame({ id: gameId, game: state.payload.game, seat, link: here.pathname + here.search,
    account: state.me.name });
}

// Signed in: offer to keep this seat in the account (a link a friend sent), until an account keeps it. Else, in
// Pokémon: offer to keep this game in the Pokédex of the profile this browser owns, until the seat has one.
function renderKeep() {
  const box = document.getElementById("keep");
  if (state.me && mode === "play" && !state.payload.view.is_over) {
    const { payload } = state;
    const held = payload.seats[seat].has_account;
    const late = !held && payload.rated && payload.actions > 0;  // the server keeps it no more
    // a rated game counts only if every person's seat is kept before the first move: said before anyone moves
    const unkept = held && payload.rated && payload.actions === 0
      && payload.seats.some((s) => s.kind === "human" && !s.has_account);
    if (held) forgetSecret();
    const kept = held ? (unkept ? "yes-unkept" : "yes") : late ? "late" : "no";
    if (kept !== "no" && box.dataset.kept === kept) return;
    box.dataset.kept = kept;
    box.replaceChildren(held ? el("p", { class: "note", id: "kept-in-account" },
      t("This seat is kept in an account: signed in, it plays from any browser."), unkept ? " " : null,
      unkept ? t("The game counts for ratings only if every player keeps their seat in an account before the first move.") : null)
      : late ? el("p", { class: "note", id: "kept-too-late" },
        t("A rated game's seats are kept before its first move: this one counts for nobody, and this link plays the seat."))
      : el("button", { type: "button", id: "keep-in-account", onclick: async () => {
        try {
          const kept = await api(`/api/games/${gameId}/seats/${seat}/keep`, { method: "POST", headers: auth });
          // The seat has a new secret now (the link used to get here stops working), and the account plays it:
          // the address and the browser's list of games carry no secret (forgetSecret)
          accept(kept);
          render();
        } catch (e) { showError(e.message); }
      } }, t("Keep this game in my account ({name})", { name: state.me.name })));
    return;
  }
  const me = myProfile();
  const mine = mode === "play" && state.payload.game === "pokemon" && !state.payload.view.is_over;
  const linked = mine && state.payload.seats[seat].profile;
  if (!mine || !me || linked) {
    box.replaceChildren(...(linked ? [el("p", { class: "note" },
      t("This game goes into the Pokédex of {profile}.", { profile: linked }))] : []));
    return;
  }
  if (box.dataset.profile === me.name && box.childElementCount) return;
  box.dataset.profile = me.name;
  box.replaceChildren(el("button", { type: "button", id: "keep-in-pokedex", onclick: async () => {
    try {
      await api(`/api/games/${gameId}/seats/${seat}/profile`, { method: "POST", headers: auth,
        body: JSON.stringify({ profile: me.name, secret: me.secret }) });
    } catch (e) { showError(e.message); }
  } }, t("Keep this game in my Pokédex ({profile})", { profile: me.name })));
}

// A hint: what the expert bot would play in your decision now, and its estimated chance of winning, said in the
// dock and marked on the table (the tokens, card, deck or road it would take). The server searches a position
// once, so asking again answers at once.
async function askHint() {
  const box = document.getElementById("hint-text");
  const at = state.payload.actions;
  state.hint = { at };
  box.textContent = t("The expert bot is thinking…");
  try {
    const advice = await api(`/api/games/${gameId}/seats/${seat}/hint`, { method: "POST",
      headers: auth });
    if (!state.hint || state.hint.at !== at) return;          // the game moved on meanwhile: the hint is stale
    state.hint.action = advice.action;
    box.textContent = t("Hint: {move}. Estimated chance of winning: {chance}%.", {
      move: adviceWords(state.payload.game, advice.action, seatName, cardInSight(state.payload.view, seat, advice.action)),
      chance: wholePercent(advice.win_chance) });
    render();
  } catch (e) {
    if (state.hint && state.hint.at === at) box.textContent = t("No hint: {reason}", { reason: e.message });
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const secret = token ? `&token=${encodeURIComponent(token)}` : "";
  const q = mode === "play" ? `?seat=${seat}${secret}&lang=${language}` : `?lang=${language}`;
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws${q}`);
  let greeted = false;       // the chat is read once the server has let this socket in (sent the game), not before:
  ws.onmessage = (event) => {     // a seat it refuses had its chat asked for too, a second failed request
    const message = JSON.parse(event.data);
    // the wait before a reconnect grows until the server sends the game again: a socket it takes and closes at
    // once (too many spectators now) is tried again every few seconds, not twice a second
    if (message.type === "state") {
      state.retry = 500;
      accept(message);
      render();
      if (!greeted) { greeted = true; chat.connected(); }
    }
    else if (message.type === "error") showError(message.detail);
    else if (message.type === "chat") chat.heard(message);
  };
  ws.onclose = async (event) => {
    if (event.code === 4403 || event.code === 4404) {
      let reason = event.reason || t("This link is not valid.");     // the server's reason: resigned, kept, ...
      if (event.reason.endsWith("…")) {   // a close frame holds 123 bytes: a longer refusal is cut, so asked whole
        try {
          await api(`/api/games/${gameId}${mode === "play" ? `?seat=${seat}` : ""}`, { headers: auth });
        } catch (e) { if (e.status === 403 || e.status === 404) reason = e.message; }
      }
      const said = sentence(capital(reason));
      // a seat's address without its secret (copied from someone's address bar, say): the game can still be
      // watched, and a seat kept in an account is played signed in, from the lobby
      morph(document.getElementById("status"), event.code === 4403
        ? [said, " ", el("a", { href: `/watch/${gameId}`, id: "watch-instead" }, t("Watch the game instead")), " ",
          el("a", { href: "/", id: "sign-in-instead" }, t("Sign in from the lobby"))] : [said]);
      return;
    }
    if (event.code === 4409) {     // a newer tab has the seat: reconnecting would take it back, and so for ever
      state.replaced = true;       // said until "Play here" (renderStatus), whatever else is drawn meanwhile
      render();
      return;
    }
    const why = event.code === 1013 && event.reason ? `${sentence(capital(event.reason))} ` : "";  // the server's
    document.getElementById("status").textContent = why + t("Connection lost — reconnecting…");
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

// A replay shows the table after action ``upto``: the caption says that action and the table marks that same
// action, never the next one.
async function loadReplay(upto) {
  const data = await api(`/api/games/${gameId}/replay?upto=${upto}`);
  state.upto = data.upto; state.total = data.total;
  state.payload = { game: data.view.game, seats: data.seats, view: data.view, actions: data.upto, log: [],
    rated: data.rated, winners: data.winners || [], rematch_of: data.rematch_of };
  if (data.entry) {              // the actions that led to this step, from the replay itself, the one stepped to last
    state.payload.log = data.log;
    state.lastSeat = data.entry.seat; state.lastAction = data.entry.action;
    state.lastDetails = data.entry.details;
  }
  state.replayEnding = data.ending;
  const here = new URL(location.href);            // the address names the step, so a link or a reload finds it
  here.searchParams.set("step", data.upto);
  history.replaceState(null, "", here.pathname + here.search);
  document.getElementById("step").textContent = `${data.upto} / ${data.total}`;
  for (const id of ["first", "prev"]) document.getElementById(id).disabled = data.upto === 0;
  for (const id of ["next", "last"]) document.getElementById(id).disabled = data.upto === data.total;
  render();
  chat.replayAt(data.upto);
  drawReview();
}

speak();
// The game's chat (chat.js): its names as the table says them, once the table knows its seats.
const chat = makeChat({ gameId, mode, seat, auth,
  seatName: (s) => (state.payload ? seatName(s) : t("Player {number}", { number: s + 1 })) });
setupTurnControls(() => Boolean(state.me));

document.getElementById("hint").addEventListener("click", askHint);
document.getElementById("resign").addEventListener("click", () => askLeave("resign"));
document.getElementById("abort").addEventListener("click", () => askLeave("abort"));
document.getElementById("leave-cancel").addEventListener("click", () => document.getElementById("leave-dialog").close());
document.getElementById("leave-confirm").addEventListener("click", (event) => {
  const { what } = event.currentTarget.dataset;
  document.getElementById("leave-dialog").close();
  leave(what);
});
document.getElementById("command").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("command-text");
  const typed = input.value.trim();
  if (state.busy || !typed) return;                     // typed text waits while an action is on its way
  const { action, problem } = typedNotation(typed);
  if (problem) {
    state.commandError = { text: problem, at: state.payload.actions };
    render();
    return;
  }
  send(action, true).then((taken) => {                  // a refused action stays in the box, to be mended
    if (taken && input.value.trim() === typed) input.value = "";
  });
});
// The table numbers its seats from 1 (the emblems), the notation from 0 (as the terminal and records do), so a typed
// Kids gift names its traveler as the table does, by the number beside them or by name, and goes in the notation:
// "give r to 2" typed here had given to the third traveler.
function typedNotation(typed) {
  const gift = state.payload.game === "kids" && /^give\s+(\S+)\s+to\s+(.+)$/i.exec(typed);
  if (!gift) return { action: typed };
  const labels = seatLabels(state.payload.seats);
  const who = gift[2].trim();
  const to = /^\d+$/.test(who) ? Number(who) - 1 : labels.findIndex((l) => l.toLowerCase() === who.toLowerCase());
  if (to >= 0 && to < labels.length) return { action: `give ${gift[1]} to ${to}` };
  return { problem: t("There is no traveler “{who}”: name one by the number beside them (1 to {last}) or by name.",
    { who, last: labels.length }) };
}
// A phone's dock is fixed at the bottom and grows with the decision: the page ends its height below the table
// (--dock-h), so scrolling down always brings the last panel (How to play, the typed action) clear of it. A
// replay's steps are fixed under it there (--replay-h), so that ▶ stays under the thumb beside the table.
const pinned = new ResizeObserver(() => {
  const dock = document.getElementById("dock");
  const steps = document.getElementById("replay-controls");
  const fixed = (n) => !n.hidden && getComputedStyle(n).position === "fixed";
  const under = fixed(steps) ? steps.offsetHeight : 0;
  document.documentElement.style.setProperty("--replay-h", `${under}px`);
  document.documentElement.style.setProperty("--dock-h", fixed(dock) ? `${dock.offsetHeight + under}px` : "0px");
});
pinned.observe(document.getElementById("dock"));
pinned.observe(document.getElementById("replay-controls"));
let resizing = null;                    // a turned tablet or a resized window: the table is drawn for its new shape
window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(render, 150); });
// Another seat's reserved card's words, shown by a tap on its thumbnail, lie over the table: a tap anywhere else, or
// Escape, puts them away (the thumbnail's own tap toggles them).
document.addEventListener("click", (event) => {
  if (state.shownMini === null || state.shownMini === undefined) return;
  if (event.target instanceof Element && event.target.closest("[data-key^='mini:']")) return;
  state.shownMini = null;
  render();
});
// A refused click's note (beside a token, hanging over the market's nobles, or beside a Kids road) is put away by a
// click anywhere but the supply or the place it speaks of: it had stayed until the next token, over the nobles a
// player reads while choosing.
document.addEventListener("click", (event) => {
  if (!state.note || !(event.target instanceof Element)) return;
  if (event.target.closest("#supply") || event.target.closest(`[data-key="${CSS.escape(state.note.key)}"]`)) return;
  state.note = null;
  render();
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && state.shownMini !== null && state.shownMini !== undefined) {
    state.shownMini = null;
    render();
  }
});
document.addEventListener("keydown", (event) => {
  if (mode !== "play" || !state.payload || state.busy) return;
  if (document.getElementById("leave-dialog").open) return;        // the dialog's keys are the dialog's
  if (handleKey(event, ctx(), table())) event.preventDefault();
});

if (mode === "replay") {
  document.getElementById("replay-controls").hidden = false;
  const go = (n) => loadReplay(Math.max(0, Math.min(state.total, n))).catch((e) => showError(e.message));
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(state.upto - 1);
  document.getElementById("next").onclick = () => go(state.upto + 1);
  document.getElementById("last").onclick = () => go(state.total);
  setupReview({ gameId, go, seatName, game: () => state.payload && state.payload.game,
    view: () => state.payload && state.payload.view, upto: () => state.upto });
  document.addEventListener("keydown", (e) => {     // not while typing: the chat's arrows move its caret
    if (keyForOthers(e)) return;
    if (e.key === "ArrowRight") go(state.upto + 1);
    if (e.key === "ArrowLeft") go(state.upto - 1);
  });
  document.getElementById("share-step").onclick = async (event) => {
    const button = event.currentTarget;               // says it was copied, on itself, for two seconds
    try { await navigator.clipboard.writeText(location.href); } catch (e) { showError(location.href); return; }
    button.textContent = t("Copied.");
    setTimeout(() => { button.textContent = t("Copy a link to this move"); }, 2000);
  };
  // ?step=N: the table after N actions (the server keeps N within the game); else the deal
  const asked = Number.parseInt(params().get("step"), 10);
  loadReplay(Number.isFinite(asked) && asked > 0 ? asked : 0).catch((e) => {
    // nothing to step through: the status says why, where "Connecting…" had stayed; a game still going is watched
    const said = sentence(capital(e.message));
    morph(document.getElementById("status"), e.status === 409
      ? [said, " ", el("a", { href: `/watch/${gameId}`, id: "watch-instead" }, t("Watch the game instead"))] : [said]);
    for (const id of ["first", "prev", "next", "last", "share-step"]) document.getElementById(id).disabled = true;
  });
} else {
  if (mode === "play") {
    signedIn().then((me) => { state.me = me; render(); }).catch(() => {});     // signed out (null): nothing to offer
  }
  connect();
}
