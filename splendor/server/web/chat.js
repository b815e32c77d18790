// A game's chat on the table: the seats' room (a seat's table: "Players") and the spectators' room, each line
// plain text (set as text, never as markup), canned phrases shown in the reader's own language, an unread count
// while the panel is closed, and mute per player (kept in this browser, per game). In a replay, the lines said up
// to the move shown, those said at that move marked. The server's rules: docs/server.md, "Chat".
import { api, el, emblem, keptSeat, morph, nameProblem, signedIn } from "/static/common.js";
import { N_, capital, t, tn } from "/static/i18n.js";

// The canned phrases by the key the server keeps, each in English (the catalogs give the reader's language).
export const PHRASES = { hello: N_("Hello!"), good_luck: N_("Good luck!"), good_game: N_("Good game!"),
  thinking: N_("Thinking…"), well_played: N_("Well played!"), thanks: N_("Thanks!") };
const NAME_KEY = "splendor-chat-name";           // a guest's name in the spectators' room, kept in this browser
const MAX = 300;                                 // the server's bound of a line

// gameId, mode (play | watch | replay), seat (null: a spectator), auth (the seat's secret header), and
// seatName(n): how the table names seat n.
export function makeChat({ gameId, mode, seat, auth, seatName }) {
  const root = document.getElementById("chat");
  const lines = new Map();                                  // id → line, both rooms
  const mine = new Set();                                   // the ids of the lines this page said
  const muteKey = `splendor-chat-mute:${gameId}`;
  let muted = new Set(readJson(muteKey, []));
  let room = seat !== null || mode === "replay" ? "seats" : "spectators";
  let rooms = seat !== null ? ["seats", "spectators"] : ["spectators"];
  let upto = null;                                          // a replay: the move shown
  let me = null, error = "", busy = false, loaded = false, errorTimer = null;
  const quietUntil = {};                         // by room: the server counts a speaker's lines in each
  // What this browser has read, per room: the highest line id seen with the panel open on that room, kept per game
  // so that a reload (or tomorrow's visit to a game played by the day) counts only what is new.
  const readKey = `splendor-chat-read:${gameId}`;
  const read = readJson(readKey, {});
  let accountSeat = null;                                   // watching or replaying: the seat the account keeps

  const details = el("details", { class: "chat", open: mode === "replay" });
  const badge = el("span", { class: "chat-unread badge", hidden: true });
  const summary = el("summary", {}, el("span", {}, t("Chat")), " ", badge);
  const tabs = el("div", { class: "chat-tabs row", role: "tablist" });
  const list = el("ol", { id: "chat-lines", class: "chat-lines", "aria-live": "polite" });
  const mutes = el("div", { class: "chat-mutes" });
  const phrases = el("div", { class: "chat-phrases" });
  const input = el("input", { id: "chat-text", autocomplete: "off",
    placeholder: t("Say something…"), "aria-label": t("Message") });
  const nameInput = el("input", { id: "chat-name", autocomplete: "nickname",
    placeholder: t("Your name"), "aria-label": t("Your name") });
  const problem = el("p", { class: "error chat-error", role: "alert" });
  const form = el("form", { class: "chat-form row" }, nameInput, input,
    el("button", { type: "submit" }, t("Send")));
  nameInput.value = localStorage.getItem(NAME_KEY) || "";
  // On a phone the panel is far down the page: a button above the dock says the unread count and goes there.
  const jump = el("button", { type: "button", class: "chat-jump", hidden: true,
    onclick: () => { details.open = true; root.scrollIntoView({ block: "start" }); } });
  // What a closed panel's new line says, heard by a screen reader: the lines' own live region is silent inside a
  // closed <details>, so another seat's "Hello!" had reached nobody who cannot see the badge.
  const told = el("p", { class: "sr-only", "aria-live": "polite" });
  details.append(summary, tabs, list, mutes, phrases, form, problem);
  root.replaceChildren(details, jump, told);
  root.hidden = false;
  details.addEventListener("toggle", () => { if (details.open) { markRead([room]); render(); scrollDown(); } });
  input.addEventListener("input", () => { if (error) { error = ""; render(); } });
  // The rooms are a tab list as its pattern asks (WAI-ARIA): one Tab stop, the arrows, Home and End move to a
  // room and show it. The key is taken (a replay's arrows step it otherwise, keys.js keyForOthers).
  tabs.addEventListener("keydown", (event) => {
    const at = rooms.indexOf(room);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: rooms.length - 1 }[event.key];
    if (to === undefined || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    showRoom(rooms[(to + rooms.length) % rooms.length]);
    tabs.querySelector(`[data-key="tab:${room}"]`)?.focus();
  });
  // Another tab of this game read lines, or muted someone: this one follows at once, not at its next reload.
  window.addEventListener("storage", (event) => {
    if (event.key === readKey) {
      mergeRead();
      render();
    } else if (event.key === muteKey) {
      muted = new Set(readJson(muteKey, []));
      render();
    }
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); sayText(); });
  for (const [key, words] of Object.entries(PHRASES)) {
    phrases.append(el("button", { type: "button", class: "chat-phrase", "data-phrase": key,
      onclick: () => say({ phrase: key }) }, t(words)));
  }
  if (mode === "replay") { form.hidden = true; phrases.hidden = true; }
  signedIn().then((who) => { me = who; render(); }).catch(() => {});       // signed out (null): a guest's name

  function readJson(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key) || "null") ?? fallback; } catch (e) { return fallback; }
  }

  // Who said a line, as the mute buttons and the lines name them: a seat by the table's name, else the name.
  function speaker(line) { return line.seat !== null && line.room === "seats" ? `seat:${line.seat}` : `name:${line.name}`; }
  function who(line) { return line.room === "seats" && line.seat !== null ? seatName(line.seat) : line.name; }
  function own(line) {
    return mine.has(line.id) || (line.room === "seats" && line.seat === seat)
      || (line.room === "seats" && seat === null && line.seat === (reader() || {}).seat)
      || (line.room === "spectators" && me && line.name === me.name);
  }
  function words(line) { return line.phrase && PHRASES[line.phrase] ? t(PHRASES[line.phrase]) : line.text; }

  // Who reads: the table's seat; watching or in a replay, the seat this browser played in the game (its link kept
  // in "Your games"; also after it resigned or ran out of time and a bot plays it on), whose players' room it may
  // read and, until the room closes, write again; else the spectators' room only.
  function reader() {
    if (mode === "play") return { seat, headers: auth };
    return keptSeat(gameId) || (accountSeat === null ? null : { seat: accountSeat, headers: {} });   // or the cookie
  }

  // Everything readable, again (on each connection: lines said while it was down come back this way).
  async function load() {
    const by = reader();
    let answer = null;
    if (by && by.seat !== null) {
      answer = await api(`/api/games/${gameId}/chat?seat=${by.seat}`, { headers: by.headers }).catch(() => null);
    }
    if (!answer) {              // a signed-in account that keeps a seat of the game is answered as that seat
      answer = await api(`/api/games/${gameId}/chat`).catch(() => null);
      if (answer && mode !== "play") accountSeat = answer.seat ?? null;
    }
    if (!answer) return;
    rooms = answer.rooms;
    // a player who resigned (or ran out of time) watches on, and says goodbye to the players, not the spectators
    if (!loaded && rooms.includes("seats") && (by || accountSeat !== null)) room = "seats";
    if (!rooms.includes(room)) room = rooms[0];
    for (const line of answer.lines) {
      if (loaded) heard(line, false);              // said while the connection was down
      else lines.set(line.id, line);
    }
    if (details.open) markRead([room]);
    loaded = true;
    render(); scrollDown();
  }

  function heard(line, draw = true) {
    if (lines.has(line.id)) return;
    lines.set(line.id, line);
    if (details.open && line.room === room) markRead([room]);
    else if (!own(line) && !muted.has(speaker(line))) {
      const text = `${t("Chat")}: ${who(line)}: ${words(line)}`;
      told.textContent = "";                  // emptied first: the same line twice ("gg", "gg") is heard twice
      setTimeout(() => { told.textContent = text; }, 0);   // (a frame never comes in a tab out of sight)
    }
    if (draw) { render(); scrollDown(); }
  }

  // Every line of these rooms read (the room shown), as far as this browser knows them; merged with what another
  // tab of the game read meanwhile, the higher mark of each room kept.
  function markRead(which) {
    if (mode === "replay") return;
    mergeRead();
    for (const l of lines.values()) if (which.includes(l.room)) read[l.room] = Math.max(read[l.room] || 0, l.id);
    try { localStorage.setItem(readKey, JSON.stringify(read)); } catch (e) { /* full: counted again next time */ }
  }

  // What another tab of the game read meanwhile: the higher mark of each room kept.
  function mergeRead() {
    for (const [r, id] of Object.entries(readJson(readKey, {}))) read[r] = Math.max(read[r] || 0, Number(id) || 0);
  }

  // Lines from others, not muted, said after what this browser read in their room (one room, or both).
  function unreadCount(which = rooms) {
    if (mode === "replay") return 0;
    let n = 0;
    for (const l of lines.values()) {
      if (which.includes(l.room) && l.id > (read[l.room] || 0) && !own(l) && !muted.has(speaker(l))) n += 1;
    }
    return n;
  }

  // A problem with what was sent, until the next line is typed or for ten seconds (a wait asked for is over by
  // then), never for the rest of the game.
  function complain(words) {
    error = capital(words);
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { error = ""; render(); }, 10000);
    // in sight, where the chat is open at the foot of a dock that scrolls ("wait 9 seconds" was half off the screen)
    requestAnimationFrame(() => { if (problem.textContent) problem.scrollIntoView({ block: "nearest" }); });
  }

  function sayText() {
    const text = input.value.trim();
    if (!text) { complain(t("Write something to send.")); render(); input.focus(); return; }
    const length = [...text].length;                     // as the server counts: characters, not UTF-16 units
    if (length > MAX) {                                  // said, never cut short without a word
      complain(t("A message is at most {max} characters; this one has {n}.", { max: MAX, n: length }));
      render();
      return;
    }
    say({ text }).then((ok) => { if (ok) input.value = ""; });
  }

  async function say(body) {
    if (busy) return false;
    // After "wait n seconds", a line sent before then would only be refused again (and counted against the wait):
    // it is said here, and not sent.
    const wait = Math.ceil(((quietUntil[room] || 0) - Date.now()) / 1000);
    if (wait > 0) {
      complain(tn("you are sending messages too fast: wait {n} second",
        "you are sending messages too fast: wait {n} seconds", wait, { n: wait }));
      render();
      return false;
    }
    const post = { ...body };
    const headers = {};
    if (room === "seats") {
      const by = reader() || { seat, headers: auth };
      post.seat = by.seat; Object.assign(headers, by.headers);
    }
    else if (!me) {
      const name = nameInput.value.trim();
      if (!name) { complain(t("Give your name to talk with the spectators.")); render(); nameInput.focus(); return false; }
      if (nameProblem(name)) { complain(nameProblem(name)); render(); nameInput.focus(); return false; }
      post.name = name;
      localStorage.setItem(NAME_KEY, name);
    }
    busy = true; error = ""; clearTimeout(errorTimer);
    try {
      const line = await api(`/api/games/${gameId}/chat`, { method: "POST", headers, body: JSON.stringify(post) });
      mine.add(line.id);
      heard(line);
      return true;
    } catch (e) {
      if (e.status === 429 && e.retryAfter) quietUntil[room] = Date.now() + e.retryAfter * 1000;
      complain(e.message);
      return false;
    } finally { busy = false; render(); }
  }

  function toggleMute(key) {
    if (muted.has(key)) muted.delete(key); else muted.add(key);
    localStorage.setItem(muteKey, JSON.stringify([...muted]));
    render();
  }

  function scrollDown() { list.scrollTop = list.scrollHeight; }

  function showRoom(r) { room = r; if (details.open) markRead([r]); render(); scrollDown(); }

  function render() {
    const unread = unreadCount();
    badge.hidden = unread === 0;
    badge.textContent = String(unread);
    badge.setAttribute("aria-label", tn("{n} unread message", "{n} unread messages", unread));
    // the summary's name says the count in words (a span's aria-label is heard only with a role: "Chat 2")
    summary.setAttribute("aria-label", unread
      ? `${t("Chat")}: ${tn("{n} unread message", "{n} unread messages", unread)}` : t("Chat"));
    jump.hidden = unread === 0;
    jump.textContent = `💬 ${unread}`;                 // a small round badge: a wide button hid what lay under it
    jump.setAttribute("aria-label", `${t("Chat")}: ${tn("{n} unread message", "{n} unread messages", unread)}`);
    const names = { seats: t("Players"), spectators: t("Spectators") };
    morph(tabs, rooms.length < 2 ? [] : rooms.map((r) => el("button", { type: "button", role: "tab",
      "data-key": `tab:${r}`, class: "chat-tab", "aria-selected": r === room ? "true" : "false",
      tabindex: r === room ? "0" : "-1", "aria-controls": "chat-lines", onclick: () => showRoom(r) },
    names[r], ...[unreadCount([r])].filter(Boolean).map((n) => el("span", { class: "chat-unread badge" }, String(n))))));
    const shown = [...lines.values()].filter((l) => l.room === room && (upto === null || l.actions <= upto))
      .sort((a, b) => a.id - b.id);
    const silenced = shown.filter((l) => muted.has(speaker(l)) && !own(l)).length;
    const note = silenced ? [el("li", { class: "chat-empty", "data-key": "muted" },
      tn("{n} message hidden: you muted who said it.", "{n} messages hidden: you muted who said them.", silenced))] : [];
    morph(list, !shown.length ? el("li", { class: "chat-empty", "data-key": "empty" }, t("No messages yet."))
      : [...shown.map((l) => {
      const hidden = muted.has(speaker(l)) && !own(l);
      return el("li", { "data-key": `line:${l.id}`, class: `chat-line${l.phrase ? " phrase" : ""}${
        upto !== null && l.actions === upto ? " at-move" : ""}`, hidden, title: new Date(l.at * 1000).toLocaleString() },
      l.room === "seats" && l.seat !== null ? emblem(l.seat) : null,
      el("b", { class: "chat-who" }, who(l)), " ", el("span", { class: "chat-words" }, words(l)),
      upto !== null ? el("span", { class: "chat-move" }, t("move {n}", { n: l.actions })) : null);
    }), ...note]);
    const others = new Map();
    for (const l of lines.values()) if (l.room === room && !own(l)) others.set(speaker(l), who(l));
    morph(mutes, others.size && mode !== "replay" ? [el("span", {}, t("Mute:")), ...[...others].map(([key, name]) =>
      el("button", { type: "button", class: "chat-mute", "data-key": `mute:${key}`,
        "aria-pressed": muted.has(key) ? "true" : "false", onclick: () => toggleMute(key) }, name))] : []);
    nameInput.hidden = room !== "spectators" || Boolean(me) || mode === "replay";
    problem.textContent = error;
    for (const b of phrases.querySelectorAll("button")) b.disabled = busy;
  }

  return {
    render,
    heard,
    connected: load,
    // A replay: the lines said up to the move shown (loaded once).
    async replayAt(n) {
      const first = upto === null;
      upto = n;
      if (first) await load();
      render(); scrollDown();
    },
  };
}
