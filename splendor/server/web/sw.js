// The service worker (served at /sw.js, its scope the whole site; splendor/server/pwa.py fills in the two values
// below). It keeps the pages' own files (the HTML shells, scripts, styles, icons) in a cache named after the
// server's version and files, so an upgrade brings a new cache and the old one is deleted. It never keeps the game:
// every /api/ request, and every WebSocket, goes to the network untouched. It also shows a "your turn" push
// (Web Push, where the server offers it) and opens the game when the notification is clicked.
const CACHE = "__CACHE__";
const FILES = __FILES__;
// A page's address → its shell, for when the network cannot be reached (the game itself then waits for it).
const SHELLS = [[/^\/$/, "/static/index.html"], [/^\/(play|watch|replay)\//, "/static/table.html"],
  [/^\/pokedex\//, "/static/pokedex.html"], [/^\/leaderboard$/, "/static/leaderboard.html"]];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("splendor-") && name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {            // the network first (a page may change); offline, the shell
    const shell = SHELLS.find(([pattern]) => pattern.test(url.pathname));
    if (!shell) return;
    event.respondWith(fetch(request).catch(() => caches.match(shell[1], { cacheName: CACHE })
      .then((kept) => kept || Response.error())));
    return;
  }
  if (!FILES.includes(url.pathname)) return;    // only the pages' own files, never anything else
  event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((kept) => kept || fetch(request)));
});

// The words of a notification, in the page's language: the pages send them (postMessage) and they are kept
// beside the files, since a push may come when no page is open.
const WORDS = "/sw-words.json";
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "words" && data.words && typeof data.words === "object") {
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(WORDS, new Response(JSON.stringify(data.words),
      { headers: { "content-type": "application/json" } }))));
  }
});

async function words() {
  try {
    const kept = await caches.match(WORDS, { cacheName: CACHE });
    if (kept) return await kept.json();
  } catch (e) { /* the English words below */ }
  return {};
}

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { return; }
  if (data.type !== "turn" || typeof data.url !== "string" || !data.url.startsWith("/play/")) return;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const target = new URL(data.url, location.origin).pathname;
    // Always a notification (a push shown none of its own makes the browser show "updated in the background" and
    // may end the subscription); a quiet one when the game's page is on screen, which says the turn itself.
    const onScreen = open.some((c) => c.visibilityState === "visible" && new URL(c.url).pathname === target);
    const said = await words();
    const title = said.title || "Your turn";
    const body = (said.games && said.games[data.game]) || data.game;
    await self.registration.showNotification(title, { body, tag: `turn:${data.id}`, renotify: !onScreen,
      silent: onScreen, icon: "/static/icons/icon-192.png", badge: "/static/icons/icon-192.png",
      data: { url: data.url } });
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil((async () => {
    const target = new URL(url, location.origin);
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = open.find((c) => new URL(c.url).pathname === target.pathname);
    if (same) return same.focus();
    return self.clients.openWindow(target.href);
  })());
});
