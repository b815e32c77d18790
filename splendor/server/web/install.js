// The installable app, on every page: the service worker (/sw.js, its scope the whole site) keeps the pages' own
// files so that an installed app opens at once; it is given the words of a "your turn" notification in the
// reader's language, for a push that comes while no page is open.
import { N_, t } from "/static/i18n.js";

const GAMES = { classic: N_("Splendor"), pokemon: N_("Splendor: Pokémon"), kids: N_("Splendor Kids") };

// The registration, or null where the browser has no service workers (or refuses one: a private window).
export const worker = "serviceWorker" in navigator
  ? navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null) : Promise.resolve(null);

export function turnWords() {
  return { title: t("Your turn"), games: Object.fromEntries(Object.entries(GAMES).map(([game, name]) =>
    [game, t("Your move in {game}.", { game: t(name) })])) };
}

worker.then(async (registration) => {
  if (!registration) return;
  const ready = await navigator.serviceWorker.ready;
  if (ready.active) ready.active.postMessage({ type: "words", words: turnWords() });
});
