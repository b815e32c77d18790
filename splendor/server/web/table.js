// A game's table: live over a WebSocket (reconnecting), drawn from the seat's view, played by clicking.
import { api, el, keepGame, morph, myProfile, params } from "/static/common.js";
import { N_, language, list, speak, t } from "/static/i18n.js";
import { howToPlay } from "/static/rules.js";
import { describe } from "/static/words.js";
import { renderMarket, marketPrompt } from "/static/market.js";
import { renderKids, kidsPrompt } from "/static/kids.js";

const TITLES = { classic: N_("Splendor"), pokemon: N_("Splendor: Pokémon"), kids: N_("Splendor Kids") };
const parts = location.pathname.split("/");
const mode = parts[1];                       // play | watch | replay
const gameId = parts[2];
const query = params();
const seat = mode === "play" ? Number(query.get("seat")) : null;
const token = query.get("token");
// The seat's secret when the link has one; a seat kept in the signed-in account needs none (the session cookie).
const auth = token ? { "x-seat-token": token } : {};
const state = { payload: null, selection: [], busy: false, upto: 0, total: 0, retry: 500, menu: null, road: null,
  focusNext: null, me: null, ratings: null };

function seatName(s) {
  const info = state.payload.seats[s];
  const name = info.name ? (info.kind === "bot" ? t(info.name) : info.name)
    : (info.kind === "bot" ? info.bot : t("Player {number}", { number: s + 1 }));
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
}

// Send one action. While it is in flight every control of the table is marked aria-disabled and ignores clicks,
// so a double click sends once; the answer carries the new state, drawn at once.
export async function send(action) {
  if (state.busy) return;
  const error = document.getElementById("error");
  error.textContent = "";
  state.selection = [];
  state.menu = null;
  state.busy = true;
  render();                         // the tokens picked for the action are cleared now, not when the answer comes
  const late = new AbortController();                 // a table never stays locked: no answer in 20 s, try again
  const timer = setTimeout(() => late.abort(), 20000);
  try {
    accept(await api(`/api/games/${gameId}/actions`, { method: "POST", headers: auth,
      body: JSON.stringify({ seat, action, expect: state.payload.actions }), signal: late.signal }));
  } catch (e) {
    error.textContent = late.signal.aborted ? t("The server did not answer in time: look at the table, then try again.")
      : t("Not allowed: {reason}", { reason: e.message });
  } finally {
    clearTimeout(timer);
    state.busy = false;
    render();
  }
}

function ctx() {
  const view = state.payload.view;
  const legal = new Set(view.legal_actions);
  // moved: the game went on since the table was last drawn (not merely a menu opened), so what changed is marked
  const moved = state.drawn !== undefined && state.payload.actions !== state.drawn;
  return { view, game: state.payload.game, me: seat, legal, mine: legal.size > 0, send, state, render, gameId,
           seatName, moved };
}

// The tab's title says when it is your turn (seen from another tab), and an optional short sound, once a turn.
const SOUND_KEY = "splendor-sound";

function announceTurn(mine) {
  const name = t(TITLES[state.payload.game]);
  document.title = mine && mode === "play" ? `● ${t("Your turn")} — ${name}` : `splendor — ${name}`;
  document.getElementById("sound-label").hidden = mode !== "play";
  const toggle = document.getElementById("sound-on");
  toggle.checked = localStorage.getItem(SOUND_KEY) === "on";
  if (mine && !state.wasMine && toggle.checked && state.drawn !== undefined) chime();
  state.wasMine = mine;
}

function chime() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  } catch (e) { /* no audio here: the title still says it */ }
}

function renderStatus() {
  const { view } = state.payload;
  const status = document.getElementById("status");
  status.classList.toggle("mine", view.legal_actions.length > 0);
  if (mode === "replay") {
    status.textContent = state.upto === 0 ? t("Replay: the start") :
      t("Replay: action {n} of {total} — {what}", { n: state.upto, total: state.total,
        what: describe(state.payload.game, state.lastAction, state.lastDetails, seatName, state.lastSeat) });
  } else if (state.payload.ending) {
    status.textContent = t("{player} did not move in time and lost the game.",
      { player: seatName(state.payload.ending.seat) });
  } else if (view.is_over) {
    status.textContent = t("The game is over.");
  } else if (view.legal_actions.length) {
    status.textContent = view.decision === "action" ? t("Your turn.")
      : t("Your decision: {decision}.", { decision: DECISIONS[view.decision] ? t(DECISIONS[view.decision]) : view.decision });
  } else {
    const player = seatName(view.current_player);
    status.textContent = view.decision === "action" ? t("{player} is playing…", { player })
      : t("{player} is deciding ({decision})…", { player,
        decision: DECISIONS[view.decision] ? t(DECISIONS[view.decision]) : view.decision });
  }
  if (view.final_round && !view.is_over) status.textContent += ` ${t("Last round!")}`;
  if (!view.is_over && mode !== "replay") status.textContent += ` — ${goal(view)}`;
}

const EXAMPLES = { classic: "take w b g, buy 1.2, reserve deck 3", pokemon: "take r b k, catch 2.1, reserve 1.3",
  kids: "take k r g, move 3, take y" };

const DECISIONS = { return: N_("tokens to return"), noble: N_("which noble visits"), evolve: N_("whether to evolve"),
  drought: N_("tokens to discard in the Drought"), thief: N_("whom to give a token"), city: N_("which City tile"),
  medal: N_("which Queen's Medal") };

function renderLog() {
  const log = document.getElementById("log");
  const entries = (state.payload.log || []).slice().reverse();
  // A screen reader hears what the others did since the last update (the live region), not the whole log.
  const fresh = entries.filter((e) => state.heard !== undefined && e.n > state.heard && e.seat !== seat).reverse();
  if (fresh.length) {
    document.getElementById("announce").textContent = fresh.map((e) =>
      `${describe(state.payload.game, e.action, e.details, seatName, e.seat)}.`).join(" ");
  }
  state.heard = entries.length ? entries[0].n : 0;
  morph(log, entries.map((e) => el("li", { value: e.n, "data-key": `log:${e.n}` },
    `${describe(state.payload.game, e.action, e.details, seatName, e.seat)}.`)));
}

function renderEnd() {
  const box = document.getElementById("end");
  const { view } = state.payload;
  if (!view.is_over || !view.result) { morph(box); return; }
  const first = !box.childElementCount;
  const r = view.result;
  const names = r.winners.map(seatName);
  const verdict = r.status === "truncated" ? t("The game reached its turn limit: no winner.")
    : r.status === "stalled" ? t("No seat could act for a whole round, so the game ended there: no winner.")
    : r.status === "shared" ? t("{players} share the victory!", { players: list(names) })
    : t("{player} wins!", { player: names[0] });
  const rows = view.seats.map((s, i) => el("tr", {}, el("td", {}, seatName(i)), el("td", {}, r.scores[i]),
    el("td", {}, r.winners.includes(i) ? `★ ${t("winner")}` : "")));
  const items = [el("h2", {}, t("Game over")), el("p", { class: "status" }, verdict)];
  if (r.tie_break) items.push(el("p", {}, t("Tie-break: {rule}.", { rule: t(r.tie_break) })));
  items.push(el("table", { class: "list" }, el("thead", {}, el("tr", {}, el("th", {}, t("player")),
    el("th", {}, state.payload.game === "kids" ? t("in the Palace") : t("points")), el("th", {}))),
    el("tbody", {}, rows)));
  if (r.pokedex) {
    items.push(el("h2", {}, t("Pokédex marks")));
    r.pokedex.forEach((caught, i) => items.push(el("p", {},
      `${seatName(i)}: ${caught.map((p) => t(p)).join(", ") || t("none")}`,
      state.payload.seats[i].profile ? " " : "",
      state.payload.seats[i].profile
        ? el("a", { href: `/pokedex/${encodeURIComponent(state.payload.seats[i].profile)}` }, t("(Pokédex)")) : "")));
  }
  items.push(ratingsSection());
  items.push(el("p", {}, el("a", { href: `/api/games/${gameId}/record`, download: `splendor-${gameId}.record` },
    t("Download the record")), " · ", el("a", { href: `/replay/${gameId}` }, t("Replay it step by step"))));
  if (mode === "play") {
    items.push(el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "rematch",
      onclick: rematch }, t("Rematch (the same seats)")), el("a", { href: "/" }, t("Back to the lobby"))));
    if (state.rematchLinks) items.push(state.rematchLinks);
  }
  morph(box, [el("section", { class: "panel", id: "game-over" }, ...items)]);
  if (first && mode !== "replay") box.scrollIntoView({ block: "start" });     // the result, at the top
}

// What the game did to its players' ratings, read once when it is over.
function ratingsSection() {
  if (state.ratings === null) {
    state.ratings = "asked";
    api(`/api/games/${gameId}/ratings`).then((r) => { state.ratings = r; render(); })
      .catch(() => { state.ratings = { rated: false, changes: [], failed: true }; render(); });
  }
  const r = state.ratings;
  if (!r || r === "asked" || r.failed) return null;
  if (!r.rated) {
    return el("p", { class: "note", id: "rating-changes" },
      t("Not rated: a game is rated when every person in it plays with an account."));
  }
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  return el("section", { id: "rating-changes" }, el("h2", {}, t("Ratings")), ...r.changes.map((c) =>
    el("p", { "data-rating-seat": c.seat }, t("{name}: {before} → {after} ({change})", { name: seatName(c.seat),
      before: c.before, after: c.after, change: signed(c.change) }))),
  el("p", {}, el("a", { href: `/leaderboard#${state.payload.game}` }, t("See the leaderboard"))));
}

// A new game with the same game, options and seats; you go to your seat there, and the other people's links are
// shown for you to send them.
async function rematch() {
  const { view } = state.payload;
  const seats = state.payload.seats.map((s) => s.kind === "bot" ? { kind: "bot", bot: s.bot, name: s.name }
    : { kind: "human", name: s.name, mine: Boolean(state.me) && s.seat === seat || undefined });
  const options = state.payload.game === "kids" ? { short: view.short, mysteries: view.mysteries } : {};
  try {
    const made = await api("/api/games", { method: "POST",
      body: JSON.stringify({ game: state.payload.game, seats, options }) });
    const mine = made.seats.find((s) => s.seat === seat);
    keepGame({ id: made.id, game: state.payload.game, seat, link: mine.link, at: Date.now() });
    const others = made.seats.filter((s) => s.link && s.seat !== seat);
    if (!others.length) { location.href = mine.link; return; }
    state.rematchLinks = el("div", { id: "rematch-links" }, el("p", {},
      t("Send the others their new links, then go to your seat:"), " ", el("a", { href: mine.link },
        t("your seat"))), ...others.map((s) => el("p", {},
      el("label", {}, `${s.name || t("Player {number}", { number: s.seat + 1 })}: `,
        el("input", { readonly: true, value: s.link })))));
    render();
  } catch (e) { document.getElementById("error").textContent = t("No rematch: {reason}", { reason: e.message }); }
}

// Signed in: offer to keep this seat in the account (a link a friend sent), until an account keeps it. Else, in
// Pokémon: offer to keep this game in the Pokédex of the profile this browser owns, until the seat has one.
function renderKeep() {
  const box = document.getElementById("keep");
  if (state.me && mode === "play" && !state.payload.view.is_over) {
    const held = state.payload.seats[seat].has_account;
    if (held && box.dataset.kept === "yes") return;
    box.dataset.kept = held ? "yes" : "no";
    box.replaceChildren(held ? el("p", { class: "note", id: "kept-in-account" },
      t("This seat is kept in an account: signed in, it plays from any browser."))
      : el("button", { type: "button", id: "keep-in-account", onclick: async () => {
        try {
          const kept = await api(`/api/games/${gameId}/seats/${seat}/keep`, { method: "POST", headers: auth });
          // The seat has a new secret now (the link used to get here stops working): the address and the
          // browser's list of games carry the new one.
          if (kept.link) {
            const url = new URL(kept.link);
            history.replaceState(null, "", url.pathname + url.search);
            keepGame({ id: gameId, game: state.payload.game, seat, link: url.pathname + url.search, at: Date.now() });
          }
          accept(kept);
          render();
        } catch (e) { document.getElementById("error").textContent = e.message; }
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
    } catch (e) { document.getElementById("error").textContent = e.message; }
  } }, t("Keep this game in my Pokédex ({profile})", { profile: me.name })));
}

export function render() {
  if (!state.payload) return;
  renderKeep();
  document.getElementById("title").textContent = ` ${t(TITLES[state.payload.game])}`;
  const help = document.getElementById("help");
  if (!help.childElementCount) help.append(howToPlay(state.payload.game));   // once: its open state is the reader's
  renderStatus();
  const c = ctx();
  announceTurn(c.mine);
  const table = document.getElementById("table");
  const prompt = document.getElementById("prompt");
  if (c.game === "kids") { renderKids(table, c); morph(prompt, kidsPrompt(c)); }
  else { renderMarket(table, c); morph(prompt, marketPrompt(c)); }
  renderLog();
  renderEnd();
  for (const control of document.querySelectorAll("#table button, #table [role=button], #prompt button")) {
    if (state.busy) control.setAttribute("aria-disabled", "true");
  }
  document.body.classList.toggle("busy", state.busy);
  if (state.focusNext) {
    const target = document.querySelector(state.focusNext);
    state.focusNext = null;
    if (target) target.focus();
  }
  state.drawn = state.payload.actions;
  document.body.dataset.actions = state.payload.actions;
  document.body.dataset.over = state.payload.view.is_over;
  document.getElementById("command").hidden = !(mode === "play" && c.mine);
  document.getElementById("hint-box").hidden = !(mode === "play" && c.mine);
  document.getElementById("hint").disabled = Boolean(state.payload.rated);
  if (state.payload.rated) document.getElementById("hint-text").textContent = t("A rated game gives no hints.");
  if (state.hint && state.hint.at !== state.payload.actions) {
    state.hint = null;
    document.getElementById("hint-text").textContent = "";
  }
  document.getElementById("command-text").placeholder = t("e.g. {example}", { example: EXAMPLES[c.game] });
}

// A hint: what the expert bot would play in your decision now, and its estimated chance of winning. The server
// searches a position once, so asking again answers at once.
async function askHint() {
  const box = document.getElementById("hint-text");
  const at = state.payload.actions;
  state.hint = { at };
  box.textContent = t("The expert bot is thinking…");
  try {
    const advice = await api(`/api/games/${gameId}/seats/${seat}/hint`, { method: "POST",
      headers: auth });
    if (!state.hint || state.hint.at !== at) return;          // the game moved on meanwhile: the hint is stale
    box.textContent = t("Hint: {move} (estimated chance of winning: {chance}%)", {
      move: describe(state.payload.game, advice.action, null, seatName, seat),
      chance: Math.round(advice.win_chance * 100) });
  } catch (e) {
    if (state.hint && state.hint.at === at) box.textContent = t("No hint: {reason}", { reason: e.message });
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const secret = token ? `&token=${encodeURIComponent(token)}` : "";
  const q = mode === "play" ? `?seat=${seat}${secret}&lang=${language}` : `?lang=${language}`;
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws${q}`);
  ws.onopen = () => { state.retry = 500; };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") { accept(message); render(); }
    else if (message.type === "error") document.getElementById("error").textContent = message.detail;
  };
  ws.onclose = (event) => {
    if (event.code === 4403 || event.code === 4404) {
      document.getElementById("status").textContent = event.reason || t("This link is not valid.");
      return;
    }
    document.getElementById("status").textContent = t("Connection lost — reconnecting…");
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

async function loadReplay(upto) {
  const data = await api(`/api/games/${gameId}/replay?upto=${upto}`);
  state.upto = data.upto; state.total = data.total;
  const log = [];
  state.payload = { game: data.view.game, seats: data.seats, view: data.view, actions: data.upto, log };
  if (data.upto > 0) {
    const full = await api(`/api/games/${gameId}`);
    state.payload.log = full.log.filter((e) => e.n <= data.upto);
    const last = state.payload.log[state.payload.log.length - 1];
    state.lastSeat = last ? last.seat : 0; state.lastAction = data.action;
    state.lastDetails = last ? last.details : null;
  }
  document.getElementById("step").textContent = `${data.upto} / ${data.total}`;
  render();
}

speak();
document.getElementById("sound-on").addEventListener("change", (event) => {
  localStorage.setItem(SOUND_KEY, event.target.checked ? "on" : "off");
});

document.getElementById("hint").addEventListener("click", askHint);
document.getElementById("command").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("command-text");
  if (state.busy || !input.value.trim()) return;        // typed text waits while an action is on its way
  send(input.value.trim());
  input.value = "";
});

if (mode === "replay") {
  document.getElementById("replay-controls").hidden = false;
  const go = (n) => loadReplay(Math.max(0, Math.min(state.total, n))).catch((e) => {
    document.getElementById("error").textContent = e.message; });
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(state.upto - 1);
  document.getElementById("next").onclick = () => go(state.upto + 1);
  document.getElementById("last").onclick = () => go(state.total);
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(state.upto + 1);
    if (e.key === "ArrowLeft") go(state.upto - 1);
  });
  go(0);
} else {
  if (mode === "play") {
    keepGame({ id: gameId, game: null, seat, link: location.pathname + location.search, at: Date.now() });
    api("/api/me").then((me) => { state.me = me; render(); }).catch(() => {});     // signed out: nothing to offer
  }
  connect();
}
