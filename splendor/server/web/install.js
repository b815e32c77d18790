// The installable app, on every page: the service worker (/sw.js, its scope the whole site) keeps the pages' own
// files so that an installed app opens at once; it is given the words of a "your turn" notification in the
// reader's language, for a push that comes while no page is open.
import { gameTitle } from "/static/common.js";
import { t } from "/static/i18n.js";

const GAMES = ["classic", "pokemon", "kids"];

// The registration, or null where the browser has no service workers (or refuses one: a private window).
export const worker = "serviceWorker" in navigator
  ? navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null) : Promise.resolve(null);

export function turnWords() {
  return { title: t("Your turn"), games: Object.fromEntries(GAMES.map((game) =>
    [game, t("Your move in {game}.", { game: gameTitle(game) })])) };
}

// After an upgrade the new worker takes over a page that the old one served: its files may be the old version's
// under the new version's page, so the page is loaded again, once, all of one version.
// Not under the reader's hands: a table half way through a turn (a take being built, a line being typed) waits
// until the page is out of sight.
if ("serviceWorker" in navigator && navigator.serviceWorker.controller) {
  let upgraded = false;
  const reload = () => { if (upgraded && document.hidden) location.reload(); };
  navigator.serviceWorker.addEventListener("controllerchange", () => { upgraded = true; reload(); });
  document.addEventListener("visibilitychange", reload);
}

worker.then(async (registration) => {
  if (!registration) return;
  const ready = await navigator.serviceWorker.ready;
  if (ready.active) ready.active.postMessage({ type: "words", words: turnWords() });
});
