// The lobby: create a game (game, options, 2-4 seats each a person or a bot), copy its links, see the games.
import { api, el, forgetProfile, keepProfile, myProfile } from "/static/common.js";

const TITLES = { classic: "Splendor", pokemon: "Splendor: Pokémon", kids: "Splendor Kids" };
const BOTS = [["greedy", "greedy bot"], ["ismcts:easy", "search bot, easy"], ["ismcts:medium", "search bot, medium"],
  ["ismcts:hard", "search bot, hard"], ["random", "random bot"]];

function seatRow(i) {
  const kind = el("select", { "aria-label": `seat ${i} plays`, "data-seat-kind": i },
    el("option", { value: "human" }, "a person"), ...BOTS.map(([v, t]) => el("option", { value: v }, t)));
  if (i > 0) kind.value = "greedy";
  const name = el("input", { placeholder: "name (optional)", "aria-label": `seat ${i} name`, "data-seat-name": i,
    maxlength: 40 });
  return el("div", { class: "row" }, el("strong", {}, `Seat ${i}`), kind, name);
}

function drawSeats() {
  const n = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  const old = [...box.children];
  box.replaceChildren(...Array.from({ length: n }, (_, i) => old[i] || seatRow(i)));
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  const game = document.getElementById("game").value;
  const seats = [...document.querySelectorAll("[data-seat-kind]")].map((sel) => {
    const name = document.querySelector(`[data-seat-name="${sel.dataset.seatKind}"]`).value.trim() || null;
    return sel.value === "human" ? { kind: "human", name } : { kind: "bot", bot: sel.value, name };
  });
  const me = myProfile();
  if (game === "pokemon" && me && document.getElementById("mark-me").checked && seats[0].kind === "human") {
    seats[0].profile = me.name;
    seats[0].profile_secret = me.secret;
  }
  const options = {};
  if (game === "kids") {
    if (document.getElementById("short").checked) options.short = true;
    if (document.getElementById("mysteries").checked) options.mysteries = true;
  }
  try {
    const made = await api("/api/games", { method: "POST", body: JSON.stringify({ game, seats, options }) });
    const links = document.getElementById("links");
    links.replaceChildren(...made.seats.filter((s) => s.link).map((s) => el("p", {},
      el("label", {}, `Seat ${s.seat}${s.name ? " (" + s.name + ")" : ""}: `,
        el("input", { readonly: true, value: s.link, "data-link-seat": s.seat, onfocus: (e) => e.target.select() })),
      " ", el("a", { href: s.link, "data-open-seat": s.seat }, "open"))),
    el("p", {}, el("label", {}, "Spectators: ", el("input", { readonly: true, value: made.spectator_link })), " ",
      el("a", { href: made.spectator_link }, "watch")));
    document.getElementById("created").hidden = false;
    refresh();
  } catch (e) {
    error.textContent = e.message;
  }
}

async function refresh() {
  const { games } = await api("/api/games");
  const body = document.querySelector("#games tbody");
  body.replaceChildren(...games.map((g) => el("tr", {},
    el("td", {}, TITLES[g.game] || g.game), el("td", {}, g.players), el("td", {}, g.status), el("td", {}, g.actions),
    el("td", {}, g.status === "ongoing" ? el("a", { href: `/watch/${g.id}` }, "watch")
      : el("a", { href: `/replay/${g.id}` }, "replay")))));
}

// The profile this browser claimed, or a form to claim one: a Pokédex is marked only by its owner.
function drawMe() {
  const box = document.getElementById("me");
  const me = myProfile();
  if (me) {
    box.replaceChildren(el("p", {}, "This browser plays as ", el("strong", { id: "me-name" }, me.name), ". ",
      el("a", { href: `/pokedex/${encodeURIComponent(me.name)}` }, "Open your Pokédex"), " · ",
      el("button", { type: "button", onclick: () => { if (confirm("Forget this profile on this browser? " +
        "Without its secret nobody can mark it again.")) { forgetProfile(); drawMe(); } } }, "Forget it")));
  } else {
    const name = el("input", { id: "claim-name", placeholder: "your name", "aria-label": "profile name to claim",
      maxlength: 40 });
    const error = el("span", { class: "error", role: "alert" });
    const claim = async () => {
      try {
        const made = await api("/api/profiles", { method: "POST", body: JSON.stringify({ name: name.value.trim() }) });
        keepProfile(made.name, made.secret);
        drawMe();
      } catch (e) { error.textContent = e.message; }
    };
    box.replaceChildren(el("p", {}, "Claim a name to keep a Pokédex across your Pokémon games. Its secret stays in "
      + "this browser: only this browser can mark it."), el("div", { class: "row" }, name,
      el("button", { type: "button", id: "claim", onclick: claim }, "Claim"), error));
  }
  showMarkMe();
}

function showMarkMe() {
  document.getElementById("mark-me-label").hidden = !(myProfile() && document.getElementById("game").value === "pokemon");
}

document.getElementById("players").addEventListener("change", drawSeats);
document.getElementById("game").addEventListener("change", (e) => {
  document.getElementById("kids-options").hidden = e.target.value !== "kids";
  showMarkMe();
});
document.getElementById("new-game").addEventListener("submit", create);
document.getElementById("show-pokedex").addEventListener("click", () => {
  const name = document.getElementById("profile").value.trim();
  if (name) location.href = `/pokedex/${encodeURIComponent(name)}`;
});
drawSeats();
drawMe();
refresh();
setInterval(refresh, 5000);
