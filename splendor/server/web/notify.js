// "Notify me when it's my turn": this browser's choice, kept in localStorage. Turned on (only ever from a click:
// the browser asks the player then, never when a page loads), the table shows a notification when the player's
// turn comes while its tab is hidden; and where the server offers Web Push and the player is signed in, the
// browser also subscribes, so the turns of the account's games are told with every page closed.
import { api } from "/static/common.js";
import { worker } from "/static/install.js";

const KEY = "splendor-notify";

export function notifying() {
  return localStorage.getItem(KEY) === "on" && "Notification" in window && Notification.permission === "granted";
}

// The server's public key when it offers push (null when it does not, or this browser cannot).
let offer = null;
export function pushKey() {
  if (!offer) {
    offer = ("PushManager" in window && "serviceWorker" in navigator)
      ? api("/api/push/key").then((r) => r.key).catch(() => null) : Promise.resolve(null);
  }
  return offer;
}

function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - base64url.length % 4) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function subscription() {
  const registration = await worker;
  return registration ? registration.pushManager.getSubscription() : null;
}

// Subscribe this browser for the signed-in account: a fresh subscription for the server's key, told to the server.
async function subscribe(key) {
  const registration = await worker;
  if (!registration) return;
  await navigator.serviceWorker.ready;
  const old = await registration.pushManager.getSubscription();
  if (old) await old.unsubscribe();
  await tell(await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) }));
}

// Tell the server this browser's subscription (it keeps one row an endpoint: telling it again changes nothing).
function tell(sub) {
  const { endpoint, keys } = sub.toJSON();
  return api("/api/push/subscriptions", { method: "POST",
    body: JSON.stringify({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }) });
}

// Stop the pushes to this browser (turned off, or signing out: the next person at this browser is not told of
// this account's turns).
export async function forgetPush() {
  try {
    const sub = await subscription();
    if (!sub) return;
    await api("/api/push/subscriptions", { method: "DELETE", body: JSON.stringify({ endpoint: sub.endpoint }) })
      .catch(() => {});
    await sub.unsubscribe();
  } catch (e) { /* nothing kept here */ }
}

// Turn the notifications on or off, from a click. Returns whether they are on, and why not when they could not be.
export async function setNotify(on, signedIn) {
  if (!on) {
    localStorage.setItem(KEY, "off");
    await forgetPush();
    return { on: false };
  }
  if (!("Notification" in window)) return { on: false, why: "unsupported" };
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") return { on: false, why: "denied" };
  localStorage.setItem(KEY, "on");
  const key = signedIn ? await pushKey() : null;
  if (key) {
    try { await subscribe(key); } catch (e) { return { on: true, why: "push", detail: e.message }; }
  }
  return { on: true, push: Boolean(key) };
}

// The lobby's control, for a signed-in player where the server offers push: "Notify me when it's my turn".
export function pushToggle(t) {
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = "push-on";
  const said = document.createElement("span");
  said.className = "note";
  said.setAttribute("role", "status");
  const label = document.createElement("label");
  label.id = "push-label";
  label.hidden = true;
  label.append(box, " ", t("Notify me when it's my turn"), " ", said);
  pushKey().then(async (key) => {
    if (!key) return;
    label.hidden = false;
    const held = notifying() ? await subscription().catch(() => null) : null;
    box.checked = Boolean(held);
    // told to the server again: it forgets every browser's subscription when the password changes (one could be
    // a thief's), and this browser's own must then not stay silently off while its box says on
    if (held) await tell(held).catch(() => { box.checked = false; });
  });
  box.addEventListener("change", async () => {
    const answer = await setNotify(box.checked, true);
    box.checked = answer.on;
    said.textContent = answer.why === "denied" ? t("This browser blocks notifications from this site.")
      : answer.why === "push" ? t("Not allowed: {reason}", { reason: answer.detail }) : "";
  });
  return label;
}
