// The leaderboards: the best-rated accounts of each game, the game chosen by tab (kept in the address: #pokemon).
import { api, el } from "/static/common.js";
import { speak } from "/static/i18n.js";

const GAMES = ["classic", "pokemon", "kids"];

async function show(game) {
  for (const tab of document.querySelectorAll("[data-board]")) {
    tab.setAttribute("aria-selected", String(tab.dataset.board === game));
    tab.classList.toggle("primary", tab.dataset.board === game);
  }
  try {
    const { players } = await api(`/api/leaderboard/${game}`);
    document.querySelector("#leaderboard tbody").replaceChildren(...players.map((p) => el("tr", { "data-player": p.name },
      el("td", {}, p.rank), el("td", {}, p.name), el("td", {}, p.rating), el("td", {}, p.games))));
    document.getElementById("empty").hidden = players.length > 0;
    document.getElementById("error").textContent = "";
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  }
}

speak();
for (const tab of document.querySelectorAll("[data-board]")) {
  tab.addEventListener("click", () => { history.replaceState(null, "", `#${tab.dataset.board}`); show(tab.dataset.board); });
}
const wanted = location.hash.slice(1);
show(GAMES.includes(wanted) ? wanted : "classic");
