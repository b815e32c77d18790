// "Your turn" at the table, for the seat's own page only (never a spectator's or a replay): when it becomes the
// seat's turn the tab's title says so ("● Your turn — Splendor", back to the game's name after), an optional short
// tone plays (a toggle in the header, off by default, kept in this browser; a WebAudio tone, no sound file), and,
// when the player turned notifications on (from a click) and the tab is hidden, the browser shows a notification.
import { gameTitle } from "/static/common.js";
import { t } from "/static/i18n.js";
import { turnWords, worker } from "/static/install.js";
import { notifying, pushKey, setNotify } from "/static/notify.js";

const SOUND_KEY = "splendor-sound";
let wasMine = false;

// After each drawing of the table: ``mine`` whether the seat decides now, ``seen`` whether the table was drawn
// before (a turn that was already the seat's when the page opened is not announced again).
export function announceTurn({ mine, game, mode, seen }) {
  const name = gameTitle(game);
  const playing = mode === "play";
  document.title = mine && playing ? `● ${t("Your turn")} — ${name}` : `splendor — ${name}`;
  document.getElementById("sound-label").hidden = !playing;
  document.getElementById("notify-label").hidden = !playing;
  document.getElementById("sound-on").checked = localStorage.getItem(SOUND_KEY) === "on";
  document.getElementById("notify-on").checked = notifying();
  if (playing && mine && !wasMine && seen) {
    if (localStorage.getItem(SOUND_KEY) === "on") chime();
    if (document.hidden && notifying()) notify(game);
  }
  wasMine = mine && playing;
}

function chime() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
    tone.onended = () => audio.close();
  } catch (e) { /* no audio here: the title still says it */ }
}

// Shown by the service worker where there is one (a phone's browser shows notifications only so); a click on it
// comes back to this table.
async function notify(game) {
  const words = turnWords();
  const seat = new URLSearchParams(location.search).get("seat");
  const options = { body: words.games[game] || words.title, tag: `turn:${location.pathname}`, renotify: true,
    icon: "/static/icons/icon-192.png", data: { url: `${location.pathname}?seat=${seat}` } };  // never the secret
  try {
    const registration = await worker;
    if (registration && registration.active) {
      await registration.showNotification(words.title, options);
      return;
    }
    const shown = new Notification(words.title, options);
    shown.onclick = () => { window.focus(); shown.close(); };
  } catch (e) { /* no notification here: the title still says it */ }
}

// Back at the table: its notification has said all it had to.
async function dismiss() {
  const registration = await worker;
  if (!registration || !registration.getNotifications) return;
  for (const shown of await registration.getNotifications({ tag: `turn:${location.pathname}` })) shown.close();
}

// What a header toggle now does, said under the header for a few seconds: on a phone the toggles are icons alone,
// and a touch screen shows no title; a refused notification says why wherever it is read.
let toggleTimer = null;
function sayToggle(words) {
  const said = document.getElementById("toggle-said");
  said.textContent = words;
  said.hidden = false;
  clearTimeout(toggleTimer);
  toggleTimer = setTimeout(() => { said.hidden = true; }, 4000);
}

// The header's two toggles: the tone, and the notifications (asked for only here, from the click).
export function setupTurnControls(signedIn) {
  document.getElementById("sound-on").addEventListener("change", (event) => {
    localStorage.setItem(SOUND_KEY, event.target.checked ? "on" : "off");
    sayToggle(event.target.checked ? t("Sound on your turn: on.") : t("Sound on your turn: off."));
  });
  const box = document.getElementById("notify-on");
  box.addEventListener("change", async () => {
    const answer = await setNotify(box.checked, signedIn());
    box.checked = answer.on;
    const label = document.getElementById("notify-label");
    const why = answer.why === "denied" ? t("This browser blocks notifications from this site.")
      : answer.why === "unsupported" ? t("This browser cannot show notifications.") : null;
    label.title = why || t("tell me when it is my turn");
    sayToggle(why || (answer.on ? t("Notifications on your turn: on.") : t("Notifications on your turn: off.")));
  });
  pushKey();                            // asked once, so that the click finds the answer at once
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) dismiss();
  });
}
