// A Pokédex page: every Pokémon by evolution line, marked where the profile caught it.
import { api, el } from "/static/common.js";
import { speak, t } from "/static/i18n.js";
speak();
const name = decodeURIComponent(location.pathname.split("/")[2]);
try {
  const page = await api(`/api/pokedex/${encodeURIComponent(name)}`);
  document.getElementById("heading").textContent = t("Pokédex of {profile}: {caught}/{total} caught",
    { profile: page.profile, caught: page.caught, total: page.total });
  const labels = page.lines.map((_, i) => i === page.lines.length - 2 ? t("Rare") : i === page.lines.length - 1
    ? t("Legendary") : t("Line {number}", { number: i + 1 }));
  document.getElementById("lines").replaceChildren(...page.lines.map((line, i) => el("section", { class: "panel" },
    el("h2", {}, labels[i]), el("div", { class: "row" }, ...line.map((p) => el("span", {
      class: `chip ${page.marked[p] ? "c-green" : ""}`, "data-pokemon": p },
      page.marked[p] ? `✓ ${t(p)} (${page.marked[p]})` : `· ${t(p)}`))))));
} catch (e) {
  document.getElementById("error").textContent = e.message;
}
