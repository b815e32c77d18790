// Finding a game in the lobby: quick play (be seated with waiting players of about your rating, or with a bot after
// the wait you chose) and the open games (join a free seat with one click), signed in or as a guest with a name.
// A seek's secret stays in this tab (sessionStorage, so a reload goes on waiting): it becomes the seat's secret.
import { api, el, gameTitle, keepGame, myGames, nameProblem, remembered, signedIn } from "/static/common.js";
import { capital, t } from "/static/i18n.js";
import { clockWords } from "/static/yourgames.js";

const SEEK_KEY = "splendor-seek";       // { id, secret, game } of this tab's waiting seek
const NAME_KEY = "splendor-guest-name"; // the name this browser plays as a guest
const POLL_MS = 2000;                   // the server expires a seek not asked about for 30 s

let me = null;                          // the signed-in account, or null
let polling = null;

const $ = (id) => document.getElementById(id);

// A time control in the words the new game's Clock offers it ("1 day a move", not "1d"; "no clock").
function clockName(control) {
  if (!control) return t("no clock");
  const offered = [...$("clock").options].find((o) => o.value === control);
  return offered ? offered.textContent : control;
}

function guestName() {
  const name = $("guest-name").value.trim();
  if (name && !nameProblem(name)) localStorage.setItem(NAME_KEY, name);   // kept only once it may be used
  return name;
}

// Signed in: the account plays (its name), rated if it ticks the box; a guest gives a name, and plays unrated.
// Unticked by default, unlike a new game's box: only seekers who ask alike are seated together, so an account that
// asked for rated by default would never meet a guest, on a server where few are waiting.
let known = false;                       // /api/session has answered: whether the reader is a guest is known
function drawWho() {
  $("guest-name-label").hidden = Boolean(me);
  $("quick-rated").disabled = !me;
  $("quick-rated-label").title = me ? t("only players who tick it too are seated with you")
    : t("sign in to play rated games");
  // said beside the box too: a touch screen has no hover to read its title by
  $("quick-rated-why").textContent = me
    ? t("(it counts for your rating and gives no hints; only players who tick it too are seated with you)")
    : `(${t("sign in to play rated games")})`;
  if (!me) $("quick-rated").checked = false;
}

function go(id, game, seat, link) {
  keepGame({ id, game, seat, link });
  location.href = link;
}

function showWaiting(on) {
  $("quick-play").hidden = on;
  $("quick-waiting").hidden = !on;
}

async function poll() {
  const kept = JSON.parse(sessionStorage.getItem(SEEK_KEY) || "null");
  if (!kept) return;
  try {
    const s = await api(`/api/quick-play/${kept.id}`, { headers: { "x-seek-token": kept.secret } });
    if (s.status === "seated") {
      sessionStorage.removeItem(SEEK_KEY);
      stopPolling();
      $("quick-status").textContent = t("Seated! Opening the table…");
      go(s.game_id, kept.game, s.seat, s.link);
      return;
    }
    if (s.status !== "waiting") {       // expired (this tab slept) or cancelled (a newer seek replaced it)
      sessionStorage.removeItem(SEEK_KEY);
      stopPolling();
      showWaiting(false);
      $("quick-error").textContent = s.status === "expired" ? t("Your quick-play request expired: try again.")
        : t("Your quick-play request was replaced or cancelled.");
      return;
    }
    // A guest has no rating, so no window of ratings is said to it (numbers that meant nothing to a newcomer).
    const said = { time: clockWords(s.waited), low: s.window[0], high: s.window[1] };
    let words = me ? t("Waiting for players… {time}; ratings {low} to {high}.", said)
      : t("Waiting for players… {time}.", said);
    if (s.bot_in !== null) words += ` ${t("A bot joins in {time}.", { time: clockWords(s.bot_in) })}`;
    $("quick-status").textContent = words;
  } catch (e) {
    $("quick-error").textContent = e.message;
  }
}

function startPolling() {
  showWaiting(true);
  stopPolling();
  poll();
  polling = setInterval(poll, POLL_MS);
}

function stopPolling() {
  if (polling) clearInterval(polling);
  polling = null;
}

async function quickPlay(event) {
  event.preventDefault();
  $("quick-error").textContent = "";
  const name = me ? null : guestName();
  if (!me && (!name || nameProblem(name))) {
    $("quick-error").textContent = name ? nameProblem(name) : t("Give your name to play as a guest, or sign in.");
    $("guest-name").focus();
    $("quick-error").scrollIntoView({ block: "nearest" });   // on a phone it was under the screen's edge
    return;
  }
  const bot = $("quick-bot").value;
  const body = { game: $("quick-game").value, players: Number($("quick-players").value),
    clock: $("quick-clock").value || null, rated: $("quick-rated").checked, name,
    bot_after: bot === "" ? null : Number(bot) };
  const held = JSON.parse(sessionStorage.getItem(SEEK_KEY) || "null");   // this tab's seek, replaced by the new one
  if (held) body.replaces = { id: held.id, secret: held.secret };
  try {
    const made = await api("/api/quick-play", { method: "POST", body: JSON.stringify(body) });
    sessionStorage.setItem(SEEK_KEY, JSON.stringify({ id: made.id, secret: made.secret, game: body.game }));
    $("quick-status").textContent = t("Waiting for players…");
    startPolling();
  } catch (e) {
    $("quick-error").textContent = e.message;
  }
}

async function cancel() {
  const kept = JSON.parse(sessionStorage.getItem(SEEK_KEY) || "null");
  stopPolling();
  sessionStorage.removeItem(SEEK_KEY);
  if (kept) {
    try {
      await api(`/api/quick-play/${kept.id}`, { method: "DELETE", headers: { "x-seek-token": kept.secret } });
    } catch (e) {
      $("quick-error").textContent = e.message;   // seated meanwhile: the game is yours to play or resign
    }
  }
  showWaiting(false);
}

// The game whose Join asked for a name first: Enter in the name box then joins it (not Quick play's search).
let joining = null;

// One click takes the game's first free seat: as the account, or as the guest named in the quick-play form (for
// the game invited to, in the box beside its note, which says what went wrong there too).
async function join(game) {
  const beside = game.id === INVITED && !$("invite-join").hidden;
  const error = beside ? $("invite-error") : $("open-games-error");   // a refusal beside the list joined from
  $("quick-error").textContent = $("invite-error").textContent = $("open-games-error").textContent = "";
  if (beside) $("guest-name").value = $("invite-name").value;   // the name typed beside the invitation, whichever Join
  const name = me ? null : guestName();
  if (!me && (!name || nameProblem(name))) {
    if (!beside) joining = game;             // Enter in Quick play's name box joins only a game that asked there
    const asked = beside ? error : $("quick-error");   // beside the name box the name is typed in
    asked.textContent = name ? nameProblem(name) : t("Give your name to join as a guest, or sign in.");
    (beside ? $("invite-name") : $("guest-name")).focus();
    asked.scrollIntoView({ block: "nearest" });
    return;
  }
  joining = null;
  try {
    const seat = game.open_seats[0];
    const taken = await api(`/api/games/${game.id}/seats/${seat}/take`, { method: "POST",
      body: JSON.stringify(me ? {} : { name }) });
    go(game.id, game.game, seat, taken.link);
  } catch (e) {
    error.textContent = capital(e.message);
    drawOpenGames();
  }
}

// A link sent by a game's creator (/?open=ID, from the waiting table) points at its row: marked, in sight, its Join
// button focused; a game no longer open says so. A guest gives a name and joins right there, under the note,
// not in Quick play's form (whose name box it shares).
const INVITED = new URLSearchParams(location.search).get("open");
let shownInvited = false;
let invitedGame = null;                 // the game invited to while it is open

// This browser's seat in an open game (its creator's, or one joined), from "Your games": its row offers that seat,
// not a Join the server would refuse.
function mine(game) {
  return myGames().find((kept) => kept.id === game.id && kept.seat !== null && kept.seat !== undefined) || null;
}

async function drawOpenGames() {
  let games = [];
  const id = INVITED && /^[0-9a-f]{32}$/.test(INVITED);   // a link cut short or garbled finds nothing to add
  const asked = id ? `/api/open-games?include=${INVITED}` : "/api/open-games";
  try { ({ games } = await api(asked)); } catch (e) { return; }
  if (INVITED) {
    invitedGame = games.find((g) => g.id === INVITED) || null;
    const guest = known && !me;
    $("invited").hidden = false;
    $("invited").textContent = !invitedGame
      ? t("The game you were invited to is no longer open: its seats were taken, or it expired.")
      : invitedGame.rated && guest ? t("You were invited to a rated game, marked below: sign in to join it.")
        : t("You were invited to the game marked below: join it.");
    $("invite-join").hidden = !invitedGame || !guest || invitedGame.rated;
  }
  $("no-open-games").hidden = games.length > 0;
  $("open-games").hidden = games.length === 0;
  $("open-games").querySelector("tbody").replaceChildren(...games.map((g) => {
    const called = g.creator && g.creator.name ? g.creator.name : t("a guest");  // a creator who gave no name
    const creator = g.creator ? (g.creator.rating !== null ? `${called} (${g.creator.rating})` : called) : "—";
    const refused = g.rated && !me;
    return el("tr", { "data-open-game": g.id, class: g.id === INVITED ? "invited" : null },
      el("td", {}, gameTitle(g.game, g.options)),
      el("td", {}, t("{taken} of {players}", { taken: g.players - g.open_seats.length, players: g.players })),
      el("td", {}, clockName(g.time_control)),
      el("td", {}, g.rated ? t("rated") : t("unrated")),
      el("td", {}, creator),
      el("td", {}, clockWords(g.expires_in)),
      el("td", {}, mine(g) ? el("a", { href: mine(g).link, "data-yours": g.id }, t("your game: open it"))
        : [el("button", { type: "button", class: "primary", "data-join": g.id, disabled: refused,
          title: refused ? t("sign in to join a rated game") : null, onclick: () => join(g) }, t("Join")),
          // said in words, not only in a title a touch screen never shows (as quick play's rated box says it)
          refused ? el("span", { class: "join-why note" }, ` (${t("sign in to join a rated game")})`) : null]));
  }));
  const row = INVITED && !shownInvited && document.querySelector(`#open-games tr.invited`);
  if (row) {                                     // once: later redraws leave the page where the reader put it
    shownInvited = true;
    row.scrollIntoView({ block: "center" });
    const asking = !$("invite-join").hidden && !$("invite-name").value.trim();
    (asking ? $("invite-name") : row.querySelector("button")).focus({ preventScroll: true });
  }
}

$("guest-name").addEventListener("keydown", (event) => {   // asked for to join a game: Enter joins it, seeks nothing
  if (event.key === "Enter" && !event.isComposing && joining) { event.preventDefault(); join(joining); }
});
$("guest-name").value = localStorage.getItem(NAME_KEY) || "";
$("invite-name").value = $("guest-name").value;
$("invite-name").placeholder = t("name");
$("invite-join").addEventListener("submit", (event) => {   // the invited game, under the name given beside it
  event.preventDefault();
  if (invitedGame) join(invitedGame);
});
$("guest-name").placeholder = t("name");
$("quick-play").addEventListener("submit", quickPlay);
remembered($("quick-game"), "splendor-quick-game");
$("quick-cancel").addEventListener("click", cancel);
// Quick play offers the clocks a new game offers: one list, the create form's (index.html).
for (const option of $("clock").options) $("quick-clock").append(option.cloneNode(true));
drawWho();
signedIn().then((account) => { me = account; }).catch(() => { me = null; }).finally(() => {
  known = true;
  drawWho();
  drawOpenGames();
});
if (sessionStorage.getItem(SEEK_KEY)) startPolling();   // a reload goes on waiting
setInterval(drawOpenGames, 5000);
