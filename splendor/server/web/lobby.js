// The lobby: sign up or in, create a game (game, options, 2-4 seats each a person or a bot), copy its links, see
// the games (this browser's and, signed in, the account's) and the account's ratings.
import { api, el, gameTitle, forgetAccountGames, forgetProfile, nameProblem, keepGame, keepProfile, myGames, myProfile,
  remembered, seatLabels, signedIn } from "/static/common.js";
import { N_, capital, language, list, speak, t } from "/static/i18n.js";
import { countDown, yourTurnCell, yourTurnFirst } from "/static/yourgames.js";
import { calledOff } from "/static/endgame.js";
import { forgetPush, notifying, pushToggle, setNotify } from "/static/notify.js";

const STATUS = { ongoing: N_("ongoing"), won: N_("won"), shared: N_("shared"), truncated: N_("turn limit reached"),
  stalled: N_("stalled"), aborted: N_("aborted"), expired: N_("expired"), abandoned: N_("abandoned") };
let BOTS = [];                          // [spec, name, games] of each bot the server seats (GET /api/bots)
let ME = null;                          // the signed-in account (GET /api/session), or null

// Seat i (0-based, as the API counts) is shown as Player i + 1, as the table shows it.
function seatRow(i) {
  const number = i + 1;
  const kind = el("select", { "aria-label": t("who is Player {number}", { number }), "data-seat-kind": i },
    el("option", { value: "human" }, t("a person")), i > 0 ? el("option", { value: "open" }, t("open: anyone may take it"))
      : null, ...BOTS.map(([v, name, games]) => el("option", { value: v, "data-games": games.join(" ") }, t(name))));
  if (i > 0) kind.value = "greedy";
  const name = el("input", { placeholder: t("name (optional)"), "aria-label": t("Player {number}'s name", { number }),
    "data-seat-name": i });
  return el("div", { class: "row" }, el("strong", {}, t("Player {number}", { number })), kind, name);
}

function drawSeats() {
  const n = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  const old = [...box.children];
  box.replaceChildren(...Array.from({ length: n }, (_, i) => old[i] || seatRow(i)));
  fitBots();
  fitOpenSeats();
}

// Offer only the bots that play the chosen game (the learned bot plays classic alone); a seat that held another
// falls back to the greedy bot.
function fitBots() {
  const game = document.getElementById("game").value;
  for (const select of document.querySelectorAll("[data-seat-kind]")) {
    for (const option of select.querySelectorAll("option[data-games]")) {
      option.hidden = option.disabled = !option.dataset.games.split(" ").includes(game);
    }
    if (select.selectedOptions[0]?.disabled) select.value = "greedy";
  }
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  const game = document.getElementById("game").value;
  const seats = [...document.querySelectorAll("[data-seat-kind]")].map((sel) => {
    const name = document.querySelector(`[data-seat-name="${sel.dataset.seatKind}"]`).value.trim() || null;
    if (sel.value === "open") return { kind: "open" };     // a seat anyone may take (findgame.js lists the game)
    return sel.value === "human" ? { kind: "human", name } : { kind: "bot", bot: sel.value, name };
  });
  const me = myProfile();
  if (ME && seats[0].kind === "human") {
    seats[0].mine = true;               // Player 1 is the account's: rated, its Pokédex, playable from any browser
  } else if (game === "pokemon" && me && document.getElementById("mark-me").checked && seats[0].kind === "human") {
    seats[0].profile = me.name;
    seats[0].profile_secret = me.secret;
  }
  const long = seats.findIndex((s) => s.name && nameProblem(s.name));
  if (long >= 0) {                      // said with the seat it is about, never cut short by the box
    error.textContent = t("Player {number}: {problem}", { number: long + 1, problem: nameProblem(seats[long].name) });
    return;
  }
  const options = {};
  if (document.getElementById("first").value === "random") options.first_player = "random";   // else Player 1
  if (game === "kids") {
    if (document.getElementById("short").checked) options.short = true;
    if (document.getElementById("mysteries").checked) options.mysteries = true;
  }
  try {
    const clock = document.getElementById("clock").value || undefined;           // the time control (none: untimed)
    const rated = seats[0].mine ? document.getElementById("rated").checked : undefined;   // else the server's rule
    const made = await api("/api/games", { method: "POST",
      body: JSON.stringify({ game, seats, options, clock, rated }) });
    const people = made.seats.filter((s) => s.link);
    // a seat kept in your account is the account's: opened, and kept in this browser, without its secret
    const kept = (s) => Boolean(s.has_account && ME);
    const own = (s) => (kept(s) ? `/play/${made.id}?seat=${s.seat}` : s.link);
    if (people.length) {
      keepGame({ id: made.id, game, seat: people[0].seat, link: own(people[0]),
        ...(kept(people[0]) ? { account: ME.name } : {}) });
    }
    if (people.length <= 1) {             // your seat (or, bots only, the spectators' view) at once
      location.href = people.length ? own(people[0]) : made.spectator_link;
      return;
    }
    const links = document.getElementById("links");
    links.replaceChildren(...people.map((s) => el("p", {},
      el("label", {}, s.name ? t("Player {number} ({name}):", { number: s.seat + 1, name: s.name })
        : t("Player {number}:", { number: s.seat + 1 }), " ",
        kept(s) ? el("span", { "data-link-seat": s.seat }, t("kept in your account"))
          : el("input", { readonly: true, value: s.link, "data-link-seat": s.seat, onfocus: (e) => e.target.select() })),
      " ", el("a", { href: own(s), "data-open-seat": s.seat }, t("open")))),
    el("p", {}, el("label", {}, t("Spectators:"), " ", el("input", { readonly: true, value: made.spectator_link })), " ",
      el("a", { href: made.spectator_link }, t("watch"))));
    document.getElementById("created").hidden = false;
    refresh();
    refreshMyGames();                   // listed at once, not at the next reading of the list (up to 20 s later)
  } catch (e) {
    error.textContent = e.message;
  }
}

// "Your games" read again: the account's games and their clocks from the server, this browser's from its list.
async function refreshMyGames() {
  if (ME) ME.games = ((await signedIn().catch(() => null)) || ME).games;
  await drawMyGames();
}

// Who asked for the rematch of a finished game, when ``seat``'s place in it still waits for this person (kept
// for them, the rematch not called off or expired), else null: the row says it and offers to accept, since the
// finished game's own page is the only other place it shows.
async function rematchAskedOf(rematchId, seat) {
  try {
    const again = await api(`/api/games/${rematchId}`);
    const mine = again.seats[seat];
    if (again.over || !mine || mine.kind !== "open") return null;
    const labels = seatLabels(again.seats);
    const askers = again.seats.filter((s) => s.kind === "human").map((s) => labels[s.seat]);
    return askers.length ? list(askers) : null;
  } catch (e) { return null; }
}

// The games this browser plays, and those the account keeps, with a link back to the seat, the players and, once
// over, the result.
async function drawMyGames() {
  const kept = myGames();
  for (const g of (ME ? ME.games : [])) {
    if (!kept.some((k) => k.id === g.id)) {
      kept.push({ id: g.id, game: g.game, seat: g.seat, link: `/play/${g.id}?seat=${g.seat}` });
    }
  }
  const clocks = new Map((ME ? ME.games : []).map((g) => [`${g.id}:${g.seat}`, g]));   // yourgames.js
  const box = document.getElementById("my-games");
  box.hidden = !kept.length;
  const rows = await Promise.all(kept.map(async (g) => {
    let info = null;
    try { info = await api(`/api/games/${g.id}`); } catch (e) { return null; }
    const seats = seatLabels(info.seats);
    const view = info.view;
    const known = clocks.get(`${g.id}:${g.seat}`);
    const waiting = info.seats.some((s) => s.kind === "open");   // still waiting for players: nobody's turn yet
    const yourTurn = !view.is_over && !info.over && !waiting && view.current_player === g.seat
      && info.seats[g.seat].kind !== "bot";
    const secondsLeft = known && known.your_turn ? known.seconds_left : null;
    const asked = info.over && info.rematch ? await rematchAskedOf(info.rematch, g.seat) : null;
    // how your seat left the game, when it did (with three or four the game goes on, a bot in your seat): a
    // resignation had read as any loss, "won by bob", or as "in play"
    const left = info.ending && info.ending.seat === g.seat ? info.ending.by
      : info.seats[g.seat] && info.seats[g.seat].forfeit ? info.seats[g.seat].forfeit.by : null;
    const leaving = { resigned: t("you resigned"), time: t("you ran out of time"),
      idle: t("you did not move in time") }[left];
    const state = asked !== null ? t("{players} asked for a rematch.", { players: asked })
      : calledOff(info.ending) ? t("called off")
        : leaving || (info.over ? wonBy(info.winners.map((w) => w === g.seat ? t("you") : seats[w]))
          : (yourTurn ? yourTurnCell(secondsLeft) : (waiting ? t("waiting for players") : t("in play"))));
    // the game, rated or not and its clock, and when it began: the rows of two games of the same players are
    // told apart
    const kind = [gameTitle(info.game, info.view), info.rated ? t("rated") : null,
      info.clock ? info.clock.control : null].filter(Boolean).join(" · ");
    const began = info.created_at;
    const row = el("tr", { "data-my-game": g.id, "data-your-turn": yourTurn || asked !== null },
      el("td", {}, kind),
      el("td", {}, seats.map((n, i) => i === g.seat ? t("{name} (you)", { name: n }) : n).join(", ")),
      el("td", {}, state),
      el("td", { class: "began", "data-label": t("started") }, began ? el("time", { datetime: began }, since(began)) : ""),
      el("td", {}, el("a", { href: g.link }, asked !== null ? t("Accept the rematch")
        : view.is_over ? t("see the end") : t("rejoin"))));
    return { row, yourTurn: yourTurn || asked !== null, secondsLeft };
  }));
  document.querySelector("#my-games tbody").replaceChildren(...yourTurnFirst(rows.filter(Boolean)));
  countDown();
}

// How long ago a game was started, in the reader's language ("5 minutes ago", "yesterday"): the games list's
// rows of the same players are told apart by it.
const AGO = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60]];
function since(iso) {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);   // a clock ahead of ours: "now"
  if (Number.isNaN(seconds)) return "";
  const [unit, size] = UNITS.find(([, s]) => seconds >= s) || ["second", 1];
  return unit === "second" ? AGO.format(0, "second") : AGO.format(-Math.floor(seconds / size), unit);
}

// Who won a finished game, by the names given: "won by ann", "shared by ann and bob", "no winner".
function wonBy(names) {
  if (!names.length) return t("no winner");
  const players = list(names);
  return names.length > 1 ? t("shared by {players}", { players }) : t("won by {players}", { players });
}

// Where a listed game stands: waiting for players, in play, or how it ended, with who won where the server kept
// it (games that ended before it kept winners say only "won").
function standing(g) {
  if (g.waiting_for_players) return t("waiting for players");
  const names = seatLabels(g.seats);
  // kept winners say who, or nobody (a seat won by the bot that played it on after its person left is no one's win)
  if (["won", "shared"].includes(g.status) && Array.isArray(g.winners)) return wonBy(g.winners.map((w) => names[w]));
  return STATUS[g.status] ? t(STATUS[g.status]) : g.status;
}

async function refresh() {
  const { games } = await api("/api/games");
  const body = document.querySelector("#games tbody");
  if (!games.length) {                 // said, not a table of headings over nothing
    body.replaceChildren(el("tr", {}, el("td", { colspan: 6, class: "none" },
      t("No games yet on this server: create one above, or use quick play."))));
    return;
  }
  body.replaceChildren(...games.map((g) => el("tr", {},
    el("td", {}, gameTitle(g.game, g.options)), el("td", {}, list(seatLabels(g.seats))),
    el("td", {}, standing(g)),
    el("td", {}, g.actions),
    el("td", {}, g.created_at ? el("time", { datetime: g.created_at }, since(g.created_at)) : ""),
    el("td", {}, g.status === "ongoing" ? el("a", { href: `/watch/${g.id}` }, t("watch"))
      : g.actions ? el("a", { href: `/replay/${g.id}` }, t("replay")) : ""))));   // no move: nothing to replay
}

// The profile this browser claimed, or a form to claim one: a Pokédex is marked only by its owner.
function drawMe() {
  const box = document.getElementById("me");
  const me = myProfile();
  if (ME) {                             // signed in: the account's Pokédex, marked by its seats
    box.replaceChildren(el("p", {}, el("strong", { id: "me-name" }, ME.name), " · ",
      el("a", { href: `/pokedex/${encodeURIComponent(ME.name)}`, id: "account-pokedex" }, t("Open your Pokédex"))));
  } else if (me) {
    box.replaceChildren(el("p", {}, t("This browser plays as:"), " ", el("strong", { id: "me-name" }, me.name), " · ",
      el("a", { href: `/pokedex/${encodeURIComponent(me.name)}` }, t("Open your Pokédex")), " · ",
      el("button", { type: "button", onclick: () => { if (confirm(t("Forget this profile on this browser? " +
        "Without its secret nobody can mark it again."))) { forgetProfile(); drawMe(); } } }, t("Forget it"))));
  } else if (!box.querySelector("#claim-name")) {   // drawn already (before the account answered): keep what is typed
    const name = el("input", { id: "claim-name", placeholder: t("your name"), "aria-label": t("profile name to claim") });
    const error = el("span", { class: "error", role: "alert" });
    const claim = async () => {
      const problem = nameProblem(name.value.trim());
      if (problem) { error.textContent = problem; return; }
      try {
        const made = await api("/api/profiles", { method: "POST", body: JSON.stringify({ name: name.value.trim() }) });
        keepProfile(made.name, made.secret);
        drawMe();
      } catch (e) { error.textContent = capital(e.message); }
    };
    box.replaceChildren(el("p", {}, t("Claim a name to keep a Pokédex across your Pokémon games. Its secret stays in "
      + "this browser: only this browser can mark it.")), el("div", { class: "row" }, name,
      el("button", { type: "button", id: "claim", onclick: claim }, t("Claim")), error));
  }
  showMarkMe();
}

// An open seat needs Player 1 to be a person, the creator, who may call the game off while it waits for players
// (the server refuses a game of bots and open seats): with a bot as Player 1 no seat may be open.
function fitOpenSeats() {
  const first = document.querySelector("[data-seat-kind='0']");
  const botFirst = Boolean(first) && first.value !== "human";
  for (const option of document.querySelectorAll("[data-seat-kind] option[value='open']")) option.disabled = botFirst;
  for (const select of document.querySelectorAll("[data-seat-kind]")) {
    if (botFirst && select.value === "open") select.value = "human";
  }
}

function showMarkMe() {
  document.getElementById("mark-me-label").hidden = !(myProfile() && !ME
    && document.getElementById("game").value === "pokemon");
  // an account's game is rated unless it says otherwise: said, and chosen, before the game is made
  const kindOfFirst = document.querySelector("[data-seat-kind='0']");
  document.getElementById("rated-label").hidden = !(ME && (!kindOfFirst || kindOfFirst.value === "human"));
}

// Change the password (the current one shown); the account's other browsers are signed out.
function passwordForm() {
  const old = el("input", { type: "password", id: "old-password", autocomplete: "current-password",
    "aria-label": t("Current password"), placeholder: t("Current password") });
  const fresh = el("input", { type: "password", id: "new-password", autocomplete: "new-password",
    "aria-label": t("New password"), placeholder: t("New password") });
  const said = el("p", { role: "status", id: "password-said" });
  const change = async (event) => {
    event.preventDefault();
    if (!old.value) { said.textContent = t("Write your current password."); return; }
    if ([...fresh.value].length < 8 || [...fresh.value].length > 200) {       // characters, as the server counts
      said.textContent = t("A password is 8 to 200 characters.");
      return;
    }
    try {
      await api("/api/me/password", { method: "POST", body: JSON.stringify({ old: old.value, new: fresh.value }) });
      old.value = fresh.value = "";
      said.textContent = t("The password is changed; your other browsers are signed out.");
      // the server forgot every browser's push subscription (another's could have been a thief's): this one's again
      if (notifying()) await setNotify(true, true).catch(() => {});
    } catch (e) { said.textContent = e.message; }
  };
  return el("details", {}, el("summary", {}, t("Change your password")),
    el("form", { class: "row", id: "password-form", onsubmit: change }, old, fresh,
      el("button", { type: "submit", id: "change-password" }, t("Change"))), said);
}

// Delete the account, its password shown again (nothing is sent by accident: a closed panel, a password, a button
// saying what it does). The server refuses while a game of the account's is going on, and says so.
function deleteForm() {
  const password = el("input", { type: "password", id: "delete-password", autocomplete: "current-password",
    "aria-label": t("Password"), placeholder: t("Password") });
  const said = el("p", { role: "status", id: "delete-said" });
  const remove = async (event) => {
    event.preventDefault();
    if (!password.value) { said.textContent = t("Write your password to delete the account."); return; }
    try {
      await api("/api/me", { method: "DELETE", body: JSON.stringify({ password: password.value }) });
    } catch (e) { said.textContent = e.message; return; }
    await forgetPush().catch(() => {});   // the browser's subscription too (the server forgot the account's)
    forgetAccountGames();
    location.reload();
  };
  return el("details", { id: "delete-account" }, el("summary", {}, t("Delete this account")),
    el("p", { class: "note" }, t("Its ratings, their history and its Pokédex are deleted, and its name is free "
      + "again; its finished games keep the name they were played under. This cannot be undone.")),
    el("form", { class: "row", id: "delete-form", onsubmit: remove }, password,
      el("button", { type: "submit", id: "delete-account-go", class: "danger" }, t("Delete the account"))), said);
}

// The account: a form to sign up or in, or who is signed in with their ratings. A session is an HttpOnly cookie:
// no script of the page ever holds it.
async function drawAccount() {
  try { ME = await signedIn(); } catch (e) { ME = null; }
  const box = document.getElementById("account-body");
  if (ME) {
    const rated = Object.entries(ME.ratings);
    box.replaceChildren(el("p", {}, t("Signed in as {name}", { name: ME.name }), " · ",
      el("button", { type: "button", id: "sign-out", onclick: async () => {
        await forgetPush();               // the next person at this browser is not told of this account's turns
        await api("/api/session", { method: "DELETE" }).catch(() => {});
        forgetAccountGames();
        location.reload();
      } }, t("Sign out"))),
    rated.length ? el("ul", { id: "my-ratings" }, ...rated.map(([game, r]) => el("li", { "data-rating-game": game },
      t("{game}: rating {rating}, rated games: {games}", { game: gameTitle(game), rating: r.rating, games: r.games }))))
      : el("p", { id: "my-ratings" }, t("No rated games yet: play against a bot, or against friends who have accounts.")),
    el("p", {}, pushToggle(t)), passwordForm(), deleteForm());
  } else {
    const name = el("input", { id: "account-name", autocomplete: "username",
      "aria-label": t("Name"), placeholder: t("Name") });
    const password = el("input", { id: "account-password", type: "password", autocomplete: "current-password",
      "aria-label": t("Password"), placeholder: t("Password") });
    const error = el("p", { class: "error", role: "alert", id: "account-error" });
    const go = (path) => async (event) => {
      event.preventDefault();
      error.textContent = "";
      // said here, in the reader's language, before the server's rules of the fields are met in English
      const signingUp = path === "/api/accounts";
      const problem = nameProblem(name.value.trim())
        || (!password.value ? t("Write a password.") : null)
        || ((signingUp && [...password.value].length < 8) || [...password.value].length > 200
          ? t("A password is 8 to 200 characters.") : null);
      if (problem) { error.textContent = problem; return; }
      try {
        await api(path, { method: "POST", body: JSON.stringify({ name: name.value.trim(), password: password.value }) });
        location.reload();
      } catch (e) { error.textContent = capital(e.message); }
    };
    box.replaceChildren(el("p", {}, t("With an account your games follow you to any browser, and games against bots "
      + "or friends with accounts are rated.")),
    el("form", { class: "row", id: "account-form", onsubmit: go("/api/session") }, name, password,
      el("button", { type: "submit", id: "sign-in", class: "primary" }, t("Sign in")),
      el("button", { type: "button", id: "sign-up", onclick: go("/api/accounts") }, t("Sign up"))), error);
  }
  drawMe();
  drawMyGames();
}

speak();
document.getElementById("players").addEventListener("change", drawSeats);
function gameChosen() {
  document.getElementById("kids-options").hidden = document.getElementById("game").value !== "kids";
  showMarkMe();
  fitBots();
}
document.getElementById("game").addEventListener("change", gameChosen);
remembered(document.getElementById("game"), "splendor-new-game");
gameChosen();                            // also for a choice the browser itself restored on a reload
document.getElementById("new-game").addEventListener("submit", create);
// The Mysteries use all three sections of the board, the short game two: one or the other, never both ticked,
// and the one unticked is said, not changed unseen.
for (const [box, other] of [["short", "mysteries"], ["mysteries", "short"]]) {
  document.getElementById(box).addEventListener("change", (e) => {
    const unticked = e.target.checked && document.getElementById(other).checked;
    if (unticked) document.getElementById(other).checked = false;
    document.getElementById("kids-options-note").textContent = !unticked ? ""
      : box === "mysteries" ? t("The Mysteries use the whole board: the short game is off.")
        : t("The short game leaves out the Mysteries' section: the Mysteries are off.");
  });
}
document.getElementById("seats").addEventListener("change", () => { showMarkMe(); fitOpenSeats(); });

// "Learn to play": a game against the greedy bot on a fixed deal (Kids on the short board), opened with the guide.
const TUTORIAL_SEED = 1;
async function learn(game) {
  const error = document.getElementById("learn-error");
  error.textContent = "";
  try {
    const made = await api("/api/games", { method: "POST", body: JSON.stringify({ game, seed: TUTORIAL_SEED,
      seats: [{ kind: "human", name: null }, { kind: "bot", bot: "greedy", name: null }],
      options: game === "kids" ? { short: true } : {} }) });
    const mine = made.seats[0];
    keepGame({ id: made.id, game, seat: 0, link: `${mine.link}&tutorial=1` });   // rejoined with the guide
    location.href = `${mine.link}&tutorial=1`;
  } catch (e) { error.textContent = capital(e.message); }
}
for (const button of document.querySelectorAll("[data-learn]")) {
  button.addEventListener("click", () => learn(button.dataset.learn));
}
document.getElementById("show-pokedex").addEventListener("click", () => {
  const name = document.getElementById("profile").value.trim();
  if (name) location.href = `/pokedex/${encodeURIComponent(name)}`;
});
api("/api/bots").then(({ bots }) => {
  BOTS = bots.map((b) => [b.spec, b.name, b.games]);
  drawSeats();
}).catch((e) => {
  document.getElementById("create-error").textContent = t("The bots are not known: {reason}", { reason: e.message });
});
drawMe();
drawAccount();
refresh();
setInterval(refresh, 5000);
setInterval(refreshMyGames, 20000);    // "Your games": whose turn it is, and the clocks, from the server now and then
