// A Pokédex page: every Pokémon by evolution line, marked where the profile caught it, each with its National
// Pokédex number (the engine's splendor/games/pokemon/names.py NATIONAL_DEX; tests/pokemon/test_dex.py keeps the two
// equal). The lines come from the server in National Pokédex order.
import { api, el } from "/static/common.js";
import { speak, t } from "/static/i18n.js";
const DEX = {
  Bulbasaur: 1, Ivysaur: 2, Venusaur: 3, Charmander: 4, Charmeleon: 5, Charizard: 6, Squirtle: 7, Wartortle: 8,
  Blastoise: 9, Caterpie: 10, Metapod: 11, Butterfree: 12, Weedle: 13, Kakuna: 14, Beedrill: 15, Pidgey: 16,
  Pidgeotto: 17, Pidgeot: 18, Nidoran: 29, Nidorina: 30, Nidoqueen: 31, Oddish: 43, Gloom: 44, Vileplume: 45,
  Poliwag: 60, Poliwhirl: 61, Poliwrath: 62, Abra: 63, Kadabra: 64, Alakazam: 65, Machop: 66, Machoke: 67,
  Machamp: 68, Bellsprout: 69, Weepinbell: 70, Victreebel: 71, Geodude: 74, Graveler: 75, Golem: 76, Gastly: 92,
  Haunter: 93, Gengar: 94, Lapras: 131, Ditto: 132, Eevee: 133, Aerodactyl: 142, Snorlax: 143, Articuno: 144,
  Zapdos: 145, Moltres: 146, Dratini: 147, Dragonair: 148, Dragonite: 149, Mewtwo: 150, Mew: 151,
};
speak();

// "No. 001": the number as the games print it; nothing for a name without one.
function number(p) {
  return DEX[p] ? [el("small", { class: "dex" }, t("No. {number}", { number: String(DEX[p]).padStart(3, "0") })), " "]
    : null;
}

const name = decodeURIComponent(location.pathname.split("/")[2]);
try {
  const page = await api(`/api/pokedex/${encodeURIComponent(name)}`);
  document.getElementById("heading").textContent = t("Pokédex of {profile}: {caught}/{total} caught",
    { profile: page.profile, caught: page.caught, total: page.total });
  // a name nobody plays under (a typo, say) is said so, not shown as a Pokédex with nothing caught yet
  document.getElementById("unknown").hidden = page.known;
  const labels = page.lines.map((_, i) => i === page.lines.length - 2 ? t("Rare") : i === page.lines.length - 1
    ? t("Legendary") : t("Line {number}", { number: i + 1 }));
  document.getElementById("lines").replaceChildren(...page.lines.map((line, i) => el("section", { class: "panel" },
    el("h2", {}, labels[i]), el("div", { class: "row" }, ...line.map((p) => el("span", {
      class: `chip ${page.marked[p] ? "c-green" : ""}`, "data-pokemon": p, "data-dex": DEX[p] ?? null },
      page.marked[p] ? "✓ " : null, number(p), t(p), page.marked[p] ? ` (${page.marked[p]})` : ""))))));
} catch (e) {
  document.getElementById("error").textContent = e.message;
}
